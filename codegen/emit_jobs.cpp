// Jobs: `@cron` functions become fitz::jobs::CronJob entries of a JobRunner that main() starts
// after the top-level code (beside the HTTP server, or alone until SIGINT/SIGTERM);
// `@background` functions get a BackgroundJob descriptor, and `spawn(f(args))` evaluates the
// arguments and hands the call to fitz::jobs::spawn. See runtime/jobs/README.md.
#include <fmt/format.h>

#include "checker/decorators.h"
#include "codegen/cpp_literal.h"
#include "codegen/gen.h"

namespace fitz::codegen {

namespace {


}  // namespace

void Gen::collect_jobs() {
  for (ModuleId m : graph_.init_order) {
    const Ast& ast = graph_.get(m).ast;
    for (StmtId s : ast.top_level) {
      auto* f = std::get_if<FnStmt>(&ast.get(s).data);
      if (!f) continue;
      const FnDecl& d = ast.get(f->fn);
      if (const Decorator* c = checker::find_decorator(d.decorators, checker::DecoratorKind::Cron)) jobs_.cron.push_back(JobFn{m, f->fn, c});
      if (const Decorator* b = checker::find_decorator(d.decorators, checker::DecoratorKind::Background)) jobs_.background.push_back(JobFn{m, f->fn, b});
    }
  }
  result_.jobs = !jobs_.cron.empty() || !jobs_.background.empty();
  // What the runtime cannot do yet is refused at build time rather than silently dropped.
  for (const JobFn& j : jobs_.background)
    for (const DecoratorArg& a : j.dec->args)
      if (a.name && a.name->text == "catch_up") {
        const SourceFile& file = sources_.file(a.name->span.file);
        LineCol at = file.line_col(a.name->span.begin);
        result_.not_compiled.push_back(fmt::format(
            "{}:{}:{}: error: `@background(catch_up=...)` is checked but not compiled by this version of fitz yet; "
            "the build stops because jobs left unfinished by a restart would not run again",
            file.path(), at.line, at.col));
      }
}

std::string Gen::job_arg(const JobFn& j, std::string_view key) {
  for (const DecoratorArg& a : j.dec->args) {
    if (!a.name || a.name->text != key) continue;
    TypeId t = tir_->type_of(a.value);
    std::string v = expr(a.value);
    return types_.kind(t) == TypeKind::Any ? v : "fitz::to_any(" + v + ")";
  }
  return "fitz::Any()";
}

void Gen::use_job_module(const JobFn& j) {
  mod_ = j.module;
  ast_ = &graph_.get(mod_).ast;
  tir_ = &prog_.modules[mod_.index];
}

void Gen::emit_job_decls() {
  if (jobs_.background.empty()) return;
  // Descriptors are built on first use, after the top-level code has set the globals that
  // retry= and store= may read.
  for (const JobFn& j : jobs_.background) {
    use_job_module(j);
    const FnInfo& info = tir_->fns[j.fn.index];
    if (!info.symbol.valid()) continue;
    FnCtx ctx;
    ctx.top_level = true;
    fn_ = &ctx;
    std::string name = prog_.symbol(info.symbol).name;
    line(fmt::format("namespace {} {{ static const fitz::jobs::BackgroundJob& bg_{}() {{", ns(mod_), name));
    line(fmt::format("  static const fitz::jobs::BackgroundJob job{{{}, {}, {}}};", cpp_quoted(name), job_arg(j, "retry"),
                     job_arg(j, "store")));
    line("  return job;");
    line("} }");
    fn_ = nullptr;
  }
  line("");
}

std::string Gen::spawn_call(ExprId id, const CallExpr& c) {
  Span at = ast_->get(id).span;
  auto refuse = [&](const char* why) {
    const SourceFile& file = sources_.file(at.file);
    LineCol lc = file.line_col(at.begin);
    result_.not_compiled.push_back(
        fmt::format("{}:{}:{}: error: {}", file.path(), lc.line, lc.col, why));
    return std::string("fitz::Task<fitz::Any>()");
  };
  if (c.args.size() != 1) return refuse("`spawn` takes one argument: a call to a `@background` function");
  ExprId arg = c.args[0].value;
  auto* inner = std::get_if<CallExpr>(&ast_->get(arg).data);
  const CallInfo* ci = inner ? tir_->call_of(arg) : nullptr;
  if (!ci || ci->kind != CallKind::Function)
    return refuse("`spawn` takes a direct call to a `@background` function, such as `spawn(send_email(to))`");
  const Symbol& s = prog_.symbol(ci->symbol);
  const Symbol& target = s.kind == SymbolKind::Import ? prog_.symbol(s.target) : s;
  const FnDecl& decl = graph_.get(target.module).ast.get(target.fn);
  if (!checker::find_decorator(decl.decorators, checker::DecoratorKind::Background))
    return refuse("`spawn` only runs `@background` functions; add `@background` to the function it calls");
  // The call's code is `fzN::f_name(args)`: the arguments (defaults filled, left-to-right order
  // kept) are evaluated now, the call itself runs later.
  std::string code = call(arg, *inner);
  std::string callee = fmt::format("{}::f_{}(", ns(target.module), target.name);
  if (code.rfind(callee, 0) != 0 || code.back() != ')') {
    result_.unsupported.push_back("a spawn call form");
    return "fitz::Task<fitz::Any>()";
  }
  std::string args = code.substr(callee.size(), code.size() - callee.size() - 1);
  std::string fn = fmt::format("{}::f_{}", ns(target.module), target.name);
  std::string job = fmt::format("&{}::bg_{}()", ns(target.module), target.name);
  if (args.empty()) return fmt::format("fitz::jobs::spawn({}, []() {{ return {}(); }})", job, fn);
  return fmt::format("fitz::jobs::spawn({}, [](auto... a) {{ return {}(a...); }}, {})", job, fn, args);
}

bool Gen::emit_jobs_main() {
  if (jobs_.cron.empty()) return false;
  if (has_http()) emit_http_serve();
  line("static void fitz_cron_jobs(fitz::jobs::JobRunner& runner) {");
  ++indent_;
  for (const JobFn& j : jobs_.cron) {
    use_job_module(j);
    const FnInfo& info = tir_->fns[j.fn.index];
    if (!info.symbol.valid()) continue;
    FnCtx ctx;
    ctx.top_level = true;
    fn_ = &ctx;
    std::string name = prog_.symbol(info.symbol).name;
    std::string expr_text, tz_text;
    if (!j.dec->args.empty() && !j.dec->args[0].name)
      if (auto* lit = std::get_if<StrLit>(&ast_->get(j.dec->args[0].value).data))
        for (const StrPart& p : lit->parts) expr_text += p.text;
    bool catch_up = false;
    std::string tz = "std::string()";
    for (const DecoratorArg& a : j.dec->args) {
      if (!a.name) continue;
      if (a.name->text == "tz") tz = "fitz::from_any<fitz::Str>(" + job_arg(j, "tz") + ").as<std::string>()";
      if (a.name->text == "catch_up")
        if (auto* b = std::get_if<BoolLit>(&ast_->get(a.value).data)) catch_up = b->value;
    }
    std::string call = fmt::format("{}::f_{}()", ns(mod_), name);
    if (info.is_async) call = "co_await " + call;
    line("{");
    ++indent_;
    line("fitz::jobs::CronJob job;");
    line(fmt::format("job.name = {};", cpp_quoted(name)));
    line(fmt::format("job.expr = {};", cpp_quoted(expr_text)));
    line(fmt::format("job.tz = {};", tz));
    line(fmt::format("job.retry = {};", job_arg(j, "retry")));
    line(fmt::format("job.catch_up = {};", catch_up ? "true" : "false"));
    line(fmt::format("job.store = {};", job_arg(j, "store")));
    line(fmt::format("job.run = []() -> fitz::Task<fitz::jobs::Outcome> {{ co_return fitz::jobs::outcome_of({}); }};", call));
    line("runner.add(std::move(job));");
    --indent_;
    line("}");
    fn_ = nullptr;
  }
  --indent_;
  line("}");
  line("");
  // Top-level code first; then the jobs beside the server, or alone until SIGINT/SIGTERM.
  line("int main(int argc, char** argv) {" + flag_defaults());
  line("  int rc = fitz::run_main(argc, argv, &fitz_program);");
  line("  if (rc != 0) return rc;");
  line("  fitz::jobs::JobRunner runner;");
  line("  fitz_cron_jobs(runner);");
  line("  runner.start();");
  line(has_http() ? "  rc = fitz_serve();" : "  rc = runner.run_until_signal();");
  line("  runner.stop();");
  line("  return rc;");
  line("}");
  return true;
}

}  // namespace fitz::codegen
