// Hand translation of the conformance program types_defaults_nullable.fitz, written the way the
// code generator emits a program. handwritten_test.cpp runs it and compares with the .out file.
#include "fitz/runtime.h"

namespace fitz_program {
using namespace fitz::literals;
using fitz::List;
using fitz::Nullable;
using fitz::Ref;
using fitz::Str;

constexpr const char* kFile = "types_defaults_nullable.fitz";

int64_t base_port;

struct Server {
  static constexpr const char* fitz_name = "Server";
  static constexpr const char* fitz_field_names[] = {"host", "port", "tags", "owner", "secure"};
  Str host;
  int64_t port = 0;
  List<Str> tags{fitz::uninit};
  Nullable<Str> owner;
  bool secure = false;
  auto fitz_fields() const { return std::tie(host, port, tags, owner, secure); }
  auto fitz_fields() { return std::tie(host, port, tags, owner, secure); }
};

// A struct literal evaluates the omitted fields' defaults at instantiation.
Ref<Server> new_Server(Str host, const int64_t* port, const bool* secure, const Str* owner) {
  return fitz::make<Server>(std::move(host), port ? *port : fitz::op::add(base_port, 80, {kFile, 5, 20}),
                            List<Str>{}, owner ? Nullable<Str>(*owner) : Nullable<Str>(),
                            secure ? *secure : false);
}

struct Link {
  static constexpr const char* fitz_name = "Link";
  static constexpr const char* fitz_field_names[] = {"src", "dst", "cost"};
  Str src;
  Str dst;
  double cost = 0;
  auto fitz_fields() const { return std::tie(src, dst, cost); }
  auto fitz_fields() { return std::tie(src, dst, cost); }
};

struct Trip {
  static constexpr const char* fitz_name = "Trip";
  static constexpr const char* fitz_field_names[] = {"name", "hops"};
  Str name;
  List<Ref<Link>> hops{fitz::uninit};
  auto fitz_fields() const { return std::tie(name, hops); }
  auto fitz_fields() { return std::tie(name, hops); }
};

void top_level() {
  base_port = 8000;
  Ref<Server> a = new_Server("alpha"_s, nullptr, nullptr, nullptr);
  fitz::print(a);
  int64_t port9000 = 9000;
  bool yes = true;
  Str ops = "ops"_s;
  Ref<Server> b = new_Server("beta"_s, &port9000, &yes, &ops);
  fitz::print(b);
  fitz::print(fitz::op::add(a->port, b->port, {kFile, 14, 15}), b->owner, a->owner);
  a->tags.push("edge"_s);
  Ref<Server> c = new_Server("gamma"_s, nullptr, nullptr, nullptr);
  fitz::print(a->tags, c->tags);
  base_port = 5000;
  Ref<Server> d = new_Server("delta"_s, nullptr, nullptr, nullptr);
  fitz::print(d->port);
  Ref<Server> alias = c;
  alias->host = "omega"_s;
  fitz::print(c->host);
  fitz::print(fitz::eq(new_Server("x"_s, nullptr, nullptr, nullptr), new_Server("x"_s, nullptr, nullptr, nullptr)),
              fitz::eq(a, c));
  Ref<Trip> trip = fitz::make<Trip>(
      "t1"_s, List<Ref<Link>>{fitz::make<Link>("a"_s, "b"_s, 1.5), fitz::make<Link>("b"_s, "c"_s, 2.0)});
  fitz::print(trip);
  fitz::print(trip->hops.at(1, {kFile, 30, 7})->dst);
}

}  // namespace fitz_program

#ifndef FITZ_HANDWRITTEN_NO_MAIN
int main(int argc, char** argv) { return fitz::run_main(argc, argv, &fitz_program::top_level); }
#endif
