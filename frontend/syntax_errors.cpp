// Syntax errors: tree-sitter's ERROR and MISSING nodes become compiler-style diagnostics.
// Lexical problems (stray characters, unterminated strings and comments) are always reported;
// otherwise each statement gets at most one message, the most telling one found in it.
#include <algorithm>
#include <string>

#include "frontend/lower_internal.h"

namespace fitz::frontend::lowering {

namespace {

// Past this many syntax diagnostics in one file the rest is noise; the file is reported as
// unparseable from there on.
constexpr size_t kMaxSyntaxDiagnostics = 100;

bool is_statement_kind(NodeKind k) {
  switch (k) {
    case NodeKind::LetStatement:
    case NodeKind::AnnotatedAssignment:
    case NodeKind::Assignment:
    case NodeKind::CompoundAssignment:
    case NodeKind::ReturnStatement:
    case NodeKind::StatusReturn:
    case NodeKind::BreakStatement:
    case NodeKind::ContinueStatement:
    case NodeKind::WhileStatement:
    case NodeKind::ForStatement:
    case NodeKind::FunctionDefinition:
    case NodeKind::TypeDefinition:
    case NodeKind::ImportStatement:
    case NodeKind::FromImportStatement:
    case NodeKind::ExpressionStatement:
    case NodeKind::FieldDeclaration:
    case NodeKind::MatchArm:
      return true;
    default:
      return false;
  }
}

bool is_statement_list(NodeKind k) {
  return k == NodeKind::SourceFile || k == NodeKind::Block || k == NodeKind::TypeBody ||
         k == NodeKind::MatchBody;
}

bool is_binary_operator_text(std::string_view t) {
  static constexpr std::string_view kOps[] = {"+",  "-",  "*",  "/",  "%",   "==", "!=", "<",  "<=", ">",
                                              ">=", "&",  "|",  "^",  "<<",  ">>", "..", "..=", "and", "or",
                                              "xor", "not", "~", "=",  "+=",  "-=", "*=", "/=", "&=", "|=",
                                              "^=", "<<=", ">>=", "=>", "in"};
  for (std::string_view op : kOps)
    if (op == t) return true;
  return false;
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
};

class SyntaxErrorReporter {
 public:
  explicit SyntaxErrorReporter(Lowerer& l) : l_(l), g_(l.g_), text_(l.source_.text()) {}

  void run(TSNode root) {
    // Depth-first over the nodes that contain errors, remembering the innermost statement so
    // that several ERROR/MISSING nodes of one broken statement give one diagnostic.
    TSTreeCursor c = ts_tree_cursor_new(root);
    std::vector<std::pair<uint32_t, TSNode>> stmt_stack;  // (depth, statement)
    uint32_t depth = 0;
    for (;;) {
      if (stopped_) break;
      TSNode n = ts_tree_cursor_current_node(&c);
      NodeKind k = l_.kind(n);
      bool descend = false;
      if (k == NodeKind::Error) {
        TSNode parent = ts_node_parent(n);
        TSNode group = n;
        if (!stmt_stack.empty() && !is_statement_list(l_.kind(parent))) group = stmt_stack.back().second;
        on_error(n, group);
      } else if (ts_node_is_missing(n)) {
        TSNode group = stmt_stack.empty() ? n : stmt_stack.back().second;
        on_missing(n, group);
      } else if (ts_node_has_error(n)) {
        descend = true;
      }
      if (descend && ts_tree_cursor_goto_first_child(&c)) {
        if (is_statement_kind(k)) stmt_stack.emplace_back(depth, n);
        ++depth;
        continue;
      }
      bool done = false;
      while (!ts_tree_cursor_goto_next_sibling(&c)) {
        if (!ts_tree_cursor_goto_parent(&c)) {
          done = true;
          break;
        }
        --depth;
        if (!stmt_stack.empty() && stmt_stack.back().first == depth) stmt_stack.pop_back();
      }
      if (done) break;
    }
    ts_tree_cursor_delete(&c);
    flush_group();
  }

 private:
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
    if (k == NodeKind::StringContent || k == NodeKind::EscapeSequence) return "a string";
    std::string_view t = ts_node_is_named(leaf) ? text(leaf) : std::string_view(ts_node_type(leaf));
    if (t.size() > 24 || t.find('\n') != std::string_view::npos) t = t.substr(0, std::min<size_t>(t.find('\n'), 24));
    return "`" + std::string(t) + "`";
  }

  // The token text a leaf stands for: an anonymous token's grammar text, a named leaf's source.
  std::string_view leaf_text(TSNode leaf) const {
    if (ts_node_is_named(leaf)) return text(leaf);
    return ts_node_type(leaf);
  }

  // True when only blanks and comments separate `offset` from the end of its line.
  bool at_line_end(uint32_t offset) const {
    size_t i = offset;
    while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t' || text_[i] == '\r')) ++i;
    if (i >= text_.size() || text_[i] == '\n') return true;
    if (text_.compare(i, 2, "//") == 0) return true;
    return false;
  }

  // Just past the last non-blank character before `offset` (where a missing token belongs).
  uint32_t back_over_blanks(uint32_t offset) const {
    uint32_t i = std::min<uint32_t>(offset, uint32_t(text_.size()));
    while (i > 0 && (text_[i - 1] == ' ' || text_[i - 1] == '\t' || text_[i - 1] == '\r' || text_[i - 1] == '\n'))
      --i;
    return i;
  }

  // ---- reporting

  bool add_direct(DiagKind kind, Span sp, std::string message, std::string hint = {}) {
    if (count_ >= kMaxSyntaxDiagnostics) {
      stopped_ = true;
      return false;
    }
    ++count_;
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
    if (best_ && !group_has_lexical_) {
      if (count_ < kMaxSyntaxDiagnostics) {
        ++count_;
        Diagnostic& d = l_.diags_.error(best_->kind, best_->span, std::move(best_->message));
        if (!best_->hint.empty()) d.with_hint(std::move(best_->hint));
        for (Label& lab : best_->labels) d.with_label(lab.span, std::move(lab.message));
      } else {
        stopped_ = true;
      }
    }
    best_.reset();
    group_has_lexical_ = false;
    have_group_ = false;
  }

  // ---- lexical problems inside an ERROR node

  // A leaf ERROR node is a character no token starts with.
  void unexpected_character(TSNode leaf) {
    uint32_t b = ts_node_start_byte(leaf);
    if (b >= text_.size()) return;
    if (last_unexpected_end_ == b && b != 0) {  // a run of stray characters is one problem
      last_unexpected_end_ = ts_node_end_byte(leaf);
      return;
    }
    last_unexpected_end_ = ts_node_end_byte(leaf);
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
    add_direct(DiagKind::UnterminatedBlockComment, span(at, at + 2), "unterminated block comment",
               "close it with `*/`; block comments do not nest");
    // Everything after `/*` is comment text: no further errors, no further statements.
    l_.comment_cutoff_ = at;
    stopped_ = true;
  }

  // ---- ERROR nodes

  void on_error(TSNode err, TSNode group) {
    start_group(group);
    last_unexpected_end_ = UINT32_MAX;

    struct Open {
      TSNode node;
    };
    std::vector<Open> open;
    std::optional<Candidate> mismatch;
    std::optional<Candidate> pair_problem;
    TSNode first_leaf{}, last_leaf{}, prev{};
    bool have_prev = false;
    TSNode first_stmt_keyword{};

    // Leaves of the ERROR node, in order, with an explicit cursor (no recursion).
    TSTreeCursor c = ts_tree_cursor_new(err);
    bool at_root = true;
    for (;;) {
      TSNode n = ts_tree_cursor_current_node(&c);
      bool is_leaf = ts_node_child_count(n) == 0;
      if (!at_root && is_leaf) {
        NodeKind k = l_.kind(n);
        uint32_t b = ts_node_start_byte(n);
        if (k == NodeKind::Error) {
          unexpected_character(n);
        } else if (ts_node_is_missing(n)) {
          on_missing(n, group);
        } else if (k == NodeKind::Comment) {
          // nothing
        } else if ((k == NodeKind::TokQuote || k == NodeKind::TokTripleQuote || k == NodeKind::TokBytesQuote) &&
                   l_.kind(ts_node_parent(n)) != NodeKind::String && l_.kind(ts_node_parent(n)) != NodeKind::Bytes) {
          unterminated_string(n);
          if (stopped_) break;
        } else if (k == NodeKind::TokSlash && b + 1 < text_.size() && text_[b + 1] == '*') {
          unterminated_comment(b);
          break;
        } else {
          if (ts_node_is_null(first_leaf)) first_leaf = n;
          std::string_view t = leaf_text(n);
          if (t == "(" || t == "[" || t == "{") {
            open.push_back({n});
          } else if (t == ")" || t == "]" || t == "}") {
            if (open.empty()) {
              if (!mismatch)
                mismatch = Candidate{2, DiagKind::UnexpectedToken, span(n), "unexpected `" + std::string(t) + "`",
                                     std::string("there is no open `") + (t == ")" ? "(" : t == "]" ? "[" : "{") +
                                         "` for it to close",
                                     {}};
            } else {
              char want = closer_for(leaf_text(open.back().node));
              if (t[0] == want) {
                open.pop_back();
              } else if (!mismatch) {
                TSNode o = open.back().node;
                mismatch = Candidate{1, DiagKind::UnclosedDelimiter, span(n),
                                     std::string("expected `") + want + "` to close `" + std::string(leaf_text(o)) +
                                         "` opened at " + position(ts_node_start_byte(o)) + ", found `" +
                                         std::string(t) + "`",
                                     "",
                                     {Label{span(o), "opened here"}}};
              }
            }
          }
          if (ts_node_is_null(first_stmt_keyword) && have_prev && starts_statement(t) &&
              line_break_between(ts_node_end_byte(prev), b))
            first_stmt_keyword = n;
          if (have_prev && !pair_problem) pair_problem = check_pair(prev, n);
          prev = n;
          have_prev = true;
          last_leaf = n;
        }
      }
      at_root = false;
      if (ts_tree_cursor_goto_first_child(&c)) continue;
      bool done = false;
      while (!ts_tree_cursor_goto_next_sibling(&c)) {
        if (!ts_tree_cursor_goto_parent(&c) || ts_node_eq(ts_tree_cursor_current_node(&c), err)) {
          done = true;
          break;
        }
      }
      if (done) break;
    }
    ts_tree_cursor_delete(&c);
    if (stopped_ || group_has_lexical_) return;

    if (mismatch) {
      consider(group, std::move(*mismatch));
      return;
    }
    if (!open.empty()) {
      TSNode o = open.front().node;
      std::string_view ot = leaf_text(o);
      uint32_t end = back_over_blanks(ts_node_end_byte(err));
      if (!ts_node_is_null(first_stmt_keyword)) end = back_over_blanks(ts_node_start_byte(first_stmt_keyword));
      std::string what = ot == "{" ? "the block" : "`" + std::string(ot) + "`";
      consider(group, Candidate{1, DiagKind::UnclosedDelimiter, span(end, end),
                                std::string("expected `") + closer_for(ot) + "` to close " + what + " opened at " +
                                    position(ts_node_start_byte(o)),
                                "",
                                {Label{span(o), "unclosed `" + std::string(ot) + "`"}}});
      return;
    }
    if (pair_problem) {
      consider(group, std::move(*pair_problem));
      return;
    }
    if (!ts_node_is_null(last_leaf) && !ts_node_is_named(last_leaf) && is_binary_operator_text(leaf_text(last_leaf)) &&
        at_end_of_expression(ts_node_end_byte(last_leaf))) {
      uint32_t e = ts_node_end_byte(last_leaf);
      consider(group, Candidate{3, DiagKind::ExpectedExpression, span(e, e),
                                "expected an expression after `" + std::string(leaf_text(last_leaf)) + "`", "", {}});
      return;
    }
    TSNode culprit = !ts_node_is_null(first_stmt_keyword) ? first_stmt_keyword : first_leaf;
    if (ts_node_is_null(culprit)) {
      // An ERROR with no tokens of its own: point at where it starts.
      uint32_t b = ts_node_start_byte(err);
      consider(group, Candidate{5, DiagKind::UnexpectedToken, span(b, std::min<uint32_t>(b + 1, uint32_t(text_.size()))),
                                "unexpected input", "", {}});
      return;
    }
    consider(group, generic(culprit));
  }

  bool line_break_between(uint32_t from, uint32_t to) const {
    for (uint32_t i = from; i < to && i < text_.size(); ++i)
      if (text_[i] == '\n') return true;
    return false;
  }

  static bool starts_statement(std::string_view t) {
    return t == "let" || t == "fn" || t == "type" || t == "return" || t == "import" || t == "from" ||
           t == "while" || t == "for" || t == "@" || t == "async";
  }

  // Nothing but blanks, comments and maybe a closing bracket follow: an operand is missing.
  bool at_end_of_expression(uint32_t offset) const {
    size_t i = offset;
    while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t' || text_[i] == '\r' || text_[i] == '\n')) ++i;
    if (i >= text_.size()) return true;
    char c = text_[i];
    if (c == ')' || c == ']' || c == '}' || c == ',') return true;
    return at_line_end(offset);
  }

  // "expected a name after `let`, found `=`" and its relatives.
  std::optional<Candidate> check_pair(TSNode prev, TSNode next) const {
    std::string_view p = leaf_text(prev);
    NodeKind nk = l_.kind(next);
    std::string_view nt = leaf_text(next);
    bool next_is_name = nk == NodeKind::Identifier && !is_keyword(nt);
    auto make = [&](std::string expected, std::string hint = {}) {
      return Candidate{2, DiagKind::ExpectedToken, span(next),
                       "expected " + expected + " after `" + std::string(p) + "`, found " + describe(next),
                       std::move(hint), {}};
    };
    if (ts_node_is_named(prev) && l_.kind(prev) != NodeKind::Identifier) return std::nullopt;
    if (p == "let" && !next_is_name && nt != "(")
      return make("a name or a tuple pattern", is_keyword(nt) ? "`" + std::string(nt) + "` is a keyword" : "");
    if ((p == "fn") && !next_is_name && nt != "(") return make("a function name or `(`");
    if (p == "type" && !next_is_name) return make("a type name");
    if ((p == "import" || p == "from") && !next_is_name) return make("a module name");
    if (p == "@" && !next_is_name) return make("a decorator name");
    if (p == "." && !next_is_name && nk != NodeKind::Integer && nt != "await")
      return make("a field name, a tuple index or `await`");
    if (p == "=>" && (nt == "}" || nt == ",")) return make("an expression");
    return std::nullopt;
  }

  Candidate generic(TSNode culprit) const {
    std::string_view t = leaf_text(culprit);
    uint32_t b = ts_node_start_byte(culprit);
    std::string hint;
    if ((t == "&" || t == "|") && b + 1 < text_.size() && text_[b + 1] == t[0])
      hint = t == "&" ? "write `and` for logical and" : "write `or` for logical or";
    if (is_keyword(t) && ts_node_is_named(culprit)) {
      return Candidate{4, DiagKind::UnexpectedToken, span(culprit),
                       "unexpected keyword `" + std::string(t) + "`",
                       "a previous line may be missing a closing `)`, `]` or `}`", {}};
    }
    return Candidate{4, DiagKind::UnexpectedToken, span(culprit), "unexpected " + describe(culprit), hint, {}};
  }

  // ---- MISSING nodes

  void on_missing(TSNode m, TSNode group) {
    std::string_view t = ts_node_type(m);
    TSNode parent = ts_node_parent(m);
    NodeKind pk = l_.kind(parent);
    uint32_t at = back_over_blanks(ts_node_start_byte(m));
    if (t == ")" || t == "]" || t == "}" || t == "\"" || t == "\"\"\"") {
      // The opener is the first token of the node the MISSING closer belongs to.
      TSNode opener{};
      std::string_view open_text = t == ")" ? "(" : t == "]" ? "[" : t == "}" ? "{" : t;
      for (uint32_t i = 0, n = ts_node_child_count(parent); i < n && i < 64; ++i) {
        TSNode ch = ts_node_child(parent, i);
        if (!ts_node_is_named(ch) && leaf_text(ch) == open_text) {
          opener = ch;
          break;
        }
      }
      if (pk == NodeKind::Interpolation) {
        consider(group, Candidate{1, DiagKind::UnterminatedInterpolation,
                                  ts_node_is_null(opener) ? span(at, at) : span(opener),
                                  "unterminated interpolation: expected `}`",
                                  "close the hole with `}`, or write `\\{` for a literal brace", {}});
        return;
      }
      if (t == "\"" || t == "\"\"\"") {
        consider(group, Candidate{1, DiagKind::UnterminatedString,
                                  ts_node_is_null(opener) ? span(at, at) : span(opener), "unterminated string",
                                  "close it with `" + std::string(t) + "`", {}});
        return;
      }
      std::string what = pk == NodeKind::Block ? "the block"
                         : pk == NodeKind::TypeBody ? "the type body"
                         : pk == NodeKind::MatchBody ? "the `match` arms"
                         : pk == NodeKind::StructLiteral ? "the struct literal"
                         : pk == NodeKind::Map || pk == NodeKind::MapComprehension ? "the map"
                         : pk == NodeKind::List || pk == NodeKind::ListComprehension ? "the list"
                         : pk == NodeKind::Arguments ? "the argument list"
                         : pk == NodeKind::Parameters ? "the parameter list"
                                                      : "`" + std::string(open_text) + "`";
      Candidate cand{1, DiagKind::UnclosedDelimiter, span(at, at), "expected `" + std::string(t) + "`", "", {}};
      if (!ts_node_is_null(opener)) {
        cand.message += " to close " + what + " opened at " + position(ts_node_start_byte(opener));
        cand.labels.push_back(Label{span(opener), "unclosed `" + std::string(open_text) + "`"});
      }
      consider(group, std::move(cand));
      return;
    }
    TSNode before = ts_node_prev_sibling(m);
    std::string after = ts_node_is_null(before) ? std::string() : " after " + describe_last_token(before);
    if (t == "identifier") {
      consider(group, Candidate{2, DiagKind::ExpectedToken, span(at, at), "expected a name" + after, "", {}});
      return;
    }
    if (ts_node_is_named(m)) {
      std::string what = t == "block" ? "a block `{ ... }`" : "an expression";
      consider(group, Candidate{2, DiagKind::ExpectedExpression, span(at, at), "expected " + what + after, "", {}});
      return;
    }
    std::string hint;
    if (t == "=>") hint = "a `match` arm is written `pattern => value`";
    consider(group, Candidate{2, DiagKind::ExpectedToken, span(at, at), "expected `" + std::string(t) + "`" + after,
                              hint, {}});
  }

  std::string describe_last_token(TSNode n) const {
    // The last leaf of `n`, found by walking last children (bounded by the tree depth).
    for (int guard = 0; guard < 4096 && ts_node_child_count(n) > 0; ++guard)
      n = ts_node_child(n, ts_node_child_count(n) - 1);
    return describe(n);
  }

  Lowerer& l_;
  const Grammar& g_;
  std::string_view text_;
  size_t count_ = 0;
  bool stopped_ = false;
  Diagnostic* last_direct_ = nullptr;
  uint32_t last_unexpected_end_ = UINT32_MAX;

  bool have_group_ = false;
  uint32_t group_begin_ = 0, group_end_ = 0;
  bool group_has_lexical_ = false;
  std::optional<Candidate> best_;
};

}  // namespace

void Lowerer::report_syntax_errors(TSNode root) { SyntaxErrorReporter(*this).run(root); }

}  // namespace fitz::frontend::lowering
