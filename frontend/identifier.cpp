#include "frontend/identifier.h"

#include <cstring>
#include <string>

#include "frontend/lower_internal.h"
#include "frontend/syntax_tree.h"

namespace fitz::frontend {

bool is_identifier(std::string_view name) {
  // The grammar lexes keywords as identifiers and lowering rejects them by this list.
  if (name.empty() || name == "_" || lowering::is_keyword(name)) return false;
  for (char c : name)
    if (c == '\n' || c == '\r' || c == '\0') return false;
  // `let NAME = 1` must parse without error, and its name field must be one identifier node
  // covering NAME exactly (`a-b` or `9lives` parse as something else, or fail).
  std::string text = "let " + std::string(name) + " = 1\n";
  SyntaxTree tree = parse_text(text);
  if (!tree.valid() || tree.has_error()) return false;
  TSNode root = tree.root();
  if (ts_node_named_child_count(root) != 1) return false;
  TSNode let = ts_node_named_child(root, 0);
  TSNode id = ts_node_child_by_field_name(let, "name", 4);
  if (ts_node_is_null(id) || std::strcmp(ts_node_type(id), "identifier") != 0) return false;
  return ts_node_start_byte(id) == 4 && ts_node_end_byte(id) == 4 + name.size();
}

}  // namespace fitz::frontend
