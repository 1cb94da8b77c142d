// Time zones from the system tz database: a TZif reader (RFC 8536, version 2+ 64-bit data)
// and the POSIX TZ rule of its footer for instants after the last listed transition.
// libstdc++ 12 has no std::chrono::tzdb, and Debian's tzdata is what the system uses anyway.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "fitz/date.h"
#include "fitz/time_zone.h"

namespace fitz {

// `std offset [dst [offset] [,start[/time],end[/time]]]`
struct TimeZone::PosixRule {
  int32_t std_offset = 0;  // seconds east of UTC
  int32_t dst_offset = 0;
  bool has_dst = false;
  struct Date {
    char kind = 'M';  // 'J' (1..365, no Feb 29), 'N' (0..365), 'M' (month.week.day)
    int a = 0, b = 0, c = 0;
    int32_t time = 7200;  // local time of day of the change, may be negative or past 24h
  } start, end;
};

namespace {


// The day (days since the epoch) a rule date falls on in year y.
int64_t rule_day(const TimeZone::PosixRule::Date& d, int y) {
  int64_t jan1 = date::days_from_civil(y, 1, 1);
  if (d.kind == 'J') return jan1 + d.a - 1 + (date::is_leap(y) && d.a >= 60 ? 1 : 0);
  if (d.kind == 'N') return jan1 + d.a;
  // Mm.w.d: day d (0 = Sunday) of week w (5 = last) of month m.
  int64_t first = date::days_from_civil(y, d.a, 1);
  int wd_first = int(((first % 7) + 11) % 7);
  int64_t day = first + ((d.c - wd_first) % 7 + 7) % 7 + int64_t(d.b - 1) * 7;
  unsigned m = unsigned(d.a);
  int64_t next_month = m == 12 ? date::days_from_civil(y + 1, 1, 1) : date::days_from_civil(y, m + 1, 1);
  while (day >= next_month) day -= 7;
  return day;
}

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}
  bool done() const { return i_ >= s_.size(); }
  bool eat(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool name() {
    if (eat('<')) {
      size_t close = s_.find('>', i_);
      if (close == std::string_view::npos) return false;
      i_ = close + 1;
      return true;
    }
    size_t b = i_;
    while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) ++i_;
    return i_ - b >= 3;
  }
  bool number(int& out) {
    size_t b = i_;
    int v = 0;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_])) && i_ - b < 6) v = v * 10 + (s_[i_++] - '0');
    out = v;
    return i_ > b;
  }
  // [+-]hh[:mm[:ss]] in seconds
  bool hms(int32_t& out) {
    int sign = 1;
    if (eat('-')) sign = -1;
    else eat('+');
    int h = 0, m = 0, sec = 0;
    if (!number(h)) return false;
    if (eat(':')) {
      if (!number(m)) return false;
      if (eat(':') && !number(sec)) return false;
    }
    out = sign * (h * 3600 + m * 60 + sec);
    return true;
  }
  bool date(TimeZone::PosixRule::Date& d) {
    if (eat('M')) {
      d.kind = 'M';
      if (!number(d.a) || !eat('.') || !number(d.b) || !eat('.') || !number(d.c)) return false;
      if (d.a < 1 || d.a > 12 || d.b < 1 || d.b > 5 || d.c > 6) return false;
    } else if (eat('J')) {
      d.kind = 'J';
      if (!number(d.a) || d.a < 1 || d.a > 365) return false;
    } else {
      d.kind = 'N';
      if (!number(d.a) || d.a > 365) return false;
    }
    d.time = 7200;
    if (eat('/') && !hms(d.time)) return false;
    return true;
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

std::shared_ptr<TimeZone::PosixRule> parse_posix(std::string_view text, std::string& error) {
  auto r = std::make_shared<TimeZone::PosixRule>();
  Parser p(text);
  int32_t off = 0;
  if (!p.name() || !p.hms(off)) {
    error = "bad POSIX TZ rule `" + std::string(text) + "`";
    return nullptr;
  }
  r->std_offset = -off;  // POSIX offsets count west of UTC
  if (p.done()) return r;
  if (!p.name()) {
    error = "bad POSIX TZ rule `" + std::string(text) + "`";
    return nullptr;
  }
  r->has_dst = true;
  r->dst_offset = r->std_offset + 3600;
  Parser q = p;
  int32_t dst = 0;
  if (q.hms(dst)) {
    p = q;
    r->dst_offset = -dst;
  }
  // Without dates, the US rules are the documented default.
  r->start = {'M', 3, 2, 0, 7200};
  r->end = {'M', 11, 1, 0, 7200};
  if (p.eat(',')) {
    if (!p.date(r->start) || !p.eat(',') || !p.date(r->end) || !p.done()) {
      error = "bad POSIX TZ rule `" + std::string(text) + "`";
      return nullptr;
    }
  }
  return r;
}

template <class T> T read_be(std::string_view d, size_t at) {
  using U = std::make_unsigned_t<T>;
  U v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v = U(v << 8) | U(static_cast<unsigned char>(d[at + i]));
  return static_cast<T>(v);
}

bool valid_zone_name(std::string_view n) {
  if (n.empty() || n.size() > 100 || n[0] == '/' || n.find("..") != std::string_view::npos) return false;
  for (char c : n)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '/' && c != '_' && c != '-' && c != '+') return false;
  return true;
}

}  // namespace

std::shared_ptr<const TimeZone> TimeZone::utc() {
  auto z = std::make_shared<TimeZone>();
  z->name_ = "UTC";
  return z;
}

std::shared_ptr<const TimeZone> TimeZone::from_posix(std::string_view name, std::string_view rule, std::string& error) {
  auto r = parse_posix(rule, error);
  if (!r) return nullptr;
  auto z = std::make_shared<TimeZone>();
  z->name_ = std::string(name);
  z->initial_offset_ = r->std_offset;
  if (r->has_dst)
    z->rule_ = r;
  return z;
}

std::shared_ptr<const TimeZone> TimeZone::from_tzif(std::string_view name, std::string_view d, std::string& error) {
  auto bad = [&](const char* why) {
    error = "time zone `" + std::string(name) + "`: " + why;
    return nullptr;
  };
  auto header = [&](size_t at, size_t counts[6]) {
    for (int i = 0; i < 6; ++i) counts[i] = read_be<uint32_t>(d, at + 20 + size_t(i) * 4);
  };
  if (d.size() < 44 || d.substr(0, 4) != "TZif") return bad("not a TZif file");
  size_t c[6];  // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
  header(0, c);
  size_t v1 = c[3] * 5 + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0];
  if (d[4] < '2') return bad("a version 1 TZif file (no 64-bit data)");
  size_t at = 44 + v1;
  if (d.size() < at + 44 || d.substr(at, 4) != "TZif") return bad("truncated TZif file");
  header(at, c);
  at += 44;
  size_t timecnt = c[3], typecnt = c[4];
  size_t need = timecnt * 9 + typecnt * 6 + c[5] + c[2] * 12 + c[1] + c[0];
  if (typecnt == 0 || d.size() < at + need) return bad("truncated TZif file");
  std::vector<int32_t> type_offsets(typecnt);
  size_t types_at = at + timecnt * 9;
  for (size_t i = 0; i < typecnt; ++i) type_offsets[i] = read_be<int32_t>(d, types_at + i * 6);
  auto z = std::make_shared<TimeZone>();
  z->name_ = std::string(name);
  z->initial_offset_ = type_offsets[0];
  for (size_t i = 0; i < timecnt; ++i) {
    int64_t t = read_be<int64_t>(d, at + i * 8);
    size_t ty = static_cast<unsigned char>(d[at + timecnt * 8 + i]);
    if (ty >= typecnt) return bad("a transition names a missing type");
    z->transitions_.push_back({t, type_offsets[ty]});
  }
  size_t footer = at + need;
  if (footer < d.size() && d[footer] == '\n') {
    size_t end = d.find('\n', footer + 1);
    if (end != std::string_view::npos && end > footer + 1) {
      std::string_view rule = d.substr(footer + 1, end - footer - 1);
      std::string err;
      auto r = parse_posix(rule, err);
      if (!r) return bad("bad POSIX rule in the footer");
      if (r->has_dst)
        z->rule_ = r;
      else if (z->transitions_.empty())
        z->initial_offset_ = r->std_offset;
    }
  }
  return z;
}

std::shared_ptr<const TimeZone> TimeZone::load(std::string_view name, std::string& error) {
  if (name.empty() || name == "UTC" || name == "Etc/UTC" || name == "Z") return utc();
  if (!valid_zone_name(name)) {
    error = "`" + std::string(name) + "` is not a time zone name";
    return nullptr;
  }
  std::ifstream in("/usr/share/zoneinfo/" + std::string(name), std::ios::binary);
  if (!in) {
    error = "unknown time zone `" + std::string(name) + "` (not in the system tz database)";
    return nullptr;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string data = ss.str();
  return from_tzif(name, data, error);
}

void TimeZone::rule_transitions(int y, std::vector<Transition>& out) const {
  const PosixRule& r = *rule_;
  int64_t start = rule_day(r.start, y) * 86400 + r.start.time - r.std_offset;
  int64_t end = rule_day(r.end, y) * 86400 + r.end.time - r.dst_offset;
  out.push_back({start, r.dst_offset});
  out.push_back({end, r.std_offset});
}

namespace {
int year_of(int64_t t) {
  return int(date::civil_from_days(date::floor_div(t, 86400)).year);
}
}  // namespace

int32_t TimeZone::offset_at(int64_t t) const {
  if (rule_ && (transitions_.empty() || t >= transitions_.back().at)) {
    std::vector<Transition> ts;
    int y = year_of(t);
    for (int k = y - 1; k <= y + 1; ++k) rule_transitions(k, ts);
    std::sort(ts.begin(), ts.end(), [](const Transition& a, const Transition& b) { return a.at < b.at; });
    int32_t off = transitions_.empty() ? initial_offset_ : transitions_.back().offset;
    for (const Transition& tr : ts)
      if (tr.at <= t && (transitions_.empty() || tr.at > transitions_.back().at)) off = tr.offset;
    return off;
  }
  auto it = std::upper_bound(transitions_.begin(), transitions_.end(), t,
                             [](int64_t v, const Transition& tr) { return v < tr.at; });
  if (it == transitions_.begin()) return initial_offset_;
  return std::prev(it)->offset;
}

std::optional<TimeZone::Transition> TimeZone::next_transition(int64_t t) const {
  auto it = std::upper_bound(transitions_.begin(), transitions_.end(), t,
                             [](int64_t v, const Transition& tr) { return v < tr.at; });
  int32_t current = offset_at(t);
  for (; it != transitions_.end(); ++it)
    if (it->offset != current) return *it;
  if (!rule_) return std::nullopt;
  std::vector<Transition> ts;
  int y = year_of(t);
  for (int k = y - 1; k <= y + 2; ++k) rule_transitions(k, ts);
  std::sort(ts.begin(), ts.end(), [](const Transition& a, const Transition& b) { return a.at < b.at; });
  int64_t floor = transitions_.empty() ? INT64_MIN : transitions_.back().at;
  for (const Transition& tr : ts)
    if (tr.at > t && tr.at > floor && tr.offset != current) return tr;
  return std::nullopt;
}

}  // namespace fitz
