// target_session_attrs decisions without a server: what the startup parameters decide, when a
// query must decide instead, the prefer-standby passes, a 25006 that means "this server no longer
// takes writes", and the combined error of a host list where no server fitted.
#include <gtest/gtest.h>

#include "pg/host_failures.h"
#include "pg/session_attrs.h"

namespace fitz::pg {
namespace {

SessionInfo reporting(const char* hot_standby, const char* read_only) {
  SessionInfo s;
  if (hot_standby) s.parameters["in_hot_standby"] = hot_standby;
  if (read_only) s.parameters["default_transaction_read_only"] = read_only;
  return s;
}

using V = SessionCheck::Verdict;

TEST(PgSessionAttrs, DecidedByReportedParameters) {
  struct Case {
    TargetSessionAttrs want;
    const char* hot_standby;
    const char* read_only;
    V verdict;
    const char* reason;
  };
  const Case cases[] = {
      {TargetSessionAttrs::Any, "on", "on", V::Fits, ""},
      {TargetSessionAttrs::ReadWrite, "off", "off", V::Fits, ""},
      {TargetSessionAttrs::ReadWrite, "on", "off", V::Rejected, "session is read-only"},
      {TargetSessionAttrs::ReadWrite, "off", "on", V::Rejected, "session is read-only"},
      {TargetSessionAttrs::ReadOnly, "off", "off", V::Rejected, "session is not read-only"},
      {TargetSessionAttrs::ReadOnly, "off", "on", V::Fits, ""},
      {TargetSessionAttrs::ReadOnly, "on", "off", V::Fits, ""},
      {TargetSessionAttrs::Primary, "off", "on", V::Fits, ""},  // a read-only primary is still a primary
      {TargetSessionAttrs::Primary, "on", "off", V::Rejected, "server is in hot standby mode"},
      {TargetSessionAttrs::Standby, "on", "off", V::Fits, ""},
      {TargetSessionAttrs::Standby, "off", "off", V::Rejected, "server is not in hot standby mode"},
  };
  for (const auto& c : cases) {
    SessionCheck check = check_session(c.want, reporting(c.hot_standby, c.read_only));
    EXPECT_EQ(check.verdict, c.verdict)
        << target_session_attrs_name(c.want) << " " << c.hot_standby << "/" << c.read_only;
    EXPECT_EQ(check.reason, c.reason) << target_session_attrs_name(c.want);
  }
}

// Servers before Postgres 14 report neither parameter: libpq's queries decide.
TEST(PgSessionAttrs, OlderServersNeedAQuery) {
  SessionInfo silent;
  EXPECT_TRUE(check_session(TargetSessionAttrs::Any, silent).fits());
  auto rw = check_session(TargetSessionAttrs::ReadWrite, silent);
  EXPECT_EQ(rw.verdict, V::NeedsQuery);
  EXPECT_EQ(rw.query, "SHOW transaction_read_only");
  // One parameter alone is not enough for read-write.
  EXPECT_EQ(check_session(TargetSessionAttrs::ReadWrite, reporting(nullptr, "off")).verdict, V::NeedsQuery);
  auto primary = check_session(TargetSessionAttrs::Primary, silent);
  EXPECT_EQ(primary.verdict, V::NeedsQuery);
  EXPECT_EQ(primary.query, "SELECT pg_catalog.pg_is_in_recovery()");

  EXPECT_TRUE(check_session_answer(TargetSessionAttrs::ReadWrite, "off").fits());
  EXPECT_EQ(check_session_answer(TargetSessionAttrs::ReadWrite, "on").reason, "session is read-only");
  EXPECT_TRUE(check_session_answer(TargetSessionAttrs::Primary, "f").fits());
  EXPECT_TRUE(check_session_answer(TargetSessionAttrs::Primary, "t").rejected());
  EXPECT_TRUE(check_session_answer(TargetSessionAttrs::Standby, "t").fits());
  EXPECT_TRUE(check_session_answer(TargetSessionAttrs::ReadOnly, "off").rejected());
}

TEST(PgSessionAttrs, PreferStandbyTriesStandbysFirstThenAnything) {
  EXPECT_EQ(connect_passes(TargetSessionAttrs::PreferStandby),
            (std::vector<TargetSessionAttrs>{TargetSessionAttrs::Standby, TargetSessionAttrs::Any}));
  EXPECT_EQ(connect_passes(TargetSessionAttrs::ReadWrite),
            (std::vector<TargetSessionAttrs>{TargetSessionAttrs::ReadWrite}));
  // Once open, a prefer-standby session on a primary is still what was asked for.
  EXPECT_TRUE(session_still_fits(TargetSessionAttrs::PreferStandby, reporting("off", "off")));
  EXPECT_FALSE(session_still_fits(TargetSessionAttrs::ReadWrite, reporting("off", "on")));
  EXPECT_TRUE(session_still_fits(TargetSessionAttrs::ReadWrite, SessionInfo{}));  // unknown is not rejected
}

TEST(PgSessionAttrs, ReadOnlyErrorMeansTheServerStoppedTakingWrites) {
  NoticeFields f;
  f.severity = "ERROR";
  f.code = "25006";
  f.message = "cannot execute INSERT in a read-only transaction";
  Error read_only = Error::from_server(f);
  SessionInfo writable = reporting("off", "off");
  // The connection asked for a writable server: the server is the problem.
  EXPECT_TRUE(server_turned_read_only(read_only, TargetSessionAttrs::ReadWrite, writable));
  EXPECT_TRUE(server_turned_read_only(read_only, TargetSessionAttrs::Primary, SessionInfo{}));
  // Any server will do, and it reports itself writable: a READ ONLY transaction of the program.
  EXPECT_FALSE(server_turned_read_only(read_only, TargetSessionAttrs::Any, writable));
  // ... unless the server reports itself read-only.
  EXPECT_TRUE(server_turned_read_only(read_only, TargetSessionAttrs::Any, reporting("off", "on")));
  EXPECT_TRUE(server_turned_read_only(read_only, TargetSessionAttrs::Any, reporting("on", "off")));
  f.code = "23505";
  EXPECT_FALSE(server_turned_read_only(Error::from_server(f), TargetSessionAttrs::ReadWrite, writable));
}

TEST(PgSessionAttrs, HostFailuresNameEveryServerAndWhy) {
  auto info = parse_conninfo("postgres://h1:5432,h2:5433/db?target_session_attrs=read-write");
  ASSERT_TRUE(info.ok());
  HostFailures failures;
  failures.add(info->hosts()[0], Error::connect("could not connect to h1:5432: Connection refused"));
  failures.add(info->hosts()[1], Error::make(ErrorKind::Io, sqlstate::kUnableToConnect, "session is read-only"));
  Error e = failures.error(*info);
  EXPECT_EQ(e.kind, ErrorKind::Io);
  EXPECT_EQ(e.sqlstate, sqlstate::kUnableToConnect);
  EXPECT_EQ(e.message,
            "no server fits target_session_attrs=read-write: could not connect to h1:5432: Connection refused; "
            "h2:5433: session is read-only");

  // One server and no target: its own error, unchanged (a refused login stays the server's).
  auto one = parse_conninfo("postgres://h1/db");
  ASSERT_TRUE(one.ok());
  HostFailures single;
  NoticeFields f;
  f.severity = "FATAL";
  f.code = "28P01";
  f.message = "password authentication failed for user \"app\"";
  single.add(one->hosts()[0], Error::from_server(f));
  EXPECT_EQ(single.error(*one).sqlstate, "28P01");
  EXPECT_EQ(single.error(*one).kind, ErrorKind::Server);

  auto two = parse_conninfo("postgres://h1,h2/db");
  ASSERT_TRUE(two.ok());
  HostFailures both;
  both.add(two->hosts()[0], Error::from_server(f));
  both.add(two->hosts()[1], Error::connect("could not connect to h2:5432: Connection refused"));
  EXPECT_EQ(both.error(*two).message,
            "could not connect to any of 2 servers: h1:5432: FATAL: password authentication failed for user \"app\"; "
            "could not connect to h2:5432: Connection refused");
}

}  // namespace
}  // namespace fitz::pg
