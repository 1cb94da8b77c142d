// The OpenAPI document: info from the manifest and `@server`, one operation per route handler
// (parameters, request body, responses, security), components for the types they use.
#include <algorithm>
#include <set>

#include "checker/decorators.h"
#include "openapi/internal.h"
#include "openapi/openapi.h"

namespace fitz::openapi {

namespace {

using namespace detail;
using checker::TypeKind;
using frontend::Decorator;
using frontend::FnDecl;

const Decorator* route_of(const FnDecl& fn) {
  for (const Decorator& d : fn.decorators)
    if (auto k = checker::decorator_kind(d, checker::kOnFn); k && checker::is_route(*k)) return &d;
  return nullptr;
}

// A keyword argument of a decorator, or its `index`-th positional one.
frontend::ExprId decorator_arg(const Decorator& d, std::string_view name, int index = -1) {
  int pos = 0;
  for (const frontend::DecoratorArg& a : d.args) {
    if (a.name ? a.name->text == name : pos++ == index) return a.value;
  }
  return {};
}

std::optional<std::string> string_arg(const frontend::Ast& ast, const Decorator& d, std::string_view name,
                                      int index = -1) {
  std::optional<Json> v = literal_value(ast, decorator_arg(d, name, index));
  if (v && v->is_string()) return v->get<std::string>();
  return std::nullopt;
}

// The route as written, holes shown as `{name}`: `/users/{id}?limit={limit}`.
std::string route_text(const frontend::Ast& ast, const frontend::SourceManager& sources, const Decorator& d) {
  frontend::ExprId e = decorator_arg(d, "", 0);
  if (!e.valid()) return {};
  auto* s = std::get_if<frontend::StrLit>(&ast.get(e).data);
  if (!s) return {};
  std::string out;
  for (const frontend::StrPart& p : s->parts) {
    if (!p.is_hole()) {
      out += p.text;
      continue;
    }
    const frontend::Expr& hole = ast.get(p.hole);
    if (auto* n = std::get_if<frontend::NameRef>(&hole.data)) {
      out += "{" + std::string(n->name.text) + "}";
    } else if (const frontend::SourceFile* f = sources.find(hole.span.file)) {
      out += "{" + std::string(f->slice(hole.span)) + "}";
    }
  }
  return out;
}

struct Route {
  std::string path;
  std::vector<std::string> path_params;                        // in path order
  std::vector<std::pair<std::string, std::string>> query;      // key, parameter name
};

Route parse_route(const std::string& text) {
  Route r;
  size_t q = text.find('?');
  r.path = text.substr(0, q);
  for (size_t pos = 0; (pos = r.path.find('{', pos)) != std::string::npos;) {
    size_t end = r.path.find('}', pos);
    if (end == std::string::npos) break;
    r.path_params.push_back(r.path.substr(pos + 1, end - pos - 1));
    pos = end + 1;
  }
  if (q == std::string::npos) return r;
  std::string query = text.substr(q + 1);
  for (size_t pos = 0; pos <= query.size();) {
    size_t amp = query.find('&', pos);
    std::string pair = query.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
    size_t eq = pair.find('=');
    if (eq != std::string::npos && pair.size() > eq + 2 && pair[eq + 1] == '{' && pair.back() == '}')
      r.query.emplace_back(pair.substr(0, eq), pair.substr(eq + 2, pair.size() - eq - 3));
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
  return r;
}

// `X-Trace-Id` binds `x_trace_id` unless `into=` names the parameter.
std::string header_param_name(const std::string& header) {
  std::string out;
  for (char c : header) out += c == '-' ? '_' : static_cast<char>(tolower(static_cast<unsigned char>(c)));
  return out;
}

Json dedupe(std::vector<Json> alternatives) {
  std::vector<Json> unique;
  for (Json& s : alternatives)
    if (std::find(unique.begin(), unique.end(), s) == unique.end()) unique.push_back(std::move(s));
  if (unique.size() == 1) return std::move(unique[0]);
  for (const Json& s : unique)
    if (s.empty()) return Json::object();  // one of them accepts anything
  return Json{{"anyOf", std::move(unique)}};
}

class Generator {
 public:
  Generator(const checker::TypedProgram& program, const frontend::ModuleGraph& graph,
            const frontend::SourceManager& sources)
      : program_(program), graph_(graph), sources_(sources), schemas_(program, graph, sources) {}

  std::string run(const Options& options) {
    find_server_and_auth();
    std::vector<frontend::ModuleId> modules = graph_.init_order;
    size_t route_modules = 0;
    for (frontend::ModuleId m : modules) {
      const frontend::Ast& ast = graph_.get(m).ast;
      if (std::any_of(ast.fns.begin(), ast.fns.end(), [](const FnDecl& f) { return f.name && route_of(f); }))
        ++route_modules;
    }
    tag_by_module_ = route_modules > 1;
    Json paths = Json::object();
    for (frontend::ModuleId m : modules) {
      const frontend::Ast& ast = graph_.get(m).ast;
      for (uint32_t i = 0; i < ast.fns.size(); ++i) {
        const FnDecl& fn = ast.fns[i];
        const Decorator* route = fn.name ? route_of(fn) : nullptr;
        const checker::FnInfo* info = fn_info(m, i);
        if (!route || !info) continue;
        if (info->owner.valid()) continue;
        Route r = parse_route(route_text(ast, sources_, *route));
        if (r.path.empty() || r.path[0] != '/') continue;
        std::string method(route->name.text);
        Json& item = paths[r.path];
        if (item.contains(method)) continue;  // a duplicate route (a checker error)
        item[method] = operation(m, fn, *info, r);
      }
    }

    Json doc = Json::object();
    doc["openapi"] = "3.1.0";
    Json info = Json::object();
    info["title"] = title(options);
    info["version"] = version_;
    if (graph_.manifest && !graph_.manifest->description.empty()) info["description"] = graph_.manifest->description;
    doc["info"] = std::move(info);
    doc["paths"] = std::move(paths);
    Json components = Json::object();
    Json schemas = schemas_.components();
    if (!schemas.empty()) components["schemas"] = std::move(schemas);
    if (uses_auth_)
      components["securitySchemes"] =
          Json{{"bearerAuth", Json{{"type", "http"}, {"scheme", "bearer"}, {"bearerFormat", "JWT"}}}};
    if (!components.empty()) doc["components"] = std::move(components);
    // Invalid UTF-8 can only come from comments and literals; replace it rather than fail.
    return doc.dump(options.indent > 0 ? options.indent : -1, ' ', false, Json::error_handler_t::replace);
  }

 private:
  std::string title(const Options& options) const {
    if (!options.title.empty()) return options.title;
    if (graph_.manifest && !graph_.manifest->name.empty()) return graph_.manifest->name;
    if (!graph_.roots.empty()) {
      std::string stem = graph_.get(graph_.roots.front()).path.stem().string();
      if (!stem.empty()) return stem;
    }
    return "Fitz API";
  }

  void find_server_and_auth() {
    for (frontend::ModuleId m : graph_.init_order) {
      const frontend::Ast& ast = graph_.get(m).ast;
      for (uint32_t i = 0; i < ast.fns.size(); ++i) {
        const FnDecl& fn = ast.fns[i];
        if (const Decorator* server = checker::find_decorator(fn.decorators, checker::DecoratorKind::Server))
          if (auto v = string_arg(ast, *server, "api_version")) version_ = *v;
        if (checker::find_decorator(fn.decorators, checker::DecoratorKind::AuthProvider) && fn_info(m, i)) {
          // The provider returns the user (possibly in a Result, nullable or async).
          const checker::TypeStore& types = *program_.types;
          TypeId t = fn_info(m, i)->return_type;
          for (int depth = 0; t.valid() && depth < 4; ++depth) {
            TypeKind k = types.kind(t);
            if (k == TypeKind::Result) t = types.ok(t);
            else if (k == TypeKind::Nullable) t = types.inner(t);
            else if (k == TypeKind::Future) t = types.args(t)[0];
            else break;
          }
          if (t.valid()) user_struct_ = types.struct_of(t);
        }
      }
    }
  }

  // The checker's facts on a function, when it got that far.
  const checker::FnInfo* fn_info(frontend::ModuleId m, uint32_t fn) const {
    if (m.index >= program_.modules.size() || fn >= program_.modules[m.index].fns.size()) return nullptr;
    return &program_.modules[m.index].fns[fn];
  }

  const FnDecl* fn_named(const frontend::Ast& ast, std::string_view name) const {
    for (const FnDecl& f : ast.fns)
      if (f.name && f.name->text == name) return &f;
    return nullptr;
  }

  Json operation(frontend::ModuleId m, const FnDecl& fn, const checker::FnInfo& info, const Route& route) {
    const frontend::Ast& ast = graph_.get(m).ast;
    const checker::TypeStore& types = *program_.types;
    Json op = Json::object();
    // Function names repeat across modules; operation ids may not.
    std::string id(fn.name->text);
    const std::string qualified = graph_.get(m).name + "_" + id;
    for (int n = 1; !operation_ids_.insert(id).second; ++n)
      id = n == 1 ? qualified : qualified + "_" + std::to_string(n);
    op["operationId"] = id;
    if (const frontend::SourceFile* file = sources_.find(ast.file)) {
      uint32_t begin = fn.span.begin;
      for (const Decorator& d : fn.decorators) begin = std::min(begin, d.span.begin);
      std::string doc = comment_before(*file, begin);
      if (!doc.empty()) {
        size_t nl = doc.find('\n');
        op["summary"] = doc.substr(0, nl);
        if (nl != std::string::npos) op["description"] = doc.substr(nl + 1);
      }
    }
    if (tag_by_module_) op["tags"] = Json::array({graph_.get(m).name});

    bool authenticated = checker::find_decorator(fn.decorators, checker::DecoratorKind::Authenticated) != nullptr;
    bool roles = checker::find_decorator(fn.decorators, checker::DecoratorKind::Admin) != nullptr || checker::find_decorator(fn.decorators, checker::DecoratorKind::Requires) != nullptr;
    if (authenticated || roles) {
      op["security"] = Json::array({Json{{"bearerAuth", Json::array()}}});
      uses_auth_ = true;
    }

    // Binding order: path, query, headers; the one parameter left is the body.
    auto param_of = [&](const std::string& name) -> const checker::ParamInfo* {
      for (const checker::ParamInfo& p : info.params)
        if (p.name == name) return &p;
      return nullptr;
    };
    std::set<std::string> bound;
    Json params = Json::array();
    auto scalar = [&](const checker::ParamInfo* p) {
      if (!p || !p->type.valid() || types.is_dynamic(p->type)) return Json{{"type", "string"}};
      return schemas_.of_type(types.non_null(p->type));
    };
    for (const std::string& name : route.path_params) {
      if (!bound.insert(name).second) continue;
      params.push_back(Json{{"name", name}, {"in", "path"}, {"required", true}, {"schema", scalar(param_of(name))}});
    }
    for (const auto& [key, name] : route.query) {
      const checker::ParamInfo* p = param_of(name);
      bound.insert(name);
      bool optional = p && (p->has_default || (p->type.valid() && types.kind(p->type) == TypeKind::Nullable));
      Json q{{"name", key}, {"in", "query"}, {"required", !optional}, {"schema", scalar(p)}};
      if (p && p->has_default)
        for (const frontend::Param& decl : fn.params)
          if (decl.name.text == name)
            if (std::optional<Json> v = literal_value(ast, decl.default_value)) q["schema"]["default"] = *v;
      params.push_back(std::move(q));
    }
    for (const Decorator& d : fn.decorators) {
      if (!checker::is_decorator(d, checker::DecoratorKind::Header)) continue;
      std::optional<std::string> header = string_arg(ast, d, "name");
      if (!header) continue;
      std::string name = string_arg(ast, d, "into").value_or(header_param_name(*header));
      const checker::ParamInfo* p = param_of(name);
      bound.insert(name);
      bool optional = p && p->type.valid() && types.kind(p->type) == TypeKind::Nullable;
      params.push_back(
          Json{{"name", *header}, {"in", "header"}, {"required", !optional}, {"schema", Json{{"type", "string"}}}});
    }
    bool has_params = !params.empty();
    if (has_params) op["parameters"] = std::move(params);

    const checker::ParamInfo* body = nullptr;
    for (const checker::ParamInfo& p : info.params) {
      if (bound.count(p.name)) continue;
      checker::StructId s = p.type.valid() ? types.struct_of(p.type) : checker::StructId();
      if (s.valid() && types.struct_info(s).builtin && types.struct_info(s).name == "Request") continue;
      if (s.valid() && s == user_struct_ && (authenticated || roles)) continue;
      body = &p;
      break;
    }
    if (body) {
      Json schema = body->type.valid() ? schemas_.of_type(body->type) : Json::object();
      Json content = Json::object();
      content["application/json"] = Json{{"schema", schema}};
      if (body->type.valid() && types.kind(body->type) == TypeKind::Map && types.value(body->type) == types.str())
        content["application/x-www-form-urlencoded"] = Json{{"schema", schema}};
      op["requestBody"] = Json{{"required", true}, {"content", std::move(content)}};
    }

    op["responses"] = responses(m, fn, info, has_params || body, body != nullptr, authenticated || roles, roles);
    return op;
  }

  Json responses(frontend::ModuleId m, const FnDecl& fn, const checker::FnInfo& info, bool has_input,
                 bool has_body, bool protected_route, bool roles) {
    const frontend::Ast& ast = graph_.get(m).ast;
    const checker::TypeStore& types = *program_.types;
    std::map<int64_t, std::vector<Json>> by_status;
    std::set<int64_t> no_content;
    auto error = [&](int64_t status) { by_status[status].push_back(schemas_.error_ref()); };

    Returns returns = collect_returns(ast, fn);
    // Before-middleware may stop the request with its own status.
    for (const Decorator& d : fn.decorators) {
      if (!checker::is_decorator(d, checker::DecoratorKind::Middleware) || d.args.empty()) continue;
      auto* name = std::get_if<frontend::NameRef>(&ast.get(d.args[0].value).data);
      const FnDecl* mw = name ? fn_named(ast, name->name.text) : nullptr;
      if (!mw) continue;
      for (auto& s : collect_returns(ast, *mw).statuses) returns.statuses.push_back(s);
    }

    TypeId rt = info.return_type;
    if (rt.valid() && types.kind(rt) == TypeKind::Future) rt = types.args(rt)[0];
    bool is_result = rt.valid() && types.kind(rt) == TypeKind::Result;
    if (returns.plain && !(rt.valid() && types.kind(rt) == TypeKind::Never)) {
      checker::StructId s = rt.valid() ? types.struct_of(rt) : checker::StructId();
      if (s.valid() && types.struct_info(s).builtin && types.struct_info(s).name == "Response") {
        no_content.insert(200);
        by_status[200];
      } else if (is_result) {
        by_status[200].push_back(schemas_.of_type(types.ok(rt)));
      } else if (rt.valid() && types.kind(rt) == TypeKind::Map && !returns.values.empty() &&
                 std::all_of(returns.values.begin(), returns.values.end(), [&](frontend::ExprId e) {
                   return std::holds_alternative<frontend::MapExpr>(ast.get(e).data);
                 })) {
        for (frontend::ExprId e : returns.values) by_status[200].push_back(schemas_.of_expr(m, e));
      } else {
        by_status[200].push_back(schemas_.of_type(rt));
      }
    }
    for (const auto& [status, body] : returns.statuses) {
      if (status < 100 || status > 599) continue;
      by_status[status].push_back(schemas_.of_expr(m, body));
    }
    if (has_input) error(400);
    if (has_body) {
      error(413);
      error(415);
    }
    if (protected_route) error(401);
    if (roles) error(403);
    if (checker::find_decorator(fn.decorators, checker::DecoratorKind::FlagFn)) error(404);
    if (is_result) error(500);

    Json out = Json::object();
    for (auto& [status, schemas] : by_status) {
      Json r{{"description", reason_phrase(static_cast<int>(status))}};
      bool empty_body = status == 204 || status == 304 || (status >= 100 && status < 200);
      if (!schemas.empty() && !empty_body && !no_content.count(status))
        r["content"] = Json{{"application/json", Json{{"schema", dedupe(std::move(schemas))}}}};
      out[std::to_string(status)] = std::move(r);
    }
    if (out.empty()) out["default"] = Json{{"description", "Response"}};
    return out;
  }

  const checker::TypedProgram& program_;
  const frontend::ModuleGraph& graph_;
  const frontend::SourceManager& sources_;
  Schemas schemas_;
  std::string version_ = "0.1.0";
  checker::StructId user_struct_;
  bool uses_auth_ = false;
  bool tag_by_module_ = false;
  std::set<std::string> operation_ids_;
};

}  // namespace

std::string generate(const checker::TypedProgram& program, const frontend::ModuleGraph& graph,
                     const frontend::SourceManager& sources, const Options& options) {
  return Generator(program, graph, sources).run(options);
}

}  // namespace fitz::openapi

namespace fitz::openapi::detail {

std::string reason_phrase(int status) {
  switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 303: return "See Other";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 308: return "Permanent Redirect";
    case 400: return "Bad Request: a parameter or the body does not match its type";
    case 401: return "Unauthorized: a valid bearer token is required";
    case 403: return "Forbidden: the token lacks the required role";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Content";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
  }
  return "Status " + std::to_string(status);
}

}  // namespace fitz::openapi::detail
