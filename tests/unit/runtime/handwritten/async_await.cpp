// Hand translation of the conformance program async_await.fitz, written the way the code
// generator emits a program. handwritten_test.cpp runs it and compares with async_await.out.
#include "fitz/runtime.h"

namespace fitz_program {
using namespace fitz::literals;
using fitz::Any;
using fitz::List;
using fitz::Str;
using fitz::Task;

constexpr const char* kFile = "async_await.fitz";

Task<int64_t> fetch_score(Str player) {
  co_await fitz::sleep(5);
  co_return fitz::op::mul(player.len(), 10, {kFile, 4, 12});
}

Task<int64_t> total_score(Str a, Str b) {
  int64_t first = co_await fetch_score(a);
  int64_t second = co_await fetch_score(b);
  co_return fitz::op::add(first, second, {kFile, 9, 12});
}

// type Job { id: Int; async fn run(factor: Int) -> Int }
struct Job {
  static constexpr const char* fitz_name = "Job";
  static constexpr const char* fitz_field_names[] = {"id"};
  int64_t id = 0;
  auto fitz_fields() const { return std::tie(id); }
  auto fitz_fields() { return std::tie(id); }

  // Methods take the instance handle explicitly so it outlives every suspension.
  static Task<int64_t> run(fitz::Ref<Job> self, int64_t factor) {
    co_await fitz::sleep(1);
    co_return fitz::op::mul(self->id, factor, {kFile, 29, 16});
  }
};

void top_level() {
  Task<int64_t> pending = fetch_score("ana"_s);
  fitz::print("created future"_s);
  int64_t score = fitz::block_on(pending, {kFile, 13, 21});
  fitz::print(score);
  fitz::print(fitz::block_on(total_score("bo"_s, "cleo"_s), {kFile, 15, 34}));
  List<Task<int64_t>> futures{fetch_score("x"_s), fetch_score("yy"_s)};
  List<Any> results;
  for (Task<int64_t> f : futures) {
    results.push(fitz::to_any(fitz::block_on(f, {kFile, 19, 20})));
  }
  fitz::print(results);
  fitz::block_on(fitz::sleep(1), {kFile, 22, 10});
  fitz::print("done after sleep"_s);
  fitz::print(fitz::block_on(Job::run(fitz::make<Job>(int64_t{7}), 3), {kFile, 32, 28}));
}

}  // namespace fitz_program

#ifndef FITZ_HANDWRITTEN_NO_MAIN
int main(int argc, char** argv) { return fitz::run_main(argc, argv, &fitz_program::top_level); }
#endif
