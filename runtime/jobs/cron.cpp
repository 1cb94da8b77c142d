// The next tick of a cron schedule in a time zone (parsing is cron_expr.cpp). Pure (no I/O, no
// clock), so the unit tests pin every case.
#include <chrono>
#include <cstring>

#include "fitz/jobs.h"
#include "fitz/date.h"

namespace fitz::jobs {

// ---- next tick --------------------------------------------------------------------------------

namespace {

using namespace std::chrono;

struct Civil {
  int year, month, day, hour, minute, second;
};

constexpr int64_t kDay = 86400;

Civil civil_from(int64_t t) {
  int64_t days = t >= 0 ? t / kDay : -((-t + kDay - 1) / kDay);
  int64_t rem = t - days * kDay;
  year_month_day ymd{sys_days(std::chrono::days(days))};
  return Civil{int(ymd.year()), int(unsigned(ymd.month())), int(unsigned(ymd.day())), int(rem / 3600),
               int(rem % 3600 / 60), int(rem % 60)};
}

int64_t to_seconds(const Civil& c) {
  return date::days_from_civil(c.year, c.month, c.day) * kDay + c.hour * 3600 + c.minute * 60 + c.second;
}

int days_in_month(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

int weekday_of(int y, int m, int d) {
  int64_t days = date::days_from_civil(y, m, d);  // 1970-01-01 was a Thursday (4)
  return int(((days % 7) + 11) % 7);
}

bool year_ok(const CronSchedule& s, int y) {
  if (y < CronSchedule::kMinYear || y > CronSchedule::kMaxYear) return false;
  return s.years.empty() || s.years[size_t(y - CronSchedule::kMinYear)];
}

// The smallest wall-clock time >= `from` (local seconds) matching the schedule.
std::optional<int64_t> next_local(const CronSchedule& s, int64_t from) {
  Civil c = civil_from(from);
  auto reset_day = [&] { c.hour = c.minute = c.second = 0; };
  for (int guard = 0; guard < 1000000; ++guard) {
    if (c.year > CronSchedule::kMaxYear) return std::nullopt;
    if (!year_ok(s, c.year)) {
      ++c.year;
      c.month = c.day = 1;
      reset_day();
      continue;
    }
    if (!(s.months >> c.month & 1)) {
      if (++c.month > 12) {
        c.month = 1;
        ++c.year;
      }
      c.day = 1;
      reset_day();
      continue;
    }
    if (c.day > days_in_month(c.year, c.month) || !(s.days >> c.day & 1) ||
        !(s.weekdays >> weekday_of(c.year, c.month, c.day) & 1)) {
      if (++c.day > days_in_month(c.year, c.month)) {
        c.day = 1;
        if (++c.month > 12) {
          c.month = 1;
          ++c.year;
        }
      }
      reset_day();
      continue;
    }
    if (!(s.hours >> c.hour & 1)) {
      c.minute = c.second = 0;
      if (++c.hour > 23) {
        c.hour = 0;
        c.day += 1;  // may overflow the month: the day check above rolls it over
        if (c.day > days_in_month(c.year, c.month)) {
          c.day = 1;
          if (++c.month > 12) {
            c.month = 1;
            ++c.year;
          }
        }
      }
      continue;
    }
    if (!(s.minutes >> c.minute & 1)) {
      c.second = 0;
      if (++c.minute > 59) {
        c.minute = 0;
        int64_t t = to_seconds(c) + 3600;
        c = civil_from(t);
      }
      continue;
    }
    if (!(s.seconds >> c.second & 1)) {
      if (++c.second > 59) {
        c.second = 0;
        int64_t t = to_seconds(c) + 60;
        c = civil_from(t);
      }
      continue;
    }
    return to_seconds(c);
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> next_fire(const CronSchedule& s, const TimeZone& zone, int64_t after) {
  // The offset is constant between transitions, so within one such segment wall-clock time
  // runs straight and the first matching wall-clock time is the answer; otherwise move on to
  // the next segment.
  int64_t t = after + 1;
  int64_t repeat_until = t;  // instants before this lie in a fall-back repeat to skip
  for (int guard = 0; guard < 100000; ++guard) {
    int32_t off = zone.offset_at(t);
    std::optional<TimeZone::Transition> next = zone.next_transition(t);
    std::optional<int64_t> local = next_local(s, t + off);
    if (!local) return std::nullopt;
    int64_t u = *local - off;
    if (next && u >= next->at) {
      int32_t new_off = next->offset;
      t = next->at;
      // A fall-back repeats the wall-clock times [local(t), local(t) + delta): a schedule with
      // fixed hours fired at them already.
      if (new_off < off && !s.all_hours) repeat_until = t + (off - new_off);
      continue;
    }
    if (u < repeat_until) {
      t = repeat_until;
      continue;
    }
    return u;
  }
  return std::nullopt;
}

}  // namespace fitz::jobs
