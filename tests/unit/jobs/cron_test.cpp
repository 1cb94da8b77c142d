// Cron expressions: the three forms and aliases, field grammar, errors, and next ticks in UTC,
// across month ends and leap years.
#include <gtest/gtest.h>
#include <time.h>

#include "fitz/jobs.h"

namespace fitz::jobs {
namespace {

int64_t utc(int y, int mo, int d, int h = 0, int mi = 0, int s = 0) {
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  return int64_t(timegm(&tm));
}

std::string show(int64_t t) {
  time_t tt = time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[32];
  strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

CronSchedule parse(const char* e) {
  CronParse p = parse_cron(e);
  EXPECT_TRUE(p.schedule.has_value()) << e << ": " << p.error;
  return p.schedule.value_or(CronSchedule{});
}

// The next n ticks after `from`, in UTC.
std::vector<std::string> ticks(const char* expr, int64_t from, int n, const TimeZone& zone = *TimeZone::utc()) {
  CronSchedule s = parse(expr);
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    auto t = next_fire(s, zone, from);
    if (!t) break;
    out.push_back(show(*t));
    from = *t;
  }
  return out;
}

using V = std::vector<std::string>;

TEST(CronParse, FiveFieldsGetSecondZero) {
  EXPECT_EQ(ticks("*/15 * * * *", utc(2026, 1, 1, 10, 7, 30), 3),
            (V{"2026-01-01 10:15:00", "2026-01-01 10:30:00", "2026-01-01 10:45:00"}));
}

TEST(CronParse, SixFieldsHaveSeconds) {
  EXPECT_EQ(ticks("* * * * * *", utc(2026, 1, 1, 23, 59, 58), 3),
            (V{"2026-01-01 23:59:59", "2026-01-02 00:00:00", "2026-01-02 00:00:01"}));
  EXPECT_EQ(ticks("0/20 * * * * *", utc(2026, 1, 1), 3),
            (V{"2026-01-01 00:00:20", "2026-01-01 00:00:40", "2026-01-01 00:01:00"}));
}

TEST(CronParse, SevenFieldsHaveAYear) {
  EXPECT_EQ(ticks("0 0 0 1 1 * 2027", utc(2026, 6, 1), 2), (V{"2027-01-01 00:00:00"}));
  EXPECT_EQ(ticks("0 0 12 1 JAN ? 2028-2030/2", utc(2026, 6, 1), 3),
            (V{"2028-01-01 12:00:00", "2030-01-01 12:00:00"}));
  // A schedule whose years are past never fires again.
  EXPECT_EQ(ticks("0 0 0 1 1 * 2020", utc(2026, 6, 1), 1), V{});
}

TEST(CronParse, RangesListsStepsAndNames) {
  EXPECT_EQ(ticks("0 9-17/4,20 * * *", utc(2026, 3, 2), 4),
            (V{"2026-03-02 09:00:00", "2026-03-02 13:00:00", "2026-03-02 17:00:00", "2026-03-02 20:00:00"}));
  EXPECT_EQ(ticks("0 0 1 feb-apr *", utc(2026, 1, 15), 4),
            (V{"2026-02-01 00:00:00", "2026-03-01 00:00:00", "2026-04-01 00:00:00", "2027-02-01 00:00:00"}));
  EXPECT_EQ(ticks("30 8 * * MON-FRI", utc(2026, 11, 27), 3),  // 2026-11-27 is a Friday
            (V{"2026-11-27 08:30:00", "2026-11-30 08:30:00", "2026-12-01 08:30:00"}));
}

TEST(CronParse, WeekdayNumbering) {
  // 5 fields: Unix numbering, 0 and 7 are Sunday, 1-5 Monday to Friday.
  EXPECT_EQ(ticks("0 12 * * 0", utc(2026, 11, 30), 1), (V{"2026-12-06 12:00:00"}));
  EXPECT_EQ(ticks("0 12 * * 7", utc(2026, 11, 30), 1), (V{"2026-12-06 12:00:00"}));
  EXPECT_EQ(ticks("0 12 * * 1-5", utc(2026, 12, 5), 1), (V{"2026-12-07 12:00:00"}));  // Sat -> Mon
  // 6 and 7 fields: the cron crate's numbering, 1 = Sunday ... 7 = Saturday.
  EXPECT_EQ(ticks("0 0 12 * * 1", utc(2026, 11, 30), 1), (V{"2026-12-06 12:00:00"}));
  EXPECT_EQ(ticks("0 0 12 * * 7", utc(2026, 11, 30), 1), (V{"2026-12-05 12:00:00"}));
  EXPECT_FALSE(parse_cron("0 0 12 * * 0").schedule.has_value());
}

TEST(CronParse, DayOfMonthAndWeekdayBothMatch) {
  // Friday the 13th.
  EXPECT_EQ(ticks("0 0 13 * FRI", utc(2026, 1, 1), 2), (V{"2026-02-13 00:00:00", "2026-03-13 00:00:00"}));
}

TEST(CronParse, Aliases) {
  EXPECT_EQ(ticks("@daily", utc(2026, 2, 27, 5), 2), (V{"2026-02-28 00:00:00", "2026-03-01 00:00:00"}));
  EXPECT_EQ(ticks("@hourly", utc(2026, 2, 27, 5, 1), 1), (V{"2026-02-27 06:00:00"}));
  EXPECT_EQ(ticks("@weekly", utc(2026, 11, 30), 1), (V{"2026-12-06 00:00:00"}));
  EXPECT_EQ(ticks("@monthly", utc(2026, 11, 30), 1), (V{"2026-12-01 00:00:00"}));
  EXPECT_EQ(ticks("@yearly", utc(2026, 11, 30), 1), (V{"2027-01-01 00:00:00"}));
  EXPECT_EQ(ticks("@annually", utc(2026, 11, 30), 1), (V{"2027-01-01 00:00:00"}));
}

TEST(CronParse, Errors) {
  auto err = [](const char* e) {
    CronParse p = parse_cron(e);
    EXPECT_FALSE(p.schedule.has_value()) << e;
    return p.error;
  };
  EXPECT_NE(err("* * * *").find("5 fields"), std::string::npos);
  EXPECT_NE(err("* * * * * * * *").find("not 8"), std::string::npos);
  EXPECT_NE(err("60 * * * *").find("minute 60 is out of range 0-59"), std::string::npos);
  EXPECT_NE(err("0 24 * * *").find("hour"), std::string::npos);
  EXPECT_NE(err("0 0 0 * *").find("day of month 0"), std::string::npos);
  EXPECT_NE(err("0 0 * 13 *").find("month 13"), std::string::npos);
  EXPECT_NE(err("*/0 * * * *").find("step"), std::string::npos);
  EXPECT_NE(err("5-1 * * * *").find("backwards"), std::string::npos);
  EXPECT_NE(err("0 0 * * FUNDAY").find("FUNDAY"), std::string::npos);
  EXPECT_NE(err("1,,2 * * * *").find("empty"), std::string::npos);
  EXPECT_NE(err("@sometimes").find("unknown alias"), std::string::npos);
  EXPECT_NE(err("").find("not 0"), std::string::npos);
  EXPECT_NE(err("0 0 0 1 1 * 1800").find("year"), std::string::npos);
}

TEST(CronNext, MonthEnds) {
  // The 31st only exists in seven months.
  EXPECT_EQ(ticks("0 0 31 * *", utc(2026, 1, 31, 1), 3),
            (V{"2026-03-31 00:00:00", "2026-05-31 00:00:00", "2026-07-31 00:00:00"}));
  EXPECT_EQ(ticks("0 0 30 * *", utc(2026, 1, 30, 1), 1), (V{"2026-03-30 00:00:00"}));
  // The last second of a year rolls into the next.
  EXPECT_EQ(ticks("59 59 23 31 12 *", utc(2026, 12, 31, 23, 59, 59), 1), (V{"2027-12-31 23:59:59"}));
}

TEST(CronNext, LeapYears) {
  EXPECT_EQ(ticks("0 0 29 2 *", utc(2026, 1, 1), 3),
            (V{"2028-02-29 00:00:00", "2032-02-29 00:00:00", "2036-02-29 00:00:00"}));
  // 2100 is not a leap year, 2000 and 2400 rules: the tick after 2096 is 2104.
  EXPECT_EQ(ticks("0 0 29 2 *", utc(2096, 3, 1), 1), (V{"2104-02-29 00:00:00"}));
  // Feb 30 never exists.
  EXPECT_EQ(ticks("0 0 30 2 *", utc(2026, 1, 1), 1), V{});
}

TEST(CronNext, StrictlyAfter) {
  CronSchedule s = parse("0 * * * * *");
  EXPECT_EQ(next_fire(s, *TimeZone::utc(), utc(2026, 1, 1, 10, 0, 0)), utc(2026, 1, 1, 10, 1, 0));
  EXPECT_EQ(next_fire(s, *TimeZone::utc(), utc(2026, 1, 1, 10, 0, 59)), utc(2026, 1, 1, 10, 1, 0));
}

}  // namespace
}  // namespace fitz::jobs
