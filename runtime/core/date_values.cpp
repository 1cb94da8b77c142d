// The boxes that carry Date, DateTime and Uuid through Any, with every method of the spec,
// and the three module objects (`Date.parse(...)`, `DateTime.now()`, `Uuid.v7()`). Generated
// code calls methods through these (fitz::any_method); the arithmetic is in date.cpp.
#include <sys/random.h>
#include <time.h>

#include <string>

#include "any_internal.h"
#include "fitz/date.h"
#include "fitz/time_zone.h"

namespace fitz {

namespace {

using date::view;
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

[[noreturn]] void out_of_range(SourcePos pos, const char* what) {
  runtime_error(pos, Str::from(std::string(what) + ": the result is outside the years 0001..9999"));
}

using detail::is;

int64_t int_arg(const Any* args, size_t i, SourcePos pos) { return from_any<int64_t>(args[i], pos); }

Str text_of(Date d) {
  Buf b;
  date::write_date(b, d);
  return b.take();
}
Str text_of(DateTime t) {
  Buf b;
  date::write_datetime(b, t);
  return b.take();
}
Str text_of(const Uuid& u) {
  Buf b;
  date::write_uuid(b, u);
  return b.take();
}

int64_t now_micros() {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return int64_t(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

Date checked(Date d, SourcePos pos, const char* what) {
  if (!date::in_range(d)) out_of_range(pos, what);
  return d;
}
DateTime checked(DateTime t, SourcePos pos, const char* what) {
  if (!date::in_range(t)) out_of_range(pos, what);
  return t;
}

// `base + n * unit` without wrapping around.
int64_t plus(int64_t base, int64_t n, int64_t unit, SourcePos pos, const char* what) {
  int64_t step, r;
  if (__builtin_mul_overflow(n, unit, &step) || __builtin_add_overflow(base, step, &r)) out_of_range(pos, what);
  return r;
}

void random_bytes(uint8_t* p, size_t n, SourcePos pos) {
  size_t got = 0;
  while (got < n) {
    ssize_t k = getrandom(p + got, n - got, 0);
    if (k <= 0) runtime_error(pos, Str::lit("the system random source failed"));
    got += size_t(k);
  }
}

// Quotes a rejected input in an Err text, cut short so a huge value does not flood logs.
std::string excerpt(const Str& s) {
  std::string t(s.data(), s.size() < 64 ? s.size() : 64);
  if (s.size() > 64) t += "...";
  return t;
}

class DateBox final : public AnyObj {
 public:
  explicit DateBox(Date v) : v_(v) {}
  Date value() const { return v_; }
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<DateBox>(); }
  void type_name(Buf& b) const override { b.lit("Date"); }
  void show(Buf& b, bool quoted) const override { Show<Date>::write(b, v_, quoted); }
  bool equals(const AnyObj& o) const override {
    return o.type_id() == type_id() && static_cast<const DateBox&>(o).v_.days == v_.days;
  }
  uint64_t hash() const override { return Hash<Date>::hash(v_); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    date::Civil c = date::civil_from_days(v_.days);
    if (n == 0) {
      if (is(name, "year")) return *out = Any(c.year), true;
      if (is(name, "month")) return *out = Any(int64_t(c.month)), true;
      if (is(name, "day")) return *out = Any(int64_t(c.day)), true;
      if (is(name, "weekday")) return *out = Any(int64_t(date::iso_weekday(v_.days))), true;
      if (is(name, "to_str")) return *out = Any(text_of(v_)), true;
      if (is(name, "to_datetime")) return *out = to_any(DateTime{v_.days * date::kMicrosPerDay}), true;
      return false;
    }
    if (n != 1) return false;
    if (is(name, "format")) {
      *out = Any(date::format(DateTime{v_.days * date::kMicrosPerDay}, view(from_any<Str>(args[0], pos))));
      return true;
    }
    if (is(name, "diff_days")) {
      Date o = from_any<Date>(args[0], pos);
      return *out = Any(v_.days - o.days), true;
    }
    int64_t sign = 1;
    std::string_view op(name);
    if (op.substr(0, 9) == "subtract_") {
      sign = -1;
      op.remove_prefix(9);
    } else if (op.substr(0, 4) == "add_") {
      op.remove_prefix(4);
    } else {
      return false;
    }
    int64_t k = int_arg(args, 0, pos);
    if (sign < 0 && k == INT64_MIN) out_of_range(pos, name);
    k *= sign;
    Date r;
    if (op == "days") {
      r = checked(Date{plus(v_.days, k, 1, pos, name)}, pos, name);
    } else if (op == "months" || op == "years") {
      int64_t months = op == "years" ? plus(0, k, 12, pos, name) : k;
      if (!date::add_months(v_, months, &r)) out_of_range(pos, name);
    } else {
      return false;
    }
    *out = to_any(r);
    return true;
  }

 private:
  Date v_;
};

class DateTimeBox final : public AnyObj {
 public:
  explicit DateTimeBox(DateTime v) : v_(v) {}
  DateTime value() const { return v_; }
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<DateTimeBox>(); }
  void type_name(Buf& b) const override { b.lit("DateTime"); }
  void show(Buf& b, bool quoted) const override { Show<DateTime>::write(b, v_, quoted); }
  bool equals(const AnyObj& o) const override {
    return o.type_id() == type_id() && static_cast<const DateTimeBox&>(o).v_.micros == v_.micros;
  }
  uint64_t hash() const override { return Hash<DateTime>::hash(v_); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    int64_t day = date::floor_div(v_.micros, date::kMicrosPerDay);
    int64_t secs = date::floor_div(v_.micros - day * date::kMicrosPerDay, 1000000);
    if (n == 0) {
      date::Civil c = date::civil_from_days(day);
      if (is(name, "year")) return *out = Any(c.year), true;
      if (is(name, "month")) return *out = Any(int64_t(c.month)), true;
      if (is(name, "day")) return *out = Any(int64_t(c.day)), true;
      if (is(name, "hour")) return *out = Any(secs / 3600), true;
      if (is(name, "minute")) return *out = Any(secs / 60 % 60), true;
      if (is(name, "second")) return *out = Any(secs % 60), true;
      if (is(name, "timestamp")) return *out = Any(date::floor_div(v_.micros, 1000000)), true;
      if (is(name, "to_str")) return *out = Any(text_of(v_)), true;
      if (is(name, "date")) return *out = to_any(Date{day}), true;
      if (is(name, "to_local")) {
        // The host's offset at this instant (TZ, else /etc/localtime).
        time_t t = time_t(date::floor_div(v_.micros, 1000000));
        struct tm local;
        localtime_r(&t, &local);
        return *out = Any(date::with_offset(v_, local.tm_gmtoff)), true;
      }
      return false;
    }
    if (n != 1) return false;
    if (is(name, "format")) {
      *out = Any(date::format(v_, view(from_any<Str>(args[0], pos))));
      return true;
    }
    if (is(name, "in_tz")) {
      Str zone_name = from_any<Str>(args[0], pos);
      std::string error;
      auto zone = TimeZone::load(view(zone_name), error);
      if (!zone) {
        *out = to_any(Result<Str, Str>::err(Str::from("DateTime.in_tz: unknown time zone `" + excerpt(zone_name) + "`")));
        return true;
      }
      int32_t offset = zone->offset_at(date::floor_div(v_.micros, 1000000));
      *out = to_any(Result<Str, Str>::ok(date::with_offset(v_, offset)));
      return true;
    }
    std::string_view op(name);
    if (op.substr(0, 5) == "diff_") {
      DateTime o = from_any<DateTime>(args[0], pos);
      int64_t d = v_.micros - o.micros;  // years 1..9999 keep this far from overflow
      op.remove_prefix(5);
      int64_t unit = op == "seconds" ? 1 : op == "minutes" ? 60 : op == "hours" ? 3600 : op == "days" ? 86400 : 0;
      if (unit == 0) return false;
      return *out = Any(d / (unit * 1000000)), true;  // C++ division truncates toward 0
    }
    int64_t sign = 1;
    if (op.substr(0, 9) == "subtract_") {
      sign = -1;
      op.remove_prefix(9);
    } else if (op.substr(0, 4) == "add_") {
      op.remove_prefix(4);
    } else {
      return false;
    }
    int64_t k = int_arg(args, 0, pos);
    if (sign < 0 && k == INT64_MIN) out_of_range(pos, name);
    k *= sign;
    DateTime r;
    int64_t unit = op == "seconds" ? 1 : op == "minutes" ? 60 : op == "hours" ? 3600 : op == "days" ? 86400 : 0;
    if (unit != 0) {
      r = checked(DateTime{plus(v_.micros, k, unit * 1000000, pos, name)}, pos, name);
    } else if (op == "months" || op == "years") {
      int64_t months = op == "years" ? plus(0, k, 12, pos, name) : k;
      if (!date::add_months(v_, months, &r)) out_of_range(pos, name);
    } else {
      return false;
    }
    *out = to_any(r);
    return true;
  }

 private:
  DateTime v_;
};

class UuidBox final : public AnyObj {
 public:
  explicit UuidBox(const Uuid& v) : v_(v) {}
  const Uuid& value() const { return v_; }
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<UuidBox>(); }
  void type_name(Buf& b) const override { b.lit("Uuid"); }
  void show(Buf& b, bool quoted) const override { Show<Uuid>::write(b, v_, quoted); }
  bool equals(const AnyObj& o) const override {
    return o.type_id() == type_id() && Eq<Uuid, Uuid>::eq(static_cast<const UuidBox&>(o).v_, v_);
  }
  uint64_t hash() const override { return Hash<Uuid>::hash(v_); }
  bool call_method(const char* name, const Any*, size_t n, SourcePos, Any* out) override {
    if (n != 0) return false;
    if (is(name, "to_str")) return *out = Any(text_of(v_)), true;
    if (is(name, "is_nil")) return *out = Any(Eq<Uuid, Uuid>::eq(v_, Uuid{})), true;
    return false;
  }

 private:
  Uuid v_;
};

class DateModule final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<DateModule>(); }
  void type_name(Buf& b) const override { b.lit("DateModule"); }
  void show(Buf& b, bool) const override { b.lit("<Date>"); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    using R = Result<Date, Str>;
    // "Today" is the UTC day: a service's answer must not depend on the host's zone.
    int64_t today = date::floor_div(now_micros(), date::kMicrosPerDay);
    if (n == 0 && is(name, "today")) return *out = to_any(Date{today}), true;
    if (n == 0 && is(name, "tomorrow")) return *out = to_any(Date{today + 1}), true;
    if (n == 0 && is(name, "yesterday")) return *out = to_any(Date{today - 1}), true;
    if (n == 1 && is(name, "parse")) {
      Str s = from_any<Str>(args[0], pos);
      Date d;
      if (date::parse_date(view(s), &d)) return *out = to_any(R::ok(d)), true;
      *out = to_any(R::err(Str::from("Date.parse: invalid date `" + excerpt(s) + "` (expected YYYY-MM-DD)")));
      return true;
    }
    if (n == 3 && is(name, "from_ymd")) {
      int64_t y = int_arg(args, 0, pos), m = int_arg(args, 1, pos), d = int_arg(args, 2, pos);
      if (date::valid_ymd(y, m, d)) return *out = to_any(R::ok(Date{date::days_from_civil(y, int(m), int(d))})), true;
      *out = to_any(R::err(Str::from("Date.from_ymd: invalid date " + std::to_string(y) + "-" + std::to_string(m) + "-" +
                                     std::to_string(d))));
      return true;
    }
    no_method(pos, "Date", name);
  }
};

class DateTimeModule final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<DateTimeModule>(); }
  void type_name(Buf& b) const override { b.lit("DateTimeModule"); }
  void show(Buf& b, bool) const override { b.lit("<DateTime>"); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    using R = Result<DateTime, Str>;
    if (n == 0 && is(name, "now")) return *out = to_any(DateTime{now_micros()}), true;
    if (n == 0 && is(name, "epoch")) return *out = to_any(DateTime{0}), true;
    if (n == 1 && is(name, "parse")) {
      Str s = from_any<Str>(args[0], pos);
      DateTime t;
      if (date::parse_datetime(view(s), &t) && date::in_range(t)) return *out = to_any(R::ok(t)), true;
      *out = to_any(R::err(Str::from("DateTime.parse: invalid RFC 3339 timestamp `" + excerpt(s) + "`")));
      return true;
    }
    if (n == 1 && is(name, "from_timestamp")) {
      int64_t secs = int_arg(args, 0, pos);
      int64_t us;
      if (!__builtin_mul_overflow(secs, int64_t(1000000), &us) && date::in_range(DateTime{us}))
        return *out = to_any(R::ok(DateTime{us})), true;
      *out = to_any(R::err(Str::from("DateTime.from_timestamp: out of range: " + std::to_string(secs))));
      return true;
    }
    no_method(pos, "DateTime", name);
  }
};

class UuidModule final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<UuidModule>(); }
  void type_name(Buf& b) const override { b.lit("UuidModule"); }
  void show(Buf& b, bool) const override { b.lit("<Uuid>"); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    if (n == 0 && is(name, "nil")) return *out = to_any(Uuid{}), true;
    if (n == 0 && is(name, "v4")) {
      // The kernel's CSPRNG: ids such as a JWT `jti` must not be guessable.
      Uuid u;
      random_bytes(u.b, 16, pos);
      u.b[6] = uint8_t((u.b[6] & 0x0f) | 0x40);
      u.b[8] = uint8_t((u.b[8] & 0x3f) | 0x80);
      return *out = to_any(u), true;
    }
    if (n == 0 && is(name, "v7")) {
      // 48 bits of Unix milliseconds first, so ids sort by creation time (RFC 9562).
      Uuid u;
      random_bytes(u.b + 6, 10, pos);
      uint64_t ms = uint64_t(now_micros() / 1000);
      for (int i = 0; i < 6; ++i) u.b[i] = uint8_t(ms >> (8 * (5 - i)));
      u.b[6] = uint8_t((u.b[6] & 0x0f) | 0x70);
      u.b[8] = uint8_t((u.b[8] & 0x3f) | 0x80);
      return *out = to_any(u), true;
    }
    if (n == 1 && is(name, "parse")) {
      Str s = from_any<Str>(args[0], pos);
      Uuid u;
      if (date::parse_uuid(view(s), &u)) return *out = to_any(Result<Uuid, Str>::ok(u)), true;
      *out = to_any(Result<Uuid, Str>::err(Str::from("Uuid.parse: invalid UUID `" + excerpt(s) + "`")));
      return true;
    }
    no_method(pos, "Uuid", name);
  }
};

}  // namespace

Any date_any(Date d) { return Any(new DateBox(d)); }
Any datetime_any(DateTime t) { return Any(new DateTimeBox(t)); }
Any uuid_any(const Uuid& u) { return Any(new UuidBox(u)); }

bool any_date(const Any& v, Date* out) {
  if (!v.is_obj() || v.obj()->type_id() != detail::type_id<DateBox>()) return false;
  *out = static_cast<const DateBox*>(v.obj())->value();
  return true;
}
bool any_datetime(const Any& v, DateTime* out) {
  if (!v.is_obj() || v.obj()->type_id() != detail::type_id<DateTimeBox>()) return false;
  *out = static_cast<const DateTimeBox*>(v.obj())->value();
  return true;
}
bool any_uuid(const Any& v, Uuid* out) {
  if (!v.is_obj() || v.obj()->type_id() != detail::type_id<UuidBox>()) return false;
  *out = static_cast<const UuidBox*>(v.obj())->value();
  return true;
}

Any datetime_from_unix_micros(int64_t unix_micros) { return datetime_any(DateTime{unix_micros}); }

bool datetime_unix_micros(const Any& v, int64_t* unix_micros) {
  DateTime t;
  if (!any_datetime(v, &t)) return false;
  *unix_micros = t.micros;
  return true;
}

// Module objects are immutable; one per thread avoids sharing a refcount across threads.
Any date_module() {
  thread_local Any module(new DateModule());
  return module;
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
