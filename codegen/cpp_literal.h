// C++ source text for values the generator embeds in the program it writes.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

namespace fitz::codegen {

// `s` as a C++ string literal holding exactly these bytes: printable ASCII as is (but `?`, so
// no trigraph forms), everything else as a three-digit octal escape, which, unlike a hex escape,
// never swallows the character after it.
inline std::string cpp_quoted(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f && c != '?') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("\\{:03o}", c);
    }
  }
  return out + "\"";
}

}  // namespace fitz::codegen
