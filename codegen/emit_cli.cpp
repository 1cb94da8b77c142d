// The `main` of a program with `@command` functions: describe each command (the service
// model's Command) for the runtime's parser (runtime/include/fitz/cli.h), run the program's
// top-level code, then call the command argv names with its arguments converted to the
// parameters' types. Help and usage errors stop before any of the program runs.
#include <fmt/format.h>

#include "codegen/cpp_literal.h"
#include "codegen/gen.h"

namespace fitz::codegen {

bool Gen::emit_cli_main() {
  // The commands of the program's entry modules, as the service model describes them.
  const std::vector<checker::Command>& commands = prog_.service.commands;
  if (commands.empty()) return false;

  line("#include <fitz/cli.h>");
  line("#include <cstdio>");
  line("static const std::vector<fitz::cli::Command>& fitz_commands() {");
  line("  static const std::vector<fitz::cli::Command> commands = {");
  for (const checker::Command& c : commands) {
    line(fmt::format("    {{{}, {}, {{", cpp_quoted(c.name), cpp_quoted(c.desc)));
    for (const checker::CommandParam& p : c.params) {
      using K = checker::CommandParam::Kind;
      const char* kind = p.kind == K::Int ? "Int" : p.kind == K::Float ? "Float" : p.kind == K::Bool ? "Bool" : "Str";
      std::string short_name = p.short_name ? fmt::format("'{}'", p.short_name) : "0";
      line(fmt::format("      {{{}, fitz::cli::Kind::{}, {}, {}, {}, {}, {}, {}}},", cpp_quoted(p.name), kind,
                       p.has_default ? "true" : "false", p.nullable ? "true" : "false", p.variadic ? "true" : "false",
                       cpp_quoted(p.default_text), cpp_quoted(p.help), short_name));
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
    const checker::Command& c = commands[ci];
    ModuleContext in_command(*this, c.fn.module);
    const FnDecl& decl = ast_->get(c.fn.fn);
    const FnInfo& info = tir_->fns[c.fn.fn.index];
    line(fmt::format("case {}: {{", ci));
    ++indent_;
    std::vector<std::string> args;
    for (const checker::CommandParam& p : c.params) {
      using K = checker::CommandParam::Kind;
      auto convert = [&](const std::string& text) {
        switch (p.kind) {
          case K::Int: return fmt::format("int64_t(fitz::cli::to_int({}))", text);
          case K::Float: return fmt::format("fitz::cli::to_float({})", text);
          case K::Bool: return fmt::format("fitz::cli::to_bool({})", text);
          case K::Str: break;
        }
        return fmt::format("fitz::Str({0}.data(), {0}.size())", text);
      };
      const checker::ParamInfo& pi = info.params[p.param];
      std::string a = fmt::format("a{}", p.param);
      if (p.variadic) {
        line(fmt::format("{} {};", cpp_type(pi.type), a));
        line(fmt::format("for (const std::string& s : fitz_parsed.rest) {}.push({});", a, convert("s")));
      } else {
        TypeId t = pi.type;
        std::string value = fmt::format("fitz_parsed.values[{}]", p.param);
        std::string given = convert("(*" + value + ")");
        if (p.nullable) given = cpp_type(t) + "(" + given + ")";
        std::string fallback = p.has_default ? default_arg(info, c.fn.module, c.fn.fn, p.param) : cpp_type(t) + "{}";
        line(fmt::format("{} {} = {} ? {} : {};", cpp_type(t), a, value, given, fallback));
      }
      args.push_back(a);
    }
    std::string call = fmt::format("{}::{}(", ns(c.fn.module), fn_name(info));
    for (size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i];
    call += ")";
    if (c.async) call = fmt::format("fitz::block_on({}, {})", call, pos(decl.span));
    using Exit = checker::Command::Exit;
    if (c.exit == Exit::Int) {
      line(fmt::format("fitz_exit = int({});", call));
    } else if (c.exit == Exit::Result || c.exit == Exit::ResultInt) {
      line(fmt::format("auto r = {};", call));
      line("if (r.is_err()) { fitz_report_err(fitz::to_str(r.error())); fitz_exit = 1; }");
      if (c.exit == Exit::ResultInt) line("else fitz_exit = int(r.value());");
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
