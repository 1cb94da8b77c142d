// fitz/ws_typed.h on its own (it is the first include, so it must compile alone): decoding a
// message as the endpoint's In type, encoding values as JSON or as binary frames, and the
// `ws_broadcast` of a program that serves no WebSockets.
#include "fitz/ws_typed.h"

#include <gtest/gtest.h>

namespace fitz::ws::typed {
namespace {

Message text(const char* s) { return Message{false, Str(s)}; }

TEST(WsTyped, DecodesTextMessagesAsTheInType) {
  auto ok = decode<int64_t>(text("42"));
  ASSERT_TRUE(ok.is_ok());
  int64_t n = 0;
  ASSERT_TRUE(try_from_any<int64_t>(ok.value(), &n));
  EXPECT_EQ(n, 42);

  auto list = decode<List<Str>>(text(R"(["a", "b"])"));
  ASSERT_TRUE(list.is_ok());
  List<Str> xs;
  ASSERT_TRUE(try_from_any<List<Str>>(list.value(), &xs));
  EXPECT_EQ(xs.len(), 2);
}

TEST(WsTyped, AWrongMessageIsAnErrWithTheReason) {
  auto wrong = decode<int64_t>(text(R"("not a number")"));
  ASSERT_FALSE(wrong.is_ok());
  EXPECT_EQ(wrong.error().as<std::string>().rfind("message: ", 0), 0u) << wrong.error().as<std::string>();

  auto binary = decode<int64_t>(Message{true, Str("42")});
  ASSERT_FALSE(binary.is_ok());
  EXPECT_EQ(binary.error().as<std::string>(), "expected a text (JSON) message, got binary");
}

TEST(WsTyped, BytesConnectionsHandOverTheFrame) {
  auto b = decode_bytes(Message{true, Str("\x01\x02")});
  ASSERT_TRUE(b.is_ok());
  auto bytes = b.value().as_bytes();
  ASSERT_TRUE(bytes.is_ok());
  EXPECT_EQ(bytes.value().size(), 2u);
}

TEST(WsTyped, EncodesValuesAsJson) {
  EXPECT_EQ(json(int64_t(7)).as<std::string>(), "7");
  EXPECT_EQ(json(Str("hi")).as<std::string>(), "\"hi\"");
  Str out;
  EXPECT_TRUE(encode_as<int64_t>(to_any(int64_t(5)), &out));
  EXPECT_EQ(out.as<std::string>(), "5");
  EXPECT_FALSE(encode_as<int64_t>(to_any(Str("x")), &out));
}

TEST(WsTyped, AnAnyMessageGoesOutAsTheEndpointsType) {
  // A value received as Any is written with the Out encoder first, then the In one.
  Conn c;
  c.enc_out = &encode_as<int64_t>;
  c.enc_in = &encode_as<Str>;
  EXPECT_EQ(json_for(c, to_any(int64_t(3))).as<std::string>(), "3");
  EXPECT_EQ(json_for(c, to_any(Str("s"))).as<std::string>(), "\"s\"");
  EXPECT_EQ(json_for(c, int64_t(9)).as<std::string>(), "9");
}

TEST(WsTyped, OnlyBytesGoOutAsBinaryFrames) {
  Bytes b;
  EXPECT_TRUE(as_bytes(Bytes("ab", 2), &b));
  EXPECT_EQ(b.size(), 2u);
  EXPECT_TRUE(as_bytes(to_any(Bytes("abc", 3)), &b));
  EXPECT_EQ(b.size(), 3u);
  EXPECT_FALSE(as_bytes(Str("ab"), &b));
  EXPECT_FALSE(as_bytes(to_any(int64_t(1)), &b));
}

TEST(WsTyped, BroadcastWithoutAHubDoesNothing) {
  ASSERT_EQ(hub(), nullptr);
  (void)broadcast_path(Str("/feed"), int64_t(1));
  EXPECT_EQ(hub(), nullptr);
}

}  // namespace
}  // namespace fitz::ws::typed
