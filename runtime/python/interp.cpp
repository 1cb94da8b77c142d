// Starting the embedded interpreter and importing modules. CPython keeps one interpreter per
// process, so its start-up is a process-wide once; every other state lives in CPython itself.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "python/internal.h"

namespace fitz::py {

namespace {

// The project folders generated code names before the first import; read once at start.
// Process-wide because the interpreter they configure is.
std::vector<std::string>& project_paths() {
  static std::vector<std::string> paths;
  return paths;
}

std::filesystem::path project_dir() {
  if (const char* d = std::getenv("FITZ_PROJECT_DIR"); d && *d) return d;
  std::error_code ec;
  return std::filesystem::current_path(ec);
}

// Inserts the search path the spec orders: project folders first, then PYTHONPATH (already on
// sys.path through the environment), then the interpreter's own entries; a virtual
// environment's site-packages joins before the system ones.
void set_search_path() {
  PyObject* path = PySys_GetObject("path");  // borrowed
  if (!path) return;
  std::vector<std::string> front;
  for (const std::string& p : project_paths()) {
    std::filesystem::path fp(p);
    if (fp.is_relative()) fp = project_dir() / fp;
    front.push_back(fp.lexically_normal().string());
  }
  for (size_t i = front.size(); i-- > 0;) {
    PyObject* s = PyUnicode_FromString(front[i].c_str());
    PyList_Insert(path, 0, s);
    Py_DECREF(s);
  }
  if (const char* venv = std::getenv("VIRTUAL_ENV"); venv && *venv) {
    // After PYTHONPATH, before the system's packages: where the interpreter's own path starts.
    std::string site = std::string(venv) + "/lib/python" + std::to_string(PY_MAJOR_VERSION) + "." +
                       std::to_string(PY_MINOR_VERSION) + "/site-packages";
    Py_ssize_t at = Py_ssize_t(front.size());
    if (const char* pp = std::getenv("PYTHONPATH"); pp && *pp)
      for (const char* c = pp; *c; ++c) at += *c == ':';
    if (const char* pp = std::getenv("PYTHONPATH"); pp && *pp) ++at;
    PyObject* s = PyUnicode_FromString(site.c_str());
    PyList_Insert(path, std::min(at, PyList_Size(path)), s);
    Py_DECREF(s);
  }
}

}  // namespace

void configure(std::initializer_list<const char*> paths) {
  // Every importing module names the same folders; the first call decides.
  if (!project_paths().empty()) return;
  for (const char* p : paths) project_paths().push_back(p);
}

namespace detail {

void ensure_started() {
  static std::once_flag once;
  std::call_once(once, [] {
    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    config.install_signal_handlers = 0;  // SIGINT and SIGTERM stay the server's
    config.parse_argv = 0;
    PyStatus st = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(st)) Py_ExitStatusException(st);
    set_search_path();
    std::atexit(detail::at_exit);
    // The starting thread drops the GIL: every operation takes it for itself (fitz::py::Gil).
    PyEval_SaveThread();
  });
}

std::string take_error() {
  PyObject *type = nullptr, *exc = nullptr, *tb = nullptr;
  PyErr_Fetch(&type, &exc, &tb);
  if (!type) return "Error: unknown Python error";
  PyErr_NormalizeException(&type, &exc, &tb);
  std::string out = reinterpret_cast<PyTypeObject*>(type)->tp_name;
  if (const char* dot = std::strrchr(out.c_str(), '.')) out = dot + 1;
  PyObject* msg = exc ? PyObject_Str(exc) : nullptr;
  if (msg) {
    const char* m = PyUnicode_AsUTF8(msg);
    if (m && *m) out += std::string(": ") + m;
    Py_DECREF(msg);
  }
  PyErr_Clear();
  if (const char* dbg = std::getenv("FITZ_PY_TRACEBACK"); dbg && *dbg) {
    PyErr_Restore(type, exc, tb);  // the debug log: Python's own traceback on stderr
    PyErr_Print();
  } else {
    Py_XDECREF(type);
    Py_XDECREF(exc);
    Py_XDECREF(tb);
  }
  return out;
}

// The end of the process: the interpreter is finalised (Python's `atexit` functions run, its
// buffered output is flushed, its memory is released, so leak checkers see only real leaks).
// One exception: greenlet, which SQLAlchemy imports. C++ thread-local destructors run before
// atexit handlers, so greenlet has already torn down this thread's state and queued a call that
// crashes as soon as Python bytecode runs again. With greenlet loaded only the C-level flushes
// run (no bytecode, so the queued call never does) and the memory is left to the system.
void at_exit() {
  mark_exiting();
  if (pool_busy()) return;
  PyGILState_Ensure();
  PyObject* modules = PyImport_GetModuleDict();
  bool greenlet = modules && (PyDict_GetItemString(modules, "greenlet") ||
                              PyDict_GetItemString(modules, "greenlet._greenlet"));
  if (!greenlet) {
    Py_FinalizeEx();
    return;
  }
  for (const char* name : {"stdout", "stderr"}) {
    PyObject* stream = PySys_GetObject(name);  // borrowed
    if (!stream || stream == Py_None) continue;
    if (PyObject* r = PyObject_CallMethod(stream, "flush", nullptr)) Py_DECREF(r);
    PyErr_Clear();
  }
}

Str to_fitz_str(PyObject* o) {
  PyObject* s = PyUnicode_Check(o) ? (Py_INCREF(o), o) : PyObject_Str(o);
  if (!s) {
    PyErr_Clear();
    return Str::lit("<unprintable>");
  }
  Py_ssize_t n = 0;
  const char* p = PyUnicode_AsUTF8AndSize(s, &n);
  Str out = p ? Str(p, size_t(n)) : Str::lit("<unprintable>");
  if (!p) PyErr_Clear();
  Py_DECREF(s);
  return out;
}

}  // namespace detail

Object import_module(const char* name, SourcePos pos) {
  detail::ensure_started();
  Gil gil;
  PyObject* m = PyImport_ImportModule(name);
  if (!m) {
    std::string msg = "cannot import Python module `" + std::string(name) + "`: " + detail::take_error();
    runtime_error(pos, Str(msg.data(), msg.size()));
  }
  return Object::adopt(m);
}

}  // namespace fitz::py
