// Diagnostics of one file and the quick fixes they carry. The diagnostics are the CLI's,
// untouched: same load_program + check_program, same order.
#include "lsp/features/features.h"

namespace fitz::lsp {

std::vector<const frontend::Diagnostic*> diagnostics_for(const Analysis& a, const std::filesystem::path& path) {
  std::vector<const frontend::Diagnostic*> out;
  ModuleId m = a.module_at(path);
  frontend::FileId file = m.valid() ? a.module(m).file : frontend::FileId{};
  std::filesystem::path want = normalise_path(path);
  for (const auto& d : a.diagnostics) {
    if (!d.span.file.valid()) continue;
    if (m.valid() ? d.span.file == file : a.path_of(d.span.file) == want) out.push_back(&d);
  }
  return out;
}

std::vector<CodeAction> code_actions(const Analysis& a, const std::filesystem::path& path, uint32_t begin,
                                     uint32_t end) {
  std::vector<CodeAction> out;
  for (const frontend::Diagnostic* d : diagnostics_for(a, path)) {
    if (d->fixes.empty()) continue;
    if (d->span.end < begin || d->span.begin > end) continue;
    CodeAction act;
    act.diagnostic = d;
    act.title = d->hint.empty() ? "apply the suggested fix" : d->hint;
    for (const auto& f : d->fixes)
      if (f.span.file == d->span.file) act.edits.push_back({f.span, f.replacement});
    if (!act.edits.empty()) out.push_back(std::move(act));
  }
  return out;
}

}  // namespace fitz::lsp
