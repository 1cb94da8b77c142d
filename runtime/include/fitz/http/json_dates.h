// Date, DateTime and Uuid at the HTTP boundary: written as their text forms, read back from
// JSON strings, query and path parameters. A malformed value is a 400 naming the field.
// Included by fitz/http/json.h; the parameter readers are templates over the Binder of
// fitz/http.h so this header needs nothing past json.h.
#pragma once

#include <string>

#include "fitz/date.h"

namespace fitz::http {

namespace date_text {
using date::view;
inline bool parse(std::string_view s, Date* out) { return date::parse_date(s, out); }
inline bool parse(std::string_view s, DateTime* out) { return date::parse_datetime(s, out) && date::in_range(*out); }
inline bool parse(std::string_view s, Uuid* out) { return date::parse_uuid(s, out); }
template <class T> constexpr const char* expected() {
  if constexpr (std::is_same_v<T, Date>)
    return "Date (YYYY-MM-DD)";
  else if constexpr (std::is_same_v<T, DateTime>)
    return "DateTime (RFC 3339)";
  else
    return "Uuid";
}
}  // namespace date_text

template <class T> struct DateJsonCodec {
  static void write(JsonWriter& w, const T& v) {
    Buf b;
    Show<T>::write(b, v, false);
    Str s = b.take();
    w.value(s);
  }
  static bool read(JsonReader& r, T* out) {
    if (r.peek() != JsonKind::String) {
      r.fail_expected(date_text::expected<T>());
      return false;
    }
    Str s;
    if (!r.read_str(&s)) return false;
    if (date_text::parse(date::view(s), out)) return true;
    r.fail_invalid(date_text::expected<T>(), s);
    return false;
  }
};

template <> struct JsonEncode<Date> : DateJsonCodec<Date> {};
template <> struct JsonEncode<DateTime> : DateJsonCodec<DateTime> {};
template <> struct JsonEncode<Uuid> : DateJsonCodec<Uuid> {};
template <> struct JsonDecode<Date> : DateJsonCodec<Date> {};
template <> struct JsonDecode<DateTime> : DateJsonCodec<DateTime> {};
template <> struct JsonDecode<Uuid> : DateJsonCodec<Uuid> {};

// `?due=2026-03-01` for a `due: Date` (or `Date?`) handler parameter. `Binder` is
// fitz::http::Binder; `text` is its optional Str reading of the parameter.
template <class T, class Binder>
Nullable<T> date_param_opt(Binder& b, const Nullable<Str>& text, const char* kind, const char* name) {
  if (b.failed() || !text.has_value()) return null;
  T v{};
  const Str& s = text.value();
  if (date_text::parse(date::view(s), &v)) return v;
  std::string m = std::string(kind) + " '" + name + "': expected " + date_text::expected<T>() + ", received '" +
                  std::string(s.data(), s.size() < 64 ? s.size() : 64) + "'";
  b.fail(400, Text(m.data(), m.size()));
  return null;
}

template <class T, class Binder> Nullable<T> query_date_opt(Binder& b, const char* name) {
  return date_param_opt<T>(b, b.query_str_opt(name), "query param", name);
}

template <class T, class Binder> T query_date(Binder& b, const char* name) {
  if (b.failed()) return T{};
  Nullable<Str> text = b.query_str_opt(name);
  if (!text.has_value()) {
    b.query_str(name);  // records the spec's "missing" 400
    return T{};
  }
  Nullable<T> v = date_param_opt<T>(b, text, "query param", name);
  return v.has_value() ? v.value() : T{};
}

template <class T, class Binder> T path_date(Binder& b, size_t i, const char* name) {
  Str s = b.path_str(i, name);
  if (b.failed()) return T{};
  Nullable<T> v = date_param_opt<T>(b, Nullable<Str>(s), "path param", name);
  return v.has_value() ? v.value() : T{};
}

}  // namespace fitz::http
