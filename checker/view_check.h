// Checking live views: the driver that turns `.fitzv` files into generated Fitz modules (so the
// real parser, lowering and checker type their code), and after check_program turns the checked
// modules back into the view IR (view_model.h) and view diagnostics located in the .fitzv files.
#pragma once

#include <deque>
#include <filesystem>
#include <memory>
#include <vector>

#include "checker/view_model.h"
#include "frontend/diagnostics.h"
#include "frontend/modules.h"
#include "frontend/project.h"

namespace fitz::checker {

struct ViewUnit;  // one .fitzv file being checked (view_internal.h)

// A stretch of a view's code copied byte for byte into its generated module, so that positions
// map both ways (an editor's features go through the generated module's TIR).
struct ViewCodeSpan {
  uint32_t code_begin = 0, code_end = 0;  // in the generated module's text
  uint32_t view_begin = 0;                // in the .fitzv text
};

// Owns every view of one check. Not thread-safe; one per `fitz check` run.
class ViewChecker {
 public:
  explicit ViewChecker(frontend::SourceManager& sources);
  ~ViewChecker();
  ViewChecker(const ViewChecker&) = delete;
  ViewChecker& operator=(const ViewChecker&) = delete;

  // Wraps `base` so that a module path `X.fitz` that cannot be read is served from a sibling
  // `X.fitzv` (`from Chat import ChatRoom` imports a component), as the generated module.
  frontend::FileReader reader(frontend::FileReader base);

  // Reads a view file named on the command line or found in the project; returns the path of
  // its generated module, to load as a root (nullopt when the file cannot be read: diagnosed).
  std::optional<std::filesystem::path> add_view(const std::filesystem::path& path, frontend::DiagnosticBag& diags);

  // Points `req` at this checker, the one way every command loads a program with views: modules
  // are read through reader(base), and when `root_diags` is given the views of a project or
  // directory target (or a .fitzv target) become roots, their read problems reported there.
  // `fitz build` and `fitz openapi` pass none: only what the program imports is compiled.
  void serve(frontend::LoadRequest& req, frontend::FileReader base, frontend::DiagnosticBag* root_diags);

  // Reads the .fitzv files through `reader` instead of the disk (an editor's open buffers win).
  void read_views_with(frontend::FileReader reader) { view_reader_ = std::move(reader); }

  // The copied stretches of the view file at `view` (as CheckedViews::files names it), in
  // generated-text order; empty for a view this checker did not read.
  std::vector<ViewCodeSpan> code_map(const std::filesystem::path& view) const;
  // The .fitzv files read so far (a long-lived SourceManager must keep their texts).
  std::vector<FileId> view_files() const;

  // After check_program over a graph loaded through reader()/add_view(): builds the IR,
  // reports the view checks, and moves every diagnostic of `raw` to `out` with the spans of
  // generated modules mapped back into their .fitzv files.
  CheckedViews finish(const frontend::ModuleGraph& graph, const TypedProgram& program,
                      const frontend::DiagnosticBag& raw, frontend::DiagnosticBag& out);
  // Whether any view was read (or failed to be): without one, finish() only copies `raw` into
  // `out` and adds the checks of `@live` pages, which finish_without_views() adds to `raw`
  // itself. The two give the same diagnostics in the same order once sorted.
  bool read_any() const { return !units_.empty() || !read_diags_.empty(); }
  CheckedViews finish_without_views(const TypedProgram& program, frontend::DiagnosticBag& raw);

 private:
  void check_live_pages(const TypedProgram& program, const CheckedViews& views, frontend::DiagnosticBag& out);
  ViewUnit* unit_for_code_path(const std::filesystem::path& code_path);
  ViewUnit* load_unit(const std::filesystem::path& view_path, std::string& error, frontend::DiagnosticBag* diags);

  frontend::SourceManager& sources_;
  std::deque<std::unique_ptr<ViewUnit>> units_;
  frontend::FileReader view_reader_;
  frontend::DiagnosticBag read_diags_;  // syntax and structure problems found while reading
};

}  // namespace fitz::checker
