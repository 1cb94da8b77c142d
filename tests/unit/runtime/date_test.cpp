// Date, DateTime and Uuid: calendar arithmetic (leap days, month-end clamping), the ISO weekday
// numbering, text forms and parse errors, and the methods generated code reaches through Any.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <string>

#include "fitz/runtime.h"

using fitz::Any;
using fitz::Date;
using fitz::DateTime;
using fitz::Str;
using fitz::Uuid;

namespace test_support {
namespace {

std::string date_text_of(const Any& v) { return fitz::to_str(v).as<std::string>(); }
Date ymd_date(int64_t y, int m, int d) { return Date{fitz::date::days_from_civil(y, m, d)}; }
Any call_date(const Any& recv, const char* name, std::initializer_list<Any> args = {}) {
  return fitz::any_method(recv, name, args, {});
}
std::string date_err_text(const Any& result) {
  EXPECT_TRUE(fitz::any_is_err(result));
  return date_text_of(fitz::any_result_inner(result));
}

}  // namespace
}  // namespace test_support

using namespace test_support;

TEST(Date, CivilRoundTripAcrossEras) {
  for (int64_t days = -800000; days <= 800000; days += 997) {
    auto c = fitz::date::civil_from_days(days);
    EXPECT_EQ(fitz::date::days_from_civil(c.year, c.month, c.day), days);
  }
  EXPECT_EQ(fitz::date::days_from_civil(1970, 1, 1), 0);
  EXPECT_EQ(fitz::date::days_from_civil(2000, 3, 1), 11017);
}

TEST(Date, LeapYears) {
  EXPECT_TRUE(fitz::date::is_leap(2024));
  EXPECT_TRUE(fitz::date::is_leap(2000));
  EXPECT_FALSE(fitz::date::is_leap(1900));
  EXPECT_FALSE(fitz::date::is_leap(2026));
  EXPECT_TRUE(fitz::date::valid_ymd(2024, 2, 29));
  EXPECT_FALSE(fitz::date::valid_ymd(2026, 2, 29));
  EXPECT_FALSE(fitz::date::valid_ymd(2026, 4, 31));
  EXPECT_FALSE(fitz::date::valid_ymd(2026, 13, 1));
  EXPECT_FALSE(fitz::date::valid_ymd(0, 1, 1));
}

TEST(Date, MonthEndClamping) {
  Date out;
  ASSERT_TRUE(fitz::date::add_months(ymd_date(2026, 1, 31), 1, &out));
  EXPECT_EQ(date_text_of(fitz::to_any(out)), "2026-02-28");
  ASSERT_TRUE(fitz::date::add_months(ymd_date(2024, 1, 31), 1, &out));
  EXPECT_EQ(date_text_of(fitz::to_any(out)), "2024-02-29");
  ASSERT_TRUE(fitz::date::add_months(ymd_date(2024, 2, 29), 12, &out));  // add_years(1)
  EXPECT_EQ(date_text_of(fitz::to_any(out)), "2025-02-28");
  ASSERT_TRUE(fitz::date::add_months(ymd_date(2026, 3, 31), -1, &out));
  EXPECT_EQ(date_text_of(fitz::to_any(out)), "2026-02-28");
  ASSERT_TRUE(fitz::date::add_months(ymd_date(2026, 1, 15), -13, &out));
  EXPECT_EQ(date_text_of(fitz::to_any(out)), "2024-12-15");
  EXPECT_FALSE(fitz::date::add_months(ymd_date(9999, 12, 1), 1, &out));
  // The spec's example: Jan 31 + 1 month - 1 day.
  Any d = fitz::to_any(ymd_date(2026, 1, 31));
  Any end = call_date(call_date(d, "add_months", {Any(int64_t(1))}), "subtract_days", {Any(int64_t(1))});
  EXPECT_EQ(date_text_of(end), "2026-02-27");
}

TEST(Date, IsoWeekdayIsMondayOneToSundaySeven) {
  EXPECT_EQ(fitz::date::iso_weekday(ymd_date(1970, 1, 1).days), 4);  // Thursday
  EXPECT_EQ(fitz::date::iso_weekday(ymd_date(2026, 11, 30).days), 1);  // Monday
  EXPECT_EQ(fitz::date::iso_weekday(ymd_date(2026, 12, 6).days), 7);  // Sunday
  EXPECT_EQ(fitz::date::iso_weekday(ymd_date(1969, 12, 28).days), 7);  // before the epoch
  EXPECT_EQ(call_date(fitz::to_any(ymd_date(2026, 12, 5)), "weekday").int_value(), 6);
}

TEST(Date, ArithmeticAndDiff) {
  Any d = fitz::to_any(ymd_date(2024, 2, 28));
  EXPECT_EQ(date_text_of(call_date(d, "add_days", {Any(int64_t(1))})), "2024-02-29");
  EXPECT_EQ(date_text_of(call_date(d, "add_days", {Any(int64_t(2))})), "2024-03-01");
  EXPECT_EQ(date_text_of(call_date(d, "subtract_years", {Any(int64_t(4))})), "2020-02-28");
  Any other = fitz::to_any(ymd_date(2023, 2, 28));
  EXPECT_EQ(call_date(d, "diff_days", {other}).int_value(), 365);
  EXPECT_EQ(call_date(other, "diff_days", {d}).int_value(), -365);
  EXPECT_EQ(date_text_of(call_date(d, "to_datetime")), "2024-02-28T00:00:00Z");
}

TEST(Date, ParseAndErrors) {
  Date d;
  EXPECT_TRUE(fitz::date::parse_date("2024-02-29", &d));
  EXPECT_FALSE(fitz::date::parse_date("2026-02-29", &d));
  EXPECT_FALSE(fitz::date::parse_date("2026-2-01", &d));
  EXPECT_FALSE(fitz::date::parse_date("2026-02-01T00:00:00Z", &d));
  EXPECT_FALSE(fitz::date::parse_date("", &d));
  Any mod = fitz::date_module();
  EXPECT_EQ(date_err_text(call_date(mod, "parse", {Any("2026-13-01")})),
            "Date.parse: invalid date `2026-13-01` (expected YYYY-MM-DD)");
  EXPECT_EQ(date_err_text(call_date(mod, "from_ymd", {Any(int64_t(2026)), Any(int64_t(2)), Any(int64_t(30))})),
            "Date.from_ymd: invalid date 2026-2-30");
  Any ok = call_date(mod, "from_ymd", {Any(int64_t(2026)), Any(int64_t(2)), Any(int64_t(28))});
  ASSERT_TRUE(fitz::any_is_ok(ok));
  EXPECT_EQ(date_text_of(fitz::any_result_inner(ok)), "2026-02-28");
}

TEST(DateTime, ParseNormalisesOffsetsToUtc) {
  DateTime t;
  ASSERT_TRUE(fitz::date::parse_datetime("2026-06-02T13:30:00-03:00", &t));
  EXPECT_EQ(date_text_of(fitz::to_any(t)), "2026-06-02T16:30:00Z");
  ASSERT_TRUE(fitz::date::parse_datetime("2026-06-02 23:30:00.123456+05:30", &t));
  EXPECT_EQ(t.micros % 1000000, 123456);
  EXPECT_EQ(date_text_of(fitz::to_any(t)), "2026-06-02T18:00:00Z");
  ASSERT_TRUE(fitz::date::parse_datetime("2026-01-01 00:00:00+00", &t));  // Postgres' text form
  EXPECT_EQ(t.micros, fitz::date::days_from_civil(2026, 1, 1) * fitz::date::kMicrosPerDay);
  EXPECT_FALSE(fitz::date::parse_datetime("2026-06-02T13:30:00", &t));  // no offset
  EXPECT_FALSE(fitz::date::parse_datetime("2026-06-02T24:00:00Z", &t));
  EXPECT_FALSE(fitz::date::parse_datetime("2026-06-02T13:30:00Zjunk", &t));
  EXPECT_EQ(date_err_text(call_date(fitz::datetime_module(), "parse", {Any("yesterday")})),
            "DateTime.parse: invalid RFC 3339 timestamp `yesterday`");
  EXPECT_EQ(date_err_text(call_date(fitz::datetime_module(), "from_timestamp", {Any(int64_t(1) << 62)})),
            "DateTime.from_timestamp: out of range: 4611686018427387904");
}

TEST(DateTime, FieldsArithmeticAndDiffs) {
  DateTime t;
  ASSERT_TRUE(fitz::date::parse_datetime("2024-01-31T22:15:09Z", &t));
  Any v = fitz::to_any(t);
  EXPECT_EQ(call_date(v, "hour").int_value(), 22);
  EXPECT_EQ(call_date(v, "minute").int_value(), 15);
  EXPECT_EQ(call_date(v, "second").int_value(), 9);
  EXPECT_EQ(date_text_of(call_date(v, "add_months", {Any(int64_t(1))})), "2024-02-29T22:15:09Z");
  EXPECT_EQ(date_text_of(call_date(v, "add_hours", {Any(int64_t(2))})), "2024-02-01T00:15:09Z");
  EXPECT_EQ(date_text_of(call_date(v, "date")), "2024-01-31");
  Any later = call_date(v, "add_seconds", {Any(int64_t(3599))});
  EXPECT_EQ(call_date(later, "diff_hours", {v}).int_value(), 0);  // truncated toward 0
  EXPECT_EQ(call_date(v, "diff_minutes", {later}).int_value(), -59);
  EXPECT_EQ(call_date(fitz::to_any(DateTime{-1}), "timestamp").int_value(), -1);  // floors
}

TEST(DateTime, FormatSpecifiers) {
  DateTime t;
  ASSERT_TRUE(fitz::date::parse_datetime("2026-03-01T07:05:03Z", &t));
  EXPECT_EQ(fitz::date::format(t, "%Y-%m-%d %H:%M:%S").as<std::string>(), "2026-03-01 07:05:03");
  EXPECT_EQ(fitz::date::format(t, "%A %a %B %b %j %u").as<std::string>(), "Sunday Sun March Mar 060 7");
  EXPECT_EQ(fitz::date::format(t, "%F %T %y %e %I%p %Z %z 100%%").as<std::string>(),
            "2026-03-01 07:05:03 26  1 07AM UTC +0000 100%");
  EXPECT_EQ(fitz::date::format(t, "%Q and %").as<std::string>(), "%Q and %");  // copied through
}

TEST(DateTime, LocalOffsetFollowsTz) {
  // to_local reads the host's zone: pin it for the test and restore it after.
  const char* old = std::getenv("TZ");
  std::string saved = old ? old : "";
  setenv("TZ", "America/Argentina/Buenos_Aires", 1);
  tzset();
  DateTime t;
  ASSERT_TRUE(fitz::date::parse_datetime("2026-06-02T16:30:00Z", &t));
  std::string local = date_text_of(call_date(fitz::to_any(t), "to_local"));
  setenv("TZ", "UTC", 1);
  tzset();
  std::string utc = date_text_of(call_date(fitz::to_any(t), "to_local"));
  if (old)
    setenv("TZ", saved.c_str(), 1);
  else
    unsetenv("TZ");
  tzset();
  EXPECT_EQ(local, "2026-06-02T13:30:00-03:00");
  EXPECT_EQ(utc, "2026-06-02T16:30:00+00:00");
  EXPECT_EQ(fitz::date::with_offset(t, 19800).as<std::string>(), "2026-06-02T22:00:00+05:30");
}

TEST(Uuid, ParseFormsAndCanonicalText) {
  const char* forms[] = {"6f9619ff-8b86-d011-b42d-00c04fc964ff", "6F9619FF8B86D011B42D00C04FC964FF",
                         "{6F9619FF-8B86-D011-B42D-00C04FC964FF}", "urn:uuid:6f9619ff-8b86-d011-b42d-00c04fc964ff"};
  for (const char* f : forms) {
    Uuid u;
    ASSERT_TRUE(fitz::date::parse_uuid(f, &u)) << f;
    EXPECT_EQ(date_text_of(fitz::to_any(u)), "6f9619ff-8b86-d011-b42d-00c04fc964ff");
  }
  Uuid u;
  EXPECT_FALSE(fitz::date::parse_uuid("6f9619ff-8b86-d011-b42d-00c04fc964f", &u));
  EXPECT_FALSE(fitz::date::parse_uuid("6f9619ff8-b86-d011-b42d-00c04fc964ff", &u));
  EXPECT_FALSE(fitz::date::parse_uuid("6f9619ff-8b86-d011-b42d-00c04fc964fg", &u));
  EXPECT_EQ(date_err_text(call_date(fitz::uuid_module(), "parse", {Any("nope")})), "Uuid.parse: invalid UUID `nope`");
}

TEST(Uuid, VersionsAndNil) {
  Any mod = fitz::uuid_module();
  Uuid a, b, c;
  ASSERT_TRUE(fitz::try_from_any(call_date(mod, "v4"), &a));
  ASSERT_TRUE(fitz::try_from_any(call_date(mod, "v4"), &b));
  EXPECT_FALSE(fitz::eq(a, b));
  EXPECT_EQ(a.b[6] >> 4, 4);
  EXPECT_EQ(a.b[8] >> 6, 2);
  ASSERT_TRUE(fitz::try_from_any(call_date(mod, "v7"), &c));
  EXPECT_EQ(c.b[6] >> 4, 7);
  EXPECT_TRUE(call_date(call_date(mod, "nil"), "is_nil").bool_value());
  EXPECT_FALSE(call_date(fitz::to_any(a), "is_nil").bool_value());
  EXPECT_EQ(date_text_of(call_date(mod, "nil")), "00000000-0000-0000-0000-000000000000");
}

TEST(Date, ComparisonsAndEqualityThroughAny) {
  Date a = ymd_date(2026, 1, 1), b = ymd_date(2026, 1, 2);
  EXPECT_TRUE(fitz::op::lt(a, b));
  EXPECT_FALSE(fitz::op::lt(b, a));
  EXPECT_TRUE(fitz::eq(fitz::to_any(a), fitz::to_any(ymd_date(2026, 1, 1))));
  EXPECT_FALSE(fitz::eq(fitz::to_any(a), fitz::to_any(b)));
  Date back;
  ASSERT_TRUE(fitz::try_from_any(fitz::to_any(b), &back));
  EXPECT_EQ(back.days, b.days);
}
