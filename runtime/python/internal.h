// What the interop's .cpp files share: CPython's header, the pending-exception text and the
// conversion of a Python str. Nothing here is visible to generated programs.
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string>

#include "fitz/python.h"

namespace fitz::py::detail {

// Starts the interpreter once (thread-safe); the calling thread does not hold the GIL after.
void ensure_started();
// "ExceptionClass: message" of the pending exception, which is cleared; the traceback goes to
// the debug log.
std::string take_error();
// A new reference to `o` as a Fitz string (str(o) when it is not a str).
Str to_fitz_str(PyObject* o);
// From then on handles leave their references to the exiting process (object.cpp).
void mark_exiting();
// At exit: handles stop counting, and an interpreter no worker is inside is finalised (so its
// memory is released, which keeps leak checkers quiet); a busy one is left to the process.
void at_exit();
// Whether a pool worker is running a job now (pool.cpp).
bool pool_busy();
inline PyObject* raw(const Object& o) { return static_cast<PyObject*>(o.get()); }

}  // namespace fitz::py::detail
