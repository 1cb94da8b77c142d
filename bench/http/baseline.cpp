// Hand-written Boost.Beast baseline for the HTTP benchmark: the same routes as app.cpp
// (GET /health, POST /echo decoding {"text": Str, "n": Int} with Boost.JSON and encoding it
// back) plus GET /plaintext as TechEmpower specifies it, C++20 coroutines, keep-alive, a 30 s
// read timeout, N threads on one io_context.
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/src.hpp>
#include <cstdlib>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;
using tcp = asio::ip::tcp;

static http::response<http::string_body> handle(const http::request<http::string_body>& req) {
  http::response<http::string_body> res{http::status::ok, req.version()};
  res.set(http::field::content_type, "application/json");
  res.keep_alive(req.keep_alive());
  if (req.target() == "/health" && req.method() == http::verb::get) {
    res.body() = "{\"status\":\"ok\"}";
  } else if (req.target() == "/plaintext" && req.method() == http::verb::get) {
    res.set(http::field::content_type, "text/plain");
    res.body() = "Hello, World!";
  } else if (req.target() == "/echo" && req.method() == http::verb::post) {
    boost::system::error_code ec;
    json::value v = json::parse(req.body(), ec);
    const json::object* o = ec ? nullptr : v.if_object();
    const json::value* text = o ? o->if_contains("text") : nullptr;
    const json::value* n = o ? o->if_contains("n") : nullptr;
    if (!o || o->size() != 2 || !text || !text->is_string() || !n || !n->is_int64()) {
      res.result(http::status::bad_request);
      res.body() = "{\"error\":\"bad body\"}";
    } else {
      json::object out;
      out["text"] = text->as_string();
      out["n"] = n->as_int64();
      res.body() = json::serialize(out);
    }
  } else {
    res.result(http::status::not_found);
    res.body() = "{\"error\":\"not found\"}";
  }
  res.prepare_payload();
  return res;
}

static asio::awaitable<void> session(beast::tcp_stream stream) {
  beast::flat_buffer buffer;
  for (;;) {
    stream.expires_after(std::chrono::seconds(30));
    http::request_parser<http::string_body> parser;
    parser.body_limit(1024 * 1024);
    auto [ec, n] = co_await http::async_read(stream, buffer, parser, asio::as_tuple(asio::use_awaitable));
    if (ec) break;
    auto res = handle(parser.get());
    bool keep = res.keep_alive();
    auto [wec, wn] = co_await http::async_write(stream, res, asio::as_tuple(asio::use_awaitable));
    if (wec || !keep) break;
  }
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

static asio::awaitable<void> listen(tcp::endpoint ep) {
  auto ex = co_await asio::this_coro::executor;
  tcp::acceptor acceptor(ex, ep);
  for (;;) {
    tcp::socket s = co_await acceptor.async_accept(asio::use_awaitable);
    s.set_option(tcp::no_delay(true));
    asio::co_spawn(ex, session(beast::tcp_stream(std::move(s))), asio::detached);
  }
}

int main() {
  int port = std::getenv("PORT") ? std::atoi(std::getenv("PORT")) : 3001;
  int threads = std::getenv("FITZ_HTTP_THREADS") ? std::atoi(std::getenv("FITZ_HTTP_THREADS")) : 1;
  asio::io_context ioc(threads);
  asio::co_spawn(ioc, listen(tcp::endpoint(asio::ip::make_address("127.0.0.1"), uint16_t(port))), asio::detached);
  asio::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&](auto, auto) { ioc.stop(); });
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&] { ioc.run(); });
  ioc.run();
  for (auto& t : pool) t.join();
}
