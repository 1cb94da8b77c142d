// Runtime errors: the panic mode, the report written to stderr, and the out-of-line error
// paths of inline checks (kept here so the hot paths stay small).
#include <cstdio>
#include <cstdlib>

#include "fitz/runtime.h"

namespace fitz {

namespace {
thread_local PanicMode g_mode = PanicMode::Exit;

void write_report(const Panic& p) {
  Buf b;
  b.lit("error: ");
  b.append(p.message.data(), p.message.size());
  b.push('\n');
  if (p.has_sides) {
    b.lit("  left: ");
    b.append(p.left.data(), p.left.size());
    b.lit("\n right: ");
    b.append(p.right.data(), p.right.size());
    b.push('\n');
  }
  if (p.pos.file) {
    b.lit("  --> ");
    b.append_cstr(p.pos.file);
    b.push(':');
    detail::write_uint(b, p.pos.line);
    b.push(':');
    detail::write_uint(b, p.pos.col);
    b.push('\n');
  }
  std::fwrite(b.data(), 1, b.size(), stderr);
  std::fflush(stderr);
}
}  // namespace

PanicMode panic_mode() noexcept { return g_mode; }
PanicMode set_panic_mode(PanicMode m) noexcept {
  PanicMode prev = g_mode;
  g_mode = m;
  return prev;
}

void raise_panic(Panic p) {
  if (g_mode == PanicMode::Throw) throw p;
  flush_stdout();
  write_report(p);
  std::exit(1);
}

void runtime_error(SourcePos pos, const Str& message) {
  Panic p;
  p.message = message;
  p.pos = pos;
  raise_panic(std::move(p));
}

void runtime_error(SourcePos pos, const char* message) { runtime_error(pos, Str(message)); }

namespace detail {

void index_error(SourcePos pos, int64_t index, size_t len, const char* what) {
  Buf b;
  b.lit("index ");
  write_int(b, index);
  b.lit(" out of range for ");
  b.append_cstr(what);
  b.lit(" of length ");
  write_uint(b, len);
  runtime_error(pos, b.take());
}

void null_function_error() { runtime_error({}, "call of an empty function value"); }
void null_unwrap_error(SourcePos pos) { runtime_error(pos, "null value where a value is required"); }
void empty_pop_error(SourcePos pos) { runtime_error(pos, "pop from an empty list"); }
void sum_overflow_error(SourcePos pos) { runtime_error(pos, "integer overflow"); }

void missing_key_error(SourcePos pos, const Buf& key_repr) {
  Buf b;
  b.lit("key not found: ");
  b.append(key_repr.data(), key_repr.size());
  runtime_error(pos, b.take());
}

void unordered_error(const Str& a_type, const Str& b_type) {
  Buf b;
  b.lit("values of type ");
  b.append(a_type.data(), a_type.size());
  b.lit(" and ");
  b.append(b_type.data(), b_type.size());
  b.lit(" cannot be ordered");
  runtime_error({}, b.take());
}

void type_mismatch(SourcePos pos, const Str& expected, const Any& found) {
  Buf b;
  b.lit("type mismatch: expected ");
  b.append(expected.data(), expected.size());
  b.lit(", found ");
  Str t = found.type_name();
  b.append(t.data(), t.size());
  runtime_error(pos, b.take());
}

void arity_error(SourcePos pos, size_t expected, size_t got) {
  Buf b;
  b.lit("function expects ");
  write_uint(b, expected);
  b.append_cstr(expected == 1 ? " argument, received " : " arguments, received ");
  write_uint(b, got);
  runtime_error(pos, b.take());
}

void assert_sides_failed(SourcePos pos, const char* op, Str left, Str right) {
  Panic p;
  Buf b;
  b.lit("assertion failed: left ");
  b.append_cstr(op);
  b.lit(" right");
  p.message = b.take();
  p.pos = pos;
  p.has_sides = true;
  p.left = std::move(left);
  p.right = std::move(right);
  raise_panic(std::move(p));
}

}  // namespace detail

namespace op::detail {

void overflow(SourcePos pos, const char* op, int64_t a, int64_t b) {
  Buf buf;
  buf.lit("integer overflow: ");
  fitz::detail::write_int(buf, a);
  buf.push(' ');
  buf.append_cstr(op);
  buf.push(' ');
  fitz::detail::write_int(buf, b);
  runtime_error(pos, buf.take());
}
void neg_overflow(SourcePos pos) { runtime_error(pos, "integer overflow: -(-9223372036854775808)"); }
void division_by_zero(SourcePos pos) { runtime_error(pos, "division by zero"); }
void modulo_by_zero(SourcePos pos) { runtime_error(pos, "modulo by zero"); }
void shift_out_of_range(SourcePos pos, int64_t amount) {
  Buf b;
  b.lit("shift amount ");
  fitz::detail::write_int(b, amount);
  b.lit(" out of range 0..63");
  runtime_error(pos, b.take());
}

}  // namespace op::detail

Null assert_(bool cond, SourcePos pos) {
  if (!cond) runtime_error(pos, "assertion failed");
  return {};
}

Null assert_(bool cond, const Str& message, SourcePos pos) {
  if (!cond) {
    Buf b;
    b.lit("assertion failed: ");
    b.append(message.data(), message.size());
    runtime_error(pos, b.take());
  }
  return {};
}

}  // namespace fitz
