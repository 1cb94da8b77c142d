// DateTime and Uuid (fitz/clock.h): the two module objects and the DateTime box.
#include "fitz/clock.h"

#include <sys/random.h>
#include <time.h>

namespace fitz {

namespace {

using detail::AnyObj;
using detail::ObjKind;

[[noreturn]] void no_method(SourcePos pos, const char* type, const char* name) {
  Buf b;
  b.append_cstr("`");
  b.append_cstr(type);
  b.append_cstr("` has no method `");
  b.append_cstr(name);
  b.append_cstr("` with these arguments");
  runtime_error(pos, Str(b.data(), b.size()));
}

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

class DateTimeBox final : public AnyObj {
 public:
  explicit DateTimeBox(int64_t unix_micros) : micros_(unix_micros) {}
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<DateTimeBox>(); }
  void type_name(Buf& b) const override { b.lit("DateTime"); }
  void show(Buf& b, bool quoted) const override {
    // ISO 8601 in UTC, to the second: what JSON and logs expect to read back.
    time_t secs = time_t(floor_div(micros_, 1000000));
    struct tm t;
    gmtime_r(&secs, &t);
    char text[64];
    size_t n = strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &t);
    if (quoted) b.push('"');
    b.append(text, n);
    if (quoted) b.push('"');
  }
  int64_t micros() const { return micros_; }
  bool equals(const AnyObj& o) const override {
    return o.type_id() == type_id() && static_cast<const DateTimeBox&>(o).micros_ == micros_;
  }
  uint64_t hash() const override { return uint64_t(micros_) * 0x9E3779B97F4A7C15ull; }
  bool call_method(const char* name, const Any*, size_t n, SourcePos, Any* out) override {
    if (__builtin_strcmp(name, "timestamp") == 0 && n == 0) {
      *out = Any(floor_div(micros_, 1000000));
      return true;
    }
    return false;
  }

 private:
  int64_t micros_;
};

class DateTimeModule final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<DateTimeModule>(); }
  void type_name(Buf& b) const override { b.lit("DateTimeModule"); }
  void show(Buf& b, bool) const override { b.lit("<DateTime>"); }
  bool call_method(const char* name, const Any*, size_t n, SourcePos pos, Any* out) override {
    if (__builtin_strcmp(name, "now") != 0 || n != 0) no_method(pos, "DateTime", name);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    *out = datetime_from_unix_micros(int64_t(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000);
    return true;
  }
};

class UuidModule final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<UuidModule>(); }
  void type_name(Buf& b) const override { b.lit("UuidModule"); }
  void show(Buf& b, bool) const override { b.lit("<Uuid>"); }
  bool call_method(const char* name, const Any*, size_t n, SourcePos pos, Any* out) override {
    if (__builtin_strcmp(name, "v4") != 0 || n != 0) no_method(pos, "Uuid", name);
    // The kernel's CSPRNG: token ids (`jti`) must not be guessable.
    unsigned char r[16];
    size_t got = 0;
    while (got < sizeof r) {
      ssize_t k = getrandom(r + got, sizeof r - got, 0);
      if (k <= 0) runtime_error(pos, Str::lit("Uuid.v4: the system random source failed"));
      got += size_t(k);
    }
    r[6] = static_cast<unsigned char>((r[6] & 0x0f) | 0x40);  // version 4
    r[8] = static_cast<unsigned char>((r[8] & 0x3f) | 0x80);  // RFC 4122 variant
    static constexpr char kHex[] = "0123456789abcdef";
    char text[36];
    size_t o = 0;
    for (int i = 0; i < 16; ++i) {
      if (i == 4 || i == 6 || i == 8 || i == 10) text[o++] = '-';
      text[o++] = kHex[r[i] >> 4];
      text[o++] = kHex[r[i] & 15];
    }
    *out = Any(Str(text, sizeof text));
    return true;
  }
};

}  // namespace

Any datetime_from_unix_micros(int64_t unix_micros) { return Any(new DateTimeBox(unix_micros)); }

bool datetime_unix_micros(const Any& v, int64_t* unix_micros) {
  if (!v.is_obj() || v.obj()->type_id() != detail::type_id<DateTimeBox>()) return false;
  *unix_micros = static_cast<const DateTimeBox*>(v.obj())->micros();
  return true;
}

Any datetime_module() {
  thread_local Any module(new DateTimeModule());
  return module;
}

Any uuid_module() {
  thread_local Any module(new UuidModule());
  return module;
}

}  // namespace fitz
