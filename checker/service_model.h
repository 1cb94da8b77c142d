// The service model: what the checker decided about a program's services — routes and how each
// handler parameter binds, guards, middleware, CORS, the server's settings, health checks,
// WebSocket endpoints, jobs and commands. The checker builds it once per program (after every
// module is checked); codegen, `fitz openapi`, the language server and the docs tools read it
// and never read decorators or route templates from the AST again, so what the editor accepted
// is exactly what the build compiles.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/types.h"
#include "frontend/ast.h"
#include "frontend/modules.h"

namespace fitz::checker {

using frontend::ExprId;
using frontend::FnId;
using frontend::ModuleId;
using frontend::Span;

// A top-level function of some module.
struct FnRef {
  ModuleId module;
  FnId fn;
  bool operator==(const FnRef&) const = default;
};

enum class HttpMethod : uint8_t { Get, Post, Put, Patch, Delete };

// A route template parsed once: `/users/{id}/posts?page={page}&q={q}`.
struct RouteTemplate {
  std::string text;                      // as written, holes as `{name}`
  std::string path;                      // the part before `?`, what the router matches
  std::vector<std::string> path_params;  // placeholder names in path order
  struct Query {
    std::string key;    // `page` in `?page={page}`
    std::string param;  // the handler parameter it binds (equal to key today)
  };
  std::vector<Query> query;
};

// How one handler parameter receives its value.
enum class BindingKind : uint8_t {
  Path,     // `{name}` in the path: path_index
  Query,    // `?key={name}`: key; optional (T?) or has_default, else required
  Header,   // `@header(name=...)`: key is the header name; optional when T?
  Cookie,   // `@cookie("name")`: key is the cookie name; optional when T?; signed: verified or null
  Request,  // the built-in `Request`
  User,     // the guard's authenticated user
  Form,     // a `Map<Str, Str>` body: a form or a JSON object of strings
  Body,     // the JSON (or multipart) body of type `type`
};

struct ParamBinding {
  BindingKind kind = BindingKind::Body;
  uint32_t param = 0;       // index into the handler's FnInfo::params
  TypeId type;              // the parameter's type
  uint32_t path_index = 0;  // Path
  std::string key;          // Query key, Header name, Cookie name
  bool optional = false;    // Query/Header/Cookie typed `T?` (or Any): absent is null
  bool signed_cookie = false;  // Cookie: only a value whose signature verifies binds (else null)
  bool has_default = false; // Query: absent takes the declaration's default
  ExprId default_value;     // Query with has_default: the declaration's default
};

// `@authenticated`, `@admin`, `@requires("a", "b")` on a route or WebSocket endpoint.
struct Guard {
  bool guarded = false;
  bool admin = false;
  std::vector<std::string> roles;  // any of them (`@requires`)
  int user_param = -1;             // the parameter that receives the user, or -1
  Span at;                         // the guard decorator
};

// The program's `@auth_provider` (at most one; the checker reports a second).
struct AuthProvider {
  FnRef fn;
  TypeId user;       // the Ok type of its `Result<User>`
  bool async = false;
  bool headers_any = false;  // its parameter is untyped (Any) rather than `Map<Str, Str>`
  enum class RoleSource : uint8_t { None, UserField, Claims } roles = RoleSource::None;
};

// One `@middleware(...)` of a route or endpoint, in the order they run.
struct MiddlewareUse {
  enum class Kind : uint8_t { Before, After, Around, AroundAsync, Cors } kind = Kind::Before;
  FnRef fn;           // Before/After/Around*: the middleware function
  ExprId cors_options;// Cors: the options map literal, invalid for `cors()` (every default)
  Span at;
};

// A `return STATUS body` (or `Err(X { status: N })`) a handler or its middleware can produce,
// with a constant status, for OpenAPI.
struct StatusReturn {
  int64_t status = 200;
  TypeId body;
  ModuleId module;  // where `body_expr` is (the handler's module, or its middleware's)
  ExprId body_expr; // the body as written: a map literal's keys describe the response
};

struct Route {
  FnRef handler;
  HttpMethod method = HttpMethod::Get;
  RouteTemplate tmpl;
  std::vector<ParamBinding> params;  // one per handler parameter, in parameter order
  std::vector<MiddlewareUse> middleware;
  Guard guard;
  std::string feature_flag;          // `@flag("name")` on the handler: 404 while it is off
  std::optional<int64_t> max_body_bytes;  // `@body_limit(N)`: its request bodies' limit in bytes
  std::vector<StatusReturn> statuses;
  bool plain_return = false;         // some path sends a plain value (`return v`, or the body's end)
  // The handler returns `Html` (`Html?`, `Result<Html, E>`): its values answer `text/html`,
  // not JSON strings.
  bool returns_html = false;
  // The handler returns `Html` or `Response` (or a `Result` of one), so it may answer HTML: with
  // `@server(login_path=)` an unauthenticated request preferring HTML is redirected there.
  // Any other handler answers JSON and keeps the 401.
  bool may_answer_html = false;
  std::vector<ExprId> return_values; // the handler's `return v` values (and an arrow body)
  std::string doc;                   // the doc comment above the handler (summary, description)
  // The handler, its middleware or its guard's provider can use the database (directly or through
  // functions they name): a "database unavailable" error then answers 503.
  bool uses_database = false;
  bool async = false;                // the wrapper suspends (async handler or async provider)
  bool python = false;               // a sync handler working on Python values: it runs, as a
                                     // whole, on the Python worker pool (the wrapper awaits it)
  Span at;                           // the route decorator
};

// What one module's check decided about one of its route handlers: the parts of a Route that
// need no other module (build_service_model adds the guard's user, statuses, docs, ...). Kept
// in the module's TIR so an incremental check reuses it with the module.
struct HandlerDecl {
  FnId fn;
  HttpMethod method = HttpMethod::Get;
  RouteTemplate tmpl;
  std::vector<ParamBinding> params;  // one per handler parameter
  Span at;                           // the route decorator
};

std::string_view http_method_name(HttpMethod m);  // "get", "post", ...
std::string_view binding_kind_name(BindingKind k);
std::string_view middleware_kind_name(MiddlewareUse::Kind k);

// `@server(port=..., host=..., ...)`: each setting's expression (invalid: not given).
struct ServerSettings {
  // Where the server listens when `@server` does not say (the runtime's ServerConfig defaults;
  // the HOST and PORT environment variables override them at start-up).
  static constexpr int64_t kDefaultPort = 3000;
  static constexpr std::string_view kDefaultHost = "127.0.0.1";

  FnRef fn;
  struct Setting {
    std::string key;  // port, host, shutdown_timeout_secs, api_version, docs, observability, prometheus
    ExprId value;
    // A string literal (decorator strings are not checked as interpolations): its text, which
    // codegen writes as is rather than emitting `value`.
    std::optional<std::string> literal;
    // An integer literal (`@server(8080)`): its value, for tools that read settings without
    // running the program (`fitz deploy` takes the port and the shutdown timeout from it).
    // For `max_body_bytes` the size in bytes, also when written as a string ("20MB").
    std::optional<int64_t> int_literal;
  };
  std::vector<Setting> settings;
  // `static={"/assets": "public"}`: URL prefix and folder, as written (checked by the checker).
  std::vector<std::pair<std::string, std::string>> static_dirs;
  // `login_path="/login"`: where unauthenticated browsers go (checked: a path; "" when not set).
  std::string login_path;
  const Setting* find(std::string_view key) const {
    for (const Setting& s : settings)
      if (s.key == key) return &s;
    return nullptr;
  }
};

struct HealthCheck {
  FnRef fn;
  bool ready = false;  // @readyz, else @healthz
  Span at;             // the decorator
};

// `@ws("/path")`: the handler takes its `WsConn<In, Out>` (or `WsConn<Bytes>`) first and, when
// guarded, the authenticated user second.
struct WsEndpoint {
  FnRef handler;
  std::string name;  // the handler's name
  std::string path;  // literal: endpoints take no path parameters
  TypeId in;         // WsConn<In, Out>: what `recv` decodes (Any for a bare WsConn)
  TypeId out;        // what `send`/`broadcast` encode (In when not given)
  bool bytes = false;  // WsConn<Bytes>: binary frames, no JSON
  bool async = false;  // the handler is an `async fn`
  Guard guard;
  std::vector<MiddlewareUse> middleware;  // Before only
  Span at;
};

// A `retry=` policy written as a map literal, decided at compile time. Absent keys take the
// runtime's defaults (runtime/include/fitz/jobs.h).
struct RetryPolicy {
  int64_t max = 0;  // retries after the first attempt; 0: no retry
  enum class Backoff : uint8_t { Exponential, Linear, Constant } backoff = Backoff::Exponential;
  int64_t initial_secs = 1;
  int64_t max_secs = 60;
};

// `retry=` of a job: a literal map becomes `policy`; any other expression (a Map held in a
// global) is evaluated when the job starts and checked for its keys then.
struct JobRetry {
  std::optional<RetryPolicy> policy;  // nullopt: no `retry=`, or not a literal
  ExprId value;                       // a non-literal `retry=`; invalid otherwise
};

struct CronJob {
  FnRef fn;
  std::string name;  // the function's name: the job's name in logs and the store
  std::string expr;  // validated by the checker (fitz/cron_expr.h); empty for `@every`
  int64_t every_ms = 0;  // `@every(N)`: the interval; 0 for a cron schedule
  ExprId tz;         // `tz=` (a Str), invalid: UTC
  JobRetry retry;
  ExprId catch_up;   // `catch_up=` (a Bool), invalid: false
  ExprId store;      // `store=` (a database URL), invalid: none
  bool async = false;
  Span at;
};

struct BackgroundJob {
  FnRef fn;
  std::string name;
  JobRetry retry;  // evaluated when the job is first spawned (a non-literal may read globals)
  ExprId store;
  Span at;
};

// A `spawn(f(args))`: the `@background` function it starts (the checker resolved the call).
struct SpawnTarget {
  ExprId spawn;  // the `spawn(...)` call
  FnRef fn;
};

struct CommandParam {
  uint32_t param = 0;  // index into FnInfo::params
  std::string name;
  TypeId type;         // element type for a variadic parameter, without `?`
  enum class Kind : uint8_t { Int, Float, Bool, Str } kind = Kind::Str;  // its command-line form
  bool has_default = false;  // a flag (`--name`); else positional
  bool nullable = false;
  bool variadic = false;
  std::string default_text;  // the default as written, for `--help`
  std::string help;
  char short_name = 0;
};

struct Command {
  FnRef fn;
  std::string name;  // `@command("name")`, else the function's name
  std::string desc;
  std::vector<CommandParam> params;
  // How the command's result becomes the exit status.
  enum class Exit : uint8_t { Zero, Int, Result, ResultInt } exit = Exit::Zero;
  bool async = false;
  Span at;
};

// `@live("/chat/{room}", title="Chat", layout=fn)` on a fn returning a component's props
// (views.md §1.7): the page the server renders and the view it mounts. Not an HTTP route of
// `routes`: codegen, OpenAPI and the editor read it here.
struct LiveRoute {
  FnRef fn;
  std::string path;       // as written
  std::string title;      // empty: none given
  std::string layout;     // the layout function's name; empty: the default layout
  std::optional<FnRef> layout_fn;  // the function `layout=` names (checked: (Html, Html) -> Html)
  Span layout_span;
  std::string component;  // the display of the fn's return type: the root component
  TypeId props;           // the fn's return type (the component's props struct)
  bool guarded = false;   // `@authenticated`, `@admin` or `@requires`
  Guard guard;
  RouteTemplate tmpl;     // the path as the router matches it
  std::vector<ParamBinding> params;  // one per parameter of `fn`, as for a GET handler
  Span span;              // the decorator's name
};

struct ServiceModel {
  std::vector<Route> routes;            // in module init order, then source order
  std::vector<LiveRoute> live;          // `@live` pages, in the same order
  std::optional<AuthProvider> auth;
  std::vector<FnRef> middleware_fns;    // every function used as middleware, once
  std::vector<MiddlewareUse::Kind> middleware_kinds;  // parallel to middleware_fns
  std::optional<ServerSettings> server;
  std::vector<HealthCheck> health;
  std::vector<WsEndpoint> ws;
  std::vector<CronJob> cron;
  std::vector<BackgroundJob> background;
  std::vector<Command> commands;        // of the program's entry modules only

  bool has_http() const { return !routes.empty() || !ws.empty() || !live.empty() || server.has_value(); }
  std::string api_version() const {
    const ServerSettings::Setting* v = server ? server->find("api_version") : nullptr;
    return v && v->literal ? *v->literal : std::string("0.1.0");
  }
  // How a middleware function runs (one function has one kind: its type decides it).
  MiddlewareUse::Kind middleware_kind(FnRef fn) const {
    for (size_t i = 0; i < middleware_fns.size() && i < middleware_kinds.size(); ++i)
      if (middleware_fns[i] == fn) return middleware_kinds[i];
    return MiddlewareUse::Kind::Before;  // endpoints of `@ws` take before middleware only
  }
  // Every function the program runs by itself rather than from Fitz code or for a route: the
  // auth provider, the server settings, health checks, cron and background jobs, commands, live
  // pages and their layouts, WebSocket handlers (route handlers and middleware have their own
  // lists above).
  std::vector<FnRef> entry_fns() const;
  const Route* route_of(FnRef fn) const {
    for (const Route& r : routes)
      if (r.handler == fn) return &r;
    return nullptr;
  }
};

}  // namespace fitz::checker
