// Doc comments: the AST keeps no comments, so the `//` lines written directly above a
// declaration (or after a field on its line) are read back from the source text, once, by the
// checker; the service model and the type facts carry them to OpenAPI and the editor.
#pragma once

#include <cstdint>
#include <string>

#include "frontend/source.h"

namespace fitz::checker {

// The `//` comment lines directly above `begin` (decorators included by the caller), or the
// comment after `end` on the same line; empty when there is none.
std::string comment_before(const frontend::SourceFile& file, uint32_t begin);
std::string comment_after(const frontend::SourceFile& file, uint32_t end);

}  // namespace fitz::checker
