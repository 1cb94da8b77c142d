// Live views at the syntax level: parser ownership for `.fitzv` and the walk that turns
// tree-sitter's error recovery into diagnostics. No parser is cached: no shared mutable state.
#include "frontend/view_syntax.h"

#include <algorithm>
#include <string>
#include <vector>

extern "C" const TSLanguage* tree_sitter_fitzv(void);

namespace fitz::frontend {

namespace {

// Past this many syntax diagnostics in one view the rest is noise.
constexpr size_t kMaxViewSyntaxDiagnostics = 50;

// The problem an ERROR node stands for: its first descendant that is itself an ERROR or a
// MISSING token, else the node itself (tree-sitter nests the unexpected leaf inside).
TSNode innermost_problem(TSNode error) {
  TSNode node = error;
  for (;;) {
    bool descended = false;
    uint32_t n = ts_node_child_count(node);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode child = ts_node_child(node, i);
      if (ts_node_is_missing(child)) return child;
      if (std::string_view(ts_node_type(child)) == "ERROR") {
        node = child;
        descended = true;
        break;
      }
    }
    if (!descended) return node;
  }
}

// The first leaf (token) under `node`, or `node` when it has no children.
TSNode leftmost_leaf(TSNode node) {
  while (ts_node_child_count(node) > 0) node = ts_node_child(node, 0);
  return node;
}

std::string_view view_node_type(TSNode node) { return ts_node_type(node); }

// The name of an element's tag (`p` of `<p ...>` or `</p>`), empty when absent.
std::string_view element_tag_name(TSNode tag, std::string_view text) {
  TSNode name = ts_node_child_by_field_name(tag, "tag", 3);
  if (ts_node_is_null(name)) return {};
  return text.substr(ts_node_start_byte(name), ts_node_end_byte(name) - ts_node_start_byte(name));
}

class ViewErrorReporter {
 public:
  ViewErrorReporter(const SourceFile& file, DiagnosticBag& diags) : file_(file), text_(file.text()), diags_(diags) {}

  void run(TSNode root) {
    // End tags that close another element (`<p>x</div>`) parse as elements; they come first so
    // that an ERROR holding one is not reported again.
    walk(root, [&](TSNode n) { return check_end_tag(n); });
    if (ts_node_has_error(root)) walk(root, [&](TSNode n) { return visit(n); });
  }

 private:
  // Pre-order over the tree; `f` says whether to enter a node's children. Iterative, so a
  // deeply nested template cannot exhaust the stack.
  template <typename F>
  void walk(TSNode root, F f) {
    TSTreeCursor c = ts_tree_cursor_new(root);
    for (;;) {
      bool descend = f(ts_tree_cursor_current_node(&c));
      if (descend && ts_tree_cursor_goto_first_child(&c)) continue;
      while (!ts_tree_cursor_goto_next_sibling(&c))
        if (!ts_tree_cursor_goto_parent(&c)) {
          ts_tree_cursor_delete(&c);
          return;
        }
    }
  }

  bool check_end_tag(TSNode node) {
    if (count_ >= kMaxViewSyntaxDiagnostics) return false;
    if (view_node_type(node) != "element") return ts_node_child_count(node) > 0;
    TSNode start = ts_node_child_by_field_name(node, "start", 5);
    TSNode end = ts_node_child_by_field_name(node, "end", 3);
    if (!ts_node_is_null(start) && !ts_node_is_null(end)) {
      std::string_view open = element_tag_name(start, text_), close = element_tag_name(end, text_);
      if (!open.empty() && !close.empty() && open != close) {
        add(DiagKind::ExpectedToken, span_of(end),
            "expected `</" + std::string(open) + ">` to close `<" + std::string(open) + ">`, found `</" + std::string(close) + ">`")
            .with_label(span_of(start), "opened here");
        mismatches_.push_back(span_of(end));
      }
    }
    return true;
  }

  // Reports `node` when it is a problem; returns whether its children need a visit.
  bool visit(TSNode node) {
    if (count_ >= kMaxViewSyntaxDiagnostics) return false;
    if (ts_node_is_missing(node)) {
      uint32_t at = ts_node_start_byte(node);
      add(DiagKind::ExpectedToken, Span{file_.id(), at, at}, "expected `" + std::string(view_node_type(node)) + "` in view");
      return false;
    }
    if (view_node_type(node) == "ERROR") {
      report_error(node);
      return false;
    }
    // A leaf cannot hold a problem; an interior node only when tree-sitter says so.
    return ts_node_child_count(node) > 0 && ts_node_has_error(node);
  }

  void report_error(TSNode error) {
    Span whole = span_of(error);
    for (const Span& m : mismatches_)
      if (m.begin >= whole.begin && m.end <= whole.end) return;  // reported as a mismatched end tag

    TSNode parent = ts_node_parent(error);
    TSNode lead = leftmost_leaf(error);
    std::string lead_text = token_text(lead);
    if (!ts_node_is_null(parent) && view_node_type(parent) == "source_file" && lead_text != "component" && lead_text != "from") {
      add(DiagKind::UnexpectedToken, span_of(lead),
          "unexpected `" + lead_text + "` at the top level of a view")
          .with_hint("a view holds `from ... import` lines and `component` blocks; helpers live in .fitz modules");
      return;
    }
    TSNode problem = innermost_problem(error);
    if (ts_node_is_missing(problem)) {
      visit(problem);
      return;
    }
    if (ts_node_eq(problem, error)) {
      // An element still open when its parent ended: the start tag survives as a child.
      for (uint32_t i = ts_node_child_count(error); i-- > 0;) {
        TSNode child = ts_node_child(error, i);
        if (view_node_type(child) != "start_tag") continue;
        add(DiagKind::UnclosedDelimiter, span_of(child),
            "`<" + std::string(element_tag_name(child, text_)) + ">` is never closed");
        return;
      }
    }
    TSNode at = leftmost_leaf(problem);
    std::string token = token_text(at);
    add(DiagKind::UnexpectedToken, token.empty() ? Span{file_.id(), ts_node_start_byte(at), ts_node_start_byte(at)} : span_of(at),
        token.empty() ? "unexpected end of view" : "unexpected `" + token + "` in view");
  }

  // A leaf's text for a message: one line, at most a few dozen bytes; else the word or the
  // character the leaf starts with.
  std::string token_text(TSNode leaf) const {
    uint32_t b = ts_node_start_byte(leaf), e = ts_node_end_byte(leaf);
    std::string_view t = text_.substr(std::min<size_t>(b, text_.size()), e > b ? e - b : 0);
    if (!t.empty() && t.size() <= 24 && t.find('\n') == std::string_view::npos) return std::string(t);
    if (b >= text_.size()) return "";
    auto word = [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    };
    uint32_t end = b;
    while (end < text_.size() && end - b < 24 && word(text_[end])) ++end;
    if (end == b) {
      char32_t cp;
      end = b + decode_utf8(text_, b, cp);
    }
    return std::string(text_.substr(b, end - b));
  }

  Span span_of(TSNode n) const {
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    return Span{file_.id(), b, e};
  }

  Diagnostic& add(DiagKind kind, Span span, std::string message) {
    ++count_;
    Diagnostic& d = diags_.error(kind, span, std::move(message));
    if (count_ == kMaxViewSyntaxDiagnostics) d.with_hint("further syntax errors in this view are not reported");
    return d;
  }

  const SourceFile& file_;
  std::string_view text_;
  DiagnosticBag& diags_;
  std::vector<Span> mismatches_;
  size_t count_ = 0;
};

}  // namespace

const TSLanguage* fitzv_language() { return tree_sitter_fitzv(); }

SyntaxTree parse_view_text(std::string_view text) {
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_fitzv());
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  ts_parser_delete(parser);
  return SyntaxTree(tree);
}

bool is_view_path(std::string_view path) { return path.ends_with(".fitzv"); }

void report_view_syntax_errors(const SyntaxTree& tree, const SourceFile& file, DiagnosticBag& diags) {
  if (!tree.valid()) return;
  ViewErrorReporter(file, diags).run(tree.root());
}

}  // namespace fitz::frontend
