// `@live` pages (views.md §1.7, §2.1): a GET route that binds its parameters like a handler,
// calls the page function for the root component's props, renders the live root with a fresh
// join token and wraps it in the default layout; and, in fitz_serve, the live-view endpoints
// (`/_fitz/live.js`, `/_fitz/live/ws`) over the program's view registry.
#include <fmt/format.h>

#include "codegen/cpp_literal.h"
#include "codegen/emit_auth.h"
#include "codegen/gen.h"

namespace fitz::codegen {

void Gen::emit_live_wrappers() {
  if (!has_live()) return;
  const std::optional<checker::AuthProvider>& provider = prog_.service.auth;
  if (provider) emit_auth_guard(*this);
  line("namespace fzlive {");
  line("inline std::shared_ptr<fitz::live::Live>& live() { static std::shared_ptr<fitz::live::Live> l; return l; }");
  if (provider && !provider->async) {
    // A browser's socket carries cookies, not an Authorization header: the user a page and its
    // socket are for comes from the cookies, through the app's own provider (§2.2), as JSON.
    line("inline std::string user_of(std::string_view cookie) {");
    line("  if (cookie.empty()) return {};");
    line("  fitz::Map<fitz::Str, fitz::Str> h;");
    line("  h.set(fitz::Str::lit(\"cookie\"), fitz::Str(cookie.data(), cookie.size()));");
    line("  auto u = fzauth::guard().resolve(h);");
    line("  if (!u.is_ok()) return {};");
    line("  fitz::Str j = fitz::http::to_json(u.value());");
    line("  return std::string(j.data(), j.size());");
    line("}");
  }
  if (has_embeds()) {
    line("fitz::Str embed(fitz::live::EmbedScope& scope, std::string_view view, const fitz::Str& props_json, fitz::SourcePos pos) {");
    line("  std::string error;");
    line("  std::string root = live()->embed(scope, view, std::string_view(props_json.data(), props_json.size()),");
    line("                                   std::string_view(kFzViewStyles, sizeof kFzViewStyles - 1), &error);");
    line("  if (root.empty()) fitz::runtime_error(pos, (\"live_embed: \" + error).c_str());");
    line("  return fitz::Str(root.data(), root.size());");
    line("}");
  }
  line("}");
  const std::vector<checker::LiveRoute>& pages = prog_.service.live;
  for (size_t li = 0; li < pages.size(); ++li) {
    const checker::LiveRoute& r = pages[li];
    ModuleContext in(*this, r.fn.module);
    const FnInfo& info = tir_->fns[r.fn.fn.index];
    if (!info.symbol.valid()) continue;
    const frontend::SourceFile& file = sources_.file(ast_->file);
    auto where = [&](Span s) {
      frontend::LineCol lc = file.line_col(s.begin);
      return fmt::format("{}:{}:{}", file.path(), lc.line, lc.col);
    };
    const checker::ViewComponent* comp = options_.views ? options_.views->find(r.component) : nullptr;
    if (!comp) {
      result_.not_compiled.push_back(
          fmt::format("{}: `@live` returns `{}`, which is not a live-view component's props", where(r.span), r.component));
      continue;
    }
    FnCtx ctx;
    ctx.top_level = true;
    fn_ = &ctx;
    AuthRoute guard = auth_route(*this, r.fn.module, r.fn.fn);
    // An async page function, or a root whose `on mount` is async, is awaited: the handler is a
    // coroutine, so the server's loop keeps serving meanwhile.
    bool async_mount = false;
    for (const checker::ViewHandler& h : comp->hooks)
      async_mount |= h.kind == checker::ViewHandler::Kind::Mount && h.is_async;
    bool coroutine = guard.coroutine || info.is_async || async_mount;
    guard.coroutine = coroutine;
    line(fmt::format("static {} fzl_{}(fitz::http::Request& req) {{",
                     coroutine ? "fitz::Task<fitz::http::Response>" : "fitz::http::Response", li));
    ++indent_;
    emit_auth_check(*this, guard);
    line("fitz::http::Binder b(req);");
    std::string args;
    for (const checker::ParamBinding& p : r.params) {
      TypeKind k = types_.kind(types_.non_null(p.type));
      const char* suffix = k == TypeKind::Int ? "int" : k == TypeKind::Float ? "float" : k == TypeKind::Bool ? "bool" : "str";
      std::string cname = cpp_quoted(p.key.empty() ? info.params[p.param].name : p.key);
      std::string code;
      switch (p.kind) {
        case checker::BindingKind::Path:
          code = fmt::format("b.path_{}({}, {})", suffix, p.path_index, cpp_quoted(info.params[p.param].name));
          break;
        case checker::BindingKind::Query:
          if (p.optional)
            code = fmt::format("b.query_{}_opt({})", suffix, cname);
          else if (p.has_default)
            code = fmt::format("({{ auto _q = b.query_{}_opt({}); _q.has_value() ? _q.value() : {}; }})", suffix, cname,
                               default_arg(info, mod_, r.fn.fn, p.param));
          else
            code = fmt::format("b.query_{}({})", suffix, cname);
          break;
        case checker::BindingKind::Header:
          code = p.optional ? fmt::format("b.header_opt({})", cname) : fmt::format("b.header_str({})", cname);
          break;
        case checker::BindingKind::Cookie:
          if (p.signed_cookie)
            code = fmt::format("fitz::auth::signed_cookie(req, {})", cname);
          else
            code = p.optional ? fmt::format("b.cookie_opt({})", cname) : fmt::format("b.cookie_str({})", cname);
          break;
        case checker::BindingKind::Request:
          code = "fzh::request(req)";
          break;
        case checker::BindingKind::User:
          code = "fz_user.value()";
          break;
        default:
          result_.not_compiled.push_back(fmt::format("{}: `@live` page parameter `{}` is neither in the path nor the query",
                                                     where(r.span), info.params[p.param].name));
          code = cpp_type(p.type) + "{}";
      }
      if (types_.kind(p.type) == TypeKind::Any) code = "fzh::opt_any(" + code + ")";
      line(fmt::format("{} a{} = {};", cpp_type(p.type), p.param, code));
      args += fmt::format("{}a{}", args.empty() ? "" : ", ", p.param);
    }
    std::string ret = coroutine ? "co_return " : "return ";
    line(fmt::format("if (b.failed()) {}b.error();", ret));
    line(fmt::format("auto props = {}{}::{}({});", info.is_async ? "co_await " : "", ns(r.fn.module), fn_name(info), args));
    line("std::string error;");
    line(fmt::format("std::string root = {}fzlive::live()->{}(req, {}, fitz::live::gen::text_of(fitz::http::to_json(props)), &error);",
                     async_mount ? "co_await " : "", async_mount ? "render_root_async" : "render_root", cpp_quoted(r.component)));
    line(fmt::format("if (root.empty()) {}fitz::http::Response::error(500, fitz::Str(error.data(), error.size()));", ret));
    std::string title = r.title.empty() ? r.component : r.title;
    std::string styles = "std::string_view(kFzViewStyles, sizeof kFzViewStyles - 1)";
    if (r.layout_fn) {
      // The app's layout gets the head the default one would have and the live root.
      const FnInfo& lf = prog_.modules[r.layout_fn->module.index].fns[r.layout_fn->fn.index];
      line(fmt::format("std::string head = fitz::live::gen::default_head({}, {});", cpp_quoted(title), styles));
      line(fmt::format("fitz::Str doc = {}::{}(fitz::Str(head.data(), head.size()), fitz::Str(root.data(), root.size()));",
                       ns(r.layout_fn->module), fn_name(lf)));
      line("std::string page = fitz::live::gen::text_of(doc);");
    } else {
      line(fmt::format("std::string page = fitz::live::gen::default_page({}, {}, root);", cpp_quoted(title), styles));
    }
    line(fmt::format("{}fitz::http::Response::text(200, fitz::Str(page.data(), page.size()), fitz::Str::lit(\"text/html; charset=utf-8\"));",
                     ret));
    --indent_;
    line("}");
    fn_ = nullptr;
  }
  line("");
}

void Gen::emit_live_serve() {
  if (!has_live()) return;
  if (!has_ws()) line("fitz::ws::Hub hub(app);");
  line("static fitz::live::ViewRegistry fz_views;");
  line("fz_register_views(fz_views);");
  line("fitz::live::LiveConfig fz_lc;");
  // One secret keys the cookies and the join tokens; without it every restart (and every replica)
  // has its own key, which only dev can live with (§2.1).
  line("if (const char* s = std::getenv(\"FITZ_SECRET_KEY\"); s && *s) {");
  line("  fz_lc.key = fitz::live::TokenKey::derive(s);");
  line("} else {");
  line("  std::fprintf(stderr, \"fitz: FITZ_SECRET_KEY is not set; live-view tokens use a key of this process only\\n\");");
  line("}");
  line("if (const char* e = std::getenv(\"FITZ_ENV\"); e && std::string_view(e) == \"production\") fz_lc.dev = false;");
  // The build identity: pages of another build reload when they rejoin (`fitz dev`).
  uint64_t h = 1469598103934665603ull;
  for (ModuleId m : graph_.init_order) {
    std::string_view text = sources_.file(graph_.get(m).ast.file).text();
    for (unsigned char c : text) {
      h ^= c;
      h *= 1099511628211ull;
    }
  }
  line(fmt::format("fz_lc.build_id = \"{:016x}\";", h));
  if (prog_.service.auth && !prog_.service.auth->async) line("fz_lc.user_of = &fzlive::user_of;");
  line("fzlive::live() = fitz::live::mount(app, hub, fz_views, fz_lc);");
  for (size_t li = 0; li < prog_.service.live.size(); ++li) {
    const checker::LiveRoute& r = prog_.service.live[li];
    line(fmt::format("app.route(fitz::http::Method::Get, {}, &fzl_{});", cpp_quoted(r.tmpl.text.empty() ? r.path : r.tmpl.text), li));
  }
}

// `live_embed(props)`: in the answering form of a route handler (`hm_*`), the live root for the
// request through the handler's EmbedScope; anywhere else (the handler called as a function, a
// `fitz test` build) there is no request to bind the token to.
std::string Gen::live_embed_call(const CallExpr& c, Span at) {
  StructId sid = view_props_arg(c, at, "live_embed");
  if (!sid.valid()) return "fitz::Str()";
  ExprId a = c.args[0].value;
  if (!fn_ || !fn_->http || !fn_->fn.valid() || !embeds_request(fn_->fn))
    return fmt::format("([&]() -> fitz::Str {{ fitz::runtime_error({}, \"`live_embed` renders a live root only while its "
                       "handler answers an HTTP request\"); }}())",
                       pos(at));
  const checker::StructInfo& info = types_.struct_info(sid);
  return fmt::format("fzlive::embed(fz_embed, {}, fitz::http::to_json({}), {})", cpp_quoted(info.name), expr(a), pos(at));
}

std::vector<TypeId> Gen::live_json_types() const {
  std::vector<TypeId> out;
  if (view_modules_.empty()) return out;
  if (has_live() && prog_.service.auth) out.push_back(prog_.service.auth->user);  // ctx.user
  for (const checker::ViewFile& f : options_.views->files)
    for (const checker::ViewComponent& c : f.components) {
      if (c.props_type.valid()) out.push_back(c.props_type);
      for (const checker::ViewHandler& h : c.hooks)
        for (const checker::ViewParam& p : h.params)
          if (p.type.valid()) out.push_back(p.type);
    }
  return out;
}

}  // namespace fitz::codegen
