// rand (the SplitMix64 reference sequence, seeded reproducibility, bounds), base64 / hex decoding,
// to_json and num formats, called the way generated code calls them.
#include <gtest/gtest.h>

#include <string>

#include "fitz/runtime.h"

using fitz::Any;
using fitz::Str;

namespace test_support {
namespace {

std::string stdlib_text(const Any& v) { return fitz::to_str(v).as<std::string>(); }
Any stdlib_call(const Any& recv, const char* name, std::initializer_list<Any> args = {}) {
  return fitz::any_method(recv, name, args, {});
}

}  // namespace
}  // namespace test_support

using namespace test_support;

TEST(Rand, SplitMix64ReferenceSequence) {
  // The first outputs of Vigna's splitmix64.c from state 0.
  fitz::SplitMix64 g;
  EXPECT_EQ(g.next(), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(g.next(), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(g.next(), 0x06C45D188009454Full);
}

TEST(Rand, SeededGeneratorsReplay) {
  Any a = stdlib_call(fitz::rand_module(), "seeded", {Any(int64_t(42))});
  Any b = stdlib_call(fitz::rand_module(), "seeded", {Any(int64_t(42))});
  for (int i = 0; i < 100; ++i) {
    int64_t x = stdlib_call(a, "int", {Any(int64_t(-5)), Any(int64_t(5))}).int_value();
    EXPECT_EQ(x, stdlib_call(b, "int", {Any(int64_t(-5)), Any(int64_t(5))}).int_value());
    EXPECT_GE(x, -5);
    EXPECT_LE(x, 5);
    double f = stdlib_call(a, "float").float_value();
    EXPECT_EQ(f, stdlib_call(b, "float").float_value());
    EXPECT_GE(f, 0.0);
    EXPECT_LT(f, 1.0);
  }
  // int = lo + next mod span: pinned for seed 0, so the sequence cannot drift between releases.
  Any z = stdlib_call(fitz::rand_module(), "seeded", {Any(int64_t(0))});
  EXPECT_EQ(stdlib_call(z, "int", {Any(int64_t(0)), Any(int64_t(999))}).int_value(), int64_t(0xE220A8397B1DCDAFull % 1000));
  Any xs = fitz::to_any(fitz::List<int64_t>{1, 2, 3, 4, 5, 6, 7, 8});
  Any s1 = stdlib_call(stdlib_call(fitz::rand_module(), "seeded", {Any(int64_t(9))}), "shuffle", {xs});
  Any s2 = stdlib_call(stdlib_call(fitz::rand_module(), "seeded", {Any(int64_t(9))}), "shuffle", {xs});
  EXPECT_EQ(stdlib_text(s1), stdlib_text(s2));
  EXPECT_EQ(stdlib_text(xs), "[1, 2, 3, 4, 5, 6, 7, 8]");  // a copy: the input is untouched
  // The full Int range does not overflow the span.
  int64_t big = stdlib_call(z, "int", {Any(INT64_MIN), Any(INT64_MAX)}).int_value();
  (void)big;
}

TEST(Rand, ChoiceSampleAndBytes) {
  Any empty = fitz::to_any(fitz::List<int64_t>{});
  Any r = stdlib_call(fitz::rand_module(), "choice", {empty});
  ASSERT_TRUE(fitz::any_is_err(r));
  EXPECT_EQ(stdlib_text(fitz::any_result_inner(r)), "rand.choice: empty list");
  Any xs = fitz::to_any(fitz::List<int64_t>{1, 2, 3});
  ASSERT_TRUE(fitz::any_is_err(stdlib_call(fitz::rand_module(), "sample", {xs, Any(int64_t(4))})));
  Any two = stdlib_call(fitz::rand_module(), "sample", {xs, Any(int64_t(2))});
  ASSERT_TRUE(fitz::any_is_ok(two));
  EXPECT_EQ(fitz::any_result_inner(two).obj()->len(), 2);
  fitz::Bytes b = fitz::from_any<fitz::Bytes>(stdlib_call(fitz::rand_module(), "bytes", {Any(int64_t(32))}));
  EXPECT_EQ(b.size(), 32u);
}

TEST(Bytes, FromBase64AndHex) {
  auto ok = fitz::bytes_from_b64(Str("aGVsbG8="));
  ASSERT_TRUE(ok.is_ok());
  EXPECT_EQ(std::string(ok.value().data(), ok.value().size()), "hello");
  auto url = fitz::bytes_from_b64(Str("-_8"));  // URL alphabet, no padding
  ASSERT_TRUE(url.is_ok());
  EXPECT_EQ(url.value().size(), 2u);
  EXPECT_EQ(uint8_t(url.value().data()[0]), 0xfb);
  EXPECT_FALSE(fitz::bytes_from_b64(Str("a b")).is_ok());
  EXPECT_FALSE(fitz::bytes_from_b64(Str("a")).is_ok());
  EXPECT_EQ(fitz::bytes_from_b64(Str("a===")).error().as<std::string>(), "bytes_from_b64: invalid base64 (too much padding)");
  auto hex = fitz::bytes_from_hex(Str("00fF7a"));
  ASSERT_TRUE(hex.is_ok());
  EXPECT_EQ(hex.value().size(), 3u);
  EXPECT_EQ(uint8_t(hex.value().data()[1]), 0xff);
  EXPECT_EQ(fitz::bytes_from_hex(Str("abc")).error().as<std::string>(), "bytes_from_hex: odd number of hex digits");
  EXPECT_EQ(fitz::bytes_from_hex(Str("0g")).error().as<std::string>(), "bytes_from_hex: invalid hex digit at position 1");
}

TEST(ToJson, ValuesMapsAndDates) {
  fitz::Map<Str, Any> m;
  m.set(Str("b"), Any(int64_t(1)));
  m.set(Str("a"), fitz::to_any(fitz::List<double>{1.5, 0.0}));
  m.set(Str("d"), fitz::to_any(fitz::Date{fitz::date::days_from_civil(2026, 3, 1)}));
  m.set(Str("s"), Any(Str("q\"\n")));
  m.set(Str("n"), Any());
  EXPECT_EQ(fitz::to_json_text(fitz::to_any(m)).as<std::string>(),
            "{\"b\":1,\"a\":[1.5,0.0],\"d\":\"2026-03-01\",\"s\":\"q\\\"\\n\",\"n\":null}");
}

TEST(Num, LocalesAndCurrencies) {
  Any num = fitz::num_module();
  EXPECT_EQ(stdlib_text(stdlib_call(num, "format", {Any(1234567.5), Any("es-AR")})), "1.234.567,5");
  EXPECT_EQ(stdlib_text(stdlib_call(num, "format", {Any(int64_t(1234)), Any("en-US")})), "1,234");
  EXPECT_EQ(stdlib_text(stdlib_call(num, "format", {Any(-999.25), Any("fr-FR")})), "-999.25");  // falls back to en-US
  EXPECT_EQ(stdlib_text(stdlib_call(num, "percent", {Any(0.42), Any("es-AR"), Any(int64_t(1))})), "42,0 %");
  EXPECT_EQ(stdlib_text(stdlib_call(num, "percent", {Any(0.42), Any("en-US"), Any(int64_t(1))})), "42.0%");
  EXPECT_EQ(stdlib_text(stdlib_call(num, "currency", {Any(1250.0), Any("es-AR"), Any("ARS")})), "$ 1.250,00");
  EXPECT_EQ(stdlib_text(stdlib_call(num, "currency", {Any(1250.0), Any("en-US"), Any("USD")})), "$1,250.00");
  EXPECT_EQ(stdlib_text(stdlib_call(num, "currency", {Any(-3.5), Any("en-US"), Any("EUR")})), "-\xE2\x82\xAC" "3.50");
  EXPECT_EQ(stdlib_text(stdlib_call(num, "currency", {Any(9.0), Any("en-US"), Any("CHF")})), "CHF 9.00");
}
