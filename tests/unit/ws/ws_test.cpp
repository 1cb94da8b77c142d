// WebSocket endpoints end to end: a real server (App + Hub on loopback, ephemeral port) and
// Beast clients. Echo of typed JSON and bytes, broadcast to many clients (also from an HTTP
// handler), guards on the upgrade with the bearer subprotocol, and the faults: malformed
// frames, oversized messages, a client that never reads, a silent client (heartbeat), a
// handler that fails. After each fault the server must keep serving.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <chrono>
#include <thread>
#include <vector>

#include "client.h"
#include "fitz/ws.h"

namespace fitz {
namespace {

struct Chat {
  static constexpr const char* fitz_name = "Chat";
  static constexpr const char* fitz_field_names[] = {"text", "n"};
  Str text;
  int64_t n = 0;
  auto fitz_fields() const { return std::tie(text, n); }
  auto fitz_fields() { return std::tie(text, n); }
};

}  // namespace

template <> struct http::JsonDecode<Ref<Chat>> {
  static bool read(JsonReader& r, Ref<Chat>* out) {
    static const Text names[] = {"text", "n"};
    Chat v;
    uint64_t seen = 0;
    if (!r.begin_object()) return false;
    if (!read_fields(r, names, 2, &seen, [&](size_t i) { return i == 0 ? r.read(&v.text) : r.read(&v.n); }))
      return false;
    if (!(seen & 1)) {
      r.fail_missing("text");
      return false;
    }
    *out = make<Chat>(v.text, v.n);
    return true;
  }
};

namespace ws {
namespace {

using test_support::Client;
namespace asio = test_support::asio;
namespace beast = test_support::beast;
namespace bws = test_support::bws;
namespace bhttp = test_support::bhttp;
using tcp = test_support::tcp;
const Str kKey = "ws-test-secret"_s;

// @ws("/echo") with WsConn<Chat>: answers each message with n + 1; a message that is not a Chat
// gets {"error": ...} and the loop goes on.
Task<Null> echo(Conn conn) {
  while (true) {
    Result<Message, Str> raw = co_await conn.recv_message();
    if (!raw.is_ok()) break;
    http::JsonReader r(raw.value().data.data(), raw.value().data.size());
    Ref<Chat> m;
    if (raw.value().binary || !http::from_json(r, &m)) {
      Map<Str, Str> e;
      e.set("error"_s, raw.value().binary ? "binary"_s : r.error());
      conn.send(e);
      continue;
    }
    m->n += 1;
    conn.send(m);
  }
  co_return null;
}

// WsConn<Bytes>: bytes back, reversed.
Task<Null> bytes_echo(Conn conn) {
  while (true) {
    Result<Bytes, Str> b = co_await conn.recv_bytes();
    if (!b.is_ok()) break;
    std::string s(b.value().data(), b.value().size());
    std::reverse(s.begin(), s.end());
    conn.send_bytes(Bytes(s.data(), s.size()));
  }
  co_return null;
}

// Chat room: every message goes to every client, sender included.
Task<Null> room(Conn conn) {
  while (true) {
    Result<Ref<Chat>, Str> m = co_await conn.recv<Ref<Chat>>();
    if (!m.is_ok()) break;
    conn.broadcast(m.value());
  }
  co_return null;
}

// Guarded endpoint: greets the user by the token's subject.
Task<Null> whoami(Conn conn, auth::Claims user) {
  conn.send(user.at("sub"_s));
  Result<Message, Str> m = co_await conn.recv_message();  // wait for the client to go
  (void)m;
  co_return null;
}

// Answers one message, then returns: the connection closes normally.
Task<Null> once(Conn conn) {
  Result<Message, Str> m = co_await conn.recv_message();
  if (m.is_ok()) conn.send_text(m.value().data);
  co_return null;
}

Task<Null> failing(Conn conn) {
  co_await conn.recv_message();
  runtime_error(SourcePos{}, "handler failed");
}

Task<Null> idle(Conn conn) {
  while (true) {
    Result<Message, Str> m = co_await conn.recv_message();
    if (!m.is_ok()) break;
  }
  co_return null;
}

struct Server {
  http::App app;
  std::unique_ptr<Hub> hub;
  auth::Guard<auth::Claims> guard = auth::jwt_guard(kKey, auth::Alg::HS256);
  int port = 0;

  explicit Server(WsConfig cfg = WsConfig()) {
    http::ServerConfig& c = app.config();
    c.port = 0;
    c.threads = 2;
    c.handle_signals = false;
    c.banner = false;
    c.access_log = false;
    c.drain_delay_ms = 0;
    c.shutdown_timeout_secs = 2;
    hub = std::make_unique<Hub>(app, cfg);
    hub->endpoint("/echo", [](Conn c) { return echo(c); });
    hub->endpoint("/bytes", [](Conn c) { return bytes_echo(c); });
    hub->endpoint("/room", [](Conn c) { return room(c); });
    hub->endpoint("/fail", [](Conn c) { return failing(c); });
    hub->endpoint("/once", [](Conn c) { return once(c); });
    hub->endpoint("/idle", [](Conn c) { return idle(c); });
    hub->endpoint("/me", guard, auth::Requirement::authenticated(),
                  [](Conn c, const auth::Claims& u) { return whoami(c, u); });
    hub->endpoint("/admin-room", [](Conn c) { return idle(c); })
        .before(guard.before(auth::Requirement::admin_role()));
    // ws_broadcast from an HTTP handler.
    app.post("/announce", [this](http::Request& req) {
      hub->broadcast_text("/room", req.body_str());
      hub->broadcast_text("/nobody-here", req.body_str());
      return http::Response::empty(204);
    });
    Str err;
    if (!app.start(&err)) ADD_FAILURE() << err.c_str();
    port = app.port();
  }
  ~Server() {
    app.shutdown();
    app.wait();
  }
  // Waits (bounded) until the hub's counters satisfy `pred`.
  template <class P> bool eventually(P pred, int ms = 5000) {
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < end) {
      if (pred(hub->stats())) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return pred(hub->stats());
  }
  void expect_serving() {
    Client c;
    ASSERT_TRUE(c.connect(port, "/echo")) << c.handshake_error.message();
    ASSERT_TRUE(c.send_text(R"({"text":"still here","n":1})"));
    EXPECT_EQ(c.read_or(), R"({"text":"still here","n":2})");
  }
};

std::string token(const char* sub, const char* role) {
  auth::Claims c;
  c.set("sub"_s, Any(Str(sub)));
  c.set("role"_s, Any(Str(role)));
  c.set("exp"_s, Any(auth::unix_now() + 600));
  Str t = auth::jwt_encode(c, kKey).value();
  return std::string(t.data(), t.size());
}

TEST(WebSocket, EchoTypedJson) {
  Server srv;
  Client c;
  ASSERT_TRUE(c.connect(srv.port, "/echo")) << c.handshake_error.message();
  EXPECT_EQ(c.handshake_status, 101);
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(c.send_text(R"({"text":"hi","n":)" + std::to_string(i) + "}"));
    EXPECT_EQ(c.read_or(), R"({"text":"hi","n":)" + std::to_string(i + 1) + "}");
  }
  ASSERT_TRUE(c.send_text(R"({"n":"x"})"));
  EXPECT_EQ(c.read_or(), R"({"error":"field 'n': expected Int, found Str"})");
  ASSERT_TRUE(c.send_text("{not json"));
  EXPECT_EQ(c.read_or(), R"({"error":"expected a string key at line 1, column 2"})");
  ASSERT_TRUE(c.send_binary("\x01\x02"));
  EXPECT_EQ(c.read_or(), R"({"error":"binary"})");
  EXPECT_EQ(srv.hub->stats().open, 1);
  c.ws.close(bws::close_code::normal);
  EXPECT_TRUE(srv.eventually([](const HubStats& s) { return s.open == 0; }));
}

TEST(WebSocket, Bytes) {
  Server srv;
  Client c;
  ASSERT_TRUE(c.connect(srv.port, "/bytes"));
  std::string blob("a\0b\xff", 4);
  ASSERT_TRUE(c.send_binary(blob));
  std::string got;
  bool binary = false;
  ASSERT_TRUE(c.read(&got, &binary));
  EXPECT_TRUE(binary);
  EXPECT_EQ(got, std::string("\xff" "b\0a", 4));
}

TEST(WebSocket, BroadcastToManyClients) {
  Server srv;
  const int kClients = 40;
  std::vector<std::unique_ptr<Client>> cs;
  for (int i = 0; i < kClients; ++i) {
    cs.push_back(std::make_unique<Client>());
    ASSERT_TRUE(cs.back()->connect(srv.port, "/room")) << i;
  }
  ASSERT_TRUE(srv.eventually([&](const HubStats& s) { return s.open == kClients; }));
  ASSERT_TRUE(cs[3]->send_text(R"({"text":"hello all","n":7})"));
  for (int i = 0; i < kClients; ++i) EXPECT_EQ(cs[i]->read_or(), R"({"text":"hello all","n":7})") << i;
  // From an HTTP handler (ws_broadcast), including a path with no clients.
  {
    beast::error_code ec;
    asio::io_context ioc;
    tcp::socket s(ioc);
    s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), uint16_t(srv.port)), ec);
    ASSERT_FALSE(ec);
    test_support::set_timeouts(s.native_handle(), 5000);
    bhttp::request<bhttp::string_body> req(bhttp::verb::post, "/announce", 11);
    req.set(bhttp::field::host, "x");
    req.set(bhttp::field::content_type, "application/json");
    req.body() = R"({"text":"news","n":0})";
    req.prepare_payload();
    bhttp::write(s, req, ec);
    beast::flat_buffer b;
    bhttp::response<bhttp::string_body> res;
    bhttp::read(s, b, res, ec);
    EXPECT_EQ(int(res.result_int()), 204);
  }
  for (int i = 0; i < kClients; ++i) EXPECT_EQ(cs[i]->read_or(), R"({"text":"news","n":0})") << i;
  EXPECT_EQ(srv.hub->stats().accepted, kClients);
}

TEST(WebSocket, NotAnUpgrade) {
  Server srv;
  asio::io_context ioc;
  tcp::socket s(ioc);
  beast::error_code ec;
  s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), uint16_t(srv.port)), ec);
  ASSERT_FALSE(ec);
  test_support::set_timeouts(s.native_handle(), 5000);
  bhttp::request<bhttp::empty_body> req(bhttp::verb::get, "/echo", 11);
  req.set(bhttp::field::host, "x");
  bhttp::write(s, req, ec);
  beast::flat_buffer b;
  bhttp::response<bhttp::string_body> res;
  bhttp::read(s, b, res, ec);
  EXPECT_EQ(int(res.result_int()), 426);
  EXPECT_EQ(res.body(), R"({"error":"expected a WebSocket upgrade"})");
}

TEST(WebSocket, BadHandshakeIsAnHttpError) {
  Server srv;
  // Upgrade headers without Sec-WebSocket-Key / Version: Beast refuses the handshake.
  asio::io_context ioc;
  tcp::socket s(ioc);
  beast::error_code ec;
  s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), uint16_t(srv.port)), ec);
  ASSERT_FALSE(ec);
  test_support::set_timeouts(s.native_handle(), 5000);
  bhttp::request<bhttp::empty_body> req(bhttp::verb::get, "/echo", 11);
  req.set(bhttp::field::host, "x");
  req.set(bhttp::field::upgrade, "websocket");
  req.set(bhttp::field::connection, "Upgrade");
  bhttp::write(s, req, ec);
  beast::flat_buffer b;
  bhttp::response<bhttp::string_body> res;
  bhttp::read(s, b, res, ec);
  EXPECT_EQ(int(res.result_int()), 400);
  EXPECT_TRUE(srv.eventually([](const HubStats& st) { return st.rejected == 1 && st.open == 0; }));
  srv.expect_serving();
}

TEST(WebSocket, HandlerReturnClosesWith1000) {
  Server srv;
  Client c;
  ASSERT_TRUE(c.connect(srv.port, "/once"));
  ASSERT_TRUE(c.send_text("bye"));
  EXPECT_EQ(c.read_or(), "bye");
  EXPECT_EQ(c.read_until_closed(), 1000);
}

TEST(WebSocket, GuardsOnTheUpgrade) {
  Server srv;
  // No token: the upgrade is answered with an HTTP 401.
  Client anon;
  EXPECT_FALSE(anon.connect(srv.port, "/me"));
  EXPECT_EQ(anon.handshake_status, 401);
  // A bad token in the subprotocol: 401 too.
  Client bad;
  EXPECT_FALSE(bad.connect(srv.port, "/me", "bearer.abc.def.ghi"));
  EXPECT_EQ(bad.handshake_status, 401);
  // Browsers: the token in the subprotocol, which is echoed back.
  std::string tok = token("alice", "user");
  Client browser;
  ASSERT_TRUE(browser.connect(srv.port, "/me", "bearer." + tok)) << browser.handshake_error.message();
  EXPECT_EQ(browser.accepted_protocol, "bearer." + tok);
  EXPECT_EQ(browser.read_or(), R"("alice")");
  // Other clients: the Authorization header.
  Client cli;
  ASSERT_TRUE(cli.connect(srv.port, "/me", "", "Bearer " + token("bob", "user")));
  EXPECT_EQ(cli.read_or(), R"("bob")");
  // A guard as before-middleware: 403 for a user, upgrade for an admin.
  Client user;
  EXPECT_FALSE(user.connect(srv.port, "/admin-room", "bearer." + tok));
  EXPECT_EQ(user.handshake_status, 403);
  Client admin;
  EXPECT_TRUE(admin.connect(srv.port, "/admin-room", "bearer." + token("root", "admin")));
  EXPECT_GE(srv.hub->stats().rejected, 2);
}

TEST(WebSocket, MalformedFramesCloseOnlyThatConnection) {
  Server srv;
  // Frames a server must refuse: unmasked client frame, reserved opcode, RSV bits, a control
  // frame longer than 125 bytes, garbage.
  const std::string bad_frames[] = {
      std::string("\x81\x05hello", 7),
      std::string("\x83\x80\x00\x00\x00\x00", 6),
      std::string("\xf1\x80\x00\x00\x00\x00", 6),
      std::string("\x89\xfe\x01\x00\x00\x00\x00\x00", 8) + std::string(256, 'x'),
      std::string(14, '\xff'),  // a whole (absurd) header: RSV bits, opcode 15, 2^64-1 bytes
  };
  for (const std::string& frame : bad_frames) {
    Client c;
    ASSERT_TRUE(c.connect(srv.port, "/echo"));
    asio::write(c.ws.next_layer(), asio::buffer(frame), c.error);
    int code = c.read_until_closed(10);
    EXPECT_TRUE(code == 1002 || code == 0) << code;  // 1002, or the socket just closed
    EXPECT_TRUE(c.error) << "the server kept a broken connection open";
  }
  srv.expect_serving();
  EXPECT_TRUE(srv.eventually([](const HubStats& s) { return s.open == 0; }));
}

TEST(WebSocket, OversizedMessageIsClosedWith1009) {
  WsConfig cfg;
  cfg.max_message_bytes = 4096;
  Server srv(cfg);
  Client c;
  ASSERT_TRUE(c.connect(srv.port, "/echo"));
  ASSERT_TRUE(c.send_text(R"({"text":")" + std::string(3000, 'a') + R"("})"));
  EXPECT_EQ(c.read_or().size(), 3000u + 17u);
  c.send_text(R"({"text":")" + std::string(10000, 'a') + R"("})");
  EXPECT_EQ(c.read_until_closed(), 1009);
  EXPECT_TRUE(srv.eventually([](const HubStats& s) { return s.closed_too_big == 1 && s.open == 0; }));
  srv.expect_serving();
}

TEST(WebSocket, ClientThatNeverReadsIsClosedWith1008) {
  WsConfig cfg;
  cfg.max_outbox_messages = 64;
  cfg.max_outbox_bytes = 256 * 1024;
  Server srv(cfg);
  Client slow;
  ASSERT_TRUE(slow.connect(srv.port, "/room"));
  Client fast;
  ASSERT_TRUE(fast.connect(srv.port, "/room"));
  ASSERT_TRUE(srv.eventually([](const HubStats& s) { return s.open == 2; }));
  // 64 MB of broadcasts: far beyond what the socket buffers and the outbox can hold. The fast
  // client reads everything; the slow one reads nothing.
  std::string big = R"({"text":")" + std::string(64 * 1024, 'z') + R"(","n":1})";
  int received = 0;
  for (int i = 0; i < 1000 && srv.hub->stats().closed_slow == 0; ++i) {
    srv.hub->broadcast_text("/room", Str(big.data(), big.size()));
    std::string m;
    if (fast.read(&m)) ++received;
  }
  EXPECT_TRUE(srv.eventually([](const HubStats& s) { return s.closed_slow == 1; }));
  EXPECT_GT(received, 0);
  // Once the slow client reads, it finds the close frame (1008) after what was in flight.
  EXPECT_EQ(slow.read_until_closed(), 1008);
  EXPECT_TRUE(srv.eventually([](const HubStats& s) { return s.open == 1; }));
  // The other client and new ones are served.
  ASSERT_TRUE(fast.send_text(R"({"text":"after","n":2})"));
  std::string m;
  bool found = false;
  for (int i = 0; i < 2000 && !found; ++i) found = fast.read(&m) && m == R"({"text":"after","n":2})";
  EXPECT_TRUE(found);
  srv.expect_serving();
}

TEST(WebSocket, SilentClientIsDroppedByTheHeartbeat) {
  WsConfig cfg;
  // Generous against scheduling delays on a loaded machine: `live` must get the CPU within
  // 2 * 300 ms to answer a ping.
  cfg.heartbeat_ms = 300;
  cfg.handshake_timeout_ms = 1000;
  Server srv(cfg);
  // A client blocked in read() answers the server's pings there and stays connected.
  Client live;
  ASSERT_TRUE(live.connect(srv.port, "/room"));
  int pings = 0;
  live.ws.control_callback([&pings](bws::frame_type kind, beast::string_view) {
    if (kind == bws::frame_type::ping) ++pings;
  });
  // A client that completed the handshake and then stopped doing anything at all.
  Client silent;
  ASSERT_TRUE(silent.connect(srv.port, "/idle"));
  // Several heartbeat periods later, a message for `live`.
  std::thread later([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    Client other;
    if (other.connect(srv.port, "/room")) other.send_text(R"({"text":"x"})");
    other.read_or();
  });
  EXPECT_EQ(live.read_or(), R"({"text":"x","n":0})");
  later.join();
  EXPECT_GT(pings, 0);
  // The silent client's socket sees the server end the connection.
  std::string buf(4096, '\0');
  beast::error_code ec;
  for (int i = 0; i < 100 && !ec; ++i) silent.ws.next_layer().read_some(asio::buffer(buf), ec);
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
  EXPECT_TRUE(srv.eventually([](const HubStats& s) { return s.open == 1; }));
  live.send_text(R"({"text":"still","n":1})");
  EXPECT_EQ(live.read_or(), R"({"text":"still","n":1})");
}

TEST(WebSocket, ThousandConnectionsWithBroadcasts) {
  rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 4096) {
    rl.rlim_cur = std::min<rlim_t>(rl.rlim_max, 4096);
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  Server srv;
  const int kClients = 1000, kMessages = 20;
  std::vector<std::unique_ptr<Client>> cs;
  for (int i = 0; i < kClients; ++i) {
    cs.push_back(std::make_unique<Client>());
    ASSERT_TRUE(cs.back()->connect(srv.port, "/room")) << i << ": " << cs.back()->handshake_error.message();
  }
  ASSERT_TRUE(srv.eventually([&](const HubStats& s) { return s.open == kClients; }, 20000));
  // Broadcasts from an HTTP-side caller and from a client, while nobody reads yet: each
  // connection's outbox (or socket buffer) holds them.
  for (int m = 0; m < kMessages; ++m)
    srv.hub->broadcast_text("/room", Str(("{\"text\":\"m\",\"n\":" + std::to_string(m) + "}").c_str()));
  ASSERT_TRUE(cs[0]->send_text(R"({"text":"last","n":99})"));
  for (int i = 0; i < kClients; ++i) {
    for (int m = 0; m < kMessages; ++m)
      ASSERT_EQ(cs[i]->read_or(), "{\"text\":\"m\",\"n\":" + std::to_string(m) + "}") << "client " << i;
    ASSERT_EQ(cs[i]->read_or(), R"({"text":"last","n":99})") << "client " << i;
  }
  HubStats st = srv.hub->stats();
  EXPECT_EQ(st.closed_slow, 0);
  EXPECT_EQ(st.accepted, kClients);
  srv.expect_serving();
  cs.clear();
  EXPECT_TRUE(srv.eventually([](const HubStats& s) { return s.open == 0; }, 20000));
}

TEST(WebSocket, FailingHandlerClosesWith1011) {
  Server srv;
  Client c;
  ASSERT_TRUE(c.connect(srv.port, "/fail"));
  ASSERT_TRUE(c.send_text("{}"));
  EXPECT_EQ(c.read_until_closed(), 1011);
  srv.expect_serving();
}

}  // namespace
}  // namespace ws
}  // namespace fitz
