// Codecs for date, timestamp and timestamptz. Binary values count days / microseconds from
// 2000-01-01; text is ISO 8601 as Postgres writes it with DateStyle ISO ("2026-06-17 12:34:56.12+00",
// " BC" suffix for years before 1, "infinity"/"-infinity").
#include <charconv>

#include "pg/codecs.h"
#include "pg/codecs_internal.h"
#include "pg/wire.h"

namespace fitz::pg {
using namespace codec_detail;

namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
// The range Postgres accepts for timestamps: 4714-11-24 BC up to (not including) 294277-01-01.
constexpr int64_t kMinTimestamp = -211'813'488'000'000'000;
constexpr int64_t kEndTimestamp = 9'223'371'331'200'000'000;

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

unsigned days_in_month(int64_t y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m - 1];
}

void append_padded(std::string& out, int64_t v, int width) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  for (int n = static_cast<int>(end - buf); n < width; ++n) out.push_back('0');
  out.append(buf, end);
}

// "YYYY-MM-DD"; returns whether the year is BC (the suffix goes after everything else).
bool append_date(std::string& out, const CivilDate& d) {
  bool bc = d.year <= 0;
  append_padded(out, bc ? 1 - d.year : d.year, 4);
  out.push_back('-');
  append_padded(out, d.month, 2);
  out.push_back('-');
  append_padded(out, d.day, 2);
  return bc;
}

bool append_timestamp(std::string& out, int64_t micros) {
  int64_t days = floor_div(micros, kMicrosPerDay);
  int64_t rem = micros - days * kMicrosPerDay;
  bool bc = append_date(out, civil_from_days(days));
  int64_t seconds = rem / kMicrosPerSecond;
  int64_t fraction = rem % kMicrosPerSecond;
  out.push_back(' ');
  append_padded(out, seconds / 3600, 2);
  out.push_back(':');
  append_padded(out, seconds / 60 % 60, 2);
  out.push_back(':');
  append_padded(out, seconds % 60, 2);
  if (fraction != 0) {
    std::string digits;
    append_padded(digits, fraction, 6);
    while (digits.back() == '0') digits.pop_back();
    out.push_back('.');
    out += digits;
  }
  return bc;
}

// A small cursor over the text being parsed.
struct Scanner {
  std::string_view s;
  std::size_t pos = 0;
  bool eat(char c) {
    if (pos < s.size() && s[pos] == c) { ++pos; return true; }
    return false;
  }
  bool peek_digit() const { return pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; }
  // Reads min..max decimal digits.
  bool number(int64_t& v, int min, int max) {
    v = 0;
    int n = 0;
    while (n < max && peek_digit()) {
      v = v * 10 + (s[pos++] - '0');
      ++n;
    }
    return n >= min;
  }
  bool at_end() const { return pos == s.size(); }
};

bool eat_bc(Scanner& sc) {
  std::string_view rest = sc.s.substr(sc.pos);
  if (rest == " BC" || rest == " bc") {
    sc.pos = sc.s.size();
    return true;
  }
  return false;
}

bool parse_date(Scanner& sc, CivilDate& d) {
  int64_t y = 0, m = 0, day = 0;
  if (!sc.number(y, 1, 7) || !sc.eat('-') || !sc.number(m, 1, 2) || !sc.eat('-') || !sc.number(day, 1, 2))
    return false;
  d.year = y;
  d.month = static_cast<unsigned>(m);
  d.day = static_cast<unsigned>(day);
  return true;
}

// Applies " BC" and checks the calendar fields.
bool finish_date(CivilDate& d, bool bc) {
  if (bc) {
    if (d.year < 1) return false;
    d.year = 1 - d.year;
  }
  return d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= days_in_month(d.year, d.month);
}

struct ParsedTimestamp {
  int64_t micros = 0;  // local wall-clock micros since 2000-01-01
  int64_t offset_seconds = 0;
  bool has_offset = false;
};

Result<ParsedTimestamp> parse_timestamp(std::string_view text, std::string_view type) {
  Scanner sc{text};
  CivilDate date;
  if (!parse_date(sc, date)) return text_error(type, text);
  if (!sc.eat(' ') && !sc.eat('T')) return text_error(type, text);
  int64_t h = 0, mi = 0, sec = 0, frac = 0;
  if (!sc.number(h, 1, 2) || !sc.eat(':') || !sc.number(mi, 2, 2)) return text_error(type, text);
  if (sc.eat(':') && !sc.number(sec, 2, 2)) return text_error(type, text);
  if (sc.eat('.')) {
    int digits = 0;
    while (sc.peek_digit()) {
      int d = sc.s[sc.pos++] - '0';
      if (digits < 6) frac = frac * 10 + d;
      else if (digits == 6 && d >= 5) frac += 1;  // round half up to microseconds
      ++digits;
    }
    if (digits == 0) return text_error(type, text);
    for (int k = digits; k < 6; ++k) frac *= 10;
  }
  if (h > 24 || mi > 59 || sec > 60 || (h == 24 && (mi != 0 || sec != 0 || frac != 0)))
    return text_error(type, text);
  ParsedTimestamp out;
  if (sc.eat('Z') || sc.eat('z')) {
    out.has_offset = true;
  } else if (sc.pos < text.size() && (text[sc.pos] == '+' || text[sc.pos] == '-')) {
    bool negative = text[sc.pos++] == '-';
    int64_t oh = 0, om = 0, os = 0;
    if (!sc.number(oh, 1, 2)) return text_error(type, text);
    bool colon = sc.eat(':');
    if (colon || sc.peek_digit()) {
      if (!sc.number(om, 2, 2)) return text_error(type, text);
      if ((colon ? sc.eat(':') : sc.peek_digit()) && !sc.number(os, 2, 2)) return text_error(type, text);
    }
    if (oh > 15 || om > 59 || os > 59) return text_error(type, text);
    out.has_offset = true;
    out.offset_seconds = (negative ? -1 : 1) * (oh * 3600 + om * 60 + os);
  }
  bool bc = eat_bc(sc);
  if (!sc.at_end() || !finish_date(date, bc)) return text_error(type, text);
  int64_t days = days_from_civil(date);
  int64_t time = ((h * 60 + mi) * 60 + sec) * kMicrosPerSecond + frac;
  int64_t micros = 0;
  if (__builtin_mul_overflow(days, kMicrosPerDay, &micros) || __builtin_add_overflow(micros, time, &micros))
    return Error::make(ErrorKind::Decode, sqlstate::kNumericOutOfRange, std::string(type) + " out of range");
  out.micros = micros;
  return out;
}

Result<int64_t> checked_range(int64_t micros, std::string_view type) {
  if (micros < kMinTimestamp || micros >= kEndTimestamp)
    return Error::make(ErrorKind::Decode, sqlstate::kNumericOutOfRange, std::string(type) + " out of range");
  return micros;
}

}  // namespace

int64_t days_from_civil(const CivilDate& date) {
  int64_t y = date.year - (date.month <= 2 ? 1 : 0);
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t m = date.month;
  int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + date.day - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468 + kUnixEpochDays;
}

CivilDate civil_from_days(int64_t days) {
  int64_t z = days - kUnixEpochDays + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  CivilDate out;
  out.day = static_cast<unsigned>(doy - (153 * mp + 2) / 5 + 1);
  out.month = static_cast<unsigned>(mp < 10 ? mp + 3 : mp - 9);
  out.year = yoe + era * 400 + (out.month <= 2 ? 1 : 0);
  return out;
}

// ---- date ---------------------------------------------------------------------------------

bool Codec<Date>::accepts(Oid type) { return type == oid::kDate; }
Status Codec<Date>::encode_text(std::string& out, const Date& v) {
  if (v.days == Date::kInfinity) { out += "infinity"; return {}; }
  if (v.days == Date::kNegInfinity) { out += "-infinity"; return {}; }
  if (append_date(out, civil_from_days(v.days))) out += " BC";
  return {};
}
Status Codec<Date>::encode_binary(std::string& out, const Date& v) { wire::put_i32(out, v.days); return {}; }
Result<Date> Codec<Date>::decode_text(std::string_view t) {
  if (t == "infinity") return Date{Date::kInfinity};
  if (t == "-infinity") return Date{Date::kNegInfinity};
  Scanner sc{t};
  CivilDate d;
  if (!parse_date(sc, d)) return text_error("date", t);
  bool bc = eat_bc(sc);
  if (!sc.at_end() || !finish_date(d, bc)) return text_error("date", t);
  int64_t days = days_from_civil(d);
  if (days <= INT32_MIN || days >= INT32_MAX)
    return Error::make(ErrorKind::Decode, sqlstate::kNumericOutOfRange, "date out of range");
  return Date{static_cast<int32_t>(days)};
}
Result<Date> Codec<Date>::decode_binary(std::string_view b) {
  if (b.size() != 4) return length_error("date", 4, b.size());
  return Date{static_cast<int32_t>(wire::load_u32(b.data()))};
}

// ---- timestamp ----------------------------------------------------------------------------

bool Codec<Timestamp>::accepts(Oid type) { return type == oid::kTimestamp; }
Status Codec<Timestamp>::encode_text(std::string& out, const Timestamp& v) {
  if (v.micros == Timestamp::kInfinity) { out += "infinity"; return {}; }
  if (v.micros == Timestamp::kNegInfinity) { out += "-infinity"; return {}; }
  if (append_timestamp(out, v.micros)) out += " BC";
  return {};
}
Status Codec<Timestamp>::encode_binary(std::string& out, const Timestamp& v) {
  wire::put_i64(out, v.micros);
  return {};
}
Result<Timestamp> Codec<Timestamp>::decode_text(std::string_view t) {
  if (t == "infinity") return Timestamp{Timestamp::kInfinity};
  if (t == "-infinity") return Timestamp{Timestamp::kNegInfinity};
  auto parsed = parse_timestamp(t, "timestamp");
  if (!parsed) return std::move(parsed).error();
  // Like the server, a zone written on a timestamp without time zone is ignored.
  auto micros = checked_range(parsed->micros, "timestamp");
  if (!micros) return std::move(micros).error();
  return Timestamp{*micros};
}
Result<Timestamp> Codec<Timestamp>::decode_binary(std::string_view b) {
  if (b.size() != 8) return length_error("timestamp", 8, b.size());
  return Timestamp{static_cast<int64_t>(wire::load_u64(b.data()))};
}

// ---- timestamptz --------------------------------------------------------------------------

bool Codec<Timestamptz>::accepts(Oid type) { return type == oid::kTimestamptz; }
Status Codec<Timestamptz>::encode_text(std::string& out, const Timestamptz& v) {
  if (v.micros == Timestamptz::kInfinity) { out += "infinity"; return {}; }
  if (v.micros == Timestamptz::kNegInfinity) { out += "-infinity"; return {}; }
  bool bc = append_timestamp(out, v.micros);
  out += "+00";
  if (bc) out += " BC";
  return {};
}
Status Codec<Timestamptz>::encode_binary(std::string& out, const Timestamptz& v) {
  wire::put_i64(out, v.micros);
  return {};
}
Result<Timestamptz> Codec<Timestamptz>::decode_text(std::string_view t) {
  if (t == "infinity") return Timestamptz{Timestamptz::kInfinity};
  if (t == "-infinity") return Timestamptz{Timestamptz::kNegInfinity};
  auto parsed = parse_timestamp(t, "timestamptz");
  if (!parsed) return std::move(parsed).error();
  // Without a zone the value is taken as UTC (the client has no session time zone).
  int64_t micros = 0;
  if (__builtin_sub_overflow(parsed->micros, parsed->offset_seconds * kMicrosPerSecond, &micros))
    return Error::make(ErrorKind::Decode, sqlstate::kNumericOutOfRange, "timestamptz out of range");
  auto checked = checked_range(micros, "timestamptz");
  if (!checked) return std::move(checked).error();
  return Timestamptz{*checked};
}
Result<Timestamptz> Codec<Timestamptz>::decode_binary(std::string_view b) {
  if (b.size() != 8) return length_error("timestamptz", 8, b.size());
  return Timestamptz{static_cast<int64_t>(wire::load_u64(b.data()))};
}

}  // namespace fitz::pg
