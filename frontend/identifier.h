// Whether a string is a name the grammar accepts (`größe`, `名前`, not `let` or `9lives`):
// tools that write names into source (the language server's rename) ask the parser itself, so
// they agree with it on Unicode and keywords.
#pragma once

#include <string_view>

namespace fitz::frontend {

bool is_identifier(std::string_view name);

}  // namespace fitz::frontend
