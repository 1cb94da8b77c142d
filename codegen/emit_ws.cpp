// WebSocket endpoints: `@ws("/path")` handlers become endpoints of a fitz::ws::Hub next to the
// App (runtime/ws/README.md). The checker types `WsConn<In, Out>` methods: `recv` gives
// Result<In> (the endpoint decodes In with the request-body decoder; a wrong message is an Err
// with the reason and the connection stays open), `send`/`broadcast` take Out and encode the
// argument's static type. A `WsConn` value is `fzws::Conn`: the runtime handle plus its
// endpoint's decoder and encoders (runtime/include/fitz/ws_typed.h).
#include <fmt/format.h>

#include <algorithm>

#include "codegen/cpp_literal.h"
#include "codegen/emit_auth.h"
#include "codegen/gen.h"

namespace fitz::codegen {

void Gen::collect_ws() {
  if (options_.test_mode) return;  // tests call handlers directly; nothing is served
  ws_routes_ = prog_.service.ws;
  // Before-middleware runs on the upgrade request like on any route: its adapter
  // (emit_http.cpp) is generated for every function in http_fns_.
  for (const WsRoute& r : ws_routes_)
    for (const checker::MiddlewareUse& mw : r.middleware) add_http_fn(HttpFnRef{mw.fn.module, mw.fn.fn});
  if (has_ws()) {
    // fitz_ws checks upgrades with the auth runtime's guards: it links after both.
    result_.http = true;
    result_.ws = true;
    result_.auth = true;
  }
}

void Gen::emit_ws_prelude() {
  // The typed connection helpers live in the runtime (fitz/ws_typed.h); generated code names
  // them `fzws::`.
  line("#include <fitz/ws_typed.h>");
  line("namespace fzws = fitz::ws::typed;");
}

std::optional<std::string> Gen::ws_call(ExprId id, const CallExpr& c, const CallInfo& ci) {
  if (ci.kind != CallKind::Builtin && ci.kind != CallKind::BuiltinMethod) return std::nullopt;
  const auto& entry = prog_.builtins->entry(ci.builtin);
  // Messages keep their static type (JSON encoders of user types, Bytes as binary frames).
  auto raw = [this](ExprId v) { return Child{[this, v] { return expr_raw(v); }, v}; };
  if (ci.kind == CallKind::Builtin) {
    if (entry.name != "ws_broadcast" || c.args.size() != 2) return std::nullopt;
    auto parts = sequence({child_of(this, c.args[0].value), raw(c.args[1].value)});
    if (!has_ws()) return fmt::format("((void)({}), (void)({}), fitz::Null{{}})", parts[0], parts[1]);
    return fmt::format("fzws::broadcast_path({}, {})", parts[0], parts[1]);
  }
  if (entry.receiver.substr(0, 6) != "WsConn" || !has_ws()) return std::nullopt;
  auto* fe = std::get_if<FieldExpr>(&ast_->get(c.callee).data);
  if (!fe) return std::nullopt;
  std::vector<Child> children = {child_of(this, fe->object)};
  for (const auto& a : c.args) children.push_back(raw(a.value));
  auto parts = sequence(children);
  std::string args;
  for (const auto& p : parts) args += (args.empty() ? "" : ", ") + p;
  if (entry.name == "recv") {
    // `recv` gives the connection's In type (WsConn<In, Out>), decoded by the endpoint.
    TypeId in = types_.any();
    TypeId conn = tir_->type_of(fe->object);
    if (types_.kind(conn) == TypeKind::Struct && !types_.args(conn).empty()) in = types_.args(conn)[0];
    // It waits itself (typed Result<In>): awaited here as `.await` would be.
    return await_task(fmt::format("fzws::recv_as<{}>({})", cpp_type(in), args), ast_->get(id).span);
  }
  return fmt::format("fzws::{}({})", entry.name, args);
}

void Gen::emit_ws_serve() {
  line("fitz::ws::WsConfig wscfg;");
  if (const auto& server = prog_.service.server) {
    for (const checker::ServerSettings::Setting& st : server->settings) {
      if (st.key != "ws_heartbeat_secs" || !st.value.valid()) continue;
      ModuleContext in_server(*this, server->fn.module);
      // 0 turns the pings off: a day stands for "never" (the idle limit is twice that).
      line(fmt::format("{{ int64_t s = int64_t({}); wscfg.heartbeat_ms = s > 0 ? s * 1000 : 86400000; }}",
                       expr_as(st.value, types_.int_())));
    }
  }
  line("fitz::ws::Hub hub(app, wscfg);");
  line("{");
  line("  fitz::Str e = hub.configure_from_env();");
  line("  if (!e.empty()) { std::fprintf(stderr, \"fitz: %.*s\\n\", int(e.size()), e.data()); return 2; }");
  line("}");
  line("fzws::hub() = &hub;");
  for (const WsRoute& r : ws_routes_) {
    mod_ = r.handler.module;
    ast_ = &graph_.get(mod_).ast;
    tir_ = &prog_.modules[mod_.index];
    const FnInfo& info = tir_->fns[r.handler.fn.index];
    std::string dec = r.bytes ? "nullptr" : fmt::format("&fzws::decode<{}>", cpp_type(r.in));
    std::string call = fmt::format("{}::{}(conn)", ns(mod_), fn_name(info));
    // @authenticated / @admin / @requires: the auth guard (emit_auth.h) checks the upgrade
    // request, bearer subprotocol included; its 401 / 403 is an HTTP answer, never a 101.
    AuthRoute guard = r.guard.guarded ? auth_route(*this, r.handler.module, r.handler.fn) : AuthRoute();
    // `@middleware(f)` of the before kind, in decorator order, ahead of the auth guard (which
    // runs as the route's handler or as the last before step): a middleware may answer the
    // upgrade request itself (401, 429, ...) and the client never gets a 101.
    std::string befores;
    for (const checker::MiddlewareUse& mw : r.middleware) {
      const FnInfo& mi = prog_.modules[mw.fn.module.index].fns[mw.fn.fn.index];
      befores += fmt::format(".before(&fzmb_{}_{})", mw.fn.module.index, prog_.symbol(mi.symbol).name);
    }
    std::string tail = "})" + befores + ";";
    if (guard.guarded && guard.need.empty()) continue;  // refused by auth_route (no usable provider)
    if (r.guard.user_param == 1) {
      call = fmt::format("{}::{}(conn, u)", ns(mod_), fn_name(info));
      line(fmt::format("hub.endpoint({}, fzauth::guard(), {}, [](fitz::ws::Conn c, fzauth::User u) -> fitz::Task<fitz::Null> {{",
                       cpp_quoted(r.path), guard.need));
    } else {
      line(fmt::format("hub.endpoint({}, [](fitz::ws::Conn c) -> fitz::Task<fitz::Null> {{", cpp_quoted(r.path)));
      if (guard.guarded) tail = fmt::format("}}){}.before({});", befores, auth_before(guard));
    }
    // The connection and the handler's task are named: GCC 12 may destroy a temporary in a
    // co_await operand twice (here, a second release of the session).
    std::string enc = "nullptr, nullptr";
    if (!r.bytes) {
      auto encoder = [&](TypeId t) {
        return types_.kind(t) == TypeKind::Any ? std::string("nullptr") : fmt::format("&fzws::encode_as<{}>", cpp_type(t));
      };
      enc = encoder(r.out) + ", " + encoder(r.in);
    }
    line(fmt::format("  fzws::Conn conn{{c, {}, {}}};", dec, enc));
    if (r.async) {
      line(fmt::format("  auto task = {};", call));
      line("  co_await task;");
    } else {
      line(fmt::format("  {};", call));
    }
    line("  co_return fitz::null;");
    line(tail);
  }
}

}  // namespace fitz::codegen
