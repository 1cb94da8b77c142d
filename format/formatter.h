// The formatter proper (internal to format/): turns the tree-sitter tree of one file into a
// layout document. Split by construct: statements and blocks (format_stmts.cpp), expressions
// (format_exprs.cpp), types, patterns, imports and decorators (format_decls.cpp), lists and
// comments (format_lists.cpp).
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "format/comments.h"
#include "format/cst.h"
#include "format/doc.h"

namespace fitz::format {

class Formatter {
 public:
  Formatter(std::string_view source, TSNode root);

  // The document of the whole file.
  Doc run();

 private:
  // ---- comments and tokens (format_lists.cpp) ----
  // A node with the comments that belong before and after it.
  Doc node(TSNode n);
  // A leaf printed as written, with the comments tied to it (and any comment before it that
  // nothing has printed yet).
  Doc tok(TSNode leaf);
  Doc tok(TSNode parent, std::string_view token) { return tok(token_child(parent, token)); }
  Doc raw(TSNode n);  // source text of a node, for nodes without inner layout
  std::string_view source_of(TSNode n) const;

  // Claims the comments keyed at `key` with these placements and returns them as a document.
  std::vector<Comment*> take_leading(uint32_t key);
  std::vector<Comment*> take_trailing(uint32_t key);
  Doc leading_doc(const std::vector<Comment*>& comments, bool before_close = false);
  Doc trailing_doc(const std::vector<Comment*>& comments);
  Doc sweep(uint32_t before, bool before_close = false);  // unclaimed comments ending before `before`
  // The comments around a token that is not printed (a separator the layout replaces).
  Doc absorb(TSNode token);
  // Start of the first own-line comment between `begin` and `end`, else `end`.
  uint32_t first_comment_start(uint32_t begin, uint32_t end) const;
  bool has_comment_between(uint32_t begin, uint32_t end) const;

  struct ListStyle {
    bool spaces = false;          // `{ a, b }` rather than `{a, b}` when flat
    bool shielded = false;        // argument-like: a multi-line last element does not break it
    bool keep_multiline = false;  // broken in the source → stays broken
    bool single_comma = false;    // a one-element list keeps its comma: `(a,)`
    bool hug_last = false;        // a literal or block lambda last may open on the call's line
  };
  // `open elem, elem, … close`, one element per line with a trailing comma when broken.
  Doc delimited(TSNode open, const std::vector<TSNode>& elems, TSNode close, ListStyle style,
                const std::function<Doc(TSNode)>& elem_doc = nullptr);
  // The elements and the list's brackets found among `parent`'s children.
  Doc delimited_children(TSNode parent, const char* open, const char* close, ListStyle style);

  // ---- statements (format_stmts.cpp) ----
  Doc statement(TSNode n);
  // Statements (or type items, or match arms) one per line, keeping one blank line where the
  // source had at least one; `top_level` adds the blank lines around functions and types.
  Doc item_lines(const std::vector<TSNode>& items, bool top_level);
  // `{ items }`: always broken unless `one_line_ok` and the source had it on one line.
  Doc braced(TSNode container, bool one_line_ok);
  Doc block(TSNode n);
  Doc function_definition(TSNode n);
  Doc decorators(TSNode n, bool own_lines);

  // ---- expressions (format_exprs.cpp) ----
  Doc expression(TSNode n);
  Doc binary(TSNode n);
  Doc chain(TSNode n);
  Doc postfix_op(TSNode n);  // the part a postfix node adds to its object
  Doc arguments(TSNode n);
  Doc lambda(TSNode n);
  Doc if_expression(TSNode n);
  Doc comprehension(TSNode n);

  // ---- types, patterns, imports, decorators (format_decls.cpp) ----
  Doc type_expr(TSNode n);
  Doc pattern(TSNode n);
  Doc import_statement(TSNode n);
  Doc from_import(TSNode n);
  Doc type_definition(TSNode n);
  Doc field_declaration(TSNode n);
  Doc decorator(TSNode n);
  Doc parameter(TSNode n);

  std::string_view source_;
  TSNode root_;
  std::vector<Comment> comments_;
  size_t sweep_from_ = 0;  // comments before this index are all claimed
};

}  // namespace fitz::format
