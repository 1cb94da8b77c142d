// `fitz check`: loads a file, directory or project, reports every diagnostic in the chosen
// format, and optionally dumps an intermediate form (cst, ast) of the root modules. `.fitzv`
// views are checked with the program (checker/view_check.h): a view file, or every view of a
// project's source folder, and any view a module imports a component from.
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>

#include "checker/check_orm.h"
#include "checker/checker.h"
#include "checker/service_dump.h"
#include "checker/view_check.h"
#include "cli/driver.h"
#include "frontend/lower.h"
#include "frontend/project.h"
#include "frontend/render.h"
#include "frontend/view_syntax.h"
#include "packages/sync.h"

namespace fitz::cli {

namespace {

constexpr const char* kCheckUsage = R"(usage: fitz check [PATH] [options]

Checks a .fitz file, every .fitz file under a directory, or (with no PATH) the project around
the current directory (walking up to fitz.toml: its bins, lib, src/ and tests/, and the .fitzv
live views of src/). A .fitzv view is checked with the modules it imports (`--dump=cst` prints
its syntax tree, `--dump=view` its checked view IR).

options:
  --format=text|json|github   diagnostics as text (default), JSON Lines, or GitHub annotations
  --dump=cst|ast|tir|orm|services|view
                              print the syntax tree, the AST, the typed program or the SQL of the ORM
                              queries of each root module, or the program's service model (routes, bindings,
                              guards, middleware, server, WebSocket endpoints, jobs, commands),
                              or the checked live views
  --warnings-as-errors        exit 1 when there are warnings
  --offline                   resolve git dependencies from fitz.lock and the cache only, never the
                              network (also FITZ_OFFLINE=1)
  -h, --help                  show this help
)";

struct CheckOptions {
  std::string target;
  std::string format = "text";
  std::string dump;
  bool warnings_as_errors = false;
  bool offline = false;
};

bool value_of(std::string_view arg, std::string_view flag, std::string& out) {
  if (!arg.starts_with(flag) || arg.size() <= flag.size() || arg[flag.size()] != '=') return false;
  out = std::string(arg.substr(flag.size() + 1));
  return true;
}

// Renders the diagnostics and turns them into the exit status.
int report_check_diagnostics(const frontend::DiagnosticBag& diags, const frontend::SourceManager& sources,
                             const CheckOptions& opt, Io io) {
  std::vector<frontend::Diagnostic> all = diags.sorted();
  frontend::DiagnosticFormat format = *frontend::parse_diagnostic_format(opt.format);
  frontend::TextRenderOptions text_options = text_options_of(io);
  // Machine formats go to stdout for tools to read; text is for people, on stderr.
  std::ostream& sink = format == frontend::DiagnosticFormat::Text ? io.err : io.out;
  for (const auto& d : all) sink << frontend::render(d, sources, format, text_options);
  if (format == frontend::DiagnosticFormat::Text)
    io.err << frontend::render_summary(diags.error_count(), diags.warning_count(), io.color);

  // Files that could not be read at all are I/O errors, not program errors.
  for (const auto& d : all)
    if (d.kind == frontend::DiagKind::CannotReadFile) return kUsageError;
  if (diags.error_count() > 0) return kUserError;
  if (opt.warnings_as_errors && diags.warning_count() > 0) return kUserError;
  return kOk;
}

int check_view_file(const CheckOptions& opt, Io io) {
  frontend::SourceManager sources;
  llvm::Expected<frontend::FileId> id = sources.read_file(opt.target);
  if (!id) {
    io.err << "error: cannot read `" << opt.target << "`: " << llvm::toString(id.takeError()) << "\n";
    return kUsageError;
  }
  const frontend::SourceFile& file = sources.file(*id);
  frontend::SyntaxTree tree = frontend::parse_view_text(file.text());
  frontend::DiagnosticBag diags;
  frontend::report_view_syntax_errors(tree, file, diags);
  if (opt.dump == "cst") io.out << frontend::cst_sexp(tree) << "\n";
  return report_check_diagnostics(diags, sources, opt, io);
}

}  // namespace

int cmd_check(const std::vector<std::string>& args, Io io) {
  CheckOptions opt;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (a == "-h" || a == "--help") {
      io.out << kCheckUsage;
      return kOk;
    }
    if (value_of(a, "--format", opt.format) || value_of(a, "--dump", opt.dump)) continue;
    if ((a == "--format" || a == "--dump") && i + 1 < args.size()) {
      (a == "--format" ? opt.format : opt.dump) = args[++i];
      continue;
    }
    if (a == "--warnings-as-errors") {
      opt.warnings_as_errors = true;
      continue;
    }
    if (a == "--offline") {
      opt.offline = true;
      continue;
    }
    if (a.starts_with("-")) {
      io.err << "error: unknown option `" << a << "` for `fitz check`\n\n" << kCheckUsage;
      return kUsageError;
    }
    if (!opt.target.empty()) {
      io.err << "error: `fitz check` takes one path\n";
      return kUsageError;
    }
    opt.target = std::string(a);
  }
  if (!frontend::parse_diagnostic_format(opt.format)) {
    io.err << "error: unknown format `" << opt.format << "` (expected text, json or github)\n";
    return kUsageError;
  }
  if (!opt.dump.empty() && opt.dump != "cst" && opt.dump != "ast" && opt.dump != "tir" && opt.dump != "orm" &&
      opt.dump != "services" && opt.dump != "view") {
    io.err << "error: unknown dump `" << opt.dump << "` (expected cst, ast, tir, orm, services or view)\n";
    return kUsageError;
  }
  bool view_target = frontend::is_view_path(opt.target);
  if (view_target && opt.dump == "cst") return check_view_file(opt, io);
  if (view_target && !opt.dump.empty() && opt.dump != "view") {
    io.err << "error: `--dump=" << opt.dump << "` is not available for a .fitzv view (only cst and view)\n";
    return kUsageError;
  }

  // Every structure of the check, in one place so the largest can be left to the exit.
  struct CheckState {
    frontend::SourceManager sources;
    frontend::DiagnosticBag raw;  // as the checker reports them; generated view modules unmapped
    checker::ViewChecker views{sources};
    frontend::LoadResult loaded;
    std::optional<checker::TypedProgram> program;
  };
  auto state = std::make_unique<CheckState>();
  frontend::SourceManager& sources = state->sources;
  frontend::DiagnosticBag& raw = state->raw;
  checker::ViewChecker& views = state->views;
  frontend::LoadRequest req;
  req.target = opt.target;
  req.keep_syntax_trees = opt.dump == "cst";
  req.resolve_packages = packages::resolver(opt.offline || packages::offline_from_env());
  views.serve(req, frontend::disk_reader(), &raw);
  state->loaded = frontend::load_program(req, sources, raw);
  const frontend::LoadResult& loaded = state->loaded;
  if (loaded.fatal) {
    io.err << "error: " << *loaded.fatal << "\n";
    return kUsageError;
  }
  const frontend::ModuleGraph& graph = loaded.graph;
  const checker::TypedProgram& program = state->program.emplace(checker::check_program(graph, sources, raw));
  frontend::DiagnosticBag diags;
  checker::CheckedViews checked_views = views.finish(graph, program, raw, diags);

  if (opt.dump == "view") {
    io.out << checker::dump_views(checked_views, program);
  } else if (opt.dump == "services") {
    io.out << checker::dump_services(program, graph, sources);  // the whole program's, once
  } else if (!opt.dump.empty()) {
    for (frontend::ModuleId id : graph.roots) {
      const frontend::Module& m = graph.get(id);
      if (graph.roots.size() > 1) io.out << "// " << m.path.string() << "\n";
      if (opt.dump == "cst")
        io.out << frontend::cst_sexp(m.tree) << "\n";
      else if (opt.dump == "orm")
        io.out << checker::dump_orm(program, graph, id, sources);
      else if (opt.dump == "tir")
        io.out << checker::dump_tir(program, graph, id, sources);
      else
        io.out << frontend::dump_ast(m.ast, sources.file(m.file));
    }
  }

  int status = report_check_diagnostics(diags, sources, opt, io);
  leave_to_exit(std::move(state), io);
  return status;
}

}  // namespace fitz::cli