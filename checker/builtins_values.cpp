// The value half of the standard library in the built-in table: Date, DateTime, Uuid (their
// modules, methods and nominal types). builtins.cpp appends these rows to its own, so the
// checker, hover, completion, the reference generator and codegen read them like any other.
#include "checker/builtins.h"

namespace fitz::checker {

namespace {
using R = BuiltinRule;
}  // namespace

// clang-format off
const std::vector<BuiltinEntry>& value_builtin_entries() {
  static const std::vector<BuiltinEntry> kRows = {
    // ---- Date -------------------------------------------------------------------------------------
    {"DateModule", "today", "() -> Date", "Today's date (the UTC day).", false, false, "fitz_date_today"},
    {"DateModule", "tomorrow", "() -> Date", "Tomorrow's date (the UTC day after today).", false, false, "fitz_date_tomorrow"},
    {"DateModule", "yesterday", "() -> Date", "Yesterday's date (the UTC day before today).", false, false, "fitz_date_yesterday"},
    {"DateModule", "parse", "(s: Str) -> Result<Date>", "The date written `YYYY-MM-DD`, or Err(\"Date.parse: invalid date `x` (expected YYYY-MM-DD)\").", false, false, "fitz_date_parse"},
    {"DateModule", "from_ymd", "(year: Int, month: Int, day: Int) -> Result<Date>", "The date of a year, month (1-12) and day, or Err(\"Date.from_ymd: invalid date 2026-2-30\").", false, false, "fitz_date_from_ymd"},
    {"Date", "year", "() -> Int", "The year.", false, false, "fitz_date_year"},
    {"Date", "month", "() -> Int", "The month, 1-12.", false, false, "fitz_date_month"},
    {"Date", "day", "() -> Int", "The day of the month, 1-31.", false, false, "fitz_date_day"},
    {"Date", "weekday", "() -> Int", "The ISO weekday: 1 = Monday ... 7 = Sunday.", false, false, "fitz_date_weekday"},
    {"Date", "to_str", "() -> Str", "The date as `YYYY-MM-DD`.", false, false, "fitz_date_to_str"},
    {"Date", "to_datetime", "() -> DateTime", "Midnight UTC of this date.", false, false, "fitz_date_to_datetime"},
    {"Date", "format", "(fmt: Str) -> Str", "The date written with strftime specifiers (`%Y %m %d %A %B %j %F %%` ...; C locale). A literal format is checked when compiling.", false, false, "fitz_date_format", R::DateFormat},
    {"Date", "add_days", "(n: Int) -> Date", "The date `n` days later.", false, false, "fitz_date_add_days"},
    {"Date", "subtract_days", "(n: Int) -> Date", "The date `n` days earlier.", false, false, "fitz_date_subtract_days"},
    {"Date", "add_months", "(n: Int) -> Date", "The date `n` months later (the day is clamped to the month's end: Jan 31 + 1 month = Feb 28/29).", false, false, "fitz_date_add_months"},
    {"Date", "subtract_months", "(n: Int) -> Date", "The date `n` months earlier (the day is clamped to the month's end: Jan 31 + 1 month = Feb 28/29).", false, false, "fitz_date_subtract_months"},
    {"Date", "add_years", "(n: Int) -> Date", "The date `n` years later (the day is clamped to the month's end: Jan 31 + 1 month = Feb 28/29).", false, false, "fitz_date_add_years"},
    {"Date", "subtract_years", "(n: Int) -> Date", "The date `n` years earlier (the day is clamped to the month's end: Jan 31 + 1 month = Feb 28/29).", false, false, "fitz_date_subtract_years"},
    {"Date", "diff_days", "(other: Date) -> Int", "Days from `other` to this date (self - other, signed).", false, false, "fitz_date_diff_days"},
    // ---- DateTime ---------------------------------------------------------------------------------
    {"DateTimeModule", "now", "() -> DateTime", "The current time (UTC, microsecond precision).", false, false, "fitz_datetime_now"},
    {"DateTimeModule", "epoch", "() -> DateTime", "1970-01-01T00:00:00Z.", false, false, "fitz_datetime_epoch"},
    {"DateTimeModule", "parse", "(s: Str) -> Result<DateTime>", "An RFC 3339 timestamp (any offset, normalised to UTC; a fraction is kept to the microsecond), or Err(\"DateTime.parse: invalid RFC 3339 timestamp `x`\").", false, false, "fitz_datetime_parse"},
    {"DateTimeModule", "from_timestamp", "(secs: Int) -> Result<DateTime>", "The instant `secs` seconds after 1970-01-01T00:00:00Z, or Err(\"DateTime.from_timestamp: out of range: N\").", false, false, "fitz_datetime_from_timestamp"},
    {"DateTime", "year", "() -> Int", "The year (UTC).", false, false, "fitz_datetime_year"},
    {"DateTime", "month", "() -> Int", "The month, 1-12 (UTC).", false, false, "fitz_datetime_month"},
    {"DateTime", "day", "() -> Int", "The day of the month (UTC).", false, false, "fitz_datetime_day"},
    {"DateTime", "hour", "() -> Int", "The hour, 0-23 (UTC).", false, false, "fitz_datetime_hour"},
    {"DateTime", "minute", "() -> Int", "The minute, 0-59.", false, false, "fitz_datetime_minute"},
    {"DateTime", "second", "() -> Int", "The second, 0-59.", false, false, "fitz_datetime_second"},
    {"DateTime", "timestamp", "() -> Int", "Seconds since 1970-01-01 00:00:00 UTC (what JWT `exp`, `iat` and `nbf` claims hold).", false, false, "fitz_datetime_timestamp"},
    {"DateTime", "to_str", "() -> Str", "The instant as `YYYY-MM-DDTHH:MM:SSZ`.", false, false, "fitz_datetime_to_str"},
    {"DateTime", "date", "() -> Date", "The UTC calendar date of this instant.", false, false, "fitz_datetime_date"},
    {"DateTime", "format", "(fmt: Str) -> Str", "The instant (UTC) written with strftime specifiers (`%Y %m %d %H %M %S %A %B %j %F %T %%` ...; C locale). A literal format is checked when compiling.", false, false, "fitz_datetime_format", R::DateFormat},
    {"DateTime", "add_seconds", "(n: Int) -> DateTime", "The instant `n` seconds later.", false, false, "fitz_datetime_add_seconds"},
    {"DateTime", "subtract_seconds", "(n: Int) -> DateTime", "The instant `n` seconds earlier.", false, false, "fitz_datetime_subtract_seconds"},
    {"DateTime", "add_minutes", "(n: Int) -> DateTime", "The instant `n` minutes later.", false, false, "fitz_datetime_add_minutes"},
    {"DateTime", "subtract_minutes", "(n: Int) -> DateTime", "The instant `n` minutes earlier.", false, false, "fitz_datetime_subtract_minutes"},
    {"DateTime", "add_hours", "(n: Int) -> DateTime", "The instant `n` hours later.", false, false, "fitz_datetime_add_hours"},
    {"DateTime", "subtract_hours", "(n: Int) -> DateTime", "The instant `n` hours earlier.", false, false, "fitz_datetime_subtract_hours"},
    {"DateTime", "add_days", "(n: Int) -> DateTime", "The instant `n` days later (exactly 86,400 s each).", false, false, "fitz_datetime_add_days"},
    {"DateTime", "subtract_days", "(n: Int) -> DateTime", "The instant `n` days earlier (exactly 86,400 s each).", false, false, "fitz_datetime_subtract_days"},
    {"DateTime", "add_months", "(n: Int) -> DateTime", "The instant `n` months later (calendar-aware; the day is clamped to the month's end).", false, false, "fitz_datetime_add_months"},
    {"DateTime", "subtract_months", "(n: Int) -> DateTime", "The instant `n` months earlier (calendar-aware; the day is clamped to the month's end).", false, false, "fitz_datetime_subtract_months"},
    {"DateTime", "add_years", "(n: Int) -> DateTime", "The instant `n` years later (calendar-aware, as 12 months).", false, false, "fitz_datetime_add_years"},
    {"DateTime", "subtract_years", "(n: Int) -> DateTime", "The instant `n` years earlier (calendar-aware, as 12 months).", false, false, "fitz_datetime_subtract_years"},
    {"DateTime", "diff_seconds", "(other: DateTime) -> Int", "Whole seconds from `other` to this instant (self - other, truncated toward 0).", false, false, "fitz_datetime_diff_seconds"},
    {"DateTime", "diff_minutes", "(other: DateTime) -> Int", "Whole minutes from `other` to this instant (self - other, truncated toward 0).", false, false, "fitz_datetime_diff_minutes"},
    {"DateTime", "diff_hours", "(other: DateTime) -> Int", "Whole hours from `other` to this instant (self - other, truncated toward 0).", false, false, "fitz_datetime_diff_hours"},
    {"DateTime", "diff_days", "(other: DateTime) -> Int", "Whole days from `other` to this instant (self - other, truncated toward 0).", false, false, "fitz_datetime_diff_days"},
    {"DateTime", "to_local", "() -> Str", "ISO 8601 text of this instant at the host's UTC offset (TZ), e.g. `2026-06-02T10:30:00-03:00`.", false, false, "fitz_datetime_to_local"},
    // ---- Uuid -------------------------------------------------------------------------------------
    {"UuidModule", "v4", "() -> Uuid", "A random (version 4) UUID from the system's CSPRNG, e.g. for a JWT `jti` claim.", false, false, "fitz_uuid_v4"},
    {"UuidModule", "v7", "() -> Uuid", "A time-ordered (version 7) UUID: Unix milliseconds, then random bits.", false, false, "fitz_uuid_v7"},
    {"UuidModule", "nil", "() -> Uuid", "The all-zero UUID.", false, false, "fitz_uuid_nil"},
    {"UuidModule", "parse", "(s: Str) -> Result<Uuid>", "A UUID written hyphenated, as 32 hex digits, in `{...}` or as `urn:uuid:...`, or Err(\"Uuid.parse: invalid UUID `x`\").", false, false, "fitz_uuid_parse"},
    {"Uuid", "to_str", "() -> Str", "The canonical text: lower-case, hyphenated.", false, false, "fitz_uuid_to_str"},
    {"Uuid", "is_nil", "() -> Bool", "Whether this is the all-zero UUID.", false, false, "fitz_uuid_is_nil"},
    // ---- DbRow getters of these types ----------------------------------------------------------
    {"DbRow", "get_date", "(col: Str) -> Result<Date>", "The `date` column `col` as a Date, or Err naming the column (missing, NULL, another type).", false, false, "fitz_dbrow_get_date"},
    {"DbRow", "get_datetime", "(col: Str) -> Result<DateTime>", "The `timestamptz` column `col` as a DateTime (a `timestamp` without zone reads as UTC), or Err naming the column.", false, false, "fitz_dbrow_get_datetime"},
    {"DbRow", "get_uuid", "(col: Str) -> Result<Uuid>", "The `uuid` column `col` as a Uuid, or Err naming the column.", false, false, "fitz_dbrow_get_uuid"},
  };
  return kRows;
}

const std::vector<BuiltinValue>& value_builtin_values() {
  static const std::vector<BuiltinValue> kRows = {
    {"Date", "DateModule", "Calendar dates: `Date.today()`, `Date.parse(s)`, `Date.from_ymd(y, m, d)`.", "fitz_mod_date"},
    {"DateTime", "DateTimeModule", "Instants in UTC: `DateTime.now()`, `DateTime.parse(s)`, `DateTime.from_timestamp(secs)`.", "fitz_mod_datetime"},
    {"Uuid", "UuidModule", "UUIDs: `Uuid.v4()`, `Uuid.v7()`, `Uuid.parse(s)`, `Uuid.nil()`.", "fitz_mod_uuid"},
  };
  return kRows;
}

const std::vector<BuiltinNominal>& value_builtin_nominals() {
  static const std::vector<BuiltinNominal> kRows = {
    {"DateModule", {}, false, false, "The date module: `Date.today()`, `Date.parse(s)`, `Date.from_ymd(y, m, d)`."},
    {"DateTimeModule", {}, false, false, "The timestamp module: `DateTime.now()`, `DateTime.parse(s)`, ..."},
    {"UuidModule", {}, false, false, "The UUID module: `Uuid.v4()`, `Uuid.v7()`, `Uuid.parse(s)`, `Uuid.nil()`."},
    {"Date", {}, false, false, "A calendar date (no time, no zone). Prints and travels in JSON as `YYYY-MM-DD`; Postgres `date`. Compare with `<`, `==`."},
    {"DateTime", {}, false, false, "An instant in UTC, to the microsecond. Prints and travels in JSON as `YYYY-MM-DDTHH:MM:SSZ`; Postgres `timestamptz`."},
    {"Uuid", {}, false, false, "A UUID. Prints and travels in JSON in its canonical form; Postgres `uuid`. No ordering."},
  };
  return kRows;
}
// clang-format on

}  // namespace fitz::checker
