// The calendar arithmetic and text forms of Date, DateTime and Uuid (fitz/date.h). Pure: no
// clock, no allocation beyond the output, so the unit tests pin every edge (leap days, month
// ends, offsets) without a time zone in play.
#include <cstring>

#include "fitz/date.h"

namespace fitz::date {

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int days_in_month(int64_t y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m - 1];
}

bool valid_ymd(int64_t y, int64_t m, int64_t d) {
  return y >= kMinYear && y <= kMaxYear && m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, int(m));
}

// Howard Hinnant's days_from_civil / civil_from_days (exact for the proleptic Gregorian calendar).
int64_t days_from_civil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = floor_div(y, 400);
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

Civil civil_from_days(int64_t z) {
  z += 719468;
  int64_t era = floor_div(z, 146097);
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = yoe + era * 400;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  int d = int(doy - (153 * mp + 2) / 5 + 1);
  int m = int(mp < 10 ? mp + 3 : mp - 9);
  return Civil{y + (m <= 2), m, d};
}

int iso_weekday(int64_t days) {
  // 1970-01-01 was a Thursday (4).
  int64_t w = (days + 3) % 7;
  if (w < 0) w += 7;
  return int(w) + 1;
}

bool in_range(Date d) {
  Civil c = civil_from_days(d.days);
  return c.year >= kMinYear && c.year <= kMaxYear;
}

bool in_range(DateTime t) { return in_range(Date{floor_div(t.micros, kMicrosPerDay)}); }

bool add_months(Date d, int64_t months, Date* out) {
  // Bound first so the month count cannot overflow.
  if (months > 12 * kMaxYear || months < -12 * kMaxYear) return false;
  Civil c = civil_from_days(d.days);
  int64_t index = c.year * 12 + (c.month - 1) + months;
  int64_t y = floor_div(index, 12);
  int m = int(index - y * 12) + 1;
  if (y < kMinYear || y > kMaxYear) return false;
  int day = c.day < days_in_month(y, m) ? c.day : days_in_month(y, m);
  out->days = days_from_civil(y, m, day);
  return true;
}

bool add_months(DateTime t, int64_t months, DateTime* out) {
  int64_t day = floor_div(t.micros, kMicrosPerDay);
  int64_t within = t.micros - day * kMicrosPerDay;
  Date d;
  if (!add_months(Date{day}, months, &d)) return false;
  out->micros = d.days * kMicrosPerDay + within;
  return true;
}

namespace {

bool digits(std::string_view s, size_t at, size_t n, int64_t* out) {
  if (at + n > s.size()) return false;
  int64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = s[at + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

bool parse_ymd(std::string_view s, int64_t* days) {
  int64_t y, m, d;
  if (s.size() < 10 || !digits(s, 0, 4, &y) || s[4] != '-' || !digits(s, 5, 2, &m) || s[7] != '-' ||
      !digits(s, 8, 2, &d))
    return false;
  if (!valid_ymd(y, m, d)) return false;
  *days = days_from_civil(y, int(m), int(d));
  return true;
}

void put2(Buf& b, int64_t v) {
  b.push(char('0' + v / 10 % 10));
  b.push(char('0' + v % 10));
}
void put4(Buf& b, int64_t v) {
  put2(b, v / 100);
  put2(b, v % 100);
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool parse_date(std::string_view s, Date* out) {
  int64_t days;
  if (s.size() != 10 || !parse_ymd(s, &days)) return false;
  out->days = days;
  return true;
}

bool parse_datetime(std::string_view s, DateTime* out) {
  int64_t days, hh, mm, ss;
  if (s.size() < 19 || !parse_ymd(s, &days)) return false;
  if (s[10] != 'T' && s[10] != 't' && s[10] != ' ') return false;
  if (!digits(s, 11, 2, &hh) || s[13] != ':' || !digits(s, 14, 2, &mm) || s[16] != ':' || !digits(s, 17, 2, &ss))
    return false;
  if (hh > 23 || mm > 59 || ss > 60) return false;
  if (ss == 60) ss = 59;  // a leap second reads as the second before it
  size_t i = 19;
  int64_t micros = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    size_t start = i;
    int64_t scale = 100000;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      micros += (s[i] - '0') * scale;  // digits past the sixth are dropped
      scale /= 10;
      ++i;
    }
    if (i == start) return false;
  }
  if (i >= s.size()) return false;  // RFC 3339 requires an offset
  int64_t offset = 0;
  if (s[i] == 'Z' || s[i] == 'z') {
    ++i;
  } else if (s[i] == '+' || s[i] == '-') {
    int sign = s[i] == '-' ? -1 : 1;
    int64_t oh = 0, om = 0;
    if (!digits(s, i + 1, 2, &oh)) return false;
    i += 3;
    if (i < s.size() && s[i] == ':') {
      if (!digits(s, i + 1, 2, &om)) return false;
      i += 3;
    } else if (i + 2 <= s.size() && digits(s, i, 2, &om)) {
      i += 2;
    }
    if (oh > 23 || om > 59) return false;
    offset = sign * (oh * 3600 + om * 60);
  } else {
    return false;
  }
  if (i != s.size()) return false;
  out->micros = (days * 86400 + hh * 3600 + mm * 60 + ss - offset) * 1000000 + micros;
  return true;
}

bool parse_uuid(std::string_view s, Uuid* out) {
  if (s.size() == 45 && (s.substr(0, 9) == "urn:uuid:" || s.substr(0, 9) == "URN:UUID:")) s.remove_prefix(9);
  if (s.size() == 38 && s.front() == '{' && s.back() == '}') s = s.substr(1, 36);
  Uuid u;
  size_t n = 0;
  if (s.size() == 36) {
    for (size_t i = 0; i < 36; ++i) {
      bool dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash != (s[i] == '-')) return false;
    }
  } else if (s.size() != 32) {
    return false;
  }
  int hi = -1;
  for (char c : s) {
    if (c == '-') continue;
    int v = hex_value(c);
    if (v < 0) return false;
    if (hi < 0) {
      hi = v;
    } else {
      u.b[n++] = uint8_t(hi << 4 | v);
      hi = -1;
    }
  }
  if (n != 16) return false;
  *out = u;
  return true;
}

void write_date(Buf& b, Date d) {
  Civil c = civil_from_days(d.days);
  put4(b, c.year);
  b.push('-');
  put2(b, c.month);
  b.push('-');
  put2(b, c.day);
}

void write_datetime(Buf& b, DateTime t) {
  int64_t day = floor_div(t.micros, kMicrosPerDay);
  int64_t secs = floor_div(t.micros - day * kMicrosPerDay, 1000000);
  write_date(b, Date{day});
  b.push('T');
  put2(b, secs / 3600);
  b.push(':');
  put2(b, secs / 60 % 60);
  b.push(':');
  put2(b, secs % 60);
  b.push('Z');
}

void write_uuid(Buf& b, const Uuid& u) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) b.push('-');
    b.push(kHex[u.b[i] >> 4]);
    b.push(kHex[u.b[i] & 15]);
  }
}

Str format(DateTime t, std::string_view fmt) {
  static constexpr const char* kDays[] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
  static constexpr const char* kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                                            "July",    "August",   "September", "October", "November", "December"};
  int64_t day = floor_div(t.micros, kMicrosPerDay);
  int64_t secs = floor_div(t.micros - day * kMicrosPerDay, 1000000);
  Civil c = civil_from_days(day);
  int wd = iso_weekday(day);
  Buf b;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%' || i + 1 >= fmt.size()) {
      b.push(fmt[i]);
      continue;
    }
    char k = fmt[++i];
    switch (k) {
      case 'Y': put4(b, c.year); break;
      case 'y': put2(b, c.year % 100); break;
      case 'm': put2(b, c.month); break;
      case 'd': put2(b, c.day); break;
      case 'e':
        b.push(c.day < 10 ? ' ' : char('0' + c.day / 10));
        b.push(char('0' + c.day % 10));
        break;
      case 'H': put2(b, secs / 3600); break;
      case 'I': put2(b, (secs / 3600 + 11) % 12 + 1); break;
      case 'p': b.append_cstr(secs / 3600 < 12 ? "AM" : "PM"); break;
      case 'M': put2(b, secs / 60 % 60); break;
      case 'S': put2(b, secs % 60); break;
      case 'A': b.append_cstr(kDays[wd - 1]); break;
      case 'a': b.append(kDays[wd - 1], 3); break;
      case 'B': b.append_cstr(kMonths[c.month - 1]); break;
      case 'b': b.append(kMonths[c.month - 1], 3); break;
      case 'j': {
        int64_t doy = day - days_from_civil(c.year, 1, 1) + 1;
        b.push(char('0' + doy / 100));
        put2(b, doy % 100);
        break;
      }
      case 'u': b.push(char('0' + wd)); break;
      case 'F':
        write_date(b, Date{day});
        break;
      case 'T':
        put2(b, secs / 3600);
        b.push(':');
        put2(b, secs / 60 % 60);
        b.push(':');
        put2(b, secs % 60);
        break;
      case 'Z': b.append_cstr("UTC"); break;
      case 'z': b.append_cstr("+0000"); break;
      case '%': b.push('%'); break;
      default:  // unknown: copied through rather than failing at run time
        b.push('%');
        b.push(k);
        break;
    }
  }
  return b.take();
}

Str with_offset(DateTime t, int64_t offset_seconds) {
  DateTime local{t.micros + offset_seconds * 1000000};
  Buf b;
  write_datetime(b, local);
  Str s = b.take();
  Buf o;
  o.append(s.data(), s.size() - 1);  // without the Z
  int64_t a = offset_seconds < 0 ? -offset_seconds : offset_seconds;
  o.push(offset_seconds < 0 ? '-' : '+');
  put2(o, a / 3600);
  o.push(':');
  put2(o, a / 60 % 60);
  return o.take();
}

}  // namespace fitz::date
