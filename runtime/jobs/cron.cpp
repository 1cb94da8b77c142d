// Cron expressions: parsing the 5/6/7-field forms and aliases into bit sets, and the next tick
// of a schedule in a time zone. Pure (no I/O, no clock), so the unit tests pin every case.
#include <chrono>
#include <cstring>

#include "fitz/jobs.h"
#include "jobs/civil.h"

namespace fitz::jobs {

namespace {

struct Field {
  const char* what;
  int min, max;
  const char* const* names;  // names[i] is value min_name + i
  int min_name;
};

constexpr const char* kMonthNames[] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                       "JUL", "AUG", "SEP", "OCT", "NOV", "DEC", nullptr};
constexpr const char* kDayNames[] = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT", nullptr};

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool parse_number(std::string_view s, int& out) {
  if (s.empty() || s.size() > 6) return false;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

// A value of the field: a number, or a name (mapped to its number in this form).
bool parse_value(std::string_view s, const Field& f, int& out, std::string& error) {
  if (parse_number(s, out)) {
    if (out < f.min || out > f.max) {
      error = "the " + std::string(f.what) + " " + std::string(s) + " is out of range " + std::to_string(f.min) + "-" +
              std::to_string(f.max);
      return false;
    }
    return true;
  }
  if (f.names) {
    std::string u = upper(s);
    for (int i = 0; f.names[i]; ++i)
      if (u == f.names[i]) {
        out = f.min_name + i;
        return true;
      }
  }
  error = "`" + std::string(s) + "` is not a valid " + std::string(f.what);
  return false;
}

// One field (`*`, `?`, lists of values, ranges and steps): `set[v - min]` for each value.
bool parse_field(std::string_view text, const Field& f, std::vector<bool>& set, bool& star, std::string& error) {
  set.assign(size_t(f.max - f.min + 1), false);
  star = false;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string_view part = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (part.empty()) {
      error = "empty list item in the " + std::string(f.what) + " field";
      return false;
    }
    int step = 1;
    bool has_step = false;
    if (size_t slash = part.find('/'); slash != std::string_view::npos) {
      if (!parse_number(part.substr(slash + 1), step) || step < 1) {
        error = "the step `" + std::string(part.substr(slash + 1)) + "` in the " + std::string(f.what) +
                " field must be a positive number";
        return false;
      }
      has_step = true;
      part = part.substr(0, slash);
    }
    int lo = f.min, hi = f.max;
    if (part == "*" || part == "?") {
      if (!has_step && comma == std::string_view::npos && start == 0) star = true;
    } else if (size_t dash = part.find('-'); dash != std::string_view::npos && dash > 0) {
      if (!parse_value(part.substr(0, dash), f, lo, error) || !parse_value(part.substr(dash + 1), f, hi, error))
        return false;
      if (lo > hi) {
        error = "the range `" + std::string(part) + "` in the " + std::string(f.what) + " field is backwards";
        return false;
      }
    } else {
      if (!parse_value(part, f, lo, error)) return false;
      hi = has_step ? f.max : lo;  // `a/n`: from a to the end, every n
    }
    for (int v = lo; v <= hi; v += step) set[size_t(v - f.min)] = true;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return true;
}

// The set as bits, bit i standing for value min + i, shifted left by `shift`.
uint64_t bits_of(const std::vector<bool>& set, int shift) {
  uint64_t b = 0;
  for (size_t i = 0; i < set.size(); ++i)
    if (set[i]) b |= uint64_t(1) << (i + size_t(shift));
  return b;
}

std::vector<std::string_view> split_ws(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace

CronParse parse_cron(std::string_view expr) {
  CronParse r;
  std::vector<std::string_view> fields = split_ws(expr);
  if (fields.size() == 1 && !fields[0].empty() && fields[0][0] == '@') {
    std::string alias = upper(fields[0]);
    const char* six = alias == "@YEARLY" || alias == "@ANNUALLY" ? "0 0 0 1 1 *"
                      : alias == "@MONTHLY"                      ? "0 0 0 1 * *"
                      : alias == "@WEEKLY"                       ? "0 0 0 * * SUN"
                      : alias == "@DAILY" || alias == "@MIDNIGHT" ? "0 0 0 * * *"
                      : alias == "@HOURLY"                       ? "0 0 * * * *"
                                                                 : nullptr;
    if (!six) {
      r.error = "unknown alias `" + std::string(fields[0]) +
                "`; the aliases are @yearly, @annually, @monthly, @weekly, @daily, @midnight and @hourly";
      return r;
    }
    return parse_cron(six);
  }
  if (fields.size() < 5 || fields.size() > 7) {
    r.error = "a cron expression has 5 fields (min hour day month weekday), 6 (seconds first) or 7 (a year last), "
              "not " + std::to_string(fields.size());
    return r;
  }
  bool unix_form = fields.size() == 5;
  std::string_view sec = unix_form ? std::string_view("0") : fields[0];
  size_t o = unix_form ? 0 : 1;
  static const Field kSec{"second", 0, 59, nullptr, 0}, kMin{"minute", 0, 59, nullptr, 0},
      kHour{"hour", 0, 23, nullptr, 0}, kDom{"day of month", 1, 31, nullptr, 0},
      kMonth{"month", 1, 12, kMonthNames, 1}, kDowUnix{"day of week", 0, 7, kDayNames, 0},
      kDowCrate{"day of week", 1, 7, kDayNames, 1}, kYear{"year", CronSchedule::kMinYear, CronSchedule::kMaxYear, nullptr, 0};
  CronSchedule s;
  std::vector<bool> set;
  bool star = false;
  if (!parse_field(sec, kSec, set, star, r.error)) return r;
  s.seconds = bits_of(set, 0);
  if (!parse_field(fields[o], kMin, set, star, r.error)) return r;
  s.minutes = bits_of(set, 0);
  if (!parse_field(fields[o + 1], kHour, set, s.all_hours, r.error)) return r;
  s.hours = uint32_t(bits_of(set, 0));
  if (!parse_field(fields[o + 2], kDom, set, star, r.error)) return r;
  s.days = uint32_t(bits_of(set, 1));
  if (!parse_field(fields[o + 3], kMonth, set, star, r.error)) return r;
  s.months = uint16_t(bits_of(set, 1));
  if (!parse_field(fields[o + 4], unix_form ? kDowUnix : kDowCrate, set, star, r.error)) return r;
  uint64_t dow = bits_of(set, 0);
  // Unix form: bit i is weekday i (0..7, 7 = Sunday again). Crate form: bit i is crate
  // weekday i + 1 (1 = Sunday), which is Unix weekday i.
  s.weekdays = unix_form ? uint8_t((dow & 0x7f) | ((dow >> 7) & 1)) : uint8_t(dow & 0x7f);
  if (fields.size() == 7) {
    if (!parse_field(fields[6], kYear, set, star, r.error)) return r;
    if (!star) s.years = set;
  }
  r.schedule = std::move(s);
  return r;
}

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
  return days_from_civil(c.year, unsigned(c.month), unsigned(c.day)) * kDay + c.hour * 3600 + c.minute * 60 + c.second;
}

int days_in_month(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

int weekday_of(int y, int m, int d) {
  int64_t days = days_from_civil(y, unsigned(m), unsigned(d));  // 1970-01-01 was a Thursday (4)
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
