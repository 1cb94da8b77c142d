// HTTP services: the program's routes, middleware and health checks become a fitz::http::App.
// Handlers and middleware are emitted a second time as `hm_*` functions whose returns are
// answers (`fzh::Out`: a response, or "continue" for a before middleware); a wrapper per route
// binds the request with fitz::http::Binder and calls it. See runtime/http/README.md.
#include <filesystem>

#include <fmt/format.h>

#include <algorithm>

#include "codegen/cpp_literal.h"
#include "codegen/emit_auth.h"
#include "codegen/gen.h"
#include "openapi/openapi.h"

namespace fitz::codegen {

namespace {

// The handler glue (runtime/include/fitz/http/handler_glue.h) bound to this program's
// `Request` and `Response` structs: the only part of it that depends on generated types.
constexpr const char* kPrelude = R"cpp(
namespace fzh {
using namespace fitz::http::glue;
inline fitz::Ref<fzb::T_Request> request(const fitz::http::Request& r) { return request_as<fzb::T_Request>(r); }
inline fitz::Ref<fzb::T_Response> to_fitz(const fitz::http::Response& r) { return response_as<fzb::T_Response>(r); }
template <class T> Out out(const T& v) { return fitz::http::glue::out<fzb::T_Response>(v); }
}  // namespace fzh
)cpp";

}  // namespace

void Gen::emit_builtin_structs() {
  // Request and Response as Fitz code sees them (fields of the built-in table); the HTTP
  // wrappers convert from and to fitz::http::Request / Response at the boundary.
  line(R"cpp(namespace fzb {
struct T_Request {
  static constexpr const char* fitz_name = "Request";
  static constexpr const char* fitz_field_names[] = {"method", "path", "headers"};
  fitz::Str fld_method{};
  fitz::Str fld_path{};
  fitz::Map<fitz::Str, fitz::Str> fld_headers{};
  auto fitz_fields() const { return std::tie(fld_method, fld_path, fld_headers); }
  auto fitz_fields() { return std::tie(fld_method, fld_path, fld_headers); }
  static fitz::Str dflt_method() { return fitz::Str::lit("GET"); }
  static fitz::Str dflt_path() { return fitz::Str::lit("/"); }
  static fitz::Map<fitz::Str, fitz::Str> dflt_headers() { return {}; }
};
struct T_Response {
  static constexpr const char* fitz_name = "Response";
  static constexpr const char* fitz_field_names[] = {"status", "content_type", "headers", "body", "body_bytes"};
  int64_t fld_status = 200;
  fitz::Str fld_content_type = fitz::Str::lit("application/json");
  fitz::Map<fitz::Str, fitz::Str> fld_headers{};
  fitz::Nullable<fitz::Str> fld_body{};
  fitz::Nullable<fitz::Bytes> fld_body_bytes{};
  auto fitz_fields() const { return std::tie(fld_status, fld_content_type, fld_headers, fld_body, fld_body_bytes); }
  auto fitz_fields() { return std::tie(fld_status, fld_content_type, fld_headers, fld_body, fld_body_bytes); }
  static int64_t dflt_status() { return 200; }
  static fitz::Str dflt_content_type() { return fitz::Str::lit("application/json"); }
  static fitz::Map<fitz::Str, fitz::Str> dflt_headers() { return {}; }
  static fitz::Nullable<fitz::Str> dflt_body() { return {}; }
  static fitz::Nullable<fitz::Bytes> dflt_body_bytes() { return {}; }
};
}  // namespace fzb
)cpp");
}

void Gen::emit_http_prelude() { line(kPrelude); }

void Gen::collect_http() {
  const checker::ServiceModel& model = prog_.service;
  if (model.server) {
    server_module_ = model.server->fn.module;
    server_ = &graph_.get(server_module_).ast.get(model.server->fn.fn);
  }
  auto add = [&](checker::FnRef f, bool html = false) { add_http_fn(HttpFnRef{f.module, f.fn, html}); };
  // Handlers first, then the middleware they use, then the rest (endpoints' before middleware).
  for (const checker::Route& r : model.routes) add(r.handler, r.returns_html);
  for (const checker::Route& r : model.routes)
    for (const checker::MiddlewareUse& mw : r.middleware)
      if (mw.kind != checker::MiddlewareUse::Kind::Cors) add(mw.fn);
  for (const checker::FnRef& f : model.middleware_fns) add(f);
  result_.http = has_http();
}

void Gen::add_http_fn(HttpFnRef h) {
  if (http_fn_keys_.insert(http_fn_key(h.module, h.fn)).second) http_fns_.push_back(h);
}

bool Gen::http_mode_fn(ModuleId m, FnId f) const { return http_fn_keys_.count(http_fn_key(m, f)) > 0; }

void Gen::collect_called_fns() {
  auto add_symbol = [&](SymbolId id) {
    while (id.valid() && prog_.symbol(id).kind == SymbolKind::Import) id = prog_.symbol(id).target;
    if (id.valid() && prog_.symbol(id).kind == SymbolKind::Function) called_fns_.insert(id.index);
  };
  auto add_fn = [&](const checker::FnRef& f) {
    if (f.module.valid() && f.fn.valid()) add_symbol(prog_.modules[f.module.index].fns[f.fn.index].symbol);
  };
  // Fitz code: every name that resolved to a function, called or used as a value.
  for (const ModuleTir& m : prog_.modules) {
    for (const Ref& r : m.refs)
      if (r.kind == RefKind::Symbol || r.kind == RefKind::ModuleMember) add_symbol(SymbolId(r.id));
    for (const CallInfo& c : m.calls)
      if (c.kind == CallKind::Function) add_symbol(c.symbol);
    for (const checker::SpawnTarget& t : m.spawn_targets) add_fn(t.fn);
  }
  // What the generated main, jobs, commands, pages and endpoints call by the plain name.
  for (const checker::FnRef& f : prog_.service.entry_fns()) add_fn(f);
  for (const ModuleTir& m : prog_.modules)
    for (const FnInfo& f : m.fns)
      if (f.is_test) add_symbol(f.symbol);
}

bool Gen::plain_twin_needed(ModuleId m, FnId f) const {
  const FnInfo& info = prog_.modules[m.index].fns[f.index];
  return !http_mode_fn(m, f) || !info.is_handler || called_fns_.count(info.symbol.index) > 0;
}

std::string Gen::http_fn_signature(FnId id, const std::string& name) {
  std::string sig = fn_signature(id, name, true);
  // Same parameters, but the function answers the request instead of returning its value.
  const FnInfo& info = tir_->fns[id.index];
  std::string ret = cpp_type(info.return_type);
  if (info.is_async) ret = "fitz::Task<" + ret + ">";
  // A handler that embeds live roots also gets the response's EmbedScope (live_embed_call).
  if (embeds_request(id))
    sig.insert(sig.size() - 1, info.params.empty() ? "fitz::live::EmbedScope& fz_embed" : ", fitz::live::EmbedScope& fz_embed");
  return (info.is_async ? "fitz::Task<fzh::Out>" : "fzh::Out") + sig.substr(ret.size());
}

bool Gen::embeds_request(FnId id) const {
  return has_live() && tir_->fns[id.index].is_handler && tir_->embeds_in(id);
}

// `return 404 {"error": "no item {id}"}`: a map of distinct literal Str keys to Str values is
// answered by one function of the HTTP runtime, which writes the JSON the map's encoder writes,
// so a handler does not build and free a Map<Str, Str> per answer. The fields, else nothing.
std::optional<std::string> Gen::literal_str_fields(ExprId body) {
  const auto* m = std::get_if<MapExpr>(&ast_->get(body).data);
  if (!m || m->entries.empty()) return std::nullopt;
  auto converted = [&](ExprId e) {
    return e.index < tir_->conversions.size() && tir_->conversion_of(e).kind != ConvKind::None;
  };
  if (converted(body)) return std::nullopt;
  if (tir_->type_of(body) != types_.map(types_.str(), types_.str())) return std::nullopt;
  std::vector<std::string> keys;
  std::vector<ExprId> values;
  for (const auto& en : m->entries) {
    const auto* k = std::get_if<StrLit>(&ast_->get(en.key).data);
    if (!k || tir_->type_of(en.value) != types_.str() || converted(en.value)) return std::nullopt;
    std::string text;
    for (const StrPart& part : k->parts) {
      if (part.is_hole()) return std::nullopt;
      text += part.text;
    }
    if (std::find(keys.begin(), keys.end(), text) != keys.end()) return std::nullopt;
    keys.push_back(std::move(text));
    values.push_back(en.value);
  }
  std::vector<std::string> code = sequence_exprs(values);
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i)
    out += fmt::format("{}{{fitz::http::Text({}, {}), {}}}", i ? ", " : "", cpp_quoted(keys[i]), keys[i].size(), code[i]);
  return out;
}

std::string Gen::status_return(const StatusReturnStmt& s, Span at) {
  if (!fn_ || !fn_->http)
    return fmt::format("fitz::runtime_error({}, \"`return STATUS body` only answers an HTTP request\");", pos(at));
  std::string status = s.status.valid() ? expr_as(s.status, types_.int_()) : "int64_t(200)";
  if (s.body.valid())
    if (std::optional<std::string> fields = literal_str_fields(s.body))
      return return_stmt(fmt::format("fzh::Out(fzh::json_fields(int({}), {{{}}}))", status, *fields));
  std::string body = s.body.valid() ? expr(s.body) : "fitz::Null{}";
  return return_stmt(fmt::format("fzh::Out(fzh::json(int({}), {}))", status, body));
}

void Gen::emit_http_fns() {
  part(UnitPart::Kind::Shared);
  // Defined with the live pages (emit_live_wrappers), called by handlers that embed live roots.
  if (has_live() && has_embeds())
    line("namespace fzlive { fitz::Str embed(fitz::live::EmbedScope& scope, std::string_view view, "
         "const fitz::Str& props_json, fitz::SourcePos pos); }");
  for (const HttpFnRef& h : http_fns_) {
    mod_ = h.module;
    ast_ = &graph_.get(mod_).ast;
    tir_ = &prog_.modules[mod_.index];
    const FnInfo& info = tir_->fns[h.fn.index];
    if (!info.symbol.valid()) continue;
    std::string name = "hm_" + prog_.symbol(info.symbol).name;
    line(fmt::format("namespace {} {{ {}; }}", ns(mod_), http_fn_signature(h.fn, name)));
  }
  for (const HttpFnRef& h : http_fns_) {
    part(UnitPart::Kind::Piece);
    mod_ = h.module;
    ast_ = &graph_.get(mod_).ast;
    tir_ = &prog_.modules[mod_.index];
    const FnInfo& info = tir_->fns[h.fn.index];
    if (!info.symbol.valid()) continue;
    std::string name = "hm_" + prog_.symbol(info.symbol).name;
    line_directive(ast_->get(h.fn).span);
    line(http_fn_signature(h.fn, ns(mod_) + "::" + name) + " {");
    ++indent_;
    emit_fn(h.fn, name, false, true, h.html);
    --indent_;
    line("}");
  }
  part(UnitPart::Kind::Shared);
  line("");
}

void Gen::emit_http_wrappers() {
  emit_auth_guard(*this);  // inline: every unit may hold it
  // Middleware adapters, one per middleware function: beside the App that takes their addresses.
  part(UnitPart::Kind::Once);
  for (const HttpFnRef& h : http_fns_) {
    mod_ = h.module;
    ast_ = &graph_.get(mod_).ast;
    tir_ = &prog_.modules[mod_.index];
    const FnInfo& info = tir_->fns[h.fn.index];
    if (info.is_handler || !info.symbol.valid()) continue;
    std::string fname = prog_.symbol(info.symbol).name;
    std::string callee = fmt::format("{}::hm_{}", ns(mod_), fname);
    auto req_arg = [&](size_t i) {
      return types_.kind(info.params[i].type) == TypeKind::Any ? std::string("fitz::to_any(fzh::request(req))")
                                                               : std::string("fzh::request(req)");
    };
    std::string aw = info.is_async ? "co_await " : "";
    std::string ret = info.is_async ? "co_return " : "return ";
    std::string id = fmt::format("{}_{}", mod_.index, fname);
    using Kind = checker::MiddlewareUse::Kind;
    Kind kind = prog_.service.middleware_kind(checker::FnRef{h.module, h.fn});
    if (kind == Kind::Before) {
      line(fmt::format("static {} fzmb_{}(fitz::http::Request& req) {{",
                       info.is_async ? "fitz::Task<fitz::Nullable<fitz::http::Response>>"
                                     : "fitz::Nullable<fitz::http::Response>",
                       id));
      line(fmt::format("  fzh::Out o = {}{}({});", aw, callee, req_arg(0)));
      line(fmt::format("  if (o.none) {}fitz::Nullable<fitz::http::Response>();", ret));
      line(fmt::format("  {}fitz::Nullable<fitz::http::Response>(static_cast<fitz::http::Response&&>(o.r));", ret));
      line("}");
    } else if (kind == Kind::AroundAsync) {
      emit_async_around(info, id, callee, req_arg(0));
    } else if (kind == Kind::Around) {
      TypeId nt = info.params[1].type;
      TypeId nr = types_.fn_result(nt);
      std::string conv = types_.kind(nr) == TypeKind::Any ? "fitz::to_any(fzh::to_fitz(next.call()))"
                                                          : "fzh::to_fitz(next.call())";
      line(fmt::format("static fitz::http::Response fzmw_{}(fitz::http::Request& req, fitz::http::Next& next) {{", id));
      line(fmt::format("  {} n([&next]() -> {} {{ return {}; }});", cpp_type(nt), cpp_type(nr), conv));
      line(fmt::format("  return fzh::finish({}({}, n));", callee, req_arg(0)));
      line("}");
    } else if (kind == Kind::After) {
      std::string resp = types_.kind(info.params[1].type) == TypeKind::Any ? "fitz::to_any(fzh::to_fitz(resp))"
                                                                          : "fzh::to_fitz(resp)";
      line(fmt::format("static {} fzma_{}(fitz::http::Request& req, fitz::http::Response resp) {{",
                       info.is_async ? "fitz::Task<fitz::http::Response>" : "fitz::http::Response", id));
      line(fmt::format("  fzh::Out o = {}{}({}, {});", aw, callee, req_arg(0), resp));
      line(fmt::format("  if (o.none) {}resp;", ret));
      line(fmt::format("  {}static_cast<fitz::http::Response&&>(o.r);", ret));
      line("}");
    }
  }
  // Route wrappers: bind every parameter, stop at the first failure, call, answer. Declared
  // first, so that the App may take their addresses from another translation unit.
  const std::vector<checker::Route>& routes = prog_.service.routes;
  part(UnitPart::Kind::Shared);
  auto wrapper_signature = [&](size_t ri) {
    return fmt::format("{} fzw_{}(fitz::http::Request& req)",
                       routes[ri].async ? "fitz::Task<fitz::http::Response>" : "fitz::http::Response", ri);
  };
  for (size_t ri = 0; ri < routes.size(); ++ri) line(wrapper_signature(ri) + ";");
  for (size_t ri = 0; ri < routes.size(); ++ri) {
    const checker::Route& r = routes[ri];
    part(UnitPart::Kind::Piece);
    generated_lines();
    mod_ = r.handler.module;
    ast_ = &graph_.get(mod_).ast;
    tir_ = &prog_.modules[mod_.index];
    const FnInfo& info = tir_->fns[r.handler.fn.index];
    FnCtx ctx;
    ctx.top_level = true;
    fn_ = &ctx;
    // @authenticated / @admin / @requires: checked first; an async provider makes the wrapper a coroutine.
    AuthRoute guard = auth_route(*this, mod_, r.handler.fn);
    line(wrapper_signature(ri) + " {");
    ++indent_;
    emit_auth_check(*this, guard);
    line("fitz::http::Binder b(req);");
    std::vector<std::string> args;
    for (const checker::ParamBinding& p : r.params) {
      TypeId t = p.type;
      TypeKind k = types_.kind(types_.non_null(t));
      std::string a = fmt::format("a{}", p.param);
      std::string cname = cpp_quoted(p.key.empty() ? info.params[p.param].name : p.key);
      const char* suffix = k == TypeKind::Int ? "int" : k == TypeKind::Float ? "float" : k == TypeKind::Bool ? "bool" : "str";
      std::string code;
      // Date, DateTime and Uuid parameters are parsed from their text forms (fitz/http/json_dates.h).
      TypeId inner = types_.non_null(t);
      std::string date_type = k == TypeKind::Struct && types_.struct_info(types_.struct_of(inner)).builtin
                                  ? cpp_type(inner) : std::string();
      if (!date_type.empty() && p.kind == checker::BindingKind::Path) {
        code = fmt::format("fitz::http::path_date<{}>(b, {}, {})", date_type, p.path_index,
                           cpp_quoted(info.params[p.param].name));
      } else if (!date_type.empty() && p.kind == checker::BindingKind::Query) {
        if (p.optional)
          code = fmt::format("fitz::http::query_date_opt<{}>(b, {})", date_type, cname);
        else if (p.has_default)
          code = fmt::format("({{ auto _q = fitz::http::query_date_opt<{}>(b, {}); _q.has_value() ? _q.value() : {}; }})",
                             date_type, cname, default_arg(info, mod_, r.handler.fn, p.param));
        else
          code = fmt::format("fitz::http::query_date<{}>(b, {})", date_type, cname);
      }
      if (code.empty()) switch (p.kind) {
        case checker::BindingKind::User:
          code = "fz_user.value()";
          break;
        case checker::BindingKind::Path:
          code = fmt::format("b.path_{}({}, {})", suffix, p.path_index, cpp_quoted(info.params[p.param].name));
          if (k == TypeKind::Any) code = "fitz::to_any(" + code + ")";
          break;
        case checker::BindingKind::Query:
          if (p.optional) {
            code = fmt::format("b.query_{}_opt({})", suffix, cname);
            if (k == TypeKind::Any) code = "fzh::opt_any(" + code + ")";
          } else if (p.has_default) {
            code = fmt::format("({{ auto _q = b.query_{}_opt({}); _q.has_value() ? _q.value() : {}; }})", suffix, cname,
                               default_arg(info, mod_, r.handler.fn, p.param));
          } else {
            code = fmt::format("b.query_{}({})", suffix, cname);
          }
          break;
        case checker::BindingKind::Header:
          code = p.optional ? fmt::format("b.header_opt({})", cname) : fmt::format("b.header_str({})", cname);
          if (k == TypeKind::Any) code = "fzh::opt_any(" + code + ")";
          break;
        case checker::BindingKind::Cookie:
          if (p.signed_cookie) {
            result_.auth = true;  // the HMAC lives in the auth runtime
            code = fmt::format("fitz::auth::signed_cookie(req, {})", cname);
          } else {
            code = p.optional ? fmt::format("b.cookie_opt({})", cname) : fmt::format("b.cookie_str({})", cname);
          }
          if (k == TypeKind::Any) code = "fzh::opt_any(" + code + ")";
          break;
        case checker::BindingKind::Request:
          code = "fzh::request(req)";
          break;
        case checker::BindingKind::Form:
          code = "b.body_form()";  // a form (application/x-www-form-urlencoded) or a JSON object of strings
          break;
        case checker::BindingKind::Body:
          code = fmt::format("b.body_json<{}>({})", cpp_type(t), cpp_quoted(types_.display(t)));
          code = multipart_body(t, code);
          break;
      }
      line(fmt::format("{} {} = {};", cpp_type(t), a, code));
      args.push_back(a);
    }
    std::string ret = r.async ? "co_return " : "return ";
    line(fmt::format("if (b.failed()) {}b.error();", ret));
    std::string call_args;
    for (size_t i = 0; i < args.size(); ++i) call_args += (i ? ", " : "") + args[i];
    std::string callee = fmt::format("{}::hm_{}", ns(mod_), prog_.symbol(info.symbol).name);
    if (embeds_request(r.handler.fn)) {
      line("fitz::live::EmbedScope fz_embed(req);");
      call_args += call_args.empty() ? "fz_embed" : ", fz_embed";
    }
    if (info.is_async) {
      line(fmt::format("co_return fzh::finish(co_await {}({}));", callee, call_args));
    } else if (r.python) {
      // The event loop awaits the handler run on the Python worker pool.
      line(fmt::format("fitz::py::PoolAwait<fitz::http::Response> fz_py{{[&]() -> fitz::http::Response {{ return fzh::finish({}({})); }}}};",
                       callee, call_args));
      line("co_return co_await fz_py;");
    } else
      line(fmt::format("{}fzh::finish({}({}));", ret, callee, call_args));
    --indent_;
    line("}");
    fn_ = nullptr;
  }
  part(UnitPart::Kind::Shared);
  line("");
}

void Gen::emit_http_serve() {
  line("static int fitz_serve() {");
  ++indent_;
  line("fitz::http::App app;");
  line("fitz::http::ServerConfig& cfg = app.config();");
  FnCtx ctx;
  ctx.top_level = true;
  fn_ = &ctx;
  const checker::ServiceModel& model = prog_.service;
  if (model.server) {
    mod_ = model.server->fn.module;
    ast_ = &graph_.get(mod_).ast;
    tir_ = &prog_.modules[mod_.index];
    for (const checker::ServerSettings::Setting& s : model.server->settings) {
      // Decorator strings are typed Str without being checked as interpolations: literals are
      // written directly.
      std::string v;
      if (s.literal) {
        v = "fitz::Str::lit(" + cpp_quoted(*s.literal) + ")";
      } else {
        v = expr(s.value);
        if (types_.kind(tir_->type_of(s.value)) == TypeKind::Any) v = "fitz::to_any(" + v + ")";
      }
      if (s.key == "max_body_bytes" && s.int_literal)  // the checker read the size (E0541 otherwise)
        line(fmt::format("cfg.max_body_bytes = int64_t({});", *s.int_literal));
      else if (s.key == "port" || s.key == "shutdown_timeout_secs")
        line(fmt::format("cfg.{} = int64_t({});", s.key, v));
      else if (s.key == "host" || s.key == "api_version")
        line(fmt::format("cfg.{} = fitz::Str({});", s.key, v));
      else if (s.key == "docs" || s.key == "observability" || s.key == "prometheus")
        line(fmt::format("cfg.{} = bool({});", s.key, v));
    }
    for (const auto& [prefix, folder] : model.server->static_dirs)
      line(fmt::format("cfg.static_dirs.emplace_back(fitz::Str::lit({}), fitz::Str::lit({}));", cpp_quoted(prefix),
                       cpp_quoted(folder)));
    if (!model.server->static_dirs.empty()) {
      // Where a relative folder is found when it is not beside the executable (`fitz run`
      // runs a binary in the build cache).
      std::filesystem::path base = !graph_.project_root.empty() ? graph_.project_root : graph_.get(mod_).path.parent_path();
      line(fmt::format("cfg.project_dir = fitz::Str::lit({});", cpp_quoted(base.string())));
    }
  }
  for (size_t ri = 0; ri < model.routes.size(); ++ri) {
    const checker::Route& r = model.routes[ri];
    mod_ = r.handler.module;
    ast_ = &graph_.get(mod_).ast;
    tir_ = &prog_.modules[mod_.index];
    const FnInfo& info = tir_->fns[r.handler.fn.index];
    std::string method(checker::http_method_name(r.method));
    method[0] = char(std::toupper(method[0]));
    line("{");
    ++indent_;
    line(fmt::format("auto r = app.route(fitz::http::Method::{}, {}, &fzw_{});", method, cpp_quoted(r.tmpl.text), ri));
    line(fmt::format("r.name(fitz::Str::lit({}));", cpp_quoted(prog_.symbol(info.symbol).name)));
    if (std::string check = route_flag_check(r); !check.empty()) line(check);
    if (r.max_body_bytes) line(fmt::format("r.max_body_bytes(int64_t({}));", *r.max_body_bytes));
    for (const checker::MiddlewareUse& mw : r.middleware) {
      using Kind = checker::MiddlewareUse::Kind;
      if (mw.kind == Kind::Cors && !mw.cors_options.valid()) {  // `cors()`: the defaults
        line("r.cors(fitz::http::CorsOptions{});");
        continue;
      }
      if (mw.kind == Kind::Cors) {
        line(fmt::format("auto cors = fitz::http::CorsOptions::from_map({});",
                         expr_as(mw.cors_options, types_.map(types_.str(), types_.any()))));
        line(fmt::format("if (cors.is_err()) fitz::runtime_error({}, cors.error());", pos(mw.at)));
        line("r.cors(cors.value());");
        continue;
      }
      const FnInfo& mi = prog_.modules[mw.fn.module.index].fns[mw.fn.fn.index];
      std::string id = fmt::format("{}_{}", mw.fn.module.index, prog_.symbol(mi.symbol).name);
      if (mw.kind == Kind::Before)
        line(fmt::format("r.before(&fzmb_{});", id));
      else if (mw.kind == Kind::After)
        line(fmt::format("r.after(&fzma_{});", id));
      else
        line(fmt::format("r.around(&fzmw_{});", id));
    }
    --indent_;
    line("}");
  }
  // @healthz / @readyz replace the built-in checks.
  for (const checker::HealthCheck& h : model.health) {
    mod_ = h.fn.module;
    ast_ = &graph_.get(mod_).ast;
    tir_ = &prog_.modules[mod_.index];
    const FnInfo& info = tir_->fns[h.fn.fn.index];
    std::string call = fmt::format("{}::{}()", ns(mod_), fn_name(info));
    if (info.is_async) call = fmt::format("fitz::block_on({}, {})", call, pos(h.at));
    line(fmt::format("app.{}([]() -> bool {{ return fzh::healthy({}); }});", h.ready ? "readyz" : "healthz", call));
  }
  if (has_ws()) emit_ws_serve();
  emit_live_serve();
  std::string doc = openapi::generate(prog_, graph_, sources_, {});
  line(fmt::format("static const char kOpenApi[] = {};", cpp_quoted(doc)));
  line("app.openapi(fitz::Str(kOpenApi, sizeof kOpenApi - 1));");
  line("return app.run();");
  fn_ = nullptr;
  --indent_;
  line("}");
  line("");
}

}  // namespace fitz::codegen
