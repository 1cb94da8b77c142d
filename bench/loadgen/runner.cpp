#include "runner.h"

#include "response_parser.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstring>
#include <memory>
#include <random>
#include <thread>

#include <boost/asio.hpp>

namespace fitz::loadgen {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

void EndpointStats::merge(const EndpointStats& o) {
  latency.merge(o.latency);
  for (size_t i = 0; i < status.size(); ++i) status[i] += o.status[i];
  responses += o.responses;
  unexpected += o.unexpected;
  errors += o.errors;
  timeouts += o.timeouts;
}

uint64_t Results::total_responses() const {
  uint64_t n = 0;
  for (const auto& e : endpoints) n += e.responses;
  return n;
}

uint64_t Results::total_failures() const {
  uint64_t n = 0;
  for (const auto& e : endpoints) n += e.unexpected + e.errors + e.timeouts;
  return n;
}

namespace {

struct Shared {
  const Scenario* scenario = nullptr;
  tcp::resolver::results_type endpoints;
  Clock::time_point start, measure_start, end;
  std::atomic<uint64_t> seq{1};
  std::vector<unsigned> cumulative_weights;
};

class Worker;

class Conn {
 public:
  Conn(Worker& w, int index);
  void kick();   // start sending if active and idle
  void close();

  int index;
  bool active = false;

 private:
  void connect();
  void send();
  void read();
  void on_read(boost::system::error_code ec, size_t n);
  void fail(uint64_t gen, bool timeout);
  void retry_later();

  Worker& w_;
  tcp::socket sock_;
  asio::steady_timer timer_;
  bool connected_ = false;
  bool busy_ = false;  // a request is in flight, or a connect or back-off is pending
  bool timed_out_ = false;
  uint64_t gen_ = 0;  // which request a completion belongs to: stale completions are ignored
  size_t endpoint_ = 0;
  Clock::time_point sent_;
  std::string wbuf_;
  std::vector<char> rbuf_ = std::vector<char>(64 * 1024);
  size_t rlen_ = 0;
  ResponseParser parser_;
};

class Worker {
 public:
  Worker(Shared& shared, int id, int threads)
      : shared(shared), rng(std::random_device{}() + static_cast<unsigned>(id)), tick_(ioc) {
    stats.resize(shared.scenario->endpoints.size());
    for (int i = id; i < shared.scenario->max_connections(); i += threads)
      conns_.push_back(std::make_unique<Conn>(*this, i));
  }

  void run() {
    adjust();
    ioc.run();
    for (auto& c : conns_) c->close();
  }

  size_t pick_endpoint() {
    const auto& cw = shared.cumulative_weights;
    std::uniform_int_distribution<unsigned> d(0, cw.back() - 1);
    unsigned x = d(rng);
    return static_cast<size_t>(std::upper_bound(cw.begin(), cw.end(), x) - cw.begin());
  }

  bool running() const { return !stopping_; }

  void record(size_t endpoint, Clock::time_point sent, int status, bool error, bool timeout) {
    auto now = Clock::now();
    completed.fetch_add(1, std::memory_order_relaxed);
    if (sent < shared.measure_start || now > shared.end) return;
    EndpointStats& st = stats[endpoint];
    if (error || timeout) {
      (timeout ? st.timeouts : st.errors)++;
      failures.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    ++st.responses;
    ++st.status[static_cast<size_t>(status)];
    if (!shared.scenario->endpoints[endpoint].success(status)) {
      ++st.unexpected;
      failures.fetch_add(1, std::memory_order_relaxed);
    }
    st.latency.record(static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now - sent).count()));
    measured.fetch_add(1, std::memory_order_relaxed);
  }

  Shared& shared;
  asio::io_context ioc{1};
  std::vector<EndpointStats> stats;
  std::mt19937_64 rng;
  uint64_t connect_errors = 0;
  std::atomic<uint64_t> completed{0};
  std::atomic<uint64_t> measured{0};
  std::atomic<uint64_t> failures{0};

 private:
  // Every 50 ms: bring the number of active connections to what the stage asks for.
  void adjust() {
    auto now = Clock::now();
    if (now >= shared.end) {
      stopping_ = true;
      ioc.stop();
      return;
    }
    double t = std::chrono::duration<double>(now - shared.measure_start).count();
    int want = shared.scenario->connections_at(std::max(0.0, t));
    for (auto& c : conns_) {
      bool on = c->index < want;
      if (on && !c->active) {
        c->active = true;
        c->kick();
      } else if (!on) {
        c->active = false;  // finishes its request in flight, then idles
      }
    }
    tick_.expires_after(std::chrono::milliseconds(50));
    tick_.async_wait([this](boost::system::error_code ec) {
      if (!ec) adjust();
    });
  }

  asio::steady_timer tick_;
  bool stopping_ = false;
  std::vector<std::unique_ptr<Conn>> conns_;
};

Conn::Conn(Worker& w, int index) : index(index), w_(w), sock_(w.ioc), timer_(w.ioc) {}

void Conn::close() {
  boost::system::error_code ignored;
  sock_.close(ignored);
  connected_ = false;
}

void Conn::kick() {
  if (busy_ || !active || !w_.running()) return;
  if (!connected_)
    connect();
  else
    send();
}

void Conn::connect() {
  busy_ = true;
  asio::async_connect(sock_, w_.shared.endpoints, [this](boost::system::error_code ec, const tcp::endpoint&) {
    if (ec) {
      ++w_.connect_errors;
      close();
      retry_later();
      return;
    }
    sock_.set_option(tcp::no_delay(true));
    connected_ = true;
    busy_ = false;
    kick();
  });
}

void Conn::retry_later() {
  busy_ = true;
  timer_.expires_after(std::chrono::milliseconds(20));
  timer_.async_wait([this](boost::system::error_code ec) {
    if (ec) return;
    busy_ = false;
    kick();
  });
}

void Conn::send() {
  busy_ = true;
  timed_out_ = false;
  const Scenario& s = *w_.shared.scenario;
  endpoint_ = w_.pick_endpoint();
  const Endpoint& ep = s.endpoints[endpoint_];
  uint64_t seq = w_.shared.seq.fetch_add(1, std::memory_order_relaxed);
  wbuf_.clear();
  wbuf_ += ep.method;
  wbuf_ += ' ';
  ep.path.render(wbuf_, seq, index, w_.rng);
  wbuf_ += " HTTP/1.1\r\nHost: ";
  wbuf_ += s.host;
  wbuf_ += "\r\n";
  for (const auto& [k, v] : ep.headers) {
    wbuf_ += k;
    wbuf_ += ": ";
    wbuf_ += v;
    wbuf_ += "\r\n";
  }
  if (ep.has_body) {
    std::string body;
    ep.body.render(body, seq, index, w_.rng);
    wbuf_ += "Content-Length: ";
    wbuf_ += std::to_string(body.size());
    wbuf_ += "\r\n\r\n";
    wbuf_ += body;
  } else {
    wbuf_ += "\r\n";
  }
  parser_.reset();
  sent_ = Clock::now();
  uint64_t gen = ++gen_;
  timer_.expires_after(std::chrono::milliseconds(s.timeout_ms));
  timer_.async_wait([this, gen](boost::system::error_code ec) {
    if (ec || gen != gen_) return;  // cancelled: the response arrived
    timed_out_ = true;
    close();  // the pending read completes with an error and reports the timeout
  });
  asio::async_write(sock_, asio::buffer(wbuf_), [this, gen](boost::system::error_code ec, size_t) {
    if (ec) fail(gen, false);
  });
  // Reading starts right away: the write of a small request completes at once, and a server
  // may answer (e.g. 413) before it has read the whole body.
  read();
}

void Conn::read() {
  if (rlen_ == rbuf_.size()) rbuf_.resize(rbuf_.size() * 2);
  sock_.async_read_some(asio::buffer(rbuf_.data() + rlen_, rbuf_.size() - rlen_),
                        [this, gen = gen_](boost::system::error_code ec, size_t n) {
                          if (gen != gen_) return;
                          on_read(ec, n);
                        });
}

void Conn::on_read(boost::system::error_code ec, size_t n) {
  if (ec) return fail(gen_, timed_out_);
  rlen_ += n;
  size_t used = parser_.feed(rbuf_.data(), rlen_);
  std::memmove(rbuf_.data(), rbuf_.data() + used, rlen_ - used);
  rlen_ -= used;
  if (parser_.state == ResponseParser::State::Error) return fail(gen_, false);
  if (parser_.state != ResponseParser::State::Done) return read();
  timer_.cancel();
  ++gen_;
  w_.record(endpoint_, sent_, parser_.status, false, false);
  if (parser_.close || w_.shared.scenario->endpoints[endpoint_].asks_close()) {
    close();
    rlen_ = 0;
  }
  int think = w_.shared.scenario->think_ms;
  if (think <= 0) {
    busy_ = false;
    return kick();
  }
  timer_.expires_after(std::chrono::milliseconds(think));
  timer_.async_wait([this](boost::system::error_code ec) {
    if (ec) return;
    busy_ = false;
    kick();
  });
}

void Conn::fail(uint64_t gen, bool timeout) {
  if (gen != gen_) return;  // already reported (the write and the read can both fail)
  ++gen_;
  timer_.cancel();
  close();
  rlen_ = 0;
  if (w_.running()) w_.record(endpoint_, sent_, 0, !timeout, timeout);
  retry_later();
}

}  // namespace

Results run(const Scenario& s, const RunOptions& opts) {
  Shared shared;
  shared.scenario = &s;
  unsigned acc = 0;
  for (const Endpoint& e : s.endpoints) shared.cumulative_weights.push_back(acc += e.weight);
  {
    asio::io_context ioc;
    tcp::resolver resolver(ioc);
    shared.endpoints = resolver.resolve(s.host, s.port);
  }
  int threads = std::max(1, std::min(opts.threads, s.max_connections()));
  shared.start = Clock::now();
  shared.measure_start = shared.start + std::chrono::milliseconds(static_cast<int64_t>(s.warmup_seconds * 1000));
  shared.end = shared.measure_start + std::chrono::milliseconds(static_cast<int64_t>(s.total_seconds() * 1000));

  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < threads; ++i) workers.push_back(std::make_unique<Worker>(shared, i, threads));
  std::vector<std::thread> pool;
  for (auto& w : workers) pool.emplace_back([&w] { w->run(); });

  Results res;
  uint64_t last_completed = 0, last_measured = 0;
  auto last = Clock::now();
  while (Clock::now() < shared.end) {
    std::this_thread::sleep_until(std::min(last + std::chrono::seconds(1), shared.end));
    auto now = Clock::now();
    uint64_t completed = 0, measured = 0, failures = 0;
    for (auto& w : workers) {
      completed += w->completed.load(std::memory_order_relaxed);
      measured += w->measured.load(std::memory_order_relaxed);
      failures += w->failures.load(std::memory_order_relaxed);
    }
    double dt = std::chrono::duration<double>(now - last).count();
    if (now > shared.measure_start && dt >= 0.5) res.per_second.push_back(measured - last_measured);
    if (opts.on_progress) {
      Progress p;
      p.elapsed = std::chrono::duration<double>(now - shared.start).count();
      p.warming = now < shared.measure_start;
      double t = std::chrono::duration<double>(now - shared.measure_start).count();
      p.connections = s.connections_at(std::max(0.0, t));
      p.rps = dt > 0 ? static_cast<double>(completed - last_completed) / dt : 0;
      p.failures = failures;
      opts.on_progress(p);
    }
    last_completed = completed;
    last_measured = measured;
    last = now;
  }
  for (auto& t : pool) t.join();

  res.endpoints.resize(s.endpoints.size());
  for (auto& w : workers) {
    for (size_t i = 0; i < w->stats.size(); ++i) res.endpoints[i].merge(w->stats[i]);
    res.connect_errors += w->connect_errors;
    res.ended += w->completed.load(std::memory_order_relaxed);
  }
  res.measured_seconds = s.total_seconds();
  return res;
}

}  // namespace fitz::loadgen
