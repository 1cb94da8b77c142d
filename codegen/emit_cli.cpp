// The `main` of a program with `@command` functions: describe each command for the runtime's
// parser (runtime/include/fitz/cli.h), run the program's top-level code, then call the command
// argv names with its arguments converted to the parameters' types. Help and usage errors stop
// before any of the program runs.
#include <fmt/format.h>

#include "checker/decorators.h"
#include "codegen/cpp_literal.h"
#include "codegen/gen.h"
#include "frontend/decorator_args.h"

namespace fitz::codegen {

bool Gen::emit_cli_main() {
  struct Cmd {
    ModuleId module;
    FnId fn;
    const Decorator* dec;
  };
  std::vector<Cmd> commands;
  // Commands of the program's entry modules: an imported library's commands are not the
  // program's command line.
  for (ModuleId m : graph_.roots) {
    const Ast& ast = graph_.get(m).ast;
    for (StmtId s : ast.top_level) {
      auto* f = std::get_if<FnStmt>(&ast.get(s).data);
      if (!f) continue;
      for (const Decorator& d : ast.get(f->fn).decorators)
        if (checker::is_decorator(d, checker::DecoratorKind::Command)) commands.push_back({m, f->fn, &d});
    }
  }
  if (commands.empty()) return false;

  line("#include <fitz/cli.h>");
  line("#include <cstdio>");
  line("static const std::vector<fitz::cli::Command>& fitz_commands() {");
  line("  static const std::vector<fitz::cli::Command> commands = {");
  for (const Cmd& c : commands) {
    const Ast& ast = graph_.get(c.module).ast;
    const FnDecl& decl = ast.get(c.fn);
    const FnInfo& info = prog_.modules[c.module.index].fns[c.fn.index];
    const SourceFile& file = sources_.file(decl.span.file);
    std::string name = decl.name ? std::string(decl.name->text) : std::string("main");
    if (const Expr* first = frontend::decorator_first_positional(ast, *c.dec)) name = frontend::string_literal_text(*first);
    std::string desc;
    if (const Expr* d = frontend::decorator_kwarg(ast, *c.dec, "desc")) desc = frontend::string_literal_text(*d);
    line(fmt::format("    {{{}, {}, {{", cpp_quoted(name), cpp_quoted(desc)));
    for (size_t i = 0; i < info.params.size(); ++i) {
      const auto& p = info.params[i];
      TypeId t = p.type;
      if (p.variadic) t = types_.elem(t);
      bool nullable = types_.kind(t) == TypeKind::Nullable;
      if (nullable) t = types_.inner(t);
      TypeKind k = types_.kind(t);
      const char* kind = k == TypeKind::Int ? "Int" : k == TypeKind::Float ? "Float" : k == TypeKind::Bool ? "Bool" : "Str";
      std::string default_text, help, short_name = "0";
      if (i < decl.params.size() && decl.params[i].default_value.valid()) {
        Span ds = ast.get(decl.params[i].default_value).span;
        default_text = std::string(file.text().substr(ds.begin, ds.end - ds.begin));
      }
      // Help and short form: from a function-level `@arg("name", ...)` or from `@flag(...)` /
      // `@arg(...)` on the parameter (the checker allows one of them per parameter).
      auto describe = [&](const Decorator& d) {
        if (const Expr* h = frontend::decorator_kwarg(ast, d, "help")) help = frontend::string_literal_text(*h);
        if (const Expr* s = frontend::decorator_kwarg(ast, d, "short")) {
          std::string letter = frontend::string_literal_text(*s);
          if (letter.size() == 1) short_name = fmt::format("'{}'", letter[0]);
        }
      };
      for (const Decorator& d : decl.decorators) {
        const Expr* first = frontend::decorator_first_positional(ast, d);
        if (!checker::is_decorator(d, checker::DecoratorKind::ArgFn) || !first || frontend::string_literal_text(*first) != p.name) continue;
        describe(d);
      }
      if (i < decl.params.size())
        for (const Decorator& d : decl.params[i].decorators)
          if (checker::is_decorator(d, checker::DecoratorKind::FlagParam) || checker::is_decorator(d, checker::DecoratorKind::ArgParam)) describe(d);
      line(fmt::format("      {{{}, fitz::cli::Kind::{}, {}, {}, {}, {}, {}, {}}},", cpp_quoted(p.name), kind,
                       p.has_default ? "true" : "false", nullable ? "true" : "false", p.variadic ? "true" : "false",
                       cpp_quoted(default_text), cpp_quoted(help), short_name));
    }
    line("    }},");
  }
  line("  };");
  line("  return commands;");
  line("}");
  line("static fitz::cli::Parsed fitz_parsed;");
  line("static int fitz_exit = 0;");
  line("static void fitz_report_err(const fitz::Str& message) {");
  line("  fitz::flush_stdout();");
  line("  std::fprintf(stderr, \"error: %.*s\\n\", int(message.size()), message.data());");
  line("}");
  line("static void fitz_command_program() {");
  ++indent_;
  line("fitz_program();");
  line("switch (fitz_parsed.command) {");
  for (size_t ci = 0; ci < commands.size(); ++ci) {
    const Cmd& c = commands[ci];
    ModuleContext in_command(*this, c.module);
    const FnDecl& decl = ast_->get(c.fn);
    const FnInfo& info = tir_->fns[c.fn.index];
    line(fmt::format("case {}: {{", ci));
    ++indent_;
    std::vector<std::string> args;
    for (size_t i = 0; i < info.params.size(); ++i) {
      const auto& p = info.params[i];
      TypeId t = p.variadic ? types_.elem(p.type) : p.type;
      bool nullable = types_.kind(t) == TypeKind::Nullable;
      TypeId scalar = nullable ? types_.inner(t) : t;
      TypeKind k = types_.kind(scalar);
      auto convert = [&](const std::string& text) {
        switch (k) {
          case TypeKind::Int: return fmt::format("int64_t(fitz::cli::to_int({}))", text);
          case TypeKind::Float: return fmt::format("fitz::cli::to_float({})", text);
          case TypeKind::Bool: return fmt::format("fitz::cli::to_bool({})", text);
          default: return fmt::format("fitz::Str({0}.data(), {0}.size())", text);
        }
      };
      std::string a = fmt::format("a{}", i);
      if (p.variadic) {
        line(fmt::format("{} {};", cpp_type(p.type), a));
        line(fmt::format("for (const std::string& s : fitz_parsed.rest) {}.push({});", a, convert("s")));
      } else {
        std::string value = fmt::format("fitz_parsed.values[{}]", i);
        std::string given = convert("(*" + value + ")");
        if (nullable) given = cpp_type(t) + "(" + given + ")";
        std::string fallback = p.has_default ? default_arg(info, c.module, c.fn, uint32_t(i)) : cpp_type(t) + "{}";
        line(fmt::format("{} {} = {} ? {} : {};", cpp_type(t), a, value, given, fallback));
      }
      args.push_back(a);
    }
    std::string call = fmt::format("{}::{}(", ns(c.module), fn_name(info));
    for (size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i];
    call += ")";
    if (info.is_async) call = fmt::format("fitz::block_on({}, {})", call, pos(decl.span));
    TypeId r = info.return_type;
    TypeKind rk = r.valid() ? types_.kind(r) : TypeKind::Null;
    if (rk == TypeKind::Int) {
      line(fmt::format("fitz_exit = int({});", call));
    } else if (rk == TypeKind::Result) {
      line(fmt::format("auto r = {};", call));
      line("if (r.is_err()) { fitz_report_err(fitz::to_str(r.error())); fitz_exit = 1; }");
      if (types_.kind(types_.ok(r)) == TypeKind::Int) line("else fitz_exit = int(r.value());");
    } else {
      line(fmt::format("(void){};", call));
    }
    line("break;");
    --indent_;
    line("}");
  }
  line("}");
  --indent_;
  line("}");
  line("int main(int argc, char** argv) {");
  line("  fitz_parsed = fitz::cli::parse(argc, argv, fitz_commands());");
  line("  if (fitz_parsed.exit_code >= 0) return fitz_parsed.exit_code;");
  line("  int rc = fitz::run_main(argc, argv, &fitz_command_program);");
  line("  return rc != 0 ? rc : fitz_exit;");
  line("}");
  return true;
}

}  // namespace fitz::codegen
