// `Date`, `DateTime` and `Uuid` as value types of generated programs (the checker types them;
// codegen maps them to fitz::Date, fitz::DateTime, fitz::Uuid), the pure calendar arithmetic
// behind their methods, and their text forms. Methods are dispatched through boxes (date.cpp).
//
//   Date       days since 1970-01-01 (proleptic Gregorian)     prints 2026-02-28
//   DateTime   microseconds since 1970-01-01T00:00:00Z (UTC)   prints 2026-02-28T13:30:00Z
//   Uuid       16 bytes                                        prints canonical lower-case
#pragma once

#include <cstdint>
#include <string_view>

#include "fitz/any.h"

namespace fitz {

struct Date {
  int64_t days = 0;
};
struct DateTime {
  int64_t micros = 0;
};
struct Uuid {
  uint8_t b[16] = {};
};

namespace date {

// Years outside 1..9999 do not print as YYYY: constructors give Err, arithmetic aborts.
inline constexpr int64_t kMinYear = 1;
inline constexpr int64_t kMaxYear = 9999;
inline constexpr int64_t kMicrosPerDay = 86400LL * 1000000;

struct Civil {
  int64_t year;
  int month;  // 1..12
  int day;    // 1..31
};

int64_t days_from_civil(int64_t y, int m, int d);
Civil civil_from_days(int64_t days);
bool is_leap(int64_t y);
int days_in_month(int64_t y, int m);
bool valid_ymd(int64_t y, int64_t m, int64_t d);
// ISO weekday: 1 = Monday ... 7 = Sunday.
int iso_weekday(int64_t days);
int64_t floor_div(int64_t a, int64_t b);
inline std::string_view view(const Str& s) { return std::string_view(s.data(), s.size()); }

// Calendar-aware: the day is clamped to the end of the target month (Jan 31 + 1 = Feb 28/29).
// False when the result leaves the year range.
bool add_months(Date d, int64_t months, Date* out);
bool add_months(DateTime t, int64_t months, DateTime* out);
bool in_range(Date d);
bool in_range(DateTime t);

// Text forms. The parsers accept what the printers write; DateTime also takes any RFC 3339
// offset (normalised to UTC), a fraction, a space for `T` and Postgres' `+HH` offsets.
bool parse_date(std::string_view s, Date* out);
bool parse_datetime(std::string_view s, DateTime* out);
// Hyphenated, 32 hex digits, `{...}` and `urn:uuid:` forms, either case.
bool parse_uuid(std::string_view s, Uuid* out);
void write_date(Buf& b, Date d);
void write_datetime(Buf& b, DateTime t);
void write_uuid(Buf& b, const Uuid& u);
// strftime specifiers (C locale) on a UTC instant; an unknown specifier is copied through.
Str format(DateTime t, std::string_view fmt);
// An ISO 8601 text of `t` at a fixed offset from UTC (seconds east), e.g. 2026-06-02T13:30:00-03:00.
Str with_offset(DateTime t, int64_t offset_seconds);

}  // namespace date

// The module objects behind `Date`, `DateTime` and `Uuid` in generated code.
Any date_module();
Any datetime_module();
Any uuid_module();

// Text for Postgres parameters (date, timestamptz, uuid) and rows.
Any date_any(Date d);
Any datetime_any(DateTime t);
Any uuid_any(const Uuid& u);
bool any_date(const Any& v, Date* out);
bool any_datetime(const Any& v, DateTime* out);
bool any_uuid(const Any& v, Uuid* out);

// A DateTime of `unix_micros` microseconds since the epoch (tests, other runtimes).
Any datetime_from_unix_micros(int64_t unix_micros);
// The microseconds since the epoch of a DateTime held in `v`; false when `v` holds another value
// (query parameters send a DateTime as timestamptz).
bool datetime_unix_micros(const Any& v, int64_t* unix_micros);

// ---- the value-type protocol (base.h) -------------------------------------------------------

template <> struct Show<Date> {
  static void write(Buf& b, Date v, bool quoted) {
    if (quoted) b.push('"');
    date::write_date(b, v);
    if (quoted) b.push('"');
  }
};
template <> struct Show<DateTime> {
  static void write(Buf& b, DateTime v, bool quoted) {
    if (quoted) b.push('"');
    date::write_datetime(b, v);
    if (quoted) b.push('"');
  }
};
template <> struct Show<Uuid> {
  static void write(Buf& b, const Uuid& v, bool quoted) {
    if (quoted) b.push('"');
    date::write_uuid(b, v);
    if (quoted) b.push('"');
  }
};
template <> struct TypeName<Date> {
  static void write(Buf& b) { b.lit("Date"); }
};
template <> struct TypeName<DateTime> {
  static void write(Buf& b) { b.lit("DateTime"); }
};
template <> struct TypeName<Uuid> {
  static void write(Buf& b) { b.lit("Uuid"); }
};
template <> struct Eq<Date, Date> {
  static bool eq(Date a, Date b) { return a.days == b.days; }
};
template <> struct Eq<DateTime, DateTime> {
  static bool eq(DateTime a, DateTime b) { return a.micros == b.micros; }
};
template <> struct Eq<Uuid, Uuid> {
  static bool eq(const Uuid& a, const Uuid& b) { return __builtin_memcmp(a.b, b.b, 16) == 0; }
};
template <> struct Cmp<Date, Date> {
  static int cmp(Date a, Date b) { return a.days < b.days ? -1 : a.days > b.days; }
};
template <> struct Cmp<DateTime, DateTime> {
  static int cmp(DateTime a, DateTime b) { return a.micros < b.micros ? -1 : a.micros > b.micros; }
};
template <> struct Hash<Date> {
  static uint64_t hash(Date v) { return uint64_t(v.days) * 0x9E3779B97F4A7C15ull; }
};
template <> struct Hash<DateTime> {
  static uint64_t hash(DateTime v) { return uint64_t(v.micros) * 0x9E3779B97F4A7C15ull; }
};
template <> struct Hash<Uuid> {
  static uint64_t hash(const Uuid& v) {
    uint64_t h = 0;
    for (uint8_t x : v.b) h = (h ^ x) * 0x100000001B3ull;
    return h;
  }
};
template <> struct ToAny<Date> {
  static Any conv(Date v) { return date_any(v); }
};
template <> struct ToAny<DateTime> {
  static Any conv(DateTime v) { return datetime_any(v); }
};
template <> struct ToAny<Uuid> {
  static Any conv(const Uuid& v) { return uuid_any(v); }
};
template <> struct FromAny<Date> {
  static bool get(const Any& a, Date* out) { return any_date(a, out); }
};
template <> struct FromAny<DateTime> {
  static bool get(const Any& a, DateTime* out) { return any_datetime(a, out); }
};
template <> struct FromAny<Uuid> {
  static bool get(const Any& a, Uuid* out) { return any_uuid(a, out); }
};

}  // namespace fitz
