// What a handler's body can send (service_returns.cpp), for the service model's statuses.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "frontend/ast.h"

namespace fitz::checker::detail {

// From a handler's statements (lambdas and nested functions excluded).
struct Returns {
  std::vector<std::pair<int64_t, frontend::ExprId>> statuses;  // `return N body`, `Err(X { status: N })` (X)
  std::vector<frontend::ExprId> values;                        // `return v` (and an arrow body)
  bool plain = false;  // some path sends a plain value: a `return v`, or the end of the body
};
Returns collect_returns(const frontend::Ast& ast, const frontend::FnDecl& fn);

// An Int literal, or a name of a top-level constant bound to one (status codes).
std::optional<int64_t> int_constant(const frontend::Ast& ast, frontend::ExprId e);

}  // namespace fitz::checker::detail
