// The blanks Postgres itself skips in array literals and connection strings (its
// scanner_isspace): ASCII only, whatever the C locale says.
#pragma once

namespace fitz::pg {

inline bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace fitz::pg
