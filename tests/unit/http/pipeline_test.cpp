// The pipeline without sockets (App::handle): routing statuses, middleware order for sync and
// async stages, runtime errors → 500, async handlers on the loop, CORS, built-in routes,
// request ids.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "http/internal.h"

namespace fitz::http {
namespace {

std::string s(const Str& x) { return std::string(x.data(), x.size()); }
std::string hdr(const Response& r, const char* name) {
  auto v = r.header(Text(name, std::strlen(name)));
  return v.has_value() ? s(v.value()) : "<none>";
}

struct Call {
  Request req;
  std::vector<Header> extra;
};

Response call(App& app, Method m, const char* target, std::vector<Header> headers = {}, const char* body = "") {
  Request r;
  r.method = m;
  r.target = Text(target, std::strlen(target));
  r.headers = std::move(headers);
  r.body = Text(body, std::strlen(body));
  return app.handle(r);
}

App& quiet(App& app) {
  app.config().access_log = false;
  return app;
}

TEST(Pipeline, RoutingStatuses) {
  App app;
  quiet(app);
  app.get("/items/{id}", [](Request& r) {
    Binder b(r);
    int64_t id = b.path_int(0, "id");
    if (b.failed()) return b.error();
    return Response::json_value(200, id * 2);
  });
  app.del("/items/{id}", [](Request&) { return Response::empty(204); });
  Response ok = call(app, Method::Get, "/items/21");
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(s(ok.body), "42");
  EXPECT_EQ(call(app, Method::Get, "/items/x").status, 400);
  Response nf = call(app, Method::Get, "/nothing");
  EXPECT_EQ(nf.status, 404);
  EXPECT_EQ(s(nf.body), R"({"error":"not found"})");
  Response na = call(app, Method::Post, "/items/1");
  EXPECT_EQ(na.status, 405);
  EXPECT_EQ(hdr(na, "Allow"), "GET, HEAD, DELETE");
  EXPECT_EQ(call(app, Method::Head, "/items/2").status, 200);
  EXPECT_EQ(call(app, Method::Options, "/items/2").status, 405);
}

TEST(Pipeline, MiddlewareOrderSync) {
  App app;
  quiet(app);
  std::string trace;
  app.use().before([&](Request&) -> Nullable<Response> {
    trace += "G<";
    return null;
  });
  app.use().after([&](Request&, Response r) {
    trace += ">G";
    return r;
  });
  app.get("/m", [&](Request&) {
    trace += "H";
    return Response::json(200, "1"_s);
  })
      .before([&](Request&) -> Nullable<Response> {
        trace += "B1<";
        return null;
      })
      .before([&](Request&) -> Nullable<Response> {
        trace += "B2<";
        return null;
      })
      .around([&](Request&, Next& next) {
        trace += "[";
        Response r = next.call();
        trace += "]";
        r.set_header("X-Around"_s, "yes"_s);
        return r;
      })
      .after([&](Request&, Response r) {
        trace += ">A1";
        return r;
      })
      .after([&](Request&, Response r) {
        trace += ">A2";
        return r;
      });
  Response r = call(app, Method::Get, "/m");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(hdr(r, "x-around"), "yes");
  EXPECT_EQ(trace, "G<B1<B2<[H]>A2>A1>G");
}

TEST(Pipeline, BeforeCanStop) {
  App app;
  quiet(app);
  bool ran = false;
  app.get("/secret", [&](Request&) {
    ran = true;
    return Response::json(200, "1"_s);
  }).before([](Request& r) -> Nullable<Response> {
    if (!r.header("authorization").has_value()) return Response::error(401, Text("no token"));
    return null;
  });
  Response r = call(app, Method::Get, "/secret");
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(s(r.body), R"({"error":"no token"})");
  EXPECT_FALSE(ran);
  EXPECT_EQ(call(app, Method::Get, "/secret", {Header{Text("Authorization"), Text("x")}}).status, 200);
}

TEST(Pipeline, RuntimeErrorIs500) {
  App app;
  quiet(app);
  app.get("/boom", [](Request&) -> Response {
    fitz::List<int64_t> xs{1};
    return Response::json_value(200, xs.at(5));
  });
  app.get("/div", [](Request&) -> Response { return Response::json_value(200, fitz::op::div(int64_t(1), int64_t(0), {})); });
  Response r = call(app, Method::Get, "/boom");
  EXPECT_EQ(r.status, 500);
  EXPECT_NE(s(r.body).find("\"error\":"), std::string::npos);
  EXPECT_NE(s(r.body).find("out of range"), std::string::npos) << s(r.body);
  EXPECT_EQ(call(app, Method::Get, "/div").status, 500);
}

Task<Response> slow_handler(Request& r) {
  co_await fitz::sleep(5);
  co_return Response::json(200, "\"slept\""_s);
}

Task<Response> failing_handler(Request&) {
  co_await fitz::sleep(1);
  fitz::runtime_error({}, "async boom");
  co_return Response();
}

TEST(Pipeline, AsyncHandlersAndMiddleware) {
  App app;
  quiet(app);
  std::string trace;
  app.get("/slow", slow_handler)
      .before([&](Request&) -> Task<Nullable<Response>> {
        co_await fitz::sleep(1);
        trace += "b";
        co_return Nullable<Response>();
      })
      .around([&](Request&, Next& next) -> Task<Response> {
        trace += "[";
        Response r = co_await next.await();
        trace += "]";
        co_return r;
      })
      .after([&](Request&, Response r) -> Task<Response> {
        trace += "a";
        co_return r;
      });
  app.get("/fail", failing_handler);
  Response r = call(app, Method::Get, "/slow");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(s(r.body), "\"slept\"");
  EXPECT_EQ(trace, "b[]a");
  Response f = call(app, Method::Get, "/fail");
  EXPECT_EQ(f.status, 500);
  EXPECT_EQ(s(f.body), R"({"error":"async boom"})");
}

TEST(Pipeline, CorsPreflightAndHeadersOnErrors) {
  App app;
  quiet(app);
  CorsOptions c;
  c.origin = CorsOptions::Origin::Echo;
  app.get("/c", [](Request&) -> Response { fitz::runtime_error({}, "x"); }).cors(c);
  CorsOptions c2;
  c2.methods = {"PATCH"_s};
  c2.max_age = 30;
  app.patch("/c", [](Request&) { return Response::empty(204); }).cors(c2);
  std::vector<Header> h{Header{Text("Origin"), Text("http://o")}};
  Response pre = call(app, Method::Options, "/c", h);
  EXPECT_EQ(pre.status, 204);
  EXPECT_EQ(hdr(pre, "Access-Control-Allow-Origin"), "http://o");
  EXPECT_EQ(hdr(pre, "Access-Control-Allow-Methods"), "GET, POST, PUT, DELETE, OPTIONS, PATCH");
  EXPECT_EQ(hdr(pre, "Access-Control-Max-Age"), "30");
  Response err = call(app, Method::Get, "/c", h);
  EXPECT_EQ(err.status, 500);
  EXPECT_EQ(hdr(err, "Access-Control-Allow-Origin"), "http://o");
  Response na = call(app, Method::Put, "/c", h);
  EXPECT_EQ(na.status, 405);
  EXPECT_EQ(hdr(na, "Access-Control-Allow-Origin"), "http://o");
}

TEST(Pipeline, BuiltinsAndOverrides) {
  App app;
  quiet(app);
  app.config().prometheus = true;
  bool healthy = true;
  app.healthz([&] { return healthy; });
  app.openapi("{\"openapi\":\"3.1.0\"}"_s);
  app.get("/readyz", [](Request&) { return Response::json(200, "\"mine\""_s); });
  EXPECT_EQ(s(call(app, Method::Get, "/healthz").body), R"({"status":"ok"})");
  healthy = false;
  Response h = call(app, Method::Get, "/healthz");
  EXPECT_EQ(h.status, 503);
  EXPECT_EQ(s(h.body), R"({"status":"unhealthy"})");
  EXPECT_EQ(s(call(app, Method::Get, "/readyz").body), "\"mine\"");
  EXPECT_EQ(s(call(app, Method::Get, "/openapi.json").body), "{\"openapi\":\"3.1.0\"}");
  EXPECT_EQ(hdr(call(app, Method::Get, "/docs"), "content-type"), "<none>");  // in content_type field
  Response docs = call(app, Method::Get, "/docs");
  EXPECT_EQ(s(docs.content_type), "text/html; charset=utf-8");
  EXPECT_EQ(s(docs.body).find("http"), std::string::npos);  // no CDN
  Response m = call(app, Method::Get, "/metrics");
  EXPECT_NE(s(m.body).find("http_requests_total{method=\"GET\",path=\"/healthz\",status=\"503\"} 1"), std::string::npos)
      << s(m.body);
  EXPECT_NE(s(m.body).find("http_request_duration_seconds_count{method=\"GET\",path=\"/healthz\"} 2"), std::string::npos);
}

TEST(Pipeline, RequestIds) {
  App app;
  quiet(app);
  app.get("/id", [](Request& r) { return Response::json_value(200, r.request_id.str()); });
  Response gen = call(app, Method::Get, "/id");
  std::string id = hdr(gen, "X-Request-Id");
  EXPECT_EQ(id.size(), 16u);
  EXPECT_EQ(s(gen.body), "\"" + id + "\"");
  Response echo = call(app, Method::Get, "/id", {Header{Text("x-request-id"), Text("abc-123")}});
  EXPECT_EQ(hdr(echo, "X-Request-Id"), "abc-123");
  Response bad = call(app, Method::Get, "/id", {Header{Text("x-request-id"), Text("has space")}});
  EXPECT_EQ(hdr(bad, "X-Request-Id").size(), 16u);
  App off;
  off.config().observability = false;
  off.get("/id", [](Request&) { return Response::empty(204); });
  EXPECT_EQ(hdr(call(off, Method::Get, "/id"), "X-Request-Id"), "<none>");
}

TEST(Pipeline, BadRouteTableIsReported) {
  App app;
  quiet(app);
  app.get("/a/{x}", [](Request&) { return Response::empty(204); });
  app.get("/a/{y}", [](Request&) { return Response::empty(204); });
  Str err;
  EXPECT_FALSE(app.start(&err));
  EXPECT_NE(s(err).find("repeated route GET /a/{y}"), std::string::npos) << s(err);
}

}  // namespace
}  // namespace fitz::http
