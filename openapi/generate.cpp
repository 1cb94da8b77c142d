// The OpenAPI document: info from the manifest and `@server`, one operation per route of the
// service model (parameters, request body, responses, security), components for the types
// they use. Everything about routes is the checker's (checker/service_model.h).
#include <algorithm>
#include <set>

#include "openapi/internal.h"
#include "openapi/openapi.h"

namespace fitz::openapi {

namespace {

using namespace detail;
using checker::TypeKind;

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
    const checker::ServiceModel& model = program_.service;
    version_ = model.api_version();
    std::set<uint32_t> route_modules;
    for (const checker::Route& r : model.routes) route_modules.insert(r.handler.module.index);
    tag_by_module_ = route_modules.size() > 1;
    Json paths = Json::object();
    for (const checker::Route& route : model.routes) {
      const checker::Route* r = &route;
      const checker::FnInfo* info = fn_info(r->handler);
      if (!info || r->tmpl.path.empty() || r->tmpl.path[0] != '/') continue;
      std::string method(checker::http_method_name(r->method));
      Json& item = paths[r->tmpl.path];
      if (item.contains(method)) continue;  // a duplicate route (a checker error)
      item[method] = operation(*r, *info);
    }

    Json doc = Json::object();
    doc["openapi"] = "3.1.0";
    Json info = Json::object();
    info["title"] = title(options);
    info["version"] = version_;
    if (graph_.manifest && !graph_.manifest->description.empty()) info["description"] = graph_.manifest->description;
    if (graph_.manifest && !graph_.manifest->license.empty()) info["license"] = license_of(graph_.manifest->license);
    doc["info"] = std::move(info);
    doc["servers"] = Json::array({server_of(model)});
    if (tag_by_module_) {
      Json tags = Json::array();
      for (const std::string& name : tags_)
        tags.push_back(Json{{"name", name}, {"description", "The routes of module `" + name + "`."}});
      doc["tags"] = std::move(tags);
    }
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

  // "list_users" -> "List users": the summary of a handler without a doc comment.
  static std::string humanize(std::string name) {
    for (char& c : name)
      if (c == '_') c = ' ';
    size_t first = name.find_first_not_of(' ');
    if (first == std::string::npos) return "Handler";
    name.erase(0, first);
    name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
    return name;
  }

  // The checker's facts on a function, when it got that far.
  const checker::FnInfo* fn_info(checker::FnRef f) const {
    if (f.module.index >= program_.modules.size() || f.fn.index >= program_.modules[f.module.index].fns.size())
      return nullptr;
    return &program_.modules[f.module.index].fns[f.fn.index];
  }

  Json operation(const checker::Route& route, const checker::FnInfo& info) {
    frontend::ModuleId m = route.handler.module;
    const frontend::Ast& ast = graph_.get(m).ast;
    const checker::TypeStore& types = *program_.types;
    Json op = Json::object();
    // Function names repeat across modules; operation ids may not.
    const std::string name = info.symbol.valid() ? program_.symbol(info.symbol).name : std::string("handler");
    std::string id = name;
    const std::string qualified = graph_.get(m).name + "_" + id;
    for (int n = 1; !operation_ids_.insert(id).second; ++n)
      id = n == 1 ? qualified : qualified + "_" + std::to_string(n);
    op["operationId"] = id;
    size_t nl = route.doc.find('\n');
    std::string summary = route.doc.substr(0, nl);
    op["summary"] = summary.find_first_not_of(" \t") == std::string::npos ? humanize(name) : summary;
    if (nl != std::string::npos) op["description"] = route.doc.substr(nl + 1);
    if (tag_by_module_) {
      op["tags"] = Json::array({graph_.get(m).name});
      if (std::find(tags_.begin(), tags_.end(), graph_.get(m).name) == tags_.end()) tags_.push_back(graph_.get(m).name);
    }

    // An unguarded route says so with an empty requirement list: anyone may call it.
    const checker::Guard& guard = route.guard;
    bool roles = guard.admin || !guard.roles.empty();
    if (guard.guarded) {
      op["security"] = Json::array({Json{{"bearerAuth", Json::array()}}});
      uses_auth_ = true;
    } else {
      op["security"] = Json::array();
    }

    // Parameters in binding order: path, query, headers, cookies; then the body.
    Json params = Json::array();
    auto scalar = [&](TypeId t) {
      if (!t.valid() || types.is_dynamic(t)) return Json{{"type", "string"}};
      return schemas_.of_type(types.non_null(t));
    };
    auto name_of = [&](const checker::ParamBinding& b) { return info.params[b.param].name; };
    std::vector<const checker::ParamBinding*> path, query, headers, cookies;
    const checker::ParamBinding* body = nullptr;
    for (const checker::ParamBinding& b : route.params) {
      switch (b.kind) {
        case checker::BindingKind::Path: path.push_back(&b); break;
        case checker::BindingKind::Query: query.push_back(&b); break;
        case checker::BindingKind::Header: headers.push_back(&b); break;
        case checker::BindingKind::Cookie: cookies.push_back(&b); break;
        case checker::BindingKind::Body:
        case checker::BindingKind::Form: body = &b; break;
        default: break;
      }
    }
    std::sort(path.begin(), path.end(), [](auto* a, auto* b) { return a->path_index < b->path_index; });
    for (const auto* b : path)
      params.push_back(Json{{"name", name_of(*b)}, {"in", "path"}, {"required", true}, {"schema", scalar(b->type)}});
    // Query parameters in template order.
    for (const checker::RouteTemplate::Query& q : route.tmpl.query) {
      auto it = std::find_if(query.begin(), query.end(), [&](auto* b) { return name_of(*b) == q.param; });
      if (it == query.end()) continue;
      const checker::ParamBinding& b = **it;
      bool optional = b.has_default || (b.type.valid() && types.kind(b.type) == TypeKind::Nullable);
      Json p{{"name", b.key}, {"in", "query"}, {"required", !optional}, {"schema", scalar(b.type)}};
      if (b.has_default)
        if (std::optional<Json> v = literal_value(ast, b.default_value)) p["schema"]["default"] = *v;
      params.push_back(std::move(p));
    }
    for (const auto* b : headers) {
      bool optional = b->type.valid() && types.kind(b->type) == TypeKind::Nullable;
      params.push_back(
          Json{{"name", b->key}, {"in", "header"}, {"required", !optional}, {"schema", Json{{"type", "string"}}}});
    }
    for (const auto* b : cookies) {
      Json p{{"name", b->key}, {"in", "cookie"}, {"required", !b->optional}, {"schema", Json{{"type", "string"}}}};
      if (b->signed_cookie) p["description"] = "Signed with the server's key (`set_cookie(..., signed: true)`); a missing, unsigned or forged value reads as null.";
      params.push_back(std::move(p));
    }
    bool has_params = !params.empty();
    if (has_params) op["parameters"] = std::move(params);

    if (body) {
      Json schema = body->type.valid() ? schemas_.of_type(body->type) : Json::object();
      Json content = Json::object();
      content["application/json"] = Json{{"schema", schema}};
      if (body->type.valid() && types.kind(body->type) == TypeKind::Map && types.value(body->type) == types.str())
        content["application/x-www-form-urlencoded"] = Json{{"schema", schema}};
      op["requestBody"] = Json{{"required", true}, {"content", std::move(content)}};
    }

    op["responses"] = responses(route, info, has_params || body, body != nullptr, guard.guarded, roles);
    return op;
  }

  Json responses(const checker::Route& route, const checker::FnInfo& info, bool has_input, bool has_body,
                 bool protected_route, bool roles) {
    frontend::ModuleId m = route.handler.module;
    const frontend::Ast& ast = graph_.get(m).ast;
    const checker::TypeStore& types = *program_.types;
    std::map<int64_t, std::vector<Json>> by_status;
    std::set<int64_t> no_content;
    auto error = [&](int64_t status) { by_status[status].push_back(schemas_.error_ref()); };

    TypeId rt = info.return_type;
    if (rt.valid() && types.kind(rt) == TypeKind::Future) rt = types.args(rt)[0];
    bool is_result = rt.valid() && types.kind(rt) == TypeKind::Result;
    if (route.plain_return && !(rt.valid() && types.kind(rt) == TypeKind::Never)) {
      checker::StructId s = rt.valid() ? types.struct_of(rt) : checker::StructId();
      if (s.valid() && types.struct_info(s).builtin && types.struct_info(s).name == "Response") {
        no_content.insert(200);
        by_status[200];
      } else if (is_result) {
        by_status[200].push_back(schemas_.of_type(types.ok(rt)));
      } else if (rt.valid() && types.kind(rt) == TypeKind::Map && !route.return_values.empty() &&
                 std::all_of(route.return_values.begin(), route.return_values.end(), [&](frontend::ExprId e) {
                   return std::holds_alternative<frontend::MapExpr>(ast.get(e).data);
                 })) {
        for (frontend::ExprId e : route.return_values) by_status[200].push_back(schemas_.of_expr(m, e));
      } else {
        by_status[200].push_back(schemas_.of_type(rt));
      }
    }
    for (const checker::StatusReturn& s : route.statuses) {
      if (s.status < 100 || s.status > 599) continue;
      by_status[s.status].push_back(schemas_.of_expr(s.module, s.body_expr));
    }
    if (has_input) error(400);
    if (has_body) {
      error(413);
      error(415);
    }
    if (protected_route) error(401);
    if (roles) error(403);
    if (!route.feature_flag.empty()) error(404);
    if (is_result) error(500);
    if (route.uses_database) error(503);

    Json out = Json::object();
    for (auto& [status, schemas] : by_status) {
      Json r{{"description", reason_phrase(static_cast<int>(status))}};
      bool empty_body = status == 204 || status == 304 || (status >= 100 && status < 200);
      if (status == 200 && route.returns_html && !empty_body)
        r["content"] = Json{{"text/html", Json{{"schema", Json{{"type", "string"}}}}}};
      else if (!schemas.empty() && !empty_body && !no_content.count(status))
        r["content"] = Json{{"application/json", Json{{"schema", dedupe(std::move(schemas))}}}};
      if (status == 503 && route.uses_database) r["description"] = "Service Unavailable: the database cannot be reached";
      out[std::to_string(status)] = std::move(r);
    }
    // `@server(login_path=)`: a browser without credentials is redirected instead of the 401.
    const auto& server = program_.service.server;
    if (protected_route && route.may_answer_html && server && !server->login_path.empty())
      out["302"] = Json{{"description", "Found: a request whose Accept prefers text/html, without credentials, is sent to "
                                        "the login page"},
                        {"headers", Json{{"Location", Json{{"description", server->login_path + "?next=<the requested path and query>"},
                                                           {"schema", Json{{"type", "string"}}}}}}}};
    // Anything else (a runtime error, a status computed at run time) carries the same error body.
    out["default"] = Json{{"description", "Unexpected error"},
                          {"content", Json{{"application/json", Json{{"schema", schemas_.error_ref()}}}}}};
    return out;
  }

  const checker::TypedProgram& program_;
  const frontend::ModuleGraph& graph_;
  const frontend::SourceManager& sources_;
  Schemas schemas_;
  std::string version_ = "0.1.0";
  bool uses_auth_ = false;
  bool tag_by_module_ = false;
  std::set<std::string> operation_ids_;
  std::vector<std::string> tags_;  // module tags in order of first use
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
