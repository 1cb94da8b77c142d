// The `db` module as generated code reaches it (through Any): parameters from Fitz values, row
// accessors by column type, error texts, and a round trip on the program loop against the
// server from FITZ_TEST_DATABASE_URL.
#include <gtest/gtest.h>

#include <cstdlib>

#include "fitz/runtime.h"
#include "pg/fitz_db_internal.h"

namespace fitz::db {
namespace {

std::string std_of(const Str& s) { return std::string(s.data(), s.size()); }

TEST(DbParams, FitzValuesBecomeTypedOrUntypedParameters) {
  auto p = params_from_any(to_any(List<Any>{Any(int64_t(7)), Any(2.5), Any(true), Any(), Any(Str::lit("x'y"))}));
  ASSERT_TRUE(p.is_ok()) << std_of(p.error());
  const auto& v = p.value();
  ASSERT_EQ(v.size(), 5u);
  EXPECT_EQ(v[0].type, pg::oid::kInt8);
  EXPECT_EQ(v[0].format, pg::Format::Binary);
  EXPECT_EQ(v[1].type, pg::oid::kFloat8);
  EXPECT_EQ(v[2].type, pg::oid::kBool);
  EXPECT_FALSE(v[3].value.has_value());
  // Text goes untyped so the server infers the column type (timestamps, uuids, numerics).
  EXPECT_EQ(v[4].type, pg::oid::kUnspecified);
  EXPECT_EQ(v[4].format, pg::Format::Text);
  EXPECT_EQ(*v[4].value, "x'y");
}

TEST(DbParams, ListsBecomeArraysAndOtherValuesAreRefused) {
  auto ints = param_from_any(to_any(List<Any>{Any(int64_t(1)), Any()}), 0);
  ASSERT_TRUE(ints.is_ok());
  EXPECT_EQ(ints.value().type, pg::oid::kInt8Array);
  auto strs = param_from_any(to_any(List<Str>{Str::lit("a"), Str::lit("b")}), 0);
  ASSERT_TRUE(strs.is_ok());
  EXPECT_EQ(strs.value().type, pg::oid::kTextArray);
  auto mixed = param_from_any(to_any(List<Any>{Any(int64_t(1)), Any(Str::lit("a"))}), 2);
  ASSERT_FALSE(mixed.is_ok());
  EXPECT_NE(std_of(mixed.error()).find("parameter $3"), std::string::npos) << std_of(mixed.error());
  Map<Str, Any> m;
  m.set(Str::lit("name"), Any(Str::lit("a \"q\"\n")));
  m.set(Str::lit("tags"), to_any(List<Any>{Any(int64_t(1)), Any(), Any(true), Any(1.5)}));
  auto map = param_from_any(to_any(m), 0);
  ASSERT_TRUE(map.is_ok()) << std_of(map.error());
  EXPECT_EQ(map.value().type, pg::oid::kJsonb);
  EXPECT_EQ(*map.value().value, R"({"name":"a \"q\"\u000a","tags":[1,null,true,1.5]})");
  Map<int64_t, int64_t> int_keys;
  int_keys.set(1, 2);
  auto bad_keys = param_from_any(to_any(int_keys), 0);
  ASSERT_FALSE(bad_keys.is_ok());
  EXPECT_NE(std_of(bad_keys.error()).find("keys must be Str"), std::string::npos) << std_of(bad_keys.error());
  auto range = param_from_any(to_any(Range(0, 3)), 0);
  ASSERT_FALSE(range.is_ok());
  EXPECT_NE(std_of(range.error()).find("cannot send a Range"), std::string::npos) << std_of(range.error());
  auto not_a_list = params_from_any(Any(int64_t(3)));
  EXPECT_FALSE(not_a_list.is_ok());
}

TEST(DbErrors, UnreachableAndStatementErrorsReadDifferently) {
  Str down = error_text(pg::Error::make(pg::ErrorKind::Io, pg::sqlstate::kUnableToConnect, "refused"));
  EXPECT_EQ(std_of(down), "database unavailable: refused");
  EXPECT_TRUE(db_unavailable(down));
  pg::NoticeFields f;
  f.severity = "ERROR";
  f.code = "23505";
  f.message = "duplicate key";
  f.detail = "Key (id)=(1) already exists.";
  Str dup = error_text(pg::Error::from_server(f));
  EXPECT_EQ(std_of(dup), "ERROR: duplicate key (SQLSTATE 23505); DETAIL: Key (id)=(1) already exists.");
  EXPECT_FALSE(db_unavailable(dup));
  f.severity = "FATAL";
  f.code = "57P01";
  f.message = "terminating connection due to administrator command";
  f.detail.clear();
  EXPECT_TRUE(db_unavailable(error_text(pg::Error::from_server(f))));
}

// Failing to lease a connection is always "unavailable" (503 from handlers), with the reason kept:
// a refused password or an unknown database as much as a server that is down.
TEST(DbErrors, RefusedSessionsAreUnavailable) {
  pg::NoticeFields f;
  f.severity = "FATAL";
  f.code = "28P01";
  f.message = "password authentication failed for user \"app\"";
  Str refused = acquire_error_text(pg::Error::from_server(f));
  EXPECT_EQ(std_of(refused), "database unavailable: FATAL: password authentication failed for user \"app\" (SQLSTATE 28P01)");
  EXPECT_TRUE(db_unavailable(refused));
  EXPECT_FALSE(db_unavailable(error_text(pg::Error::from_server(f))));  // a statement's error stays as it is
  Str down = acquire_error_text(pg::Error::make(pg::ErrorKind::Io, pg::sqlstate::kUnableToConnect, "refused"));
  EXPECT_EQ(std_of(down), "database unavailable: refused");
}

template <class T>
T await_any(const Any& task) {
  return block_on(from_any<Task<T>>(task));
}

TEST(DbModule, QueryRowsDecodeByColumnType) {
  const char* url = std::getenv("FITZ_TEST_DATABASE_URL");
  ASSERT_TRUE(url && *url) << "FITZ_TEST_DATABASE_URL is not set; run scripts/pg-local.sh start and export it";
  auto conn = await_any<Result<Any, Str>>(any_method(db_module(), "connect", {Any(Str(url))}));
  ASSERT_TRUE(conn.is_ok()) << std_of(conn.error());
  EXPECT_EQ(std_of(conn.value().type_name()), "DbConn");
  auto rows = await_any<Result<List<Any>, Str>>(any_method(
      conn.value(), "query",
      {Any(Str::lit("SELECT 1::int2 AS a, 2.5::float8 AS b, true AS c, NULL::text AS d, ARRAY[1, NULL]::int8[] AS e, "
                    "'{x,NULL}'::text[] AS f, 12.50::numeric AS g, $1::text AS h")),
       to_any(List<Any>{Any(Str::lit("it's"))})}));
  ASSERT_TRUE(rows.is_ok()) << std_of(rows.error());
  ASSERT_EQ(rows.value().len(), 1);
  Any row = rows.value().vec()[0];
  auto get = [&](const char* column) { return any_method(row, "get", {Any(Str(column))}); };
  EXPECT_TRUE(get("a").is_int());
  EXPECT_EQ(get("a").int_value(), 1);
  EXPECT_TRUE(get("b").is_float());
  EXPECT_TRUE(get("c").is_bool());
  EXPECT_TRUE(get("d").is_null());
  EXPECT_EQ(std_of(to_str(get("e"))), "[1, null]");
  EXPECT_EQ(std_of(to_str(get("f"))), "[\"x\", null]");
  EXPECT_EQ(std_of(get("g").str_value()), "12.50");  // numeric stays exact text
  EXPECT_EQ(std_of(get("h").str_value()), "it's");
  EXPECT_EQ(any_method(row, "len", {}).int_value(), 8);

  auto typed = [&](const char* method, const char* column) {
    return any_method(row, method, {Any(Str(column))});
  };
  EXPECT_EQ(std_of(to_str(typed("get_float", "g"))), "Ok(12.5)");
  EXPECT_EQ(std_of(to_str(typed("get_int", "a"))), "Ok(1)");
  EXPECT_EQ(std_of(to_str(typed("get_str", "d"))), R"(Err("column \"d\": is NULL"))");
  EXPECT_EQ(std_of(to_str(typed("get_int", "h"))), R"(Err("column \"h\": a text value cannot be read as Int"))");
  EXPECT_NE(std_of(to_str(typed("get_bool", "zz"))).find("no such column"), std::string::npos);

  Map<Str, Any> doc;
  doc.set(Str::lit("name"), Any(Str::lit("Ada")));
  auto json = await_any<Result<List<Any>, Str>>(any_method(
      conn.value(), "query", {Any(Str::lit("SELECT $1->>'name' AS name")), to_any(List<Any>{to_any(doc)})}));
  ASSERT_TRUE(json.is_ok()) << std_of(json.error());
  EXPECT_EQ(std_of(any_method(json.value().vec()[0], "get", {Any(Str::lit("name"))}).str_value()), "Ada");

  auto count = await_any<Result<int64_t, Str>>(
      any_method(conn.value(), "exec", {Any(Str::lit("SELECT * FROM generate_series(1, 3)"))}));
  ASSERT_TRUE(count.is_ok());
  EXPECT_EQ(count.value(), 3);
  any_method(conn.value(), "close", {});
  EXPECT_TRUE(any_method(conn.value(), "is_closed", {}).bool_value());
  auto after = await_any<Result<int64_t, Str>>(any_method(conn.value(), "exec", {Any(Str::lit("SELECT 1"))}));
  ASSERT_FALSE(after.is_ok());
  EXPECT_EQ(std_of(after.error()), "the connection was closed");
}

}  // namespace
}  // namespace fitz::db
