// `fitz lint`: checks files or the project like `fitz check`, runs the lint pass over the typed
// program, applies lint levels (fitz.toml `[lint]`, then --allow/--deny) and prints everything
// in the formats of `fitz check`. Only errors (a denied lint included) make it fail.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <string_view>

#include <fmt/format.h>

#include "checker/checker.h"
#include "checker/view_check.h"
#include "cli/driver.h"
#include "frontend/project.h"
#include "frontend/render.h"
#include "lint/lint.h"

namespace fitz::cli {

namespace {

constexpr const char* kLintUsage = R"(usage: fitz lint [FILES...] [options]

Checks each FILE (or, with none, the project around the current directory) and reports the
checker's diagnostics together with lint warnings. A lint is a warning unless it is denied;
only errors, and denied lints, make `fitz lint` exit 1. Each warning names its lint, e.g.
`unused variable `x` [unused_variable]`; JSON output carries its fix-its.

options:
  --deny LINT                 report LINT as an error (repeatable; also `[lint] deny` in fitz.toml)
  --allow LINT                do not report LINT (repeatable; also `[lint] allow` in fitz.toml)
  --fix                       apply the fix-its of the lint warnings to the files, then report
                              what is left
  --format=text|json|github   as `fitz check`: text (default), JSON Lines, or GitHub annotations
  -h, --help                  show this help

lints:
)";

struct LintOptions {
  std::vector<std::string> targets;
  std::string format = "text";
  std::vector<std::string> deny, allow;
  bool fix = false;
};

// `--flag=value` or `--flag value`; advances `i` over a separate value.
bool option_value(const std::vector<std::string>& args, size_t& i, std::string_view flag, std::string& out) {
  std::string_view a = args[i];
  if (a.starts_with(flag) && a.size() > flag.size() && a[flag.size()] == '=') {
    out = std::string(a.substr(flag.size() + 1));
    return true;
  }
  if (a == flag && i + 1 < args.size()) {
    out = args[++i];
    return true;
  }
  return false;
}

void print_usage(std::ostream& os) {
  os << kLintUsage;
  for (const lint::LintInfo& l : lint::all_lints())
    os << fmt::format("  {:<26}  {} ({})\n", l.name, l.summary, frontend::diag_code(l.kind));
}

struct Totals {
  size_t errors = 0, warnings = 0;
  size_t fixed = 0;  // --fix: warnings whose fix-its were applied
  bool unreadable = false;
};

// Applies the fix-its of the lint findings to their files. Edits are applied from the end of
// a file backwards so that offsets stay valid; a finding whose edits overlap one already taken
// is left for the next run. Returns how many findings were fixed.
size_t apply_fixes(const std::vector<frontend::Diagnostic>& found, const frontend::SourceManager& sources, Io io) {
  std::map<uint32_t, std::vector<const frontend::Diagnostic*>> by_file;
  for (const frontend::Diagnostic& d : found)
    if (lint::lint_of_kind(d.kind) && !d.fixes.empty() && d.span.file.valid()) by_file[d.span.file.value].push_back(&d);
  size_t fixed = 0;
  for (auto& [file_index, diags] : by_file) {
    const frontend::SourceFile& f = sources.file(diags.front()->span.file);
    std::vector<frontend::FixIt> edits;
    size_t taken = 0;
    for (const frontend::Diagnostic* d : diags) {
      bool overlaps = std::any_of(d->fixes.begin(), d->fixes.end(), [&](const frontend::FixIt& x) {
        return std::any_of(edits.begin(), edits.end(), [&](const frontend::FixIt& y) {
          return (x.span.begin < y.span.end && y.span.begin < x.span.end) ||
                 (x.span.begin == y.span.begin && (x.span.empty() || y.span.empty()));
        });
      });
      if (overlaps) continue;
      edits.insert(edits.end(), d->fixes.begin(), d->fixes.end());
      ++taken;
    }
    std::sort(edits.begin(), edits.end(), [](const frontend::FixIt& a, const frontend::FixIt& b) { return a.span.begin > b.span.begin; });
    std::string text(f.text());
    for (const frontend::FixIt& e : edits) text.replace(e.span.begin, e.span.size(), e.replacement);
    std::ofstream out(f.path(), std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) {
      io.err << "error: cannot write `" << f.path() << "`\n";
      continue;
    }
    fixed += taken;
  }
  return fixed;
}

// Loads, checks and lints one target; prints its diagnostics. Returns kUsageError for a bad
// request (also an unknown lint name in fitz.toml), else kOk with the counts in `totals`.
int lint_target(const std::string& target, const LintOptions& opt, frontend::DiagnosticFormat format, Io io,
                Totals& totals) {
  frontend::SourceManager sources;
  // As `fitz check` and the language server load it: .fitzv views imported by the program are
  // checked too, and their diagnostics mapped back to the view files.
  frontend::DiagnosticBag raw;
  checker::ViewChecker views(sources);
  frontend::LoadRequest req;
  req.target = target;
  views.serve(req, frontend::disk_reader(), &raw);
  frontend::LoadResult loaded = frontend::load_program(req, sources, raw);
  if (loaded.fatal) {
    io.err << "error: " << *loaded.fatal << "\n";
    return kUsageError;
  }
  std::string unknown;
  lint::LintLevels levels = lint::manifest_levels(loaded.graph, unknown);
  if (!unknown.empty()) {
    io.err << "error: unknown lint `" << unknown << "` in `[lint]` of fitz.toml (`fitz lint --help` lists them)\n";
    return kUsageError;
  }
  lint::add_lints(opt.deny, levels.denied);  // names checked by cmd_lint
  lint::add_lints(opt.allow, levels.allowed);
  // The command line wins over fitz.toml: `--allow x` lifts a `deny` of the project.
  for (const auto& n : opt.allow)
    if (std::find(opt.deny.begin(), opt.deny.end(), n) == opt.deny.end()) levels.denied.erase(*lint::lint_by_name(n));
  checker::TypedProgram program = checker::check_program(loaded.graph, sources, raw);
  frontend::DiagnosticBag linted = lint::lint_diagnostics(program, loaded.graph, raw, levels, &sources);
  // After the lints, as the language server does: the diagnostics of generated view modules move
  // into their .fitzv files, and those of generated glue are dropped.
  frontend::DiagnosticBag leveled;
  views.finish(loaded.graph, program, linted, leveled);
  if (opt.fix && !leveled.has_errors()) {
    std::vector<frontend::Diagnostic> found = leveled.sorted();
    if (size_t n = apply_fixes(found, sources, io); n > 0) {
      totals.fixed += n;
      LintOptions again = opt;
      again.fix = false;
      return lint_target(target, again, format, io, totals);  // reports what is left
    }
  }
  std::ostream& sink = format == frontend::DiagnosticFormat::Text ? io.err : io.out;
  for (const auto& d : leveled.sorted()) {
    sink << frontend::render(d, sources, format, text_options_of(io));
    if (d.kind == frontend::DiagKind::CannotReadFile) totals.unreadable = true;
  }
  totals.errors += leveled.error_count();
  totals.warnings += leveled.warning_count();
  return kOk;
}

}  // namespace

int cmd_lint(const std::vector<std::string>& args, Io io) {
  LintOptions opt;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (a == "-h" || a == "--help") {
      print_usage(io.out);
      return kOk;
    }
    std::string value;
    if (a == "--fix") {
      opt.fix = true;
      continue;
    }
    if (option_value(args, i, "--format", opt.format)) continue;
    if (option_value(args, i, "--deny", value) || option_value(args, i, "--allow", value)) {
      if (!lint::lint_by_name(value)) {
        io.err << "error: unknown lint `" << value << "`\n\n";
        print_usage(io.err);
        return kUsageError;
      }
      (a.starts_with("--deny") ? opt.deny : opt.allow).push_back(value);
      continue;
    }
    if (a.starts_with("-")) {
      io.err << "error: unknown option `" << a << "` for `fitz lint`\n\n";
      print_usage(io.err);
      return kUsageError;
    }
    opt.targets.emplace_back(a);
  }
  auto format = frontend::parse_diagnostic_format(opt.format);
  if (!format) {
    io.err << "error: unknown format `" << opt.format << "` (expected text, json or github)\n";
    return kUsageError;
  }
  if (opt.targets.empty()) opt.targets.emplace_back();
  Totals totals;
  for (const std::string& t : opt.targets)
    if (int rc = lint_target(t, opt, *format, io, totals); rc != kOk) return rc;
  if (opt.fix && *format == frontend::DiagnosticFormat::Text)
    io.err << fmt::format("fixed {} warning{}\n", totals.fixed, totals.fixed == 1 ? "" : "s");
  if (*format == frontend::DiagnosticFormat::Text)
    io.err << frontend::render_summary(totals.errors, totals.warnings, io.color);
  if (totals.unreadable) return kUsageError;
  return totals.errors > 0 ? kUserError : kOk;
}

}  // namespace fitz::cli
