// The `smtp` module's pure half: SMTP_* configuration and its error texts, mailboxes, RFC 2047
// subjects, the MIME message (single part, multipart/alternative, dot-stuffing) and replies.
#include <gtest/gtest.h>

#include <map>

#include "net/smtp_message.h"

namespace fitz::net::test_support {
namespace {

SmtpConfigResult smtp_config_of(std::map<std::string, std::string> env) {
  return smtp_config([&env](const char* k) -> const char* {
    auto it = env.find(k);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(SmtpConfig, DefaultsPerTlsMode) {
  auto c = smtp_config_of({{"SMTP_HOST", "mail.x.io"}});
  ASSERT_TRUE(c.config) << c.error;
  EXPECT_EQ(c.config->tls, SmtpTls::StartTls);
  EXPECT_EQ(c.config->port, 587);
  EXPECT_EQ(c.config->timeout_ms, 30000);
  EXPECT_EQ(smtp_config_of({{"SMTP_HOST", "h"}, {"SMTP_TLS", "SSL"}}).config->port, 465);
  EXPECT_EQ(smtp_config_of({{"SMTP_HOST", "h"}, {"SMTP_TLS", "plain"}}).config->port, 25);
  EXPECT_EQ(smtp_config_of({{"SMTP_HOST", "h"}, {"SMTP_TLS", "none"}, {"SMTP_PORT", "1025"}}).config->port, 1025);
  EXPECT_EQ(smtp_config_of({{"SMTP_HOST", "h"}, {"SMTP_TIMEOUT_MS", "500"}}).config->timeout_ms, 500);
}

TEST(SmtpConfig, ErrorTexts) {
  EXPECT_EQ(smtp_config_of({}).error, "smtp: SMTP_HOST is not set (required for `smtp.send`)");
  EXPECT_EQ(smtp_config_of({{"SMTP_HOST", "  "}}).error, "smtp: SMTP_HOST is empty");
  EXPECT_EQ(smtp_config_of({{"SMTP_HOST", "h"}, {"SMTP_PORT", "70000"}}).error,
            "smtp: SMTP_PORT is not a valid u16: `70000`");
  EXPECT_EQ(smtp_config_of({{"SMTP_HOST", "h"}, {"SMTP_USER", "u"}}).error,
            "smtp: SMTP_USER is set but SMTP_PASSWORD is not");
  EXPECT_EQ(smtp_config_of({{"SMTP_HOST", "h"}, {"SMTP_PASSWORD", "p"}}).error,
            "smtp: SMTP_PASSWORD is set but SMTP_USER is not");
  EXPECT_EQ(smtp_config_of({{"SMTP_HOST", "h"}, {"SMTP_TLS", "maybe"}}).error.rfind("smtp: SMTP_TLS must be one of", 0), 0u);
}

TEST(SmtpMailbox, ParsesOneMailbox) {
  std::string why;
  auto a = parse_mailbox("Ana <a@x.io>", &why);
  ASSERT_TRUE(a) << why;
  EXPECT_EQ(a->display, "Ana");
  EXPECT_EQ(a->address, "a@x.io");
  EXPECT_EQ(parse_mailbox(" b@y.org ", &why)->address, "b@y.org");
  EXPECT_EQ(parse_mailbox("\"Bo B\" <b@y.org>", &why)->display, "Bo B");
  EXPECT_FALSE(parse_mailbox("a@x.io, b@y.io", &why));
  EXPECT_FALSE(parse_mailbox("not an address", &why));
  EXPECT_FALSE(parse_mailbox("Ana <a@x.io", &why));
  EXPECT_FALSE(parse_mailbox("a@x.io\r\nBcc: c@z.io", &why));
}

TEST(SmtpRfc2047, EncodesNonAsciiInShortWords) {
  EXPECT_EQ(encode_header_words("Daily OK"), "Daily OK");
  EXPECT_EQ(encode_header_words("café"), "=?UTF-8?B?Y2Fmw6k=?=");
  std::string long_subject;
  for (int i = 0; i < 40; ++i) long_subject += "é";  // 80 bytes: two words, split between characters
  std::string enc = encode_header_words(long_subject);
  size_t sep = enc.find("\r\n ");
  ASSERT_NE(sep, std::string::npos);
  EXPECT_LE(sep, 75u);
  EXPECT_EQ(enc.find("\r\n ", sep + 1), std::string::npos);
  EXPECT_EQ(base64("\xc3\xa9"), "w6k=");
}

MailParts smtp_parts_of(std::string text, std::string html) {
  MailParts p;
  p.from = Mailbox{"Ops", "ops@x.io"};
  p.to = Mailbox{"", "a@y.io"};
  p.subject = "Hi";
  p.text = std::move(text);
  p.html = std::move(html);
  p.message_id = "id-1@host";
  p.date = "Wed, 02 Dec 2026 07:00:00 +0000";
  p.boundary = "b0undary";
  return p;
}

TEST(SmtpMessage, SinglePartAndDotStuffing) {
  std::string m = build_message(smtp_parts_of("one\n.two\nthree", ""));
  EXPECT_NE(m.find("From: \"Ops\" <ops@x.io>\r\nTo: a@y.io\r\nSubject: Hi\r\n"), std::string::npos) << m;
  EXPECT_NE(m.find("Message-ID: <id-1@host>\r\n"), std::string::npos);
  EXPECT_NE(m.find("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\n"
                   "one\r\n..two\r\nthree\r\n"),
            std::string::npos)
      << m;
  std::string h = build_message(smtp_parts_of("", "<p>ü</p>"));
  EXPECT_NE(h.find("Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nPHA+w7w8L3A+\r\n"),
            std::string::npos)
      << h;
}

TEST(SmtpMessage, MultipartAlternativeTextFirst) {
  std::string m = build_message(smtp_parts_of("plain", "<b>rich</b>"));
  EXPECT_NE(m.find("Content-Type: multipart/alternative; boundary=\"b0undary\"\r\n"), std::string::npos);
  size_t text = m.find("--b0undary\r\nContent-Type: text/plain"), html = m.find("--b0undary\r\nContent-Type: text/html");
  ASSERT_NE(text, std::string::npos);
  ASSERT_NE(html, std::string::npos);
  EXPECT_LT(text, html);
  EXPECT_NE(m.find("--b0undary--\r\n"), std::string::npos);
}

TEST(SmtpReplyParse, SingleMultiAndBroken) {
  SmtpReply r;
  EXPECT_EQ(parse_reply("250 ok\r\n", &r), 8u);
  EXPECT_EQ(r.code, 250);
  EXPECT_EQ(parse_reply("250-a\r\n250-STARTTLS\r\n", &r), 0u);  // needs the last line
  std::string multi = "250-a\r\n250-STARTTLS\r\n250 AUTH PLAIN LOGIN\r\n";
  EXPECT_EQ(parse_reply(multi, &r), multi.size());
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_EQ(r.lines[2], "AUTH PLAIN LOGIN");
  EXPECT_EQ(parse_reply("HTTP/1.1 200 OK\r\n", &r), SIZE_MAX);
  EXPECT_EQ(parse_reply("250-a\r\n354 b\r\n", &r), SIZE_MAX);
  EXPECT_EQ(parse_reply("535 5.7.8 bad credentials\r\n", &r), 27u);
  EXPECT_EQ(r.text(), "535 5.7.8 bad credentials");
}

}  // namespace
}  // namespace fitz::net::test_support
