// Any: conversions to and from every static type (aliasing preserved), the mismatch error,
// dynamic operators, indexing, fields, calls and methods by name.
#include <gtest/gtest.h>

#include <string>

#include "fitz/runtime.h"

using namespace fitz::literals;
using fitz::Any;
using fitz::from_any;
using fitz::List;
using fitz::Map;
using fitz::Str;
using fitz::to_any;

namespace {

std::string shown(const auto& v) { return fitz::to_str(v).template as<std::string>(); }

template <class F> Str error_of(F f) {
  fitz::Panic p;
  EXPECT_TRUE(fitz::catch_panic(f, &p));
  return p.message;
}

struct Point {
  static constexpr const char* fitz_name = "Point";
  static constexpr const char* fitz_field_names[] = {"x", "y"};
  int64_t x = 0;
  int64_t y = 0;
  auto fitz_fields() const { return std::tie(x, y); }
  auto fitz_fields() { return std::tie(x, y); }
  // What the code generator emits so methods can be called on an Any holding a Point.
  bool fitz_call(const char* name, const Any* args, size_t n, fitz::SourcePos pos, Any* out) {
    if (std::string(name) == "sum" && n == 0) {
      *out = Any(x + y);
      return true;
    }
    if (std::string(name) == "scaled" && n == 1) {
      int64_t k = from_any<int64_t>(args[0], pos);
      *out = to_any(fitz::make<Point>(x * k, y * k));
      return true;
    }
    return false;
  }
};

}  // namespace

TEST(Any, Scalars) {
  Any n(int64_t{42});
  EXPECT_TRUE(n.is_int());
  EXPECT_EQ(from_any<int64_t>(n), 42);
  EXPECT_DOUBLE_EQ(from_any<double>(n), 42.0);  // Int promotes to Float
  EXPECT_EQ(n.type_name(), "Int"_s);
  EXPECT_EQ(Any(2.5).type_name(), "Float"_s);
  EXPECT_EQ(Any("s"_s).type_name(), "Str"_s);
  EXPECT_EQ(Any(true).type_name(), "Bool"_s);
  EXPECT_EQ(Any().type_name(), "Null"_s);
  EXPECT_EQ(shown(n.as_int()), "Ok(42)");
  EXPECT_EQ(shown(Any("x"_s).as_int()), "Err(\"expected Int, found Str\")");
  EXPECT_EQ(shown(n.as_float()), "Ok(42.0)");
  EXPECT_EQ(shown(Any("x"_s).as_str()), "Ok(\"x\")");
  EXPECT_EQ(shown(Any(true).as_bool()), "Ok(true)");
  EXPECT_EQ(shown(to_any(fitz::bytes("a"_s)).as_bytes()), "Ok(b\"a\")");
  Any s("hello world, a long string"_s);
  Any copy = s;
  Any moved = std::move(copy);
  EXPECT_EQ(from_any<Str>(moved), "hello world, a long string"_s);
  EXPECT_TRUE(copy.is_null());
}

TEST(Any, MismatchIsARuntimeErrorNamingBothTypes) {
  fitz::Panic p;
  EXPECT_TRUE(fitz::catch_panic([] { from_any<int64_t>(Any("7"_s), {"main.fitz", 4, 12}); }, &p));
  EXPECT_EQ(p.message, "type mismatch: expected Int, found Str"_s);
  EXPECT_STREQ(p.pos.file, "main.fitz");
  EXPECT_EQ(p.pos.line, 4u);
  EXPECT_EQ(p.pos.col, 12u);
  EXPECT_EQ(error_of([] { from_any<List<int64_t>>(to_any(List<Str>{"a"_s})); }),
            "type mismatch: expected List<Int>, found List<Str>"_s);
  EXPECT_EQ(error_of([] { from_any<Str>(Any()); }), "type mismatch: expected Str, found Null"_s);
  EXPECT_EQ(error_of([] { from_any<fitz::Ref<Point>>(Any(int64_t{1})); }),
            "type mismatch: expected Point, found Int"_s);
  EXPECT_EQ(error_of([] { from_any<bool>(Any(int64_t{1})); }), "type mismatch: expected Bool, found Int"_s);
}

TEST(Any, CollectionsKeepAliasing) {
  List<int64_t> xs{1, 2};
  Any a = to_any(xs);
  EXPECT_EQ(a.type_name(), "List<Int>"_s);
  fitz::any_method(a, "push", {Any(int64_t{3})});
  EXPECT_EQ(shown(xs), "[1, 2, 3]");
  List<int64_t> back = from_any<List<int64_t>>(a);
  EXPECT_TRUE(back.same(xs));
  EXPECT_EQ(error_of([&] { fitz::any_method(a, "push", {Any("x"_s)}); }), "type mismatch: expected Int, found Str"_s);
  // A List<Any> holding ints converts element-wise into a new List<Int>.
  List<Any> dyn{Any(int64_t{1}), Any(int64_t{2})};
  List<int64_t> typed = from_any<List<int64_t>>(to_any(dyn));
  EXPECT_EQ(shown(typed), "[1, 2]");
  Map<Str, int64_t> m{{"a"_s, 1}};
  Any am = to_any(m);
  fitz::any_set_index(am, Any("b"_s), Any(int64_t{2}));
  EXPECT_EQ(shown(m), "{\"a\": 1, \"b\": 2}");
  EXPECT_EQ(shown(fitz::any_index(am, Any("b"_s))), "2");
  EXPECT_TRUE((from_any<Map<Str, int64_t>>(am).same(m)));
  EXPECT_EQ(error_of([&] { fitz::any_index(am, Any("zz"_s)); }), "key not found: \"zz\""_s);
}

TEST(Any, RoundTripsOfEveryKind) {
  auto t = std::tuple<int64_t, Str>{1, "a"_s};
  EXPECT_TRUE((fitz::eq(from_any<std::tuple<int64_t, Str>>(to_any(t)), t)));
  fitz::Result<int64_t, Str> r = fitz::Ok(int64_t{5});
  EXPECT_EQ(shown(from_any<fitz::Result<int64_t, Str>>(to_any(r))), "Ok(5)");
  EXPECT_EQ(shown(from_any<fitz::Result<double, Str>>(to_any(r))), "Ok(5.0)");
  EXPECT_TRUE(from_any<fitz::Nullable<Str>>(Any()).is_null());
  EXPECT_EQ(from_any<fitz::Nullable<Str>>(Any("v"_s)).value(), "v"_s);
  EXPECT_TRUE(to_any(fitz::Nullable<int64_t>()).is_null());
  fitz::Range rg(1, 5, true);
  EXPECT_TRUE(fitz::eq(from_any<fitz::Range>(to_any(rg)), rg));
  auto p = fitz::make<Point>(int64_t{1}, int64_t{2});
  Any ap = to_any(p);
  EXPECT_EQ(ap.type_name(), "Point"_s);
  EXPECT_TRUE(from_any<fitz::Ref<Point>>(ap).same(p));
  EXPECT_EQ(shown(ap), "Point { x: 1, y: 2 }");
  fitz::Fn<int64_t(int64_t)> twice = [](int64_t x) { return x * 2; };
  Any af = to_any(twice);
  EXPECT_EQ(af.type_name(), "Fn(Int) -> Int"_s);
  EXPECT_EQ(from_any<int64_t>(fitz::any_call(af, {Any(int64_t{21})})), 42);
  // Through a different signature: converted call by call.
  auto as_float = from_any<fitz::Fn<double(int64_t)>>(af);
  EXPECT_DOUBLE_EQ(as_float(4), 8.0);
  EXPECT_EQ(error_of([&] { fitz::any_call(af, {}); }), "function expects 1 argument, received 0"_s);
  EXPECT_EQ(error_of([] { fitz::any_call(Any(int64_t{1}), {}); }), "Int is not a function"_s);
}

TEST(Any, DynamicOperators) {
  namespace op = fitz::op;
  EXPECT_EQ(shown(op::add(Any(int64_t{1}), Any(int64_t{2}))), "3");
  EXPECT_EQ(shown(op::add(Any(int64_t{1}), Any(1.0))), "2.0");
  EXPECT_EQ(shown(op::add(Any("a"_s), Any("b"_s))), "ab");
  EXPECT_EQ(shown(op::mod(Any(int64_t{-7}), Any(int64_t{3}))), "2");
  EXPECT_EQ(shown(op::div(Any(int64_t{7}), Any(int64_t{2}))), "3");
  EXPECT_EQ(shown(op::mul(Any(int64_t{3}), int64_t{4})), "12");
  EXPECT_EQ(shown(op::sub(int64_t{10}, Any(0.5))), "9.5");
  EXPECT_EQ(shown(op::neg(Any(int64_t{5}))), "-5");
  EXPECT_EQ(error_of([] { op::add(Any("a"_s), Any(int64_t{1})); }), "operator + does not accept Str and Int"_s);
  EXPECT_EQ(error_of([] { op::add(Any(INT64_MAX), Any(int64_t{1})); }), "integer overflow: 9223372036854775807 + 1"_s);
  EXPECT_TRUE(op::lt(Any(int64_t{1}), Any(1.5), {}));
  EXPECT_TRUE(op::lt(Any("a"_s), Any("b"_s), {}));
  EXPECT_EQ(error_of([] { op::lt(Any(int64_t{1}), Any("a"_s), {}); }), "comparison between Int and Str not supported"_s);
  EXPECT_TRUE(fitz::eq(Any(int64_t{1}), Any(1.0)));
  EXPECT_FALSE(fitz::eq(Any(int64_t{1}), Any("1"_s)));
  EXPECT_FALSE(fitz::eq(Any(true), Any(int64_t{1})));
  EXPECT_TRUE(fitz::eq(Any(int64_t{2}), 2));
  EXPECT_TRUE(fitz::eq(to_any(List<int64_t>{1, 2}), to_any(List<double>{1.0, 2.0})));
  EXPECT_FALSE(fitz::eq(to_any(List<int64_t>{1, 2}), to_any(std::tuple<int64_t, int64_t>{1, 2})));
  EXPECT_TRUE(fitz::eq(to_any(Map<Str, int64_t>{{"a"_s, 1}}), to_any(Map<Any, Any>{{Any("a"_s), Any(int64_t{1})}})));
  EXPECT_EQ(fitz::hash_value(Any(int64_t{3})), fitz::hash_value(Any(3.0)));
}

TEST(Any, FieldsIndexingAndIteration) {
  auto p = fitz::make<Point>(int64_t{3}, int64_t{4});
  Any ap = to_any(p);
  EXPECT_EQ(shown(fitz::any_field(ap, "y")), "4");
  fitz::any_set_field(ap, "x", Any(int64_t{30}));
  EXPECT_EQ(p->x, 30);
  EXPECT_EQ(error_of([&] { fitz::any_field(ap, "z"); }), "type Point does not have a field named z"_s);
  EXPECT_EQ(error_of([&] { fitz::any_set_field(ap, "x", Any("s"_s)); }), "type mismatch: expected Int, found Str"_s);
  EXPECT_EQ(shown(fitz::any_method(ap, "sum", {})), "34");
  EXPECT_EQ(shown(fitz::any_method(ap, "scaled", {Any(int64_t{2})})), "Point { x: 60, y: 8 }");
  EXPECT_EQ(error_of([&] { fitz::any_method(ap, "nope", {}); }), "type Point does not have method nope"_s);
  EXPECT_EQ(shown(fitz::any_index(Any("h\xc3\xa9llo"_s), Any(int64_t{-4}))), "\xc3\xa9");
  EXPECT_EQ(shown(fitz::any_index(to_any(std::tuple<int64_t, Str>{1, "a"_s}), Any(int64_t{1}))), "a");
  EXPECT_EQ(shown(fitz::any_slice(to_any(List<int64_t>{1, 2, 3, 4}), 1, -1, false)), "[2, 3]");
  EXPECT_EQ(shown(fitz::any_iter(to_any(Map<Str, int64_t>{{"a"_s, 1}}))), "[(\"a\", 1)]");
  EXPECT_EQ(shown(fitz::any_iter(to_any(fitz::Range(0, 3)))), "[0, 1, 2]");
  EXPECT_EQ(shown(fitz::any_iter(Any("ab"_s))), "[\"a\", \"b\"]");
  EXPECT_EQ(fitz::any_len(to_any(List<int64_t>{1, 2})), 2);
  EXPECT_EQ(fitz::len(Any("h\xc3\xa9"_s)), 2);
}

TEST(Any, MethodsByName) {
  auto call = [](const Any& r, const char* m, std::initializer_list<Any> args) {
    return shown(fitz::any_method(r, m, args));
  };
  EXPECT_EQ(call(Any("Fitz Roy"_s), "upper", {}), "FITZ ROY");
  EXPECT_EQ(call(Any("a,b"_s), "split", {Any(","_s)}), "[\"a\", \"b\"]");
  EXPECT_EQ(call(Any("7"_s), "pad_start", {Any(int64_t{3}), Any("0"_s)}), "007");
  EXPECT_EQ(call(Any(int64_t{-5}), "abs", {}), "5");
  EXPECT_EQ(call(Any(int64_t{255}), "to_str_base", {Any(int64_t{16})}), "ff");
  EXPECT_EQ(call(Any(2.5), "is_nan", {}), "false");
  EXPECT_EQ(call(Any(int64_t{1}), "type_name", {}), "Int");
  Any nums = to_any(List<int64_t>{5, 3, 8});
  Any times10 = to_any(fitz::Fn<int64_t(int64_t)>([](int64_t n) { return n * 10; }));
  Any big = to_any(fitz::Fn<bool(int64_t)>([](int64_t n) { return n > 4; }));
  Any plus = to_any(fitz::Fn<int64_t(int64_t, int64_t)>([](int64_t a, int64_t b) { return a + b; }));
  EXPECT_EQ(call(nums, "map", {times10}), "[50, 30, 80]");
  EXPECT_EQ(call(nums, "filter", {big}), "[5, 8]");
  EXPECT_EQ(call(nums, "reduce", {Any(int64_t{0}), plus}), "16");
  EXPECT_EQ(call(nums, "sum", {}), "16");
  EXPECT_EQ(call(nums, "max", {}), "Ok(8)");
  EXPECT_EQ(call(nums, "enumerate", {}), "[(0, 5), (1, 3), (2, 8)]");
  EXPECT_EQ(call(nums, "len", {}), "3");
  call(nums, "sort", {});
  EXPECT_EQ(shown(nums), "[3, 5, 8]");
  EXPECT_EQ(from_any<List<int64_t>>(nums).at(0), 3);  // sorted in place, still a List<Int>
  Any m = to_any(Map<Str, int64_t>{{"a"_s, 1}, {"b"_s, 2}});
  EXPECT_EQ(call(m, "get", {Any("a"_s)}), "Ok(1)");
  EXPECT_EQ(call(m, "get", {Any("z"_s)}), "Err(\"key not found\")");
  EXPECT_EQ(call(m, "keys", {}), "[\"a\", \"b\"]");
  EXPECT_EQ(call(m, "has", {Any("b"_s)}), "true");
  EXPECT_EQ(call(to_any(fitz::Range(0, 10)), "step_by", {Any(int64_t{5})}), "[0, 5]");
  EXPECT_EQ(error_of([&] { fitz::any_method(Any("s"_s), "upper", {Any(int64_t{1})}); }),
            "method upper expects 0 arguments, received 1"_s);
  EXPECT_EQ(error_of([] { fitz::any_method(Any(int64_t{1}), "upper", {}); }), "type Int does not have method upper"_s);
}

TEST(Any, MathOnAny) {
  EXPECT_EQ(shown(fitz::abs(Any(int64_t{-5}))), "5");
  EXPECT_EQ(shown(fitz::abs(Any(-3.14))), "3.14");
  EXPECT_EQ(shown(fitz::min(Any(int64_t{3}), Any(int64_t{5}))), "3");
  EXPECT_EQ(shown(fitz::max(Any(int64_t{3}), Any(5.5))), "5.5");
  EXPECT_EQ(shown(fitz::pow(Any(int64_t{2}), Any(int64_t{10}))), "1024.0");
  EXPECT_EQ(shown(fitz::sqrt(Any(int64_t{2}))), "1.4142135623730951");
  EXPECT_EQ(shown(fitz::ceil(Any(3.2))), "4");
  EXPECT_EQ(shown(fitz::round(Any(3.5))), "4");
  EXPECT_EQ(shown(fitz::clamp(Any(int64_t{15}), Any(int64_t{0}), Any(int64_t{10}))), "10");
  EXPECT_EQ(error_of([] { fitz::sqrt(Any("x"_s)); }), "sqrt() expects Int or Float, received Str"_s);
}
