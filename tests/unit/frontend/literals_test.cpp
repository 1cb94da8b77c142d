// Unit tests of literal lowering: number parsing and validation, string and bytes escapes,
// and interpolation format specs, each error checked with its offsets inside the token.
#include <gtest/gtest.h>

#include "frontend/lower_internal.h"

namespace fitz::frontend::lowering {
namespace {

std::optional<int64_t> int_ok(std::string_view text) {
  std::vector<LiteralError> errors;
  auto v = parse_int_literal(text, errors);
  EXPECT_TRUE(errors.empty()) << text << ": " << (errors.empty() ? "" : errors[0].message);
  return v;
}

LiteralError int_err(std::string_view text) {
  std::vector<LiteralError> errors;
  auto v = parse_int_literal(text, errors);
  EXPECT_FALSE(v.has_value()) << text;
  EXPECT_EQ(errors.size(), 1u) << text;
  return errors.empty() ? LiteralError{} : errors[0];
}

TEST(IntLiteral, DecimalWithSeparatorsAndLeadingZeros) {
  EXPECT_EQ(int_ok("0"), 0);
  EXPECT_EQ(int_ok("42"), 42);
  EXPECT_EQ(int_ok("7_900_000"), 7900000);
  EXPECT_EQ(int_ok("007"), 7);
  EXPECT_EQ(int_ok("1_0"), 10);
  EXPECT_EQ(int_ok("9_223_372_036_854_775_807"), INT64_MAX);
}

TEST(IntLiteral, Bases) {
  EXPECT_EQ(int_ok("0xff"), 255);
  EXPECT_EQ(int_ok("0x1F"), 31);
  EXPECT_EQ(int_ok("0XDEAD_BEEF"), 0xDEADBEEF);
  EXPECT_EQ(int_ok("0b1010"), 10);
  EXPECT_EQ(int_ok("0B1111_0000"), 240);
  EXPECT_EQ(int_ok("0o17"), 15);
  EXPECT_EQ(int_ok("0x7FFF_FFFF_FFFF_FFFF"), INT64_MAX);
}

TEST(IntLiteral, MisplacedUnderscores) {
  LiteralError e = int_err("1__0");
  EXPECT_EQ(e.kind, DiagKind::InvalidNumberLiteral);
  EXPECT_EQ(e.begin, 1u);
  EXPECT_EQ(e.end, 2u);
  EXPECT_NE(e.message.find("between two digits"), std::string::npos);
  EXPECT_EQ(e.hint, "write `1_0`");
  e = int_err("1_");
  EXPECT_EQ(e.begin, 1u);
  EXPECT_EQ(e.hint, "write `1`");
  e = int_err("0x_ff");
  EXPECT_EQ(e.begin, 2u);
  EXPECT_EQ(e.hint, "write `0xff`");
}

TEST(IntLiteral, BadDigitsAndEmptyPrefix) {
  LiteralError e = int_err("0b102");
  EXPECT_EQ(e.begin, 4u);
  EXPECT_EQ(e.end, 5u);
  EXPECT_EQ(e.message, "invalid digit `2` in a binary literal");
  e = int_err("0o9");
  EXPECT_EQ(e.begin, 2u);
  e = int_err("0x");
  EXPECT_EQ(e.begin, 0u);
  EXPECT_EQ(e.end, 2u);
  EXPECT_EQ(e.message, "`0x` must be followed by at least one hexadecimal digit");
}

TEST(IntLiteral, Overflow) {
  LiteralError e = int_err("9223372036854775808");
  EXPECT_EQ(e.kind, DiagKind::IntegerLiteralTooLarge);
  EXPECT_EQ(e.begin, 0u);
  EXPECT_EQ(e.end, 19u);
  e = int_err("0xFFFF_FFFF_FFFF_FFFF");
  EXPECT_EQ(e.kind, DiagKind::IntegerLiteralTooLarge);
  e = int_err("99999999999999999999999999999999999999");
  EXPECT_EQ(e.kind, DiagKind::IntegerLiteralTooLarge);
}

std::optional<double> float_ok(std::string_view text) {
  std::vector<LiteralError> errors;
  auto v = parse_float_literal(text, errors);
  EXPECT_TRUE(errors.empty()) << text;
  return v;
}

TEST(FloatLiteral, Forms) {
  EXPECT_EQ(float_ok("3.0"), 3.0);
  EXPECT_EQ(float_ok("2.50"), 2.5);
  EXPECT_EQ(float_ok("1e3"), 1000.0);
  EXPECT_EQ(float_ok("1.5E2"), 150.0);
  EXPECT_EQ(float_ok("2.5e-1"), 0.25);
  EXPECT_EQ(float_ok("1_000.5"), 1000.5);
  EXPECT_EQ(float_ok("0.1"), 0.1);
  EXPECT_EQ(float_ok("1e-400"), 0.0);
}

TEST(FloatLiteral, Errors) {
  std::vector<LiteralError> errors;
  EXPECT_FALSE(parse_float_literal("1e", errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].begin, 1u);
  EXPECT_EQ(errors[0].end, 2u);
  errors.clear();
  EXPECT_FALSE(parse_float_literal("1.5e+", errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].begin, 3u);
  errors.clear();
  EXPECT_FALSE(parse_float_literal("1e999", errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("too large"), std::string::npos);
  errors.clear();
  EXPECT_FALSE(parse_float_literal("1__0.5", errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].begin, 1u);
  errors.clear();
  EXPECT_FALSE(parse_float_literal("1.5_", errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].begin, 3u);
}

std::string decode(std::string_view text, StringFlavor flavor = StringFlavor::Str) {
  std::string out;
  std::vector<LiteralError> errors;
  decode_string_text(text, flavor, out, errors);
  EXPECT_TRUE(errors.empty()) << text << ": " << (errors.empty() ? "" : errors[0].message);
  return out;
}

std::vector<LiteralError> decode_errors(std::string_view text, StringFlavor flavor = StringFlavor::Str) {
  std::string out;
  std::vector<LiteralError> errors;
  decode_string_text(text, flavor, out, errors);
  return errors;
}

TEST(StringEscapes, Valid) {
  EXPECT_EQ(decode("plain"), "plain");
  EXPECT_EQ(decode(R"(tab:\tend)"), "tab:\tend");
  EXPECT_EQ(decode(R"(\n\r\\\"\b)"), "\n\r\\\"\b");
  EXPECT_EQ(decode(R"(a\0b)"), std::string("a\0b", 3));
  EXPECT_EQ(decode(R"(\{not a hole\})"), "{not a hole}");
  EXPECT_EQ(decode(R"(caf\u{e9} \u{1F600})"), "caf\xC3\xA9 \xF0\x9F\x98\x80");
  EXPECT_EQ(decode(R"(\x46\x69\x74\x7A)"), "Fitz");
  EXPECT_EQ(decode("h\xC3\xA9llo"), "h\xC3\xA9llo");
}

TEST(StringEscapes, UnknownEscapeSpansTheWholeEscape) {
  auto errors = decode_errors(R"(ab\qcd)");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].kind, DiagKind::InvalidEscape);
  EXPECT_EQ(errors[0].begin, 2u);
  EXPECT_EQ(errors[0].end, 4u);
  EXPECT_EQ(errors[0].message, "unknown escape sequence `\\q`");
  errors = decode_errors("\\\xC3\xA9");  // backslash + é
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].end, 3u);
}

TEST(StringEscapes, UnicodeEscapeErrors) {
  auto errors = decode_errors(R"(x\u{}y)");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].begin, 1u);
  EXPECT_EQ(errors[0].end, 5u);
  errors = decode_errors(R"(\u{1234567})");
  ASSERT_EQ(errors.size(), 1u);
  errors = decode_errors(R"(\u{D800})");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].end, 8u);
  EXPECT_NE(errors[0].message.find("not a Unicode scalar"), std::string::npos);
  errors = decode_errors(R"(\u{110000})");
  ASSERT_EQ(errors.size(), 1u);
  errors = decode_errors(R"(\u41)");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].end, 2u);
  errors = decode_errors(R"(\u{41)");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].end, 5u);
}

TEST(StringEscapes, HexEscapeErrors) {
  auto errors = decode_errors(R"(\x80)");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].end, 4u);
  EXPECT_EQ(errors[0].hint, "write `\\u{80}` for the character U+0080");
  errors = decode_errors(R"(\x4)");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].end, 3u);
  errors = decode_errors(R"(\xg1)");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].end, 2u);
}

TEST(StringEscapes, LoneClosingBrace) {
  auto errors = decode_errors("a } b");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].kind, DiagKind::LoneClosingBrace);
  EXPECT_EQ(errors[0].begin, 2u);
  EXPECT_EQ(decode("a } b", StringFlavor::Bytes), "a } b");
}

TEST(StringEscapes, SeveralErrorsInOneText) {
  auto errors = decode_errors(R"(\q and \w)");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[1].begin, 7u);
}

TEST(BytesEscapes, ValidAndInvalid) {
  EXPECT_EQ(decode(R"(\xFF\x00\n)", StringFlavor::Bytes), std::string("\xFF\x00\n", 3));
  auto errors = decode_errors(R"(\u{41})", StringFlavor::Bytes);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].kind, DiagKind::InvalidBytesEscape);
  EXPECT_EQ(errors[0].end, 2u);
  errors = decode_errors(R"(\b)", StringFlavor::Bytes);
  ASSERT_EQ(errors.size(), 1u);
}

TEST(FormatSpec, ValidSpecs) {
  for (std::string_view spec : {"", ".2f", ".0f", "8.1f", "5", "<5", "^6", "05", "+", "*>6", "-<6",
                                ".2", "x", "X", "#x", "b", "#b", "o", "#o", ",", ".1%", "03d",
                                "\xC3\xA9^10", "=+#010,.3e", "_"}) {
    EXPECT_FALSE(check_format_spec(spec).has_value()) << spec;
  }
}

TEST(FormatSpec, InvalidSpecs) {
  auto e = check_format_spec(".2q");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->begin, 2u);
  EXPECT_EQ(e->kind, DiagKind::InvalidFormatSpec);
  e = check_format_spec("8.f");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->begin, 1u);
  e = check_format_spec("ff");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->begin, 1u);
}

}  // namespace
}  // namespace fitz::frontend::lowering
