// Small helpers over tree-sitter nodes for the formatter: typed children, fields and the source
// text of a node.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

namespace fitz::format {

inline std::string_view type_of(TSNode n) { return ts_node_type(n); }
inline bool is(TSNode n, std::string_view type) { return !ts_node_is_null(n) && type_of(n) == type; }
inline uint32_t start_of(TSNode n) { return ts_node_start_byte(n); }
inline uint32_t end_of(TSNode n) { return ts_node_end_byte(n); }

inline TSNode field(TSNode n, const char* name) {
  return ts_node_child_by_field_name(n, name, static_cast<uint32_t>(std::strlen(name)));
}

// Every child, named or not, in order.
inline std::vector<TSNode> children(TSNode n) {
  std::vector<TSNode> out;
  uint32_t count = ts_node_child_count(n);
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) out.push_back(ts_node_child(n, i));
  return out;
}

// Named children other than comments.
inline std::vector<TSNode> named_children(TSNode n) {
  std::vector<TSNode> out;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (!is(c, "comment")) out.push_back(c);
  }
  return out;
}

// Children stored under field `name` (a field may repeat: decorators, import names, patterns).
inline std::vector<TSNode> fields(TSNode n, const char* name) {
  std::vector<TSNode> out;
  TSTreeCursor cursor = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      const char* f = ts_tree_cursor_current_field_name(&cursor);
      if (f && std::strcmp(f, name) == 0) out.push_back(ts_tree_cursor_current_node(&cursor));
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

// The first anonymous child spelled `token` (`=`, `fn`, `(`), or a null node.
inline TSNode token_child(TSNode n, std::string_view token) {
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    if (!ts_node_is_named(c) && type_of(c) == token) return c;
  }
  return TSNode{};
}

inline TSNode last_token_child(TSNode n, std::string_view token) {
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = count; i-- > 0;) {
    TSNode c = ts_node_child(n, i);
    if (!ts_node_is_named(c) && type_of(c) == token) return c;
  }
  return TSNode{};
}

}  // namespace fitz::format
