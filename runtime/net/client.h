// The outbound HTTP/1.1 client under the `http` module: one per event loop, with a keep-alive
// pool per origin, one total deadline per call, redirects, proxies and verified TLS. Callers
// hand it a request and get one callback on the loop's thread; Boost stays in client.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace fitz::net {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct ClientRequest {
  std::string method = "GET";  // upper-case HTTP token
  std::string url;
  HeaderList headers;          // as the caller wrote them
  std::string body;
  bool has_body = false;
  int64_t timeout_ms = 30000;  // total: DNS, connect, TLS, send, headers and body
  bool follow_redirects = true;
};

struct ClientResponse {
  int status = 0;
  std::string body;   // raw bytes
  HeaderList headers; // lower-case names, last value of a repeated name, in that value's place
  std::string content_type;
  int64_t duration_ms = 0;
};

// `error` is the whole Err text, already prefixed ("http: timeout calling `U`: ...").
struct ClientOutcome {
  bool ok = false;
  std::string error;
  ClientResponse response;
};

class Client {
 public:
  explicit Client(boost::asio::io_context& ioc);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Starts the exchange; `done` runs once, on the io_context's thread.
  void perform(ClientRequest request, std::function<void(ClientOutcome)> done);

  size_t idle_connections() const;
  // Closes the idle connections (the loop is going away).
  void close_idle();

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

// The client of this io_context, created on first use. It is an Asio service of the loop, so
// its pool lives exactly as long as the loop whose sockets it holds (a thread-local or static
// would outlive an HTTP worker's io_context and close sockets into a destroyed reactor).
Client& client_for(boost::asio::io_context& ioc);

// "fitz/<version>", the User-Agent sent unless the caller sets one.
const char* user_agent();

// The body as text: UTF-8 with invalid bytes replaced by U+FFFD, or Latin-1 converted when the
// Content-Type says charset=iso-8859-1.
std::string body_text(const std::string& raw, const std::string& content_type);

}  // namespace fitz::net
