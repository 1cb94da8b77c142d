// Global built-ins with out-of-line parts (env, load_env, math range checks, to_str_base),
// Range and Bytes methods, and the program entry point.
#include <cstdio>
#include <cstdlib>
#include <random>

#include "fitz/runtime.h"

namespace fitz {

namespace {
List<Str> g_args;
}

namespace detail {
// Per thread, so handlers on several server threads never share (or lock) one generator.
std::mt19937_64& random_engine() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  return engine;
}
}  // namespace detail

int64_t random_int(int64_t lo, int64_t hi, SourcePos pos) {
  if (lo > hi) runtime_error(pos, Str::lit("random_int: the low bound is above the high bound"));
  return std::uniform_int_distribution<int64_t>(lo, hi)(detail::random_engine());
}

double random_float() { return std::uniform_real_distribution<double>(0.0, 1.0)(detail::random_engine()); }

Result<Str, Str> env(const Str& name) {
  const char* v = std::getenv(name.c_str());
  if (!v) return Err(Str::lit("environment variable ") + name + Str::lit(" is not set"));
  return Ok(Str(v));
}

Str env_or(const Str& name, const Str& fallback) {
  const char* v = std::getenv(name.c_str());
  return v ? Str(v) : fallback;
}

Result<Null, Str> load_env(const Str& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return Err(Str::lit("cannot read env file ") + path);
  Buf content;
  char chunk[4096];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) content.append(chunk, n);
  std::fclose(f);
  Str text = content.take();
  List<Str> lines = text.lines();  // named: a range-for over a temporary's vec() would dangle
  for (const Str& raw : lines.vec()) {
    Str line = raw.trim();
    if (line.empty() || line.starts_with(Str::lit("#"))) continue;
    if (line.starts_with(Str::lit("export "))) line = line.slice(7, detail::slice_end, false).trim_start();
    auto eq = line.find(Str::lit("="));
    if (eq.is_err()) continue;
    Str key = line.slice(0, eq.value(), false).trim();
    Str value = line.slice(eq.value() + 1, detail::slice_end, false).trim();
    if (value.size() >= 2) {
      char q = value.data()[0];
      if ((q == '"' || q == '\'') && value.data()[value.size() - 1] == q)
        value = Str(value.data() + 1, value.size() - 2);
    }
    if (!key.empty()) ::setenv(key.c_str(), value.c_str(), 0);
  }
  return Ok(Null{});
}

int64_t abs(int64_t v, SourcePos pos) {
  if (v == INT64_MIN) runtime_error(pos, "integer overflow: abs(-9223372036854775808)");
  return v < 0 ? -v : v;
}

int64_t float_to_int(double v, SourcePos pos) {
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) {
    Buf b;
    b.lit("float ");
    detail::write_float(b, v);
    b.lit(" does not fit in an Int");
    runtime_error(pos, b.take());
  }
  return int64_t(v);
}

Str int_to_str_base(int64_t v, int64_t base, SourcePos pos) {
  if (base < 2 || base > 36) {
    Buf b;
    b.lit("to_str_base expects a base between 2 and 36, received ");
    detail::write_int(b, base);
    runtime_error(pos, b.take());
  }
  const char* digits = "0123456789abcdefghijklmnopqrstuvwxyz";
  uint64_t u = v < 0 ? 0 - uint64_t(v) : uint64_t(v);
  char tmp[70];
  char* e = tmp + sizeof tmp;
  char* p = e;
  do {
    *--p = digits[u % uint64_t(base)];
    u /= uint64_t(base);
  } while (u);
  if (v < 0) *--p = '-';
  return Str(p, size_t(e - p));
}

// ---- Range ----

List<int64_t> Range::to_list() const {
  List<int64_t> out = List<int64_t>::with_capacity(len());
  for (int64_t k : *this) out.vec().push_back(k);
  return out;
}

List<std::tuple<int64_t, int64_t>> Range::enumerate() const {
  List<std::tuple<int64_t, int64_t>> out = List<std::tuple<int64_t, int64_t>>::with_capacity(len());
  int64_t i = 0;
  for (int64_t k : *this) out.vec().emplace_back(i++, k);
  return out;
}

List<int64_t> Range::chain(const List<int64_t>& more) const {
  List<int64_t> out = to_list();
  out.vec().insert(out.vec().end(), more.vec().begin(), more.vec().end());
  return out;
}

List<int64_t> Range::step_by(int64_t step, SourcePos pos) const {
  if (step <= 0) runtime_error(pos, "step_by expects a positive step");
  List<int64_t> out;
  int64_t n = len();
  for (int64_t i = 0; i < n; i += step) {
    out.vec().push_back(start + i);
    if (i > INT64_MAX - step) break;
  }
  return out;
}

// ---- Bytes ----

Result<Str, Str> Bytes::to_str() const {
  size_t ok = detail::utf8_valid_prefix(data(), size());
  if (ok == size()) return Ok(raw_);
  Buf b;
  b.lit("invalid UTF-8 at byte ");
  detail::write_uint(b, ok);
  return Err(b.take());
}

// ---- entry point ----

int run_main(int argc, char** argv, void (*body)()) {
  g_args = List<Str>();
  for (int i = 0; i < argc; ++i) g_args.vec().push_back(Str(argv[i]));
  body();
  drain();
  flush_stdout();
  return 0;
}

List<Str> program_args() { return g_args; }

}  // namespace fitz
