// A TOML basic string: what fitz.lock and the `[dependencies]` lines fitz writes quote with.
#pragma once

#include <string>
#include <string_view>

namespace fitz::packages {

std::string toml_string(std::string_view s);

}  // namespace fitz::packages
