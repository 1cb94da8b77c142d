// Codec tests: known encodings and round trips in both formats for every supported type, with
// edge values (INT64_MIN, NaN, infinities, empty arrays, NULL elements, quoting, all byte values).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "pg/codecs.h"
#include "pg_test_util.h"

namespace fitz::pg {
namespace {
using namespace fitz::pg::test_support;

template <class T>
std::string enc(const T& v, Format f) {
  std::string out;
  auto s = encode(out, v, f);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return out;
}

template <class T>
T dec(std::string_view bytes, Format f) {
  auto r = decode<T>(bytes, f);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message) << " for \"" << bytes << "\"";
  return r.ok() ? *r : T{};
}

template <class T>
void round_trip(const T& v) {
  for (Format f : {Format::Text, Format::Binary}) EXPECT_EQ(dec<T>(enc(v, f), f), v) << enc(v, Format::Text);
}

// ---- integers -----------------------------------------------------------------------------

TEST(PgCodecs, IntegersKnownEncodings) {
  EXPECT_EQ(enc<int16_t>(-2, Format::Binary), bytes({0xff, 0xfe}));
  EXPECT_EQ(enc<int32_t>(0x01020304, Format::Binary), bytes({1, 2, 3, 4}));
  EXPECT_EQ(enc<int64_t>(INT64_MIN, Format::Binary), bytes({0x80, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(enc<int64_t>(INT64_MIN, Format::Text), "-9223372036854775808");
  EXPECT_EQ(enc<int64_t>(INT64_MAX, Format::Text), "9223372036854775807");
  EXPECT_EQ(dec<int64_t>("-9223372036854775808", Format::Text), INT64_MIN);
}

TEST(PgCodecs, IntegerRoundTrips) {
  for (int16_t v : std::initializer_list<int16_t>{0, -1, INT16_MIN, INT16_MAX}) round_trip(v);
  for (int32_t v : {0, -1, INT32_MIN, INT32_MAX}) round_trip(v);
  for (int64_t v : {int64_t{0}, int64_t{-1}, INT64_MIN, INT64_MAX, int64_t{1} << 40}) round_trip(v);
}

TEST(PgCodecs, IntegerWideningAndErrors) {
  EXPECT_EQ(dec<int64_t>(bytes({0xff, 0xfe}), Format::Binary), -2);
  EXPECT_EQ(dec<int64_t>(bytes({0xff, 0xff, 0xff, 0xfe}), Format::Binary), -2);
  EXPECT_EQ(dec<int32_t>(bytes({0x80, 0x00}), Format::Binary), -32768);
  EXPECT_FALSE(decode<int64_t>(bytes({1, 2, 3}), Format::Binary).ok());
  EXPECT_FALSE(decode<int16_t>(bytes({1, 2, 3, 4}), Format::Binary).ok());
  auto overflow = decode<int16_t>("40000", Format::Text);
  ASSERT_FALSE(overflow.ok());
  EXPECT_EQ(overflow.error().sqlstate, "22003");
  auto garbage = decode<int64_t>("12abc", Format::Text);
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().sqlstate, "22P02");
  EXPECT_FALSE(decode<int64_t>("", Format::Text).ok());
  EXPECT_FALSE(decode<int64_t>("9223372036854775808", Format::Text).ok());
}

// ---- floats -------------------------------------------------------------------------------

TEST(PgCodecs, FloatKnownEncodings) {
  EXPECT_EQ(enc<double>(1.5, Format::Binary), bytes({0x3f, 0xf8, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(enc<float>(1.5f, Format::Binary), bytes({0x3f, 0xc0, 0, 0}));
  EXPECT_EQ(enc<double>(0.1, Format::Text), "0.1");
  EXPECT_EQ(enc<double>(std::numeric_limits<double>::quiet_NaN(), Format::Text), "NaN");
  EXPECT_EQ(enc<double>(std::numeric_limits<double>::infinity(), Format::Text), "Infinity");
  EXPECT_EQ(enc<double>(-std::numeric_limits<double>::infinity(), Format::Text), "-Infinity");
  EXPECT_EQ(format_float(-0.0), "-0");
}

TEST(PgCodecs, FloatRoundTripsAndSpecials) {
  for (double v : {0.0, -1.25, 0.1, 1e300, -1e-300, std::numeric_limits<double>::max(),
                   std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity()})
    round_trip(v);
  for (float v : {0.0f, 3.14159f, -1e30f, std::numeric_limits<float>::infinity()}) round_trip(v);
  for (Format f : {Format::Text, Format::Binary}) {
    EXPECT_TRUE(std::isnan(dec<double>(enc(std::nan(""), f), f)));
    EXPECT_TRUE(std::isnan(dec<float>(enc(std::nanf(""), f), f)));
  }
  EXPECT_TRUE(std::isnan(dec<double>("NaN", Format::Text)));
  EXPECT_EQ(dec<double>("-Infinity", Format::Text), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(dec<double>("1e+20", Format::Text), 1e20);
  EXPECT_EQ(dec<double>(bytes({0x3f, 0xc0, 0, 0}), Format::Binary), 1.5);  // float4 widened
  EXPECT_FALSE(decode<double>("1e400", Format::Text).ok());
  EXPECT_FALSE(decode<double>("one", Format::Text).ok());
  EXPECT_FALSE(decode<double>(bytes({1, 2, 3}), Format::Binary).ok());
}

// ---- bool, text, json ---------------------------------------------------------------------

TEST(PgCodecs, Bool) {
  EXPECT_EQ(enc(true, Format::Binary), bytes({1}));
  EXPECT_EQ(enc(false, Format::Text), "f");
  round_trip(true);
  round_trip(false);
  EXPECT_TRUE(dec<bool>("true", Format::Text));
  EXPECT_FALSE(decode<bool>("yes", Format::Text).ok());
  EXPECT_FALSE(decode<bool>(bytes({2}), Format::Binary).ok());
  EXPECT_FALSE(decode<bool>("", Format::Binary).ok());
}

TEST(PgCodecs, TextIsVerbatim) {
  std::string s = "héllo, 'world'; DROP TABLE users; --";
  EXPECT_EQ(enc(s, Format::Binary), s);
  round_trip(s);
  round_trip(std::string());
}

TEST(PgCodecs, JsonAndJsonb) {
  Json j{"{\"a\": [1, 2]}"};
  EXPECT_EQ(enc(j, Format::Binary), j.text);
  round_trip(j);
  Jsonb jb{"{\"a\": 1}"};
  EXPECT_EQ(enc(jb, Format::Binary), "\x01{\"a\": 1}");
  EXPECT_EQ(enc(jb, Format::Text), "{\"a\": 1}");
  round_trip(jb);
  EXPECT_FALSE(decode<Jsonb>("\x02{}", Format::Binary).ok());
  EXPECT_FALSE(decode<Jsonb>("", Format::Binary).ok());
}

// ---- bytea --------------------------------------------------------------------------------

TEST(PgCodecs, ByteaAllByteValues) {
  Bytea all;
  for (int i = 0; i < 256; ++i) all.bytes.push_back(static_cast<char>(i));
  std::string text = enc(all, Format::Text);
  ASSERT_EQ(text.size(), 2u + 512u);
  EXPECT_EQ(text.substr(0, 8), "\\x000102");
  EXPECT_EQ(text.substr(text.size() - 4), "feff");
  round_trip(all);
  round_trip(Bytea{});
  EXPECT_EQ(enc(Bytea{}, Format::Text), "\\x");
  EXPECT_EQ(dec<Bytea>("\\xDEADbeef", Format::Text).bytes, bytes({0xde, 0xad, 0xbe, 0xef}));
}

TEST(PgCodecs, ByteaEscapeFormatAndErrors) {
  EXPECT_EQ(dec<Bytea>("ab\\000c\\\\\\377", Format::Text).bytes, bytes({'a', 'b', 0, 'c', '\\', 0xff}));
  EXPECT_FALSE(decode<Bytea>("\\x0", Format::Text).ok());
  EXPECT_FALSE(decode<Bytea>("\\xzz", Format::Text).ok());
  EXPECT_FALSE(decode<Bytea>("bad\\9", Format::Text).ok());
  EXPECT_FALSE(decode<Bytea>("trailing\\", Format::Text).ok());
}

// ---- numeric ------------------------------------------------------------------------------

std::string numeric_binary(int ndigits, int weight, int sign, int dscale, std::initializer_list<int> digits) {
  std::string out = be16(ndigits) + be16(weight) + be16(sign) + be16(dscale);
  for (int d : digits) out += be16(d);
  return out;
}

TEST(PgCodecs, NumericKnownBinary) {
  EXPECT_EQ(enc(Numeric{"0"}, Format::Binary), numeric_binary(0, 0, 0, 0, {}));
  EXPECT_EQ(enc(Numeric{"0.00"}, Format::Binary), numeric_binary(0, 0, 0, 2, {}));
  EXPECT_EQ(enc(Numeric{"123.45"}, Format::Binary), numeric_binary(2, 0, 0, 2, {123, 4500}));
  EXPECT_EQ(enc(Numeric{"-0.0001"}, Format::Binary), numeric_binary(1, -1, 0x4000, 4, {1}));
  EXPECT_EQ(enc(Numeric{"10000"}, Format::Binary), numeric_binary(1, 1, 0, 0, {1}));
  EXPECT_EQ(enc(Numeric{"12345678.9"}, Format::Binary), numeric_binary(3, 1, 0, 1, {1234, 5678, 9000}));
  EXPECT_EQ(enc(Numeric{"1.5e3"}, Format::Binary), numeric_binary(1, 0, 0, 0, {1500}));
  EXPECT_EQ(enc(Numeric{"NaN"}, Format::Binary), numeric_binary(0, 0, 0xC000, 0, {}));
  EXPECT_EQ(enc(Numeric{"-Infinity"}, Format::Binary), numeric_binary(0, 0, 0xF000, 0, {}));

  EXPECT_EQ(dec<Numeric>(numeric_binary(2, 0, 0, 2, {123, 4500}), Format::Binary).text, "123.45");
  EXPECT_EQ(dec<Numeric>(numeric_binary(1, -2, 0, 8, {1}), Format::Binary).text, "0.00000001");
  EXPECT_EQ(dec<Numeric>(numeric_binary(1, 2, 0x4000, 0, {7}), Format::Binary).text, "-700000000");
  EXPECT_EQ(dec<Numeric>(numeric_binary(0, 0, 0, 3, {}), Format::Binary).text, "0.000");
  EXPECT_EQ(dec<Numeric>(numeric_binary(0, 0, 0xD000, 0, {}), Format::Binary).text, "Infinity");
}

TEST(PgCodecs, NumericRoundTrips) {
  for (const char* text : {"0", "1", "-1", "0.5", "123.450", "99999999999999999999999999.000000001",
                           "-0.000000000000000000001", "10000", "9999", "100000000", "NaN", "Infinity",
                           "-Infinity", "3.14159265358979323846264338327950288"}) {
    round_trip(Numeric{text});
  }
  EXPECT_EQ(dec<Numeric>(enc(Numeric{"+00012.5000"}, Format::Binary), Format::Binary).text, "12.5000");
  EXPECT_EQ(dec<Numeric>(enc(Numeric{"1.25E-2"}, Format::Binary), Format::Binary).text, "0.0125");
}

TEST(PgCodecs, NumericErrors) {
  for (const char* bad : {"", "abc", "1.2.3", "1e", "--1", "1e99999", "."}) {
    std::string out;
    EXPECT_FALSE(encode(out, Numeric{bad}, Format::Binary).ok()) << bad;
  }
  EXPECT_FALSE(decode<Numeric>(numeric_binary(1, 0, 0, 0, {10000}), Format::Binary).ok());  // digit > 9999
  EXPECT_FALSE(decode<Numeric>(numeric_binary(2, 0, 0, 0, {1}), Format::Binary).ok());      // short
  EXPECT_FALSE(decode<Numeric>(numeric_binary(0, 0, 0x1234, 0, {}), Format::Binary).ok());  // bad sign
  EXPECT_FALSE(decode<Numeric>(bytes({0, 0}), Format::Binary).ok());
}

// ---- dates and timestamps -----------------------------------------------------------------

TEST(PgCodecs, CivilDays) {
  EXPECT_EQ(days_from_civil({2000, 1, 1}), 0);
  EXPECT_EQ(days_from_civil({1970, 1, 1}), -10957);
  EXPECT_EQ(days_from_civil({2000, 3, 1}), 60);  // 2000 is a leap year
  for (int64_t d : {int64_t{-1000000}, int64_t{-10957}, int64_t{-1}, int64_t{0}, int64_t{59}, int64_t{60},
                    int64_t{9000000}})
    EXPECT_EQ(days_from_civil(civil_from_days(d)), d);
  EXPECT_EQ(civil_from_days(-1), (CivilDate{1999, 12, 31}));
}

TEST(PgCodecs, Date) {
  EXPECT_EQ(enc(Date{0}, Format::Binary), bytes({0, 0, 0, 0}));
  EXPECT_EQ(enc(Date{-10957}, Format::Text), "1970-01-01");
  EXPECT_EQ(enc(Date::from_civil({2024, 2, 29}), Format::Text), "2024-02-29");
  EXPECT_EQ(enc(Date::from_civil({-43, 3, 15}), Format::Text), "0044-03-15 BC");
  EXPECT_EQ(enc(Date{Date::kInfinity}, Format::Text), "infinity");
  EXPECT_EQ(dec<Date>("0044-03-15 BC", Format::Text), Date::from_civil({-43, 3, 15}));
  EXPECT_EQ(dec<Date>("-infinity", Format::Text).days, Date::kNegInfinity);
  for (Date d : {Date{0}, Date{-10957}, Date{123456}, Date{-800000}, Date{Date::kInfinity}, Date{Date::kNegInfinity}})
    round_trip(d);
  for (const char* bad : {"2023-02-29", "2023-13-01", "2023-00-10", "2023-01-32", "2023/01/01", "0000-01-01 BC",
                          "2023-01-01x"})
    EXPECT_FALSE(decode<Date>(bad, Format::Text).ok()) << bad;
}

TEST(PgCodecs, TimestampKnownValues) {
  EXPECT_EQ(enc(Timestamp{0}, Format::Text), "2000-01-01 00:00:00");
  EXPECT_EQ(enc(Timestamp{0}, Format::Binary), be64(0));
  EXPECT_EQ(enc(Timestamp{1}, Format::Text), "2000-01-01 00:00:00.000001");
  EXPECT_EQ(enc(Timestamp{-1}, Format::Text), "1999-12-31 23:59:59.999999");
  EXPECT_EQ(enc(Timestamp{Timestamp::kInfinity}, Format::Text), "infinity");
  EXPECT_EQ(enc(Timestamp{Timestamp::kNegInfinity}, Format::Binary), be64(INT64_MIN));
  EXPECT_EQ(dec<Timestamp>("2026-06-17 12:34:56.12", Format::Text),
            Timestamp{days_from_civil({2026, 6, 17}) * kMicrosPerDay + (12 * 3600 + 34 * 60 + 56) * 1000000LL + 120000});
  EXPECT_EQ(dec<Timestamp>("2026-06-17T12:34:56", Format::Text), dec<Timestamp>("2026-06-17 12:34:56", Format::Text));
  EXPECT_EQ(dec<Timestamp>("2000-01-01 00:00:00.0000005", Format::Text), Timestamp{1});  // rounds half up
  EXPECT_EQ(dec<Timestamp>("0044-03-15 12:00:00 BC", Format::Text).micros,
            days_from_civil({-43, 3, 15}) * kMicrosPerDay + 12 * 3600 * 1000000LL);
}

TEST(PgCodecs, TimestamptzTextAndOffsets) {
  Timestamptz t = dec<Timestamptz>("2026-06-17 12:34:56.12+00", Format::Text);
  EXPECT_EQ(enc(t, Format::Text), "2026-06-17 12:34:56.12+00");
  EXPECT_EQ(dec<Timestamptz>("2026-06-17 18:04:56.12+05:30", Format::Text), t);
  EXPECT_EQ(dec<Timestamptz>("2026-06-17 07:34:56.12-05", Format::Text), t);
  EXPECT_EQ(dec<Timestamptz>("2026-06-17T12:34:56.12Z", Format::Text), t);
  EXPECT_EQ(dec<Timestamptz>("2026-06-17 18:04:56.12+0530", Format::Text), t);
  EXPECT_EQ(Timestamptz::from_unix_micros(0), dec<Timestamptz>("1970-01-01 00:00:00+00", Format::Text));
  EXPECT_EQ(Timestamptz::from_unix_micros(1'700'000'000'000'000).unix_micros(), 1'700'000'000'000'000);
  EXPECT_EQ(enc(Timestamptz{days_from_civil({-43, 3, 15}) * kMicrosPerDay}, Format::Text), "0044-03-15 00:00:00+00 BC");
  EXPECT_EQ(dec<Timestamptz>("infinity", Format::Text).micros, Timestamptz::kInfinity);
  for (int64_t m : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{836'000'000'123'456}, int64_t{-63'000'000'000'000'000},
                    Timestamptz::kInfinity, Timestamptz::kNegInfinity})
    round_trip(Timestamptz{m});
  for (int64_t m : {int64_t{0}, int64_t{-86'400'000'000}, int64_t{9'000'000'000'000'000}}) round_trip(Timestamp{m});
}

TEST(PgCodecs, TimestampErrors) {
  for (const char* bad : {"2026-06-17", "2026-06-17 25:00:00", "2026-06-17 12:60:00", "2026-06-17 12:00:00.",
                          "2026-06-17 12:00:00+99", "2026-06-17 12:00:00 junk", "9999999-01-01 00:00:00",
                          "2026-02-30 00:00:00"})
    EXPECT_FALSE(decode<Timestamptz>(bad, Format::Text).ok()) << bad;
  EXPECT_FALSE(decode<Timestamp>(bytes({0, 0, 0, 0}), Format::Binary).ok());
  EXPECT_FALSE(decode<Date>(bytes({0, 0}), Format::Binary).ok());
}

// ---- uuid ---------------------------------------------------------------------------------

TEST(PgCodecs, Uuid) {
  Uuid u = dec<Uuid>("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", Format::Text);
  EXPECT_EQ(enc(u, Format::Text), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
  EXPECT_EQ(enc(u, Format::Binary), bytes({0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9,
                                           0xbd, 0x38, 0x0a, 0x11}));
  EXPECT_EQ(dec<Uuid>("{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}", Format::Text), u);
  EXPECT_EQ(dec<Uuid>("a0eebc999c0b4ef8bb6d6bb9bd380a11", Format::Text), u);
  round_trip(u);
  round_trip(Uuid{});
  for (const char* bad : {"", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1g",
                          "a0eebc999-c0b-4ef8-bb6d-6bb9bd380a11"})
    EXPECT_FALSE(decode<Uuid>(bad, Format::Text).ok()) << bad;
  EXPECT_FALSE(decode<Uuid>(bytes({1, 2, 3}), Format::Binary).ok());
}

// ---- arrays -------------------------------------------------------------------------------

TEST(PgCodecs, Int8ArrayBinaryLayout) {
  Int8Array v = {1, std::nullopt, -3};
  std::string expected = be32(1) + be32(1) + be32(20) + be32(3) + be32(1) + be32(8) + be64(1) + be32(-1) + be32(8) +
                         be64(-3);
  EXPECT_EQ(enc(v, Format::Binary), expected);
  EXPECT_EQ(enc(v, Format::Text), "{1,NULL,-3}");
  round_trip(v);
  EXPECT_EQ(enc(Int8Array{}, Format::Binary), be32(0) + be32(0) + be32(20));
  EXPECT_EQ(enc(Int8Array{}, Format::Text), "{}");
  round_trip(Int8Array{});
  round_trip(Int8Array{INT64_MIN, INT64_MAX});
  round_trip(Int8Array{std::nullopt});
}

TEST(PgCodecs, Int8ArrayFromInt4Elements) {
  std::string int4_array = be32(1) + be32(0) + be32(23) + be32(2) + be32(1) + be32(4) + be32(7) + be32(4) + be32(-7);
  EXPECT_EQ(dec<Int8Array>(int4_array, Format::Binary), (Int8Array{7, -7}));
  std::string text_elements = be32(1) + be32(0) + be32(25) + be32(1) + be32(1) + be32(1) + "x";
  EXPECT_FALSE(decode<Int8Array>(text_elements, Format::Binary).ok());
}

TEST(PgCodecs, TextArrayQuoting) {
  TextArray v = {"plain", "with space", std::nullopt, "NULL", "", "quote\"d", "back\\slash", "{brace}", "a,b",
                 "null"};
  std::string text = enc(v, Format::Text);
  EXPECT_EQ(text,
            "{plain,\"with space\",NULL,\"NULL\",\"\",\"quote\\\"d\",\"back\\\\slash\",\"{brace}\",\"a,b\",\"null\"}");
  round_trip(v);
  round_trip(TextArray{});
  round_trip(TextArray{std::nullopt, std::string("x")});
}

TEST(PgCodecs, TextArrayParsing) {
  EXPECT_EQ(dec<TextArray>("{a, b ,\"c d\" , NULL,nUlL}", Format::Text),
            (TextArray{"a", "b", "c d", std::nullopt, std::nullopt}));
  EXPECT_EQ(dec<TextArray>(" { } ", Format::Text), TextArray{});
  EXPECT_EQ(dec<TextArray>("{a\\,b,\\N\\ULL}", Format::Text), (TextArray{"a,b", "NULL"}));
  EXPECT_EQ(dec<TextArray>("[0:1]={x,y}", Format::Text), (TextArray{"x", "y"}));
  EXPECT_EQ(dec<Int8Array>("{1, 2,NULL}", Format::Text), (Int8Array{1, 2, std::nullopt}));
  for (const char* bad : {"", "{", "}", "{a", "{a,}", "{,a}", "{\"a}", "{a}x", "a,b", "{a\"b}", "{a,\\"})
    EXPECT_FALSE(decode<TextArray>(bad, Format::Text).ok()) << bad;
  auto nested = decode<TextArray>("{{a,b},{c,d}}", Format::Text);
  ASSERT_FALSE(nested.ok());
  EXPECT_EQ(nested.error().kind, ErrorKind::Unsupported);
  EXPECT_FALSE(decode<Int8Array>("{1,x}", Format::Text).ok());
}

TEST(PgCodecs, MalformedBinaryArrays) {
  std::string header = be32(1) + be32(0) + be32(20);
  EXPECT_FALSE(decode<Int8Array>(be32(1), Format::Binary).ok());                            // truncated header
  EXPECT_FALSE(decode<Int8Array>(header + be32(1000000) + be32(1), Format::Binary).ok());   // more elements than bytes
  EXPECT_FALSE(decode<Int8Array>(header + be32(1) + be32(1) + be32(-2), Format::Binary).ok());  // bad length
  EXPECT_FALSE(decode<Int8Array>(header + be32(1) + be32(1) + be32(8) + be32(0), Format::Binary).ok());  // short
  EXPECT_FALSE(decode<Int8Array>(be32(7) + be32(0) + be32(20), Format::Binary).ok());       // ndim > 6
  EXPECT_FALSE(decode<Int8Array>(be32(0) + be32(2) + be32(20), Format::Binary).ok());       // bad flags
  EXPECT_FALSE(decode<Int8Array>(be32(0) + be32(0) + be32(20) + "x", Format::Binary).ok()); // trailing
  auto two_dims = decode<TextArray>(be32(2) + be32(0) + be32(25) + be32(1) + be32(1) + be32(1) + be32(1),
                                    Format::Binary);
  ASSERT_FALSE(two_dims.ok());
  EXPECT_EQ(two_dims.error().kind, ErrorKind::Unsupported);
}

// ---- decode_value and to_param ------------------------------------------------------------

TEST(PgCodecs, DecodeValueChecksTypeAndNull) {
  auto ok = decode_value<int64_t>(std::string_view("42"), Format::Text, oid::kInt8);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 42);
  auto null = decode_value<std::optional<int64_t>>(std::nullopt, Format::Binary, oid::kInt8);
  ASSERT_TRUE(null.ok());
  EXPECT_FALSE(null->has_value());
  auto not_optional = decode_value<int64_t>(std::nullopt, Format::Binary, oid::kInt8);
  ASSERT_FALSE(not_optional.ok());
  EXPECT_EQ(not_optional.error().sqlstate, "22004");
  auto wrong_type = decode_value<int64_t>(std::string_view("abc"), Format::Binary, oid::kText);
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_NE(wrong_type.error().message.find("text"), std::string::npos);
  auto any_as_text = decode_value<std::string>(std::string_view("2026-01-01"), Format::Text, oid::kDate);
  ASSERT_TRUE(any_as_text.ok());
  EXPECT_EQ(*any_as_text, "2026-01-01");
  EXPECT_FALSE(decode_value<std::string>(std::string_view("x"), Format::Binary, oid::kDate).ok());
}

TEST(PgCodecs, ToParam) {
  auto p = to_param(int64_t{7});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->type, oid::kInt8);
  EXPECT_EQ(p->format, Format::Binary);
  EXPECT_EQ(p->value, be64(7));
  auto t = to_param(std::string("x"), Format::Text);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->type, oid::kText);
  EXPECT_EQ(t->format, Format::Text);
  auto n = to_param(std::optional<double>{});
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->type, oid::kFloat8);
  EXPECT_FALSE(n->value.has_value());
  EXPECT_FALSE(to_param(Numeric{"x"}).ok());
  EXPECT_EQ(type_name(oid::kInt8Array), "int8[]");
  EXPECT_EQ(type_name(99999), "oid 99999");
}

}  // namespace
}  // namespace fitz::pg
