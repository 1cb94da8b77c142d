// libFuzzer target for the HTTP request path without sockets: raw bytes go through Beast's
// request parser with the server's limits (as runtime/http/server.cpp configures it), each
// complete request (pipelined ones too) is turned into a fitz::http::Request the way the
// session does and run through App::handle: target splitting, routing, middleware, CORS, the
// Binder (path, query, header, cookie and JSON/form body parameters), the login redirect and
// async handlers. Every
// response must carry a valid status and header fields without CR, LF or NUL.
#include <boost/beast/http.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "fitz/http.h"
#include "fitz/http/cookies.h"

namespace bhttp = boost::beast::http;
using namespace fitz;
using namespace fitz::http;

namespace {

bool to_method(bhttp::verb v, Method* m) {
  switch (v) {
    case bhttp::verb::get: *m = Method::Get; return true;
    case bhttp::verb::head: *m = Method::Head; return true;
    case bhttp::verb::post: *m = Method::Post; return true;
    case bhttp::verb::put: *m = Method::Put; return true;
    case bhttp::verb::patch: *m = Method::Patch; return true;
    case bhttp::verb::delete_: *m = Method::Delete; return true;
    case bhttp::verb::options: *m = Method::Options; return true;
    default: return false;
  }
}

Task<Response> slow_double(Request& r) {
  Binder b(r);
  int64_t n = b.path_int(0, "n");
  if (b.failed()) co_return b.error();
  co_return Response::json_value(200, n * 2);
}

// A service shaped like generated code: every kind of binding, middleware and CORS.
App& service() {
  static App* app = [] {
    auto* a = new App();
    a->config().access_log = false;
    a->use().before([](Request& r) -> Nullable<Response> {
      if (r.path.size() > 7 && std::memcmp(r.path.data(), "/admin/", 7) == 0 &&
          !r.header("authorization").has_value())
        return Response::error(401, Text("missing token"));
      return null;
    });
    a->use().after([](Request& r, Response resp) {
      resp.set_header(Str::lit("X-Route"), Str(r.route));
      return resp;
    });
    a->get("/items/{id}?limit={limit}", [](Request& r) {
      Binder b(r);
      int64_t id = b.path_int(0, "id");
      Nullable<int64_t> limit = b.query_int_opt("limit");
      Nullable<Str> trace = b.header_opt("X-Trace-Id");
      Nullable<Str> theme = b.cookie_opt("theme");
      if (b.failed()) return b.error();
      Map<Str, Any> out;
      out.set(Str::lit("theme"), theme.has_value() ? Any(theme.value()) : Any());
      out.set(Str::lit("id"), Any(id));
      out.set(Str::lit("limit"), limit.has_value() ? Any(limit.value()) : Any());
      out.set(Str::lit("trace"), trace.has_value() ? Any(trace.value()) : Any());
      return Response::json_value(200, out);
    });
    a->post("/items", [](Request& r) {
      Binder b(r);
      auto body = b.body_json<Map<Str, Any>>("NewItem");
      Str who = b.header_str("X-User");
      Str sid = b.cookie_str("sid");
      if (b.failed()) return b.error();
      Response resp = Response::json_value(201, body);
      // A Set-Cookie built from request bytes must still be one valid header field.
      auto cookie = set_cookie_header(Text("sid"), Text(cookie_value_encode(Text(sid))), CookieAttrs());
      if (cookie.is_ok()) resp.add_header(Str::lit("Set-Cookie"), cookie.value());
      return login_redirect(r, who.empty() ? Response::error(401, Text("no user")) : resp, Text("/login"));
    }).cors(CorsOptions{});
    a->put("/users/{name}/tags/{tag}", [](Request& r) {
      Binder b(r);
      Str name = b.path_str(0, "name");
      Str tag = b.path_str(1, "tag");
      bool on = b.query_bool("on");
      double w = b.query_float("weight");
      auto list = b.body_json<List<Nullable<double>>>("Weights");
      if (b.failed()) return b.error();
      return Response::json_value(200, std::tuple<Str, Str, bool, double>{name, tag, on, w + double(list.vec().size())});
    });
    a->post("/form", [](Request& r) {
      Binder b(r);
      Map<Str, Str> form = b.body_form();
      if (b.failed()) return b.error();
      return Response::json_value(200, form);
    });
    a->patch("/admin/flags/{on}", [](Request& r) {
      Binder b(r);
      bool on = b.path_bool(0, "on");
      Nullable<Str> q = b.query_str_opt("note");
      if (b.failed()) return b.error();
      return Response::json_value(200, q.has_value() ? q.value() : Str(on ? "on" : "off"));
    });
    a->get("/echo", [](Request& r) {
      return Response::json_value(200, std::tuple<Map<Str, Str>, Map<Str, Str>, Str>{r.header_map(), r.query_map(),
                                                                                    r.body_str()});
    });
    a->get("/async/{n}", slow_double);
    a->del("/items/{id}", [](Request&) { return Response::empty(204); }).cors(CorsOptions{});
    a->healthz([] { return true; });
    return a;
  }();
  return *app;
}

bool header_safe(const Str& s) {
  for (char c : s)
    if (c == '\r' || c == '\n' || c == '\0') return false;
  return true;
}

void check(const Response& resp) {
  if (resp.status < 100 || resp.status > 599) __builtin_trap();
  if (!header_safe(resp.content_type)) __builtin_trap();
  for (const auto& [name, value] : resp.headers)
    if (name.size() == 0 || !header_safe(name) || !header_safe(value)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  App& app = service();
  const ServerConfig& cfg = app.config();
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  for (int requests = 0; !rest.empty() && requests < 16; ++requests) {
    bhttp::request_parser<bhttp::string_body> parser;
    parser.header_limit(uint32_t(cfg.max_header_bytes));
    parser.body_limit(uint64_t(cfg.max_body_bytes));
    parser.eager(true);
    boost::beast::error_code ec;
    while (!rest.empty() && !parser.is_done()) {
      size_t n = parser.put(boost::asio::buffer(rest.data(), rest.size()), ec);
      rest.remove_prefix(n);
      if (ec || n == 0) break;
    }
    if (!parser.is_done()) return 0;  // malformed (the server answers 400) or incomplete
    auto& msg = parser.get();
    Request r;
    r.target = Text(msg.target().data(), msg.target().size());
    for (const auto& f : msg) {
      auto name = f.name_string();
      auto value = f.value();
      r.headers.push_back(Header{Text(name.data(), name.size()), Text(value.data(), value.size())});
    }
    r.body = Text(msg.body().data(), msg.body().size());
    if (!to_method(msg.method(), &r.method)) continue;  // 501 in the server
    check(app.handle(r));
    if (!msg.keep_alive()) break;
  }
  return 0;
}
