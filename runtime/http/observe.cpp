// Observability: X-Request-Id (echo or generate), one JSON access-log line per request
// (buffered per thread, written to stderr in whole lines), Prometheus counters and histograms
// kept per thread and summed by /metrics.
#include <time.h>
#include <unistd.h>

#include <cstring>
#include <random>
#include <string>

#include "http/internal.h"

namespace fitz::http::detail {

int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

namespace {

thread_local Buf t_log;
constexpr size_t kLogFlushBytes = 32 * 1024;

bool sane_request_id(Text v) {
  if (v.size == 0 || v.size > 128) return false;
  for (size_t i = 0; i < v.size; ++i) {
    unsigned char c = static_cast<unsigned char>(v.data[i]);
    if (c < 0x21 || c > 0x7e || c == '"' || c == '\\') return false;
  }
  return true;
}

struct IdGen {
  uint64_t state;
  IdGen() {
    std::random_device rd;
    state = (uint64_t(rd()) << 32) ^ rd() ^ uint64_t(now_ns());
  }
  uint64_t next() {  // splitmix64
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};
thread_local IdGen t_ids;

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool parse_hex64(const char* p, uint64_t* out) {
  uint64_t x = 0;
  for (int i = 0; i < 16; ++i) {
    int d = hex_digit(p[i]);
    if (d < 0) return false;
    x = (x << 4) | uint64_t(d);
  }
  *out = x;
  return true;
}

// "00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>"; an all-zero trace id is invalid.
bool parse_traceparent(Text v, uint64_t* hi, uint64_t* lo) {
  if (v.size < 55 || v.data[2] != '-' || v.data[35] != '-' || v.data[52] != '-') return false;
  if (hex_digit(v.data[0]) < 0 || hex_digit(v.data[1]) < 0 || (v.data[0] == 'f' && v.data[1] == 'f')) return false;
  uint64_t h, l;
  if (!parse_hex64(v.data + 3, &h) || !parse_hex64(v.data + 19, &l) || (h | l) == 0) return false;
  *hi = h;
  *lo = l;
  return true;
}

void write_hex16(Buf& b, uint64_t x) {
  static const char hex[] = "0123456789abcdef";
  char s[16];
  for (int i = 0; i < 16; ++i) s[i] = hex[(x >> (60 - 4 * i)) & 15];
  b.append(s, 16);
}

// "2026-01-02T03:04:05.678Z", with the date part cached per second.
void write_timestamp(Buf& b) {
  thread_local time_t cached_sec = -1;
  thread_local char cached[24];
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  if (ts.tv_sec != cached_sec) {
    cached_sec = ts.tv_sec;
    tm t;
    gmtime_r(&ts.tv_sec, &t);
    strftime(cached, sizeof cached, "%Y-%m-%dT%H:%M:%S", &t);
  }
  b.append(cached, 19);
  char ms[6] = {'.', char('0' + ts.tv_nsec / 100000000), char('0' + ts.tv_nsec / 10000000 % 10),
                char('0' + ts.tv_nsec / 1000000 % 10), 'Z', 0};
  b.append(ms, 5);
}

const double kBuckets[] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5};

std::atomic<uint64_t> g_app_generation{1};

MetricsShard* shard_for(AppState& app) {
  thread_local uint64_t t_gen = 0;
  thread_local MetricsShard* t_shard = nullptr;
  if (t_gen != app.generation || !t_shard) {
    t_shard = new MetricsShard();
    std::lock_guard<std::mutex> g(app.metrics_mu);
    app.shards.push_back(t_shard);
    t_gen = app.generation;
  }
  return t_shard;
}

}  // namespace

AppState::AppState() : generation(g_app_generation.fetch_add(1)) {}

void log_line(const Buf& line) {
  t_log.append(line.data(), line.size());
  if (t_log.size() >= kLogFlushBytes) flush_log();
}

void flush_log() {
  const char* p = t_log.data();
  size_t n = t_log.size();
  while (n > 0) {
    ssize_t w = ::write(2, p, n);
    if (w <= 0) break;
    p += w;
    n -= size_t(w);
  }
  t_log.clear();
}

void begin_request(AppState& app, Request& req) {
  if (!app.cfg.observability) return;
  req.start_ns = now_ns();
  Text v;
  if (req.header_text(Text("x-request-id"), &v) && sane_request_id(v)) {
    req.request_id = v;
  } else {
    static const char hex[] = "0123456789abcdef";
    uint64_t x = t_ids.next();
    for (int i = 0; i < 16; ++i) req.id_buf[i] = hex[(x >> (60 - 4 * i)) & 15];
    req.request_id = Text(req.id_buf, 16);
  }
  // W3C trace context: a caller's trace id is kept, so the service's logs join its trace.
  Text tp;
  if (!(req.header_text(Text("traceparent"), &tp) && parse_traceparent(tp, &req.trace.trace_hi, &req.trace.trace_lo))) {
    req.trace.trace_hi = t_ids.next();
    req.trace.trace_lo = t_ids.next();
  }
  req.trace.span = t_ids.next() | 1;
  req.trace.request_id = req.request_id.str();
}

void finish(AppState& app, Request& req, Response& resp, bool add_id_header) {
  if (!app.cfg.observability) return;
  if (add_id_header) resp.headers.emplace_back(Str::lit("X-Request-Id"), req.request_id.str());
  int64_t dur_ns = now_ns() - req.start_ns;
  if (app.cfg.access_log && log_enabled(LogLevel::Info)) {
    Buf b;
    b.lit("{\"timestamp\":\"");
    write_timestamp(b);
    b.lit("\",\"level\":\"info\",\"msg\":\"http.access\",\"http.method\":\"");
    b.append_cstr(req.line_parsed ? method_name(req.method) : "-");
    b.lit("\",\"http.target\":");
    JsonWriter w(b);
    if (req.route[0])
      w.value(Text(req.route, std::strlen(req.route)));
    else
      w.value(req.raw_path);
    b.lit(",\"http.status_code\":");
    fitz::detail::write_int(b, resp.status);
    b.lit(",\"duration_ms\":");
    fitz::detail::write_int(b, dur_ns / 1000000);
    b.push('.');
    int64_t frac = (dur_ns / 1000) % 1000;
    char f[3] = {char('0' + frac / 100), char('0' + frac / 10 % 10), char('0' + frac % 10)};
    b.append(f, 3);
    b.lit(",\"request_id\":");
    JsonWriter w2(b);
    w2.value(req.request_id);
    b.lit(",\"trace_id\":\"");
    write_hex16(b, req.trace.trace_hi);
    write_hex16(b, req.trace.trace_lo);
    b.lit("\",\"span_id\":\"");
    write_hex16(b, req.trace.span);
    b.lit("\"}\n");
    log_line(b);
  }
  if (app.cfg.prometheus) {
    MetricsShard* s = shard_for(app);
    double secs = double(dur_ns) / 1e9;
    std::lock_guard<std::mutex> g(s->mu);
    MetricsShard::Series* found = nullptr;
    for (auto& x : s->series)
      if (x.route_id == req.route_id && x.status == resp.status && x.method == uint8_t(req.method)) {
        found = &x;
        break;
      }
    if (!found) {
      s->series.push_back(MetricsShard::Series{req.route_id, uint16_t(resp.status), uint8_t(req.method)});
      found = &s->series.back();
    }
    ++found->count;
    found->sum += secs;
    for (size_t i = 0; i < 12; ++i)
      if (secs <= kBuckets[i]) ++found->buckets[i];
  }
}

Str metrics_text(AppState& app) {
  struct Agg {
    int32_t route_id;
    uint8_t method;
    uint16_t status;
    uint64_t count;
  };
  struct Hist {
    int32_t route_id;
    uint8_t method;
    uint64_t count = 0;
    double sum = 0;
    uint64_t buckets[12] = {};
  };
  std::vector<Agg> counts;
  std::vector<Hist> hists;
  {
    std::lock_guard<std::mutex> g(app.metrics_mu);
    for (MetricsShard* s : app.shards) {
      std::lock_guard<std::mutex> g2(s->mu);
      for (const auto& x : s->series) {
        bool merged = false;
        for (auto& a : counts)
          if (a.route_id == x.route_id && a.method == x.method && a.status == x.status) {
            a.count += x.count;
            merged = true;
          }
        if (!merged) counts.push_back(Agg{x.route_id, x.method, x.status, x.count});
        Hist* h = nullptr;
        for (auto& y : hists)
          if (y.route_id == x.route_id && y.method == x.method) h = &y;
        if (!h) {
          hists.push_back(Hist{x.route_id, x.method});
          h = &hists.back();
        }
        h->count += x.count;
        h->sum += x.sum;
        for (size_t i = 0; i < 12; ++i) h->buckets[i] += x.buckets[i];
      }
    }
  }
  auto path_of = [&](int32_t id) -> std::string {
    return id >= 0 && size_t(id) < app.routes.size() ? app.routes[size_t(id)].path : std::string("unmatched");
  };
  std::string out;
  out += "# HELP http_requests_total Total HTTP requests.\n# TYPE http_requests_total counter\n";
  for (const auto& a : counts)
    out += std::string("http_requests_total{method=\"") + method_name(Method(a.method)) + "\",path=\"" +
           path_of(a.route_id) + "\",status=\"" + std::to_string(a.status) + "\"} " + std::to_string(a.count) + "\n";
  out += "# HELP http_request_duration_seconds Request duration.\n# TYPE http_request_duration_seconds histogram\n";
  for (const auto& h : hists) {
    std::string labels = std::string("method=\"") + method_name(Method(h.method)) + "\",path=\"" + path_of(h.route_id) + "\"";
    for (size_t i = 0; i < 12; ++i) {
      char le[32];
      snprintf(le, sizeof le, "%g", kBuckets[i]);
      out += "http_request_duration_seconds_bucket{" + labels + ",le=\"" + le + "\"} " + std::to_string(h.buckets[i]) + "\n";
    }
    out += "http_request_duration_seconds_bucket{" + labels + ",le=\"+Inf\"} " + std::to_string(h.count) + "\n";
    char sum[64];
    snprintf(sum, sizeof sum, "%.6f", h.sum);
    out += "http_request_duration_seconds_sum{" + labels + "} " + sum + "\n";
    out += "http_request_duration_seconds_count{" + labels + "} " + std::to_string(h.count) + "\n";
  }
  Buf reg;  // @metric functions
  write_metrics_registry(reg);
  out.append(reg.data(), reg.size());
  for (const Fn<Str()>& source : app.metric_sources) {
    Str more = source();
    out.append(more.data(), more.size());
  }
  return Str(out.data(), out.size());
}

}  // namespace fitz::http::detail
