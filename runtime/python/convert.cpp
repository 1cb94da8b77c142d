// Conversions between Fitz values and Python objects: the scalar and container primitives the
// templates of fitz/python.h are built from, the dynamic (`Any`) walk that turns structs into
// dicts, and the field-path errors of Python -> Fitz.
#include <cmath>

#include "python/internal.h"

namespace fitz {

namespace {
// A Python value inside an `Any` (printing, `Any` parameters): shown with str(), converted back
// to the same object.
struct PyBox final : detail::AnyObj {
  py::Object v;
  explicit PyBox(py::Object o) : v(std::move(o)) {}
  detail::ObjKind kind() const override { return detail::ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<PyBox>(); }
  void show(Buf& b, bool q) const override { Show<py::Object>::write(b, v, q); }
  void type_name(Buf& b) const override { b.lit("Py"); }
};
}  // namespace

Any ToAny<py::Object>::conv(const py::Object& o) { return Any(new PyBox(o)); }

bool FromAny<py::Object>::get(const Any& a, py::Object* out) {
  if (auto* b = detail::box_of<PyBox>(a)) {
    *out = b->v;
    return true;
  }
  return false;
}

}  // namespace fitz

namespace fitz::py {

using detail::raw;

namespace {

PyObject* or_none(const Object& o) { return raw(o) ? raw(o) : Py_None; }

// Python's own name for a value's type, as error messages show it ("found str").
Str found_name(const Object& o) {
  Gil gil;
  return Str(Py_TYPE(or_none(o))->tp_name);
}

struct DictVisitor final : fitz::detail::FieldVisitor {
  Object dict;
  void field(const char* name, const Any& value) override {
    Object k = Object::adopt(PyUnicode_FromString(name));
    dict_put(dict, k, from_any(value));
  }
};

}  // namespace

// ---- Fitz -> Python ---------------------------------------------------------------------------

Object none() {
  Gil gil;
  Py_INCREF(Py_None);
  return Object::adopt(Py_None);
}
Object from_int(int64_t v) {
  Gil gil;
  return Object::adopt(PyLong_FromLongLong(v));
}
Object from_float(double v) {
  Gil gil;
  return Object::adopt(PyFloat_FromDouble(v));
}
Object from_bool(bool v) {
  Gil gil;
  return Object::adopt(PyBool_FromLong(v));
}
Object from_str(const Str& v) {
  Gil gil;
  PyObject* s = PyUnicode_DecodeUTF8(v.data(), Py_ssize_t(v.size()), "surrogateescape");
  if (!s) {
    PyErr_Clear();
    s = PyBytes_FromStringAndSize(v.data(), Py_ssize_t(v.size()));
  }
  return Object::adopt(s);
}
Object from_bytes(const Bytes& v) {
  Gil gil;
  return Object::adopt(PyBytes_FromStringAndSize(v.data(), Py_ssize_t(v.size())));
}
Object new_list(size_t n) {
  Gil gil;
  return Object::adopt(PyList_New(Py_ssize_t(n)));
}
void list_put(const Object& list, size_t i, Object v) {
  Gil gil;
  PyObject* x = v ? static_cast<PyObject*>(v.release()) : (Py_INCREF(Py_None), Py_None);
  PyList_SET_ITEM(raw(list), Py_ssize_t(i), x);  // steals x
}
Object new_dict() {
  Gil gil;
  return Object::adopt(PyDict_New());
}
void dict_put(const Object& dict, const Object& key, const Object& v) {
  Gil gil;
  PyDict_SetItem(raw(dict), or_none(key), or_none(v));
}

Object from_any(const Any& v) {
  using fitz::detail::ObjKind;
  switch (v.tag()) {
    case Any::Tag::Null: return none();
    case Any::Tag::Bool: return from_bool(v.bool_value());
    case Any::Tag::Int: return from_int(v.int_value());
    case Any::Tag::Float: return from_float(v.float_value());
    case Any::Tag::Str: return from_str(v.str_value());
    case Any::Tag::Obj: break;
  }
  fitz::detail::AnyObj* o = v.obj();
  Object held;
  if (try_from_any<Object>(v, &held)) return held;  // a Py value boxed as Any
  switch (o->kind()) {
    case ObjKind::List: {
      int64_t n = o->len();
      Object l = new_list(size_t(n));
      for (int64_t i = 0; i < n; ++i) list_put(l, size_t(i), from_any(o->get(i, {})));
      return l;
    }
    case ObjKind::Tuple: {
      int64_t n = o->len();
      std::vector<Object> xs;
      for (int64_t i = 0; i < n; ++i) xs.push_back(from_any(o->get(i, {})));
      Gil gil;
      PyObject* t = PyTuple_New(Py_ssize_t(n));
      for (int64_t i = 0; i < n; ++i) PyTuple_SET_ITEM(t, Py_ssize_t(i), static_cast<PyObject*>(xs[size_t(i)].release()));
      return Object::adopt(t);
    }
    case ObjKind::Map: {
      Object d = new_dict();
      for (int64_t i = 0, n = o->len(); i < n; ++i) dict_put(d, from_any(o->key_at(i)), from_any(o->value_at(i)));
      return d;
    }
    case ObjKind::Bytes: {
      Bytes b;
      try_from_any<Bytes>(v, &b);
      return from_bytes(b);
    }
    case ObjKind::Struct: {
      DictVisitor dv;
      dv.dict = new_dict();
      if (o->visit_fields(dv)) return dv.dict;
      break;
    }
    default:
      break;
  }
  // Ranges, results, functions, tasks: Python sees their display form.
  Buf b;
  o->show(b, false);
  return from_str(Str(b.data(), b.size()));
}

// ---- Python -> Fitz ---------------------------------------------------------------------------

void Path::key(const Str& k) { segs_.push_back("." + std::string(k.data(), k.size())); }
void Path::index(size_t i) { segs_.push_back("[" + std::to_string(i) + "]"); }

std::string Path::where() const {
  std::string w;
  for (const std::string& s : segs_) w += s;
  if (!w.empty() && w[0] == '.') w.erase(0, 1);
  return w.empty() ? "" : "field '" + w + "': ";
}

bool Path::fail_message(const std::string& message) {
  if (error_.empty()) error_ = where() + message;
  return false;
}
bool Path::fail_expected(const Str& expected, const Object& found) {
  Str f = found_name(found);
  return fail_message("expected " + std::string(expected.data(), expected.size()) + ", found " +
                      std::string(f.data(), f.size()));
}
bool Path::fail_missing(const char* field) { return fail_message("missing field '" + std::string(field) + "'"); }
bool Path::fail_unknown(const Str& field) {
  return fail_message("unknown field '" + std::string(field.data(), field.size()) + "'");
}

void conversion_error(SourcePos pos, const Path& path) {
  std::string msg = "cannot convert the Python value: " + path.error();
  runtime_error(pos, Str(msg.data(), msg.size()));
}

bool is_none(const Object& o) { return or_none(o) == Py_None; }

namespace {

// Integers that are not Python ints but say they are one through `__index__`: numpy's int64
// and friends, which pandas hands back for every integer column.
bool int_like(PyObject* x) { return !PyBool_Check(x) && !PyFloat_Check(x) && (PyLong_Check(x) || PyIndex_Check(x)); }
// Numbers with a `__float__` that are not ints or floats themselves: numpy's float32,
// `decimal.Decimal` (SQLAlchemy's Numeric columns).
bool float_like(PyObject* x) {
  return !PyBool_Check(x) && !PyLong_Check(x) && !PyUnicode_Check(x) && Py_TYPE(x)->tp_as_number &&
         Py_TYPE(x)->tp_as_number->nb_float;
}

}  // namespace

bool FromPy<int64_t>::get(const Object& o, int64_t* out, Path& path) {
  Gil gil;
  PyObject* x = or_none(o);
  if (!int_like(x)) return path.fail_expected(Str::lit("Int"), o);
  PyObject* n = PyLong_Check(x) ? (Py_INCREF(x), x) : PyNumber_Index(x);
  if (!n) {
    PyErr_Clear();
    return path.fail_expected(Str::lit("Int"), o);
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(n, &overflow);
  Py_DECREF(n);
  if (overflow) return path.fail_message("a Python int outside the 64-bit range of Int");
  *out = v;
  return true;
}

bool FromPy<double>::get(const Object& o, double* out, Path& path) {
  Gil gil;
  PyObject* x = or_none(o);
  if (PyFloat_Check(x)) {
    *out = PyFloat_AS_DOUBLE(x);
    return true;
  }
  if (int_like(x) || float_like(x)) {
    double v = PyFloat_AsDouble(x);  // through __index__ or __float__
    if (v == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      return path.fail_message("a Python number that does not fit a Float");
    }
    *out = v;
    return true;
  }
  return path.fail_expected(Str::lit("Float"), o);
}

bool FromPy<bool>::get(const Object& o, bool* out, Path& path) {
  Gil gil;
  PyObject* x = or_none(o);
  if (!PyBool_Check(x)) return path.fail_expected(Str::lit("Bool"), o);
  *out = x == Py_True;
  return true;
}

bool FromPy<Str>::get(const Object& o, Str* out, Path& path) {
  Gil gil;
  PyObject* x = or_none(o);
  if (!PyUnicode_Check(x)) return path.fail_expected(Str::lit("Str"), o);
  *out = detail::to_fitz_str(x);
  return true;
}

bool FromPy<Bytes>::get(const Object& o, Bytes* out, Path& path) {
  Gil gil;
  PyObject* x = or_none(o);
  char* p = nullptr;
  Py_ssize_t n = 0;
  if (!PyBytes_Check(x) || PyBytes_AsStringAndSize(x, &p, &n) < 0) return path.fail_expected(Str::lit("Bytes"), o);
  *out = Bytes(p, size_t(n));
  return true;
}

bool FromPy<Any>::get(const Object& o, Any* out, Path& path) {
  PyObject* x = or_none(o);
  bool scalar = false;
  {
    Gil gil;
    scalar = x == Py_None || PyBool_Check(x) || int_like(x) || PyFloat_Check(x) || float_like(x) || PyUnicode_Check(x);
  }
  if (scalar) {
    Gil gil;
    if (x == Py_None) {
      *out = Any();
    } else if (PyBool_Check(x)) {
      *out = Any(x == Py_True);
    } else if (int_like(x)) {
      int64_t v = 0;
      if (!FromPy<int64_t>::get(o, &v, path)) return false;
      *out = Any(v);
    } else if (PyFloat_Check(x) || float_like(x)) {
      double v = 0;
      if (!FromPy<double>::get(o, &v, path)) return false;
      *out = Any(v);
    } else {
      *out = Any(detail::to_fitz_str(x));
    }
    return true;
  }
  bool mapping = false;
  {
    Gil gil;
    mapping = PyMapping_Check(x) && !PySequence_Check(x);
    mapping = mapping || PyDict_Check(x);
  }
  if (mapping) {
    Map<Str, Any> m;
    if (!FromPy<Map<Str, Any>>::get(o, &m, path)) return false;
    *out = to_any(m);
    return true;
  }
  List<Any> l;
  if (!FromPy<List<Any>>::get(o, &l, path)) return false;
  *out = to_any(l);
  return true;
}

bool sequence_items(const Object& o, std::vector<Object>* out, const Str& expected, Path& path) {
  Gil gil;
  PyObject* x = or_none(o);
  if (PyUnicode_Check(x) || PyBytes_Check(x) || PyDict_Check(x) || x == Py_None) return path.fail_expected(expected, o);
  PyObject* it = PyObject_GetIter(x);
  if (!it) {
    PyErr_Clear();
    return path.fail_expected(expected, o);
  }
  while (PyObject* e = PyIter_Next(it)) out->push_back(Object::adopt(e));
  Py_DECREF(it);
  if (PyErr_Occurred()) return path.fail_message("Python error while iterating: " + detail::take_error());
  return true;
}

bool mapping_items(const Object& o, std::vector<std::pair<Str, Object>>* out, const Str& expected, Path& path) {
  Gil gil;
  PyObject* x = or_none(o);
  PyObject* items = nullptr;
  if (PyDict_Check(x)) {
    items = PyDict_Items(x);
  } else if (PyMapping_Check(x) && !PySequence_Check(x) && !PyUnicode_Check(x)) {
    items = PyMapping_Items(x);
  } else {
    // A SQLAlchemy row mapping and other mappings without the protocol expose `_mapping`.
    PyObject* m = PyObject_GetAttrString(x, "_mapping");
    if (m) {
      items = PyMapping_Items(m);
      Py_DECREF(m);
    } else {
      PyErr_Clear();
    }
  }
  if (!items) {
    PyErr_Clear();
    return path.fail_expected(expected, o);
  }
  Py_ssize_t n = PyList_Size(items);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* kv = PyList_GET_ITEM(items, i);  // borrowed (key, value) tuple
    PyObject* k = PyTuple_GetItem(kv, 0);
    PyObject* v = PyTuple_GetItem(kv, 1);
    if (!k || !v || !PyUnicode_Check(k)) {
      Py_DECREF(items);
      PyErr_Clear();
      return path.fail_message("a mapping key that is not a str");
    }
    Py_INCREF(v);
    out->emplace_back(detail::to_fitz_str(k), Object::adopt(v));
  }
  Py_DECREF(items);
  return true;
}

int field_index(const Str& key, const char* const* names, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (key.size() == std::strlen(names[i]) && std::memcmp(key.data(), names[i], key.size()) == 0) return int(i);
  return -1;
}

}  // namespace fitz::py

