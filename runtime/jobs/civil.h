// Calendar arithmetic shared by the cron schedule and the time-zone rules.
#pragma once

#include <chrono>
#include <cstdint>

namespace fitz::jobs {

// Days since 1970-01-01 of a proleptic Gregorian date (month and day 1-based).
inline int64_t days_from_civil(int y, unsigned m, unsigned d) {
  using namespace std::chrono;
  return int64_t(sys_days(year_month_day(year(y), month(m), day(d))).time_since_epoch().count());
}

}  // namespace fitz::jobs
