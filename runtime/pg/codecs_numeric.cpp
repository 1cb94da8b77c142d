// The numeric codec. Values stay decimal text in C++; the binary format is base-10000 digits
// with a weight (power of 10000 of the first digit), a sign word and a display scale.
#include <cstring>
#include <vector>

#include "pg/codecs.h"
#include "pg/codecs_internal.h"
#include "pg/wire.h"

namespace fitz::pg {
using namespace codec_detail;

namespace {

constexpr uint16_t kPositive = 0x0000;
constexpr uint16_t kNegative = 0x4000;
constexpr uint16_t kNaN = 0xC000;
constexpr uint16_t kPosInfinity = 0xD000;
constexpr uint16_t kNegInfinity = 0xF000;
constexpr int kMaxDscale = 0x3FFF;
constexpr int kMaxExponent = 1000;

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

int64_t floor_div4(int64_t e) { return e >= 0 ? e / 4 : -((-e + 3) / 4); }

void append_group(std::string& out, int digit, bool pad) {
  char buf[4] = {static_cast<char>('0' + digit / 1000), static_cast<char>('0' + digit / 100 % 10),
                 static_cast<char>('0' + digit / 10 % 10), static_cast<char>('0' + digit % 10)};
  if (pad) {
    out.append(buf, 4);
    return;
  }
  int skip = 0;
  while (skip < 3 && buf[skip] == '0') ++skip;
  out.append(buf + skip, 4 - skip);
}

}  // namespace

bool Codec<Numeric>::accepts(Oid type) { return type == oid::kNumeric; }

Status Codec<Numeric>::encode_text(std::string& out, const Numeric& v) {
  out.append(v.text);
  return {};
}

Result<Numeric> Codec<Numeric>::decode_text(std::string_view t) {
  if (t.empty()) return text_error("numeric", t);
  return Numeric{std::string(t)};
}

Status Codec<Numeric>::encode_binary(std::string& out, const Numeric& v) {
  std::string_view s = v.text;
  auto special = [&](uint16_t sign) {
    wire::put_i16(out, 0);
    wire::put_i16(out, 0);
    wire::put_u16(out, sign);
    wire::put_i16(out, 0);
    return Status{};
  };
  if (iequals(s, "nan")) return special(kNaN);
  for (std::string_view inf : {"infinity", "+infinity", "inf", "+inf"})
    if (iequals(s, inf)) return special(kPosInfinity);
  for (std::string_view inf : {"-infinity", "-inf"})
    if (iequals(s, inf)) return special(kNegInfinity);

  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  std::string digits;  // all mantissa digits, integer part first
  int64_t int_len = 0, frac_len = 0;
  bool seen_point = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
      (seen_point ? frac_len : int_len)++;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (digits.empty()) return text_error("numeric", s);
  int64_t exponent = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    auto exp = parse_int<int32_t>(s.substr(i + 1 + (i + 1 < s.size() && s[i + 1] == '+')), "numeric exponent");
    if (!exp) return text_error("numeric", s);
    if (*exp > kMaxExponent || *exp < -kMaxExponent)
      return Error::make(ErrorKind::Encode, sqlstate::kNumericOutOfRange, "numeric exponent out of range");
    exponent = *exp;
    i = s.size();
  }
  if (i != s.size()) return text_error("numeric", s);

  int64_t dscale = frac_len - exponent;
  if (dscale < 0) dscale = 0;
  if (dscale > kMaxDscale)
    return Error::make(ErrorKind::Encode, sqlstate::kNumericOutOfRange, "numeric scale out of range");

  // Decimal exponent of the first digit is point - 1, where point counts integer digits.
  int64_t point = int_len + exponent;
  std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) {  // zero
    wire::put_i16(out, 0);
    wire::put_i16(out, 0);
    wire::put_u16(out, kPositive);
    wire::put_i16(out, static_cast<int16_t>(dscale));
    return {};
  }
  std::size_t last = digits.find_last_not_of('0');
  std::string_view sig = std::string_view(digits).substr(first, last - first + 1);
  point -= static_cast<int64_t>(first);
  int64_t g_max = floor_div4(point - 1);
  int64_t g_min = floor_div4(point - static_cast<int64_t>(sig.size()));
  if (g_max > INT16_MAX || g_min < INT16_MIN || g_max - g_min + 1 > 0xFFFF)
    return Error::make(ErrorKind::Encode, sqlstate::kNumericOutOfRange, "numeric value out of range");
  std::vector<int> groups(static_cast<std::size_t>(g_max - g_min + 1), 0);
  static constexpr int kPow10[4] = {1, 10, 100, 1000};
  for (std::size_t k = 0; k < sig.size(); ++k) {
    int64_t e = point - 1 - static_cast<int64_t>(k);
    int64_t g = floor_div4(e);
    groups[static_cast<std::size_t>(g_max - g)] += (sig[k] - '0') * kPow10[e - 4 * g];
  }
  wire::put_i16(out, static_cast<int16_t>(groups.size()));
  wire::put_i16(out, static_cast<int16_t>(g_max));
  wire::put_u16(out, negative ? kNegative : kPositive);
  wire::put_i16(out, static_cast<int16_t>(dscale));
  for (int g : groups) wire::put_i16(out, static_cast<int16_t>(g));
  return {};
}

Result<Numeric> Codec<Numeric>::decode_binary(std::string_view b) {
  wire::Reader r(b);
  int16_t ndigits = 0, weight = 0, dscale = 0;
  uint16_t sign = 0;
  if (!r.i16(ndigits) || !r.i16(weight) || !r.u16(sign) || !r.i16(dscale))
    return binary_error("numeric", "truncated header");
  if (sign == kNaN) return Numeric{"NaN"};
  if (sign == kPosInfinity) return Numeric{"Infinity"};
  if (sign == kNegInfinity) return Numeric{"-Infinity"};
  if (sign != kPositive && sign != kNegative) return binary_error("numeric", "invalid sign");
  if (ndigits < 0 || dscale < 0 || dscale > kMaxDscale) return binary_error("numeric", "invalid header");
  if (r.remaining() != static_cast<std::size_t>(ndigits) * 2) return binary_error("numeric", "digit count does not match length");
  std::vector<int> digits(static_cast<std::size_t>(ndigits));
  for (auto& d : digits) {
    int16_t v = 0;
    (void)r.i16(v);
    if (v < 0 || v > 9999) return binary_error("numeric", "digit out of range");
    d = v;
  }
  auto digit_at = [&](int64_t j) { return j >= 0 && j < ndigits ? digits[static_cast<std::size_t>(j)] : 0; };

  std::string out;
  if (sign == kNegative) out.push_back('-');
  if (weight < 0) {
    out.push_back('0');
  } else {
    for (int64_t j = 0; j <= weight; ++j) append_group(out, digit_at(j), j > 0);
  }
  if (dscale > 0) {
    out.push_back('.');
    std::size_t start = out.size();
    for (int64_t m = 1; static_cast<int64_t>(out.size() - start) < dscale; ++m)
      append_group(out, digit_at(weight + m), true);
    out.resize(start + static_cast<std::size_t>(dscale));
  }
  return Numeric{std::move(out)};
}

}  // namespace fitz::pg
