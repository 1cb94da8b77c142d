// The tasks half of `fitz check --dump=services`: WebSocket endpoints, cron and background jobs,
// the spawn targets the checker resolved, and commands, one line per item (parameters indented
// below their command). Expressions evaluated at run time are shown as written.
#include <fmt/format.h>

#include "checker/service_dump.h"

namespace fitz::checker::detail {

namespace {

struct Dump {
  const TypedProgram& prog;
  const frontend::ModuleGraph& graph;
  const frontend::SourceManager& sources;
  std::string out;

  std::string fn(FnRef f) const {
    const frontend::FnDecl& d = graph.get(f.module).ast.get(f.fn);
    return fmt::format("{}.{}", graph.get(f.module).name, d.name ? d.name->text : std::string_view("?"));
  }
  std::string type(TypeId t) const { return t.valid() ? prog.types->display(t) : std::string("?"); }
  std::string at(Span s) const {
    if (!s.file.valid()) return "?";
    frontend::LineCol lc = sources.file(s.file).line_col(s.begin);
    return fmt::format("{}:{}", lc.line, lc.col);
  }
  // An expression of module `m` as written, or `-` when absent.
  std::string source(ModuleId m, ExprId e) const {
    if (!e.valid()) return "-";
    Span s = graph.get(m).ast.get(e).span;
    return std::string(sources.file(s.file).slice(s));
  }
  std::string retry(ModuleId m, const JobRetry& r) const {
    if (r.value.valid()) return "at run time " + source(m, r.value);
    if (!r.policy) return "none";
    const RetryPolicy& p = *r.policy;
    const char* backoff = p.backoff == RetryPolicy::Backoff::Exponential ? "exponential"
                          : p.backoff == RetryPolicy::Backoff::Linear    ? "linear"
                                                                         : "constant";
    return fmt::format("max={} backoff={} initial_secs={} max_secs={}", p.max, backoff, p.initial_secs, p.max_secs);
  }
  std::string guard(const Guard& g) const {
    if (!g.guarded) return "none";
    std::string s = g.admin ? "admin" : "authenticated";
    for (const std::string& r : g.roles) s += " role=" + r;
    if (g.user_param >= 0) s += fmt::format(" user_param={}", g.user_param);
    return s;
  }
};

}  // namespace

std::string dump_task_services(const TypedProgram& program, const frontend::ModuleGraph& graph,
                               const frontend::SourceManager& sources) {
  Dump d{program, graph, sources, {}};
  const ServiceModel& sm = program.service;
  d.out += fmt::format("ws ({})\n", sm.ws.size());
  for (const WsEndpoint& e : sm.ws) {
    d.out += fmt::format("  {} {} at {}: in {}, out {}{}{}, guard {}\n", e.path, d.fn(e.handler), d.at(e.at), d.type(e.in),
                         d.type(e.out), e.bytes ? ", bytes" : "", e.async ? ", async" : "", d.guard(e.guard));
    for (const MiddlewareUse& m : e.middleware) d.out += fmt::format("    before {}\n", d.fn(m.fn));
  }
  d.out += fmt::format("cron ({})\n", sm.cron.size());
  for (const CronJob& j : sm.cron)
    d.out += fmt::format("  {} at {}: {}{}, tz {}, retry {}, catch_up {}, store {}\n", d.fn(j.fn), d.at(j.at),
                         j.every_ms ? fmt::format("every {} ms", j.every_ms) : "\"" + j.expr + "\"",
                         j.async ? ", async" : "", d.source(j.fn.module, j.tz), d.retry(j.fn.module, j.retry),
                         d.source(j.fn.module, j.catch_up), d.source(j.fn.module, j.store));
  d.out += fmt::format("background ({})\n", sm.background.size());
  for (const BackgroundJob& j : sm.background)
    d.out += fmt::format("  {} at {}: retry {}, store {}\n", d.fn(j.fn), d.at(j.at), d.retry(j.fn.module, j.retry),
                         d.source(j.fn.module, j.store));
  size_t spawns = 0;
  for (const ModuleTir& m : program.modules) spawns += m.spawn_targets.size();
  d.out += fmt::format("spawn ({})\n", spawns);
  for (ModuleId m : graph.init_order)
    for (const SpawnTarget& s : program.modules[m.index].spawn_targets)
      d.out += fmt::format("  {}:{} -> {}\n", graph.get(m).name, d.at(graph.get(m).ast.get(s.spawn).span), d.fn(s.fn));
  d.out += fmt::format("command ({})\n", sm.commands.size());
  for (const Command& c : sm.commands) {
    const char* exit = c.exit == Command::Exit::Int         ? "the Int"
                       : c.exit == Command::Exit::Result    ? "1 on Err"
                       : c.exit == Command::Exit::ResultInt ? "the Ok Int, 1 on Err"
                                                            : "0";
    d.out += fmt::format("  {} {} at {}: desc \"{}\", exit {}{}\n", c.name, d.fn(c.fn), d.at(c.at), c.desc, exit,
                         c.async ? ", async" : "");
    for (const CommandParam& p : c.params) {
      std::string form = p.variadic ? "rest" : p.has_default ? "flag" : "positional";
      d.out += fmt::format("    {} {}: {}{}", form, p.name, d.type(p.type), p.nullable ? "?" : "");
      if (p.has_default) d.out += fmt::format(" = {}", p.default_text);
      if (p.short_name) d.out += fmt::format(", short -{}", p.short_name);
      if (!p.help.empty()) d.out += fmt::format(", help \"{}\"", p.help);
      d.out += "\n";
    }
  }
  return d.out;
}

}  // namespace fitz::checker::detail
