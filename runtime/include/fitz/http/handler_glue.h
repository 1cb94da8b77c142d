// What generated HTTP handlers and middleware share: the conversions between the runtime's
// Request/Response and the Fitz-visible `Request`/`Response` structs, and `Out`, the answer a
// handler or middleware body produces. The Fitz structs are generated per program (codegen's
// `fzb::T_Request`, `fzb::T_Response`), so the conversions are templates over them; codegen
// binds them in a few lines of `namespace fzh` (codegen/emit_http.cpp).
#pragma once

#include <type_traits>

#include "fitz/http.h"
#include "fitz/runtime.h"

namespace fitz::http::glue {

template <class T> inline constexpr bool is_result = false;
template <class T, class E> inline constexpr bool is_result<fitz::Result<T, E>> = true;
template <class T> inline constexpr bool is_nullable = false;
template <class T> inline constexpr bool is_nullable<fitz::Nullable<T>> = true;

// `Req` has the fields of the built-in `Request`: method, path, headers.
template <class Req> fitz::Ref<Req> request_as(const Request& r) {
  auto o = fitz::make<Req>();
  o->fld_method = r.method_str();
  o->fld_path = r.path;
  o->fld_headers = r.header_map();
  return o;
}

// `Resp` has the fields of the built-in `Response`: status, content_type, headers, body, body_bytes.
template <class Resp> fitz::Ref<Resp> response_as(const Response& r) {
  auto o = fitz::make<Resp>();
  o->fld_status = r.status;
  o->fld_content_type = r.content_type;
  for (const auto& h : r.headers) {
    // Several Set-Cookie headers share one map entry, a line each (fitz::auth::add_set_cookie).
    const fitz::Str* prev = Text(h.first).iequals(Text("set-cookie")) ? o->fld_headers.find(h.first) : nullptr;
    if (prev && !prev->empty()) {
      fitz::Buf b;
      b.append(prev->data(), prev->size());
      b.push('\n');
      b.append(h.second.data(), h.second.size());
      o->fld_headers.set(h.first, b.take());
    } else {
      o->fld_headers.set(h.first, h.second);
    }
  }
  o->fld_body = r.body;
  return o;
}

// A status outside 100..999 is a handler bug: 500. No body at all is an empty body; a null
// Response is `null`.
template <class Resp> Response response_from(const fitz::Ref<Resp>& o) {
  Response r;
  if (!o) return Response::json(200, fitz::Str::lit("null"));
  r.status = o->fld_status >= 100 && o->fld_status <= 999 ? int(o->fld_status) : 500;
  r.content_type = o->fld_content_type;
  for (const auto& e : o->fld_headers.entries_vec()) {
    if (!Text(e.key).iequals(Text("set-cookie"))) {
      r.set_header(e.key, e.value);
      continue;
    }
    // One Set-Cookie header per line: cookies are never folded into one header.
    const char* p = e.value.data();
    const char* end = p + e.value.size();
    while (p < end) {
      const char* nl = p;
      while (nl < end && *nl != '\n') ++nl;
      if (nl > p) r.add_header(e.key, fitz::Str(p, size_t(nl - p)));
      p = nl + 1;
    }
  }
  if (o->fld_body_bytes.has_value()) {
    const fitz::Bytes& b = o->fld_body_bytes.value();
    r.body = fitz::Str(reinterpret_cast<const char*>(b.data()), b.size());
  } else if (o->fld_body.has_value()) {
    r.body = o->fld_body.value();
  } else {
    r.body = fitz::Str();
  }
  return r;
}

// An Err: a string is {"error": msg}; a value with a `status` field answers with that status
// and the whole value; anything else is {"error": value}. All 500 unless a status says otherwise.
template <class E> Response err_response(const E& e) {
  if constexpr (std::is_same_v<E, fitz::Str>) {
    // The db runtime reports a lost or unreachable server as "database unavailable: ...";
    // the spec answers that with 503 and no server details.
    if (e.starts_with(fitz::Str::lit("database unavailable"))) return Response::error(503, Text("database unavailable"));
    return Response::error(500, Text(e));
  } else {
    if constexpr (requires { e->fld_status; }) {
      if (e) {
        int64_t s = int64_t(e->fld_status);
        return Response::json_value(s >= 100 && s <= 999 ? int(s) : 500, e);
      }
    }
    fitz::Buf b;
    JsonWriter w(b);
    w.begin_object();
    w.key("error");
    w.value(e);
    w.end_object();
    return Response::json(500, b.take());
  }
}

// What a handler or middleware body produced: a response, or nothing (`none`: a before
// middleware lets the request through; a handler that returns nothing answers `null`).
struct Out {
  Response r;
  bool none = false;
  Out() : none(true) {}
  Out(Response x) : r(static_cast<Response&&>(x)) {}
  template <class E> Out(fitz::detail::ErrVal<E> e) : r(err_response(e.e)) {}
  static Out pass() { return Out(); }
};

// The answer for a map of Any keys and values, `return 204 {}` most often: compiled once in the
// HTTP runtime, so that a program does not instantiate the boxed map type behind Any itself.
Response json_any_map(int status, const fitz::Map<fitz::Any, fitz::Any>& v);

// `return STATUS {"k": v, ...}` with literal keys and Str values (codegen's literal_str_fields):
// the JSON object the same Map<Str, Str> would encode to, written by the HTTP runtime.
struct JsonField {
  Text key;
  Text value;
};
Response json_fields(int status, std::initializer_list<JsonField> fields);

// JSON of a value whose static type has no encoder of its own (a map with non-Str keys such
// as `{}`) goes through Any.
template <class T> Response json(int status, const T& v) {
  if constexpr (requires(JsonWriter& w, const T& x) { JsonEncode<T>::write(w, x); })
    return Response::json_value(status, v);
  else if constexpr (std::is_same_v<T, fitz::Map<fitz::Any, fitz::Any>>)
    return json_any_map(status, v);
  else
    return Response::json_value(status, fitz::to_any(v));
}

// The answer for a value a body returned; `Resp` is the program's `Response` struct.
template <class Resp, class T> Out out(const T& v) {
  if constexpr (std::is_same_v<T, fitz::Ref<Resp>>) {
    return Out(response_from(v));
  } else if constexpr (std::is_same_v<T, fitz::Null>) {
    return Out::pass();
  } else if constexpr (is_nullable<T>) {
    if (!v.has_value()) return Out::pass();
    return out<Resp>(v.value());
  } else if constexpr (is_result<T>) {
    if (v.is_ok()) return out<Resp>(v.value());
    return Out(err_response(v.error()));
  } else {
    return Out(json(200, v));
  }
}

// A handler declared to return `Html` (a Str in C++, kept apart by the checker): the markup is
// the page, sent as text/html.
template <class T> Out html_out(const T& v) {
  if constexpr (is_result<T>) {
    if (v.is_ok()) return html_out(v.value());
    return Out(err_response(v.error()));
  } else if constexpr (is_nullable<T>) {
    if (!v.has_value()) return Out::pass();
    return html_out(v.value());
  } else {
    return Out(Response::text(200, v, fitz::Str::lit("text/html; charset=utf-8")));
  }
}

inline Response finish(Out o) {
  if (o.none) return Response::json(200, fitz::Str::lit("null"));
  return static_cast<Response&&>(o.r);
}

template <class T> fitz::Any opt_any(const fitz::Nullable<T>& v) {
  return v.has_value() ? fitz::to_any(v.value()) : fitz::Any();
}

// `@healthz` / `@readyz` results: false or an Err is unhealthy.
template <class T> bool healthy(const T& v) {
  if constexpr (std::is_same_v<T, bool>)
    return v;
  else if constexpr (is_result<T>)
    return v.is_ok();
  else
    return true;
}

}  // namespace fitz::http::glue
