// Parsing a project's files on several threads before its first load: the loader parses one
// module after the other, and on a first load (opening a project) parsing and lowering are
// about half of the time to the first diagnostics. The loader then finds every file in the
// parse cache, so what it loads and reports is what it would have parsed itself.
#include <algorithm>

#include "frontend/parallel.h"
#include "frontend/project.h"
#include "lsp/workspace.h"

namespace fitz::lsp {

namespace fs = std::filesystem;

void Workspace::parse_ahead(const Unit& unit) {
  if (!unit.project) return;
  // The roots load_program takes from a project's directories (its bins and lib live there too).
  std::vector<frontend::ParseCache::ParseJob> jobs;
  frontend::FileReader read = reader();
  for (const char* sub : {"src", "tests"})
    for (const fs::path& f : frontend::fitz_files_under(unit.target / sub, ".fitz", &parse_cache_->listings())) {
      fs::path path = normalise_path(f);
      std::string error;
      if (auto text = read(path, error)) jobs.push_back({path.string(), std::move(*text)});
    }
  auto entries = parse_cache_->prepare(std::move(jobs));
  frontend::parallel_for(
      entries.size(), [&](size_t i) { parse_cache_->parse_prepared(*entries[i]); },
      std::clamp<unsigned>(entries.size() / 4, 1, 4));
  parse_cache_->adopt(std::move(entries));
}

}  // namespace fitz::lsp
