// Runs a scenario: N connections (keep-alive, one request in flight each, like wrk and k6)
// spread over worker threads, each thread with its own io_context and its own statistics,
// merged when the run ends. Requests that start during warm-up or are still in flight at the
// end are not counted.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "histogram.h"
#include "scenario.h"

namespace fitz::loadgen {

struct EndpointStats {
  Histogram latency;  // nanoseconds, successful and unsuccessful responses alike
  std::array<uint64_t, 600> status{};
  uint64_t responses = 0;
  uint64_t unexpected = 0;  // responses whose status the endpoint does not expect
  uint64_t errors = 0;      // connection reset, refused, malformed response
  uint64_t timeouts = 0;
  void merge(const EndpointStats& o);
};

struct Results {
  std::vector<EndpointStats> endpoints;  // parallel to Scenario::endpoints
  double measured_seconds = 0;
  uint64_t connect_errors = 0;
  std::vector<uint64_t> per_second;  // completed responses in each second of the measured window
  // Every request that ended (answered or failed) while the run lasted, warm-up and the tail
  // after the measured window included: what the server answered, but for at most one request
  // per connection still in flight when the run stopped.
  uint64_t ended = 0;
  uint64_t total_responses() const;
  uint64_t total_failures() const;  // unexpected statuses + errors + timeouts
};

struct Progress {
  double elapsed = 0;     // seconds since the start, warm-up included
  bool warming = false;
  int connections = 0;
  double rps = 0;         // over the last second
  uint64_t failures = 0;
};

struct RunOptions {
  int threads = 1;
  std::function<void(const Progress&)> on_progress;  // called about once a second
};

Results run(const Scenario& s, const RunOptions& opts);

}  // namespace fitz::loadgen
