// The `smtp` module as Fitz programs see it: the two call forms, SMTP_* configuration (read at
// the first send of the thread; a configuration error then sticks), the message and the
// `SmtpResult` record.
#include <openssl/rand.h>
#include <unistd.h>

#include <chrono>
#include <coroutine>
#include <ctime>
#include <cstdlib>
#include <optional>

#include "fitz/smtp.h"
#include "net/loop.h"
#include "net/smtp_client.h"

namespace fitz::net {

using fitz::detail::AnyObj;
using fitz::detail::ObjKind;

namespace {

std::string smtp_str(const Str& s) { return std::string(s.data(), s.size()); }

class SmtpResultBox final : public AnyObj {
 public:
  SmtpResultBox(std::string id, int64_t ms) : id_(Str::from(id)), ms_(ms) {}
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return fitz::detail::type_id<SmtpResultBox>(); }
  void type_name(Buf& b) const override { b.lit("SmtpResult"); }
  void show(Buf& b, bool) const override {
    b.lit("SmtpResult { delivered: true, message_id: ");
    b.append_cstr(smtp_str(id_).c_str());
    b.lit(" }");
  }
  bool get_field(const char* name, Any* out) const override {
    std::string_view n(name);
    if (n == "delivered") *out = Any(true);
    else if (n == "message_id") *out = Any(id_);
    else if (n == "duration_ms") *out = Any(ms_);
    else return false;
    return true;
  }
  bool visit_fields(fitz::detail::FieldVisitor& v) const override {
    v.field("delivered", Any(true));
    v.field("message_id", Any(id_));
    v.field("duration_ms", Any(ms_));
    return true;
  }

 private:
  Str id_;
  int64_t ms_;
};

struct SmtpAwait {
  boost::asio::io_context* ioc;
  SmtpSend job;
  std::optional<std::string> error;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) {
    smtp_send(*ioc, std::move(job), [this, h](std::string e) {
      error.emplace(std::move(e));
      scheduler().post(h);
    });
  }
  std::string await_resume() { return std::move(*error); }
};

std::string random_hex(size_t bytes) {
  unsigned char b[32] = {};
  if (RAND_bytes(b, int(bytes)) != 1)
    for (size_t i = 0; i < bytes; ++i) b[i] = static_cast<unsigned char>(std::rand());
  static const char* hex = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < bytes; ++i) s += hex[b[i] >> 4], s += hex[b[i] & 15];
  return s;
}

std::string uuid_v4() {
  std::string h = random_hex(16);
  h[12] = '4';
  h[16] = "89ab"[std::strtol(std::string(1, h[16]).c_str(), nullptr, 16) & 3];
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
}

std::string rfc5322_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S +0000", &tm);
  return buf;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || !name[0]) return "localhost";
  return name;
}

}  // namespace

// Configuration is per module value, one per thread, like the HTTP clients: nothing global.
class SmtpModuleBox final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return fitz::detail::type_id<SmtpModuleBox>(); }
  void type_name(Buf& b) const override { b.lit("SmtpModule"); }
  void show(Buf& b, bool) const override { b.lit("<smtp>"); }

  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    if (std::string_view(name) != "send" || n < 1 || n > 6) return false;
    Fields f;
    if (n == 1 && args[0].is_kind(ObjKind::Map)) {
      const AnyObj* o = args[0].obj();
      for (int64_t i = 0, len = o->len(); i < len; ++i) {
        Any k = o->key_at(i), v = o->value_at(i);
        std::string key = k.is_str() ? smtp_str(k.str_value()) : "";
        if (key == "attachments") runtime_error(pos, "smtp.send: `attachments` is not supported in MVP");
        Str* slot = key == "to" ? &f.to : key == "subject" ? &f.subject : key == "body" ? &f.body
                  : key == "body_text" ? &f.body_text : key == "body_html" ? &f.body_html : key == "from" ? &f.from : nullptr;
        if (!slot)
          runtime_error(pos, Str::from("smtp.send: unrecognised key `" + key +
                                       "` — expected: to, subject, body, body_text, body_html, from"));
        if (!v.is_str()) runtime_error(pos, Str::from("smtp.send: `" + key + "` must be a Str"));
        *slot = v.str_value();
        (key == "to" ? f.has_to : key == "subject" ? f.has_subject : key == "body" ? f.has_body
         : key == "body_text" ? f.has_text : key == "body_html" ? f.has_html : f.has_from) = true;
      }
    } else {
      const char* names[] = {"to", "subject", "body", "body_text", "body_html", "from"};
      Str* slots[] = {&f.to, &f.subject, &f.body, &f.body_text, &f.body_html, &f.from};
      bool* has[] = {&f.has_to, &f.has_subject, &f.has_body, &f.has_text, &f.has_html, &f.has_from};
      for (size_t i = 0; i < n; ++i) {
        if (args[i].is_null()) continue;
        if (!args[i].is_str()) runtime_error(pos, Str::from(std::string("smtp.send: `") + names[i] + "` must be a Str"));
        *slots[i] = args[i].str_value();
        *has[i] = true;
      }
    }
    if (!f.has_to) runtime_error(pos, "smtp.send: `to` is required");
    if (!f.has_subject) runtime_error(pos, "smtp.send: `subject` is required");
    if (f.has_body && f.has_text) runtime_error(pos, "smtp.send: `body` and `body_text` are the same; give one");
    if (!f.has_body && !f.has_text && !f.has_html)
      runtime_error(pos, "smtp.send: one of `body`, `body_text`, `body_html` is required");
    *out = to_any(send(this, std::move(f)));
    return true;
  }

 private:
  struct Fields {
    Str to, subject, body, body_text, body_html, from;
    bool has_to = false, has_subject = false, has_body = false, has_text = false, has_html = false, has_from = false;
  };

  const SmtpConfigResult& config() {
    if (!config_) config_ = smtp_config([](const char* k) { return static_cast<const char*>(std::getenv(k)); });
    return *config_;
  }

  static Task<Result<Any, Str>> send(SmtpModuleBox* self, Fields f) {
    using R = Result<Any, Str>;
    auto start = std::chrono::steady_clock::now();
    const SmtpConfigResult& cfg = self->config();
    if (!cfg.config) co_return R::err(Str::from(cfg.error));
    std::string from_text = f.has_from ? smtp_str(f.from) : cfg.config->from;
    if (from_text.empty()) co_return R::err(Str::lit("smtp: no `from` provided and SMTP_FROM env var is not set"));
    std::string why;
    std::optional<Mailbox> to = parse_mailbox(smtp_str(f.to), &why);
    if (!to) co_return R::err(Str::from("smtp: invalid `to` address `" + smtp_str(f.to) + "`: " + why));
    std::optional<Mailbox> from = parse_mailbox(from_text, &why);
    if (!from) co_return R::err(Str::from("smtp: invalid `from` address `" + from_text + "`: " + why));
    std::string subject = smtp_str(f.subject);
    if (subject.find_first_of("\r\n") != std::string::npos)
      co_return R::err(Str::lit("smtp: could not build message: the subject contains a line break"));
    MailParts parts;
    parts.from = *from;
    parts.to = *to;
    parts.subject = subject;
    parts.text = smtp_str(f.has_body ? f.body : f.body_text);
    parts.html = smtp_str(f.body_html);
    if (parts.text.empty() && parts.html.empty())
      co_return R::err(Str::lit("smtp: could not build message: the body is empty"));
    parts.message_id = uuid_v4() + "@" + host_name();
    parts.date = rfc5322_now();
    parts.boundary = "fitz-" + random_hex(12);
    SmtpAwait call{&loop_context(), SmtpSend{*cfg.config, from->address, to->address, build_message(parts)}, std::nullopt};
    std::string error = co_await call;
    if (!error.empty()) co_return R::err(Str::from(error));
    int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    co_return R::ok(Any(new SmtpResultBox(parts.message_id, ms)));
  }

  std::optional<SmtpConfigResult> config_;
};

}  // namespace fitz::net

namespace fitz {

Any smtp_module() {
  thread_local Any module(new net::SmtpModuleBox());
  return module;
}

}  // namespace fitz
