// End-to-end tests of the protocol layer against a real server through BlockingConnection.
// The server comes from FITZ_TEST_DATABASE_URL (scripts/pg-local.sh start prints one); without it
// these tests fail, on purpose, rather than skip.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <thread>

#include "pg/blocking_conn.h"
#include "pg_test_util.h"

namespace fitz::pg {
namespace {
using namespace fitz::pg::test_support;

std::string database_url() {
  const char* url = std::getenv("FITZ_TEST_DATABASE_URL");
  return url ? url : "";
}

class PgE2E : public testing::Test {
 protected:
  void SetUp() override {
    url_ = database_url();
    ASSERT_FALSE(url_.empty()) << "FITZ_TEST_DATABASE_URL is not set; run `scripts/pg-local.sh start` and export "
                                  "the URL it prints (these tests need a real Postgres)";
    auto c = BlockingConnection::connect(url_);
    ASSERT_TRUE(c.ok()) << "cannot connect to " << url_ << ": " << c.error().to_string();
    conn_.emplace(std::move(*c));
  }

  BlockingConnection& conn() { return *conn_; }

  QueryResult must_query(std::string_view sql, std::span<const Param> params = {}, QueryOptions options = {}) {
    auto r = conn().query(sql, params, options);
    EXPECT_TRUE(r.ok()) << r.error().to_string();
    return r.ok() ? std::move(*r) : QueryResult{};
  }

  void must_exec(std::string_view sql) {
    auto r = conn().simple_query(sql);
    ASSERT_TRUE(r.ok()) << r.error().to_string();
  }

  std::string url_;
  std::optional<BlockingConnection> conn_;
};

template <class T>
Param param(const T& v, Format f = Format::Binary) {
  auto p = to_param(v, f);
  EXPECT_TRUE(p.ok());
  return p.ok() ? std::move(*p) : Param{};
}

TEST_F(PgE2E, ConnectAndSimpleQuery) {
  const SessionInfo& s = conn().session();
  EXPECT_TRUE(s.parameters.contains("server_version"));
  EXPECT_EQ(s.parameters.at("client_encoding"), "UTF8");
  EXPECT_EQ(s.parameters.at("application_name"), "fitz");
  EXPECT_NE(s.process_id, 0);
  EXPECT_EQ(s.secret_key.size(), 4u);
  EXPECT_EQ(s.status, TransactionStatus::Idle);

  auto results = conn().simple_query("SELECT 1 AS one, 'x' AS s, NULL::int AS n; SELECT 2; SET application_name = 'e2e'");
  ASSERT_TRUE(results.ok()) << results.error().to_string();
  ASSERT_EQ(results->size(), 3u);
  const QueryResult& first = (*results)[0];
  EXPECT_EQ(first.columns[0].name, "one");
  EXPECT_EQ(first.columns[0].format, Format::Text);
  EXPECT_EQ(*first.row(0).get<int32_t>("one"), 1);
  EXPECT_EQ(*first.row(0).get<std::string>("s"), "x");
  EXPECT_EQ(*first.row(0).get<std::optional<int32_t>>("n"), std::nullopt);
  EXPECT_EQ((*results)[0].command_tag, "SELECT 1");
  EXPECT_EQ(*(*results)[1].row(0).get<int32_t>(0), 2);
  EXPECT_EQ((*results)[2].command_tag, "SET");
  // ParameterStatus sent after startup is tracked by the connection.
  EXPECT_EQ(conn().session().parameters.at("application_name"), "e2e");
}

// Every supported type, sent as a binary parameter and read back in binary and in text.
TEST_F(PgE2E, ExtendedQueryRoundTripsEveryType) {
  must_exec("SET TimeZone = 'Asia/Kolkata'");  // +05:30, so text timestamps carry a real offset
  Bytea all_bytes;
  for (int i = 0; i < 256; ++i) all_bytes.bytes.push_back(static_cast<char>(i));
  Uuid uuid = *Codec<Uuid>::decode_text("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
  Timestamptz tz = *Codec<Timestamptz>::decode_text("2026-06-17 12:34:56.123456+00");
  Timestamp ts = *Codec<Timestamp>::decode_text("1999-12-31 23:59:59.5");
  Date bc = Date::from_civil({-43, 3, 15});
  Int8Array ints = {INT64_MIN, std::nullopt, 0, INT64_MAX};
  TextArray texts = {"plain", "", std::nullopt, "NULL", "a,b", "quote\"d", "back\\slash", "{}", " spaced "};

  std::vector<Param> params = {
      param(int16_t{-32768}),
      param(int32_t{2147483647}),
      param(INT64_MIN),
      param(3.5f),
      param(-1.0e300),
      param(true),
      param(std::string("héllo wörld")),
      param(all_bytes),
      param(Numeric{"-12345678901234567890.000123"}),
      param(tz),
      param(ts),
      param(bc),
      param(uuid),
      param(Json{"{\"a\":  [1, 2]}"}),
      param(Jsonb{"{\"k\": [1, \"v\"]}"}),
      param(ints),
      param(texts),
      param(Int8Array{}),
      param(std::numeric_limits<double>::quiet_NaN()),
      param(-std::numeric_limits<float>::infinity()),
      param(Timestamptz{Timestamptz::kInfinity}),
  };
  std::string sql = "SELECT ";
  for (std::size_t i = 1; i <= params.size(); ++i) sql += (i > 1 ? ", $" : "$") + std::to_string(i);

  for (Format result_format : {Format::Binary, Format::Text}) {
    SCOPED_TRACE(result_format == Format::Binary ? "binary results" : "text results");
    QueryResult r = must_query(sql, params, QueryOptions{result_format, true, 0});
    ASSERT_EQ(r.size(), 1u);
    ASSERT_EQ(r.columns.size(), params.size());
    Row row = r.row(0);
    EXPECT_EQ(r.columns[2].type_oid, oid::kInt8);
    EXPECT_EQ(r.columns[2].format, result_format);
    EXPECT_EQ(*row.get<int16_t>(0), -32768);
    EXPECT_EQ(*row.get<int32_t>(1), 2147483647);
    EXPECT_EQ(*row.get<int64_t>(2), INT64_MIN);
    EXPECT_EQ(*row.get<float>(3), 3.5f);
    EXPECT_EQ(*row.get<double>(4), -1.0e300);
    EXPECT_EQ(*row.get<bool>(5), true);
    EXPECT_EQ(*row.get<std::string>(6), "héllo wörld");
    EXPECT_EQ(*row.get<Bytea>(7), all_bytes);
    EXPECT_EQ(row.get<Numeric>(8)->text, "-12345678901234567890.000123");
    EXPECT_EQ(*row.get<Timestamptz>(9), tz);
    EXPECT_EQ(*row.get<Timestamp>(10), ts);
    EXPECT_EQ(*row.get<Date>(11), bc);
    EXPECT_EQ(*row.get<Uuid>(12), uuid);
    EXPECT_EQ(row.get<Json>(13)->text, "{\"a\":  [1, 2]}");  // json keeps its text
    EXPECT_EQ(row.get<Jsonb>(14)->text, "{\"k\": [1, \"v\"]}");
    EXPECT_EQ(*row.get<Int8Array>(15), ints);
    EXPECT_EQ(*row.get<TextArray>(16), texts);
    EXPECT_EQ(*row.get<Int8Array>(17), Int8Array{});
    EXPECT_TRUE(std::isnan(*row.get<double>(18)));
    EXPECT_EQ(*row.get<float>(19), -std::numeric_limits<float>::infinity());
    EXPECT_EQ(row.get<Timestamptz>(20)->micros, Timestamptz::kInfinity);
  }
  // The server's own text rendering of a few values, as the spec describes them.
  QueryResult text = must_query("SELECT $1::text, $2::text, $3::text", std::vector<Param>{params[9], params[11], params[7]},
                                QueryOptions{Format::Text, true, 0});
  EXPECT_EQ(*text.row(0).get<std::string>(0), "2026-06-17 18:04:56.123456+05:30");
  EXPECT_EQ(*text.row(0).get<std::string>(1), "0044-03-15 BC");
  EXPECT_EQ(text.row(0).get<std::string>(2)->substr(0, 8), "\\x000102");
}

// Our text encoders produce what the server parses: text-format parameters with explicit types.
TEST_F(PgE2E, TextParametersAreUnderstoodByTheServer) {
  auto text = [](auto v, Oid type) {
    std::string out;
    EXPECT_TRUE(Codec<decltype(v)>::encode_text(out, v).ok());
    return Param::text(out, type);
  };
  Bytea bytes{std::string("\0\x01\xff\\x", 5)};
  std::vector<Param> params = {
      text(INT64_MIN, oid::kInt8),
      text(0.1, oid::kFloat8),
      text(Bytea{bytes}, oid::kBytea),
      text(*Codec<Timestamptz>::decode_text("2000-02-29 01:02:03.000004+00"), oid::kTimestamptz),
      text(Date::from_civil({-43, 3, 15}), oid::kDate),
      text(TextArray{"a b", std::nullopt, "NULL", "\"", "\\"}, oid::kTextArray),
      text(Int8Array{1, std::nullopt}, oid::kInt8Array),
      text(std::numeric_limits<double>::infinity(), oid::kFloat8),
  };
  QueryResult r = must_query(
      "SELECT $1 = -9223372036854775808, $2 = 0.1::float8, $3 = '\\x0001ff5c78'::bytea, "
      "$4 = '2000-02-29 01:02:03.000004+00'::timestamptz, $5 = '0044-03-15 BC'::date, "
      "$6 = ARRAY['a b', NULL, 'NULL', '\"', '\\']::text[], $7 = ARRAY[1, NULL]::int8[], $8 = 'Infinity'",
      params);
  ASSERT_EQ(r.size(), 1u);
  // (Array equality treats two NULL elements as equal.)
  for (std::size_t i = 0; i < r.columns.size(); ++i) EXPECT_EQ(*r.row(0).get<bool>(i), true) << "parameter $" << i + 1;
  QueryResult arr = must_query("SELECT $1::int8[]", std::vector<Param>{params[6]});
  EXPECT_EQ(*arr.row(0).get<Int8Array>(0), (Int8Array{1, std::nullopt}));
}

TEST_F(PgE2E, NumericCanonicalText) {
  for (const char* v : {"0", "0.000", "-1.5", "123456789012345678901234567890.123456789", "1e-10", "NaN", "Infinity"}) {
    QueryResult r = must_query("SELECT $1::numeric::text, $1::numeric", std::vector<Param>{param(Numeric{v})});
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r.row(0).get<Numeric>(1)->text, *r.row(0).get<std::string>(0)) << v;
  }
}

TEST_F(PgE2E, StatementCacheReusesPreparedStatements) {
  const std::string sql = "SELECT $1::int8 + 1 AS next";
  QueryResult first = must_query(sql, std::vector<Param>{param(int64_t{41})});
  EXPECT_EQ(frontend_tags(conn().last_request()), "PBDES");
  EXPECT_EQ(*first.row(0).get<int64_t>("next"), 42);
  QueryResult second = must_query(sql, std::vector<Param>{param(int64_t{99})});
  EXPECT_EQ(frontend_tags(conn().last_request()), "BDES");  // no Parse on the second run
  EXPECT_EQ(*second.row(0).get<int64_t>("next"), 100);
  // The statement really exists on the server under the cached name.
  QueryResult prepared = must_query("SELECT count(*) FROM pg_prepared_statements WHERE statement = $1",
                                    std::vector<Param>{param(sql)});
  EXPECT_EQ(*prepared.row(0).get<int64_t>(0), 1);
}

TEST_F(PgE2E, EvictedStatementsAreClosedOnTheServer) {
  BlockingOptions options;
  options.statement_cache_capacity = 2;
  auto small = BlockingConnection::connect(url_, options);
  ASSERT_TRUE(small.ok());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(small->query("SELECT " + std::to_string(i)).ok());
  auto count = small->query("SELECT count(*) FROM pg_prepared_statements");
  ASSERT_TRUE(count.ok()) << count.error().to_string();
  EXPECT_LE(*count->row(0).get<int64_t>(0), 3);  // two cached + the one being counted
  EXPECT_EQ(small->statement_cache().size(), 2u);
}

TEST_F(PgE2E, CachedStatementSurvivesDdl) {
  must_exec("CREATE TEMP TABLE ddl_t(a int); INSERT INTO ddl_t VALUES (1)");
  must_query("SELECT * FROM ddl_t");
  must_exec("ALTER TABLE ddl_t ADD COLUMN b int DEFAULT 7");
  // The server refuses to run the cached plan now that its result type changed; the cache drops
  // the statement, so the next run parses it again.
  auto stale = conn().query("SELECT * FROM ddl_t");
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.error().sqlstate, "0A000") << stale.error().to_string();
  EXPECT_EQ(conn().statement_cache().size(), 0u);
  QueryResult fresh = must_query("SELECT * FROM ddl_t");
  EXPECT_EQ(frontend_tags(conn().last_request()), "CPBDES");  // close the stale name, parse afresh
  ASSERT_EQ(fresh.columns.size(), 2u);
  EXPECT_EQ(*fresh.row(0).get<int32_t>("b"), 7);
}

TEST_F(PgE2E, MissingTableIs42P01AndTheConnectionStaysUsable) {
  auto r = conn().query("SELECT * FROM no_such_table_here WHERE id = $1", std::vector<Param>{param(std::string("secret"))});
  ASSERT_FALSE(r.ok());
  const Error& e = r.error();
  EXPECT_EQ(e.kind, ErrorKind::Server);
  EXPECT_EQ(e.sqlstate, "42P01");
  EXPECT_EQ(e.summary(), "ERROR: relation \"no_such_table_here\" does not exist");
  EXPECT_EQ(e.sql, "SELECT * FROM no_such_table_here WHERE id = $1");
  EXPECT_EQ(e.to_string().find("secret"), std::string::npos);
  ASSERT_TRUE(e.server);
  EXPECT_EQ(e.server->position, "15");
  EXPECT_FALSE(e.is_fatal());
  EXPECT_FALSE(conn().is_closed());
  EXPECT_EQ(conn().transaction_status(), TransactionStatus::Idle);
  EXPECT_EQ(*must_query("SELECT 5").row(0).get<int32_t>(0), 5);
}

TEST_F(PgE2E, UniqueViolationIs23505) {
  must_exec("CREATE TEMP TABLE users_u(id int8 PRIMARY KEY, email text UNIQUE)");
  std::vector<Param> row = {param(int64_t{1}), param(std::string("a@example.com"))};
  auto inserted = conn().execute("INSERT INTO users_u(id, email) VALUES ($1, $2)", row);
  ASSERT_TRUE(inserted.ok()) << inserted.error().to_string();
  EXPECT_EQ(*inserted, 1u);
  std::vector<Param> dup = {param(int64_t{2}), param(std::string("a@example.com"))};
  auto again = conn().execute("INSERT INTO users_u(id, email) VALUES ($1, $2)", dup);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().sqlstate, "23505");
  ASSERT_TRUE(again.error().server);
  EXPECT_EQ(again.error().server->constraint, "users_u_email_key");
  EXPECT_EQ(again.error().server->table, "users_u");
  EXPECT_NE(again.error().server->detail.find("already exists"), std::string::npos);
}

TEST_F(PgE2E, InjectionStringsAreStoredVerbatim) {
  must_exec("CREATE TEMP TABLE notes(id serial PRIMARY KEY, body text)");
  const std::vector<std::string> hostile = {
      "'; DROP TABLE notes; --",
      "Robert'); DROP TABLE students;--",
      "' OR '1'='1",
      "$1",
      "\\",
      "\"quoted\"",
      "$$ dollar $$",
      "line\nbreak\ttab",
      "unicode ☃ 𝄞",
      "",
  };
  for (const auto& s : hostile) {
    auto r = conn().execute("INSERT INTO notes(body) VALUES ($1)", std::vector<Param>{param(s)});
    ASSERT_TRUE(r.ok()) << r.error().to_string();
  }
  QueryResult all = must_query("SELECT body FROM notes ORDER BY id");
  ASSERT_EQ(all.size(), hostile.size());
  for (std::size_t i = 0; i < hostile.size(); ++i) EXPECT_EQ(*all.row(i).get<std::string>("body"), hostile[i]);
  // Matching by parameter finds exactly the row, never more.
  QueryResult one = must_query("SELECT count(*) FROM notes WHERE body = $1", std::vector<Param>{param(hostile[2])});
  EXPECT_EQ(*one.row(0).get<int64_t>(0), 1);
  // Text-format parameters are just as inert.
  QueryResult text = must_query("SELECT $1::text", std::vector<Param>{Param::text(hostile[0])});
  EXPECT_EQ(*text.row(0).get<std::string>(0), hostile[0]);
}

TEST_F(PgE2E, NullHandling) {
  must_exec("CREATE TEMP TABLE maybe(id int8, note text, tags text[])");
  std::vector<Param> nulls = {param(int64_t{1}), Param::null(oid::kText), param(std::optional<TextArray>{})};
  ASSERT_TRUE(conn().execute("INSERT INTO maybe VALUES ($1, $2, $3)", nulls).ok());
  std::vector<Param> empties = {param(int64_t{2}), param(std::string()), param(TextArray{})};
  ASSERT_TRUE(conn().execute("INSERT INTO maybe VALUES ($1, $2, $3)", empties).ok());
  QueryResult r = must_query("SELECT note, tags, note IS NULL AS is_null FROM maybe ORDER BY id");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(*r.row(0).get<std::optional<std::string>>("note"), std::nullopt);
  EXPECT_EQ(*r.row(0).get<std::optional<TextArray>>("tags"), std::nullopt);
  EXPECT_TRUE(*r.row(0).get<bool>("is_null"));
  EXPECT_FALSE(r.row(0).get<std::string>("note").ok());  // NULL into a non-optional is an error
  EXPECT_EQ(*r.row(1).get<std::optional<std::string>>("note"), std::string());
  EXPECT_EQ(*r.row(1).get<TextArray>("tags"), TextArray{});
  EXPECT_FALSE(*r.row(1).get<bool>("is_null"));
  QueryResult untyped = must_query("SELECT $1::int8 IS NULL", std::vector<Param>{Param::null()});
  EXPECT_TRUE(*untyped.row(0).get<bool>(0));
}

TEST_F(PgE2E, TransactionStatusFollowsTheServer) {
  must_exec("BEGIN");
  EXPECT_EQ(conn().transaction_status(), TransactionStatus::InTransaction);
  EXPECT_FALSE(conn().query("SELECT 1/0").ok());
  EXPECT_EQ(conn().transaction_status(), TransactionStatus::Failed);
  auto blocked = conn().query("SELECT 1");
  ASSERT_FALSE(blocked.ok());
  EXPECT_EQ(blocked.error().sqlstate, "25P02");
  must_exec("ROLLBACK");
  EXPECT_EQ(conn().transaction_status(), TransactionStatus::Idle);
}

TEST_F(PgE2E, NoticesAndNotifications) {
  must_exec("DO $$ BEGIN RAISE NOTICE 'hello from plpgsql'; END $$");
  auto notices = conn().take_notices();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].message, "hello from plpgsql");
  EXPECT_EQ(notices[0].code, "00000");

  must_exec("LISTEN fitz_chat");
  ASSERT_TRUE(conn().query("SELECT pg_notify('fitz_chat', $1)", std::vector<Param>{param(std::string("{\"m\":1}"))}).ok());
  auto notes = conn().take_notifications();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].channel, "fitz_chat");
  EXPECT_EQ(notes[0].payload, "{\"m\":1}");
  EXPECT_EQ(notes[0].process_id, conn().session().process_id);
}

TEST_F(PgE2E, LargeResultsAndValues) {
  QueryResult many = must_query("SELECT g, md5(g::text) FROM generate_series(1, 100000) g");
  ASSERT_EQ(many.size(), 100000u);
  EXPECT_EQ(*many.row(99999).get<int32_t>(0), 100000);
  EXPECT_EQ(many.rows_affected, 100000u);
  std::string big(8 << 20, 'x');
  big[12345] = 'y';
  QueryResult echo = must_query("SELECT $1::text", std::vector<Param>{param(big)});
  EXPECT_EQ(*echo.row(0).get<std::string>(0), big);
}

TEST_F(PgE2E, CopyIsRefusedAndTheConnectionRecovers) {
  must_exec("CREATE TEMP TABLE copy_t(a int)");
  auto in = conn().query("COPY copy_t FROM STDIN");
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.error().kind, ErrorKind::Unsupported);
  auto out = conn().query("COPY (SELECT 1) TO STDOUT");
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().kind, ErrorKind::Unsupported);
  auto simple_in = conn().simple_query("COPY copy_t FROM STDIN");
  EXPECT_FALSE(simple_in.ok());
  EXPECT_EQ(*must_query("SELECT 7").row(0).get<int32_t>(0), 7);
}

TEST_F(PgE2E, CancelInterruptsARunningQuery) {
  auto other = BlockingConnection::connect(url_);
  ASSERT_TRUE(other.ok());
  std::optional<Result<QueryResult>> outcome;
  std::thread worker([&] { outcome.emplace(other->query("SELECT pg_sleep(30)")); });
  auto started = std::chrono::steady_clock::now();
  Status cancelled;
  // Retry until the query is running (the first cancel may arrive before it starts).
  for (int i = 0; i < 50; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancelled = other->cancel();
    if (!cancelled.ok() || i >= 3) break;
  }
  worker.join();
  ASSERT_TRUE(cancelled.ok()) << cancelled.error().to_string();
  ASSERT_TRUE(outcome.has_value());
  ASSERT_FALSE(outcome->ok());
  EXPECT_EQ(outcome->error().sqlstate, "57014");
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
}

TEST_F(PgE2E, ConnectFailures) {
  auto info = parse_conninfo(url_);
  ASSERT_TRUE(info.ok());
  ConnInfo missing_db = *info;
  missing_db.dbname = "fitz_no_such_database";
  auto r = BlockingConnection::connect(missing_db);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().sqlstate, "3D000");
  EXPECT_TRUE(r.error().is_fatal());

  ConnInfo closed_port = *info;
  closed_port.port = 1;
  auto refused = BlockingConnection::connect(closed_port);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::Io);
  EXPECT_EQ(refused.error().sqlstate, "08001");

  ConnInfo tls = *info;
  tls.sslmode = SslMode::Require;
  auto no_tls = BlockingConnection::connect(tls);
  ASSERT_FALSE(no_tls.ok());
  EXPECT_EQ(no_tls.error().kind, ErrorKind::Unsupported);
}

}  // namespace
}  // namespace fitz::pg
