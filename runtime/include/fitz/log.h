// Observability of any Fitz program: structured logs (`log.info("msg", k: v)`), feature flags
// (`flag("x")`, `flags.is_enabled`, `flags.list`, `[flags]` in fitz.toml, FITZ_FLAG_<NAME>),
// `@trace` spans and `@metric` timings. Generated code calls these directly; the HTTP runtime
// sets the request's trace context (task.h) and serves `metrics_text()` at /metrics.
//
//   log.info("saved", id: 3)    fitz::log_write(fitz::LogLevel::Info, {fitz::to_any("saved")},
//                                               {{"id", fitz::to_any(3)}})
//   flag("beta")                fitz::flag(Str)        flags.list() -> Map<Str, Bool>
//   @trace(name="load")         fitz::SpanScope s("load");   (first statement of the body)
//   @metric(name="load")        fitz::MetricScope m("load");
#pragma once

#include "fitz/any.h"

namespace fitz {

enum class LogLevel : uint8_t { Debug, Info, Warn, Error };

struct LogField {
  const char* key;
  Any value;
};

// One JSON line on stderr: {"timestamp", "level", "msg", "trace_id", "span_id", "request_id"
// (inside a request), then the fields}. Below the FITZ_LOG level nothing is written;
// FITZ_LOG_FORMAT=pretty (or a terminal on stderr) writes a readable line instead.
// `positional` holds the message first, then any further positional arguments ("arg1", ...).
void log_write(LogLevel level, std::initializer_list<Any> positional, std::initializer_list<LogField> fields);
bool log_enabled(LogLevel level);
// `log.<name>(...)` through Any (e.g. `let l = log`): "info", "warn", "error", "debug".
bool parse_log_level(const char* name, LogLevel* out);
// "0123...": lower-case hex of the context's ids (32 and 16 characters).
void write_trace_ids(Buf& b, const TraceContext& c);
// A fresh non-zero random 64-bit id (span ids, trace ids, request ids).
uint64_t random_id();

// ---- feature flags ----------------------------------------------------------------------------

// The `[flags]` defaults of fitz.toml, registered by the generated main before anything runs.
// FITZ_FLAG_<NAME> (the name upper-cased, `-` and `.` as `_`) overrides a default with
// 1/true/on/yes or 0/false/off/no, and may turn on a flag the manifest does not list.
void flags_init(std::initializer_list<std::pair<const char*, bool>> defaults);
bool flag(const Str& name);
Map<Str, bool> flags_list();
// `@flag("x")` on a route: the answer when the flag is off is 404 {"error":"feature 'x' disabled"}.

// ---- spans and metrics ------------------------------------------------------------------------

// `@trace(name=)`: a child span of the current one for the function's duration. Inside a
// request, the span gets a fresh span id (logs written meanwhile carry it) and, when it ends,
// one `"msg":"span"` debug record with its name, ids, parent and duration.
class SpanScope {
 public:
  explicit SpanScope(const char* name);
  ~SpanScope();
  SpanScope(const SpanScope&) = delete;
  SpanScope& operator=(const SpanScope&) = delete;

 private:
  const char* name_;
  uint64_t parent_;
  uint64_t span_;
  int64_t start_ns_;
  bool owns_trace_;
};

// Around a call of an async `@trace` function: the callee makes its span current and may
// suspend before its task returns; the caller's context comes back at the end of the full
// expression (`TraceKeep{}.pass(f(x))`; the object is created before the call is evaluated).
struct TraceKeep {
  TraceContext saved = detail::t_trace;
  ~TraceKeep() { detail::t_trace = saved; }
  template <class T> T pass(T v) { return v; }
};

// `@metric(name=)`: counts calls (`<name>_calls_total`) and times them
// (`<name>_duration_seconds` histogram) in the process-wide registry /metrics serves.
class MetricScope {
 public:
  explicit MetricScope(const char* name);
  ~MetricScope();
  MetricScope(const MetricScope&) = delete;
  MetricScope& operator=(const MetricScope&) = delete;

 private:
  const char* name_;
  int64_t start_ns_;
};

// Appends the Prometheus text of the @metric registry (nothing when no metric was recorded).
void write_metrics_registry(Buf& out);
int64_t monotonic_ns();

}  // namespace fitz
