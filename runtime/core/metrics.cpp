// The `@metric(name=)` registry: per metric name, a call counter and a duration histogram,
// shared by every thread of the process (a service's /metrics reads it). One short lock per
// recorded call; the HTTP runtime's per-request metrics are kept apart, per thread.
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "fitz/log.h"
#include "fitz/runtime.h"

namespace fitz {

namespace {

constexpr double kBuckets[] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5};
constexpr size_t kBucketCount = sizeof kBuckets / sizeof kBuckets[0];

struct Series {
  std::string name;  // sanitised for Prometheus: [a-zA-Z_:][a-zA-Z0-9_:]*
  const char* key;   // the decorator's literal (stable address: one per call site)
  uint64_t calls = 0;
  double sum = 0;
  uint64_t buckets[kBucketCount] = {};
};

// Process-wide by nature: a metric counts calls from every request on every thread.
struct Registry {
  std::mutex mu;
  std::vector<Series> series;
};
Registry& registry() {
  static Registry r;
  return r;
}

std::string prometheus_name(const char* s) {
  std::string out;
  for (const char* p = s; *p; ++p) {
    char c = *p;
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
              (c >= '0' && c <= '9' && p != s);
    out += ok ? c : '_';
  }
  return out.empty() ? std::string("_") : out;
}

void record(const char* name, double secs) {
  Registry& r = registry();
  std::lock_guard<std::mutex> g(r.mu);
  Series* found = nullptr;
  for (auto& s : r.series)
    if (s.key == name || std::strcmp(s.key, name) == 0) {
      found = &s;
      break;
    }
  if (!found) {
    r.series.push_back(Series{prometheus_name(name), name});
    found = &r.series.back();
  }
  ++found->calls;
  found->sum += secs;
  for (size_t i = 0; i < kBucketCount; ++i)
    if (secs <= kBuckets[i]) ++found->buckets[i];
}

void append(Buf& b, const std::string& s) { b.append(s.data(), s.size()); }

}  // namespace

MetricScope::MetricScope(const char* name) : name_(name), start_ns_(monotonic_ns()) {}

MetricScope::~MetricScope() { record(name_, double(monotonic_ns() - start_ns_) / 1e9); }

void write_metrics_registry(Buf& out) {
  Registry& r = registry();
  std::lock_guard<std::mutex> g(r.mu);
  for (const Series& s : r.series) {
    append(out, "# HELP " + s.name + "_calls_total Calls of the @metric function.\n# TYPE " + s.name +
                    "_calls_total counter\n" + s.name + "_calls_total " + std::to_string(s.calls) + "\n");
    append(out, "# HELP " + s.name + "_duration_seconds Duration of the @metric function.\n# TYPE " + s.name +
                    "_duration_seconds histogram\n");
    for (size_t i = 0; i < kBucketCount; ++i) {
      char le[32];
      snprintf(le, sizeof le, "%g", kBuckets[i]);
      append(out, s.name + "_duration_seconds_bucket{le=\"" + le + "\"} " + std::to_string(s.buckets[i]) + "\n");
    }
    char sum[64];
    snprintf(sum, sizeof sum, "%.6f", s.sum);
    append(out, s.name + "_duration_seconds_bucket{le=\"+Inf\"} " + std::to_string(s.calls) + "\n");
    append(out, s.name + "_duration_seconds_sum " + sum + "\n");
    append(out, s.name + "_duration_seconds_count " + std::to_string(s.calls) + "\n");
  }
}

}  // namespace fitz
