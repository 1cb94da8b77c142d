// WebSocket endpoints: what a `@ws` handler may look like for the server to serve it (a literal
// path, the connection first, the user second when guarded). Checked
// per module so the editor shows it; the service model (service_tasks.cpp) then reads the
// endpoint without judging it again.
#include "checker/check_internal.h"
#include "checker/decorators.h"

namespace fitz::checker::detail {

void Checker::check_ws_fn(FnId id) {
  const FnDecl& d = ast_->get(id);
  const Decorator* ws = find_decorator(d.decorators, DecoratorKind::Ws);
  if (!ws) return;
  const FnInfo& info = tir_->fns[id.index];
  std::string_view fname = d.name ? d.name->text : std::string_view("the handler");
  if (!ws->args.empty() && !ws->args[0].name)
    if (auto* s = std::get_if<StrLit>(&expr(ws->args[0].value).data))
      for (const StrPart& p : s->parts)
        if (p.is_hole()) {
          error(DiagKind::WsEndpoint, span_of(p.hole), "`@ws` paths are literal: WebSocket endpoints take no path parameters")
              .with_hint("send the value in the first message, or put it in the query string of the client's URL");
          break;
        }
  bool guarded = has_decorator(d.decorators, DecoratorKind::Authenticated) ||
                 has_decorator(d.decorators, DecoratorKind::Admin) || has_decorator(d.decorators, DecoratorKind::Requires);
  if (d.params.empty() || info.params.empty() ||
      (!is_builtin_struct(info.params[0].type, "WsConn") && types_->kind(info.params[0].type) != TypeKind::Error)) {
    error(DiagKind::WsEndpoint, d.params.empty() ? (d.name ? d.name->span : ws->span) : d.params[0].span,
          fmt::format("the first parameter of `@ws` handler `{}` must be a `WsConn<In>`, `WsConn<In, Out>` or `WsConn<Bytes>`",
                      fname))
        .with_hint("write `fn handler(conn: WsConn<Msg>)`");
  } else if (d.params.size() > (guarded ? 2u : 1u)) {
    error(DiagKind::WsEndpoint, d.params[guarded ? 2 : 1].span,
          guarded ? fmt::format("`@ws` handler `{}` takes its `WsConn` and the authenticated user, nothing more", fname)
                  : fmt::format("`@ws` handler `{}` takes only its `WsConn`", fname))
        .with_hint(guarded ? "read anything else from the messages"
                           : "with `@authenticated`, `@admin` or `@requires` a second parameter receives the user");
  }
  // Middleware on the upgrade request is checked with all middleware in check_http.cpp: a named
  // top-level function (E0507), of the before kind.
}

}  // namespace fitz::checker::detail
