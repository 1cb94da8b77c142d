// Jobs: `@cron` and `@every` functions become fitz::jobs::CronJob entries of a JobRunner that main() starts
// after the top-level code (beside the HTTP server, or alone until SIGINT/SIGTERM);
// `@background` functions get a BackgroundJob descriptor, and `spawn(f(args))` evaluates the
// arguments and hands the call to fitz::jobs::spawn. Everything comes from the service model
// (prog_.service.cron / .background) and the checker's spawn targets. See runtime/jobs/README.md.
#include <fmt/format.h>

#include "codegen/cpp_literal.h"
#include "codegen/gen.h"

namespace fitz::codegen {

namespace {

std::string policy_code(const checker::RetryPolicy& p) {
  const char* backoff = p.backoff == checker::RetryPolicy::Backoff::Exponential ? "Exponential"
                        : p.backoff == checker::RetryPolicy::Backoff::Linear    ? "Linear"
                                                                                : "Constant";
  return fmt::format("fitz::jobs::RetryPolicy{{{}, fitz::jobs::Backoff::{}, {}, {}}}", p.max, backoff, p.initial_secs,
                     p.max_secs);
}

}  // namespace

void Gen::collect_jobs() {
  result_.jobs = !prog_.service.cron.empty() || !prog_.service.background.empty();
}

std::string Gen::job_value(ModuleId m, ExprId e) {
  if (!e.valid()) return "fitz::Any()";
  ModuleContext in_job(*this, m);
  TypeId t = tir_->type_of(e);
  std::string v = expr(e);
  return types_.kind(t) == TypeKind::Any ? v : "fitz::to_any(" + v + ")";
}

void Gen::emit_job_decls() {
  if (prog_.service.background.empty()) return;
  // Descriptors are built on first use, after the top-level code has set the globals that
  // a non-literal retry= and store= may read.
  for (const checker::BackgroundJob& j : prog_.service.background) {
    const FnInfo& info = prog_.modules[j.fn.module.index].fns[j.fn.fn.index];
    FnCtx ctx;
    ctx.top_level = true;
    fn_ = &ctx;
    line(fmt::format("namespace {} {{ static const fitz::jobs::BackgroundJob& bg_{}() {{", ns(j.fn.module),
                     fn_name(info)));
    line(fmt::format("  static const fitz::jobs::BackgroundJob job{{{}, {}, {}, {}}};", cpp_quoted(j.name),
                     job_value(j.fn.module, j.retry.value), job_value(j.fn.module, j.store),
                     j.retry.policy ? policy_code(*j.retry.policy) : "std::nullopt"));
    line("  return job;");
    line("} }");
    fn_ = nullptr;
  }
  line("");
}

std::string Gen::spawn_call(ExprId id, const CallExpr& c) {
  const checker::SpawnTarget* target = tir_->spawn_target_of(id);
  ExprId arg = c.args.size() == 1 ? c.args[0].value : ExprId();
  auto* inner = arg.valid() ? std::get_if<CallExpr>(&ast_->get(arg).data) : nullptr;
  const CallInfo* ci = inner ? tir_->call_of(arg) : nullptr;
  if (!target || !ci) {
    // check_jobs.cpp resolves every `spawn` of a program it accepts.
    result_.unsupported.push_back("a `spawn` whose target the checker did not resolve");
    return "fitz::Task<fitz::Any>()";
  }
  const FnInfo& info = prog_.modules[target->fn.module.index].fns[target->fn.fn.index];
  // The arguments (defaults filled, left-to-right order kept) are evaluated now; the call
  // itself runs later, inside the job.
  std::string args = user_call_args(*inner, *ci, target->fn.module, target->fn.fn, {}, nullptr);
  std::string fn = fmt::format("{}::{}", ns(target->fn.module), fn_name(info));
  std::string job = fmt::format("&{}::bg_{}()", ns(target->fn.module), fn_name(info));
  const Symbol& callee = prog_.symbol(info.symbol);
  if (args.empty()) return fmt::format("fitz::jobs::spawn({}, []() {{ return {}; }})", job, traced_call(callee, fn + "()"));
  return fmt::format("fitz::jobs::spawn({}, [](auto... a) {{ return {}; }}, {})", job,
                     traced_call(callee, fn + "(a...)"), args);
}

bool Gen::emit_jobs_main() {
  if (prog_.service.cron.empty()) return false;
  if (has_http()) emit_http_serve();
  line("static void fitz_cron_jobs(fitz::jobs::JobRunner& runner) {");
  ++indent_;
  for (const checker::CronJob& j : prog_.service.cron) {
    const FnInfo& info = prog_.modules[j.fn.module.index].fns[j.fn.fn.index];
    FnCtx ctx;
    ctx.top_level = true;
    fn_ = &ctx;
    std::string call = fmt::format("{}::{}()", ns(j.fn.module), fn_name(info));
    if (j.async) call = "co_await " + call;
    line("{");
    ++indent_;
    line("fitz::jobs::CronJob job;");
    line(fmt::format("job.name = {};", cpp_quoted(j.name)));
    if (j.every_ms) line(fmt::format("job.every_ms = {};", j.every_ms));
    else line(fmt::format("job.expr = {};", cpp_quoted(j.expr)));
    if (j.tz.valid()) line(fmt::format("job.tz = fitz::from_any<fitz::Str>({}).as<std::string>();", job_value(j.fn.module, j.tz)));
    if (j.retry.policy) line(fmt::format("job.policy = {};", policy_code(*j.retry.policy)));
    if (j.retry.value.valid()) line(fmt::format("job.retry = {};", job_value(j.fn.module, j.retry.value)));
    if (j.catch_up.valid()) {
      ModuleContext in_job(*this, j.fn.module);
      line(fmt::format("job.catch_up = {};", expr_as(j.catch_up, types_.bool_())));
    }
    if (j.store.valid()) line(fmt::format("job.store = {};", job_value(j.fn.module, j.store)));
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
  std::string migrate = emit_migrate_entry();
  line("int main(int argc, char** argv) {" + migrate + flag_defaults());
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
