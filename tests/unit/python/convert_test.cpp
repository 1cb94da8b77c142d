// The Python interop runtime (runtime/python): conversions both ways with their field-path
// errors, calls with keywords and exceptions as Err values, reference counts that stay level
// over many conversions, and the worker pool awaited from a task.
#include <gtest/gtest.h>

#include <fitz/python.h>

#include <future>
#include <thread>

namespace test_support {

using fitz::Str;
namespace py = fitz::py;

// A Python value written as a Python expression.
inline py::Object py_eval(const char* source) {
  static py::Object builtins = py::import_module("builtins", {});
  auto r = py::call(py::attr(builtins, "eval"), {py::from_str(Str(source)), py::new_dict()});
  EXPECT_TRUE(r.is_ok()) << (r.is_ok() ? "" : std::string(r.error().data(), r.error().size()));
  return r.is_ok() ? r.value() : py::none();
}

inline std::string std_str(const Str& s) { return std::string(s.data(), s.size()); }

// The error a conversion of `o` to T reports, or "" when it succeeds.
template <class T> std::string py_convert_error(const py::Object& o) {
  py::Path path;
  T out = fitz::detail::blank<T>();
  return py::FromPy<T>::get(o, &out, path) ? "" : path.error();
}

inline int64_t py_refcount(const py::Object& o) {
  static py::Object sys = py::import_module("sys", {});
  auto r = py::call(py::attr(sys, "getrefcount"), {o});
  return r.is_ok() ? py::from_py<int64_t>(r.value()) : -1;
}

}  // namespace test_support

namespace {

using namespace test_support;

TEST(PythonConvert, ScalarsToPythonAndBack) {
  EXPECT_EQ(py::from_py<int64_t>(py::to_py<int64_t>(42)), 42);
  EXPECT_EQ(py::from_py<double>(py::to_py<double>(2.5)), 2.5);
  EXPECT_EQ(py::from_py<bool>(py::to_py<bool>(true)), true);
  EXPECT_EQ(std_str(py::from_py<Str>(py::to_py<Str>(Str("héllo")))), "héllo");
  EXPECT_TRUE(py::is_none(py::to_py<fitz::Null>(fitz::null)));
  EXPECT_EQ(std_str(py::repr(py::to_py<fitz::Nullable<int64_t>>(fitz::Nullable<int64_t>()))), "None");
  // int -> Float converts; an int outside 64 bits is an error.
  EXPECT_EQ(py::from_py<double>(py_eval("7")), 7.0);
  EXPECT_EQ(py_convert_error<int64_t>(py_eval("2**70")), "a Python int outside the 64-bit range of Int");
}

TEST(PythonConvert, NumbersThatAreNotBuiltinInts) {
  // numpy's integer scalars (what pandas returns) are ints through `__index__`; Decimal (what
  // SQLAlchemy returns for numeric columns) is a Float through `__float__`. A float never
  // becomes an Int silently.
  py::Object index_like = py_eval("type('I64', (), {'__index__': lambda self: 41})()");
  EXPECT_EQ(py::from_py<int64_t>(index_like), 41);
  EXPECT_EQ(py::from_py<double>(index_like), 41.0);
  EXPECT_EQ(py::from_py<double>(py_eval("__import__('decimal').Decimal('2.25')")), 2.25);
  EXPECT_EQ(py_convert_error<int64_t>(py_eval("2.5")), "expected Int, found float");
  EXPECT_EQ(py_convert_error<int64_t>(py_eval("__import__('decimal').Decimal('2')")), "expected Int, found decimal.Decimal");
  fitz::Any dyn = py::from_py<fitz::Any>(index_like);
  EXPECT_TRUE(dyn.is_int());
}

TEST(PythonConvert, ContainersToPython) {
  fitz::List<int64_t> xs;
  xs.push(1);
  xs.push(2);
  EXPECT_EQ(std_str(py::repr(py::to_py(xs))), "[1, 2]");
  fitz::Map<Str, fitz::List<int64_t>> m;
  m.set(Str("b"), xs);
  m.set(Str("a"), fitz::List<int64_t>());
  EXPECT_EQ(std_str(py::repr(py::to_py(m))), "{'b': [1, 2], 'a': []}");  // insertion order kept
  fitz::Any dyn = fitz::to_any(m);
  EXPECT_EQ(std_str(py::repr(py::to_py(dyn))), "{'b': [1, 2], 'a': []}");
}

TEST(PythonConvert, ContainersFromPython) {
  auto l = py::from_py<fitz::List<int64_t>>(py_eval("(1, 2, 3)"));  // any sequence
  EXPECT_EQ(l.len(), 3);
  auto m = py::from_py<fitz::Map<Str, fitz::Nullable<int64_t>>>(py_eval("{'a': 1, 'b': None}"));
  EXPECT_EQ(m.len(), 2);
  EXPECT_TRUE(m.get(Str("b")).value().is_null());
}

TEST(PythonConvert, ErrorsNameTheFieldPath) {
  EXPECT_EQ(py_convert_error<int64_t>(py_eval("'x'")), "expected Int, found str");
  EXPECT_EQ(py_convert_error<int64_t>(py_eval("True")), "expected Int, found bool");
  EXPECT_EQ(py_convert_error<fitz::List<int64_t>>(py_eval("[1, 2, 'three']")), "field '[2]': expected Int, found str");
  EXPECT_EQ((py_convert_error<fitz::Map<Str, fitz::List<double>>>(py_eval("{'rows': [1.5, None]}"))),
            "field 'rows[1]': expected Float, found NoneType");
  EXPECT_EQ(py_convert_error<fitz::List<int64_t>>(py_eval("'abc'")), "expected List<Int>, found str");
  EXPECT_EQ((py_convert_error<fitz::Map<Str, int64_t>>(py_eval("{1: 2}"))), "a mapping key that is not a str");
}

TEST(PythonCall, KeywordsAndExceptions) {
  py::Object f = py_eval("lambda a, b=1: a * 10 + b");
  auto r = py::call(f, {py::from_int(4)}, {py::Kwarg{"b", py::from_int(2)}});
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ(py::from_py<int64_t>(r.value()), 42);
  auto e = py::call(py_eval("int"), {py::from_str(Str("nope"))});
  ASSERT_FALSE(e.is_ok());
  EXPECT_EQ(std_str(e.error()), "ValueError: invalid literal for int() with base 10: 'nope'");
  auto m = py::call_method(py_eval("'a,b'"), "split", {py::from_str(Str(","))});
  ASSERT_TRUE(m.is_ok());
  EXPECT_EQ(std_str(py::str(m.value())), "['a', 'b']");
  auto missing = py::call_method(py_eval("1"), "nope", {});
  ASSERT_FALSE(missing.is_ok());
  EXPECT_EQ(std_str(missing.error()), "AttributeError: 'int' object has no attribute 'nope'");
}

TEST(PythonCall, OperatorsAndItems) {
  py::Object a = py_eval("[10, 20, 30]");
  EXPECT_EQ(py::len(a), 3);
  EXPECT_EQ(py::from_py<int64_t>(py::item(a, py::from_int(1))), 20);
  EXPECT_EQ(py::from_py<int64_t>(py::binary(py::BinOp::Add, py::from_int(2), py::from_int(3))), 5);
  EXPECT_TRUE(py::compare(py::CmpOp::Lt, py::from_int(2), py::from_int(3)));
  EXPECT_EQ(py::iter(a).len(), 3);
}

TEST(PythonRefcount, ManyConversionsLeaveCountsLevel) {
  py::Object f = py_eval("lambda x, s: s * x");
  py::Object s = py::from_str(Str("ab"));
  int64_t before = py_refcount(s);
  for (int i = 0; i < 100000; ++i) {
    auto r = py::call(f, {py::to_py<int64_t>(2), s});
    ASSERT_TRUE(r.is_ok());
    Str out = py::from_py<Str>(r.value());
    ASSERT_EQ(out.size(), 4u);
    py::Object copy = s;  // copy and drop
  }
  EXPECT_EQ(py_refcount(s), before);
}

// A hundred thousand calls converting an Int and a Str each way, under LeakSanitizer (the
// sanitized tree, or Python.CallsLeakFree in tests/CMakeLists.txt), which fails on any leak: a
// single leaked object is reported, so a leak per call shows in any number of calls.
TEST(PythonLeak, HundredThousandCallsWithConversions) {
  py::Object f = py_eval("lambda n, s: {'n': n + 1, 's': s + '!', 'xs': [n, n]}");
  int64_t total = 0;
  for (int64_t i = 0; i < 100000; ++i) {
    auto r = py::call(f, {py::to_py<int64_t>(i), py::to_py<Str>(Str("x"))});
    ASSERT_TRUE(r.is_ok());
    auto m = py::from_py<fitz::Map<Str, py::Object>>(r.value());
    total += py::from_py<int64_t>(m.get(Str("n")).value()) + py::from_py<fitz::List<int64_t>>(m.get(Str("xs")).value()).len();
    ASSERT_EQ(py::from_py<Str>(m.get(Str("s")).value()).size(), 2u);
  }
  EXPECT_EQ(total, 5000250000);
}

TEST(PythonPool, WorkersRunJobsBesideEachOther) {
  // Two jobs that each wait for the other can only finish on two threads.
  std::promise<void> a, b;
  std::promise<int64_t> done;
  py::submit([&] {
    a.set_value();
    b.get_future().wait();
  });
  py::submit([&] {
    a.get_future().wait();
    b.set_value();
    done.set_value(py::from_py<int64_t>(py_eval("6 * 7")));
  });
  auto f = done.get_future();
  ASSERT_EQ(f.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_EQ(f.get(), 42);
}

TEST(PythonPool, WithoutAnEventLoopAwaitRunsInline) {
  auto main_id = std::this_thread::get_id();
  auto task = [&]() -> fitz::Task<int64_t> {
    py::PoolAwait<int64_t> aw{[&] {
      EXPECT_EQ(std::this_thread::get_id(), main_id);
      return py::from_py<int64_t>(py_eval("6 * 7"));
    }};
    co_return co_await aw;
  };
  EXPECT_EQ(fitz::block_on(task()), 42);
}

}  // namespace
