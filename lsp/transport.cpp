// Content-Length framing and JSON-RPC message classification.
#include "lsp/transport.h"

#include <charconv>
#include <istream>
#include <ostream>

namespace fitz::lsp {

namespace {

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return s;
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return s.substr(b, e - b);
}

}  // namespace

std::optional<Message> parse_message(const std::string& body) {
  json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::nullopt;
  Message m;
  if (!j.is_object()) {
    m.error = "a message must be a JSON object";
    return m;
  }
  auto version = j.find("jsonrpc");
  if (version == j.end() || *version != "2.0") {
    m.error = "missing or wrong \"jsonrpc\": \"2.0\"";
    if (auto id = j.find("id"); id != j.end() && (id->is_number_integer() || id->is_string())) m.id = *id;
    return m;
  }
  auto id = j.find("id");
  bool has_id = id != j.end();
  if (has_id && !(id->is_number_integer() || id->is_string() || id->is_null())) {
    m.error = "\"id\" must be an integer or a string";
    return m;
  }
  if (has_id) m.id = *id;
  auto method = j.find("method");
  if (method != j.end()) {
    if (!method->is_string()) {
      m.error = "\"method\" must be a string";
      return m;
    }
    m.method = method->get<std::string>();
    if (auto p = j.find("params"); p != j.end() && !p->is_null()) {
      if (!p->is_object() && !p->is_array()) {
        m.error = "\"params\" must be an object or an array";
        return m;
      }
      m.params = *p;
    }
    m.kind = has_id ? Message::Kind::Request : Message::Kind::Notification;
    return m;
  }
  if (has_id && (j.contains("result") || j.contains("error"))) {
    m.kind = Message::Kind::Response;
    if (auto r = j.find("result"); r != j.end()) m.result = *r;
    return m;
  }
  m.error = "neither a request, a notification nor a response";
  return m;
}

Frame Transport::read() {
  Frame f;
  std::optional<uint64_t> length;
  bool any_header = false;
  bool bad_length = false;
  std::string line;
  while (true) {
    if (!std::getline(in_, line)) {
      f.status = Frame::Status::Eof;
      return f;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      if (!any_header) continue;  // stray blank lines between messages
      break;
    }
    any_header = true;
    size_t colon = line.find(':');
    if (colon == std::string::npos) {
      bad_length = true;  // not a header: keep reading to the blank line, then report
      continue;
    }
    std::string name = lower(trim(line.substr(0, colon)));
    std::string value = trim(line.substr(colon + 1));
    if (name == "content-length") {
      uint64_t n = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || p != value.data() + value.size()) {
        bad_length = true;
      } else {
        length = n;
      }
    }
  }
  if (!length || bad_length) {
    f.status = Frame::Status::BadHeader;
    f.error = length ? "malformed header line" : "missing or invalid Content-Length header";
    return f;
  }
  if (*length > kMaxBody) {
    in_.ignore(std::streamsize(*length));
    f.status = in_ ? Frame::Status::BadHeader : Frame::Status::Eof;
    f.error = "message too large";
    return f;
  }
  f.body.resize(*length);
  if (*length > 0) in_.read(f.body.data(), std::streamsize(*length));
  if (uint64_t(in_.gcount()) != *length && *length > 0) {
    f.status = Frame::Status::Eof;
    return f;
  }
  f.status = Frame::Status::Ok;
  return f;
}

std::string frame(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

void Transport::send(const json& message) {
  // Invalid UTF-8 (from a file's bytes) is replaced rather than failing the whole message.
  std::string body = message.dump(-1, ' ', false, json::error_handler_t::replace);
  std::lock_guard lock(write_mutex_);
  out_ << frame(body);
  out_.flush();
}

void Transport::respond(const json& id, json result) {
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void Transport::respond_error(const json& id, ErrorCode code, const std::string& message) {
  send(json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", int(code)}, {"message", message}}}});
}

void Transport::notify(const std::string& method, json params) {
  send(json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

}  // namespace fitz::lsp
