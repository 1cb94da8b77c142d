// Syntax errors: tree-sitter's ERROR and MISSING nodes become compiler-style diagnostics.
// Lexical problems (stray characters, unterminated strings and comments) are always reported;
// otherwise each statement gets at most one message, the most telling one found in it.
#include <algorithm>
#include <set>
#include <cctype>
#include <cstdio>
#include <string>

#include "frontend/lower_internal.h"

namespace fitz::frontend::lowering {

namespace {

// Past this many syntax diagnostics in one file the rest is noise; the file is reported as
// unparseable from there on.
constexpr size_t kMaxSyntaxDiagnostics = 100;

// What syntax errors are grouped by: statements, plus the statement-like items of type bodies
// and match arms.
bool is_statement_kind(NodeKind k) {
  return is_statement_node(k) || k == NodeKind::FieldDeclaration || k == NodeKind::MatchArm;
}

bool is_statement_list(NodeKind k) {
  return k == NodeKind::SourceFile || k == NodeKind::Block || k == NodeKind::TypeBody ||
         k == NodeKind::MatchBody;
}

char closer_for(std::string_view opener) {
  if (opener == "(") return ')';
  if (opener == "[") return ']';
  return '}';
}

// A syntax problem found in one statement; the best one per statement is reported.
struct Candidate {
  int priority;  // lower is more telling
  DiagKind kind;
  Span span;
  std::string message;
  std::string hint;
  std::vector<Label> labels;
  // A `{` left open / a `}` with nothing to close: when the `{` sits on a line that already has
  // an error, the parser lost the construct that owned the block, and the pair is noise.
  bool open_brace = false;
  bool stray_close_brace = false;
};

class SyntaxErrorReporter {
 public:
  explicit SyntaxErrorReporter(Lowerer& l) : l_(l), text_(l.source_.text()) {}

  void run(TSNode root) {
    // Depth-first over the nodes that contain errors, remembering the innermost statement so
    // that several ERROR/MISSING nodes of one broken statement give one diagnostic. Parents and
    // previous siblings come from the walk itself: tree-sitter cannot find the parent of a
    // zero-width MISSING node reliably.
    TSTreeCursor c = ts_tree_cursor_new(root);
    std::vector<std::pair<uint32_t, TSNode>> stmt_stack;  // (depth, statement)
    std::vector<TSNode> path;                              // ancestors of the current node
    std::vector<TSNode> prev;                              // previous sibling at each depth
    prev.push_back(TSNode{});
    uint32_t depth = 0;
    for (;;) {
      if (stopped_) break;
      TSNode n = ts_tree_cursor_current_node(&c);
      NodeKind k = l_.kind(n);
      bool descend = false;
      TSNode parent = path.empty() ? TSNode{} : path.back();
      if (k == NodeKind::Error) {
        TSNode group = n;
        if (!stmt_stack.empty() && !is_statement_list(l_.kind(parent))) group = stmt_stack.back().second;
        on_error(n, group, parent, prev.back());
      } else if (ts_node_is_missing(n)) {
        TSNode group = stmt_stack.empty() ? n : stmt_stack.back().second;
        on_missing(n, group, parent, prev.back());
      } else if (ts_node_has_error(n)) {
        descend = true;
      }
      if (descend && ts_tree_cursor_goto_first_child(&c)) {
        if (is_statement_kind(k)) stmt_stack.emplace_back(depth, n);
        path.push_back(n);
        prev.push_back(TSNode{});
        ++depth;
        continue;
      }
      prev.back() = n;
      bool done = false;
      while (!ts_tree_cursor_goto_next_sibling(&c)) {
        if (!ts_tree_cursor_goto_parent(&c)) {
          done = true;
          break;
        }
        --depth;
        if (!path.empty()) path.pop_back();
        prev.pop_back();
        prev.back() = ts_tree_cursor_current_node(&c);
        if (!stmt_stack.empty() && stmt_stack.back().first == depth) stmt_stack.pop_back();
      }
      if (done) break;
    }
    ts_tree_cursor_delete(&c);
    flush_group();
    emit_pending();
  }

 private:
  uint32_t line_of(uint32_t offset) const { return l_.source_.line_col(offset).line; }

  // One syntax error per line, like most compilers: what follows on the same line is usually a
  // consequence of the first problem. Stray characters are reported regardless (each is real).
  void emit_pending() {
    std::stable_sort(pending_.begin(), pending_.end(),
                     [](const Candidate& a, const Candidate& b) { return a.span.begin < b.span.begin; });
    bool drop_next_close = false;
    for (Candidate& c : pending_) {
      // An unclosed `{` belongs to the line it was opened on.
      uint32_t line = line_of(c.open_brace && !c.labels.empty() ? c.labels[0].span.begin : c.span.begin);
      if (c.stray_close_brace && drop_next_close) {
        drop_next_close = false;
        continue;
      }
      if (lines_with_errors_.count(line)) {
        if (c.open_brace) drop_next_close = true;
        continue;
      }
      if (count_ >= kMaxSyntaxDiagnostics) break;
      ++count_;
      lines_with_errors_.insert(line);
      Diagnostic& d = l_.diags_.error(c.kind, c.span, std::move(c.message));
      if (!c.hint.empty()) d.with_hint(std::move(c.hint));
      for (Label& lab : c.labels) d.with_label(lab.span, std::move(lab.message));
    }
    pending_.clear();
  }

  // ---- helpers over the source text

  std::string_view text(TSNode n) const { return l_.text(n); }
  Span span(uint32_t b, uint32_t e) const { return l_.span(b, e); }
  Span span(TSNode n) const { return l_.span(n); }
  std::string position(uint32_t offset) const {
    LineCol lc = l_.source_.line_col(offset);
    return std::to_string(lc.line) + ":" + std::to_string(lc.col);
  }

  // How a token reads in a message: `x`, `42`, keyword `fn`, a string.
  std::string describe(TSNode leaf) const {
    NodeKind k = l_.kind(leaf);
    if (k == NodeKind::StringContent || k == NodeKind::EscapeSequence || k == NodeKind::TokQuote ||
        k == NodeKind::TokTripleQuote || k == NodeKind::String)
      return "a string";
    if (k == NodeKind::TokBytesQuote || k == NodeKind::Bytes) return "a bytes literal";
    std::string_view t = ts_node_is_named(leaf) ? text(leaf) : std::string_view(ts_node_type(leaf));
    if (t.size() > 24 || t.find('\n') != std::string_view::npos) t = t.substr(0, std::min<size_t>(t.find('\n'), 24));
    return std::string("`") + std::string(t) + "`";
  }

  // The token text a leaf stands for: an anonymous token's grammar text, a named leaf's source.
  std::string_view leaf_text(TSNode leaf) const {
    if (ts_node_is_named(leaf)) return text(leaf);
    return ts_node_type(leaf);
  }

  bool at_line_end(uint32_t offset) const { return lowering::at_line_end(text_, offset); }
  uint32_t back_over_blanks(uint32_t offset) const { return lowering::back_over_blanks(text_, offset); }

  // ---- reporting

  bool add_direct(DiagKind kind, Span sp, std::string message, std::string hint = {}) {
    if (count_ >= kMaxSyntaxDiagnostics) {
      stopped_ = true;
      return false;
    }
    ++count_;
    lines_with_errors_.insert(line_of(sp.begin));
    Diagnostic& d = l_.diags_.error(kind, sp, std::move(message));
    if (!hint.empty()) d.with_hint(std::move(hint));
    last_direct_ = &d;
    return true;
  }

  void consider(TSNode group, Candidate cand) {
    uint32_t key_begin = ts_node_start_byte(group), key_end = ts_node_end_byte(group);
    if (!have_group_ || key_begin != group_begin_ || key_end != group_end_) {
      flush_group();
      have_group_ = true;
      group_begin_ = key_begin;
      group_end_ = key_end;
    }
    if (!best_ || cand.priority < best_->priority) best_ = std::move(cand);
  }

  void start_group(TSNode group) {
    uint32_t key_begin = ts_node_start_byte(group), key_end = ts_node_end_byte(group);
    if (!have_group_ || key_begin != group_begin_ || key_end != group_end_) {
      flush_group();
      have_group_ = true;
      group_begin_ = key_begin;
      group_end_ = key_end;
    }
  }

  void flush_group() {
    // A stray character explains the statement's other troubles except an unclosed bracket;
    // an unterminated string or comment explains all of them.
    bool suppressed = group_has_string_error_ || (group_has_lexical_ && best_ && best_->priority > 1);
    if (best_ && !suppressed) {
      if (pending_.size() < 4 * kMaxSyntaxDiagnostics)
        pending_.push_back(std::move(*best_));
      else
        stopped_ = true;
    }
    best_.reset();
    group_has_lexical_ = false;
    group_has_string_error_ = false;
    have_group_ = false;
  }

  // ---- lexical problems inside an ERROR node

  // A leaf ERROR node is a character no token starts with.
  void unexpected_character(TSNode leaf) { unexpected_character_at(ts_node_start_byte(leaf), ts_node_end_byte(leaf)); }

  void unexpected_character_at(uint32_t b, uint32_t end) {
    if (b >= text_.size() || b == last_unexpected_begin_) return;
    last_unexpected_begin_ = b;
    if (last_unexpected_end_ == b && b != 0) {  // a run of stray characters is one problem
      last_unexpected_end_ = end;
      return;
    }
    last_unexpected_end_ = end;
    char32_t cp;
    uint32_t len = decode_utf8(text_, b, cp);
    Span sp = span(b, b + len);
    group_has_lexical_ = true;
    if (cp == ';') {
      if (add_direct(DiagKind::StatementSeparator, sp, "unexpected character `;`",
                     "statements end at a newline; there is no `;`")) {
        uint32_t e = b + 1;
        while (e < text_.size() && (text_[e] == ' ' || text_[e] == '\t')) ++e;
        last_direct_->with_fix(span(b, e), e < text_.size() && text_[e] != '\n' ? "\n" : "");
      }
      return;
    }
    if (cp == 0xFFFD && len == 1) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%02X", unsigned(static_cast<unsigned char>(text_[b])));
      add_direct(DiagKind::UnexpectedCharacter, sp, std::string("invalid UTF-8 byte ") + buf,
                 "Fitz source files must be UTF-8");
      return;
    }
    if (cp < 0x20 || cp == 0x7F) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "U+%04X", unsigned(cp));
      add_direct(DiagKind::UnexpectedCharacter, sp, std::string("unexpected control character ") + buf);
      return;
    }
    std::string hint;
    switch (cp) {
      case '!': hint = "write `not x` to negate a Bool; `!=` compares for inequality"; break;
      case '#': hint = "comments start with `//`"; break;
      case '$': hint = "interpolate with `{name}` inside a string"; break;
      case '`': hint = "strings are written with double quotes: `\"...\"`"; break;
      case '\'': hint = "strings are written with double quotes: `\"...\"`; `'name` is a loop label"; break;
      default: break;
    }
    add_direct(DiagKind::UnexpectedCharacter, sp,
               "unexpected character `" + std::string(text_.substr(b, len)) + "`", hint);
  }

  // `"` left open on its line (or `"""` / `b"` never closed).
  void unterminated_string(TSNode quote) {
    group_has_lexical_ = true;
    group_has_string_error_ = true;
    std::string_view q = ts_node_type(quote);
    if (q == "\"\"\"") {
      add_direct(DiagKind::UnterminatedString, span(quote), "unterminated string: no closing `\"\"\"`",
                 "add `\"\"\"` where the text ends");
    } else {
      add_direct(DiagKind::UnterminatedString, span(quote), "unterminated string",
                 "a `\"` string ends on the line it starts; close it with `\"`, or use `\"\"\"` for text "
                 "that spans lines");
    }
  }

  void unterminated_comment(uint32_t at) {
    group_has_lexical_ = true;
    group_has_string_error_ = true;
    add_direct(DiagKind::UnterminatedBlockComment, span(at, at + 2), "unterminated block comment",
               "close it with `*/`; block comments do not nest");
    // Everything after `/*` is comment text: no further errors, no further statements.
    l_.comment_cutoff_ = at;
    stopped_ = true;
  }

  // ---- ERROR nodes

  NextToken next_token(uint32_t offset) const { return lowering::next_token(text_, offset); }

  std::string describe_next(const NextToken& t) const {
    if (t.at_line_end) return "the end of the line";
    if (t.text == "\"") return "a string";
    if (is_keyword(t.text)) return std::string("keyword `") + std::string(t.text) + "`";
    return std::string("`") + std::string(t.text) + "`";
  }

  uint32_t line_content_end(uint32_t offset) const { return lowering::line_content_end(text_, offset); }

  static bool is_list_like(NodeKind k) {
    return k == NodeKind::Arguments || k == NodeKind::List || k == NodeKind::Tuple || k == NodeKind::Parameters ||
           k == NodeKind::DecoratorArguments || k == NodeKind::TypeArguments || k == NodeKind::Map ||
           k == NodeKind::FunctionTypeParameters;
  }

  static std::string list_items(NodeKind k) {
    switch (k) {
      case NodeKind::Arguments:
      case NodeKind::DecoratorArguments: return "arguments";
      case NodeKind::Parameters: return "parameters";
      case NodeKind::TypeArguments:
      case NodeKind::FunctionTypeParameters: return "types";
      case NodeKind::Map: return "entries";
      default: return "elements";
    }
  }

  // A keyword or token that must be followed by something specific.
  static const char* expectation_after(std::string_view t) {
    if (t == "let") return "a name or a tuple pattern";
    if (t == "fn") return "a function name or `(`";
    if (t == "type") return "a type name";
    if (t == "import" || t == "from") return "a module name";
    if (t == "as") return "a name";
    if (t == "@") return "a decorator name";
    if (t == ".") return "a field name, a tuple index or `await`";
    if (t == "->") return "a type";
    return nullptr;
  }

  static bool completes_pattern(std::string_view t, NodeKind k) {
    return k == NodeKind::Identifier || k == NodeKind::Integer || k == NodeKind::Float || t == ")" || t == "\"" ||
           t == "\"\"\"" || t == "_" || t == "true" || t == "false" || t == "null";
  }

  void on_error(TSNode err, TSNode group, TSNode parent, TSNode prev_sibling) {
    start_group(group);
    last_error_end_ = ts_node_end_byte(err);
    last_unexpected_end_ = UINT32_MAX;
    bool had_string_error = false;

    std::vector<TSNode> open;
    std::optional<Candidate> mismatch;
    std::optional<Candidate> pair_problem;
    TSNode first_leaf{}, last_leaf{}, prev{}, before_prev{};
    TSNode first_stmt_keyword{}, block_keyword{}, arrow{}, pattern_end{};
    bool have_brace_after_keyword = false;
    bool have_prev = false;

    // Leaves of the ERROR node, in order, with an explicit cursor (no recursion).
    TSTreeCursor c = ts_tree_cursor_new(err);
    std::vector<TSNode> path{err};
    bool at_root = true;
    for (;;) {
      TSNode n = ts_tree_cursor_current_node(&c);
      bool is_leaf = ts_node_child_count(n) == 0;
      if (!at_root && is_leaf) {
        NodeKind k = l_.kind(n);
        uint32_t b = ts_node_start_byte(n);
        TSNode leaf_parent = path.back();
        NodeKind pk = l_.kind(leaf_parent);
        if (k == NodeKind::Error) {
          unexpected_character(n);
        } else if (ts_node_is_missing(n)) {
          on_missing(n, group, leaf_parent, prev);
        } else if (k == NodeKind::Comment) {
          // nothing
        } else if ((k == NodeKind::TokQuote || k == NodeKind::TokTripleQuote || k == NodeKind::TokBytesQuote) &&
                   pk != NodeKind::String && pk != NodeKind::Bytes) {
          if (!had_string_error) unterminated_string(n);
          had_string_error = true;
          if (stopped_) break;
        } else if (k == NodeKind::TokSlash && b + 1 < text_.size() && text_[b + 1] == '*') {
          unterminated_comment(b);
          break;
        } else {
          if (ts_node_is_null(first_leaf)) first_leaf = n;
          std::string_view t = leaf_text(n);
          if (t == "(" || t == "[" || t == "{") {
            open.push_back(n);
          } else if (t == ")" || t == "]" || t == "}") {
            if (open.empty()) {
              if (!mismatch) {
                mismatch = Candidate{2, DiagKind::UnexpectedToken, span(n), std::string("unexpected `") + std::string(t) + "`",
                                     std::string("there is no open `") + (t == ")" ? "(" : t == "]" ? "[" : "{") +
                                         "` for it to close",
                                     {}};
                mismatch->stray_close_brace = t == "}";
              }
            } else {
              char want = closer_for(leaf_text(open.back()));
              if (t[0] == want) {
                open.pop_back();
              } else if (!mismatch) {
                TSNode o = open.back();
                mismatch = Candidate{1, DiagKind::UnclosedDelimiter, span(n),
                                     std::string("expected `") + want + "` to close `" + std::string(leaf_text(o)) +
                                         "` opened at " + position(ts_node_start_byte(o)) + ", found `" +
                                         std::string(t) + "`",
                                     "",
                                     {Label{span(o), "opened here"}}};
              }
            }
          }
          if (t == "if" || t == "while" || t == "for" || t == "match" || t == "loop" || t == "else") {
            if (ts_node_is_null(block_keyword)) block_keyword = n;
          } else if (t == "{" && !ts_node_is_null(block_keyword)) {
            have_brace_after_keyword = true;
          }
          if (t == "=>") arrow = n;
          if (ts_node_is_null(pattern_end) && have_prev && b > ts_node_end_byte(prev) &&
              completes_pattern(leaf_text(prev), l_.kind(prev)) && t != "|" && t != ".." && t != "..=" &&
              t != "(" && t != ")" && t != "," && t != "if" && t != "=>")
            pattern_end = n;
          if (ts_node_is_null(first_stmt_keyword) && have_prev && starts_statement(t) &&
              line_break_between(ts_node_end_byte(prev), b))
            first_stmt_keyword = n;
          if (have_prev && !pair_problem) pair_problem = check_pair(prev, n);
          // `let x == 1`: the name is not followed by `=` or `:`.
          if (!pair_problem && have_prev && !ts_node_is_null(before_prev) && leaf_text(before_prev) == "let" &&
              l_.kind(prev) == NodeKind::Identifier && t != "=" && t != ":") {
            pair_problem = Candidate{2, DiagKind::ExpectedToken, span(n),
                                     std::string("expected `=` after `let ") + std::string(leaf_text(prev)) +
                                         "`, found " + describe(n),
                                     t == "==" ? "`==` compares; a binding is written `let name = value`" : "", {}};
          }
          before_prev = prev;
          prev = n;
          have_prev = true;
          last_leaf = n;
        }
      }
      at_root = false;
      if (ts_tree_cursor_goto_first_child(&c)) {
        path.push_back(n);
        continue;
      }
      bool done = false;
      while (!ts_tree_cursor_goto_next_sibling(&c)) {
        if (!ts_tree_cursor_goto_parent(&c) || ts_node_eq(ts_tree_cursor_current_node(&c), err)) {
          done = true;
          break;
        }
        path.pop_back();
      }
      if (done) break;
    }
    ts_tree_cursor_delete(&c);
    if (stopped_ || group_has_string_error_) return;
    const uint32_t err_end = ts_node_end_byte(err);
    const NodeKind parent_kind = l_.kind(parent);

    std::vector<TSNode> parts;  // the ERROR's own named children
    for_each_child(l_.cursors_, err, [&](TSNode ch, TSFieldId) {
      if (ts_node_is_named(ch) && l_.kind(ch) != NodeKind::Comment && parts.size() < 3) parts.push_back(ch);
    });

    if (mismatch) return consider(group, std::move(*mismatch));
    if (!open.empty()) {
      TSNode o = open.front();
      std::string_view ot = leaf_text(o);
      uint32_t end = back_over_blanks(err_end);
      if (!ts_node_is_null(first_stmt_keyword)) end = back_over_blanks(ts_node_start_byte(first_stmt_keyword));
      std::string what = ot == "{" ? "the block" : std::string("`") + std::string(ot) + "`";
      Candidate cand{1, DiagKind::UnclosedDelimiter, span(end, end),
                     std::string("expected `") + closer_for(ot) + "` to close " + what + " opened at " +
                         position(ts_node_start_byte(o)),
                     "",
                     {Label{span(o), std::string("unclosed `") + std::string(ot) + "`"}}};
      cand.open_brace = ot == "{";
      return consider(group, std::move(cand));
    }
    if (pair_problem) return consider(group, std::move(*pair_problem));
    if (!ts_node_is_null(last_leaf)) {
      std::string_view lt = leaf_text(last_leaf);
      if (const char* want = expectation_after(lt); want && (!ts_node_is_named(last_leaf) || is_keyword(lt))) {
        NextToken next = next_token(err_end);
        Span at = next.at_line_end ? span(ts_node_end_byte(last_leaf), ts_node_end_byte(last_leaf))
                                   : span(next.begin, next.end);
        return consider(group, Candidate{2, DiagKind::ExpectedToken, at,
                                         "expected " + std::string(want) + " after `" + std::string(lt) +
                                             "`, found " + describe_next(next),
                                         "", {}});
      }
      if (lt == ":" && !ts_node_is_named(last_leaf)) {
        NextToken next = next_token(err_end);
        bool type_context = parent_kind == NodeKind::Parameters || parent_kind == NodeKind::TypeBody ||
                            parent_kind == NodeKind::SourceFile || parent_kind == NodeKind::Block ||
                            parent_kind == NodeKind::LetStatement;
        Span at = next.at_line_end ? span(ts_node_end_byte(last_leaf), ts_node_end_byte(last_leaf))
                                   : span(next.begin, next.end);
        return consider(group, Candidate{2, DiagKind::ExpectedToken, at,
                                         std::string(type_context ? "expected a type" : "expected a value") +
                                             " after `:`, found " + describe_next(next),
                                         "", {}});
      }
      if (!ts_node_is_named(last_leaf) && is_binary_operator_text(lt) && lt != "=>" && lt != "not") {
        NextToken next = next_token(err_end);
        if (!next.at_line_end && is_binary_operator_text(next.text) && next.text != "-" && next.text != "not" &&
            next.text != "~") {
          return consider(group, Candidate{3, DiagKind::ExpectedExpression, span(next.begin, next.end),
                                           "expected an expression after `" + std::string(lt) + "`, found `" +
                                               std::string(next.text) + "`",
                                           "", {}});
        }
      }
      if (!ts_node_is_named(last_leaf) && is_binary_operator_text(lt) && at_end_of_expression(ts_node_end_byte(last_leaf))) {
        uint32_t e = ts_node_end_byte(last_leaf);
        return consider(group, Candidate{3, DiagKind::ExpectedExpression, span(e, e),
                                         "expected an expression after `" + std::string(lt) + "`", "", {}});
      }
    }
    if (!ts_node_is_null(block_keyword) && !have_brace_after_keyword) {
      std::string_view kw = leaf_text(block_keyword);
      uint32_t e = line_content_end(ts_node_start_byte(block_keyword));
      std::string what = kw == "if" ? "the `if` condition" : kw == "while" ? "the `while` condition"
                         : kw == "for" ? "the `for` iterable" : kw == "match" ? "the `match` value"
                                                                              : std::string("`") + std::string(kw) + "`";
      return consider(group, Candidate{3, DiagKind::ExpectedToken, span(e, e), "expected `{` after " + what,
                                       "the body of `" + std::string(kw) + "` is a block in braces, even for one statement",
                                       {Label{span(block_keyword), std::string("`") + std::string(kw) + "` here"}}});
    }
    if (parent_kind == NodeKind::MatchBody && ts_node_is_null(arrow) && !ts_node_is_null(pattern_end)) {
      return consider(group, Candidate{3, DiagKind::ExpectedToken, span(pattern_end),
                                       "expected `=>` after the match pattern, found " + describe(pattern_end),
                                       "a `match` arm is written `pattern => value`", {}});
    }
    if ((is_list_like(parent_kind) || parent_kind == NodeKind::TypeBody) && parts.size() >= 2 &&
        ts_node_start_byte(parts[1]) > ts_node_end_byte(parts[0])) {
      std::string message =
          parent_kind == NodeKind::Map ? "expected `:` after the map key, found " + describe(parts[1])
          : parent_kind == NodeKind::TypeBody
              ? std::string("expected `:` after the field name `") + std::string(text(parts[0])) + "`, found " + describe(parts[1])
              : "expected `,` between the " + list_items(parent_kind) + ", found " + describe(parts[1]);
      return consider(group, Candidate{3, DiagKind::ExpectedToken, span(parts[1]), std::move(message), "", {}});
    }
    if (is_list_like(parent_kind) && !ts_node_is_null(first_leaf) && !ts_node_is_null(prev_sibling) &&
        ts_node_is_named(prev_sibling) && ts_node_is_named(first_leaf)) {
      std::string_view before = token_before(ts_node_start_byte(err));
      if (before != "," && before != "(" && before != "[" && before != "{" && before != "<") {
        return consider(group, Candidate{3, DiagKind::ExpectedToken, span(first_leaf),
                                         "expected `,` between the " + list_items(parent_kind) + ", found " +
                                             describe(first_leaf),
                                         "", {}});
      }
    }
    if (is_list_like(parent_kind)) {
      NextToken next = next_token(err_end);
      if (!next.at_line_end && next.text != "," && next.text != ")" && next.text != "]" && next.text != "}" &&
          next.text != ">") {
        return consider(group, Candidate{3, DiagKind::ExpectedToken, span(next.begin, next.end),
                                         "expected `,` between the " + list_items(parent_kind) + ", found " +
                                             describe_next(next),
                                         "", {}});
      }
    }
    // An operator where an operand should be: `1 + * 2`.
    if (!ts_node_is_null(first_leaf) && !ts_node_is_named(first_leaf) && is_binary_operator_text(leaf_text(first_leaf)) &&
        leaf_text(first_leaf) != "-" && leaf_text(first_leaf) != "not" && leaf_text(first_leaf) != "~") {
      std::string_view before = token_before(ts_node_start_byte(err));
      std::string_view op = leaf_text(first_leaf);
      if ((op == "&" || op == "|") && before == op && ts_node_start_byte(first_leaf) > 0 &&
          text_[ts_node_start_byte(first_leaf) - 1] == op[0]) {
        return consider(group, Candidate{3, DiagKind::UnexpectedToken, span(ts_node_start_byte(first_leaf) - 1, ts_node_end_byte(first_leaf)),
                                         "`" + std::string(op) + std::string(op) + "` is not an operator in Fitz",
                                         op == "&" ? "write `and` for logical and" : "write `or` for logical or", {}});
      }
      if (is_binary_operator_text(before) && before != "=>") {
        return consider(group, Candidate{3, DiagKind::ExpectedExpression, span(first_leaf),
                                         "expected an expression after `" + std::string(before) + "`, found `" +
                                             std::string(leaf_text(first_leaf)) + "`",
                                         "", {}});
      }
    }
    TSNode culprit = !ts_node_is_null(first_stmt_keyword) ? first_stmt_keyword : first_leaf;
    if (ts_node_is_null(culprit)) {
      // An ERROR with no tokens of its own (the scanner turns a `;` at a statement's end into a
      // hidden error token): the character at its start says what went wrong.
      uint32_t b = ts_node_start_byte(err);
      if (b < text_.size()) {
        char32_t cp;
        uint32_t len = decode_utf8(text_, b, cp);
        if (!can_start_token(cp)) {
          unexpected_character_at(b, b + len);
          return;
        }
      }
    }
    if (ts_node_is_null(culprit)) {
      // An ERROR with no tokens of its own: point at where it starts.
      uint32_t b = ts_node_start_byte(err);
      return consider(group, Candidate{5, DiagKind::UnexpectedToken,
                                       span(b, std::min<uint32_t>(b + 1, uint32_t(text_.size()))), "unexpected input",
                                       "", {}});
    }
    if (auto number = glued_number(culprit)) return consider(group, std::move(*number));
    Candidate cand = generic(culprit);
    // After a complete expression on the same line: two statements were written on one line.
    bool starts_expression = ts_node_is_named(culprit) || leaf_text(culprit) == "(" || leaf_text(culprit) == "[" ||
                             leaf_text(culprit) == "\"";
    if (ts_node_is_null(first_stmt_keyword) && ts_node_eq(culprit, first_leaf) && !ts_node_is_null(prev_sibling) &&
        ts_node_is_named(prev_sibling) && !line_break_between(ts_node_end_byte(prev_sibling), ts_node_start_byte(culprit)) &&
        cand.hint.empty() && starts_expression &&
        (is_statement_list(parent_kind) || l_.kind(parent) == NodeKind::CallExpression ||
         l_.kind(parent) == NodeKind::BinaryExpression))
      cand.hint = "each statement goes on its own line";
    consider(group, std::move(cand));
  }

  bool line_break_between(uint32_t from, uint32_t to) const { return lowering::line_break_between(text_, from, to); }

  static bool starts_statement(std::string_view t) {
    return t == "let" || t == "fn" || t == "type" || t == "return" || t == "import" || t == "from" ||
           t == "while" || t == "for" || t == "@" || t == "async";
  }

  bool at_end_of_expression(uint32_t offset) const { return lowering::at_end_of_expression(text_, offset); }

  // "expected a name after `let`, found `=`" and its relatives.
  std::optional<Candidate> check_pair(TSNode prev, TSNode next) const {
    std::string_view p = leaf_text(prev);
    std::string_view n = leaf_text(next);
    if ((p == "if" || p == "while" || p == "match" || p == "in") && !ts_node_is_named(prev) && n == "{") {
      std::string what = p == "in" ? "an iterable" : p == "match" ? "a value" : "a condition";
      return Candidate{2, DiagKind::ExpectedExpression, span(next),
                       "expected " + what + " after `" + std::string(p) + "`, found `{`", "", {}};
    }
    if (p == "for" && !ts_node_is_named(prev) && n == "in") {
      return Candidate{2, DiagKind::ExpectedToken, span(next), "expected a pattern after `for`, found keyword `in`",
                       "write `for item in items { ... }`", {}};
    }
    if (l_.kind(prev) == NodeKind::Float && (n == ".." || n == "..=")) {
      return Candidate{2, DiagKind::InvalidPattern, span(prev), "range patterns need `Int` bounds",
                       "match a `Float` with a guard instead, e.g. `x if x >= 0.5 => ...`", {}};
    }
    if (ts_node_is_named(prev) && !is_keyword(p)) return std::nullopt;
    const char* want = expectation_after(p);
    if (!want) return std::nullopt;
    NodeKind nk = l_.kind(next);
    std::string_view nt = leaf_text(next);
    bool next_is_name = nk == NodeKind::Identifier && !is_keyword(nt);
    bool ok = next_is_name;
    if ((p == "let" || p == "fn") && nt == "(") ok = true;
    if (p == "." && (nk == NodeKind::Integer || nt == "await")) ok = true;
    if (p == "->") ok = next_is_name || nt == "(" || nt == "Fn";
    if (ok) return std::nullopt;
    std::string hint;
    if (nk == NodeKind::Identifier && is_keyword(nt)) hint = std::string("`") + std::string(nt) + "` is a keyword";
    return Candidate{2, DiagKind::ExpectedToken, span(next),
                     "expected " + std::string(want) + " after `" + std::string(p) + "`, found " + describe(next),
                     std::move(hint), {}};
  }

  // Letters glued to a number (`1e`, `12abc`, `0x1g`): the lexer ended the number early.
  std::optional<Candidate> glued_number(TSNode culprit) const {
    uint32_t b = ts_node_start_byte(culprit);
    if (l_.kind(culprit) != NodeKind::Identifier || b == 0 || !std::isdigit(static_cast<unsigned char>(text_[b - 1])))
      return std::nullopt;
    auto part = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; };
    uint32_t start = b, end = ts_node_end_byte(culprit);
    while (start > 0 && part(text_[start - 1])) --start;
    while (start < b && !std::isdigit(static_cast<unsigned char>(text_[start]))) ++start;
    std::string_view word = text_.substr(start, end - start);
    bool exponent = word.size() >= 2 && (word.back() == 'e' || word.back() == 'E') &&
                    word.find_first_not_of("0123456789_.") == word.size() - 1;
    if (exponent) {
      return Candidate{2, DiagKind::InvalidNumberLiteral, span(start, end),
                       "the exponent of a float literal needs at least one digit",
                       "for example `" + std::string(word) + "3`", {}};
    }
    return Candidate{2, DiagKind::InvalidNumberLiteral, span(start, end),
                     "invalid number literal `" + std::string(word) + "`", "a name cannot start with a digit", {}};
  }

  Candidate generic(TSNode culprit) const {
    std::string_view t = leaf_text(culprit);
    uint32_t b = ts_node_start_byte(culprit);
    std::string hint;
    if (t == "&" || t == "|") {
      bool doubled = (b + 1 < text_.size() && text_[b + 1] == t[0]) || (b > 0 && text_[b - 1] == t[0]);
      if (doubled) hint = t == "&" ? "write `and` for logical and" : "write `or` for logical or";
    }
    // Words from other languages.
    if (t == "elif" || t == "elsif") hint = "write `else if`";
    if (t == "def" || t == "func" || t == "function") hint = "functions are declared with `fn`";
    if (t == "var" || t == "const" || t == "val") hint = "variables are declared with `let`";
    if (is_keyword(t) && (ts_node_is_named(culprit) || std::isalpha(static_cast<unsigned char>(t[0])))) {
      // A keyword that starts a line where an expression continued: something above is unclosed.
      bool starts_line = b == 0 || line_break_between(back_over_blanks(b), b);
      return Candidate{4, DiagKind::UnexpectedToken, span(culprit), std::string("unexpected keyword `") + std::string(t) + "`",
                       starts_line && b > 0 ? "a previous line may be missing a closing `)`, `]` or `}`" : "", {}};
    }
    return Candidate{4, DiagKind::UnexpectedToken, span(culprit), "unexpected " + describe(culprit), hint, {}};
  }

  // ---- MISSING nodes

  void on_missing(TSNode m, TSNode group, TSNode parent, TSNode prev) {
    std::string_view t = ts_node_type(m);
    if (t == "newline") return missing_newline(m, group);
    NodeKind pk = l_.kind(parent);
    uint32_t at = back_over_blanks(ts_node_start_byte(m));
    if (t == ")" || t == "]" || t == "}" || t == "\"" || t == "\"\"\"" || t == ">") {
      // The opener is the first token of the node the MISSING closer belongs to; where an ERROR
      // sits inside that node, the closer was most likely wanted at the end of its first line.
      TSNode opener{}, first_error{};
      std::string_view open_text = t == ")" ? "(" : t == "]" ? "[" : t == "}" ? "{" : t == ">" ? "<" : t;
      if (!ts_node_is_null(parent)) {
        for_each_child(l_.cursors_, parent, [&](TSNode ch, TSFieldId) {
          if (ts_node_is_null(opener) && !ts_node_is_named(ch) && leaf_text(ch) == open_text) opener = ch;
          if (ts_node_is_null(first_error) && l_.kind(ch) == NodeKind::Error) first_error = ch;
        });
      }
      if (!ts_node_is_null(first_error)) at = std::min(at, line_content_end(ts_node_start_byte(first_error)));
      if (pk == NodeKind::Interpolation) {
        return consider(group, Candidate{1, DiagKind::UnterminatedInterpolation,
                                         ts_node_is_null(opener) ? span(at, at) : span(opener),
                                         "unterminated interpolation: no `}` closes this `{`",
                                         "close the hole with `}`, or write `\\{` for a literal brace", {}});
      }
      if (t == "\"" || t == "\"\"\"") {
        return consider(group, Candidate{1, DiagKind::UnterminatedString,
                                         ts_node_is_null(opener) ? span(at, at) : span(opener), "unterminated string",
                                         "close it with `" + std::string(t) + "`", {}});
      }
      std::string what = pk == NodeKind::Block                                         ? "the block"
                         : pk == NodeKind::TypeBody                                    ? "the type body"
                         : pk == NodeKind::MatchBody                                   ? "the `match` arms"
                         : pk == NodeKind::StructLiteral                               ? "the struct literal"
                         : pk == NodeKind::Map || pk == NodeKind::MapComprehension     ? "the map"
                         : pk == NodeKind::List || pk == NodeKind::ListComprehension   ? "the list"
                         : pk == NodeKind::Arguments || pk == NodeKind::DecoratorArguments ? "the argument list"
                         : pk == NodeKind::Parameters                                  ? "the parameter list"
                         : pk == NodeKind::TypeArguments                               ? "the type arguments"
                                                                                       : std::string("`") + std::string(open_text) + "`";
      Candidate cand{1, DiagKind::UnclosedDelimiter, span(at, at), std::string("expected `") + std::string(t) + "`", "", {}};
      if (!ts_node_is_null(opener)) {
        cand.message += " to close " + what + " opened at " + position(ts_node_start_byte(opener));
        cand.labels.push_back(Label{span(opener), std::string("unclosed `") + std::string(open_text) + "`"});
      }
      return consider(group, std::move(cand));
    }
    std::string_view before = ts_node_is_null(prev) ? token_before(ts_node_start_byte(m)) : last_token_text(prev);
    if (t == "identifier" && pk == NodeKind::NamedType) {
      return consider(group, Candidate{2, DiagKind::ExpectedToken, span(at, at),
                                       "expected a type" + (before.empty() ? std::string() : std::string(" after `") + std::string(before) + "`"),
                                       "", {}});
    }
    bool after_operator = !before.empty() && (is_binary_operator_text(before) || before == "(" || before == "[" ||
                                              before == "," || before == "return" || before == ":");
    if (t == "identifier" || (ts_node_is_named(m) && t != "block")) {
      if (after_operator && before != "." && before != ":") {
        // With no previous token node (the operator came from the text), point where it ends.
        uint32_t e = ts_node_is_null(prev) ? at : ts_node_end_byte(prev);
        return consider(group, Candidate{3, DiagKind::ExpectedExpression, span(e, e),
                                         "expected an expression after `" + std::string(before) + "`", "", {}});
      }
      std::string after = before.empty() ? std::string() : std::string(" after `") + std::string(before) + "`";
      if (before == ".") {
        return consider(group, Candidate{2, DiagKind::ExpectedToken, span(at, at),
                                         "expected a field name, a tuple index or `await` after `.`", "", {}});
      }
      return consider(group, Candidate{2, DiagKind::ExpectedToken, span(at, at),
                                       (t == "identifier" ? "expected a name" : "expected an expression") + after,
                                       "", {}});
    }
    std::string after = before.empty() ? std::string() : std::string(" after `") + std::string(before) + "`";
    if (t == ",") {
      std::string between = pk == NodeKind::TypeBody      ? "`,` or a newline between the fields of a type"
                            : pk == NodeKind::MatchBody   ? "`,` or a newline between `match` arms"
                            : pk == NodeKind::StructLiteral ? "`,` or a newline between the fields of a struct literal"
                                                          : "`,`";
      return consider(group, Candidate{2, DiagKind::ExpectedToken, span(at, at), "expected " + between, "", {}});
    }
    std::string hint;
    if (t == "=>") hint = "a `match` arm is written `pattern => value`";
    if (t == "block") return consider(group, Candidate{2, DiagKind::ExpectedToken, span(at, at), "expected `{`" + after, hint, {}});
    consider(group, Candidate{2, DiagKind::ExpectedToken, span(at, at), std::string("expected `") + std::string(t) + "`" + after,
                              hint, {}});
  }

  // Two statements on one line: `let a = 1 let b = 2`.
  void missing_newline(TSNode m, TSNode group) {
    uint32_t b = ts_node_start_byte(m);
    // After an ERROR (a `;`, a stray character) the missing newline is part of that problem;
    // after a keyword read as a name, lowering reports the real cause.
    if (last_error_end_ != UINT32_MAX && back_over_blanks(b) <= last_error_end_) return;
    if (is_keyword(token_before(b))) return;
    NextToken next = next_token(b);
    Span at = next.at_line_end ? span(b, b) : span(next.begin, next.end);
    consider(group, Candidate{3, DiagKind::ExpectedToken, at,
                              "expected a newline between statements, found " + describe_next(next),
                              "each statement goes on its own line; Fitz has no `;`", {}});
  }

  std::string_view token_before(uint32_t offset) const { return lowering::token_before(text_, offset); }

  // The text of the last token of `n` (bounded walk down the last children).
  std::string_view last_token_text(TSNode n) const {
    for (int guard = 0; guard < 4096 && ts_node_child_count(n) > 0; ++guard)
      n = ts_node_child(n, ts_node_child_count(n) - 1);
    return leaf_text(n);
  }

  Lowerer& l_;
  std::string_view text_;
  size_t count_ = 0;
  bool stopped_ = false;
  Diagnostic* last_direct_ = nullptr;
  uint32_t last_unexpected_end_ = UINT32_MAX;
  uint32_t last_unexpected_begin_ = UINT32_MAX;
  uint32_t last_error_end_ = UINT32_MAX;

  bool have_group_ = false;
  uint32_t group_begin_ = 0, group_end_ = 0;
  bool group_has_lexical_ = false;
  bool group_has_string_error_ = false;
  std::optional<Candidate> best_;
  std::vector<Candidate> pending_;
  std::set<uint32_t> lines_with_errors_;
};

}  // namespace

void Lowerer::report_syntax_errors(TSNode root) { SyntaxErrorReporter(*this).run(root); }

void Lowerer::check_trailing_comment(TSNode root) {
  TSNode n = open_block_comment_at_end(root, source_.text());
  if (ts_node_is_null(n)) return;
  diags_.error(DiagKind::UnterminatedBlockComment, span(ts_node_start_byte(n), ts_node_start_byte(n) + 2),
               "unterminated block comment")
      .with_hint("close it with `*/`; block comments do not nest");
}

TSNode open_block_comment_at_end(TSNode root, std::string_view text) {
  // A `/*` left open runs to the end of the file as one comment, so it is the last token.
  TSNode n = root;
  for (int guard = 0; guard < 100000 && ts_node_child_count(n) > 0; ++guard)
    n = ts_node_child(n, ts_node_child_count(n) - 1);
  TSNode none{};
  if (Grammar::get().kind(n) != NodeKind::Comment) return none;
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (b > text.size() || e > text.size() || e < b) return none;
  std::string_view t = text.substr(b, e - b);
  bool open = t.size() >= 2 && t.substr(0, 2) == "/*" && (t.size() < 4 || t.substr(t.size() - 2) != "*/");
  return open ? n : none;
}

}  // namespace fitz::frontend::lowering
