// Comments, tokens and the two list shapes every construct shares: bracketed lists
// (`(a, b)`, `[a, b]`, `{k: v}`, `P { f: v }`) and lines of items (statements, type items,
// match arms).
#include <algorithm>

#include "format/formatter.h"

namespace fitz::format {

Formatter::Formatter(std::string_view source, TSNode root)
    : source_(source), root_(root), comments_(collect_comments(root, source)) {}

std::string_view Formatter::source_of(TSNode n) const {
  return source_.substr(start_of(n), end_of(n) - start_of(n));
}

// ---- comments ------------------------------------------------------------------------------

namespace {

// Comments are sorted by position and their keys never decrease, so the ones for a key are
// one contiguous run.
template <typename Pred>
std::vector<Comment*> take(std::vector<Comment>& comments, uint32_t key, Pred wanted) {
  auto it = std::lower_bound(comments.begin(), comments.end(), key,
                             [](const Comment& c, uint32_t k) { return c.key < k; });
  std::vector<Comment*> out;
  for (; it != comments.end() && it->key == key; ++it) {
    if (!it->claimed && wanted(*it)) {
      it->claimed = true;
      out.push_back(&*it);
    }
  }
  return out;
}

}  // namespace

std::vector<Comment*> Formatter::take_leading(uint32_t key) {
  return take(comments_, key, [](const Comment& c) { return c.placement != Placement::Trailing; });
}

std::vector<Comment*> Formatter::take_trailing(uint32_t key) {
  return take(comments_, key, [](const Comment& c) { return c.placement == Placement::Trailing; });
}

Doc Formatter::trailing_doc(const std::vector<Comment*>& comments) {
  if (comments.empty()) return nullptr;
  std::vector<Doc> parts;
  for (const Comment* c : comments) {
    if (c->is_line)
      parts.push_back(trailing_comment(c->text));
    else
      parts.push_back(block_comment(c->text));
  }
  return concat(std::move(parts));
}

Doc Formatter::leading_doc(const std::vector<Comment*>& comments, bool before_close) {
  if (comments.empty()) return nullptr;
  std::vector<Doc> parts;
  for (size_t i = 0; i < comments.size(); ++i) {
    const Comment* c = comments[i];
    bool last = i + 1 == comments.size();
    switch (c->placement) {
      case Placement::InlineLeading:
        parts.push_back(block_comment(c->text));
        if (!(last && before_close)) parts.push_back(text(" "));  // `x /* c */)`, not `x /* c */ )`
        break;
      case Placement::Trailing:
        parts.push_back(trailing_doc({const_cast<Comment*>(c)}));
        break;
      case Placement::OwnLine:
        parts.push_back(ensure_line_start());
        if (c->is_line) {
          // Printed like a trailing comment on an empty line: whatever comes next starts a
          // new line.
          parts.push_back(trailing_comment(c->text));
        } else {
          parts.push_back(text(c->text));
        }
        if (c->newline_after) {
          if (!(last && before_close)) {
            parts.push_back(hardline());
            if (c->blank_after) parts.push_back(hardline());
          }
        } else {
          parts.push_back(text(" "));
        }
        break;
    }
  }
  return concat(std::move(parts));
}

Doc Formatter::sweep(uint32_t before, bool before_close) {
  std::vector<Comment*> pending;
  size_t i = sweep_from_;
  for (; i < comments_.size() && comments_[i].end <= before; ++i) {
    if (!comments_[i].claimed) {
      comments_[i].claimed = true;
      pending.push_back(&comments_[i]);
    }
  }
  while (sweep_from_ < comments_.size() && comments_[sweep_from_].claimed) ++sweep_from_;
  if (pending.empty()) return nullptr;
  return leading_doc(pending, before_close);
}

Doc Formatter::absorb(TSNode token) {
  if (ts_node_is_null(token)) return nullptr;
  return concat({leading_doc(take_leading(start_of(token))), trailing_doc(take_trailing(end_of(token)))});
}

uint32_t Formatter::first_comment_start(uint32_t begin, uint32_t end) const {
  auto it = std::lower_bound(comments_.begin(), comments_.end(), begin,
                             [](const Comment& c, uint32_t b) { return c.start < b; });
  for (; it != comments_.end() && it->start < end; ++it)
    if (it->placement != Placement::Trailing) return it->start;
  return end;
}

bool Formatter::has_comment_between(uint32_t begin, uint32_t end) const {
  auto it = std::lower_bound(comments_.begin(), comments_.end(), begin,
                             [](const Comment& c, uint32_t b) { return c.start < b; });
  return it != comments_.end() && it->start < end;
}

// ---- nodes and tokens ----------------------------------------------------------------------

Doc Formatter::node(TSNode n) {
  if (ts_node_is_null(n)) return nullptr;
  Doc lead = leading_doc(take_leading(start_of(n)));
  std::vector<Comment*> trail = take_trailing(end_of(n));
  Doc body = statement(n);
  return concat({lead, body, trailing_doc(trail)});
}

Doc Formatter::tok(TSNode leaf) {
  if (ts_node_is_null(leaf)) return nullptr;
  Doc before = sweep(start_of(leaf));
  std::vector<Comment*> trail = take_trailing(end_of(leaf));
  return concat({before, text(source_of(leaf)), trailing_doc(trail)});
}

Doc Formatter::raw(TSNode n) { return tok(n); }

Doc Formatter::run() {
  std::vector<TSNode> items = named_children(root_);
  std::vector<Doc> parts;
  parts.push_back(item_lines(items, true));
  std::vector<Comment*> tail = take_leading(static_cast<uint32_t>(source_.size()));
  if (!tail.empty()) {
    if (!items.empty()) {
      parts.push_back(hardline());
      if (newlines_between(source_, end_of(items.back()), tail.front()->start) >= 2) parts.push_back(hardline());
    }
    parts.push_back(leading_doc(tail, true));
  }
  parts.push_back(sweep(UINT32_MAX));
  return concat(std::move(parts));
}

// ---- lists ---------------------------------------------------------------------------------

namespace {

// The next sibling that is not a comment.
TSNode next_token_sibling(TSNode n) {
  TSNode s = ts_node_next_sibling(n);
  while (!ts_node_is_null(s) && is(s, "comment")) s = ts_node_next_sibling(s);
  return s;
}

bool is_declaration(TSNode n) { return is(n, "function_definition") || is(n, "type_definition"); }

// A last argument that may open on the call's line with its contents below: `f(x, [`,
// `f({`, `f(P {`, `f(fn(x) {`.
bool huggable(TSNode n) {
  if (is(n, "named_argument")) n = field(n, "value");
  std::string_view t = type_of(n);
  if (t == "lambda") return is(field(n, "body"), "block");
  if (t == "call_expression") {
    // `f(g({` when g is a plain name or `a.b.g`: a single call whose own last argument hugs.
    TSNode callee = field(n, "function");
    while (is(callee, "field_expression")) callee = field(callee, "object");
    if (!is(callee, "identifier")) return false;
    std::vector<TSNode> args = named_children(field(n, "arguments"));
    return !args.empty() && huggable(args.back());
  }
  return t == "list" || t == "map" || t == "struct_literal" || t == "list_comprehension" || t == "map_comprehension";
}

}  // namespace

Doc Formatter::delimited(TSNode open, const std::vector<TSNode>& elems, TSNode close, ListStyle style,
                         const std::function<Doc(TSNode)>& elem_doc) {
  bool broken = false;
  if (style.keep_multiline) {
    uint32_t first = elems.empty() ? start_of(close) : start_of(elems.front());
    broken = newlines_between(source_, end_of(open), first) > 0;
  }
  Doc open_doc = tok(open);
  if (elems.empty()) {
    std::vector<Comment*> inside = take_leading(start_of(close));
    if (inside.empty()) return concat({open_doc, tok(close)});
    return group(concat({open_doc, indent(concat({softline(), leading_doc(inside, true)})), softline(), tok(close)}),
                 true);
  }
  std::vector<Doc> inner;
  size_t last_index = 0;
  for (size_t i = 0; i < elems.size(); ++i) {
    TSNode e = elems[i];
    std::vector<Comment*> trail = take_trailing(end_of(e));
    last_index = inner.size();
    inner.push_back(elem_doc ? elem_doc(e) : node(e));
    TSNode sep = next_token_sibling(e);
    if (!is(sep, ",")) sep = TSNode{};
    std::vector<Comment*> sep_trail;
    bool last = i + 1 == elems.size();
    if (!ts_node_is_null(sep)) {
      // Before the last element's comma, which a flat list drops: the comment then sits
      // against the closing bracket, as it does once the comma is gone.
      inner.push_back(sweep(start_of(sep), last));
      sep_trail = take_trailing(end_of(sep));
    }
    trail.insert(trail.end(), sep_trail.begin(), sep_trail.end());
    if (!last)
      inner.push_back(text(","));
    else if (style.single_comma && elems.size() == 1 && !ts_node_is_null(sep))
      inner.push_back(text(","));
    else
      inner.push_back(if_break(text(",")));
    inner.push_back(trailing_doc(trail));
    if (!last) inner.push_back(line());
  }
  std::vector<Comment*> before_close = take_leading(start_of(close));
  inner.push_back(leading_doc(before_close, true));
  Doc sl = style.spaces ? line() : softline();
  Doc close_doc = tok(close);
  Doc hug;
  if (style.hug_last && huggable(elems.back())) {
    if (Doc last = with_last_group_broken(inner[last_index])) {
      std::vector<Doc> hugged = inner;
      hugged[last_index] = last;
      hug = concat({open_doc, indent(concat({sl, concat(std::move(hugged))})), sl, close_doc});
    }
  }
  Doc body = concat({open_doc, indent(concat({sl, concat(std::move(inner))})), sl, close_doc});
  if (style.shielded) return shielded_group(body, broken, hug);
  return broken ? user_broken_group(body) : group(body);
}

Doc Formatter::delimited_children(TSNode parent, const char* open, const char* close, ListStyle style) {
  return delimited(token_child(parent, open), named_children(parent), last_token_child(parent, close), style);
}

Doc Formatter::item_lines(const std::vector<TSNode>& items, bool top_level) {
  std::vector<Doc> parts;
  for (size_t i = 0; i < items.size(); ++i) {
    TSNode item = items[i];
    if (i > 0) {
      TSNode prev = items[i - 1];
      parts.push_back(hardline());
      uint32_t next_start = first_comment_start(end_of(prev), start_of(item));
      bool blank = newlines_between(source_, end_of(prev), next_start) >= 2;
      if (blank || (top_level && (is_declaration(prev) || is_declaration(item)))) parts.push_back(hardline());
    }
    parts.push_back(node(item));
    TSNode sep = next_token_sibling(item);
    if (is(sep, ",")) parts.push_back(absorb(sep));
  }
  return concat(std::move(parts));
}

Doc Formatter::braced(TSNode container, bool one_line_ok) {
  TSNode open = token_child(container, "{");
  TSNode close = last_token_child(container, "}");
  std::vector<TSNode> items = named_children(container);
  Doc open_doc = tok(open);
  if (items.empty()) {
    std::vector<Comment*> inside = take_leading(start_of(close));
    if (inside.empty()) return concat({open_doc, tok(close)});
    return group(concat({open_doc, indent(concat({hardline(), leading_doc(inside, true)})), hardline(), tok(close)}),
                 true);
  }
  bool one_line = one_line_ok && items.size() == 1 &&
                  newlines_between(source_, start_of(open), end_of(close)) == 0 &&
                  !has_comment_between(end_of(open), start_of(close));
  Doc body = item_lines(items, false);
  if (one_line) return group(concat({open_doc, indent(concat({line(), body})), line(), tok(close)}));
  std::vector<Doc> inner = {hardline(), body};
  std::vector<Comment*> before_close = take_leading(start_of(close));
  if (!before_close.empty()) {
    inner.push_back(hardline());
    if (newlines_between(source_, end_of(items.back()), before_close.front()->start) >= 2) inner.push_back(hardline());
    inner.push_back(leading_doc(before_close, true));
  }
  return group(concat({open_doc, indent(concat(std::move(inner))), hardline(), tok(close)}), true);
}

}  // namespace fitz::format
