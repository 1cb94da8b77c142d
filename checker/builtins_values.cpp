// The value half of the standard library in the built-in table: Date, DateTime, Uuid, rand, fs,
// num, to_json and the byte decoders (modules, methods, nominal types). builtins.cpp appends these rows to its own, so the
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
    {"DateTime", "in_tz", "(iana: Str) -> Result<Str>", "ISO 8601 text of this instant in an IANA time zone of the system tz database, e.g. `2026-06-02T13:30:00-03:00` for \"America/Argentina/Buenos_Aires\", or Err(\"DateTime.in_tz: unknown time zone `x`\").", false, false, "fitz_datetime_in_tz"},
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
    // ---- globals --------------------------------------------------------------------------------
    {"", "to_json", "(value: Any) -> Str", "The JSON text of a value: maps in insertion order, user types field by field (`@hidden` fields left out), Date/DateTime/Uuid as strings, a non-finite Float as null.", false, false, "fitz_to_json"},
    {"", "bytes_from_b64", "(text: Str) -> Result<Bytes>", "The bytes a base64 text holds (standard or URL alphabet, padding optional), or Err naming the first bad character.", false, false, "fitz_bytes_from_b64"},
    {"", "bytes_from_hex", "(text: Str) -> Result<Bytes>", "The bytes a hex text holds (either case, two digits a byte), or Err naming the first bad digit.", false, false, "fitz_bytes_from_hex"},
    // ---- RandModule ---------------------------------------------------------------------------
    {"RandModule", "int", "(min: Int, max: Int) -> Int", "A uniform Int in min..=max from a per-thread SplitMix64 seeded from the OS; min > max aborts.", false, false, "fitz_rand_int"},
    {"RandModule", "float", "() -> Float", "A uniform Float in [0, 1) from a per-thread SplitMix64 seeded from the OS.", false, false, "fitz_rand_float"},
    {"RandModule", "bool", "() -> Bool", "true or false, evenly, from a per-thread SplitMix64 seeded from the OS.", false, false, "fitz_rand_bool"},
    {"RandModule", "choice", "(xs: List<T>) -> Result<T>", "A random element, or Err(\"rand.choice: empty list\").", false, false, "fitz_rand_choice"},
    {"RandModule", "shuffle", "(xs: List<T>) -> List<T>", "A shuffled copy (Fisher-Yates).", false, false, "fitz_rand_shuffle"},
    {"RandModule", "sample", "(xs: List<T>, n: Int) -> Result<List<T>>", "`n` distinct elements in random order, or Err when `n` is above the length.", false, false, "fitz_rand_sample"},
    {"RandModule", "bytes", "(n: Int) -> Bytes", "`n` bytes from the OS's CSPRNG (for tokens and keys).", false, false, "fitz_rand_bytes"},
    {"RandModule", "seeded", "(seed: Int) -> RandGen", "A generator whose int/float/bool/choice/shuffle/sample replay the same sequence for the same seed (SplitMix64).", false, false, "fitz_rand_seeded"},
    // ---- RandGen ---------------------------------------------------------------------------
    {"RandGen", "int", "(min: Int, max: Int) -> Int", "A uniform Int in min..=max from this generator's sequence; min > max aborts.", false, false, "fitz_gen_int"},
    {"RandGen", "float", "() -> Float", "A uniform Float in [0, 1) from this generator's sequence.", false, false, "fitz_gen_float"},
    {"RandGen", "bool", "() -> Bool", "true or false, evenly, from this generator's sequence.", false, false, "fitz_gen_bool"},
    {"RandGen", "choice", "(xs: List<T>) -> Result<T>", "A random element, or Err(\"RandGen.choice: empty list\").", false, false, "fitz_gen_choice"},
    {"RandGen", "shuffle", "(xs: List<T>) -> List<T>", "A shuffled copy (Fisher-Yates).", false, false, "fitz_gen_shuffle"},
    {"RandGen", "sample", "(xs: List<T>, n: Int) -> Result<List<T>>", "`n` distinct elements in random order, or Err when `n` is above the length.", false, false, "fitz_gen_sample"},
    // ---- fs -------------------------------------------------------------------------------------
    {"FsModule", "read", "(path: Str) -> Result<Str>", "The whole file as text, or Err(\"fs.read: `p`: <os error>\"). Paths are relative to the working directory.", false, false, "fitz_fs_read"},
    {"FsModule", "read_bytes", "(path: Str) -> Result<Bytes>", "The whole file as bytes, or Err.", false, false, "fitz_fs_read_bytes"},
    {"FsModule", "write", "(path: Str, content: Any) -> Result<Null>", "Replaces the file with `content` (a Str or Bytes), creating it.", false, false, "fitz_fs_write", R::StrOrBytes},
    {"FsModule", "append", "(path: Str, content: Any) -> Result<Null>", "Appends `content` (a Str or Bytes) to the file, creating it.", false, false, "fitz_fs_append", R::StrOrBytes},
    {"FsModule", "exists", "(path: Str) -> Bool", "Whether something exists at `path`.", false, false, "fitz_fs_exists"},
    {"FsModule", "list", "(path: Str) -> Result<List<Str>>", "The names in a directory (sorted, without . and ..), or Err.", false, false, "fitz_fs_list"},
    {"FsModule", "remove", "(path: Str) -> Result<Null>", "Removes a file or an empty directory, or Err.", false, false, "fitz_fs_remove"},
    {"FsModule", "mkdir_all", "(path: Str) -> Result<Null>", "Creates a directory and its missing parents (like mkdir -p).", false, false, "fitz_fs_mkdir_all"},
    // ---- num ------------------------------------------------------------------------------------
    {"NumModule", "format", "(x: Float, locale: Str) -> Str", "`x` grouped for `locale`: en-US 1,234.5, es-AR 1.234,5 (any other locale: en-US). An Int is accepted.", false, false, "fitz_num_format"},
    {"NumModule", "percent", "(x: Float, locale: Str, digits: Int) -> Str", "The fraction `x` as a percentage with `digits` decimals: en-US 42.0%, es-AR 42,0 %.", false, false, "fitz_num_percent"},
    {"NumModule", "currency", "(x: Float, locale: Str, code: Str) -> Str", "`x` as money: en-US $1,250.00, es-AR $ 1.250,00; `$` for ARS/USD/MXN/CAD/AUD/CLP/COP, € EUR, £ GBP, ¥ JPY, R$ BRL, any other code as is.", false, false, "fitz_num_currency"},

    // ---- sql ------------------------------------------------------------------------------------
    {"SqlModule", "now", "() -> SqlExpr", "`NOW()` as the value of a column in an ORM `.update(db, {...})` map literal.", false, false, "fitz_sql_now"},
    {"SqlModule", "raw", "(fragment: Str) -> SqlExpr", "A SQL fragment written verbatim (in parentheses) as the value of a column in an ORM `.update` map literal, e.g. `sql.raw(\"hits + 1\")`. Only a string literal is accepted (E0722), so a user value can never become SQL text.", false, false, "fitz_sql_raw", R::SqlLiteral},
  };
  return kRows;
}

const std::vector<BuiltinValue>& value_builtin_values() {
  static const std::vector<BuiltinValue> kRows = {
    {"Date", "DateModule", "Calendar dates: `Date.today()`, `Date.parse(s)`, `Date.from_ymd(y, m, d)`.", "fitz_mod_date"},
    {"DateTime", "DateTimeModule", "Instants in UTC: `DateTime.now()`, `DateTime.parse(s)`, `DateTime.from_timestamp(secs)`.", "fitz_mod_datetime"},
    {"Uuid", "UuidModule", "UUIDs: `Uuid.v4()`, `Uuid.v7()`, `Uuid.parse(s)`, `Uuid.nil()`.", "fitz_mod_uuid"},
    {"sql", "SqlModule", "SQL expressions for ORM updates: `.update(db, {\"seen_at\": sql.now(), \"hits\": sql.raw(\"hits + 1\")})`.", "fitz_mod_sql"},
    {"rand", "RandModule", "Random values: `rand.int(1, 6)`, `rand.choice(xs)`, `rand.seeded(42)` for a reproducible sequence, `rand.bytes(32)` for tokens.", "fitz_mod_rand"},
    {"fs", "FsModule", "Files relative to the working directory: `fs.read`, `fs.write`, `fs.list`, `fs.mkdir_all`, ...", "fitz_mod_fs"},
    {"num", "NumModule", "Numbers for people: `num.format(1234.5, \"es-AR\")`, `num.percent`, `num.currency`.", "fitz_mod_num"},
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
    {"SqlModule", {}, false, false, "The SQL expression module: `sql.now()`, `sql.raw(\"...\")`."},
    {"SqlExpr", {}, false, false, "Constant SQL (`sql.now()`, `sql.raw(\"...\")`) for a column value in an ORM `.update` map literal; not JSON, prints as `<sql-expr ...>`."},
    {"RandModule", {}, false, false, "The random module: `rand.int`, `rand.float`, `rand.choice`, `rand.seeded`, `rand.bytes`, ..."},
    {"RandGen", {}, false, false, "A seeded SplitMix64 generator (`rand.seeded(n)`): the same seed replays the same sequence."},
    {"FsModule", {}, false, false, "The file module: `fs.read`, `fs.write`, `fs.append`, `fs.exists`, `fs.list`, `fs.remove`, `fs.mkdir_all`."},
    {"NumModule", {}, false, false, "The number formatting module: `num.format`, `num.percent`, `num.currency`."},
  };
  return kRows;
}
// clang-format on

}  // namespace fitz::checker
