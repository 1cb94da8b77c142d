// Hover on an HTTP handler: its route and how each parameter is bound, read from the checker's
// service model (checker/service_model.h), the same answer `fitz build` compiles.
#pragma once

#include <optional>
#include <string>

#include "lsp/analysis.h"
#include "lsp/features/index.h"

namespace fitz::lsp {

// The route of the function `key` names, as markdown; nullopt unless it is a route handler.
std::optional<std::string> route_markdown(const Analysis& a, const SymbolKey& key);

}  // namespace fitz::lsp
