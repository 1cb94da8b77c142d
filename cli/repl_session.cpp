#include "cli/repl_session.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "checker/checker.h"
#include "cli/build_steps.h"
#include "cli/repl_carry.h"
#include "codegen/codegen.h"
#include "codegen/toolchain.h"
#include "frontend/lower.h"
#include "frontend/modules.h"
#include "frontend/render.h"

namespace fitz::cli::repl {

namespace fs = std::filesystem;

namespace {

// The variable an expression's value is assigned to, and the prefix of the lines that carry
// values back from the program (a control character no `print` of the user's starts with by
// accident).
constexpr std::string_view kValueName = "__fitz_repl_value";
constexpr std::string_view kMarker = "\x01" "fitz-repl ";

bool internal_name(std::string_view name) { return name.starts_with("__fitz_repl"); }

bool is_declaration(const frontend::Stmt& s) {
  return std::holds_alternative<frontend::FnStmt>(s.data) || std::holds_alternative<frontend::TypeStmt>(s.data) ||
         std::holds_alternative<frontend::ImportStmt>(s.data) || std::holds_alternative<frontend::FromImportStmt>(s.data);
}

std::string declared_name(const frontend::Ast& ast, const frontend::Stmt& s) {
  if (auto* f = std::get_if<frontend::FnStmt>(&s.data)) {
    const auto& fn = ast.get(f->fn);
    return fn.name ? "fn " + std::string(fn.name->text) : "fn";
  }
  if (auto* t = std::get_if<frontend::TypeStmt>(&s.data)) return "type " + std::string(ast.get(t->type).name.text);
  return "import";
}

}  // namespace

struct Checked {
  frontend::SourceManager sources;
  frontend::DiagnosticBag diags;
  frontend::ModuleGraph graph;
  checker::TypedProgram program;
  std::string text;
  frontend::FileId file;
  frontend::ModuleId root;
  uint32_t input_begin = 0, input_end = 0, epilogue_begin = 0;
  bool as_expression = false;

  const checker::ModuleTir& tir() const { return program.modules[root.index]; }
  const frontend::Ast& ast() const { return graph.get(root).ast; }
  // The module's top-level variables the user wrote (not the REPL's own).
  std::vector<checker::SymbolId> globals() const {
    std::vector<checker::SymbolId> out;
    for (checker::SymbolId id : tir().globals)
      if (!internal_name(program.symbol(id).name)) out.push_back(id);
    return out;
  }
};

Session::Session(Io io) : io_(io) {
  virtual_path_ = fs::current_path() / "fitz_repl.fitz";
  work_dir_ = codegen::cache_dir() / "repl" / std::to_string(getpid());
}

Session::~Session() {
  std::error_code ec;
  fs::remove_all(work_dir_, ec);
}

void Session::reset() { entries_.clear(); }

std::string Session::prelude() const {
  std::string out;
  for (const Entry& e : entries_) out += e.text + "\n";
  return out;
}

std::unique_ptr<Checked> Session::check(std::string_view input, bool as_expression,
                                        const std::vector<std::string>& epilogue) {
  auto c = std::make_unique<Checked>();
  c->as_expression = as_expression;
  c->text = prelude();
  if (as_expression) c->text += std::string(kValueName) + " = (\n";
  c->input_begin = uint32_t(c->text.size());
  c->text += input;
  c->input_end = uint32_t(c->text.size());
  c->text += as_expression ? "\n)\n" : "\n";
  c->epilogue_begin = uint32_t(c->text.size());
  for (const std::string& line : epilogue) c->text += line + "\n";

  // The session's program is read from memory; the modules it imports come from disk.
  fs::path self = virtual_path_;
  std::string text = c->text;
  frontend::FileReader disk = frontend::disk_reader();
  frontend::FileReader reader = [self, text, disk](const fs::path& p, std::string& error) -> std::optional<std::string> {
    if (p == self) return text;
    return disk(p, error);
  };
  frontend::ModuleLoader loader(c->sources, c->diags, reader);
  c->root = loader.load_root(self);
  c->graph = std::move(loader).finish();
  c->file = c->graph.get(c->root).file;
  checker::CheckOptions options;
  options.warnings = false;  // a variable unused so far may be used by the next input
  c->program = checker::check_program(c->graph, c->sources, c->diags, options);
  return c;
}

void Session::report(const Checked& c) const {
  // Spans in the input are shown against the input alone, so lines count from its start.
  frontend::SourceManager shown;
  frontend::FileId input_file =
      shown.add("input", c.text.substr(c.input_begin, c.input_end - c.input_begin));
  auto inside = [&](frontend::Span s) {
    return s.file == c.file && s.begin >= c.input_begin && s.end <= c.input_end + 1;
  };
  auto moved = [&](frontend::Span s) {
    uint32_t size = c.input_end - c.input_begin;
    return frontend::Span{input_file, std::min(s.begin - c.input_begin, size), std::min(s.end - c.input_begin, size)};
  };
  frontend::TextRenderOptions options = text_options_of(io_);
  size_t errors = 0;
  for (const frontend::Diagnostic& d : c.diags.sorted()) {
    if (d.severity != frontend::Severity::Error) continue;
    ++errors;
    if (d.span.file != c.file) {
      io_.err << frontend::render(d, c.sources, frontend::DiagnosticFormat::Text, options);
      continue;
    }
    if (!inside(d.span)) {
      io_.err << "error: " << d.message << "\n";
      continue;
    }
    frontend::Diagnostic m = d;
    m.span = moved(d.span);
    m.labels.clear();
    for (const auto& l : d.labels)
      if (inside(l.span)) m.labels.push_back({moved(l.span), l.message});
    m.fixes.clear();
    io_.err << frontend::render(m, shown, frontend::DiagnosticFormat::Text, options);
  }
  if (errors == 0) io_.err << "error: the input could not be checked\n";
}

bool Session::run(const Checked& c, std::vector<std::pair<std::string, std::string>>& values) {
  codegen::GenResult gen = codegen::generate_cpp(c.program, c.graph, c.sources, {});
  if (!gen.not_compiled.empty()) {
    for (const std::string& m : gen.not_compiled) io_.err << m << "\n";
    return false;
  }
  if (!gen.unsupported.empty()) {
    io_.err << "internal compiler error: the code generator cannot express " << gen.unsupported.front() << "\n";
    return false;
  }
  std::error_code ec;
  fs::create_directories(work_dir_, ec);
  fs::path binary = work_dir_ / fmt::format("step-{}", ++step_);
  codegen::CompileOptions copts = compile_options_for(gen);
  copts.opt_level = "-O0";  // an input runs once: compiling it fast is what counts
  if (compile_generated(gen, binary, copts, io_, false) != kOk) return false;
  io_.out.flush();
  io_.err.flush();

  int out_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return false;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out_pipe[1], STDOUT_FILENO);
    int null_in = open("/dev/null", O_RDONLY);
    if (null_in >= 0) dup2(null_in, STDIN_FILENO);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    execl(binary.c_str(), binary.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out_pipe[1]);
  // The program's output is passed on as it comes, but for the lines that carry values back.
  std::string pending;
  char buf[4096];
  auto take_line = [&](std::string_view line) {
    if (line.starts_with(kMarker)) {
      line.remove_prefix(kMarker.size());
      size_t space = line.find(' ');
      if (space != std::string_view::npos) values.emplace_back(line.substr(0, space), line.substr(space + 1));
      return;
    }
    io_.out << line << "\n";
    io_.out.flush();
  };
  for (ssize_t n; (n = read(out_pipe[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    pending.append(buf, size_t(n));
    for (size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1))
      take_line(std::string_view(pending).substr(0, nl));
  }
  if (!pending.empty()) io_.out << pending << "\n";
  close(out_pipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  fs::remove(binary, ec);
  if (WIFSIGNALED(status)) {
    io_.err << (WTERMSIG(status) == SIGINT ? "interrupted\n" : fmt::format("the input was killed by signal {}\n", WTERMSIG(status)));
    return false;
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void Session::keep_declarations(const Checked& c) {
  // Declarations are kept as written; they are checked again with every later input.
  // A declaration's text runs from the end of the statement before it, so that its decorators
  // and doc comment come along.
  const frontend::Ast& ast = c.ast();
  uint32_t previous_end = c.input_begin;
  for (frontend::StmtId id : ast.top_level) {
    const frontend::Stmt& s = ast.get(id);
    if (s.span.begin < c.input_begin || s.span.end > c.input_end) continue;
    uint32_t begin = previous_end;
    previous_end = s.span.end;
    if (!is_declaration(s)) continue;
    entries_.push_back({Entry::Declaration, declared_name(ast, s), c.text.substr(begin, s.span.end - begin), ""});
  }
}

void Session::keep_variables(const Checked& c, const std::vector<std::pair<std::string, std::string>>& values) {
  // Variables: each comes back as JSON and is declared again with that value. One the
  // program did not send back (no literal form) is dropped, saying why.
  const checker::TypeStore& types = *c.program.types;
  std::vector<Entry> vars;
  for (checker::SymbolId id : c.globals()) {
    const checker::Symbol& sym = c.program.symbol(id);
    if (std::any_of(vars.begin(), vars.end(), [&](const Entry& e) { return e.name == sym.name; })) continue;
    auto v = std::find_if(values.begin(), values.end(), [&](const auto& p) { return p.first == sym.name; });
    std::optional<std::string> literal;
    std::string why = why_not_kept(sym.type, types);
    if (v != values.end()) {
      nlohmann::json j = nlohmann::json::parse(v->second, nullptr, false);
      if (!j.is_discarded()) literal = literal_of(j, sym.type, types);
      if (!literal && why.empty()) why = "its value has no literal form";
    }
    if (!literal) {
      bool was_kept = std::any_of(entries_.begin(), entries_.end(),
                                  [&](const Entry& e) { return e.kind == Entry::Variable && e.name == sym.name; });
      if (!why.empty() || was_kept)
        io_.err << fmt::format("note: `{}` is not kept for the next input: {}\n", sym.name,
                               why.empty() ? "it was not assigned" : why);
      continue;
    }
    std::string type = types.display(sym.type);
    vars.push_back({Entry::Variable, sym.name, fmt::format("let {}: {} = {}", sym.name, type, *literal), type});
  }
  // A variable keeps its place among the declarations (a later function may read it); new
  // ones go last.
  std::vector<Entry> next;
  for (Entry& e : entries_) {
    if (e.kind == Entry::Declaration) {
      next.push_back(std::move(e));
      continue;
    }
    auto v = std::find_if(vars.begin(), vars.end(), [&](const Entry& x) { return x.name == e.name; });
    if (v == vars.end()) continue;
    next.push_back(std::move(*v));
    vars.erase(v);
  }
  for (Entry& v : vars) next.push_back(std::move(v));
  entries_ = std::move(next);
}

bool Session::eval(std::string_view input) {
  // An input that is one expression shows its value.
  frontend::SourceManager scratch_sources;
  frontend::DiagnosticBag scratch;
  frontend::FileId f = scratch_sources.add("input", std::string(input));
  frontend::Ast alone = frontend::parse_module(scratch_sources.file(f), f, scratch);
  bool as_expression = !scratch.has_errors() && alone.top_level.size() == 1 &&
                       std::holds_alternative<frontend::ExprStmt>(alone.get(alone.top_level[0]).data);
  bool runs = std::any_of(alone.top_level.begin(), alone.top_level.end(),
                          [&](frontend::StmtId s) { return !is_declaration(alone.get(s)); });

  auto c = check(input, as_expression, {});
  if (c->diags.has_errors()) {
    report(*c);
    return false;
  }
  const checker::ServiceModel& service = c->program.service;
  if (!service.routes.empty() || !service.ws.empty() || !service.cron.empty()) {
    io_.err << "error: the REPL does not serve routes or run scheduled jobs; use `fitz run` or `fitz dev`\n";
    return false;
  }
  if (!runs) {  // declarations only: nothing runs, the variables keep their values
    keep_declarations(*c);
    return true;
  }

  std::vector<std::string> epilogue;
  const checker::TypeStore& types = *c->program.types;
  if (as_expression) {
    for (checker::SymbolId id : c->tir().globals) {
      const checker::Symbol& sym = c->program.symbol(id);
      if (sym.name == kValueName && types.kind(sym.type) != checker::TypeKind::Null)
        epilogue.push_back(fmt::format("print(\"=\", {})", kValueName));
    }
  }
  std::vector<std::string> carried;
  for (checker::SymbolId id : c->globals()) {
    const checker::Symbol& sym = c->program.symbol(id);
    if (why_not_kept(sym.type, types).empty() &&
        std::find(carried.begin(), carried.end(), sym.name) == carried.end())
      carried.push_back(sym.name);
  }
  auto epilogue_with = [&](const std::vector<std::string>& names) {
    std::vector<std::string> lines = epilogue;
    for (const std::string& n : names)
      lines.push_back(fmt::format("print({}, to_json({}))", str_literal(std::string(kMarker) + n), n));
    return lines;
  };
  auto full = check(input, as_expression, epilogue_with(carried));
  if (full->diags.has_errors()) {
    // A variable assigned on some paths only cannot be read at the end: it is not kept.
    std::vector<std::string> readable;
    for (const std::string& n : carried) {
      auto one = check(input, as_expression, epilogue_with({n}));
      if (!one->diags.has_errors()) readable.push_back(n);
      else io_.err << fmt::format("note: `{}` is not kept for the next input: it may be unassigned\n", n);
    }
    full = check(input, as_expression, epilogue_with(readable));
    if (full->diags.has_errors()) {
      report(*full);
      return false;
    }
  }
  std::vector<std::pair<std::string, std::string>> values;
  if (!run(*full, values)) return false;
  keep_declarations(*full);
  keep_variables(*full, values);
  return true;
}

bool Session::show_type(std::string_view expr) {
  auto c = check(expr, true, {});
  if (c->diags.has_errors()) {
    report(*c);
    return false;
  }
  for (checker::SymbolId id : c->tir().globals) {
    const checker::Symbol& sym = c->program.symbol(id);
    if (sym.name == kValueName) {
      io_.out << c->program.types->display(sym.type) << "\n";
      return true;
    }
  }
  io_.err << "error: not an expression\n";
  return false;
}

void Session::show_env() const {
  if (entries_.empty()) {
    io_.out << "(nothing declared yet)\n";
    return;
  }
  for (const Entry& e : entries_) {
    if (e.kind == Entry::Variable) {
      io_.out << e.name << ": " << e.type << "\n";
    } else {
      io_.out << e.name << "\n";
    }
  }
}

}  // namespace fitz::cli::repl
