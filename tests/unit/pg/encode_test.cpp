// Byte-by-byte tests of every frontend message encoder against hand-written expected bytes.
#include <gtest/gtest.h>

#include "pg/messages.h"
#include "pg_test_util.h"

namespace fitz::pg {
namespace {
using namespace fitz::pg::test_support;

TEST(PgEncode, StartupMessage) {
  std::string out;
  StartupParam params[] = {{"user", "postgres"}, {"database", "fitz"}};
  ASSERT_TRUE(encode_startup(out, params).ok());
  std::string expected = bytes({0, 0, 0, 37, 0, 3, 0, 0}) + cstr("user") + cstr("postgres") + cstr("database") +
                         cstr("fitz") + bytes({0});
  EXPECT_EQ(out, expected);
}

TEST(PgEncode, StartupMessageWithoutParameters) {
  std::string out;
  ASSERT_TRUE(encode_startup(out, {}).ok());
  EXPECT_EQ(out, bytes({0, 0, 0, 9, 0, 3, 0, 0, 0}));
}

TEST(PgEncode, StartupRejectsNulAndEmptyNames) {
  std::string out = "keep";
  StartupParam bad_value[] = {{"user", std::string_view("a\0b", 3)}};
  auto s = encode_startup(out, bad_value);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::Encode);
  EXPECT_EQ(s.error().sqlstate, "22021");
  StartupParam empty_name[] = {{"", "x"}};
  EXPECT_FALSE(encode_startup(out, empty_name).ok());
  EXPECT_EQ(out, "keep");
}

TEST(PgEncode, StartupRejectsOversizedPacket) {
  std::string out;
  std::string huge(20000, 'x');
  StartupParam params[] = {{"options", huge}};
  EXPECT_FALSE(encode_startup(out, params).ok());
  EXPECT_TRUE(out.empty());
}

TEST(PgEncode, SslRequest) {
  std::string out;
  encode_ssl_request(out);
  EXPECT_EQ(out, bytes({0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f}));
}

TEST(PgEncode, CancelRequest) {
  std::string out;
  encode_cancel_request(out, 0x01020304, bytes({0xaa, 0xbb, 0xcc, 0xdd}));
  EXPECT_EQ(out, bytes({0, 0, 0, 16, 0x04, 0xd2, 0x16, 0x2e, 1, 2, 3, 4, 0xaa, 0xbb, 0xcc, 0xdd}));
}

TEST(PgEncode, PasswordMessage) {
  std::string out;
  ASSERT_TRUE(encode_password(out, "secret").ok());
  EXPECT_EQ(out, bytes({'p', 0, 0, 0, 11}) + cstr("secret"));
}

TEST(PgEncode, PasswordWithNulIsRejected) {
  std::string out;
  EXPECT_FALSE(encode_password(out, std::string_view("se\0cret", 7)).ok());
  EXPECT_TRUE(out.empty());
}

TEST(PgEncode, SaslInitialResponse) {
  std::string out;
  ASSERT_TRUE(encode_sasl_initial_response(out, "SCRAM-SHA-256", std::string_view("n,,n=,r=abc")).ok());
  EXPECT_EQ(out, bytes({'p', 0, 0, 0, 33}) + cstr("SCRAM-SHA-256") + bytes({0, 0, 0, 11}) + "n,,n=,r=abc");
}

TEST(PgEncode, SaslInitialResponseWithoutData) {
  std::string out;
  ASSERT_TRUE(encode_sasl_initial_response(out, "X", std::nullopt).ok());
  EXPECT_EQ(out, bytes({'p', 0, 0, 0, 10, 'X', 0, 0xff, 0xff, 0xff, 0xff}));
}

TEST(PgEncode, SaslResponse) {
  std::string out;
  ASSERT_TRUE(encode_sasl_response(out, "c=biws").ok());
  EXPECT_EQ(out, bytes({'p', 0, 0, 0, 10}) + "c=biws");
}

TEST(PgEncode, Query) {
  std::string out;
  ASSERT_TRUE(encode_query(out, "SELECT 1").ok());
  EXPECT_EQ(out, bytes({'Q', 0, 0, 0, 13}) + cstr("SELECT 1"));
}

TEST(PgEncode, QueryWithNulIsRejected) {
  std::string out = "x";
  auto s = encode_query(out, std::string_view("SELECT '\0'", 10));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(out, "x");
}

TEST(PgEncode, ParseWithTypes) {
  std::string out;
  Oid types[] = {20, 25};
  ASSERT_TRUE(encode_parse(out, "s1", "SELECT $1, $2", types).ok());
  std::string body = cstr("s1") + cstr("SELECT $1, $2") + bytes({0, 2, 0, 0, 0, 20, 0, 0, 0, 25});
  EXPECT_EQ(out, bytes({'P'}) + be32(4 + body.size()) + body);
  EXPECT_EQ(out.size(), 1u + 4 + 3 + 14 + 2 + 8);
}

TEST(PgEncode, ParseUnnamedWithoutTypes) {
  std::string out;
  ASSERT_TRUE(encode_parse(out, "", "SELECT 1", {}).ok());
  EXPECT_EQ(out, bytes({'P', 0, 0, 0, 16, 0}) + cstr("SELECT 1") + bytes({0, 0}));
}

TEST(PgEncode, BindWithNullEmptyAndFormats) {
  std::string out;
  Format param_formats[] = {Format::Binary, Format::Text, Format::Text};
  std::optional<std::string_view> values[] = {std::string_view("\x00\x00\x00\x07", 4), std::nullopt,
                                              std::string_view("")};
  Format result_formats[] = {Format::Binary};
  ASSERT_TRUE(encode_bind(out, "p", "s1", param_formats, values, result_formats).ok());
  std::string body = cstr("p") + cstr("s1") + bytes({0, 3, 0, 1, 0, 0, 0, 0}) + bytes({0, 3}) +
                     bytes({0, 0, 0, 4, 0, 0, 0, 7}) + bytes({0xff, 0xff, 0xff, 0xff}) + bytes({0, 0, 0, 0}) +
                     bytes({0, 1, 0, 1});
  EXPECT_EQ(out, bytes({'B'}) + be32(4 + body.size()) + body);
}

TEST(PgEncode, BindAllTextNoValues) {
  std::string out;
  ASSERT_TRUE(encode_bind(out, "", "", {}, {}, {}).ok());
  EXPECT_EQ(out, bytes({'B', 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(PgEncode, BindRejectsFormatCountMismatch) {
  std::string out;
  Format formats[] = {Format::Text, Format::Binary};
  std::optional<std::string_view> values[] = {std::string_view("a"), std::string_view("b"), std::string_view("c")};
  auto s = encode_bind(out, "", "", formats, values, {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::Encode);
  EXPECT_TRUE(out.empty());
}

TEST(PgEncode, DescribeStatementAndPortal) {
  std::string out;
  ASSERT_TRUE(encode_describe(out, Target::Statement, "s1").ok());
  EXPECT_EQ(out, bytes({'D', 0, 0, 0, 8, 'S', 's', '1', 0}));
  out.clear();
  ASSERT_TRUE(encode_describe(out, Target::Portal, "").ok());
  EXPECT_EQ(out, bytes({'D', 0, 0, 0, 6, 'P', 0}));
}

TEST(PgEncode, ExecuteWithRowLimit) {
  std::string out;
  ASSERT_TRUE(encode_execute(out, "", 0).ok());
  EXPECT_EQ(out, bytes({'E', 0, 0, 0, 9, 0, 0, 0, 0, 0}));
  out.clear();
  ASSERT_TRUE(encode_execute(out, "p1", 1000).ok());
  EXPECT_EQ(out, bytes({'E', 0, 0, 0, 11, 'p', '1', 0, 0, 0, 0x03, 0xe8}));
}

TEST(PgEncode, SyncFlushTerminateCopyDone) {
  std::string out;
  encode_sync(out);
  encode_flush(out);
  encode_terminate(out);
  encode_copy_done(out);
  EXPECT_EQ(out, bytes({'S', 0, 0, 0, 4, 'H', 0, 0, 0, 4, 'X', 0, 0, 0, 4, 'c', 0, 0, 0, 4}));
}

TEST(PgEncode, Close) {
  std::string out;
  ASSERT_TRUE(encode_close(out, Target::Statement, "fitz_1").ok());
  EXPECT_EQ(out, bytes({'C', 0, 0, 0, 12, 'S'}) + cstr("fitz_1"));
  out.clear();
  ASSERT_TRUE(encode_close(out, Target::Portal, "").ok());
  EXPECT_EQ(out, bytes({'C', 0, 0, 0, 6, 'P', 0}));
}

TEST(PgEncode, CopyDataAndFail) {
  std::string out;
  ASSERT_TRUE(encode_copy_data(out, std::string_view("1\t\0x\n", 5)).ok());
  EXPECT_EQ(out, bytes({'d', 0, 0, 0, 9, '1', '\t', 0, 'x', '\n'}));
  out.clear();
  ASSERT_TRUE(encode_copy_fail(out, "stop").ok());
  EXPECT_EQ(out, bytes({'f', 0, 0, 0, 9}) + cstr("stop"));
}

TEST(PgEncode, MessagesAppendToExistingBuffer) {
  std::string out = "prefix";
  ASSERT_TRUE(encode_query(out, "").ok());
  encode_sync(out);
  EXPECT_EQ(out, "prefix" + bytes({'Q', 0, 0, 0, 5, 0, 'S', 0, 0, 0, 4}));
}

}  // namespace
}  // namespace fitz::pg
