// The `Py` handle's reference counting and the dynamic operations generated code performs on
// Python values (attributes, items, calls, operators), each under the GIL.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <unordered_map>
#include <vector>

#include "python/internal.h"

namespace fitz::py {

namespace {

// Nesting depth of Gil guards on this thread.
thread_local int t_gil_depth = 0;
// This thread's Python thread state, created by its first Gil and kept for the thread's life.
// PyGILState_Release of the outermost guard would delete a state it had created, so a thread
// without one (every pool worker and HTTP thread) paid a PyThreadState_New, a data-stack mmap and
// their teardown on each operation: most of the CPU of a handler calling Python.
thread_local PyThreadState* t_state = nullptr;
// Set at exit: destructors of globals then leave their references to the dying process rather
// than wait for a GIL a stuck worker may hold.
std::atomic<bool> g_exiting{false};

[[noreturn]] void raise_here(SourcePos pos, const char* what) {
  std::string msg = std::string(what) + detail::take_error();
  runtime_error(pos, Str(msg.data(), msg.size()));
}

Object checked(PyObject* r, SourcePos pos, const char* what) {
  if (!r) raise_here(pos, what);
  return Object::adopt(r);
}

// Arguments and keywords of one call as a tuple and a dict (new references).
PyObject* args_tuple(std::initializer_list<Object> args) {
  PyObject* t = PyTuple_New(Py_ssize_t(args.size()));
  Py_ssize_t i = 0;
  for (const Object& a : args) {
    PyObject* x = detail::raw(a) ? detail::raw(a) : Py_None;
    Py_INCREF(x);
    PyTuple_SET_ITEM(t, i++, x);
  }
  return t;
}
PyObject* kwargs_dict(std::initializer_list<Kwarg> kwargs) {
  if (kwargs.size() == 0) return nullptr;
  PyObject* d = PyDict_New();
  for (const Kwarg& k : kwargs) PyDict_SetItemString(d, k.name, detail::raw(k.value) ? detail::raw(k.value) : Py_None);
  return d;
}

Result<Object, Str> call_result(PyObject* r) {
  if (!r) {
    std::string e = detail::take_error();
    return Result<Object, Str>::err(Str(e.data(), e.size()));
  }
  return Result<Object, Str>::ok(Object::adopt(r));
}

Result<Object, Str> call_raw(PyObject* fn, std::initializer_list<Object> args, std::initializer_list<Kwarg> kwargs) {
  PyObject* t = args_tuple(args);
  PyObject* d = kwargs_dict(kwargs);
  PyObject* r = PyObject_Call(fn, t, d);
  Py_DECREF(t);
  Py_XDECREF(d);
  return call_result(r);
}

// Positional calls go through vectorcall: no argument tuple, and for a method no bound-method
// object. `stack` has a free slot before the receiver (or the first argument), which
// PY_VECTORCALL_ARGUMENTS_OFFSET lets the callee borrow.
constexpr size_t kStackArgs = 8;
template <class Call> PyObject* with_stack(PyObject* first, std::initializer_list<Object> args, Call call) {
  PyObject* small[kStackArgs + 2];
  std::vector<PyObject*> big;
  size_t n = args.size() + (first ? 1 : 0);
  PyObject** stack = n + 1 <= std::size(small) ? small : (big.resize(n + 1), big.data());
  size_t i = 1;
  if (first) stack[i++] = first;
  for (const Object& a : args) stack[i++] = detail::raw(a) ? detail::raw(a) : Py_None;
  return call(stack + 1, n | PY_VECTORCALL_ARGUMENTS_OFFSET);
}

// The interned str of a method name. Generated code passes string literals, so the pointer
// almost always identifies the name; the text is compared too, so a reused buffer is safe.
// Guarded by the GIL. Building the str and hashing it on every call cost about a fifth of a
// trivial call.
PyObject* method_name(const char* name) {
  static std::unordered_map<const char*, PyObject*>* names = new std::unordered_map<const char*, PyObject*>();
  auto it = names->find(name);
  if (it != names->end() && std::strcmp(PyUnicode_AsUTF8(it->second), name) == 0) {
    Py_INCREF(it->second);
    return it->second;
  }
  PyObject* s = PyUnicode_InternFromString(name);
  if (!s) return nullptr;
  if (it != names->end()) {
    Py_DECREF(it->second);
    it->second = (Py_INCREF(s), s);
  } else if (names->size() < 4096) {  // bounded, should a caller pass ever-new buffers
    names->emplace(name, (Py_INCREF(s), s));
  }
  return s;
}

}  // namespace

Gil::Gil() noexcept {
  if (t_gil_depth++ != 0) return;
  if (t_state) {
    PyEval_RestoreThread(t_state);
    return;
  }
  detail::ensure_started();
  // Never released: the state stays registered as this thread's (PyGILState_Ensure elsewhere,
  // in at_exit or in extension modules, finds it) and is left to the process when the thread ends.
  PyGILState_Ensure();
  t_state = PyThreadState_Get();
}
Gil::~Gil() {
  if (--t_gil_depth == 0) PyEval_SaveThread();
}

void Object::incref(void* p) noexcept {
  if (!p) return;
  Gil gil;
  Py_INCREF(static_cast<PyObject*>(p));
}
void Object::decref(void* p) noexcept {
  if (!p || g_exiting.load(std::memory_order_relaxed)) return;
  Gil gil;
  Py_DECREF(static_cast<PyObject*>(p));
}

namespace detail {
void mark_exiting() { g_exiting = true; }
}  // namespace detail

Object attr(const Object& o, const char* name, SourcePos pos) {
  Gil gil;
  return checked(PyObject_GetAttrString(detail::raw(o) ? detail::raw(o) : Py_None, name), pos, "Python attribute error: ");
}

Null set_attr(const Object& o, const char* name, const Object& value, SourcePos pos) {
  Gil gil;
  if (PyObject_SetAttrString(detail::raw(o) ? detail::raw(o) : Py_None, name, detail::raw(value) ? detail::raw(value) : Py_None) < 0)
    raise_here(pos, "Python attribute error: ");
  return null;
}

Object item(const Object& o, const Object& key, SourcePos pos) {
  Gil gil;
  return checked(PyObject_GetItem(detail::raw(o) ? detail::raw(o) : Py_None, detail::raw(key) ? detail::raw(key) : Py_None),
                 pos, "Python index error: ");
}

Null set_item(const Object& o, const Object& key, const Object& value, SourcePos pos) {
  Gil gil;
  if (PyObject_SetItem(detail::raw(o) ? detail::raw(o) : Py_None, detail::raw(key) ? detail::raw(key) : Py_None,
                       detail::raw(value) ? detail::raw(value) : Py_None) < 0)
    raise_here(pos, "Python index error: ");
  return null;
}

int64_t len(const Object& o, SourcePos pos) {
  Gil gil;
  Py_ssize_t n = PyObject_Size(detail::raw(o) ? detail::raw(o) : Py_None);
  if (n < 0) raise_here(pos, "Python error in len: ");
  return int64_t(n);
}

List<Object> iter(const Object& o, SourcePos pos) {
  Gil gil;
  PyObject* it = PyObject_GetIter(detail::raw(o) ? detail::raw(o) : Py_None);
  if (!it) raise_here(pos, "Python error in for: ");
  List<Object> out;
  while (PyObject* x = PyIter_Next(it)) out.vec().push_back(Object::adopt(x));
  Py_DECREF(it);
  if (PyErr_Occurred()) raise_here(pos, "Python error in for: ");
  return out;
}

Str str(const Object& o) {
  Gil gil;
  return detail::to_fitz_str(detail::raw(o) ? detail::raw(o) : Py_None);
}

Str repr(const Object& o) {
  Gil gil;
  PyObject* r = PyObject_Repr(detail::raw(o) ? detail::raw(o) : Py_None);
  if (!r) {
    PyErr_Clear();
    return Str::lit("<unprintable>");
  }
  Str s = detail::to_fitz_str(r);
  Py_DECREF(r);
  return s;
}

Str type_name(const Object& o) {
  Gil gil;
  return Str(Py_TYPE(detail::raw(o) ? detail::raw(o) : Py_None)->tp_name);
}

Result<Object, Str> call(const Object& fn, std::initializer_list<Object> args, std::initializer_list<Kwarg> kwargs) {
  Gil gil;
  PyObject* f = detail::raw(fn) ? detail::raw(fn) : Py_None;
  if (kwargs.size() != 0) return call_raw(f, args, kwargs);
  return call_result(with_stack(nullptr, args, [&](PyObject** stack, size_t nargsf) {
    return PyObject_Vectorcall(f, stack, nargsf, nullptr);
  }));
}

Result<Object, Str> call_method(const Object& recv, const char* name, std::initializer_list<Object> args,
                                std::initializer_list<Kwarg> kwargs) {
  Gil gil;
  if (kwargs.size() == 0) {
    PyObject* n = method_name(name);
    if (!n) return call_result(nullptr);
    PyObject* r = with_stack(detail::raw(recv) ? detail::raw(recv) : Py_None, args, [&](PyObject** stack, size_t nargsf) {
      return PyObject_VectorcallMethod(n, stack, nargsf, nullptr);
    });
    Py_DECREF(n);
    return call_result(r);
  }
  PyObject* m = PyObject_GetAttrString(detail::raw(recv) ? detail::raw(recv) : Py_None, name);
  if (!m) {
    std::string e = detail::take_error();
    return Result<Object, Str>::err(Str(e.data(), e.size()));
  }
  Result<Object, Str> r = call_raw(m, args, kwargs);
  Py_DECREF(m);
  return r;
}

Object binary(BinOp op, const Object& a, const Object& b, SourcePos pos) {
  Gil gil;
  PyObject* x = detail::raw(a) ? detail::raw(a) : Py_None;
  PyObject* y = detail::raw(b) ? detail::raw(b) : Py_None;
  PyObject* r = nullptr;
  switch (op) {
    case BinOp::Add: r = PyNumber_Add(x, y); break;
    case BinOp::Sub: r = PyNumber_Subtract(x, y); break;
    case BinOp::Mul: r = PyNumber_Multiply(x, y); break;
    case BinOp::Div: r = PyNumber_TrueDivide(x, y); break;
    case BinOp::Mod: r = PyNumber_Remainder(x, y); break;
  }
  return checked(r, pos, "Python error: ");
}

Object negate(const Object& a, SourcePos pos) {
  Gil gil;
  return checked(PyNumber_Negative(detail::raw(a) ? detail::raw(a) : Py_None), pos, "Python error: ");
}

bool compare(CmpOp op, const Object& a, const Object& b, SourcePos pos) {
  Gil gil;
  static constexpr int kOps[] = {Py_EQ, Py_NE, Py_LT, Py_LE, Py_GT, Py_GE};
  int r = PyObject_RichCompareBool(detail::raw(a) ? detail::raw(a) : Py_None, detail::raw(b) ? detail::raw(b) : Py_None,
                                   kOps[int(op)]);
  if (r < 0) raise_here(pos, "Python error: ");
  return r == 1;
}

}  // namespace fitz::py
