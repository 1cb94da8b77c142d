// Reading a decorator's arguments: a keyword argument by name, the first positional one, and
// the text of a string-literal argument. The checker validates decorators with these and the
// generators read them back the same way.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "frontend/ast.h"

namespace fitz::frontend {

// The value of `name=...`, or nullptr.
const Expr* decorator_kwarg(const Ast& ast, const Decorator& d, std::string_view name);
// The first argument when it is positional, or nullptr.
const Expr* decorator_first_positional(const Ast& ast, const Decorator& d);
// The literal text of a string expression (interpolation holes left out); empty for any
// other expression.
std::string string_literal_text(const Expr& e);
// The text of a string literal with no interpolation holes; nullopt for anything else (an
// invalid id included).
std::optional<std::string> plain_string_literal(const Ast& ast, ExprId e);
// The interval of `@every(N)` in milliseconds: N an Int or Float literal of seconds, at least
// one millisecond and at most a year; nullopt for anything else.
std::optional<int64_t> every_interval_ms(const Ast& ast, const Decorator& d);

}  // namespace fitz::frontend
