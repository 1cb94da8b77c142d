// A blocking Beast websocket client for the loopback tests. Socket receive and send timeouts
// bound every read and write, so a server bug fails a test instead of hanging it.
#pragma once

#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <memory>
#include <string>

namespace fitz::ws::test_support {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bws = boost::beast::websocket;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;

inline void set_timeouts(int fd, int ms) {
  timeval tv{ms / 1000, (ms % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

struct Client {
  asio::io_context ioc;
  bws::stream<tcp::socket> ws{ioc};
  int handshake_status = 0;       // the server's answer to the upgrade request
  std::string accepted_protocol;  // its Sec-WebSocket-Protocol
  beast::error_code handshake_error;

  // Connects and performs the opening handshake; `protocols` is the Sec-WebSocket-Protocol
  // offer, `auth` an Authorization header value.
  bool connect(int port, const std::string& path, const std::string& protocols = "", const std::string& auth = "",
               int timeout_ms = 5000) {
    beast::error_code ec;
    auto& sock = ws.next_layer();
    sock.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), uint16_t(port)), ec);
    if (ec) return false;
    set_timeouts(sock.native_handle(), timeout_ms);
    ws.set_option(bws::stream_base::decorator([protocols, auth](bws::request_type& req) {
      if (!protocols.empty()) req.set(bhttp::field::sec_websocket_protocol, protocols);
      if (!auth.empty()) req.set(bhttp::field::authorization, auth);
    }));
    bws::response_type res;
    ws.handshake(res, "127.0.0.1", path, handshake_error);
    handshake_status = int(res.result_int());
    auto it = res.find(bhttp::field::sec_websocket_protocol);
    if (it != res.end()) accepted_protocol = std::string(it->value());
    return !handshake_error;
  }

  bool send_text(const std::string& s) {
    beast::error_code ec;
    ws.text(true);
    ws.write(asio::buffer(s), ec);
    return !ec;
  }
  bool send_binary(const std::string& s) {
    beast::error_code ec;
    ws.binary(true);
    ws.write(asio::buffer(s), ec);
    return !ec;
  }
  // The next message, or false (closed, error or timeout) with `error` set.
  bool read(std::string* out, bool* binary = nullptr) {
    beast::flat_buffer b;
    ws.read(b, error);
    if (error) return false;
    *out = beast::buffers_to_string(b.data());
    if (binary) *binary = ws.got_binary();
    return true;
  }
  std::string read_or(const std::string& fallback = "<none>") {
    std::string s;
    return read(&s) ? s : fallback;
  }
  // Reads until the connection ends; the close code the server sent (0 when none).
  int read_until_closed(int max_messages = 1000000) {
    std::string s;
    for (int i = 0; i < max_messages; ++i)
      if (!read(&s)) break;
    return int(ws.reason().code);
  }
  beast::error_code error;
};

}  // namespace fitz::ws::test_support
