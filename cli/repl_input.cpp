#include "cli/repl_input.h"

#include <string>

namespace fitz::cli::repl {

bool input_complete(std::string_view t) {
  int depth = 0;
  bool in_str = false, triple = false;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (in_str) {
      if (c == '\\') {
        ++i;
      } else if (triple ? t.substr(i, 3) == "\"\"\"" : c == '"') {
        in_str = false;
        if (triple) i += 2;
      }
      continue;
    }
    if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
      while (i < t.size() && t[i] != '\n') ++i;
      continue;
    }
    if (c == '"') {
      in_str = true;
      triple = t.substr(i, 3) == "\"\"\"";
      if (triple) i += 2;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    }
  }
  if (in_str || depth > 0) return false;
  // A trailing binary operator continues the expression on the next line (as in a file).
  size_t end = t.find_last_not_of(" \t\r\n");
  if (end == std::string_view::npos) return true;
  std::string_view tail = t.substr(0, end + 1);
  for (std::string_view op : {"+", "-", "*", "/", "%", "==", "!=", "<=", ">=", "<", ">", "and", "or", "..", "="}) {
    if (!tail.ends_with(op)) continue;
    if (op == "and" || op == "or") {
      size_t before = tail.size() - op.size();
      if (before > 0 && (std::isalnum(static_cast<unsigned char>(tail[before - 1])) || tail[before - 1] == '_')) continue;
    }
    if (op == ">" && tail.ends_with("->")) continue;  // `fn f() ->` is incomplete anyway, as a type follows
    return false;
  }
  return true;
}

}  // namespace fitz::cli::repl
