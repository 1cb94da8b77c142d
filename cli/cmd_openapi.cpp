// `fitz openapi`: checks a service and prints its OpenAPI 3.1 document (the same text the built
// binary serves at /openapi.json), to stdout or to a file.
#include <fstream>
#include <ostream>

#include "checker/checker.h"
#include "checker/view_check.h"
#include "cli/driver.h"
#include "frontend/project.h"
#include "frontend/render.h"
#include "openapi/openapi.h"

namespace fitz::cli {

namespace {

constexpr const char* kOpenapiUsage = R"(usage: fitz openapi [PATH] [-o OUT]

Checks a .fitz file, a directory or (with no PATH) the project around the current directory and
prints the OpenAPI 3.1 document of its HTTP routes: the document the built service serves at
/openapi.json.

options:
  -o, --output OUT   write the document to OUT instead of standard output
  --title TITLE      info.title (default: the package name, else the file name)
  -h, --help         show this help
)";

}  // namespace

int cmd_openapi(const std::vector<std::string>& args, Io io) {
  std::string target, output;
  openapi::Options options;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (a == "-h" || a == "--help") {
      io.out << kOpenapiUsage;
      return kOk;
    }
    if (a == "-o" || a == "--output" || a == "--title") {
      if (i + 1 >= args.size()) {
        io.err << "error: `" << a << "` needs a value\n\n" << kOpenapiUsage;
        return kUsageError;
      }
      (a == "--title" ? options.title : output) = args[++i];
      continue;
    }
    if (a.starts_with("--output=")) {
      output = std::string(a.substr(9));
      continue;
    }
    if (a.starts_with("--title=")) {
      options.title = std::string(a.substr(8));
      continue;
    }
    if (a.starts_with("-") && a != "-") {
      io.err << "error: unknown option `" << a << "` for `fitz openapi`\n\n" << kOpenapiUsage;
      return kUsageError;
    }
    if (!target.empty()) {
      io.err << "error: `fitz openapi` takes one path\n";
      return kUsageError;
    }
    target = std::string(a);
  }

  frontend::SourceManager sources;
  frontend::DiagnosticBag raw;  // generated view modules unmapped, as in `fitz check`
  frontend::DiagnosticBag diags;
  checker::ViewChecker views(sources);  // `from Counter import Counter` imports a .fitzv view
  frontend::LoadRequest req;
  req.target = target;
  views.serve(req, frontend::disk_reader(), nullptr);
  frontend::LoadResult loaded = frontend::load_program(req, sources, raw);
  if (loaded.fatal) {
    io.err << "error: " << *loaded.fatal << "\n";
    return kUsageError;
  }
  checker::CheckOptions check_options;
  check_options.warnings = false;  // `fitz check` is the place for warnings
  checker::TypedProgram program = checker::check_program(loaded.graph, sources, raw, check_options);
  views.finish(loaded.graph, program, raw, diags);
  if (diags.error_count() > 0) {
    frontend::TextRenderOptions text_options = text_options_of(io);
    bool unreadable = false;
    for (const auto& d : diags.sorted()) {
      io.err << frontend::render(d, sources, frontend::DiagnosticFormat::Text, text_options);
      unreadable = unreadable || d.kind == frontend::DiagKind::CannotReadFile;
    }
    io.err << frontend::render_summary(diags.error_count(), diags.warning_count(), io.color);
    // Files that could not be read at all are I/O errors, not program errors.
    return unreadable ? kUsageError : kUserError;
  }

  std::string doc = openapi::generate(program, loaded.graph, sources, options) + "\n";
  if (output.empty() || output == "-") {
    io.out << doc;
    return kOk;
  }
  std::ofstream out(output, std::ios::binary);
  if (!out || !(out << doc) || !out.flush()) {
    io.err << "error: cannot write `" << output << "`\n";
    return kUsageError;
  }
  return kOk;
}

}  // namespace fitz::cli
