// Date, DateTime and Uuid across the Postgres boundary: parameters as text with explicit types
// (so `WHERE d = $1` never depends on the server's guess) and cells read back by column type.
// Timestamps travel with an explicit UTC offset, so the session's TimeZone cannot shift them.
#include <string>

#include "fitz/date.h"
#include "pg/codecs.h"
#include "pg/fitz_db_internal.h"

namespace fitz::db {

namespace {

constexpr pg::Oid kDateArray = 1182, kTimestamptzArray = 1185, kUuidArray = 2951;

// A DateTime with its microseconds, e.g. 2026-06-02T16:30:00.250000Z.
std::string datetime_text(DateTime t) {
  Buf b;
  date::write_datetime(b, DateTime{date::floor_div(t.micros, 1000000) * 1000000});
  Str s = b.take();
  std::string out(s.data(), s.size() - 1);
  int64_t frac = t.micros - date::floor_div(t.micros, 1000000) * 1000000;
  char digits[8];
  std::snprintf(digits, sizeof digits, ".%06lld", static_cast<long long>(frac));
  return out + digits + "Z";
}

template <class T> std::string text_of(const T& v) {
  if constexpr (std::is_same_v<T, DateTime>) {
    return datetime_text(v);
  } else {
    Buf b;
    Show<T>::write(b, v, false);
    Str s = b.take();
    return std::string(s.data(), s.size());
  }
}

// The elements of a list as `T` (nulls kept), or false when one element is another type.
template <class T> bool list_text(detail::AnyObj* list, std::string* literal) {
  std::string out = "{";
  for (int64_t i = 0, n = list->len(); i < n; ++i) {
    Any e = list->get(i, {});
    if (i) out += ',';
    T v;
    if (e.is_null()) {
      out += "NULL";
    } else if (try_from_any(e, &v)) {
      out += text_of(v);  // digits, dashes, colons, dots, T and Z: nothing to quote
    } else {
      return false;
    }
  }
  *literal = out + "}";
  return true;
}

}  // namespace

std::optional<pg::Param> date_param(const Any& value) {
  Date d;
  Uuid u;
  if (try_from_any(value, &d)) return pg::Param::text(text_of(d), pg::oid::kDate);
  if (try_from_any(value, &u)) return pg::Param::text(text_of(u), pg::oid::kUuid);
  if (!value.is_kind(detail::ObjKind::List) || value.obj()->len() == 0) return std::nullopt;
  std::string literal;
  if (list_text<Date>(value.obj(), &literal)) return pg::Param::text(std::move(literal), kDateArray);
  if (list_text<DateTime>(value.obj(), &literal)) return pg::Param::text(std::move(literal), kTimestamptzArray);
  if (list_text<Uuid>(value.obj(), &literal)) return pg::Param::text(std::move(literal), kUuidArray);
  return std::nullopt;
}

bool date_cell(pg::Oid type, std::string_view text, Any* out) {
  if (type == pg::oid::kDate) {
    Date d;
    if (!date::parse_date(text, &d)) return false;
    *out = to_any(d);
    return true;
  }
  if (type == pg::oid::kTimestamptz || type == pg::oid::kTimestamp) {
    // A `timestamp` without a zone is read as UTC.
    std::string s(text);
    if (type == pg::oid::kTimestamp) s += "Z";
    DateTime t;
    if (!date::parse_datetime(s, &t)) return false;
    *out = to_any(t);
    return true;
  }
  if (type == pg::oid::kUuid) {
    Uuid u;
    if (!date::parse_uuid(text, &u)) return false;
    *out = to_any(u);
    return true;
  }
  return false;
}

}  // namespace fitz::db
