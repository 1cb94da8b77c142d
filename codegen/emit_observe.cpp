// Observability and flags in generated programs: `log.*` and `flags.*` calls (typed by the
// checker's table; their methods become direct runtime calls here), the `[flags]`
// defaults of fitz.toml, `@trace`/`@metric` scopes at the top of a function body, and the
// `@flag` check of a route. Runtime side: fitz/log.h.
#include <fmt/format.h>

#include "codegen/cpp_literal.h"
#include "codegen/gen.h"

namespace fitz::codegen {

std::optional<std::string> Gen::builtin_module_of(ExprId object) {
  if (!std::holds_alternative<NameRef>(ast_->get(object).data)) return std::nullopt;
  const Ref& r = tir_->ref_of(object);
  if (r.kind != RefKind::Symbol) return std::nullopt;
  const Symbol& s = prog_.symbol(SymbolId(r.id));
  if (s.kind != SymbolKind::BuiltinValue) return std::nullopt;
  return s.name;
}

std::optional<std::string> Gen::observe_call(ExprId id, const CallExpr& c) {
  auto* fe = std::get_if<FieldExpr>(&ast_->get(c.callee).data);
  if (!fe) return std::nullopt;
  std::optional<std::string> module = builtin_module_of(fe->object);
  if (!module || (*module != "log" && *module != "flags")) return std::nullopt;
  // The checker typed the call from the table (LogModule / FlagsModule): the method exists and
  // each argument carries its conversion (message and fields to Any, a flag name to Str).
  std::string method(fe->field.text);
  std::vector<Child> children;
  for (const auto& a : c.args) children.push_back(child_of(this, a.value));
  std::vector<std::string> code = sequence(children);
  if (*module == "log") {
    const char* level = method == "debug" ? "Debug" : method == "info" ? "Info" : method == "warn" ? "Warn"
                                                    : method == "error" ? "Error" : nullptr;
    if (!level) return std::nullopt;
    std::string positional, fields;
    for (size_t i = 0; i < c.args.size(); ++i) {
      if (c.args[i].name)
        fields += fmt::format("{}fitz::LogField{{{}, {}}}", fields.empty() ? "" : ", ",
                              cpp_quoted(c.args[i].name->text), code[i]);
      else
        positional += (positional.empty() ? "" : ", ") + code[i];
    }
    (void)id;
    return fmt::format("(fitz::log_write(fitz::LogLevel::{}, {{{}}}, {{{}}}), fitz::null)", level, positional, fields);
  }
  if (method == "is_enabled" && code.size() == 1) return fmt::format("fitz::flag({})", code[0]);
  if (method == "list" && code.empty()) return std::string("fitz::flags_list()");
  return std::nullopt;
}

std::string Gen::flag_defaults() {
  if (!graph_.manifest || graph_.manifest->flags.empty()) return "";
  std::string list;
  for (const auto& [name, on] : graph_.manifest->flags)
    list += fmt::format("{}{{{}, {}}}", list.empty() ? "" : ", ", cpp_quoted(name), on ? "true" : "false");
  return fmt::format(" fitz::flags_init({{{}}});", list);
}

void Gen::emit_observe_scopes(FnId id) {
  // The checker named the scopes (FnInfo::trace_name / metric_name).
  const FnInfo& info = tir_->fns[id.index];
  if (!info.trace_name.empty()) line(fmt::format("fitz::SpanScope fz_span({});", cpp_quoted(info.trace_name)));
  if (!info.metric_name.empty()) line(fmt::format("fitz::MetricScope fz_metric({});", cpp_quoted(info.metric_name)));
}

std::string Gen::route_flag_check(const checker::Route& r) {
  if (r.feature_flag.empty()) return "";
  const std::string& name = r.feature_flag;
  std::string json_name;
  for (char ch : name) {
    if (ch == '"' || ch == '\\') json_name += '\\';
    json_name += ch;
  }
  std::string body = fmt::format("{{\"error\":\"feature '{}' disabled\"}}", json_name);
  // First before middleware: a disabled feature answers 404 before anything else runs.
  return fmt::format(
      "r.before([](fitz::http::Request&) -> fitz::Nullable<fitz::http::Response> {{ if (fitz::flag(fitz::Str::lit({}))) "
      "return {{}}; return fitz::http::Response::json(404, fitz::Str::lit({})); }});",
      cpp_quoted(name), cpp_quoted(body));
}

}  // namespace fitz::codegen

namespace fitz::codegen {

std::string Gen::traced_call(const Symbol& callee, const std::string& call) {
  // An async @trace function sets its span as current and may suspend before returning its
  // task: the caller goes on with its own span, not the callee's.
  if (!callee.fn.valid()) return call;
  const FnInfo& info = prog_.modules[callee.module.index].fns[callee.fn.index];
  if (!info.is_async) return call;
  if (info.trace_name.empty()) return call;
  return fmt::format("fitz::TraceKeep{{}}.pass({})", call);
}

}  // namespace fitz::codegen
