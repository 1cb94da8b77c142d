// The byte stream under an AsyncConnection: a TCP socket, a Unix socket, or TLS over TCP, with
// one visit() so the runner issues the same read and write calls whatever the stream is.
// Internal to runtime/pg; opening (resolve, connect, SSLRequest, TLS handshake) is in
// async_connect.cpp.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <memory>

namespace fitz::pg {

class Transport {
 public:
  explicit Transport(boost::asio::io_context& ioc) : tcp(ioc), unix_socket(ioc) {}

  template <class F>
  decltype(auto) visit(F&& f) {
    if (tls) return f(*tls);
    if (is_unix) return f(unix_socket);
    return f(tcp);
  }

  int native_handle() { return is_unix ? unix_socket.native_handle() : tcp.native_handle(); }
  bool is_open() const { return is_unix ? unix_socket.is_open() : tcp.is_open(); }
  void close() {
    boost::system::error_code ec;
    tcp.close(ec);
    unix_socket.close(ec);
  }

  boost::asio::ip::tcp::socket tcp;
  boost::asio::local::stream_protocol::socket unix_socket;
  bool is_unix = false;
  std::unique_ptr<boost::asio::ssl::context> tls_context;
  std::unique_ptr<boost::asio::ssl::stream<boost::asio::ip::tcp::socket&>> tls;
};

}  // namespace fitz::pg
