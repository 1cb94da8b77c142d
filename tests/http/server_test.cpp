// End-to-end tests over loopback: a server built from the public API (as generated code would
// build it) on 127.0.0.1 and an ephemeral port, exercised with real and malformed HTTP.
// After each piece of bad input the test checks the server still answers.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "../unit/http/colliding_keys.h"
#include "client.h"
#include "fitz/http.h"

namespace fitz::http {
namespace {

using namespace fitz::http::test_support;

struct Msg {
  static constexpr const char* fitz_name = "Msg";
  static constexpr const char* fitz_field_names[] = {"text", "n"};
  Str text;
  int64_t n = 0;
  auto fitz_fields() const { return std::tie(text, n); }
  auto fitz_fields() { return std::tie(text, n); }
};

}  // namespace

template <> struct JsonDecode<Ref<Msg>> {
  static bool read(JsonReader& r, Ref<Msg>* out) {
    static const Text names[] = {"text", "n"};
    Msg v;
    uint64_t seen = 0;
    if (!r.begin_object()) return false;
    if (!read_fields(r, names, 2, &seen, [&](size_t i) { return i == 0 ? r.read(&v.text) : r.read(&v.n); }))
      return false;
    if (!(seen & 1)) {
      r.fail_missing("text");
      return false;
    }
    *out = make<Msg>(v.text, v.n);
    return true;
  }
};

namespace {

Task<Response> sleepy(Request&) {
  co_await fitz::sleep(30);
  co_return Response::json(200, "\"awake\""_s);
}

void build_app(App& app) {
  ServerConfig& c = app.config();
  c.port = 0;
  c.host = "127.0.0.1"_s;
  c.threads = 2;
  c.handle_signals = false;
  c.banner = false;
  c.access_log = false;
  c.max_body_bytes = 64 * 1024;
  c.max_header_bytes = 8 * 1024;
  c.request_timeout_ms = 1500;
  c.idle_timeout_ms = 4000;
  c.drain_delay_ms = 200;
  c.shutdown_timeout_secs = 3;
  c.max_connections = 5000;
  app.get("/health", [](Request&) { return Response::json(200, Str::lit("{\"status\":\"ok\"}")); });
  app.post("/echo", [](Request& r) {
    Binder b(r);
    Ref<Msg> m = b.body_json<Ref<Msg>>("Msg");
    if (b.failed()) return b.error();
    return Response::json_value(200, m);
  });
  app.post("/any", [](Request& r) {
    Binder b(r);
    Any v = b.body_json<Any>("Any");
    if (b.failed()) return b.error();
    return Response::json_value(200, v);
  });
  // Reports how the decoded map spread its keys (the hash-flood test reads it).
  app.post("/map", [](Request& r) {
    Binder b(r);
    Map<Str, int64_t> m = b.body_json<Map<Str, int64_t>>("Counts");
    if (b.failed()) return b.error();
    std::string out = "{\"keys\":" + std::to_string(m.len()) + ",\"probe\":" + std::to_string(m.longest_probe()) + "}";
    return Response::json(200, Str(out.data(), out.size()));
  });
  app.get("/users/{id}", [](Request& r) {
    Binder b(r);
    int64_t id = b.path_int(0, "id");
    if (b.failed()) return b.error();
    return Response::json_value(200, id);
  });
  app.get("/search?q={q}&limit={limit}", [](Request& r) {
    Binder b(r);
    Str q = b.query_str("q");
    Nullable<int64_t> limit = b.query_int_opt("limit");
    if (b.failed()) return b.error();
    Buf out;
    JsonWriter w(out);
    w.begin_object();
    w.key("q");
    w.value(q);
    w.key("limit");
    w.value(limit);
    w.end_object();
    return Response::json(200, out.take());
  });
  app.get("/boom", [](Request&) -> Response {
    List<int64_t> xs;
    return Response::json_value(200, xs.at(3));
  });
  app.get("/sleep", sleepy);
  app.get("/mw", [](Request& r) { return Response::json(200, "\"h\""_s); })
      .before([](Request& r) -> Nullable<Response> {
        if (r.header("x-block").has_value()) return Response::error(403, Text("blocked"));
        return null;
      })
      .around([](Request&, Next& next) {
        Response resp = next.call();
        resp.set_header("X-Order"_s, "around"_s);
        return resp;
      })
      .after([](Request&, Response resp) {
        auto v = resp.header("x-order");
        resp.set_header("X-Order"_s, concat({v.has_value() ? v.value() : ""_s, ",after"_s}));
        return resp;
      });
  CorsOptions cors;
  cors.origin = CorsOptions::Origin::List;
  cors.origins = {"https://app.example"_s, "https://admin.example"_s};
  cors.max_age = 600;
  app.get("/cors", [](Request&) { return Response::json(200, "1"_s); }).cors(cors);
}

class ServerTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 8192) {
      rl.rlim_cur = std::min<rlim_t>(rl.rlim_max, 8192);
      setrlimit(RLIMIT_NOFILE, &rl);
    }
    app_ = new App();
    build_app(*app_);
    Str err;
    ASSERT_TRUE(app_->start(&err)) << err.c_str();
    port_ = app_->port();
  }
  static void TearDownTestSuite() {
    delete app_;  // graceful stop
    app_ = nullptr;
  }
  static void expect_alive() {
    Reply r = roundtrip(port_, get("/health"));
    ASSERT_EQ(r.status, 200) << "server stopped answering";
    EXPECT_EQ(r.body, "{\"status\":\"ok\"}");
  }
  static App* app_;
  static int port_;
};
App* ServerTest::app_ = nullptr;
int ServerTest::port_ = 0;

TEST_F(ServerTest, RoutingParamsAndStatuses) {
  Reply r = roundtrip(port_, get("/users/42"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "42");
  EXPECT_EQ(r.headers["content-type"], "application/json");
  EXPECT_EQ(r.headers["x-request-id"].size(), 16u);
  EXPECT_FALSE(r.headers["date"].empty());
  r = roundtrip(port_, get("/users/abc"));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, R"({"error":"path param 'id': expected Int, received 'abc'"})");
  r = roundtrip(port_, get("/users/99999999999999999999"));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(roundtrip(port_, get("/nope")).status, 404);
  EXPECT_EQ(roundtrip(port_, get("/users/1/")).status, 404);
  r = roundtrip(port_, "DELETE /users/1 HTTP/1.1\r\nHost: t\r\n\r\n");
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.headers["allow"], "GET, HEAD");
  r = roundtrip(port_, "HEAD /users/7 HTTP/1.1\r\nHost: t\r\n\r\n");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.headers["content-length"], "1");
  EXPECT_EQ(r.body, "");
  r = roundtrip(port_, get("/search?q=a+b%21&limit=5"));
  EXPECT_EQ(r.body, R"({"q":"a b!","limit":5})");
  r = roundtrip(port_, get("/search?q=x"));
  EXPECT_EQ(r.body, R"({"q":"x","limit":null})");
  r = roundtrip(port_, get("/search?limit=1"));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, R"({"error":"query param 'q': missing — it is required"})");
  r = roundtrip(port_, get("/health", "X-Request-Id: trace-7\r\n"));
  EXPECT_EQ(r.headers["x-request-id"], "trace-7");
  r = roundtrip(port_, "BREW /health HTTP/1.1\r\nHost: t\r\n\r\n");
  EXPECT_EQ(r.status, 501);
  expect_alive();
}

TEST_F(ServerTest, BuiltinHealthRoutes) {
  EXPECT_EQ(roundtrip(port_, get("/healthz")).body, R"({"status":"ok"})");
  EXPECT_EQ(roundtrip(port_, get("/readyz")).body, R"({"status":"ok"})");
  EXPECT_EQ(roundtrip(port_, get("/metrics")).status, 404);  // prometheus is off
}

TEST_F(ServerTest, BodiesTypedAndAny) {
  Reply r = roundtrip(port_, post("/echo", R"({"n": 3, "text": "h\u00e9"})"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "{\"text\":\"h\xC3\xA9\",\"n\":3}");
  r = roundtrip(port_, post("/echo", R"({"text":"x","n":"3"})"));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, R"({"error":"body for 'Msg': field 'n': expected Int, found Str"})");
  r = roundtrip(port_, post("/echo", R"({"text":"x","extra":1})"));
  EXPECT_EQ(r.body, R"({"error":"body for 'Msg': undeclared field(s): extra"})");
  r = roundtrip(port_, post("/echo", R"({"n":1})"));
  EXPECT_EQ(r.body, R"({"error":"body for 'Msg': missing field 'text'"})");
  r = roundtrip(port_, post("/echo", "a,b", "text/csv"));
  EXPECT_EQ(r.status, 415);
  r = roundtrip(port_, post("/echo", ""));
  EXPECT_EQ(r.body, R"({"error":"request body is empty"})");
  // Chunked request body.
  r = roundtrip(port_, "POST /any HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                       "4\r\n[1,2\r\n2\r\n,3\r\n1\r\n]\r\n0\r\n\r\n");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "[1,2,3]");
  // Expect: 100-continue gets an interim response before the body is sent.
  int fd = connect_local(port_);
  ASSERT_GE(fd, 0);
  std::string body = R"({"text":"c"})";
  send_all(fd, "POST /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: " +
                   std::to_string(body.size()) + "\r\n\r\n");
  std::string pending;
  Reply cont = read_reply(fd, pending, 3000);
  EXPECT_EQ(cont.status, 100);
  send_all(fd, body);
  Reply fin = read_reply(fd, pending, 3000);
  EXPECT_EQ(fin.status, 200);
  EXPECT_EQ(fin.body, R"({"text":"c","n":0})");
  ::close(fd);
}

TEST_F(ServerTest, KeepAliveAndPipelining) {
  int fd = connect_local(port_);
  ASSERT_GE(fd, 0);
  std::string pending;
  for (int i = 0; i < 200; ++i) {
    ASSERT_TRUE(send_all(fd, get("/users/" + std::to_string(i))));
    Reply r = read_reply(fd, pending, 3000);
    ASSERT_EQ(r.status, 200);
    ASSERT_EQ(r.body, std::to_string(i));
  }
  // 50 requests in one write, mixed with a body and an async handler; answers come in order.
  std::string batch;
  for (int i = 0; i < 50; ++i) {
    if (i % 10 == 3)
      batch += post("/echo", "{\"text\":\"p" + std::to_string(i) + "\"}");
    else if (i % 10 == 7)
      batch += get("/sleep");
    else
      batch += get("/users/" + std::to_string(i));
  }
  ASSERT_TRUE(send_all(fd, batch));
  for (int i = 0; i < 50; ++i) {
    Reply r = read_reply(fd, pending, 5000);
    ASSERT_EQ(r.status, 200) << i;
    if (i % 10 == 3)
      EXPECT_EQ(r.body, "{\"text\":\"p" + std::to_string(i) + "\",\"n\":0}");
    else if (i % 10 == 7)
      EXPECT_EQ(r.body, "\"awake\"");
    else
      EXPECT_EQ(r.body, std::to_string(i));
  }
  // HTTP/1.0 without keep-alive: the server closes after the response.
  ASSERT_TRUE(send_all(fd, "GET /health HTTP/1.0\r\n\r\n"));
  Reply last = read_reply(fd, pending, 3000);
  EXPECT_EQ(last.status, 200);
  EXPECT_TRUE(closed_by_peer(fd, 2000));
  ::close(fd);
}

TEST_F(ServerTest, CorsPreflightAndActual) {
  Reply r = roundtrip(port_, "OPTIONS /cors HTTP/1.1\r\nHost: t\r\nOrigin: https://admin.example\r\n"
                             "Access-Control-Request-Method: GET\r\n\r\n");
  EXPECT_EQ(r.status, 204);
  EXPECT_EQ(r.headers["access-control-allow-origin"], "https://admin.example");
  EXPECT_EQ(r.headers["access-control-allow-methods"], "GET, POST, PUT, DELETE, OPTIONS");
  EXPECT_EQ(r.headers["access-control-allow-headers"], "content-type, authorization");
  EXPECT_EQ(r.headers["access-control-max-age"], "600");
  EXPECT_EQ(r.headers.count("content-length"), 0u);
  r = roundtrip(port_, get("/cors", "Origin: https://app.example\r\n"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.headers["access-control-allow-origin"], "https://app.example");
  EXPECT_EQ(r.headers["vary"], "Origin");
  r = roundtrip(port_, get("/cors", "Origin: https://evil.example\r\n"));
  EXPECT_EQ(r.headers.count("access-control-allow-origin"), 0u);
  // No CORS on this path: OPTIONS is just another method.
  EXPECT_EQ(roundtrip(port_, "OPTIONS /health HTTP/1.1\r\nHost: t\r\n\r\n").status, 405);
}

TEST_F(ServerTest, MiddlewareOrder) {
  Reply r = roundtrip(port_, get("/mw"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.headers["x-order"], "around,after");
  r = roundtrip(port_, get("/mw", "X-Block: 1\r\n"));
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.body, R"({"error":"blocked"})");
}

TEST_F(ServerTest, HandlerRuntimeErrorIs500AndServerKeepsRunning) {
  for (int i = 0; i < 20; ++i) {
    Reply r = roundtrip(port_, get("/boom"));
    ASSERT_EQ(r.status, 500);
    EXPECT_EQ(r.body.rfind("{\"error\":\"", 0), 0u) << r.body;
  }
  Reply s = roundtrip(port_, get("/sleep"));
  EXPECT_EQ(s.body, "\"awake\"");
  expect_alive();
}

// ---- Bad input ----------------------------------------------------------------------------

TEST_F(ServerTest, MalformedRequestLines) {
  const char* bad[] = {
      "GARBAGE\r\n\r\n",
      "GET\r\n\r\n",
      "GET / HTTP/9.9\r\nHost: t\r\n\r\n",
      "GET /  HTTP/1.1\r\nHost: t\r\n\r\n",
      "GET / HTTP/1.1 extra\r\nHost: t\r\n\r\n",
      "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",  // a TLS hello
      "GET http://other.example/ HTTP/1.1\r\nHost: t\r\n\r\n",
      "GET /%zz HTTP/1.1\r\nHost: t\r\n\r\n",
  };
  for (const char* raw : bad) {
    Reply r = roundtrip(port_, raw, 3000);
    EXPECT_TRUE(r.status == 400 || r.status == 0) << raw << " -> " << r.status;
    expect_alive();
  }
}

TEST_F(ServerTest, InvalidHeaderBytes) {
  const std::string bad[] = {
      std::string("GET / HTTP/1.1\r\nHost: t\r\nBad\x01Name: y\r\n\r\n"),
      std::string("GET / HTTP/1.1\r\nHost: t\r\nX: a\x00" "b\r\n\r\n", 33),
      std::string("GET / HTTP/1.1\r\nHost: t\r\nX: a\rb\r\n\r\n"),
      std::string("GET / HTTP/1.1\r\nHost: t\r\n: novalue\r\n\r\n"),
      std::string("GET / HTTP/1.1\nHost: t\n\n"),
  };
  for (const auto& raw : bad) {
    Reply r = roundtrip(port_, raw, 3000);
    EXPECT_TRUE(r.status == 400 || r.status == 0) << raw << " -> " << r.status;
    expect_alive();
  }
}

TEST_F(ServerTest, ObsoleteLineFoldingIsUnfolded) {
  // RFC 7230 3.2.4: a server either rejects obs-fold or replaces it with spaces (Beast does).
  Reply r = roundtrip(port_, "GET /health HTTP/1.1\r\nHost: t\r\nX-A: a\r\n b\r\n\r\n");
  EXPECT_TRUE(r.status == 200 || r.status == 400) << r.status;
  expect_alive();
}

TEST_F(ServerTest, ContentLengthAndChunkAttacks) {
  const std::string bad[] = {
      "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
      "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5, 6\r\n\r\nhello!",
      "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n",
      "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999999\r\n\r\n",
      "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
      "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\nx\r\n0\r\n\r\n",
      "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n",
      "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n",
      "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
      "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\nabc",
  };
  for (const auto& raw : bad) {
    Reply r = roundtrip(port_, raw, 3000);
    EXPECT_TRUE(r.status == 400 || r.status == 413 || r.status == 0) << raw << " -> " << r.status;
    expect_alive();
  }
}

TEST_F(ServerTest, OversizedBodyAndHeaders) {
  Reply r = roundtrip(port_, "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000\r\n\r\n");
  EXPECT_EQ(r.status, 413);
  EXPECT_EQ(r.body, R"({"error":"request body too large"})");
  std::string big(70 * 1024, 'a');
  r = roundtrip(port_, post("/echo", "{\"text\":\"" + big + "\"}"));
  EXPECT_EQ(r.status, 413);
  // Chunked bodies are limited while they arrive.
  std::string chunked = "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 20; ++i) chunked += "1000\r\n" + std::string(4096, 'b') + "\r\n";
  chunked += "0\r\n\r\n";
  r = roundtrip(port_, chunked);
  EXPECT_EQ(r.status, 413);
  std::string huge_header = "GET /health HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(20000, 'h') + "\r\n\r\n";
  r = roundtrip(port_, huge_header);
  EXPECT_EQ(r.status, 431);
  std::string many = "GET /health HTTP/1.1\r\nHost: t\r\n";
  for (int i = 0; i < 2000; ++i) many += "X-" + std::to_string(i) + ": v\r\n";
  r = roundtrip(port_, many + "\r\n");
  EXPECT_EQ(r.status, 431);
  expect_alive();
}

// A client refused while it is still sending its body (a 413 from the declared length) must get
// to read the refusal: the server reads and drops the rest instead of closing at once, which
// would make the kernel answer the arriving body with a reset that breaks the client's upload
// before it reads the response (curl then reports no status at all).
TEST_F(ServerTest, RefusedUploadStillReadsItsResponse) {
  int fd = connect_local(port_);
  ASSERT_GE(fd, 0);
  std::string body(2 * 1024 * 1024, 'a');
  std::string head = "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: " +
                     std::to_string(body.size()) + "\r\n\r\n";
  ASSERT_TRUE(send_all(fd, head));
  // Give the server time to refuse and close before the body arrives.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(send_all(fd, body)) << "the upload broke: " << std::strerror(errno);
  std::string pending;
  Reply r = read_reply(fd, pending, 3000);
  ::close(fd);
  EXPECT_EQ(r.status, 413);
  EXPECT_EQ(r.body, R"({"error":"request body too large"})");
  expect_alive();
}

TEST_F(ServerTest, BadJsonBodies) {
  std::string deep = "{\"text\":\"x\",\"zz\":" + std::string(10000, '[') + std::string(10000, ']') + "}";
  std::string deep_any = std::string(10000, '[') + std::string(10000, ']');
  struct Case {
    std::string path, body, expected;
  } cases[] = {
      {"/echo", "{\"text\":", R"({"error":"body is not valid JSON: unexpected end of input at line 1, column 9"})"},
      {"/echo", "{text: 1}", R"({"error":"body is not valid JSON: expected a string key at line 1, column 2"})"},
      {"/echo", deep, R"({"error":"body is not valid JSON: nesting deeper than 512 levels at line 1, column 529"})"},
      {"/any", deep_any, R"({"error":"body is not valid JSON: nesting deeper than 512 levels at line 1, column 513"})"},
      {"/echo", R"({"text":"x","n":9223372036854775808})", R"({"error":"body for 'Msg': field 'n': number out of range for Int"})"},
      {"/echo", R"({"text":"x","n":1e400})", R"({"error":"body for 'Msg': field 'n': expected Int, found Float"})"},
      {"/echo", "{\"text\":\"\xff\xfe\"}", R"({"error":"body is not valid JSON: invalid UTF-8 in string at line 1, column 10"})"},
      {"/echo", "{\"text\":\"\xed\xa0\x80\"}", R"({"error":"body is not valid JSON: invalid UTF-8 in string at line 1, column 10"})"},
      {"/echo", R"({"text":"\udc00"})", R"({"error":"body is not valid JSON: lone surrogate in \\u escape at line 1, column 16"})"},
      {"/echo", R"({"text":true})", R"({"error":"body for 'Msg': field 'text': expected Str, found Bool"})"},
      {"/echo", R"({"text":null})", R"({"error":"body for 'Msg': field 'text': expected Str, found null"})"},
      {"/echo", R"({"text":[]})", R"({"error":"body for 'Msg': field 'text': expected Str, found list"})"},
      {"/echo", R"({"text":"x","n":{}})", R"({"error":"body for 'Msg': field 'n': expected Int, found object"})"},
      {"/echo", R"("just a string")", R"({"error":"body for 'Msg': expected object, found Str"})"},
      // Not JSON at all: the syntax is reported, not the type the first byte looks like.
      {"/echo", "this is not json", R"({"error":"body is not valid JSON: unexpected character at line 1, column 1"})"},
      {"/echo", R"({"text": 12abc})", R"({"error":"body is not valid JSON: expected ',' or '}' at line 1, column 12"})"},
      {"/echo", R"({"text": 1, "n": tru})", R"({"error":"body is not valid JSON: unexpected character at line 1, column 18"})"},
      {"/echo", R"({"text":"x"} trailing)", R"({"error":"body is not valid JSON: unexpected data after the JSON value at line 1, column 14"})"},
  };
  for (const auto& c : cases) {
    Reply r = roundtrip(port_, post(c.path, c.body));
    EXPECT_EQ(r.status, 400) << c.body.substr(0, 60);
    EXPECT_EQ(r.body, c.expected) << c.body.substr(0, 60);
  }
  expect_alive();
}

// A body of keys that all collided under the former fixed hash: answered at once, spread out.
TEST_F(ServerTest, HashFloodBodyIsSpreadOut) {
  std::string body = json_object_of(colliding_keys(2500));  // about 60 KB, under the 64 KiB limit
  Reply r = roundtrip(port_, post("/map", body));
  EXPECT_EQ(r.status, 200);
  size_t probe = 0;
  ASSERT_EQ(std::sscanf(r.body.c_str(), "{\"keys\":2500,\"probe\":%zu}", &probe), 1) << r.body;
  EXPECT_LE(probe, 32u);
  expect_alive();
}

TEST_F(ServerTest, SlowlorisIsCutOffByRequestTimeout) {
  // request_timeout_ms is 1.5 s: a client sending one byte every 100 ms never completes.
  int fd = connect_local(port_);
  ASSERT_GE(fd, 0);
  std::string req = "GET /health HTTP/1.1\r\nHost: t\r\nX-Slow: " + std::string(200, 's');
  auto start = std::chrono::steady_clock::now();
  bool cut = false;
  for (size_t i = 0; i < req.size() && std::chrono::steady_clock::now() - start < std::chrono::seconds(5); ++i) {
    if (!send_all(fd, std::string(1, req[i]))) {
      cut = true;
      break;
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) > 0) {
      char c;
      if (::recv(fd, &c, 1, 0) <= 0) {
        cut = true;
        break;
      }
    }
  }
  auto took = std::chrono::steady_clock::now() - start;
  ::close(fd);
  EXPECT_TRUE(cut);
  EXPECT_LT(took, std::chrono::milliseconds(3500));
  expect_alive();
}

TEST_F(ServerTest, ManyIdleConnections) {
  std::vector<int> fds;
  for (int i = 0; i < 2000; ++i) {
    int fd = connect_local(port_);
    if (fd < 0) break;
    fds.push_back(fd);
  }
  EXPECT_EQ(fds.size(), 2000u);
  expect_alive();
  // Some of them still work.
  for (size_t i = 0; i < fds.size(); i += 400) {
    std::string pending;
    ASSERT_TRUE(send_all(fds[i], get("/health")));
    EXPECT_EQ(read_reply(fds[i], pending, 3000).status, 200);
  }
  for (int fd : fds) ::close(fd);
  expect_alive();
}

TEST_F(ServerTest, IdleConnectionIsClosed) {
  int fd = connect_local(port_);
  ASSERT_GE(fd, 0);
  EXPECT_TRUE(closed_by_peer(fd, 6000));  // idle_timeout_ms is 4 s
  ::close(fd);
}

// ---- Limits and shutdown on their own servers -----------------------------------------------

TEST(ServerLimits, ConnectionCap) {
  App app;
  build_app(app);
  app.config().max_connections = 20;
  Str err;
  ASSERT_TRUE(app.start(&err)) << err.c_str();
  std::vector<int> fds;
  for (int i = 0; i < 40; ++i) fds.push_back(connect_local(app.port()));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  int refused = 0;
  for (int fd : fds)
    if (closed_by_peer(fd, 50)) ++refused;
  EXPECT_GE(refused, 20);
  for (int fd : fds) ::close(fd);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(roundtrip(app.port(), get("/health")).status, 200);
}

TEST(ServerShutdown, DrainsThenStops) {
  App app;
  build_app(app);
  app.config().drain_delay_ms = 400;
  Str err;
  ASSERT_TRUE(app.start(&err)) << err.c_str();
  int port = app.port();
  // A keep-alive connection with a request in flight during shutdown.
  int fd = connect_local(port);
  ASSERT_GE(fd, 0);
  auto start = std::chrono::steady_clock::now();
  app.shutdown();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  Reply ready = roundtrip(port, get("/readyz"));
  EXPECT_EQ(ready.status, 503);
  EXPECT_EQ(ready.body, R"({"status":"draining"})");
  ASSERT_TRUE(send_all(fd, get("/sleep")));
  std::string pending;
  Reply r = read_reply(fd, pending, 3000);
  EXPECT_EQ(r.status, 200);
  app.wait();
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, std::chrono::seconds(4));
  EXPECT_TRUE(closed_by_peer(fd, 1000));
  ::close(fd);
  EXPECT_EQ(connect_local(port), -1);
}

// A process being swapped out (`fitz dev`, a rolling restart on a shared socket) may have
// accepted a connection whose request has not arrived yet: that client gets its answer.
TEST(ServerShutdown, ConnectionAcceptedBeforeShutdownGetsItsAnswer) {
  App app;
  build_app(app);
  app.config().drain_delay_ms = 0;
  Str err;
  ASSERT_TRUE(app.start(&err)) << err.c_str();
  int fd = connect_local(app.port());
  ASSERT_GE(fd, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // accepted, no request yet
  app.shutdown();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // past a sweep of the sessions
  ASSERT_TRUE(send_all(fd, get("/health")));
  std::string pending;
  Reply r = read_reply(fd, pending, 3000);
  EXPECT_EQ(r.status, 200);
  EXPECT_TRUE(r.closed) << "the answer given during shutdown closes the connection";
  ::close(fd);
  app.wait();
}

// Between requests a keep-alive connection is idle: shutdown closes it at once, and a
// connection that never sends its first request is closed after a short grace, not kept
// until the idle timeout.
TEST(ServerShutdown, IdleConnectionsCloseSoonAfterShutdown) {
  App app;
  build_app(app);
  app.config().drain_delay_ms = 0;
  Str err;
  ASSERT_TRUE(app.start(&err)) << err.c_str();
  int answered = connect_local(app.port());
  int silent = connect_local(app.port());
  ASSERT_GE(answered, 0);
  ASSERT_GE(silent, 0);
  ASSERT_TRUE(send_all(answered, get("/health")));
  std::string pending;
  ASSERT_EQ(read_reply(answered, pending, 3000).status, 200);
  app.shutdown();
  EXPECT_TRUE(closed_by_peer(answered, 1000));
  EXPECT_TRUE(closed_by_peer(silent, 2000));  // before idle_timeout_ms (4 s) and the 3 s drain deadline
  ::close(answered);
  ::close(silent);
  app.wait();
}

}  // namespace
}  // namespace fitz::http
