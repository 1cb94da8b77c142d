// Python interop (`from python import m`): the `Py` handle, the dynamic operations on it, the
// conversions both ways and the worker pool that keeps event loops off the GIL. CPython's own
// headers stay in runtime/python/*.cpp, so generated programs compile without them.
//
//   fitz::py::import_module("math", pos)       at start; a failure is a runtime error (exit 1)
//   fitz::py::attr(o, "pi", pos), item(o, k, pos), len(o, pos), iter(o, pos), str(o)
//   fitz::py::call(f, {args}, {kwargs})       -> Result<Object, Str> ("Class: message")
//   fitz::py::to_py(v) / from_py<T>(o, pos)     Fitz <-> Python, errors name the field path
//   PoolAwait<T> aw{[&] { ... }}; co_await aw;  run `...` on a Python worker thread
#pragma once

#include <condition_variable>
#include <coroutine>
#include <exception>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fitz/runtime.h"

namespace fitz::py {

// One strong reference to a Python object (a PyObject*), or none. Copying increfs and dropping
// decrefs, each under the GIL (taken only when this thread does not hold it already).
class Object {
 public:
  Object() noexcept = default;
  static Object adopt(void* owned) noexcept {  // takes over a new reference
    Object o;
    o.p_ = owned;
    return o;
  }
  Object(const Object& o) noexcept : p_(o.p_) { incref(p_); }
  Object(Object&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Object& operator=(const Object& o) noexcept {
    if (p_ != o.p_) {
      incref(o.p_);
      decref(std::exchange(p_, o.p_));
    }
    return *this;
  }
  Object& operator=(Object&& o) noexcept {
    if (this != &o) decref(std::exchange(p_, std::exchange(o.p_, nullptr)));
    return *this;
  }
  ~Object() { decref(p_); }

  void* get() const noexcept { return p_; }
  void* release() noexcept { return std::exchange(p_, nullptr); }
  explicit operator bool() const noexcept { return p_ != nullptr; }

 private:
  static void incref(void* p) noexcept;
  static void decref(void* p) noexcept;
  void* p_ = nullptr;
};

// Holds the GIL for its lifetime; nests (only the outermost takes and releases it). Generated
// code holds one across the Python operations of a statement.
class Gil {
 public:
  Gil() noexcept;
  ~Gil();
  Gil(const Gil&) = delete;
  Gil& operator=(const Gil&) = delete;
};

// ---- start and imports --------------------------------------------------------------------

// Folders searched before PYTHONPATH and the interpreter's own path, relative ones taken from
// FITZ_PROJECT_DIR or else the working directory. Called by generated code before any import.
void configure(std::initializer_list<const char*> project_paths);
// Imports a module (starting the interpreter on first use). A failure is a runtime error at
// `pos` carrying the Python exception, so a program with a broken import stops at start.
Object import_module(const char* name, SourcePos pos);

// ---- dynamic operations (a Python exception in one is a runtime error at `pos`) -----------

struct Kwarg {
  const char* name;
  Object value;
};

Object attr(const Object& o, const char* name, SourcePos pos = {});
Null set_attr(const Object& o, const char* name, const Object& value, SourcePos pos = {});
Object item(const Object& o, const Object& key, SourcePos pos = {});
Null set_item(const Object& o, const Object& key, const Object& value, SourcePos pos = {});
int64_t len(const Object& o, SourcePos pos = {});
List<Object> iter(const Object& o, SourcePos pos = {});
Str str(const Object& o);
Str repr(const Object& o);
Str type_name(const Object& o);

// Calls never raise: a Python exception is `Err("ExceptionClass: message")`.
Result<Object, Str> call(const Object& fn, std::initializer_list<Object> args, std::initializer_list<Kwarg> kwargs = {});
Result<Object, Str> call_method(const Object& recv, const char* name, std::initializer_list<Object> args,
                                std::initializer_list<Kwarg> kwargs = {});

enum class BinOp : uint8_t { Add, Sub, Mul, Div, Mod };
enum class CmpOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
Object binary(BinOp op, const Object& a, const Object& b, SourcePos pos = {});
Object negate(const Object& a, SourcePos pos = {});
bool compare(CmpOp op, const Object& a, const Object& b, SourcePos pos = {});

// ---- Fitz -> Python -------------------------------------------------------------------------

Object none();
Object from_int(int64_t v);
Object from_float(double v);
Object from_bool(bool v);
Object from_str(const Str& v);
Object from_bytes(const Bytes& v);
Object new_list(size_t n);
void list_put(const Object& list, size_t i, Object v);  // fills slot i of a new list
Object new_dict();
void dict_put(const Object& dict, const Object& key, const Object& v);
// Any other value through its dynamic form: a struct becomes a dict of its fields.
Object from_any(const Any& v);

template <class T, class Enable = void> struct ToPy {
  static Object conv(const T& v) { return from_any(to_any(v)); }
};
template <class T> Object to_py(const T& v) { return ToPy<T>::conv(v); }

template <> struct ToPy<Object> {
  static Object conv(const Object& v) { return v; }
};
template <> struct ToPy<int64_t> {
  static Object conv(int64_t v) { return from_int(v); }
};
template <> struct ToPy<double> {
  static Object conv(double v) { return from_float(v); }
};
template <> struct ToPy<bool> {
  static Object conv(bool v) { return from_bool(v); }
};
template <> struct ToPy<Str> {
  static Object conv(const Str& v) { return from_str(v); }
};
template <> struct ToPy<Null> {
  static Object conv(Null) { return none(); }
};
template <> struct ToPy<Bytes> {
  static Object conv(const Bytes& v) { return from_bytes(v); }
};
template <> struct ToPy<Any> {
  static Object conv(const Any& v) { return from_any(v); }
};
template <class T> struct ToPy<Nullable<T>> {
  static Object conv(const Nullable<T>& v) { return v.is_null() ? none() : ToPy<T>::conv(v.value()); }
};
template <class T> struct ToPy<List<T>> {
  static Object conv(const List<T>& v) {
    const auto& xs = v.vec();
    Object l = new_list(xs.size());
    for (size_t i = 0; i < xs.size(); ++i) list_put(l, i, ToPy<T>::conv(xs[i]));
    return l;
  }
};
template <class K, class V> struct ToPy<Map<K, V>> {
  static Object conv(const Map<K, V>& v) {
    Object d = new_dict();
    for (const auto& e : v.entries_vec()) dict_put(d, ToPy<K>::conv(e.key), ToPy<V>::conv(e.value));
    return d;
  }
};

// ---- Python -> Fitz -------------------------------------------------------------------------

// Where a conversion is inside the value, and the first failure, worded like the JSON
// decoder's: "field 'rows[1].age': expected Int, found str".
class Path {
 public:
  void key(const Str& k);
  void index(size_t i);
  void pop() { segs_.pop_back(); }
  bool fail_expected(const Str& expected, const Object& found);
  bool fail_message(const std::string& message);
  bool fail_missing(const char* field);
  bool fail_unknown(const Str& field);
  const std::string& error() const { return error_; }

 private:
  std::string where() const;
  std::vector<std::string> segs_;
  std::string error_;
};

template <class T, class Enable = void> struct FromPy;

bool is_none(const Object& o);
// The elements of any sequence or iterable that is not a str, bytes or mapping.
bool sequence_items(const Object& o, std::vector<Object>* out, const Str& expected, Path& path);
// The entries of any mapping whose keys are all str.
bool mapping_items(const Object& o, std::vector<std::pair<Str, Object>>* out, const Str& expected, Path& path);
// The index of `key` in `names`, or -1.
int field_index(const Str& key, const char* const* names, size_t n);

template <> struct FromPy<Object> {
  static bool get(const Object& o, Object* out, Path&) {
    *out = o;
    return true;
  }
};
template <> struct FromPy<int64_t> {
  static bool get(const Object& o, int64_t* out, Path& path);
};
template <> struct FromPy<double> {
  static bool get(const Object& o, double* out, Path& path);
};
template <> struct FromPy<bool> {
  static bool get(const Object& o, bool* out, Path& path);
};
template <> struct FromPy<Str> {
  static bool get(const Object& o, Str* out, Path& path);
};
template <> struct FromPy<Bytes> {
  static bool get(const Object& o, Bytes* out, Path& path);
};
template <> struct FromPy<Null> {
  static bool get(const Object& o, Null*, Path& path) {
    return is_none(o) || path.fail_expected(Str::lit("Null"), o);
  }
};
template <> struct FromPy<Any> {  // JSON-like values (None, bool, int, float, str, lists, dicts)
  static bool get(const Object& o, Any* out, Path& path);
};
template <class T> struct FromPy<Nullable<T>> {
  static bool get(const Object& o, Nullable<T>* out, Path& path) {
    if (is_none(o)) {
      *out = Nullable<T>();
      return true;
    }
    T x = detail::blank<T>();
    if (!FromPy<T>::get(o, &x, path)) return false;
    *out = Nullable<T>(std::move(x));
    return true;
  }
};
template <class T> struct FromPy<List<T>> {
  static bool get(const Object& o, List<T>* out, Path& path) {
    std::vector<Object> items;
    if (!sequence_items(o, &items, fitz::type_name<List<T>>(), path)) return false;
    List<T> l = List<T>::with_capacity(int64_t(items.size()));
    for (size_t i = 0; i < items.size(); ++i) {
      T x = detail::blank<T>();
      path.index(i);
      if (!FromPy<T>::get(items[i], &x, path)) return false;
      path.pop();
      l.vec().push_back(std::move(x));
    }
    *out = l;
    return true;
  }
};
template <class V> struct FromPy<Map<Str, V>> {
  static bool get(const Object& o, Map<Str, V>* out, Path& path) {
    std::vector<std::pair<Str, Object>> items;
    if (!mapping_items(o, &items, fitz::type_name<Map<Str, V>>(), path)) return false;
    Map<Str, V> m;
    for (auto& [k, x] : items) {
      V v = detail::blank<V>();
      path.key(k);
      if (!FromPy<V>::get(x, &v, path)) return false;
      path.pop();
      m.set(k, std::move(v));
    }
    *out = m;
    return true;
  }
};

[[noreturn]] void conversion_error(SourcePos pos, const Path& path);

template <class T> T from_py(const Object& o, SourcePos pos = {}) {
  Path path;
  T out = detail::blank<T>();
  if (!FromPy<T>::get(o, &out, path)) conversion_error(pos, path);
  return out;
}
// A conversion held in a Result (a call's `Ok` value met a declared type).
template <class T> Result<T, Str> from_py_result(const Result<Object, Str>& r, SourcePos pos = {}) {
  if (!r.is_ok()) return Result<T, Str>::err(r.error());
  return Result<T, Str>::ok(from_py<T>(r.value(), pos));
}

// ---- the worker pool --------------------------------------------------------------------------

// Runs `job` on one of the Python worker threads (FITZ_PY_THREADS, default two per core).
void submit(std::function<void()> job);

// Awaits `fn()` run on the pool; a runtime error raised there is raised again in the awaiting
// coroutine, which resumes on the loop it suspended on. Always a named local (GCC 12 destroys a
// temporary awaiter with members twice). Without an I/O event loop (top-level code, commands,
// tests: the built-in loop, which only its own thread may post to) there is no loop to keep
// free, and `fn()` runs right here.
template <class T> struct PoolAwait {
  explicit PoolAwait(std::function<T()> f) : fn(std::move(f)) {}
  std::function<T()> fn;
  std::optional<T> value;
  std::exception_ptr failure;
  bool await_ready() {
    if (scheduler().io_context() != nullptr) return false;
    value.emplace(fn());
    return true;
  }
  void await_suspend(std::coroutine_handle<> h) {
    Scheduler* loop = &scheduler();
    PanicMode mode = panic_mode();
    TraceContext trace = detail::t_trace;
    submit([this, h, loop, mode, trace] {
      PanicMode prev = set_panic_mode(mode);
      detail::t_trace = trace;
      try {
        value.emplace(fn());
      } catch (...) {
        failure = std::current_exception();
      }
      detail::t_trace = TraceContext{};
      set_panic_mode(prev);
      loop->post(h);
    });
  }
  T await_resume() {
    if (failure) std::rethrow_exception(failure);
    return std::move(*value);
  }
};

}  // namespace fitz::py

namespace fitz {

// `len(v)` of a Python value is Python's len().
inline int64_t len(const py::Object& o, SourcePos pos) { return py::len(o, pos); }

template <> struct Show<py::Object> {
  static void write(Buf& b, const py::Object& o, bool quoted) {
    Str s = quoted ? py::repr(o) : py::str(o);
    b.append(s.data(), s.size());
  }
};
template <> struct TypeName<py::Object> {
  static void write(Buf& b) { b.lit("Py"); }
};
template <> struct Eq<py::Object, py::Object> {
  static bool eq(const py::Object& a, const py::Object& b) { return py::compare(py::CmpOp::Eq, a, b); }
};
template <> struct ToAny<py::Object> {
  static Any conv(const py::Object& o);
};
template <> struct FromAny<py::Object> {
  static bool get(const Any& a, py::Object* out);
};

}  // namespace fitz
