// The extended and simple query state machines driven by scripted server replies: bytes produced,
// statement cache reuse and eviction, results, errors (with SQL, without parameter values).
#include <gtest/gtest.h>

#include "pg/query.h"
#include "pg_test_util.h"

namespace fitz::pg {
namespace {
using namespace fitz::pg::test_support;

template <class Flow>
Status feed(Flow& flow, char tag, const std::string& body, std::string& out) {
  auto m = decode_message(tag, body);
  EXPECT_TRUE(m.ok());
  if (!m.ok()) return m.error();
  return flow.on_message(*m, out);
}

std::string field(std::string_view name, Oid type, Format format = Format::Binary) {
  return cstr(name) + be32(0) + be16(0) + be32(type) + be16(-1) + be32(-1) + be16(static_cast<int>(format));
}

std::string error_body(std::string_view code, std::string_view message) {
  return "SERROR" + std::string(1, '\0') + "VERROR" + std::string(1, '\0') + "C" + cstr(code) + "M" + cstr(message) +
         std::string(1, '\0');
}

// Feeds the replies to a successful "SELECT id, name" returning two rows.
void reply_two_rows(ExtendedQuery& q, bool parse, std::string& out) {
  if (parse) {
    ASSERT_TRUE(feed(q, '1', "", out).ok());
  }
  ASSERT_TRUE(feed(q, '2', "", out).ok());
  ASSERT_TRUE(feed(q, 'T', be16(2) + field("id", 20) + field("name", 25), out).ok());
  ASSERT_TRUE(feed(q, 'D', be16(2) + be32(8) + be64(1) + be32(3) + "ann", out).ok());
  ASSERT_TRUE(feed(q, 'D', be16(2) + be32(8) + be64(2) + be32(-1), out).ok());
  ASSERT_TRUE(feed(q, 'C', cstr("SELECT 2"), out).ok());
  ASSERT_FALSE(q.done());
  ASSERT_TRUE(feed(q, 'Z', "I", out).ok());
  ASSERT_TRUE(q.done());
}

constexpr std::string_view kSql = "SELECT id, name FROM users WHERE id > $1";

std::vector<Param> one_int_param(int64_t v) { return {*to_param(v)}; }

TEST(PgQuery, FirstRunParsesAndCachesSecondRunDoesNot) {
  StatementCache cache;
  std::string out;
  auto params = one_int_param(0);
  {
    ExtendedQuery q(kSql, cache);
    ASSERT_TRUE(q.start(params, out).ok());
    EXPECT_EQ(frontend_tags(out), "PBDES");
    auto frames = split_frontend(out);
    EXPECT_EQ(frames[0].second, cstr("fitz_1") + cstr(kSql) + be16(1) + be32(20));
    // Bind: unnamed portal, statement fitz_1, one binary param, one binary result format.
    EXPECT_EQ(frames[1].second, cstr("") + cstr("fitz_1") + be16(1) + be16(1) + be16(1) + be32(8) + be64(0) + be16(1) +
                                    be16(1));
    EXPECT_EQ(frames[2].second, "P" + cstr(""));
    EXPECT_EQ(frames[3].second, cstr("") + be32(0));
    EXPECT_TRUE(q.sent_parse());
    EXPECT_EQ(cache.size(), 0u);  // cached only once the server confirms the Parse
    out.clear();
    reply_two_rows(q, true, out);
    EXPECT_TRUE(out.empty());
    EXPECT_EQ(cache.size(), 1u);
    auto result = q.take_result();
    ASSERT_TRUE(result.ok()) << result.error().to_string();
    ASSERT_EQ(result->size(), 2u);
    ASSERT_EQ(result->columns.size(), 2u);
    EXPECT_EQ(result->columns[0].name, "id");
    EXPECT_EQ(result->columns[1].type_oid, oid::kText);
    EXPECT_EQ(result->command_tag, "SELECT 2");
    EXPECT_EQ(result->rows_affected, 2u);
    EXPECT_EQ(*result->row(0).get<int64_t>("id"), 1);
    EXPECT_EQ(*result->row(0).get<std::string>(1), "ann");
    EXPECT_EQ(*result->row(1).get<std::optional<std::string>>("name"), std::nullopt);
    EXPECT_FALSE(result->row(1).get<std::string>("name").ok());  // NULL into a non-optional
    EXPECT_FALSE(result->row(0).get<int64_t>("missing").ok());
    EXPECT_FALSE(result->row(0).get<int64_t>(7).ok());
    EXPECT_FALSE(result->row(0).get<double>("id").ok());  // wrong type
  }
  {
    ExtendedQuery q(kSql, cache);
    out.clear();
    ASSERT_TRUE(q.start(params, out).ok());
    EXPECT_EQ(frontend_tags(out), "BDES");  // no Parse: the statement is reused
    EXPECT_FALSE(q.sent_parse());
    EXPECT_EQ(split_frontend(out)[0].second.substr(0, 8), cstr("") + cstr("fitz_1"));
    out.clear();
    reply_two_rows(q, false, out);
    EXPECT_TRUE(q.take_result().ok());
  }
}

TEST(PgQuery, DifferentParameterTypesGetTheirOwnStatement) {
  StatementCache cache;
  std::string out;
  auto as_int = one_int_param(1);
  ExtendedQuery q1("SELECT $1", cache);
  ASSERT_TRUE(q1.start(as_int, out).ok());
  ASSERT_TRUE(feed(q1, '1', "", out).ok());
  std::vector<Param> as_text = {*to_param(std::string("x"))};
  ExtendedQuery q2("SELECT $1", cache);
  out.clear();
  ASSERT_TRUE(q2.start(as_text, out).ok());
  EXPECT_EQ(frontend_tags(out), "PBDES");
  EXPECT_EQ(split_frontend(out)[0].second.substr(0, 7), cstr("fitz_2"));
}

TEST(PgQuery, TextParametersSendNoFormatCodes) {
  StatementCache cache;
  std::string out;
  std::vector<Param> params = {Param::text("42"), Param::null()};
  ExtendedQuery q("SELECT $1, $2", cache, QueryOptions{Format::Text, false, 0});
  ASSERT_TRUE(q.start(params, out).ok());
  auto frames = split_frontend(out);
  ASSERT_EQ(frontend_tags(out), "PBDES");
  EXPECT_EQ(frames[0].second, cstr("") + cstr("SELECT $1, $2") + be16(2) + be32(0) + be32(0));  // unnamed
  EXPECT_EQ(frames[1].second, cstr("") + cstr("") + be16(0) + be16(2) + be32(2) + "42" + be32(-1) + be16(1) + be16(0));
}

TEST(PgQuery, FormatCodesAreCompressedWhenUniform) {
  StatementCache cache;
  std::string out;
  std::vector<Param> binary = {*to_param(int64_t{1}), *to_param(true)};
  ExtendedQuery q1("SELECT $1, $2", cache, QueryOptions{Format::Binary, false, 0});
  ASSERT_TRUE(q1.start(binary, out).ok());
  EXPECT_EQ(split_frontend(out)[1].second.substr(2, 4), be16(1) + be16(1));  // one code for all
  out.clear();
  std::vector<Param> mixed = {*to_param(int64_t{1}), Param::text("t", oid::kBool)};
  ExtendedQuery q2("SELECT $1, $2", cache, QueryOptions{Format::Binary, false, 0});
  ASSERT_TRUE(q2.start(mixed, out).ok());
  EXPECT_EQ(split_frontend(out)[1].second.substr(2, 6), be16(2) + be16(1) + be16(0));  // one code each
}

TEST(PgQuery, UncachedQueriesParseEveryTime) {
  StatementCache cache;
  for (int i = 0; i < 2; ++i) {
    std::string out;
    ExtendedQuery q("SELECT 1", cache, QueryOptions{Format::Binary, false, 0});
    ASSERT_TRUE(q.start({}, out).ok());
    EXPECT_EQ(frontend_tags(out), "PBDES");
    ASSERT_TRUE(feed(q, '1', "", out).ok());
  }
  EXPECT_EQ(cache.size(), 0u);
}

TEST(PgQuery, ParseErrorIsNotCachedAndCarriesSqlButNoParameters) {
  StatementCache cache;
  std::string out;
  std::vector<Param> params = {*to_param(std::string("secret-value"))};
  ExtendedQuery q("SELECT * FROM missing WHERE x = $1", cache);
  ASSERT_TRUE(q.start(params, out).ok());
  ASSERT_TRUE(feed(q, 'E', error_body("42P01", "relation \"missing\" does not exist"), out).ok());
  EXPECT_FALSE(q.done());
  ASSERT_TRUE(feed(q, 'Z', "I", out).ok());
  ASSERT_TRUE(q.done());
  auto result = q.take_result();
  ASSERT_FALSE(result.ok());
  const Error& e = result.error();
  EXPECT_EQ(e.kind, ErrorKind::Server);
  EXPECT_EQ(e.sqlstate, "42P01");
  EXPECT_EQ(e.sql, "SELECT * FROM missing WHERE x = $1");
  EXPECT_EQ(e.to_string().find("secret-value"), std::string::npos);
  EXPECT_NE(e.to_string().find("SQLSTATE 42P01"), std::string::npos);
  EXPECT_EQ(e.summary(), "ERROR: relation \"missing\" does not exist");
  EXPECT_EQ(cache.size(), 0u);
}

TEST(PgQuery, ErrorAfterParseCompleteKeepsTheStatement) {
  StatementCache cache;
  std::string out;
  auto params = one_int_param(1);
  ExtendedQuery q("INSERT INTO t VALUES ($1)", cache);
  ASSERT_TRUE(q.start(params, out).ok());
  ASSERT_TRUE(feed(q, '1', "", out).ok());
  ASSERT_TRUE(feed(q, '2', "", out).ok());
  ASSERT_TRUE(feed(q, 'n', "", out).ok());
  ASSERT_TRUE(feed(q, 'E', error_body("23505", "duplicate key value violates unique constraint \"t_pkey\""), out).ok());
  ASSERT_TRUE(feed(q, 'Z', "I", out).ok());
  auto result = q.take_result();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().sqlstate, "23505");
  EXPECT_EQ(cache.size(), 1u);
}

TEST(PgQuery, StaleCachedStatementIsDroppedAndClosed) {
  StatementCache cache;
  cache.insert("SELECT 1", {}, "fitz_9");
  std::string out;
  ExtendedQuery q("SELECT 1", cache);
  ASSERT_TRUE(q.start({}, out).ok());
  EXPECT_EQ(frontend_tags(out), "BDES");
  ASSERT_TRUE(feed(q, 'E', error_body("26000", "prepared statement \"fitz_9\" does not exist"), out).ok());
  ASSERT_TRUE(feed(q, 'Z', "I", out).ok());
  EXPECT_FALSE(q.take_result().ok());
  EXPECT_EQ(cache.size(), 0u);

  ExtendedQuery again("SELECT 1", cache);
  out.clear();
  ASSERT_TRUE(again.start({}, out).ok());
  EXPECT_EQ(frontend_tags(out), "CPBDES");  // close the old name, parse afresh
  EXPECT_EQ(split_frontend(out)[0].second, "S" + cstr("fitz_9"));
  ASSERT_TRUE(feed(again, '3', "", out).ok());
  ASSERT_TRUE(feed(again, '1', "", out).ok());
  ASSERT_TRUE(feed(again, '2', "", out).ok());
  ASSERT_TRUE(feed(again, 'n', "", out).ok());
  ASSERT_TRUE(feed(again, 'C', cstr("SELECT 1"), out).ok());
  ASSERT_TRUE(feed(again, 'Z', "I", out).ok());
  EXPECT_TRUE(again.take_result().ok());
  EXPECT_EQ(cache.size(), 1u);
}

TEST(PgQuery, LeastRecentlyUsedStatementIsEvicted) {
  StatementCache cache(2);
  cache.insert("a", {}, "s_a");
  cache.insert("b", {}, "s_b");
  EXPECT_TRUE(cache.find("a", {}).has_value());  // a is now most recent
  cache.insert("c", {}, "s_c");                   // evicts b
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_FALSE(cache.find("b", {}).has_value());
  EXPECT_EQ(cache.take_pending_closes(), std::vector<std::string>{"s_b"});
  EXPECT_TRUE(cache.take_pending_closes().empty());
}

TEST(PgQuery, NoDataCommandReportsAffectedRows) {
  StatementCache cache;
  std::string out;
  ExtendedQuery q("UPDATE t SET x = 1", cache);
  ASSERT_TRUE(q.start({}, out).ok());
  for (auto [tag, body] : std::vector<std::pair<char, std::string>>{
           {'1', ""}, {'2', ""}, {'n', ""}, {'C', cstr("UPDATE 7")}, {'Z', "T"}})
    ASSERT_TRUE(feed(q, tag, body, out).ok());
  auto result = q.take_result();
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->rows_affected, 7u);
  EXPECT_TRUE(result->columns.empty());
  EXPECT_EQ(q.transaction_status(), TransactionStatus::InTransaction);
}

TEST(PgQuery, AsyncMessagesAreIgnoredByTheFlow) {
  StatementCache cache;
  std::string out;
  ExtendedQuery q("SELECT 1", cache);
  ASSERT_TRUE(q.start({}, out).ok());
  ASSERT_TRUE(feed(q, 'N', "Mnotice" + std::string(2, '\0'), out).ok());
  ASSERT_TRUE(feed(q, 'A', be32(1) + cstr("ch") + cstr("x"), out).ok());
  ASSERT_TRUE(feed(q, 'S', cstr("TimeZone") + cstr("UTC"), out).ok());
  ASSERT_TRUE(feed(q, '1', "", out).ok());
}

TEST(PgQuery, ProtocolViolations) {
  StatementCache cache;
  std::string out;
  {
    ExtendedQuery q("SELECT 1", cache, QueryOptions{Format::Binary, false, 0});
    ASSERT_TRUE(q.start({}, out).ok());
    ASSERT_TRUE(feed(q, '1', "", out).ok());
    auto s = feed(q, 'D', be16(0), out);  // DataRow before BindComplete
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().kind, ErrorKind::Protocol);
    EXPECT_TRUE(q.done());
    EXPECT_FALSE(q.take_result().ok());
  }
  {
    ExtendedQuery q("SELECT 1", cache, QueryOptions{Format::Binary, false, 0});
    ASSERT_TRUE(q.start({}, out).ok());
    EXPECT_FALSE(feed(q, 'Z', "I", out).ok());  // ReadyForQuery before the round completed
  }
  {
    ExtendedQuery q("SELECT 1", cache, QueryOptions{Format::Binary, false, 0});
    ASSERT_TRUE(q.start({}, out).ok());
    ASSERT_TRUE(feed(q, '1', "", out).ok());
    ASSERT_TRUE(feed(q, '2', "", out).ok());
    ASSERT_TRUE(feed(q, 'T', be16(1) + field("a", 23), out).ok());
    EXPECT_FALSE(feed(q, 'D', be16(2) + be32(-1) + be32(-1), out).ok());  // column count mismatch
  }
  {
    ExtendedQuery q("SELECT 1", cache);
    EXPECT_FALSE(feed(q, '1', "", out).ok());  // before start()
  }
}

TEST(PgQuery, CopyInIsFailedAndResynced) {
  StatementCache cache;
  std::string out;
  ExtendedQuery q("COPY t FROM STDIN", cache, QueryOptions{Format::Binary, false, 0});
  ASSERT_TRUE(q.start({}, out).ok());
  out.clear();
  ASSERT_TRUE(feed(q, '1', "", out).ok());
  ASSERT_TRUE(feed(q, '2', "", out).ok());
  ASSERT_TRUE(feed(q, 'n', "", out).ok());
  ASSERT_TRUE(feed(q, 'G', bytes({0}) + be16(0), out).ok());
  EXPECT_EQ(frontend_tags(out), "fS");
  ASSERT_TRUE(feed(q, 'E', error_body("57014", "COPY from stdin failed"), out).ok());
  ASSERT_TRUE(feed(q, 'Z', "I", out).ok());
  auto result = q.take_result();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::Unsupported);
}

TEST(PgQuery, StartFailureLeavesBufferUnchanged) {
  StatementCache cache;
  cache.insert("x", {}, "old");
  cache.insert("y", {}, "older");
  cache.erase("x", {});  // queues a Close
  std::string out = "keep";
  ExtendedQuery q(std::string_view("SELECT '\0'", 10), cache);
  EXPECT_FALSE(q.start({}, out).ok());
  EXPECT_EQ(out, "keep");
  EXPECT_TRUE(q.done());
  EXPECT_EQ(cache.take_pending_closes(), std::vector<std::string>{"old"});  // still queued
}

TEST(PgQuery, RowLimitAndPortalSuspended) {
  StatementCache cache;
  std::string out;
  ExtendedQuery q("SELECT generate_series(1, 10)", cache, QueryOptions{Format::Binary, true, 1});
  ASSERT_TRUE(q.start({}, out).ok());
  EXPECT_EQ(split_frontend(out)[3].second, cstr("") + be32(1));
  for (auto [tag, body] : std::vector<std::pair<char, std::string>>{
           {'1', ""}, {'2', ""}, {'T', be16(1) + field("g", 23)}, {'D', be16(1) + be32(4) + be32(1)}, {'s', ""},
           {'Z', "I"}})
    ASSERT_TRUE(feed(q, tag, body, out).ok());
  auto result = q.take_result();
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->suspended);
  EXPECT_EQ(*result->row(0).get<int32_t>(0), 1);
}

// ---- SimpleQuery --------------------------------------------------------------------------

TEST(PgSimpleQuery, SeveralStatements) {
  SimpleQuery q("SELECT 1; CREATE TABLE x(); SELECT 'a', NULL");
  std::string out;
  ASSERT_TRUE(q.start(out).ok());
  EXPECT_EQ(out, bytes({'Q'}) + be32(4 + 45) + cstr("SELECT 1; CREATE TABLE x(); SELECT 'a', NULL"));
  for (auto [tag, body] : std::vector<std::pair<char, std::string>>{
           {'T', be16(1) + field("?column?", 23, Format::Text)},
           {'D', be16(1) + be32(1) + "1"},
           {'C', cstr("SELECT 1")},
           {'C', cstr("CREATE TABLE")},
           {'T', be16(2) + field("a", 25, Format::Text) + field("b", 25, Format::Text)},
           {'D', be16(2) + be32(1) + "a" + be32(-1)},
           {'C', cstr("SELECT 1")},
           {'Z', "I"}})
    ASSERT_TRUE(feed(q, tag, body, out).ok());
  ASSERT_TRUE(q.done());
  auto results = q.take_results();
  ASSERT_TRUE(results.ok());
  ASSERT_EQ(results->size(), 3u);
  EXPECT_EQ(*(*results)[0].row(0).get<int32_t>(0), 1);
  EXPECT_EQ((*results)[1].command_tag, "CREATE TABLE");
  EXPECT_FALSE((*results)[1].rows_affected.has_value());
  EXPECT_EQ(*(*results)[2].row(0).get<std::string>("a"), "a");
  EXPECT_FALSE((*results)[2].row(0).raw("b")->has_value());
}

TEST(PgSimpleQuery, EmptyQueryAndErrors) {
  {
    SimpleQuery q("");
    std::string out;
    ASSERT_TRUE(q.start(out).ok());
    ASSERT_TRUE(feed(q, 'I', "", out).ok());
    ASSERT_TRUE(feed(q, 'Z', "I", out).ok());
    auto results = q.take_results();
    ASSERT_TRUE(results.ok());
    EXPECT_EQ(results->size(), 1u);
  }
  {
    SimpleQuery q("SELECT 1/0");
    std::string out;
    ASSERT_TRUE(q.start(out).ok());
    ASSERT_TRUE(feed(q, 'T', be16(1) + field("x", 23, Format::Text), out).ok());
    ASSERT_TRUE(feed(q, 'E', error_body("22012", "division by zero"), out).ok());
    ASSERT_TRUE(feed(q, 'Z', "E", out).ok());
    auto results = q.take_results();
    ASSERT_FALSE(results.ok());
    EXPECT_EQ(results.error().sqlstate, "22012");
    EXPECT_EQ(results.error().sql, "SELECT 1/0");
    EXPECT_EQ(q.transaction_status(), TransactionStatus::Failed);
  }
  {
    SimpleQuery q("SELECT 1");
    std::string out;
    ASSERT_TRUE(q.start(out).ok());
    EXPECT_FALSE(feed(q, 'D', be16(0), out).ok());  // DataRow without RowDescription
  }
}

}  // namespace
}  // namespace fitz::pg
