// The `http` module and `HttpClientResponse` as Fitz programs see them: argument checks (a
// wrong shape is a runtime error, a body that cannot be sent is an Err), body marshalling, the
// future that awaits the client, and the response's fields and methods.
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <coroutine>
#include <optional>
#include <unordered_map>

#include "fitz/http_client.h"
#include "net/client.h"
#include "net/loop.h"
#include "net/url.h"

namespace fitz::net {

namespace asio = boost::asio;
using fitz::detail::AnyObj;
using fitz::detail::ObjKind;

namespace {

std::string std_str(const Str& s) { return std::string(s.data(), s.size()); }

// ---- the response -----------------------------------------------------------------------------

class ResponseBox final : public AnyObj {
 public:
  explicit ResponseBox(ClientResponse r) : r_(std::move(r)), text_(Str::from(body_text(r_.body, r_.content_type))) {
    for (const auto& [name, value] : r_.headers) headers_.set(Str::from(name), Str::from(value));
  }
  const ClientResponse& response() const { return r_; }

  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return fitz::detail::type_id<ResponseBox>(); }
  void type_name(Buf& b) const override { b.lit("HttpClientResponse"); }
  void show(Buf& b, bool) const override {
    b.lit("HttpClientResponse { status: ");
    b.append_cstr(std::to_string(r_.status).c_str());
    b.lit(", duration_ms: ");
    b.append_cstr(std::to_string(r_.duration_ms).c_str());
    b.lit(" }");
  }
  bool get_field(const char* name, Any* out) const override {
    std::string_view n(name);
    if (n == "status") *out = Any(int64_t(r_.status));
    else if (n == "body") *out = Any(text_);
    else if (n == "headers") *out = to_any(headers_);
    else if (n == "duration_ms") *out = Any(int64_t(r_.duration_ms));
    else return false;
    return true;
  }
  bool visit_fields(fitz::detail::FieldVisitor& v) const override {
    v.field("status", Any(int64_t(r_.status)));
    v.field("body", Any(text_));
    v.field("headers", to_any(headers_));
    v.field("duration_ms", Any(int64_t(r_.duration_ms)));
    return true;
  }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    std::string_view m(name);
    if (m == "ok" && n == 0) {
      *out = Any(r_.status >= 200 && r_.status <= 299);
      return true;
    }
    if (m == "header" && n == 1) {
      if (!args[0].is_str()) runtime_error(pos, "HttpClientResponse.header: the name must be a Str");
      std::string want = lower_ascii(std_str(args[0].str_value()));
      *out = Any();
      for (const auto& [k, v] : r_.headers)
        if (k == want) *out = Any(Str::from(v));
      return true;
    }
    if (m == "body_bytes" && n == 0) {
      *out = to_any(Bytes(r_.body.data(), r_.body.size()));
      return true;
    }
    if (m == "json" && n == 0) {  // reached only through Any: decoded without a target type
      http::JsonReader reader(r_.body.data(), r_.body.size());
      Any v;
      if (reader.read_any(&v) && reader.finish())
        *out = to_any(Result<Any, Str>::ok(std::move(v)));
      else
        *out = to_any(Result<Any, Str>::err(Str::from("http: json: " + std_str(reader.error()))));
      return true;
    }
    return false;
  }

 private:
  ClientResponse r_;
  Str text_;
  Map<Str, Str> headers_;
};

// ---- requests ---------------------------------------------------------------------------------

bool valid_token(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

bool valid_header_value(std::string_view s) {
  for (unsigned char c : s)
    if (c == '\r' || c == '\n' || c == 0) return false;
  return true;
}

struct Pending {
  ClientRequest request;
  Any body;  // marshalled inside the future: a body that cannot be sent is an Err
};

// `body` as bytes on the wire, and whether it adds `Content-Type: application/json`.
std::optional<std::string> marshal_body(const Any& body, bool* json, std::string* error) {
  *json = false;
  if (body.is_str()) return std_str(body.str_value());
  if (body.is_kind(ObjKind::Bytes)) {
    Bytes b = body.as_bytes().value();
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  }
  Str type = body.type_name();
  if (std::string_view(type.data(), type.size()).starts_with("Secret") ||
      body.is_kind(ObjKind::Fn) || body.is_kind(ObjKind::Task)) {
    *error = "http: body must be Str, Map<Str, Any> or Bytes — received `" + std_str(type) + "`";
    return std::nullopt;
  }
  *json = true;
  Str text = http::to_json(body);
  return std_str(text);
}


struct PerformAwait {
  fitz::net::Client* client;
  ClientRequest request;
  std::optional<ClientOutcome> outcome;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) {
    client->perform(std::move(request), [this, h](ClientOutcome o) {
      outcome.emplace(std::move(o));
      scheduler().post(h);
    });
  }
  ClientOutcome await_resume() { return std::move(*outcome); }
};

}  // namespace

// The module holds no state: the client and its pool belong to the event loop (client_for).
class HttpModuleBox final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return fitz::detail::type_id<HttpModuleBox>(); }
  void type_name(Buf& b) const override { b.lit("HttpModule"); }
  void show(Buf& b, bool) const override { b.lit("<http>"); }

  static fitz::net::Client& client() { return client_for(loop_context()); }

  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    std::string_view m(name);
    Pending p;
    if (m == "get" || m == "head" || m == "delete") {
      if (n < 1 || n > 3) return false;
      p.request.method = m == "get" ? "GET" : m == "head" ? "HEAD" : "DELETE";
      url_arg(p, args[0], m, pos);
      if (n > 1) headers_arg(p, args[1], m, pos);
      if (n > 2) timeout_arg(p, args[2], m, pos);
    } else if (m == "post" || m == "put") {
      if (n < 2 || n > 4) return false;
      p.request.method = m == "post" ? "POST" : "PUT";
      url_arg(p, args[0], m, pos);
      p.body = args[1];
      if (n > 2) headers_arg(p, args[2], m, pos);
      if (n > 3) timeout_arg(p, args[3], m, pos);
    } else if (m == "request") {
      if (n == 1 && args[0].is_kind(ObjKind::Map)) {
        request_map(p, args[0], pos);
      } else if (n >= 2 && n <= 6) {
        method_arg(p, args[0], pos);
        url_arg(p, args[1], m, pos);
        if (n > 2) headers_arg(p, args[2], m, pos);
        if (n > 3) p.body = args[3];
        if (n > 4) timeout_arg(p, args[4], m, pos);
        if (n > 5 && !args[5].is_null()) {
          if (!args[5].is_bool()) runtime_error(pos, "http.request: `follow_redirects` must be a Bool");
          p.request.follow_redirects = args[5].bool_value();
        }
      } else {
        return false;
      }
    } else {
      return false;
    }
    *out = to_any(perform(&client(), std::move(p)));
    return true;
  }

 private:
  static Task<Result<Any, Str>> perform(fitz::net::Client* client, Pending p) {
    using R = Result<Any, Str>;
    if (!p.body.is_null()) {
      bool json = false;
      std::string error;
      auto bytes = marshal_body(p.body, &json, &error);
      if (!bytes) co_return R::err(Str::from(error));
      p.request.body = std::move(*bytes);
      p.request.has_body = true;
      bool typed = false;
      for (const auto& h : p.request.headers) typed |= lower_ascii(h.first) == "content-type";
      if (json && !typed) p.request.headers.emplace_back("Content-Type", "application/json");
    }
    PerformAwait call{client, std::move(p.request), std::nullopt};
    ClientOutcome o = co_await call;
    if (!o.ok) co_return R::err(Str::from(o.error));
    co_return R::ok(Any(new ResponseBox(std::move(o.response))));
  }

  static void url_arg(Pending& p, const Any& v, std::string_view fn, SourcePos pos) {
    if (!v.is_str()) runtime_error(pos, Str::from("http." + std::string(fn) + ": the URL must be a Str"));
    p.request.url = std_str(v.str_value());
  }
  static void method_arg(Pending& p, const Any& v, SourcePos pos) {
    std::string m = v.is_str() ? std_str(v.str_value()) : "";
    for (char& c : m)
      if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    if (!valid_token(m)) runtime_error(pos, "http.request: `method` must be a valid HTTP method");
    p.request.method = m;
  }
  static void headers_arg(Pending& p, const Any& v, std::string_view fn, SourcePos pos) {
    if (v.is_null()) return;
    if (!v.is_kind(ObjKind::Map)) runtime_error(pos, Str::from("http." + std::string(fn) + ": `headers` must be a Map<Str, Str>"));
    const AnyObj* o = v.obj();
    for (int64_t i = 0, n = o->len(); i < n; ++i) {
      Any k = o->key_at(i), val = o->value_at(i);
      if (!k.is_str() || !val.is_str())
        runtime_error(pos, Str::from("http." + std::string(fn) + ": `headers` must be a Map<Str, Str>"));
      std::string name = std_str(k.str_value()), value = std_str(val.str_value());
      if (!valid_token(name) || !valid_header_value(value))
        runtime_error(pos, Str::from("http." + std::string(fn) + ": invalid header `" + name + "`"));
      p.request.headers.emplace_back(std::move(name), std::move(value));
    }
  }
  static void timeout_arg(Pending& p, const Any& v, std::string_view fn, SourcePos pos) {
    if (v.is_null()) return;
    if (!v.is_int() || v.int_value() <= 0)
      runtime_error(pos, Str::from("http." + std::string(fn) + ": `timeout_ms` must be an Int > 0"));
    p.request.timeout_ms = v.int_value();
  }
  static void request_map(Pending& p, const Any& opts, SourcePos pos) {
    const AnyObj* o = opts.obj();
    bool has_method = false, has_url = false;
    for (int64_t i = 0, n = o->len(); i < n; ++i) {
      Any k = o->key_at(i), v = o->value_at(i);
      std::string key = k.is_str() ? std_str(k.str_value()) : "";
      if (key == "method") method_arg(p, v, pos), has_method = true;
      else if (key == "url") url_arg(p, v, "request", pos), has_url = true;
      else if (key == "headers") headers_arg(p, v, "request", pos);
      else if (key == "body") p.body = v;
      else if (key == "timeout_ms") timeout_arg(p, v, "request", pos);
      else if (key == "follow_redirects") {
        if (!v.is_bool()) runtime_error(pos, "http.request: `follow_redirects` must be a Bool");
        p.request.follow_redirects = v.bool_value();
      } else {
        runtime_error(pos, Str::from("`http.request(opts)` unrecognised key `" + key +
                                     "` — expected: method, url, timeout_ms, headers, body, follow_redirects"));
      }
    }
    if (!has_method) runtime_error(pos, "`http.request(opts)` needs `method`");
    if (!has_url) runtime_error(pos, "`http.request(opts)` needs `url`");
  }
};

Str response_body(const Any& response, SourcePos pos) {
  auto* box = response.is_kind(ObjKind::Struct) ? dynamic_cast<ResponseBox*>(response.obj()) : nullptr;
  if (!box) runtime_error(pos, Str::from("json(): expected an HttpClientResponse, found " + std_str(response.type_name())));
  return Str::from(box->response().body);
}

}  // namespace fitz::net

namespace fitz {

Any http_module() {
  thread_local Any module(new net::HttpModuleBox());
  return module;
}

}  // namespace fitz
