// `fitz check --dump=services`: a stable text form of the service model (service_model.h), for
// golden tests: one block per route, then the provider, server, health checks and the
// middleware functions (the HTTP half, here), then the tasks half's sections
// (service_dump_tasks.cpp). Positions are line:col in the declaring file.
#include <fmt/format.h>

#include "checker/service_build.h"
#include "checker/service_dump.h"

namespace fitz::checker {

namespace {

class Dumper {
 public:
  Dumper(const TypedProgram& p, const frontend::ModuleGraph& g, const frontend::SourceManager& s)
      : prog_(p), graph_(g), sources_(s) {}

  std::string run() {
    const ServiceModel& m = prog_.service;
    for (const Route& r : m.routes) route(r);
    if (m.auth) {
      const char* roles = m.auth->roles == AuthProvider::RoleSource::UserField ? "user_field"
                          : m.auth->roles == AuthProvider::RoleSource::Claims  ? "claims"
                                                                               : "none";
      out_ += fmt::format("auth {} user={} roles={}{}{}\n", fn(m.auth->fn), show(m.auth->user), roles,
                          m.auth->async ? " async" : "", m.auth->headers_any ? " headers=any" : "");
    }
    if (m.server) {
      out_ += fmt::format("server {}\n", fn(m.server->fn));
      for (const ServerSettings::Setting& s : m.server->settings)
        out_ += fmt::format("  {} = {}{}\n", s.key, s.literal ? "\"" + *s.literal + "\"" : source(s.value, m.server->fn.module),
                            s.key == "max_body_bytes" && s.int_literal ? fmt::format(" ({} bytes)", *s.int_literal) : "");
    }
    for (const HealthCheck& h : m.health) out_ += fmt::format("{} {}\n", h.ready ? "readyz" : "healthz", fn(h.fn));
    for (const LiveRoute& l : m.live)
      out_ += fmt::format("live {} {} -> {}{}{}{}\n", l.path, fn(l.fn), l.component.empty() ? "?" : l.component,
                          l.title.empty() ? "" : fmt::format(" title=\"{}\"", l.title),
                          l.layout.empty() ? "" : " layout=" + l.layout, l.guarded ? " guarded" : "");
    for (const FnRef& f : m.middleware_fns) out_ += fmt::format("middleware_fn {}\n", fn(f));
    return out_;
  }

 private:
  void route(const Route& r) {
    std::string method(http_method_name(r.method));
    for (char& c : method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    out_ += fmt::format("route {} {} -> {}{}{} @{}\n", method, r.tmpl.text, fn(r.handler), r.async ? " async" : "",
                        r.python ? " python" : "", pos(r.at));
    out_ += fmt::format("  path {}\n", r.tmpl.path);
    const FnInfo& info = prog_.modules[r.handler.module.index].fns[r.handler.fn.index];
    for (const ParamBinding& b : r.params) {
      std::string name = b.param < info.params.size() ? info.params[b.param].name : "?";
      out_ += fmt::format("  param {}: {} {}", name, binding_kind_name(b.kind), show(b.type));
      if (b.kind == BindingKind::Path) out_ += fmt::format(" index={}", b.path_index);
      if (!b.key.empty()) out_ += fmt::format(" key=\"{}\"", b.key);
      if (b.optional) out_ += " optional";
      if (b.signed_cookie) out_ += " signed";
      if (b.has_default) out_ += fmt::format(" default={}", source(b.default_value, r.handler.module));
      out_ += "\n";
    }
    if (r.guard.guarded) {
      out_ += "  guard";
      if (r.guard.admin) out_ += " admin";
      for (const std::string& role : r.guard.roles) out_ += fmt::format(" role=\"{}\"", role);
      if (r.guard.user_param >= 0) out_ += fmt::format(" user_param={}", r.guard.user_param);
      out_ += "\n";
    }
    for (const MiddlewareUse& mw : r.middleware) {
      out_ += fmt::format("  middleware {}", middleware_kind_name(mw.kind));
      if (mw.kind == MiddlewareUse::Kind::Cors)
        out_ += mw.cors_options.valid() ? " " + source(mw.cors_options, r.handler.module) : " defaults";
      else
        out_ += " " + fn(mw.fn);
      out_ += "\n";
    }
    if (!r.feature_flag.empty()) out_ += fmt::format("  flag \"{}\"\n", r.feature_flag);
    if (r.max_body_bytes) out_ += fmt::format("  body_limit {}\n", *r.max_body_bytes);
    for (const StatusReturn& s : r.statuses) out_ += fmt::format("  status {} {}\n", s.status, show(s.body));
    if (r.plain_return) out_ += fmt::format("  plain_return values={}\n", r.return_values.size());
    if (r.returns_html) out_ += "  returns_html\n";
    if (r.may_answer_html) out_ += "  may_answer_html\n";
    if (r.uses_database) out_ += "  uses_database\n";
    if (!r.doc.empty()) {
      std::string doc = r.doc;
      for (size_t i = 0; (i = doc.find('\n', i)) != std::string::npos;) doc.replace(i, 1, "\\n");
      out_ += fmt::format("  doc \"{}\"\n", doc);
    }
  }

  std::string fn(FnRef f) const {
    const FnInfo& info = prog_.modules[f.module.index].fns[f.fn.index];
    std::string name = info.symbol.valid() ? prog_.symbol(info.symbol).name : "?";
    return graph_.get(f.module).name + "." + name;
  }
  std::string show(TypeId t) const { return t.valid() ? prog_.types->display(t) : "-"; }
  std::string pos(frontend::Span s) const {
    const frontend::SourceFile* f = sources_.find(s.file);
    if (!f) return "?";
    frontend::LineCol lc = f->line_col(s.begin);
    return fmt::format("{}:{}", lc.line, lc.col);
  }
  std::string source(frontend::ExprId e, ModuleId m) const {
    if (!e.valid()) return "-";
    frontend::Span s = graph_.get(m).ast.get(e).span;
    const frontend::SourceFile* f = sources_.find(s.file);
    return f ? std::string(f->slice(s)) : "?";
  }

  const TypedProgram& prog_;
  const frontend::ModuleGraph& graph_;
  const frontend::SourceManager& sources_;
  std::string out_;
};

}  // namespace

std::string dump_services(const TypedProgram& program, const frontend::ModuleGraph& graph,
                          const frontend::SourceManager& sources) {
  return Dumper(program, graph, sources).run() + detail::dump_task_services(program, graph, sources);
}

}  // namespace fitz::checker
