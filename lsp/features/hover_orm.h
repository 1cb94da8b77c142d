// Hover on the ORM: the table a `@table` type maps to and the SQL a query chain compiles to,
// from the same table models and planner as `fitz db` and `fitz check --dump=orm`.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "lsp/analysis.h"
#include "lsp/features/index.h"

namespace fitz::lsp {

// The `CREATE TABLE` of the struct `key` names, as markdown; nullopt unless it is a `@table`.
std::optional<std::string> table_schema_markdown(const Analysis& a, const SymbolKey& key);

// When `offset` is on the method name of an ORM call (a builder step or the terminal), the SQL
// of the whole chain and what each `$n` is bound to, as markdown, with the method name's span.
std::optional<std::pair<std::string, frontend::Span>> orm_query_markdown(const Analysis& a, ModuleId m,
                                                                        uint32_t offset);

}  // namespace fitz::lsp
