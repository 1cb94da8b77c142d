// Retry policies (`retry={max, backoff, initial_secs, max_secs}`) and the JSON log lines jobs
// write on stderr.
#include <chrono>
#include <cstdio>
#include <ctime>

#include "fitz/jobs.h"

namespace fitz::jobs {

int64_t RetryPolicy::delay_secs(int64_t attempt) const {
  int64_t base = initial_secs < 1 ? 1 : initial_secs;
  int64_t cap = max_secs < 1 ? 1 : max_secs;
  if (attempt < 1) attempt = 1;
  int64_t raw = base;
  switch (backoff) {
    case Backoff::Constant:
      break;
    case Backoff::Linear:
      raw = attempt > cap / base + 1 ? cap : base * attempt;
      break;
    case Backoff::Exponential: {
      int64_t shift = attempt - 1;
      raw = shift >= 62 || (base << shift) >> shift != base || (base << shift) > cap ? cap : base << shift;
      break;
    }
  }
  return raw < cap ? raw : cap;
}

Result<RetryPolicy, Str> retry_from_any(const Any& value) {
  using R = Result<RetryPolicy, Str>;
  RetryPolicy p;
  if (value.is_null()) return R::ok(p);
  if (!value.is_kind(fitz::detail::ObjKind::Map) && !value.is_kind(fitz::detail::ObjKind::Struct))
    return R::err(Str::lit("retry= must be a map such as {max: 3, backoff: \"exponential\", initial_secs: 5, max_secs: 300}"));
  auto get = [&](const char* key, Any* out) {
    if (value.is_kind(fitz::detail::ObjKind::Map)) return value.obj()->map_get(Any(Str(key)), out);
    return value.obj()->get_field(key, out);
  };
  Any v;
  auto int_key = [&](const char* key, int64_t* out, int64_t min) -> std::optional<Str> {
    if (!get(key, &v)) return std::nullopt;
    if (!v.is_int() || v.int_value() < min)
      return Str::from("retry." + std::string(key) + " must be an Int of at least " + std::to_string(min));
    *out = v.int_value();
    return std::nullopt;
  };
  if (auto e = int_key("max", &p.max, 0)) return R::err(*e);
  if (auto e = int_key("initial_secs", &p.initial_secs, 1)) return R::err(*e);
  if (auto e = int_key("max_secs", &p.max_secs, 1)) return R::err(*e);
  if (get("backoff", &v)) {
    std::string b = v.is_str() ? v.str_value().as<std::string>() : "";
    if (b == "exponential") p.backoff = Backoff::Exponential;
    else if (b == "linear") p.backoff = Backoff::Linear;
    else if (b == "constant") p.backoff = Backoff::Constant;
    else return R::err(Str::lit("retry.backoff must be \"exponential\", \"linear\" or \"constant\""));
  }
  return R::ok(p);
}

namespace {

void json_string(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  out += '"';
}

}  // namespace

void log_job(std::string_view level, std::string_view msg, std::string_view job,
             std::initializer_list<std::pair<std::string_view, std::string>> fields) {
  auto now = std::chrono::system_clock::now();
  std::time_t secs = std::chrono::system_clock::to_time_t(now);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char ts[96];
  std::snprintf(ts, sizeof ts, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, int(ms));
  std::string line = "{\"timestamp\":\"";
  line += ts;
  line += "\",\"level\":";
  json_string(line, level);
  line += ",\"msg\":";
  json_string(line, msg);
  line += ",\"job\":";
  json_string(line, job);
  for (const auto& [k, v] : fields) {
    line += ',';
    json_string(line, k);
    line += ':';
    json_string(line, v);
  }
  line += "}\n";
  // One write per line so lines from several threads never interleave.
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace fitz::jobs
