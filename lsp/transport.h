// JSON-RPC 2.0 over a byte stream with LSP's Content-Length framing. The only layer besides
// the server that touches JSON; it never throws on bad input, it reports what was wrong.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace fitz::lsp {

using json = nlohmann::json;

// JSON-RPC and LSP error codes.
enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
  ServerCancelled = -32802,
  ContentModified = -32801,
  RequestCancelled = -32800,
};

// One framed message as read from the stream.
struct Frame {
  enum class Status : uint8_t {
    Ok,         // body holds the message bytes
    Eof,        // the stream ended (cleanly or mid-message)
    BadHeader,  // headers without a usable Content-Length; body is empty, error says why
  };
  Status status = Status::Eof;
  std::string body;
  std::string error;
};

// A message classified by shape.
struct Message {
  enum class Kind : uint8_t { Request, Notification, Response, Invalid };
  Kind kind = Kind::Invalid;
  json id;          // requests and responses
  std::string method;
  json params;      // null when absent
  json result;      // responses
  std::string error;  // Invalid: why
};

// Parses a body. A body that is not JSON yields nullopt (ParseError); anything that is JSON but
// not a JSON-RPC message yields Kind::Invalid (InvalidRequest).
std::optional<Message> parse_message(const std::string& body);

class Transport {
 public:
  Transport(std::istream& in, std::ostream& out) : in_(in), out_(out) {}

  // Blocks for the next frame. Header names are case-insensitive; unknown headers are ignored;
  // a body larger than kMaxBody is skipped and reported as BadHeader.
  Frame read();

  // Thread-safe; one message is written in full before the next starts.
  void send(const json& message);
  void respond(const json& id, json result);
  void respond_error(const json& id, ErrorCode code, const std::string& message);
  void notify(const std::string& method, json params);

  static constexpr uint64_t kMaxBody = uint64_t(256) << 20;

 private:
  std::istream& in_;
  std::ostream& out_;
  std::mutex write_mutex_;
};

// Frames a message as the wire carries it (for tests and harnesses).
std::string frame(const std::string& body);

}  // namespace fitz::lsp
