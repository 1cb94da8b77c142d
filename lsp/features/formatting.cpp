// Document formatting: `fitz fmt` on the buffer, as one edit of the whole text.
#include "format/format.h"
#include "lsp/features/features.h"

namespace fitz::lsp {

std::optional<std::string> formatted_text(const std::filesystem::path& path, const std::string& text) {
  frontend::SourceFile file(frontend::FileId{}, path.string(), text);
  frontend::DiagnosticBag diags;  // syntax errors: the file is left alone, as `fitz fmt` does
  return format::format_source(file, diags);
}

}  // namespace fitz::lsp
