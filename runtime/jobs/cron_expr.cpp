// Cron expressions: parsing the 5/6/7-field forms and aliases into bit sets. Pure (no I/O, no
// clock, no runtime types): the job runner and the checker share it.
#include <cctype>
#include <cstring>

#include "fitz/cron_expr.h"

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


}  // namespace fitz::jobs
