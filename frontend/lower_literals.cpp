// Number parsing, string and bytes escape decoding and format-spec checking for lowering.
// Pure functions over token text: every error carries an offset range inside that text.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "frontend/lower_internal.h"
#include "frontend/source.h"

namespace fitz::frontend::lowering {

namespace {

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return -1;
}

bool is_digit_in(char c, int base) {
  int v = digit_value(c);
  return v >= 0 && v < base;
}

bool is_hex(char c) { return is_digit_in(c, 16); }

std::string_view base_name(int base) {
  switch (base) {
    case 16: return "hexadecimal";
    case 8: return "octal";
    case 2: return "binary";
    default: return "decimal";
  }
}

// The literal with every `_` that is not between two digits removed: the spelling a hint suggests.
std::string without_stray_underscores(std::string_view text, int base, size_t first_digit) {
  std::string out(text.substr(0, first_digit));
  for (size_t i = first_digit; i < text.size(); ++i) {
    char c = text[i];
    if (c != '_') {
      out += c;
      continue;
    }
    bool after_digit = !out.empty() && out.size() > first_digit && is_digit_in(out.back(), base);
    bool before_digit = i + 1 < text.size() && is_digit_in(text[i + 1], base);
    if (after_digit && before_digit) out += c;
  }
  return out;
}

// Checks that `_` only appears between two digits of `base` in text[from, to); reports the first
// misplaced one. Returns false after reporting.
bool check_underscores(std::string_view text, size_t from, size_t to, int base, size_t hint_from,
                       std::vector<LiteralError>& errors) {
  for (size_t i = from; i < to; ++i) {
    if (text[i] != '_') continue;
    bool after_digit = i > from && is_digit_in(text[i - 1], base);
    bool before_digit = i + 1 < to && is_digit_in(text[i + 1], base);
    if (after_digit && before_digit) continue;
    std::string fixed = without_stray_underscores(text, base, hint_from);
    errors.push_back({DiagKind::InvalidNumberLiteral, uint32_t(i), uint32_t(i + 1),
                      "`_` in a number must sit between two digits",
                      fixed.empty() ? std::string() : "write `" + fixed + "`"});
    return false;
  }
  return true;
}

// One scalar at text[pos] as its own UTF-8 text (a lone invalid byte stays one byte).
std::string_view scalar_at(std::string_view text, size_t pos) {
  char32_t cp;
  uint32_t len = decode_utf8(text, uint32_t(pos), cp);
  return text.substr(pos, len);
}

}  // namespace

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

std::optional<int64_t> parse_int_literal(std::string_view text, std::vector<LiteralError>& errors) {
  int base = 10;
  size_t start = 0;
  if (text.size() >= 2 && text[0] == '0') {
    switch (text[1]) {
      case 'x': case 'X': base = 16; start = 2; break;
      case 'b': case 'B': base = 2; start = 2; break;
      case 'o': case 'O': base = 8; start = 2; break;
      default: break;
    }
  }
  for (size_t i = start; i < text.size(); ++i) {
    char c = text[i];
    if (c == '_' || is_digit_in(c, base)) continue;
    std::string_view bad = scalar_at(text, i);
    std::string msg = std::string("invalid digit `") + std::string(bad) + "` in " +
                      (base == 10 ? std::string("a number literal")
                       : base == 8 ? std::string("an octal literal")
                                   : std::string("a ") + std::string(base_name(base)) + " literal");
    std::string hint;
    if (base == 2) hint = "binary literals use only the digits 0 and 1";
    if (base == 8) hint = "octal literals use only the digits 0 to 7";
    if (base == 16) hint = "hexadecimal literals use the digits 0-9 and the letters a-f";
    errors.push_back({DiagKind::InvalidNumberLiteral, uint32_t(i), uint32_t(i + bad.size()),
                      std::move(msg), std::move(hint)});
    return std::nullopt;
  }
  bool has_digit = false;
  for (size_t i = start; i < text.size(); ++i) has_digit |= is_digit_in(text[i], base);
  if (!has_digit) {
    std::string prefix(text.substr(0, start));
    errors.push_back({DiagKind::InvalidNumberLiteral, 0, uint32_t(text.size()),
                      start ? "`" + prefix + "` must be followed by at least one " +
                                  std::string(base_name(base)) + " digit"
                            : "a number literal needs at least one digit",
                      start ? "for example `" + prefix + (base == 16 ? "ff" : base == 8 ? "17" : "101") + "`"
                            : std::string()});
    return std::nullopt;
  }
  if (!check_underscores(text, start, text.size(), base, start, errors)) return std::nullopt;

  uint64_t value = 0;
  constexpr uint64_t kMax = uint64_t(std::numeric_limits<int64_t>::max());
  for (size_t i = start; i < text.size(); ++i) {
    if (text[i] == '_') continue;
    uint64_t d = uint64_t(digit_value(text[i]));
    if (value > (kMax - d) / uint64_t(base)) {
      errors.push_back({DiagKind::IntegerLiteralTooLarge, 0, uint32_t(text.size()),
                        "integer literal `" + std::string(text) + "` is too large for `Int`",
                        "the largest `Int` is 9223372036854775807 (`0x7FFF_FFFF_FFFF_FFFF`)"});
      return std::nullopt;
    }
    value = value * uint64_t(base) + d;
  }
  return int64_t(value);
}

std::optional<double> parse_float_literal(std::string_view text, std::vector<LiteralError>& errors) {
  // digits [ '.' digits ] [ (e|E) [+|-] digits ], `_` allowed between digits of each run.
  size_t i = 0;
  auto run = [&](size_t from) {
    size_t j = from;
    while (j < text.size() && (is_digit_in(text[j], 10) || text[j] == '_')) ++j;
    return j;
  };
  size_t int_end = run(0);
  if (int_end == 0 || !check_underscores(text, 0, int_end, 10, 0, errors)) {
    if (int_end == 0)
      errors.push_back({DiagKind::InvalidNumberLiteral, 0, uint32_t(text.size()),
                        "a number literal needs at least one digit", ""});
    return std::nullopt;
  }
  i = int_end;
  if (i < text.size() && text[i] == '.') {
    size_t frac_end = run(i + 1);
    if (frac_end == i + 1) {
      errors.push_back({DiagKind::InvalidNumberLiteral, uint32_t(i), uint32_t(i + 1),
                        "a digit must follow the `.` of a float literal",
                        "write `" + std::string(text.substr(0, i)) + ".0`"});
      return std::nullopt;
    }
    if (!check_underscores(text, i + 1, frac_end, 10, 0, errors)) return std::nullopt;
    i = frac_end;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t exp_start = i;
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    size_t exp_end = run(i);
    bool has_digit = false;
    for (size_t j = i; j < exp_end; ++j) has_digit |= is_digit_in(text[j], 10);
    if (!has_digit) {
      errors.push_back({DiagKind::InvalidNumberLiteral, uint32_t(exp_start), uint32_t(exp_end),
                        "the exponent of a float literal needs at least one digit",
                        "for example `" + std::string(text.substr(0, exp_start)) + "e3`"});
      return std::nullopt;
    }
    if (!check_underscores(text, i, exp_end, 10, 0, errors)) return std::nullopt;
    i = exp_end;
  }
  if (i != text.size()) {
    std::string_view bad = scalar_at(text, i);
    errors.push_back({DiagKind::InvalidNumberLiteral, uint32_t(i), uint32_t(i + bad.size()),
                      "unexpected `" + std::string(bad) + "` in a float literal", ""});
    return std::nullopt;
  }
  std::string clean;
  clean.reserve(text.size());
  for (char c : text)
    if (c != '_') clean += c;
  double value = 0;
  auto [ptr, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), value);
  if (ec == std::errc::result_out_of_range) {
    // Underflow to zero is harmless (`1e-400` is 0.0); overflow is not representable.
    bool negative_exponent = clean.find("e-") != std::string::npos || clean.find("E-") != std::string::npos;
    if (negative_exponent) return 0.0;
    errors.push_back({DiagKind::InvalidNumberLiteral, 0, uint32_t(text.size()),
                      "float literal `" + std::string(text) + "` is too large for `Float`",
                      "the largest `Float` is about 1.8e308"});
    return std::nullopt;
  }
  if (ec != std::errc() || ptr != clean.data() + clean.size() || !std::isfinite(value)) {
    errors.push_back({DiagKind::InvalidNumberLiteral, 0, uint32_t(text.size()),
                      "invalid float literal `" + std::string(text) + "`", ""});
    return std::nullopt;
  }
  return value;
}

void decode_string_text(std::string_view text, StringFlavor flavor, std::string& out,
                        std::vector<LiteralError>& errors) {
  bool const bytes = flavor == StringFlavor::Bytes;
  std::string_view const valid_list =
      bytes ? "valid escapes in bytes are `\\n \\r \\t \\0 \\\\ \\\"` and `\\xHH`"
            : "valid escapes are `\\n \\t \\r \\\\ \\\" \\0 \\b \\{ \\}`, `\\u{1F600}` and `\\xHH` up to `\\x7F`";
  DiagKind const escape_kind = bytes ? DiagKind::InvalidBytesEscape : DiagKind::InvalidEscape;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '}' && !bytes) {
      errors.push_back({DiagKind::LoneClosingBrace, uint32_t(i), uint32_t(i + 1),
                        "unmatched `}` in a string", "write `\\}` for a literal brace"});
      ++i;
      continue;
    }
    if (c != '\\') {
      out += c;
      ++i;
      continue;
    }
    size_t const start = i;
    if (i + 1 >= text.size()) {
      errors.push_back({escape_kind, uint32_t(start), uint32_t(text.size()),
                        "incomplete escape sequence at the end of the string",
                        "write `\\\\` for a backslash"});
      return;
    }
    char e = text[i + 1];
    i += 2;
    switch (e) {
      case 'n': out += '\n'; continue;
      case 't': out += '\t'; continue;
      case 'r': out += '\r'; continue;
      case '\\': out += '\\'; continue;
      case '"': out += '"'; continue;
      case '0': out += '\0'; continue;
      default: break;
    }
    if (!bytes) {
      if (e == 'b') { out += '\b'; continue; }
      if (e == '{') { out += '{'; continue; }
      if (e == '}') { out += '}'; continue; }
    }
    if (e == 'x') {
      if (i + 2 <= text.size() && is_hex(text[i]) && is_hex(text[i + 1])) {
        int v = digit_value(text[i]) * 16 + digit_value(text[i + 1]);
        i += 2;
        if (!bytes && v > 0x7F) {
          char buf[16];
          std::snprintf(buf, sizeof buf, "%X", v);
          errors.push_back({escape_kind, uint32_t(start), uint32_t(i),
                            std::string("`").append(text.substr(start, i - start)) +
                                "` is above `\\x7F`; a `\\x` escape in a string names an ASCII character",
                            std::string("write `\\u{") + buf + "}` for the character U+00" + buf});
          continue;
        }
        out += char(v);
        continue;
      }
      size_t end = i;
      while (end < text.size() && end < i + 2 && is_hex(text[end])) ++end;
      errors.push_back({escape_kind, uint32_t(start), uint32_t(end),
                        "`\\x` must be followed by exactly two hexadecimal digits",
                        "for example `\\x41` for `A`"});
      i = end;
      continue;
    }
    if (e == 'u' && !bytes) {
      if (i >= text.size() || text[i] != '{') {
        errors.push_back({escape_kind, uint32_t(start), uint32_t(i),
                          "a `\\u` escape is written `\\u{...}` with 1 to 6 hexadecimal digits",
                          "for example `\\u{e9}` for `é`"});
        continue;
      }
      size_t j = i + 1;
      while (j < text.size() && is_hex(text[j])) ++j;
      size_t const ndigits = j - (i + 1);
      bool const closed = j < text.size() && text[j] == '}';
      size_t end = closed ? j + 1 : j;
      if (!closed) {
        // `\u{zz}`: the bad escape runs to its `}` when one follows closely on the same line.
        size_t close = text.find('}', j);
        if (close != std::string_view::npos && close - j <= 8 && text.substr(j, close - j).find_first_of("\n\"\\{") == std::string_view::npos)
          end = close + 1;
      }
      if (!closed || ndigits == 0 || ndigits > 6) {
        errors.push_back({escape_kind, uint32_t(start), uint32_t(end),
                          "a `\\u` escape is written `\\u{...}` with 1 to 6 hexadecimal digits",
                          "for example `\\u{1F600}`"});
        i = end;
        continue;
      }
      char32_t cp = 0;
      for (size_t k = i + 1; k < j; ++k) cp = cp * 16 + char32_t(digit_value(text[k]));
      i = end;
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        errors.push_back({escape_kind, uint32_t(start), uint32_t(end),
                          std::string("`").append(text.substr(start, end - start)) +
                              "` is not a Unicode scalar value",
                          cp > 0x10FFFF ? "the largest scalar value is `\\u{10FFFF}`"
                                        : "surrogates (U+D800 to U+DFFF) cannot appear in a string"});
        continue;
      }
      append_utf8(out, cp);
      continue;
    }
    // Unknown escape: the span covers the backslash and the whole character after it.
    std::string_view bad = scalar_at(text, start + 1);
    i = start + 1 + bad.size();
    std::string hint(valid_list);
    if (bytes && (e == 'u' || e == 'b' || e == '{' || e == '}'))
      hint = "bytes literals support only `\\n \\r \\t \\0 \\\\ \\\"` and `\\xHH`";
    errors.push_back({escape_kind, uint32_t(start), uint32_t(i),
                      "unknown escape sequence `\\" + std::string(bad) + "`", std::move(hint)});
  }
}

std::optional<LiteralError> check_format_spec(std::string_view spec) {
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  size_t i = 0;
  if (!spec.empty()) {
    char32_t cp;
    uint32_t first_len = decode_utf8(spec, 0, cp);
    if (first_len < spec.size() && is_align(spec[first_len]))
      i = first_len + 1;  // fill + align
    else if (is_align(spec[0]))
      i = 1;
  }
  if (i < spec.size() && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' ')) ++i;
  if (i < spec.size() && spec[i] == '#') ++i;
  if (i < spec.size() && spec[i] == '0') ++i;
  while (i < spec.size() && spec[i] >= '0' && spec[i] <= '9') ++i;
  if (i < spec.size() && (spec[i] == ',' || spec[i] == '_')) ++i;
  if (i < spec.size() && spec[i] == '.') {
    size_t j = i + 1;
    while (j < spec.size() && spec[j] >= '0' && spec[j] <= '9') ++j;
    if (j == i + 1) {
      return LiteralError{DiagKind::InvalidFormatSpec, uint32_t(i), uint32_t(i + 1),
                          "the precision after `.` in format spec `" + std::string(spec) +
                              "` needs digits",
                          "for example `.2f` for two decimals"};
    }
    i = j;
  }
  if (i < spec.size() && std::string_view("bcdeEfFgGosxX%").find(spec[i]) != std::string_view::npos) ++i;
  if (i == spec.size()) return std::nullopt;
  std::string_view bad = scalar_at(spec, i);
  return LiteralError{DiagKind::InvalidFormatSpec, uint32_t(i), uint32_t(i + bad.size()),
                      "unexpected `" + std::string(bad) + "` in format spec `" + std::string(spec) + "`",
                      "format specs read `[[fill]align][sign][#][0][width][,|_][.prec][type]`, "
                      "e.g. `>8.2f`; type is one of `b c d e E f F g G o s x X %`"};
}

}  // namespace fitz::frontend::lowering
