// Text for an entity as users write it: signatures, declarations, doc lines. Shared by hover,
// completion and signature help.
#pragma once

#include <string>

#include "lsp/features/index.h"

namespace fitz::lsp {

std::string show_type(const Analysis& a, checker::TypeId t);
// `fn name(a: Int, b: Str = …) -> R` for a function or method declaration.
std::string fn_signature(const Analysis& a, ModuleId m, frontend::FnId fn, const std::string& name);
// A code line describing the entity (no fences) and its documentation.
std::string describe_key(const Analysis& a, const SymbolKey& key);
std::string doc_of_key(const Analysis& a, const SymbolKey& key);
// The `//` comment lines right above a declaration, without the slashes.
std::string doc_comment_above(const Analysis& a, frontend::Span decl);
const checker::FnInfo* fn_info(const Analysis& a, ModuleId m, frontend::FnId fn);

}  // namespace fitz::lsp
