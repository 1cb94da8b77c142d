// Query values of the ORM (fitz/orm_query.h) joined into one statement: each fragment's `$n`
// shifted after the parameters before it, `where`s AND-joined, `order_by`s accumulated, the
// last `limit`/`offset` winning, and writes without a `where` refused.
#include <gtest/gtest.h>

#include "fitz/runtime.h"

namespace fitz::orm {
namespace {

std::string renumbered(const char* text, size_t by) {
  std::string out;
  append_renumbered(out, text, by);
  return out;
}

List<Any> values(std::initializer_list<Any> xs) {
  List<Any> out;
  for (const Any& x : xs) out.push(x);
  return out;
}

std::string shown(const auto& v) { return fitz::to_str(v).template as<std::string>(); }

TEST(OrmQueryValue, RenumbersPlaceholdersOutsideQuotes) {
  EXPECT_EQ(renumbered("(\"age\" > $1) AND (\"name\" = $2)", 3), "(\"age\" > $4) AND (\"name\" = $5)");
  EXPECT_EQ(renumbered("(\"a$1\" = $10)", 2), "(\"a$1\" = $12)");
  EXPECT_EQ(renumbered("(\"a\"\"$1\" = $1)", 1), "(\"a\"\"$1\" = $2)");
  EXPECT_EQ(renumbered("\"age\" DESC", 7), "\"age\" DESC");
}

TEST(OrmQueryValue, JoinsStepsBehindTheHead) {
  Any q = extend(Any(), "Query<User>", {Fragment{Fragment::Where, "(\"age\" > $1)", values({Any(18)})}}, {});
  Any q2 = extend(q, "Query<User>",
                  {Fragment{Fragment::Order, "\"age\" DESC", {}}, Fragment{Fragment::Limit, "", values({Any(5)})},
                   Fragment{Fragment::Where, "(\"name\" = $1 OR \"nick\" = $2)", values({Any("x"), Any("y")})},
                   Fragment{Fragment::Limit, "", values({Any(10)})}, Fragment{Fragment::Offset, "", values({Any(20)})}},
                  {});
  Assembled a = assemble(q2, "SELECT \"id\" FROM \"users\"", Shape::Select, List<Any>(), "all", {});
  EXPECT_EQ(a.sql, "SELECT \"id\" FROM \"users\" WHERE (\"age\" > $1) AND (\"name\" = $2 OR \"nick\" = $3) ORDER BY "
                   "\"age\" DESC LIMIT $4 OFFSET $5");
  EXPECT_EQ(shown(a.params), "[18, \"x\", \"y\", 10, 20]");
  EXPECT_TRUE(a.error.empty());
  // The value extended is unchanged.
  EXPECT_EQ(assemble(q, "SELECT 1 FROM \"users\"", Shape::Select, List<Any>(), "all", {}).sql,
            "SELECT 1 FROM \"users\" WHERE (\"age\" > $1)");
  EXPECT_EQ(assemble(q2, "SELECT \"id\" FROM \"users\"", Shape::First, List<Any>(), "first", {}).sql,
            "SELECT \"id\" FROM \"users\" WHERE (\"age\" > $1) AND (\"name\" = $2 OR \"nick\" = $3) ORDER BY "
            "\"age\" DESC LIMIT 1 OFFSET $4");
  EXPECT_EQ(assemble(q, "\"users\"", Shape::Count, List<Any>(), "count", {}).sql,
            "SELECT COUNT(*) FROM \"users\" WHERE (\"age\" > $1)");
  EXPECT_EQ(assemble(q2, "\"users\"", Shape::Count, List<Any>(), "count", {}).sql,
            "SELECT COUNT(*) FROM (SELECT 1 FROM \"users\" WHERE (\"age\" > $1) AND (\"name\" = $2 OR \"nick\" = $3) "
            "ORDER BY \"age\" DESC LIMIT $4 OFFSET $5) AS \"q\"");
}

TEST(OrmQueryValue, HeadParametersComeFirstAndWritesNeedAWhere) {
  Any q = extend(Any(), "Query<User>", {Fragment{Fragment::Where, "(\"id\" = $1)", values({Any(7)})}}, {});
  Assembled a = assemble(q, "UPDATE \"users\" SET \"age\" = $1", Shape::Write, values({Any(30)}), "update", {});
  EXPECT_EQ(a.sql, "UPDATE \"users\" SET \"age\" = $1 WHERE (\"id\" = $2)");
  EXPECT_EQ(shown(a.params), "[30, 7]");
  EXPECT_TRUE(a.error.empty());
  Any none = extend(Any(), "Query<User>", {Fragment{Fragment::Order, "\"id\"", {}}}, {});
  Assembled d = assemble(none, "DELETE FROM \"users\"", Shape::Write, List<Any>(), "delete", {});
  EXPECT_EQ(d.error, "delete: the query has no `where`, so it would change every row; add `.where(fn(_) => true)` to "
                     "mean every row");
  Any ordered = extend(q, "Query<User>", {Fragment{Fragment::Order, "\"id\"", {}}}, {});
  EXPECT_EQ(assemble(ordered, "DELETE FROM \"users\"", Shape::Write, List<Any>(), "delete", {}).error,
            "delete: a query with `order_by`, `limit` or `offset` cannot be used here");
  EXPECT_EQ(assemble(ordered, "SELECT SUM(\"age\")::float8 AS \"sum\" FROM \"users\"", Shape::Aggregate, List<Any>(),
                     "sum", {})
                .error,
            "sum: a query with `order_by`, `limit` or `offset` cannot be used here");
  EXPECT_EQ(shown(q), "<Query<User>>");
  EXPECT_EQ(shown(q.type_name()), "Query<User>");
}

TEST(OrmQueryValue, BulkColumnsSendFloatsAndBoolsAsText) {
  Any a = array_param({Any(1.5), Any(true), Any(int64_t(3)), Any()});
  EXPECT_EQ(shown(a), "[\"1.5\", \"true\", 3, null]");
}

}  // namespace
}  // namespace fitz::orm
