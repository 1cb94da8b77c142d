// Structured logs: one JSON line per call on stderr (or a readable line with
// FITZ_LOG_FORMAT=pretty or a terminal), filtered by FITZ_LOG, carrying the trace context of
// the request being served. Also the random ids of traces, spans and requests.
#include <time.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>

#include "fitz/log.h"
#include "fitz/runtime.h"

namespace fitz {

namespace {

struct LogSettings {
  LogLevel level = LogLevel::Info;
  bool pretty = false;
};

bool iequals(const char* a, const char* b) {
  for (; *a && *b; ++a, ++b)
    if ((*a | 0x20) != (*b | 0x20)) return false;
  return *a == *b;
}

// Read once: the environment of a running program is its configuration.
const LogSettings& settings() {
  static const LogSettings s = [] {
    LogSettings r;
    if (const char* v = std::getenv("FITZ_LOG"); v && *v) {
      LogLevel l;
      if (parse_log_level(v, &l)) r.level = l;
      else if (iequals(v, "warning")) r.level = LogLevel::Warn;
    }
    const char* f = std::getenv("FITZ_LOG_FORMAT");
    if (f && *f)
      r.pretty = iequals(f, "pretty");
    else
      r.pretty = isatty(2) != 0;
    return r;
  }();
  return s;
}

const char* level_name(LogLevel l) {
  switch (l) {
    case LogLevel::Debug: return "debug";
    case LogLevel::Info: return "info";
    case LogLevel::Warn: return "warn";
    case LogLevel::Error: return "error";
  }
  return "info";
}

void json_string(Buf& b, const char* p, size_t n) {
  static const char hex[] = "0123456789abcdef";
  b.push('"');
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(p[i]);
    switch (c) {
      case '"': b.lit("\\\""); break;
      case '\\': b.lit("\\\\"); break;
      case '\n': b.lit("\\n"); break;
      case '\r': b.lit("\\r"); break;
      case '\t': b.lit("\\t"); break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
          b.append(e, 6);
        } else {
          b.push(char(c));
        }
    }
  }
  b.push('"');
}

void json_any(Buf& b, const Any& v, int depth) {
  switch (v.tag()) {
    case Any::Tag::Null: b.lit("null"); return;
    case Any::Tag::Bool: v.bool_value() ? b.lit("true") : b.lit("false"); return;
    case Any::Tag::Int: detail::write_int(b, v.int_value()); return;
    case Any::Tag::Float:
      if (std::isfinite(v.float_value())) {
        detail::write_float(b, v.float_value());
      } else {
        Str s = to_str(v);
        json_string(b, s.data(), s.size());
      }
      return;
    case Any::Tag::Str: json_string(b, v.str_value().data(), v.str_value().size()); return;
    case Any::Tag::Obj: break;
  }
  if (depth < 32 && (v.is_kind(detail::ObjKind::List) || v.is_kind(detail::ObjKind::Tuple))) {
    b.push('[');
    for (int64_t i = 0, n = v.obj()->len(); i < n; ++i) {
      if (i) b.push(',');
      json_any(b, v.obj()->get(i, {}), depth + 1);
    }
    b.push(']');
    return;
  }
  if (depth < 32 && v.is_kind(detail::ObjKind::Map)) {
    b.push('{');
    for (int64_t i = 0, n = v.obj()->len(); i < n; ++i) {
      if (i) b.push(',');
      Any k = v.obj()->key_at(i);
      Str ks = k.is_str() ? k.str_value() : to_str(k);
      json_string(b, ks.data(), ks.size());
      b.push(':');
      json_any(b, v.obj()->value_at(i), depth + 1);
    }
    b.push('}');
    return;
  }
  // Instances, results, functions...: their display form.
  Str s = to_str(v);
  json_string(b, s.data(), s.size());
}

// "2026-01-02T03:04:05.678Z"
void write_timestamp(Buf& b) {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  tm t;
  gmtime_r(&ts.tv_sec, &t);
  char s[32];
  size_t n = strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%S", &t);
  b.append(s, n);
  char ms[6] = {'.', char('0' + ts.tv_nsec / 100000000), char('0' + ts.tv_nsec / 10000000 % 10),
                char('0' + ts.tv_nsec / 1000000 % 10), 'Z', 0};
  b.append(ms, 5);
}

void write_hex(Buf& b, uint64_t x) {
  static const char hex[] = "0123456789abcdef";
  char s[16];
  for (int i = 0; i < 16; ++i) s[i] = hex[(x >> (60 - 4 * i)) & 15];
  b.append(s, 16);
}

void write_all(const Buf& b) {
  const char* p = b.data();
  size_t n = b.size();
  while (n > 0) {
    ssize_t w = ::write(2, p, n);
    if (w <= 0) break;
    p += w;
    n -= size_t(w);
  }
}

Str text_of(const Any& v) { return v.is_str() ? v.str_value() : to_str(v); }

}  // namespace

bool parse_log_level(const char* name, LogLevel* out) {
  if (iequals(name, "debug")) *out = LogLevel::Debug;
  else if (iequals(name, "info")) *out = LogLevel::Info;
  else if (iequals(name, "warn")) *out = LogLevel::Warn;
  else if (iequals(name, "error")) *out = LogLevel::Error;
  else return false;
  return true;
}

bool log_enabled(LogLevel level) { return level >= settings().level; }

int64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

uint64_t random_id() {
  // splitmix64 over a per-thread seed: cheap, and ids from different threads do not collide.
  thread_local uint64_t state = [] {
    std::random_device rd;
    return (uint64_t(rd()) << 32) ^ rd() ^ uint64_t(monotonic_ns());
  }();
  for (;;) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    if (z) return z;
  }
}

void write_trace_ids(Buf& b, const TraceContext& c) {
  b.lit("\"trace_id\":\"");
  write_hex(b, c.trace_hi);
  write_hex(b, c.trace_lo);
  b.lit("\",\"span_id\":\"");
  write_hex(b, c.span);
  b.push('"');
  if (!c.request_id.empty()) {
    b.lit(",\"request_id\":");
    json_string(b, c.request_id.data(), c.request_id.size());
  }
}

void log_write(LogLevel level, std::initializer_list<Any> positional, std::initializer_list<LogField> fields) {
  const LogSettings& s = settings();
  if (level < s.level) return;
  const TraceContext& ctx = detail::t_trace;
  Buf b;
  Str msg = positional.size() ? text_of(*positional.begin()) : Str();
  if (s.pretty) {
    write_timestamp(b);
    b.push(' ');
    const char* ln = level_name(level);
    for (const char* p = ln; *p; ++p) b.push(char(*p - 32));
    b.append("     ", 6 - std::strlen(ln));
    b.append(msg.data(), msg.size());
    size_t i = 0;
    for (const Any& a : positional) {
      if (i++ == 0) continue;
      b.lit(" arg");
      detail::write_int(b, int64_t(i - 1));
      b.push('=');
      json_any(b, a, 0);
    }
    for (const LogField& f : fields) {
      b.push(' ');
      b.append_cstr(f.key);
      b.push('=');
      json_any(b, f.value, 0);
    }
    if (ctx.active()) {
      b.lit(" trace_id=");
      write_hex(b, ctx.trace_hi);
      write_hex(b, ctx.trace_lo);
      if (!ctx.request_id.empty()) {
        b.lit(" request_id=");
        b.append(ctx.request_id.data(), ctx.request_id.size());
      }
    }
    b.push('\n');
    write_all(b);
    return;
  }
  b.lit("{\"timestamp\":\"");
  write_timestamp(b);
  b.lit("\",\"level\":\"");
  b.append_cstr(level_name(level));
  b.lit("\",\"msg\":");
  json_string(b, msg.data(), msg.size());
  if (ctx.active()) {
    b.push(',');
    write_trace_ids(b, ctx);
  }
  size_t i = 0;
  for (const Any& a : positional) {
    if (i++ == 0) continue;
    b.lit(",\"arg");
    detail::write_int(b, int64_t(i - 1));
    b.lit("\":");
    json_any(b, a, 0);
  }
  for (const LogField& f : fields) {
    b.push(',');
    json_string(b, f.key, std::strlen(f.key));
    b.push(':');
    json_any(b, f.value, 0);
  }
  b.lit("}\n");
  write_all(b);  // one write per line: lines from several threads never interleave
}

SpanScope::SpanScope(const char* name) : name_(name), parent_(0), span_(0), start_ns_(monotonic_ns()) {
  TraceContext& t = detail::t_trace;
  owns_trace_ = !t.active();
  if (owns_trace_) {  // outside a request the span starts a trace of its own
    t.trace_hi = random_id();
    t.trace_lo = random_id();
  }
  parent_ = t.span;
  span_ = random_id();
  t.span = span_;
}

SpanScope::~SpanScope() {
  TraceContext& t = detail::t_trace;
  if (log_enabled(LogLevel::Debug)) {
    int64_t dur_ns = monotonic_ns() - start_ns_;
    Buf b;
    b.lit("{\"timestamp\":\"");
    write_timestamp(b);
    b.lit("\",\"level\":\"debug\",\"msg\":\"span\",\"span.name\":");
    json_string(b, name_, std::strlen(name_));
    b.lit(",\"trace_id\":\"");
    write_hex(b, t.trace_hi);
    write_hex(b, t.trace_lo);
    b.lit("\",\"span_id\":\"");
    write_hex(b, span_);
    b.lit("\",\"parent_span_id\":");
    if (parent_) {
      b.push('"');
      write_hex(b, parent_);
      b.push('"');
    } else {
      b.lit("null");
    }
    if (!t.request_id.empty()) {
      b.lit(",\"request_id\":");
      json_string(b, t.request_id.data(), t.request_id.size());
    }
    b.lit(",\"duration_ms\":");
    detail::write_float(b, double(dur_ns / 1000) / 1000.0);
    b.lit("}\n");
    write_all(b);
  }
  if (owns_trace_) {
    t.trace_hi = t.trace_lo = 0;
    t.span = 0;
  } else {
    t.span = parent_;
  }
}

}  // namespace fitz
