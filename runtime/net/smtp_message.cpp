// SMTP configuration, mailboxes, RFC 2047 and MIME building, reply parsing (no I/O).
#include "net/smtp_message.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "net/url.h"

namespace fitz::net {

namespace {

bool is_ascii_printable(std::string_view s) {
  for (unsigned char c : s)
    if (c >= 0x80 || (c < 0x20 && c != '\t')) return false;
  return true;
}

bool valid_address(std::string_view a) {
  size_t at = a.rfind('@');
  if (at == std::string_view::npos || at == 0 || at + 1 >= a.size()) return false;
  for (unsigned char c : a)
    if (c <= 0x20 || c == '<' || c == '>' || c == '(' || c == ')' || c == ',' || c == ';' || c == '"' || c == '\\' ||
        c >= 0x7f)
      return false;
  return a.find('.', at) != std::string_view::npos || a.substr(at + 1) == "localhost";
}

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

// Lines of a part body with CRLF ends, encoded as 7bit when plain ASCII with short lines,
// else as base64.
std::string part_body(std::string_view text, std::string* encoding) {
  bool plain = true;
  size_t line = 0;
  for (unsigned char c : text) {
    if (c == '\n') {
      line = 0;
      continue;
    }
    if (c >= 0x80 || (c < 0x20 && c != '\t' && c != '\r') || ++line > 900) plain = false;
  }
  if (!plain) {
    *encoding = "base64";
    return base64(text, true) + "\r\n";
  }
  *encoding = "7bit";
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') continue;
    if (text[i] == '\n') out += "\r\n";
    else out.push_back(text[i]);
  }
  if (out.size() < 2 || out.substr(out.size() - 2) != "\r\n") out += "\r\n";
  return out;
}

std::string mailbox_header(const Mailbox& m) {
  if (m.display.empty()) return m.address;
  std::string d = is_ascii_printable(m.display) ? "\"" + m.display + "\"" : encode_header_words(m.display);
  return d + " <" + m.address + ">";
}

}  // namespace

SmtpConfigResult smtp_config(const std::function<const char*(const char*)>& get) {
  auto fail = [](std::string e) { return SmtpConfigResult{std::nullopt, std::move(e)}; };
  SmtpConfig c;
  const char* host = get("SMTP_HOST");
  if (!host) return fail("smtp: SMTP_HOST is not set (required for `smtp.send`)");
  c.host = trim(host);
  if (c.host.empty()) return fail("smtp: SMTP_HOST is empty");
  std::string tls = lower_ascii(trim(get("SMTP_TLS") ? get("SMTP_TLS") : ""));
  if (tls.empty() || tls == "starttls") c.tls = SmtpTls::StartTls;
  else if (tls == "implicit" || tls == "tls" || tls == "ssl") c.tls = SmtpTls::Implicit;
  else if (tls == "none" || tls == "plain") c.tls = SmtpTls::None;
  else return fail("smtp: SMTP_TLS must be one of starttls, implicit (tls, ssl), none (plain) — received `" + tls + "`");
  c.port = c.tls == SmtpTls::StartTls ? 587 : c.tls == SmtpTls::Implicit ? 465 : 25;
  if (const char* p = get("SMTP_PORT"); p && *p) {
    std::string s = trim(p);
    unsigned v = 0;
    bool ok = !s.empty() && s.size() <= 5;
    for (char ch : s) ok = ok && ch >= '0' && ch <= '9', v = v * 10 + unsigned(ch - '0');
    if (!ok || v > 65535) return fail("smtp: SMTP_PORT is not a valid u16: `" + std::string(p) + "`");
    c.port = uint16_t(v);
  }
  const char* user = get("SMTP_USER");
  const char* password = get("SMTP_PASSWORD");
  if (user && *user && !(password && *password)) return fail("smtp: SMTP_USER is set but SMTP_PASSWORD is not");
  if (password && *password && !(user && *user)) return fail("smtp: SMTP_PASSWORD is set but SMTP_USER is not");
  if (user) c.user = user;
  if (password) c.password = password;
  if (const char* f = get("SMTP_FROM")) c.from = trim(f);
  if (const char* t = get("SMTP_TIMEOUT_MS"); t && *t) {
    char* end = nullptr;
    long long v = std::strtoll(t, &end, 10);
    if (!end || *end || v <= 0) return fail("smtp: SMTP_TIMEOUT_MS must be a positive Int: `" + std::string(t) + "`");
    c.timeout_ms = v;
  }
  return SmtpConfigResult{std::move(c), {}};
}

std::optional<Mailbox> parse_mailbox(std::string_view text, std::string* why) {
  std::string t = trim(text);
  Mailbox m;
  size_t lt = t.find('<');
  if (lt != std::string::npos) {
    size_t gt = t.find('>', lt);
    if (gt == std::string::npos || gt + 1 != t.size()) {
      *why = "unbalanced `<`";
      return std::nullopt;
    }
    m.display = trim(std::string_view(t).substr(0, lt));
    if (m.display.size() >= 2 && m.display.front() == '"' && m.display.back() == '"')
      m.display = m.display.substr(1, m.display.size() - 2);
    m.address = trim(std::string_view(t).substr(lt + 1, gt - lt - 1));
  } else {
    m.address = t;
  }
  for (unsigned char c : m.display)
    if (c == '\r' || c == '\n' || c == '"' || c == '<' || c == '>') {
      *why = "invalid character in the display name";
      return std::nullopt;
    }
  if (m.address.find(',') != std::string::npos) {
    *why = "exactly one mailbox is accepted";
    return std::nullopt;
  }
  if (!valid_address(m.address)) {
    *why = "not an email address";
    return std::nullopt;
  }
  return m;
}

std::string base64(std::string_view in, bool wrap) {
  static const char* tbl = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t col = 0;
  auto put = [&](char c) {
    if (wrap && col == 76) {
      out += "\r\n";
      col = 0;
    }
    out.push_back(c);
    ++col;
  };
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t x = (uint32_t(uint8_t(in[i])) << 16) | (uint32_t(uint8_t(in[i + 1])) << 8) | uint8_t(in[i + 2]);
    put(tbl[x >> 18]), put(tbl[(x >> 12) & 63]), put(tbl[(x >> 6) & 63]), put(tbl[x & 63]);
  }
  if (i < in.size()) {
    uint32_t x = uint32_t(uint8_t(in[i])) << 16;
    if (i + 1 < in.size()) x |= uint32_t(uint8_t(in[i + 1])) << 8;
    put(tbl[x >> 18]), put(tbl[(x >> 12) & 63]);
    put(i + 1 < in.size() ? tbl[(x >> 6) & 63] : '=');
    put('=');
  }
  return out;
}

std::string encode_header_words(std::string_view text) {
  if (is_ascii_printable(text)) return std::string(text);
  // Encoded words stay within 75 characters: 45 bytes of UTF-8 (60 of base64) per word, cut
  // between characters, never inside one.
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    size_t end = std::min(text.size(), i + 45);
    while (end < text.size() && end > i && (uint8_t(text[end]) & 0xC0) == 0x80) --end;
    if (!out.empty()) out += "\r\n ";
    out += "=?UTF-8?B?" + base64(text.substr(i, end - i)) + "?=";
    i = end;
  }
  return out;
}

std::string build_message(const MailParts& p) {
  std::string m;
  m += "From: " + mailbox_header(p.from) + "\r\n";
  m += "To: " + mailbox_header(p.to) + "\r\n";
  m += "Subject: " + encode_header_words(p.subject) + "\r\n";
  m += "Date: " + p.date + "\r\n";
  m += "Message-ID: <" + p.message_id + ">\r\n";
  m += "MIME-Version: 1.0\r\n";
  std::string enc;
  if (!p.text.empty() && !p.html.empty()) {
    m += "Content-Type: multipart/alternative; boundary=\"" + p.boundary + "\"\r\n\r\n";
    std::string text = part_body(p.text, &enc);
    m += "--" + p.boundary + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: " + enc +
         "\r\n\r\n" + text;
    std::string html = part_body(p.html, &enc);
    m += "--" + p.boundary + "\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: " + enc +
         "\r\n\r\n" + html;
    m += "--" + p.boundary + "--\r\n";
  } else {
    bool html = p.text.empty();
    std::string body = part_body(html ? p.html : p.text, &enc);
    m += std::string("Content-Type: ") + (html ? "text/html" : "text/plain") + "; charset=utf-8\r\n";
    m += "Content-Transfer-Encoding: " + enc + "\r\n\r\n" + body;
  }
  // Dot-stuffing: a line that starts with "." gets another one.
  std::string out;
  out.reserve(m.size() + 16);
  bool line_start = true;
  for (char c : m) {
    if (line_start && c == '.') out.push_back('.');
    out.push_back(c);
    line_start = c == '\n';
  }
  return out;
}

std::string SmtpReply::text() const {
  std::string t = std::to_string(code);
  for (size_t i = 0; i < lines.size(); ++i) t += (i ? " " : " ") + lines[i];
  return t;
}

size_t parse_reply(std::string_view buf, SmtpReply* out) {
  SmtpReply r;
  size_t pos = 0;
  while (true) {
    size_t nl = buf.find('\n', pos);
    if (nl == std::string_view::npos) return buf.size() - pos > 4096 ? SIZE_MAX : 0;
    std::string_view line = buf.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() < 3 || line[0] < '2' || line[0] > '5' || line[1] < '0' || line[1] > '9' || line[2] < '0' ||
        line[2] > '9' || (line.size() > 3 && line[3] != ' ' && line[3] != '-'))
      return SIZE_MAX;
    int code = (line[0] - '0') * 100 + (line[1] - '0') * 10 + (line[2] - '0');
    if (r.code && code != r.code) return SIZE_MAX;
    r.code = code;
    r.lines.emplace_back(line.size() > 4 ? line.substr(4) : std::string_view());
    pos = nl + 1;
    if (line.size() == 3 || line[3] == ' ') break;
  }
  *out = std::move(r);
  return pos;
}

}  // namespace fitz::net
