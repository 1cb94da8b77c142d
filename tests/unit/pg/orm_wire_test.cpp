// The ORM's typed boundary (fitz/orm_wire.h): parameters encoded from static types, checked
// against the protocol layer's own codecs, and the readers generated decoders call, over cells
// built by hand and over a driver result (wire_rows).
#include <gtest/gtest.h>

#include "fitz/runtime.h"
#include "pg/codecs.h"
#include "pg/fitz_db_internal.h"

namespace fitz::orm {
namespace {

std::string std_of(const Str& s) { return std::string(s.data(), s.size()); }

TEST(OrmWireParams, NumbersAndBoolsGoInBinaryWithTheirOids) {
  WireParam i = bind<int64_t>(-2);
  EXPECT_EQ(i.oid, pg::oid::kInt8);
  EXPECT_TRUE(i.binary);
  EXPECT_FALSE(i.null);
  EXPECT_EQ(*pg::Codec<int64_t>::decode_binary(i.bytes), -2);

  WireParam f = bind<double>(1.25);
  EXPECT_EQ(f.oid, pg::oid::kFloat8);
  EXPECT_TRUE(f.binary);
  EXPECT_EQ(*pg::Codec<double>::decode_binary(f.bytes), 1.25);

  WireParam b = bind<bool>(true);
  EXPECT_EQ(b.oid, pg::oid::kBool);
  EXPECT_EQ(*pg::Codec<bool>::decode_binary(b.bytes), true);
}

TEST(OrmWireParams, StrTravelsAsTextBytesNeverAsSql) {
  WireParam s = bind<Str>(Str("x'); DROP TABLE users; --"));
  EXPECT_EQ(s.oid, pg::oid::kUnspecified);  // the column it meets decides its type
  EXPECT_FALSE(s.binary);
  EXPECT_EQ(s.bytes, "x'); DROP TABLE users; --");
}

TEST(OrmWireParams, NullKeepsTheInnerTypesOid) {
  WireParam n = bind<Nullable<int64_t>>(Nullable<int64_t>());
  EXPECT_TRUE(n.null);
  EXPECT_EQ(n.oid, pg::oid::kInt8);
  WireParam v = bind<Nullable<int64_t>>(Nullable<int64_t>(int64_t(5)));
  EXPECT_FALSE(v.null);
  EXPECT_EQ(*pg::Codec<int64_t>::decode_binary(v.bytes), 5);
}

TEST(OrmWireParams, ListsBecomeArrayLiteralsTheServerParsesBack) {
  WireParam ints = bind<List<int64_t>>(List<int64_t>{1, -20, 300});
  EXPECT_EQ(ints.oid, pg::oid::kInt8Array);
  auto got = pg::Codec<pg::Int8Array>::decode_text(ints.bytes);
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, (pg::Int8Array{1, -20, 300}));

  List<Str> texts{Str("plain"), Str("with \"quote\""), Str("back\\slash"), Str("a,b"), Str("NULL"), Str("")};
  WireParam t = bind<List<Str>>(texts);
  EXPECT_EQ(t.oid, pg::oid::kTextArray);
  auto parsed = pg::parse_text_array(t.bytes);
  ASSERT_TRUE(parsed);
  ASSERT_EQ(parsed->size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    ASSERT_TRUE((*parsed)[i].has_value()) << i;  // quoted "NULL" is a string, not SQL NULL
    EXPECT_EQ(*(*parsed)[i], std_of(texts.vec()[i]));
  }
}

TEST(OrmWireParams, OtherTypesFallBackToTheDbModulesRules) {
  Map<Str, int64_t> m;
  m.set(Str("a"), 1);
  WireParam j = bind<Map<Str, int64_t>>(m);
  EXPECT_EQ(j.oid, pg::oid::kJsonb);
  EXPECT_EQ(j.bytes, "{\"a\":1}");
}

// Rows built cell by cell: column formats and OIDs as the server would describe them.
struct Rows {
  std::vector<std::string> bytes;  // kept alive for the cells
  WireRows r;
  Rows(std::vector<uint32_t> oids, std::vector<uint8_t> binary, std::vector<std::optional<std::string>> cells) {
    r.cols = oids.size();
    r.rows = cells.size() / r.cols;
    r.oids = std::move(oids);
    r.binary = std::move(binary);
    for (size_t c = 0; c < r.cols; ++c) r.names.push_back("c" + std::to_string(c));
    bytes.reserve(cells.size());
    for (auto& c : cells) {
      if (!c) {
        r.cells.push_back(WireCell{});
        continue;
      }
      bytes.push_back(*c);
      r.cells.push_back(WireCell{bytes.back().data(), int32_t(bytes.back().size())});
    }
  }
};

std::string be(uint64_t v, int n) {
  std::string s;
  for (int i = n - 1; i >= 0; --i) s.push_back(char((v >> (8 * i)) & 0xff));
  return s;
}

TEST(OrmWireGet, IntegersInBinaryOfEveryWidthAndInText) {
  Rows t({pg::oid::kInt8, pg::oid::kInt4, pg::oid::kInt2, pg::oid::kInt8},
         {1, 1, 1, 0}, {be(uint64_t(-7), 8), be(uint32_t(-70000), 4), be(uint16_t(-3), 2), std::string("123456789012")});
  EXPECT_EQ(wire_get<int64_t>(t.r, 0, 0, {}), -7);
  EXPECT_EQ(wire_get<int64_t>(t.r, 0, 1, {}), -70000);
  EXPECT_EQ(wire_get<int64_t>(t.r, 0, 2, {}), -3);
  EXPECT_EQ(wire_get<int64_t>(t.r, 0, 3, {}), 123456789012);
}

TEST(OrmWireGet, FloatsBoolsAndText) {
  double d = -2.5;
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  float f = 0.5f;
  uint32_t fbits;
  std::memcpy(&fbits, &f, 4);
  Rows t({pg::oid::kFloat8, pg::oid::kFloat4, pg::oid::kNumeric, pg::oid::kBool, pg::oid::kBool, pg::oid::kText},
         {1, 1, 0, 1, 0, 0}, {be(bits, 8), be(fbits, 4), std::string("12.750"), std::string(1, '\1'), std::string("f"),
                              std::string("héllo")});
  EXPECT_EQ(wire_get<double>(t.r, 0, 0, {}), -2.5);
  EXPECT_EQ(wire_get<double>(t.r, 0, 1, {}), 0.5);
  EXPECT_EQ(wire_get<double>(t.r, 0, 2, {}), 12.75);
  EXPECT_TRUE(wire_get<bool>(t.r, 0, 3, {}));
  EXPECT_FALSE(wire_get<bool>(t.r, 0, 4, {}));
  EXPECT_EQ(std_of(wire_get<Str>(t.r, 0, 5, {})), "héllo");
}

TEST(OrmWireGet, NullIsNullForNullableFieldsAndAnErrorOtherwise) {
  Rows t({pg::oid::kInt8, pg::oid::kText}, {1, 0}, {std::nullopt, std::nullopt});
  EXPECT_TRUE(wire_get<Nullable<int64_t>>(t.r, 0, 0, {}).is_null());
  EXPECT_TRUE(wire_get<Nullable<Str>>(t.r, 0, 1, {}).is_null());
  PanicMode before = set_panic_mode(PanicMode::Throw);
  try {
    (void)wire_get<int64_t>(t.r, 0, 0, {});
    ADD_FAILURE() << "a NULL read into an Int field";
  } catch (const Panic& p) {
    EXPECT_NE(std_of(p.message).find("column \"c0\""), std::string::npos) << std_of(p.message);
  }
  set_panic_mode(before);
}

TEST(OrmWireGet, ACellThatDoesNotFitNamesItsColumn) {
  Rows t({pg::oid::kText, pg::oid::kUuid}, {0, 1}, {std::string("abc"), std::string(16, 'x')});
  PanicMode before = set_panic_mode(PanicMode::Throw);
  EXPECT_THROW((void)wire_get<int64_t>(t.r, 0, 0, {}), Panic);
  EXPECT_THROW((void)wire_get<Str>(t.r, 0, 1, {}), Panic);  // a binary cell is no text
  set_panic_mode(before);
}

TEST(OrmWireGet, ListCellsGoThroughTheDbModulesCellRules) {
  Rows t({pg::oid::kInt8Array}, {0}, {std::string("{1,2,NULL}")});
  auto got = wire_get<List<Nullable<int64_t>>>(t.r, 0, 0, {});
  ASSERT_EQ(got.vec().size(), 3u);
  EXPECT_EQ(got.vec()[1].value(), 2);
  EXPECT_TRUE(got.vec()[2].is_null());
}

}  // namespace
}  // namespace fitz::orm
