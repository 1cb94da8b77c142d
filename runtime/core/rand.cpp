// `rand`: the module's calls draw from a SplitMix64 per thread, seeded from the OS (handlers on
// several server threads never share or lock one generator, and no state outlives the thread);
// `rand.seeded(n)` returns a RandGen box that owns its own state, so a seeded sequence belongs to
// the program value holding it and replays identically. `rand.bytes` always reads the kernel's
// CSPRNG: it is for tokens.
#include <sys/random.h>

#include <string>
#include <vector>

#include "fitz/runtime.h"
#include "any_internal.h"

namespace fitz {

namespace {

using detail::AnyObj;
using detail::ObjKind;

using detail::is;

void os_random(void* p, size_t n, SourcePos pos) {
  size_t got = 0;
  while (got < n) {
    ssize_t k = getrandom(static_cast<char*>(p) + got, n - got, 0);
    if (k <= 0) runtime_error(pos, Str::lit("rand: the system random source failed"));
    got += size_t(k);
  }
}

std::vector<Any> elements(const Any& list, const char* who, SourcePos pos) {
  if (!list.is_kind(ObjKind::List)) runtime_error(pos, Str::from(std::string(who) + ": expected a List"));
  std::vector<Any> out;
  for (int64_t i = 0, n = list.obj()->len(); i < n; ++i) out.push_back(list.obj()->get(i, pos));
  return out;
}

Any list_of(std::vector<Any> xs) {
  List<Any> l = List<Any>::with_capacity(int64_t(xs.size()));
  for (Any& x : xs) l.vec().push_back(std::move(x));
  return to_any(l);
}

// The methods rand and RandGen share: int, float, bool, choice, shuffle, sample.
bool draw(SplitMix64& g, const char* prefix, const char* name, const Any* args, size_t n, SourcePos pos, Any* out) {
  std::string who = std::string(prefix) + "." + name;
  if (is(name, "int") && n == 2) {
    int64_t lo = from_any<int64_t>(args[0], pos), hi = from_any<int64_t>(args[1], pos);
    if (lo > hi) runtime_error(pos, Str::from(who + ": min " + std::to_string(lo) + " is above max " + std::to_string(hi)));
    *out = Any(g.int_in(lo, hi));
    return true;
  }
  if (is(name, "float") && n == 0) return *out = Any(g.unit()), true;
  if (is(name, "bool") && n == 0) return *out = Any((g.next() >> 63) != 0), true;
  if (is(name, "choice") && n == 1) {
    std::vector<Any> xs = elements(args[0], who.c_str(), pos);
    if (xs.empty()) return *out = to_any(Result<Any, Str>::err(Str::from(who + ": empty list"))), true;
    *out = to_any(Result<Any, Str>::ok(xs[size_t(g.int_in(0, int64_t(xs.size()) - 1))]));
    return true;
  }
  if (is(name, "shuffle") && n == 1) {
    // Fisher-Yates from the last element down, on a copy.
    std::vector<Any> xs = elements(args[0], who.c_str(), pos);
    for (size_t i = xs.size(); i > 1; --i) std::swap(xs[i - 1], xs[size_t(g.int_in(0, int64_t(i) - 1))]);
    return *out = list_of(std::move(xs)), true;
  }
  if (is(name, "sample") && n == 2) {
    // The first k steps of a forward Fisher-Yates: k distinct positions in draw order.
    std::vector<Any> xs = elements(args[0], who.c_str(), pos);
    int64_t k = from_any<int64_t>(args[1], pos);
    if (k < 0 || k > int64_t(xs.size()))
      return *out = to_any(Result<Any, Str>::err(Str::from(who + ": cannot take " + std::to_string(k) + " of " +
                                                           std::to_string(xs.size()) + " elements"))),
             true;
    for (int64_t i = 0; i < k; ++i) std::swap(xs[size_t(i)], xs[size_t(g.int_in(i, int64_t(xs.size()) - 1))]);
    xs.resize(size_t(k));
    return *out = to_any(Result<Any, Str>::ok(list_of(std::move(xs)))), true;
  }
  return false;
}

class RandGenBox final : public AnyObj {
 public:
  explicit RandGenBox(uint64_t seed) { g_.state = seed; }
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<RandGenBox>(); }
  void type_name(Buf& b) const override { b.lit("RandGen"); }
  void show(Buf& b, bool) const override { b.lit("<RandGen>"); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    return draw(g_, "RandGen", name, args, n, pos, out);
  }

 private:
  SplitMix64 g_;
};

SplitMix64& thread_generator(SourcePos pos) {
  thread_local SplitMix64 g;
  thread_local bool seeded = false;
  if (!seeded) {
    os_random(&g.state, sizeof g.state, pos);
    seeded = true;
  }
  return g;
}

class RandModule final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<RandModule>(); }
  void type_name(Buf& b) const override { b.lit("RandModule"); }
  void show(Buf& b, bool) const override { b.lit("<rand>"); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    if (is(name, "seeded") && n == 1) return *out = Any(new RandGenBox(uint64_t(from_any<int64_t>(args[0], pos)))), true;
    if (is(name, "bytes") && n == 1) {
      int64_t k = from_any<int64_t>(args[0], pos);
      if (k < 0 || k > (int64_t(1) << 30)) runtime_error(pos, Str::from("rand.bytes: invalid length " + std::to_string(k)));
      std::string buf(size_t(k), '\0');
      if (k) os_random(buf.data(), buf.size(), pos);
      return *out = to_any(Bytes(buf.data(), buf.size())), true;
    }
    return draw(thread_generator(pos), "rand", name, args, n, pos, out);
  }
};

}  // namespace

Any rand_module() {
  thread_local Any module(new RandModule());
  return module;
}

}  // namespace fitz
