// Sizes in decorators (`@body_limit(20MB)`-style limits): an Int of bytes or a string with a
// unit, "20MB" (10^6) or "20MiB" (2^20), read once here for the checker and the service model.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "frontend/ast.h"

namespace fitz::checker {

// "512", "64KB", "20 MB", "1GiB" (units B, KB, MB, GB, KiB, MiB, GiB, any case): the bytes, or
// nothing for anything else, zero, or more than 1 TiB.
std::optional<int64_t> parse_byte_size(std::string_view text);

// A decorator argument holding a size: an Int literal or a string literal parse_byte_size reads.
std::optional<int64_t> byte_size_arg(const frontend::Ast& ast, frontend::ExprId e);

}  // namespace fitz::checker
