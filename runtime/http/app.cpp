// The request pipeline without any I/O: route table finalisation (router, middleware chains,
// merged CORS, built-in routes), dispatch (sync fast path or a coroutine when any stage is
// async), runtime errors → 500, and the App / RouteRef builders.
#include <string>

#include "http/internal.h"
#include "http/docs_page.h"

namespace fitz::http {
namespace detail {

AppState::~AppState() {
  for (MetricsShard* s : shards) delete s;
}

// A 500 is a fault of the service: its cause goes to the log at error level (the client gets
// the message too, as before).
Response panic_response(const Panic& p) {
  std::string at = p.pos.file ? std::string(p.pos.file) + ":" + std::to_string(p.pos.line) + ":" + std::to_string(p.pos.col)
                              : std::string();
  log_write(LogLevel::Error, {Any("request failed with a runtime error"_s)},
            {{"error", Any(p.message)}, {"at", Any(Str(at.data(), at.size()))}});
  return Response::error(500, Text(p.message));
}

namespace {

Response not_found() { return Response::json(404, Str::lit("{\"error\":\"not found\"}")); }

bool has_path(const AppState& app, const char* path) {
  for (const auto& r : app.routes)
    if (std::string_view(r.tmpl).substr(0, r.tmpl.find('?')) == path) return true;
  return false;
}

void add_builtin(AppState& app, const char* path, SyncHandler h) {
  if (has_path(app, path)) return;  // a user-defined route with the same path wins
  RouteEntry e;
  e.method = Method::Get;
  e.tmpl = e.path = path;
  e.handler = std::move(h);
  e.builtin = true;
  app.routes.push_back(std::move(e));
}

}  // namespace

bool finalize(AppState& app) {
  if (app.finalized) return app.finalize_error.empty();
  app.finalized = true;
  AppState* a = &app;
  add_builtin(app, "/healthz", [a](Request&) {
    bool ok = true;
    if (a->health_check) ok = a->health_check();
    return ok ? Response::json(200, Str::lit("{\"status\":\"ok\"}"))
              : Response::json(503, Str::lit("{\"status\":\"unhealthy\"}"));
  });
  add_builtin(app, "/readyz", [a](Request&) {
    if (a->draining.load(std::memory_order_relaxed))
      return Response::json(503, Str::lit("{\"status\":\"draining\"}"));
    bool ok = true;
    if (a->ready_check) ok = a->ready_check();
    return ok ? Response::json(200, Str::lit("{\"status\":\"ok\"}"))
              : Response::json(503, Str::lit("{\"status\":\"unhealthy\"}"));
  });
  if (app.cfg.prometheus)
    add_builtin(app, "/metrics", [a](Request&) {
      return Response::text(200, metrics_text(*a), Str::lit("text/plain; version=0.0.4"));
    });
  if (app.cfg.docs && !app.openapi_json.empty()) {
    add_builtin(app, "/openapi.json", [a](Request&) { return Response::json(200, a->openapi_json); });
    add_builtin(app, "/docs", [a](Request&) {
      Str page = a->docs_html.empty() ? Str::from_static(docs_page().data(), docs_page().size()) : a->docs_html;
      return Response::text(200, page, Str::lit("text/html; charset=utf-8"));
    });
  }

  if (!app.cfg.static_dirs.empty()) {
    std::string static_error;
    if (!resolve_static_mounts(app.cfg.static_dirs, std::string_view(app.cfg.project_dir.data(), app.cfg.project_dir.size()),
                               app.statics, static_error)) {
      app.finalize_error = static_error;
      return false;
    }
  }
  std::string err;
  for (size_t i = 0; i < app.routes.size(); ++i) {
    RouteEntry& r = app.routes[i];
    if (!parse_template(r.tmpl, &r.path, &r.param_names, &r.query_names, &err) ||
        !app.router.add(r.method, r.path, uint32_t(i), &err)) {
      app.finalize_error = err;
      return false;
    }
    r.all_befores.clear();
    r.all_afters.clear();
    r.all_arounds.clear();
    if (!r.builtin) {
      for (const auto& m : app.global_befores) r.all_befores.push_back(&m);
      for (const auto& m : app.global_arounds) r.all_arounds.push_back(&m);
      for (const auto& m : app.global_afters) r.all_afters.push_back(&m);
    }
    for (const auto& m : r.befores) r.all_befores.push_back(&m);
    for (const auto& m : r.arounds) r.all_arounds.push_back(&m);
    // Afters run in reverse registration order: route afters first, then the globals.
    std::vector<const Middleware*> afters;
    for (size_t k = r.afters.size(); k-- > 0;) afters.push_back(&r.afters[k]);
    for (size_t k = r.all_afters.size(); k-- > 0;) afters.push_back(r.all_afters[k]);
    r.all_afters = afters;
    r.all_sync = bool(r.handler);
    for (auto* m : r.all_befores) r.all_sync = r.all_sync && bool(m->before);
    for (auto* m : r.all_afters) r.all_sync = r.all_sync && bool(m->after);
    for (auto* m : r.all_arounds) r.all_sync = r.all_sync && bool(m->around);
  }
  // Merge CORS options per path (router node).
  app.node_cors.assign(app.router.node_count(), -1);
  for (size_t i = 0; i < app.routes.size(); ++i) {
    RouteEntry& r = app.routes[i];
    if (!r.cors.has_value()) continue;
    std::vector<Str> params;
    // Find the node by walking the template itself.
    for (uint32_t n = 0; n < app.router.node_count(); ++n)
      for (size_t m = 0; m < kMethodCount; ++m)
        if (app.router.route_at(n, Method(m)) == i) {
          int32_t& id = app.node_cors[n];
          if (id < 0) {
            id = int32_t(app.cors.size());
            app.cors.push_back(r.cors.value());
          } else {
            app.cors[size_t(id)].merge(r.cors.value());
          }
        }
  }
  for (uint32_t n = 0; n < app.router.node_count(); ++n)
    for (size_t m = 0; m < kMethodCount; ++m) {
      uint32_t rid = app.router.route_at(n, Method(m));
      if (rid != Router::kNone) app.routes[rid].cors_id = app.node_cors[n];
    }
  app.body_limit_max = app.cfg.max_body_bytes;
  app.route_body_limits = false;
  for (const RouteEntry& r : app.routes)
    if (r.max_body_bytes > 0) {
      app.route_body_limits = true;
      app.body_limit_max = std::max(app.body_limit_max, r.max_body_bytes);
    }
  return true;
}

namespace {

void apply_cors(AppState& app, int32_t cors_id, Request& req, Response& resp) {
  if (cors_id < 0) return;
  Text origin;
  req.header_text(Text("origin"), &origin);
  cors_apply(app.cors[size_t(cors_id)], origin, resp);
}

Response call_chain_sync(AppState& app, const RouteEntry& r, Request& req, size_t i) {
  if (i < r.all_arounds.size()) {
    Next next(&app, &r, &req, i + 1);
    return r.all_arounds[i]->around(req, next);
  }
  return r.handler(req);
}

Task<Response> call_chain_async(AppState* app, const RouteEntry* r, Request* req, size_t i) {
  if (i < r->all_arounds.size()) {
    Next next(app, r, req, i + 1);
    const Middleware* m = r->all_arounds[i];
    if (m->around_async) co_return co_await m->around_async(*req, next);
    co_return m->around(*req, next);
  }
  if (r->handler_async) co_return co_await r->handler_async(*req);
  co_return r->handler(*req);
}

Response run_sync(AppState& app, const RouteEntry& r, Request& req) {
  Response resp;
  try {
    bool stopped = false;
    for (const Middleware* m : r.all_befores) {
      Nullable<Response> early = m->before(req);
      if (early.has_value()) {
        resp = std::move(early.value());
        stopped = true;
        break;
      }
    }
    if (!stopped) {
      resp = call_chain_sync(app, r, req, 0);
      for (const Middleware* m : r.all_afters) resp = m->after(req, std::move(resp));
    }
  } catch (const Panic& p) {
    resp = panic_response(p);
  } catch (const std::exception& e) {
    resp = Response::error(500, Text(e.what(), __builtin_strlen(e.what())));
  }
  apply_cors(app, r.cors_id, req, resp);
  return resp;
}

Task<Response> run_async(AppState* app, const RouteEntry* r, Request* req) {
  Response resp;
  try {
    bool stopped = false;
    for (const Middleware* m : r->all_befores) {
      Nullable<Response> early;
      if (m->before)
        early = m->before(*req);
      else
        early = co_await m->before_async(*req);
      if (early.has_value()) {
        resp = std::move(early.value());
        stopped = true;
        break;
      }
    }
    if (!stopped) {
      resp = co_await call_chain_async(app, r, req, 0);
      for (const Middleware* m : r->all_afters) {
        if (m->after)
          resp = m->after(*req, std::move(resp));
        else
          resp = co_await m->after_async(*req, std::move(resp));
      }
    }
  } catch (const Panic& p) {
    resp = panic_response(p);
  } catch (const std::exception& e) {
    resp = Response::error(500, Text(e.what(), __builtin_strlen(e.what())));
  }
  apply_cors(*app, r->cors_id, *req, resp);
  co_return resp;
}

}  // namespace

Outcome dispatch(AppState& app, Request& req) {
  Outcome o;
  Router::Match m = app.router.match(req.method, req.raw_path.empty() ? std::string_view("/")
                                                                       : std::string_view(req.raw_path.data, req.raw_path.size),
                                     &req.params);
  if (m.kind == Router::Match::NotFound) {
    if (app.statics.empty() || !serve_static(app.statics, req, o.response)) o.response = not_found();
    return o;
  }
  if (m.kind == Router::Match::MethodNotAllowed) {
    // The template for logs: any route on this path.
    for (size_t k = 0; k < kMethodCount; ++k) {
      uint32_t rid = app.router.route_at(m.node, Method(k));
      if (rid != Router::kNone) {
        req.route = app.routes[rid].path.c_str();
        break;
      }
    }
    int32_t cors_id = app.node_cors[m.node];
    if (req.method == Method::Options && cors_id >= 0) {
      Text origin;
      req.header_text(Text("origin"), &origin);
      o.response = cors_preflight(app.cors[size_t(cors_id)], origin);
      return o;
    }
    o.response = Response::json(405, Str::lit("{\"error\":\"method not allowed\"}"));
    std::string allow = Router::allow_header(m.allow_mask);
    o.response.headers.emplace_back(Str::lit("Allow"), Str(allow.data(), allow.size()));
    apply_cors(app, cors_id, req, o.response);
    return o;
  }
  const RouteEntry& r = app.routes[m.route_id];
  req.route = r.path.c_str();
  req.route_id = int32_t(m.route_id);
  // Logs written by the handler carry the request's ids; an async handler's awaits keep them
  // (task.h), and the loop runs without any once the handler returns or first suspends.
  struct TraceScope {
    explicit TraceScope(const TraceContext& t) { fitz::detail::t_trace = t; }
    ~TraceScope() { fitz::detail::t_trace = TraceContext{}; }
  } trace_scope(req.trace);
  if (r.all_sync) {
    o.response = run_sync(app, r, req);
    return o;
  }
  o.task = run_async(&app, &r, &req);
  if (o.task.done()) {
    o.response = o.task.result();
    o.task = Task<Response>();
  } else {
    o.ready = false;
  }
  return o;
}

bool split_target(Request& req) {
  Text t = req.target;
  if (t.empty() || t.data[0] != '/') return false;
  size_t q = 0;
  while (q < t.size && t.data[q] != '?' && t.data[q] != '#') ++q;
  req.raw_path = Text(t.data, q);
  if (q < t.size && t.data[q] == '?') {
    size_t e = q + 1;
    while (e < t.size && t.data[e] != '#') ++e;
    req.raw_query = Text(t.data + q + 1, e - q - 1);
  } else {
    req.raw_query = Text();
  }
  bool plain = true;
  for (size_t i = 0; i < q; ++i)
    if (t.data[i] == '%') plain = false;
  if (plain) {
    req.path = req.raw_path.str();
    return true;
  }
  Buf b;
  if (!percent_decode(req.raw_path, false, &b)) return false;
  req.path = b.take();
  return true;
}

}  // namespace detail

// ---- Next / RouteRef / App ---------------------------------------------------------------------

Response Next::call() {
  for (size_t i = index_; i < route_->all_arounds.size(); ++i)
    if (!route_->all_arounds[i]->around)
      runtime_error({}, "a sync around middleware cannot call an async middleware; await next instead");
  if (!route_->handler)
    runtime_error({}, "a sync around middleware cannot call an async handler; await next instead");
  return detail::call_chain_sync(*app_, *route_, *req_, index_);
}

Task<Response> Next::await() { return detail::call_chain_async(app_, route_, req_, index_); }

namespace {
detail::Middleware& new_middleware(detail::AppState* app, int32_t id, int kind) {
  if (id < 0) {
    auto& v = kind == 0 ? app->global_befores : kind == 1 ? app->global_afters : app->global_arounds;
    return v.emplace_back();
  }
  auto& r = app->routes[size_t(id)];
  auto& v = kind == 0 ? r.befores : kind == 1 ? r.afters : r.arounds;
  return v.emplace_back();
}
}  // namespace

void RouteRef::add_before(SyncBefore f) { new_middleware(app_, id_, 0).before = std::move(f); }
void RouteRef::add_before_async(AsyncBefore f) { new_middleware(app_, id_, 0).before_async = std::move(f); }
void RouteRef::add_after(SyncAfter f) { new_middleware(app_, id_, 1).after = std::move(f); }
void RouteRef::add_after_async(AsyncAfter f) { new_middleware(app_, id_, 1).after_async = std::move(f); }
void RouteRef::add_around(SyncAround f) { new_middleware(app_, id_, 2).around = std::move(f); }
void RouteRef::add_around_async(AsyncAround f) { new_middleware(app_, id_, 2).around_async = std::move(f); }

RouteRef& RouteRef::cors(CorsOptions c) {
  if (id_ >= 0) app_->routes[size_t(id_)].cors = std::move(c);
  return *this;
}

RouteRef& RouteRef::max_body_bytes(int64_t bytes) {
  if (id_ >= 0 && bytes > 0) app_->routes[size_t(id_)].max_body_bytes = bytes;
  return *this;
}

int64_t detail::body_limit_for(const detail::AppState& app, Method m, std::string_view target) {
  size_t q = 0;
  while (q < target.size() && target[q] != '?' && target[q] != '#') ++q;
  std::string_view path = q ? target.substr(0, q) : std::string_view("/");
  std::vector<Str> params;
  Router::Match found = app.router.match(m, path, &params);
  if (found.kind == Router::Match::Found) {
    int64_t own = app.routes[found.route_id].max_body_bytes;
    if (own > 0) return own;
  }
  return app.cfg.max_body_bytes;
}

RouteRef& RouteRef::name(Str operation_id) {
  if (id_ >= 0) app_->routes[size_t(id_)].operation_id = std::move(operation_id);
  return *this;
}

App::App() : state_(new detail::AppState()) {}
App::App(ServerConfig c) : state_(new detail::AppState()) { state_->cfg = std::move(c); }

ServerConfig& App::config() { return state_->cfg; }

RouteRef App::add_route(Method m, const char* path, SyncHandler s, AsyncHandler a) {
  detail::RouteEntry e;
  e.method = m;
  e.tmpl = path;
  e.handler = std::move(s);
  e.handler_async = std::move(a);
  state_->routes.push_back(std::move(e));
  state_->finalized = false;
  return RouteRef(state_, int32_t(state_->routes.size() - 1));
}

void App::healthz(Fn<bool()> check) { state_->health_check = std::move(check); }
void App::readyz(Fn<bool()> check) { state_->ready_check = std::move(check); }
void App::openapi(Str json, Str docs_html) {
  state_->openapi_json = std::move(json);
  state_->docs_html = std::move(docs_html);
}
bool App::draining() const { return state_->draining.load(); }
void App::add_metrics(Fn<Str()> source) { state_->metric_sources.push_back(std::move(source)); }

void App::on_upgrade(UpgradeFn fn, void* ctx) {
  state_->upgrade_fn = fn;
  state_->upgrade_ctx = ctx;
}

Response App::handle(Request& req) {
  struct ModeGuard {
    PanicMode prev = set_panic_mode(PanicMode::Throw);
    ~ModeGuard() { set_panic_mode(prev); }
  } guard;
  if (!detail::finalize(*state_)) return Response::error(500, Text(state_->finalize_error.data(), state_->finalize_error.size()));
  if (req.raw_path.empty() && !detail::split_target(req)) return Response::error(400, Text("bad request target"));
  detail::begin_request(*state_, req);
  detail::Outcome o = detail::dispatch(*state_, req);
  Response r;
  if (o.ready) {
    r = std::move(o.response);
  } else {
    try {
      r = block_on(o.task);
    } catch (const Panic& p) {
      r = detail::panic_response(p);
    }
  }
  detail::finish(*state_, req, r);
  return r;
}

}  // namespace fitz::http
