// TypeStore: interning, display as users write types, compatibility and conversions, least
// upper bounds, unification of built-in signatures; and the built-in table parses.
#include <gtest/gtest.h>

#include "checker/builtins.h"
#include "checker/types.h"

namespace fitz::checker {
namespace {

class TypesTest : public testing::Test {
 protected:
  TypeStore t;
  TypeId I() { return t.int_(); }
  TypeId F() { return t.float_(); }
  TypeId S() { return t.str(); }
};

TEST_F(TypesTest, InternsStructurallyEqualTypes) {
  EXPECT_EQ(t.list(I()), t.list(I()));
  EXPECT_NE(t.list(I()), t.list(F()));
  EXPECT_EQ(t.map(S(), t.list(I())), t.map(S(), t.list(I())));
  TypeId a[] = {I(), S()};
  TypeId b[] = {I(), S()};
  EXPECT_EQ(t.tuple(a), t.tuple(b));
  EXPECT_EQ(t.fn(a, t.bool_()), t.fn(b, t.bool_()));
  EXPECT_NE(t.fn(a, t.bool_()), t.tuple(a));
  size_t before = t.size();
  t.list(I());
  EXPECT_EQ(before, t.size());
}

TEST_F(TypesTest, NullableNormalises) {
  EXPECT_EQ(t.nullable(t.nullable(I())), t.nullable(I()));
  EXPECT_EQ(t.nullable(t.null()), t.null());
  EXPECT_EQ(t.nullable(t.any()), t.any());
  EXPECT_EQ(t.non_null(t.nullable(S())), S());
}

TEST_F(TypesTest, DisplaysLikeSourceSyntax) {
  EXPECT_EQ(t.display(t.list(I())), "List<Int>");
  EXPECT_EQ(t.display(t.map(S(), I())), "Map<Str, Int>");
  EXPECT_EQ(t.display(t.nullable(I())), "Int?");
  EXPECT_EQ(t.display(t.result(I(), S())), "Result<Int, Str>");
  TypeId pair[] = {I(), S()};
  EXPECT_EQ(t.display(t.tuple(pair)), "(Int, Str)");
  TypeId one[] = {I()};
  EXPECT_EQ(t.display(t.tuple(one)), "(Int,)");
  EXPECT_EQ(t.display(t.tuple({})), "()");
  EXPECT_EQ(t.display(t.fn(one, S())), "Fn(Int) -> Str");
  EXPECT_EQ(t.display(t.nullable(t.fn(one, S()))), "(Fn(Int) -> Str)?");
  EXPECT_EQ(t.display(t.future(t.list(F()))), "Future<List<Float>>");
  // The missing side of Ok(e)/Err(e) shows as Any.
  EXPECT_EQ(t.display(t.result(I(), t.never())), "Result<Int, Any>");
}

TEST_F(TypesTest, StructsAreNominal) {
  StructInfo a;
  a.name = "User";
  StructInfo b;
  b.name = "User";
  TypeId ua = t.struct_type(t.add_struct(a));
  TypeId ub = t.struct_type(t.add_struct(b));
  EXPECT_NE(ua, ub);
  EXPECT_FALSE(t.compatible(ua, ub));
  EXPECT_EQ(t.display(ua), "User");
}

TEST_F(TypesTest, CompatibilityAndConversions) {
  EXPECT_TRUE(t.compatible(I(), F()));
  EXPECT_FALSE(t.compatible(F(), I()));
  EXPECT_EQ(t.conversion(I(), F()), ConvKind::IntToFloat);
  EXPECT_TRUE(t.compatible(t.null(), t.nullable(S())));
  EXPECT_TRUE(t.compatible(S(), t.nullable(S())));
  EXPECT_EQ(t.conversion(S(), t.nullable(S())), ConvKind::WrapNullable);
  EXPECT_FALSE(t.compatible(t.nullable(S()), S()));
  EXPECT_TRUE(t.compatible(S(), t.any()));
  EXPECT_EQ(t.conversion(S(), t.any()), ConvKind::ToAny);
  EXPECT_TRUE(t.compatible(t.any(), I()));
  EXPECT_EQ(t.conversion(t.any(), I()), ConvKind::FromAny);
  EXPECT_TRUE(t.compatible(t.list(I()), t.list(F())));
  EXPECT_EQ(t.conversion(t.list(I()), t.list(F())), ConvKind::Structural);
  EXPECT_TRUE(t.compatible(t.list(t.any()), t.list(I())));
  EXPECT_FALSE(t.compatible(t.list(S()), t.list(I())));
  EXPECT_TRUE(t.compatible(t.result(I(), t.never()), t.result(I(), S())));
  EXPECT_TRUE(t.compatible(t.error(), S()));
  EXPECT_TRUE(t.compatible(S(), t.error()));
  EXPECT_EQ(t.conversion(t.error(), S()), ConvKind::None);
}

TEST_F(TypesTest, LeastUpperBound) {
  EXPECT_EQ(t.lub(I(), I()), I());
  EXPECT_EQ(t.lub(I(), F()), F());
  EXPECT_EQ(t.lub(t.null(), I()), t.nullable(I()));
  EXPECT_EQ(t.lub(t.nullable(I()), F()), t.nullable(F()));
  EXPECT_EQ(t.lub(I(), S()), t.any());
  EXPECT_EQ(t.lub(t.list(I()), t.list(F())), t.list(F()));
  EXPECT_EQ(t.lub(t.result(I(), t.never()), t.result(t.never(), S())), t.result(I(), S()));
  EXPECT_EQ(t.lub(t.never(), S()), S());
  EXPECT_EQ(t.lub(t.error(), S()), S());
  EXPECT_EQ(t.lub(TypeId(), S()), S());
  EXPECT_EQ(t.lub(t.nullable(S()), I()), t.any());
}

TEST_F(TypesTest, UnifyBindsVariables) {
  Builtins b(t);
  std::vector<TypeId> bind;
  TypeId pattern = b.parse_type("List<T>");
  ASSERT_TRUE(pattern.valid());
  EXPECT_TRUE(t.unify(pattern, t.list(S()), bind));
  EXPECT_EQ(t.substitute(b.parse_type("Map<T, List<T>>"), bind), t.map(S(), t.list(S())));
  EXPECT_FALSE(t.unify(pattern, I(), bind));
  // Unbound variables stay unless a replacement is given.
  EXPECT_EQ(t.display(t.substitute(b.parse_type("List<U>"), bind)), "List<U>");
  EXPECT_EQ(t.substitute(b.parse_type("List<U>"), bind, t.any()), t.list(t.any()));
}

TEST(BuiltinTable, EverySignatureParsesAndHasADoc) {
  TypeStore t;
  Builtins b(t);  // aborts on a malformed row
  EXPECT_EQ(b.size(), builtin_entries().size());
  for (const BuiltinEntry& e : builtin_entries()) {
    EXPECT_FALSE(e.doc.empty()) << e.name;
    EXPECT_FALSE(e.runtime_symbol.empty()) << e.name;
  }
  auto print = b.function("print");
  ASSERT_TRUE(print.has_value());
  EXPECT_TRUE(b.sig(*print).params[0].variadic);
  auto map = b.methods(t.list(t.int_()), "map");
  ASSERT_EQ(map.size(), 1u);
  EXPECT_EQ(t.display(b.sig(map[0]).result), "List<U>");
  EXPECT_FALSE(b.methods(t.str(), "upper").empty());
  EXPECT_TRUE(b.methods(t.str(), "nope").empty());
  ASSERT_TRUE(b.nominal("Request").has_value());
  EXPECT_NE(t.struct_info(*b.nominal("Request")).field("headers"), nullptr);
}

}  // namespace
}  // namespace fitz::checker
