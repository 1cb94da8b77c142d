// Next ticks in time zones from the system tz database, around DST changes (both
// hemispheres), past the TZif transition list (the POSIX footer rule), and bad zone names.
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

std::shared_ptr<const TimeZone> zone(const char* name) {
  std::string error;
  auto z = TimeZone::load(name, error);
  EXPECT_TRUE(z) << name << ": " << error;
  return z ? z : TimeZone::utc();
}

std::vector<std::string> ticks(const char* expr, const char* tz, int64_t from, int n) {
  CronParse p = parse_cron(expr);
  EXPECT_TRUE(p.schedule) << p.error;
  auto z = zone(tz);
  std::vector<std::string> out;
  for (int i = 0; i < n && p.schedule; ++i) {
    auto t = next_fire(*p.schedule, *z, from);
    if (!t) break;
    out.push_back(show(*t));
    from = *t;
  }
  return out;
}

using V = std::vector<std::string>;

TEST(TimeZone, Offsets) {
  auto madrid = zone("Europe/Madrid");
  EXPECT_EQ(madrid->offset_at(utc(2026, 1, 15)), 3600);
  EXPECT_EQ(madrid->offset_at(utc(2026, 7, 15)), 7200);
  // Spring forward at 01:00 UTC on the last Sunday of March.
  EXPECT_EQ(madrid->offset_at(utc(2026, 3, 29, 0, 59, 59)), 3600);
  EXPECT_EQ(madrid->offset_at(utc(2026, 3, 29, 1, 0, 0)), 7200);
  auto next = madrid->next_transition(utc(2026, 1, 1));
  ASSERT_TRUE(next);
  EXPECT_EQ(next->at, utc(2026, 3, 29, 1));
  EXPECT_EQ(next->offset, 7200);
  auto kolkata = zone("Asia/Kolkata");
  EXPECT_EQ(kolkata->offset_at(utc(2026, 6, 1)), 19800);
  EXPECT_FALSE(kolkata->next_transition(utc(2026, 6, 1)));
}

TEST(TimeZone, DailyJobInLocalTime) {
  EXPECT_EQ(ticks("0 3 * * *", "Europe/Madrid", utc(2026, 1, 10), 2),
            (V{"2026-01-10 02:00:00", "2026-01-11 02:00:00"}));
  EXPECT_EQ(ticks("0 3 * * *", "Europe/Madrid", utc(2026, 7, 10), 1), (V{"2026-07-10 01:00:00"}));
}

TEST(TimeZone, SpringForwardSkipsTheMissingHour) {
  // 2026-03-29 02:00 CET does not exist in Madrid (clocks jump to 03:00 CEST): a 02:30 job
  // does not run that day.
  EXPECT_EQ(ticks("0 30 2 * * *", "Europe/Madrid", utc(2026, 3, 28, 12), 2),
            (V{"2026-03-30 00:30:00", "2026-03-31 00:30:00"}));
  // Every 30 minutes: 01:30 CET is followed by 03:00 CEST, half an hour later in real time.
  EXPECT_EQ(ticks("0 */30 * * * *", "Europe/Madrid", utc(2026, 3, 29, 0, 15), 3),
            (V{"2026-03-29 00:30:00", "2026-03-29 01:00:00", "2026-03-29 01:30:00"}));
}

TEST(TimeZone, FallBackRunsFixedTimesOnce) {
  // 2026-10-25 02:00-02:59 happens twice in Madrid (CEST, then CET): a 02:30 job runs once.
  EXPECT_EQ(ticks("0 30 2 * * *", "Europe/Madrid", utc(2026, 10, 24, 12), 3),
            (V{"2026-10-25 00:30:00", "2026-10-26 01:30:00", "2026-10-27 01:30:00"}));
  // A job at every hour keeps running through both passes of the repeated hour.
  EXPECT_EQ(ticks("0 30 * * * *", "Europe/Madrid", utc(2026, 10, 24, 23, 45), 4),
            (V{"2026-10-25 00:30:00", "2026-10-25 01:30:00", "2026-10-25 02:30:00", "2026-10-25 03:30:00"}));
}

TEST(TimeZone, SouthernHemisphereAndUs) {
  // Sydney leaves DST on the first Sunday of April (2026-04-05, 03:00 AEDT -> 02:00 AEST):
  // 09:00 is 22:00 UTC the day before while DST lasts, 23:00 UTC after.
  EXPECT_EQ(ticks("0 9 * * *", "Australia/Sydney", utc(2026, 4, 3), 3),
            (V{"2026-04-03 22:00:00", "2026-04-04 23:00:00", "2026-04-05 23:00:00"}));
  // New York enters DST on the second Sunday of March.
  EXPECT_EQ(ticks("0 12 * * *", "America/New_York", utc(2026, 3, 7), 3),
            (V{"2026-03-07 17:00:00", "2026-03-08 16:00:00", "2026-03-09 16:00:00"}));
}

TEST(TimeZone, PastTheTransitionListTheFooterRuleApplies) {
  auto madrid = zone("Europe/Madrid");
  EXPECT_EQ(madrid->offset_at(utc(2100, 1, 15)), 3600);
  EXPECT_EQ(madrid->offset_at(utc(2100, 7, 15)), 7200);
  // 2100-03-28 is the last Sunday of March 2100.
  EXPECT_EQ(madrid->offset_at(utc(2100, 3, 28, 0, 59, 59)), 3600);
  EXPECT_EQ(madrid->offset_at(utc(2100, 3, 28, 1, 0, 0)), 7200);
  EXPECT_EQ(ticks("0 30 2 * * *", "Europe/Madrid", utc(2100, 3, 27, 12), 1), (V{"2100-03-29 00:30:00"}));
}

TEST(TimeZone, PosixRules) {
  std::string error;
  auto z = TimeZone::from_posix("test", "EST5EDT,M3.2.0,M11.1.0", error);
  ASSERT_TRUE(z) << error;
  EXPECT_EQ(z->offset_at(utc(2026, 1, 1)), -5 * 3600);
  EXPECT_EQ(z->offset_at(utc(2026, 7, 1)), -4 * 3600);
  EXPECT_EQ(z->offset_at(utc(2026, 3, 8, 7, 0, 0)), -4 * 3600);
  EXPECT_EQ(z->offset_at(utc(2026, 3, 8, 6, 59, 59)), -5 * 3600);
  auto fixed = TimeZone::from_posix("test", "<+0530>-5:30", error);
  ASSERT_TRUE(fixed) << error;
  EXPECT_EQ(fixed->offset_at(utc(2026, 1, 1)), 19800);
  EXPECT_FALSE(TimeZone::from_posix("test", "5", error));
  EXPECT_FALSE(TimeZone::from_posix("test", "CET-1CEST,M13.5.0,M10.5.0", error));
}

TEST(TimeZone, BadNamesAndData) {
  std::string error;
  EXPECT_FALSE(TimeZone::load("Mars/Olympus_Mons", error));
  EXPECT_NE(error.find("unknown time zone"), std::string::npos);
  EXPECT_FALSE(TimeZone::load("../../etc/passwd", error));
  EXPECT_NE(error.find("not a time zone name"), std::string::npos);
  EXPECT_FALSE(TimeZone::from_tzif("x", "TZif2", error));
  EXPECT_FALSE(TimeZone::from_tzif("x", std::string(100, 'a'), error));
  EXPECT_NE(error.find("not a TZif"), std::string::npos);
  EXPECT_TRUE(TimeZone::load("UTC", error));
  EXPECT_TRUE(TimeZone::load("", error));
}

}  // namespace
}  // namespace fitz::jobs
