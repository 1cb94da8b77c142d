// How `fitz repl` keeps a variable between inputs without running earlier inputs again: after
// an input runs, each top-level variable's value comes back as JSON (`to_json`), and the next
// input's program declares the variable again with that value written as a Fitz literal of its
// type. Values with no literal form (connections, functions, Python objects) are not kept.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "checker/types.h"

namespace fitz::cli::repl {

// Whether a value of type `t` can be written back as a literal (a "" reason when it can).
std::string why_not_kept(checker::TypeId t, const checker::TypeStore& types);

// The Fitz literal of `value` read as type `t`, or nullopt when it does not fit the type.
std::optional<std::string> literal_of(const nlohmann::json& value, checker::TypeId t, const checker::TypeStore& types);

// A Fitz string literal: quotes, backslashes, braces and control characters escaped.
std::string str_literal(std::string_view text);

}  // namespace fitz::cli::repl
