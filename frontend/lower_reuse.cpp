// Moving an unchanged top-level item from the previous AST of an edited file into the new one.
// Every field of every node is visited through Boost.PFR, so a field added to ast.h later is
// renumbered or shifted without anyone remembering to list it here (a type this does not know
// fails to compile).
#include <boost/pfr.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "frontend/field_kinds.h"
#include "frontend/lower_internal.h"

namespace fitz::frontend::lowering {

namespace {

using fields::IsOptional;
using fields::IsVariant;
using fields::IsVector;

// Renumbers the ids and moves the spans and names of nodes taken from one item of the previous
// AST. Unsigned wrap-around makes the deltas work both ways.
struct Relocate {
  uint32_t exprs, stmts, patterns, types, blocks, fns, type_decls;  // new index - old index
  FileId from_file, to_file;
  uint32_t bytes;  // new offset - old offset
  const char* from_text;
  size_t from_size;
  const char* to_text;

  template <class Tag>
  void id(Id<Tag>& v, uint32_t delta) const {
    if (v.valid()) v.index += delta;
  }

  template <class T>
  void operator()(T& v) const {
    if constexpr (std::is_same_v<T, ExprId>) id(v, exprs);
    else if constexpr (std::is_same_v<T, StmtId>) id(v, stmts);
    else if constexpr (std::is_same_v<T, PatternId>) id(v, patterns);
    else if constexpr (std::is_same_v<T, TypeExprId>) id(v, types);
    else if constexpr (std::is_same_v<T, BlockId>) id(v, blocks);
    else if constexpr (std::is_same_v<T, FnId>) id(v, fns);
    else if constexpr (std::is_same_v<T, TypeDeclId>) id(v, type_decls);
    else if constexpr (std::is_same_v<T, FileId>) {
      if (v == from_file) v = to_file;
    } else if constexpr (std::is_same_v<T, Span>) {
      if (v.file != from_file) return;
      v.file = to_file;
      v.begin += bytes;
      v.end += bytes;
    } else if constexpr (std::is_same_v<T, std::string_view>) {
      // Names point into the source text; a few are constants, which stay.
      if (v.data() >= from_text && v.data() <= from_text + from_size)
        v = std::string_view(to_text + (v.data() - from_text) + int32_t(bytes), v.size());
    } else if constexpr (std::is_same_v<T, std::string> || std::is_arithmetic_v<T> || std::is_enum_v<T>) {
      // values, not places
    } else if constexpr (IsOptional<T>::value) {
      if (v) (*this)(*v);
    } else if constexpr (IsVector<T>::value) {
      for (auto& x : v) (*this)(x);
    } else if constexpr (IsVariant<T>::value) {
      std::visit([&](auto& x) { (*this)(x); }, v);
    } else {
      static_assert(std::is_aggregate_v<T>, "a node field type that relocation does not know");
      boost::pfr::for_each_field(v, [&](auto& field) { (*this)(field); });
    }
  }
};

template <class Node>
void move_range(std::vector<Node>& from, uint32_t begin, uint32_t end, std::vector<Node>& into, const Relocate& r) {
  // Geometric growth: an exact reserve per item would copy the table again for every item.
  size_t need = into.size() + (end - begin);
  if (need > into.capacity()) into.reserve(std::max(need, 2 * into.capacity()));
  for (uint32_t i = begin; i < end && i < from.size(); ++i) {
    into.push_back(std::move(from[i]));
    r(into.back());
  }
}

// Fills the ranges of table `t` (numbered as in ItemExtent): item k's nodes start at the first
// node at or after its first byte. False when a node lies outside its item.
template <class Node>
bool find_ranges(const std::vector<Node>& table, size_t t, FileId file, std::vector<ItemExtent>& items) {
  for (size_t k = 0; k < items.size(); ++k) {
    uint32_t at = items[k].begin;
    auto it = std::partition_point(table.begin(), table.end(), [&](const Node& n) { return n.span.begin < at; });
    items[k].lo[t] = uint32_t(it - table.begin());
    if (k > 0) items[k - 1].hi[t] = items[k].lo[t];
  }
  if (items.front().lo[t] != 0) return false;
  items.back().hi[t] = uint32_t(table.size());
  for (const ItemExtent& x : items)
    for (uint32_t i = x.lo[t]; i < x.hi[t]; ++i) {
      const Span& s = table[i].span;
      if (s.file != file || s.begin < x.begin || s.end > x.end) return false;
    }
  return true;
}

}  // namespace

std::vector<ItemExtent> item_extents(const Ast& previous, TSNode previous_root) {
  std::vector<ItemExtent> items;
  if (ts_node_has_error(previous_root)) return items;
  const Grammar& g = Grammar::get();
  TSTreeCursor cursor = ts_tree_cursor_new(previous_root);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      TSNode c = ts_tree_cursor_current_node(&cursor);
      if (!ts_node_is_named(c) || g.kind(c) == NodeKind::Comment) continue;
      ItemExtent x;
      x.begin = ts_node_start_byte(c);
      x.end = ts_node_end_byte(c);
      x.symbol = ts_node_symbol(c);
      items.push_back(x);
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  // One top-level statement per item, spanning it.
  if (items.empty() || items.size() != previous.top_level.size()) return {};
  for (size_t k = 0; k < items.size(); ++k) {
    StmtId s = previous.top_level[k];
    if (!s.valid() || s.index >= previous.stmts.size()) return {};
    const Span& sp = previous.stmts[s.index].span;
    if (sp.begin != items[k].begin || sp.end != items[k].end) return {};
    items[k].lo[0] = uint32_t(k);
    items[k].hi[0] = uint32_t(k + 1);
  }
  FileId f = previous.file;
  if (!find_ranges(previous.exprs, 1, f, items) || !find_ranges(previous.stmts, 2, f, items) ||
      !find_ranges(previous.patterns, 3, f, items) || !find_ranges(previous.types, 4, f, items) ||
      !find_ranges(previous.blocks, 5, f, items) || !find_ranges(previous.fns, 6, f, items) ||
      !find_ranges(previous.type_decls, 7, f, items))
    return {};
  return items;
}

void move_item(Ast& previous, const ItemExtent& a, std::string_view previous_text, Ast& into, std::string_view text,
               FileId file, uint32_t begin) {
  Relocate r{uint32_t(into.exprs.size() - a.lo[1]),
             uint32_t(into.stmts.size() - a.lo[2]),
             uint32_t(into.patterns.size() - a.lo[3]),
             uint32_t(into.types.size() - a.lo[4]),
             uint32_t(into.blocks.size() - a.lo[5]),
             uint32_t(into.fns.size() - a.lo[6]),
             uint32_t(into.type_decls.size() - a.lo[7]),
             previous.file,
             file,
             begin - a.begin,
             previous_text.data(),
             previous_text.size(),
             text.data()};
  move_range(previous.top_level, a.lo[0], a.hi[0], into.top_level, r);
  move_range(previous.exprs, a.lo[1], a.hi[1], into.exprs, r);
  move_range(previous.stmts, a.lo[2], a.hi[2], into.stmts, r);
  move_range(previous.patterns, a.lo[3], a.hi[3], into.patterns, r);
  move_range(previous.types, a.lo[4], a.hi[4], into.types, r);
  move_range(previous.blocks, a.lo[5], a.hi[5], into.blocks, r);
  move_range(previous.fns, a.lo[6], a.hi[6], into.fns, r);
  move_range(previous.type_decls, a.lo[7], a.hi[7], into.type_decls, r);
}

}  // namespace fitz::frontend::lowering

namespace fitz::frontend {

void refile(Ast& ast, std::vector<Diagnostic>& diagnostics, FileId to) {
  // Only the file changes: ids, offsets and names stay where they are.
  lowering::Relocate r{0, 0, 0, 0, 0, 0, 0, ast.file, to, 0, nullptr, 0, nullptr};
  auto all = [&](auto& table) {
    for (auto& node : table) r(node);
  };
  all(ast.exprs);
  all(ast.stmts);
  all(ast.patterns);
  all(ast.types);
  all(ast.blocks);
  all(ast.fns);
  all(ast.type_decls);
  all(diagnostics);
  ast.file = to;
}

}  // namespace fitz::frontend
