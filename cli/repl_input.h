// When a `fitz repl` input is complete: brackets balanced and no string left open, so that a
// function or a literal can span lines; a line ending with a binary operator continues too.
#pragma once

#include <string_view>

namespace fitz::cli::repl {

bool input_complete(std::string_view text);

}  // namespace fitz::cli::repl
