#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <atomic>
#include <cmath>
#include <random>
#include <string>
#include <thread>

#include "histogram.h"
#include "response_parser.h"
#include "runner.h"
#include "scenario.h"

namespace fitz::loadgen {
namespace {

TEST(Histogram, SmallValuesAreExact) {
  Histogram h;
  for (uint64_t v = 1; v <= 100; ++v) h.record(v);
  EXPECT_EQ(h.count(), 100u);
  EXPECT_EQ(h.percentile(0.50), 50u);
  EXPECT_EQ(h.percentile(0.99), 99u);
  EXPECT_EQ(h.percentile(1.0), 100u);
  EXPECT_EQ(h.min(), 1u);
  EXPECT_DOUBLE_EQ(h.mean(), 50.5);
}

TEST(Histogram, LargeValuesWithinRelativeError) {
  for (uint64_t v : {129ull, 1000ull, 123456ull, 987654321ull, 1ull << 40, (1ull << 62) + 12345}) {
    int i = Histogram::index_of(v);
    ASSERT_LT(i, Histogram::kBuckets) << v;
    uint64_t up = Histogram::upper_of(i);
    EXPECT_GE(up, v);
    EXPECT_LE(static_cast<double>(up - v), static_cast<double>(v) / 64.0 + 1) << v;
    if (i > 0) {
      EXPECT_LT(Histogram::upper_of(i - 1), v) << v;  // buckets tile the line
    }
  }
}

TEST(Histogram, PercentilesOfAKnownDistributionAndMerge) {
  Histogram a, b;
  // 990 fast (1 ms) and 10 slow (50 ms) requests, split over two threads.
  for (int i = 0; i < 990; ++i) (i % 2 ? a : b).record(1'000'000);
  for (int i = 0; i < 10; ++i) b.record(50'000'000);
  a.merge(b);
  EXPECT_EQ(a.count(), 1000u);
  EXPECT_NEAR(static_cast<double>(a.percentile(0.5)), 1e6, 1e6 / 64);
  EXPECT_NEAR(static_cast<double>(a.percentile(0.99)), 1e6, 1e6 / 64);
  EXPECT_EQ(a.percentile(0.999), 50'000'000u);  // capped by the maximum
  EXPECT_EQ(a.max(), 50'000'000u);
}

TEST(Template, HolesRenderPerRequest) {
  Template t;
  std::map<std::string, std::string> vars{{"run", "r7"}};
  ASSERT_FALSE(parse_template(R"({"email":"u{seq}-{run}@x.io","n":{rand:3:3},"c":{conn}})", vars, t));
  std::mt19937_64 rng(1);
  std::string out;
  t.render(out, 42, 5, rng);
  EXPECT_EQ(out, R"({"email":"u42-r7@x.io","n":3,"c":5})");
}

TEST(Template, ErrorsNameTheHole) {
  Template t;
  auto e = parse_template("/users/{id}", {}, t);
  ASSERT_TRUE(e);
  EXPECT_NE(e->find("{id}"), std::string::npos);
  EXPECT_TRUE(parse_template("/u/{rand:9:1}", {}, t));
  EXPECT_TRUE(parse_template("/u/{rand:x}", {}, t));
}

TEST(Scenario, StagesAndRamps) {
  Scenario s;
  ASSERT_FALSE(load_scenario(R"({"base_url":"http://127.0.0.1:9","stages":[
      {"seconds":10,"connections":10},{"seconds":10,"connections":50,"ramp":true},{"seconds":5,"connections":5}],
      "endpoints":[{"path":"/a","weight":3},{"path":"/b","method":"POST","body":{"x":1}}]})",
                             {}, s));
  EXPECT_EQ(s.port, "9");
  EXPECT_EQ(s.total_seconds(), 25);
  EXPECT_EQ(s.max_connections(), 50);
  EXPECT_EQ(s.connections_at(1), 10);
  EXPECT_EQ(s.connections_at(15), 30);  // half-way up the ramp
  EXPECT_EQ(s.connections_at(24), 5);
  ASSERT_EQ(s.endpoints.size(), 2u);
  EXPECT_EQ(s.endpoints[0].weight, 3u);
  EXPECT_TRUE(s.endpoints[1].has_body);
  ASSERT_EQ(s.endpoints[1].headers.size(), 1u);
  EXPECT_EQ(s.endpoints[1].headers[0].second, "application/json");
}

TEST(Scenario, RejectsBadFiles) {
  Scenario s;
  EXPECT_TRUE(load_scenario("[]", {}, s));
  EXPECT_TRUE(load_scenario(R"({"endpoints":[]})", {}, s));
  EXPECT_TRUE(load_scenario(R"({"endpoints":[{"path":"/x"}],"stages":[{"seconds":0,"connections":1}]})", {}, s));
  EXPECT_TRUE(load_scenario(R"({"endpoints":[{"nopath":1}]})", {}, s));
  EXPECT_TRUE(load_scenario(R"({"endpoints":[{"path":"/x"}],"think_ms":-1})", {}, s));
}

// A server that answers every request with an empty 200 and counts them: enough to watch the
// load generator's pacing. With close_after_each it closes every connection after its first
// response without saying so in the response, as servers may when the request asked for close.
class CountingServer {
 public:
  explicit CountingServer(bool close_after_each = false)
      : close_after_each_(close_after_each), acceptor_(ioc_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    accept();
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~CountingServer() {
    ioc_.stop();
    thread_.join();
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  std::atomic<int> requests{0};

 private:
  struct Session : std::enable_shared_from_this<Session> {
    Session(boost::asio::ip::tcp::socket s, std::atomic<int>& n, bool close)
        : sock(std::move(s)), count(n), close_after_each(close) {}
    boost::asio::ip::tcp::socket sock;
    std::atomic<int>& count;
    bool close_after_each;
    std::string buf;
    void read() {
      boost::asio::async_read_until(sock, boost::asio::dynamic_buffer(buf), "\r\n\r\n",
                                    [self = shared_from_this()](boost::system::error_code ec, size_t n) {
                                      if (ec) return;
                                      self->buf.erase(0, n);
                                      ++self->count;
                                      static const std::string ok = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
                                      boost::asio::async_write(self->sock, boost::asio::buffer(ok),
                                                               [self](boost::system::error_code e, size_t) {
                                                                 if (e) return;
                                                                 if (self->close_after_each)
                                                                   self->sock.close(e);
                                                                 else
                                                                   self->read();
                                                               });
                                    });
    }
  };
  void accept() {
    acceptor_.async_accept([this](boost::system::error_code ec, boost::asio::ip::tcp::socket s) {
      if (ec) return;
      std::make_shared<Session>(std::move(s), requests, close_after_each_)->read();
      accept();
    });
  }
  bool close_after_each_;
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::thread thread_;
};

// With a pause after each response, a connection sends at most once per pause: two connections
// pausing 100 ms for one second make no more than 2 x (10 + 1) requests however fast the server
// is, where back-to-back sending makes thousands.
TEST(Runner, ThinkTimePacesEachConnection) {
  CountingServer server;
  Scenario s;
  ASSERT_FALSE(load_scenario(R"({"stages":[{"seconds":1,"connections":2}],"think_ms":100,
      "endpoints":[{"path":"/x","expect":200}]})", {}, s));
  ASSERT_FALSE(parse_base_url("http://127.0.0.1:" + std::to_string(server.port()), s));
  Results r = run(s, RunOptions{});
  EXPECT_GT(r.total_responses(), 0u);
  EXPECT_EQ(r.total_failures(), 0u);
  EXPECT_LE(server.requests.load(), 22);
}

// A request with `Connection: close` is the last on its connection even when the response does
// not repeat the header: reusing it would count every second request as a failed one.
TEST(Runner, ConnectionCloseRequestOpensANewConnectionEachTime) {
  CountingServer server(true);
  Scenario s;
  ASSERT_FALSE(load_scenario(R"({"stages":[{"seconds":0.5,"connections":2}],
      "endpoints":[{"path":"/x","expect":200,"headers":{"Connection":"close"}}]})", {}, s));
  ASSERT_FALSE(parse_base_url("http://127.0.0.1:" + std::to_string(server.port()), s));
  EXPECT_TRUE(s.endpoints[0].asks_close());
  Results r = run(s, RunOptions{});
  EXPECT_GT(r.total_responses(), 10u);
  EXPECT_EQ(r.total_failures(), 0u);
}

TEST(Scenario, ConnectionHeaderAskingClose) {
  Scenario s;
  ASSERT_FALSE(load_scenario(R"({"endpoints":[{"path":"/a","headers":{"connection":"Close"}},
      {"path":"/b","headers":{"Connection":"keep-alive"}},{"path":"/c"}]})", {}, s));
  EXPECT_TRUE(s.endpoints[0].asks_close());
  EXPECT_FALSE(s.endpoints[1].asks_close());
  EXPECT_FALSE(s.endpoints[2].asks_close());
}

size_t feed_all(ResponseParser& p, const std::string& bytes, size_t step) {
  size_t used = 0;
  std::string buf;
  for (size_t i = 0; i < bytes.size() && p.state != ResponseParser::State::Done; i += step) {
    buf += bytes.substr(i, step);
    size_t n = p.feed(buf.data(), buf.size());
    buf.erase(0, n);
    used += n;
  }
  return used;
}

TEST(ResponseParser, ContentLengthSplitAnywhere) {
  std::string r = "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\ncontent-length: 11\r\n\r\n{\"id\":1234}";
  for (size_t step : {1u, 3u, 7u, 1000u}) {
    ResponseParser p;
    EXPECT_EQ(feed_all(p, r, step), r.size()) << step;
    EXPECT_EQ(p.state, ResponseParser::State::Done);
    EXPECT_EQ(p.status, 201);
    EXPECT_FALSE(p.close);
  }
}

TEST(ResponseParser, ChunkedWithTrailerAndPipelinedNext) {
  std::string first = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=1\r\nabcd\r\nA\r\n0123456789\r\n0\r\nX-T: 1\r\n\r\n";
  std::string second = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
  std::string both = first + second;
  ResponseParser p;
  size_t n = p.feed(both.data(), both.size());
  EXPECT_EQ(n, first.size());  // stops at the end of the first response
  EXPECT_EQ(p.state, ResponseParser::State::Done);
  p.reset();
  EXPECT_EQ(p.feed(both.data() + n, both.size() - n), second.size());
  EXPECT_EQ(p.status, 404);
  EXPECT_TRUE(p.close);
}

TEST(ResponseParser, NoBodyStatusesAndInterimResponses) {
  std::string r = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n";
  ResponseParser p;
  EXPECT_EQ(p.feed(r.data(), r.size()), r.size());
  EXPECT_EQ(p.state, ResponseParser::State::Done);
  EXPECT_EQ(p.status, 204);
  ResponseParser q;
  std::string old = "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok";
  q.feed(old.data(), old.size());
  EXPECT_TRUE(q.close);  // HTTP/1.0 without keep-alive
}

TEST(ResponseParser, MalformedIsAnError) {
  for (std::string bad : {"HTTP/1.1 abc OK\r\n\r\n", "SSH-2.0-OpenSSH\r\n\r\n", "HTTP/1.1 200 OK\r\n\r\n",
                          "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                          "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"}) {
    ResponseParser p;
    p.feed(bad.data(), bad.size());
    EXPECT_EQ(p.state, ResponseParser::State::Error) << bad;
  }
}

}  // namespace
}  // namespace fitz::loadgen
