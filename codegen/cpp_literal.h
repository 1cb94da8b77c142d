// C++ source text for values the generator embeds in the program it writes.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

namespace fitz::codegen {

// `s` as a C++ string literal. Octal escapes (always three digits) never swallow the next
// character, as a hex escape would.
inline std::string cpp_quoted(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c >= 0x7f) {
      out += fmt::format("\\{:03o}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace fitz::codegen
