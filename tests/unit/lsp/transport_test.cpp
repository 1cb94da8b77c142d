// Framing and message classification, including malformed input.
#include <gtest/gtest.h>

#include <sstream>

#include "lsp/transport.h"

namespace fitz::lsp {
namespace {

TEST(Transport, ReadsFramesAndSkipsUnknownHeaders) {
  std::istringstream in(frame("{\"a\":1}") + "content-length: 2\r\nContent-Type: x\r\n\r\n{}");
  std::ostringstream out;
  Transport t(in, out);
  Frame a = t.read();
  ASSERT_EQ(a.status, Frame::Status::Ok);
  EXPECT_EQ(a.body, "{\"a\":1}");
  Frame b = t.read();
  ASSERT_EQ(b.status, Frame::Status::Ok);
  EXPECT_EQ(b.body, "{}");
  EXPECT_EQ(t.read().status, Frame::Status::Eof);
}

TEST(Transport, BadHeadersAreReportedAndReadingGoesOn) {
  std::istringstream in("Content-Length: abc\r\n\r\n" + frame("{}") + "garbage\r\n\r\n" + frame("[]"));
  std::ostringstream out;
  Transport t(in, out);
  EXPECT_EQ(t.read().status, Frame::Status::BadHeader);
  EXPECT_EQ(t.read().body, "{}");
  EXPECT_EQ(t.read().status, Frame::Status::BadHeader);
  EXPECT_EQ(t.read().body, "[]");
}

TEST(Transport, TruncatedBodyIsEof) {
  std::istringstream in("Content-Length: 100\r\n\r\n{\"short\":");
  std::ostringstream out;
  Transport t(in, out);
  EXPECT_EQ(t.read().status, Frame::Status::Eof);
}

TEST(Transport, ClassifiesMessages) {
  EXPECT_FALSE(parse_message("{nope"));
  EXPECT_EQ(parse_message("[]")->kind, Message::Kind::Invalid);
  EXPECT_EQ(parse_message(R"({"id":1,"method":"x"})")->kind, Message::Kind::Invalid);
  EXPECT_EQ(parse_message(R"({"jsonrpc":"2.0","id":1,"method":"x"})")->kind, Message::Kind::Request);
  EXPECT_EQ(parse_message(R"({"jsonrpc":"2.0","method":"x","params":null})")->kind, Message::Kind::Notification);
  EXPECT_EQ(parse_message(R"({"jsonrpc":"2.0","id":1,"result":null})")->kind, Message::Kind::Response);
  EXPECT_EQ(parse_message(R"({"jsonrpc":"2.0","id":{},"method":"x"})")->kind, Message::Kind::Invalid);
  EXPECT_EQ(parse_message(R"({"jsonrpc":"2.0","method":"x","params":3})")->kind, Message::Kind::Invalid);
}

TEST(Transport, WritesFramedJsonWithInvalidUtf8Replaced) {
  std::istringstream in;
  std::ostringstream out;
  Transport t(in, out);
  t.notify("m", {{"s", std::string("a\xff")}});
  std::string s = out.str();
  EXPECT_EQ(s.rfind("Content-Length: ", 0), 0u);
  auto body = s.substr(s.find("\r\n\r\n") + 4);
  EXPECT_EQ(std::to_string(body.size()), s.substr(16, s.find("\r\n") - 16));
  EXPECT_NE(body.find("\xef\xbf\xbd"), std::string::npos);
}

}  // namespace
}  // namespace fitz::lsp
