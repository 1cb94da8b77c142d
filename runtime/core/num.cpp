// `num`: numbers for people, in en-US (1,234.5) or es-AR (1.234,5); any other locale falls back
// to en-US. Plain C formatting underneath, never the process locale, so the output does not
// depend on the host.
#include <cmath>
#include <cstdio>
#include <string>

#include "fitz/runtime.h"
#include "any_internal.h"

namespace fitz {

namespace {

using detail::AnyObj;
using detail::ObjKind;

using detail::is;

struct Locale {
  char group;
  char decimal;
  bool space_before_symbol;  // es-AR: "$ 1.250,00", "42,0 %"
};

Locale locale_of(const Str& name) {
  std::string n(name.data(), name.size());
  if (n == "es-AR" || n == "es_AR") return Locale{'.', ',', true};
  return Locale{',', '.', false};
}

// `x` with `digits` decimals (digits < 0: as few as show the value, at most 6), grouped.
std::string grouped(double x, int digits, Locale l) {
  if (!std::isfinite(x)) return std::isnan(x) ? "NaN" : (x < 0 ? "-inf" : "inf");
  char text[512];
  std::snprintf(text, sizeof text, "%.*f", digits < 0 ? 6 : digits, x);
  std::string s(text);
  if (digits < 0 && s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  bool neg = s[0] == '-';
  if (neg) s.erase(0, 1);
  size_t dot = s.find('.');
  std::string ip = s.substr(0, dot), frac = dot == std::string::npos ? "" : s.substr(dot + 1);
  std::string out;
  for (size_t i = 0; i < ip.size(); ++i) {
    if (i && (ip.size() - i) % 3 == 0) out.push_back(l.group);
    out.push_back(ip[i]);
  }
  if (!frac.empty()) out += std::string(1, l.decimal) + frac;
  if (neg && out.find_first_not_of("0.,") != std::string::npos) out.insert(out.begin(), '-');
  return out;
}

std::string symbol_of(const Str& code) {
  std::string c(code.data(), code.size());
  if (c == "ARS" || c == "USD" || c == "MXN" || c == "CAD" || c == "AUD" || c == "CLP" || c == "COP") return "$";
  if (c == "EUR") return "\xE2\x82\xAC";
  if (c == "GBP") return "\xC2\xA3";
  if (c == "JPY") return "\xC2\xA5";
  if (c == "BRL") return "R$";
  return c;
}

double number_arg(const Any& v, SourcePos pos) {
  if (v.is_int()) return double(v.int_value());
  return from_any<double>(v, pos);
}

class NumModule final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<NumModule>(); }
  void type_name(Buf& b) const override { b.lit("NumModule"); }
  void show(Buf& b, bool) const override { b.lit("<num>"); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    if (is(name, "format") && n == 2) {
      Locale l = locale_of(from_any<Str>(args[1], pos));
      return *out = Any(Str::from(grouped(number_arg(args[0], pos), -1, l))), true;
    }
    if (is(name, "percent") && n == 3) {
      // `x` is a fraction: 0.42 is 42 %.
      Locale l = locale_of(from_any<Str>(args[1], pos));
      int64_t digits = from_any<int64_t>(args[2], pos);
      if (digits < 0 || digits > 12) runtime_error(pos, Str::lit("num.percent: digits must be 0..12"));
      std::string s = grouped(number_arg(args[0], pos) * 100, int(digits), l);
      return *out = Any(Str::from(s + (l.space_before_symbol ? " %" : "%"))), true;
    }
    if (is(name, "currency") && n == 3) {
      Locale l = locale_of(from_any<Str>(args[1], pos));
      double x = number_arg(args[0], pos);
      std::string amount = grouped(std::fabs(x), 2, l);
      std::string sym = symbol_of(from_any<Str>(args[2], pos));
      std::string s = (x < 0 && amount.find_first_not_of("0.,") != std::string::npos ? "-" : "") + sym +
                      (l.space_before_symbol || (sym.size() > 2 && sym[0] != '\xE2' && sym[0] != '\xC2') ? " " : "") +
                      amount;
      return *out = Any(Str::from(s)), true;
    }
    return false;
  }
};

}  // namespace

Any num_module() {
  thread_local Any module(new NumModule());
  return module;
}

}  // namespace fitz
