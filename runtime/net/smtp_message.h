// The `smtp` module's pure half: configuration from SMTP_* variables, mailbox parsing, RFC 2047
// subjects, the MIME message (text, HTML or multipart/alternative), dot-stuffing and reply
// parsing. No I/O here; smtp_client.cpp runs the session.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fitz::net {

enum class SmtpTls : uint8_t { StartTls, Implicit, None };

struct SmtpConfig {
  std::string host;
  uint16_t port = 587;
  SmtpTls tls = SmtpTls::StartTls;
  std::string user, password;  // both or neither
  std::string from;            // SMTP_FROM: the default sender
  int64_t timeout_ms = 30000;  // SMTP_TIMEOUT_MS: the whole send
};

// Reads SMTP_HOST, SMTP_PORT, SMTP_TLS, SMTP_USER, SMTP_PASSWORD, SMTP_FROM and SMTP_TIMEOUT_MS
// through `get` (null when unset). The error is the whole Err text ("smtp: SMTP_HOST is not set ...").
struct SmtpConfigResult {
  std::optional<SmtpConfig> config;
  std::string error;
};
SmtpConfigResult smtp_config(const std::function<const char*(const char*)>& get);

// "a@x.io" or "Ana <a@x.io>": the address alone, or an error reason.
struct Mailbox {
  std::string display;  // may be empty
  std::string address;
};
std::optional<Mailbox> parse_mailbox(std::string_view text, std::string* why);

// A header value as RFC 2047 encoded words (UTF-8, base64) when it is not plain ASCII.
std::string encode_header_words(std::string_view text);

struct MailParts {
  Mailbox from, to;
  std::string subject;
  std::string text, html;  // either may be empty, not both
  std::string message_id;  // without <>
  std::string date;        // RFC 5322 date
  std::string boundary;    // for multipart/alternative
};

// The message as sent after DATA: CRLF line ends, dot-stuffed, without the final ".".
std::string build_message(const MailParts& parts);

// base64 of bytes (standard alphabet, padded), lines of 76 characters when `wrap`.
std::string base64(std::string_view bytes, bool wrap = false);

// One SMTP reply (possibly multi-line): the code and the text of its lines.
struct SmtpReply {
  int code = 0;
  std::vector<std::string> lines;
  std::string text() const;
};
// Parses a complete reply at the start of `buf` and says how many bytes it used; 0 when more
// input is needed, SIZE_MAX when the input is not an SMTP reply.
size_t parse_reply(std::string_view buf, SmtpReply* out);

}  // namespace fitz::net
