// Lowering of statements and declarations: the tree-sitter tree of one file becomes its AST.
// Expressions and patterns are in lower_expr.cpp, ERROR/MISSING diagnostics in syntax_errors.cpp.
#include "frontend/lower.h"

#include <pthread.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

#include "frontend/lower_internal.h"
#include "frontend/piece_parse.h"

namespace fitz::frontend {

namespace lowering {

// ---- Grammar tables ------------------------------------------------------------------------------

const Grammar& Grammar::get() {
  static const Grammar grammar = [] {
    Grammar g;
    const TSLanguage* lang = fitz_language();
    struct Key {
      std::string_view text;
      bool named;
      NodeKind kind;
    };
    static constexpr Key kKeys[] = {
#define FITZ_NODE_KIND_KEY(Name, Text, Named) {Text, Named, NodeKind::Name},
        FITZ_NODE_KINDS(FITZ_NODE_KIND_KEY)
#undef FITZ_NODE_KIND_KEY
    };
    uint32_t count = ts_language_symbol_count(lang);
    g.kinds.assign(count + 1, NodeKind::Other);
    for (uint32_t s = 0; s < count; ++s) {
      const char* name = ts_language_symbol_name(lang, TSSymbol(s));
      if (!name) continue;
      bool named = ts_language_symbol_type(lang, TSSymbol(s)) == TSSymbolTypeRegular;
      for (const Key& k : kKeys) {
        if (k.named == named && k.text == name) {
          g.kinds[s] = k.kind;
          break;
        }
      }
    }
    g.kinds[count] = NodeKind::Other;
    auto f = [&](const char* name) {
      return ts_language_field_id_for_name(lang, name, uint32_t(std::strlen(name)));
    };
    g.f_alias = f("alias");
    g.f_alternative = f("alternative");
    g.f_arguments = f("arguments");
    g.f_async = f("async");
    g.f_body = f("body");
    g.f_condition = f("condition");
    g.f_consequence = f("consequence");
    g.f_decorator = f("decorator");
    g.f_default = f("default");
    g.f_element = f("element");
    g.f_end = f("end");
    g.f_expression = f("expression");
    g.f_field = f("field");
    g.f_format_spec = f("format_spec");
    g.f_function = f("function");
    g.f_guard = f("guard");
    g.f_index = f("index");
    g.f_iterable = f("iterable");
    g.f_key = f("key");
    g.f_kind = f("kind");
    g.f_label = f("label");
    g.f_left = f("left");
    g.f_name = f("name");
    g.f_object = f("object");
    g.f_operand = f("operand");
    g.f_operator = f("operator");
    g.f_parameters = f("parameters");
    g.f_path = f("path");
    g.f_pattern = f("pattern");
    g.f_return_type = f("return_type");
    g.f_right = f("right");
    g.f_start = f("start");
    g.f_static = f("static");
    g.f_status = f("status");
    g.f_type = f("type");
    g.f_value = f("value");
    g.f_variadic = f("variadic");
    return g;
  }();
  return grammar;
}

CursorPool::~CursorPool() {
  for (TSTreeCursor* c : cursors_) {
    ts_tree_cursor_delete(c);
    delete c;
  }
}

TSTreeCursor* CursorPool::acquire(TSNode node) {
  if (depth_ == cursors_.size()) {
    cursors_.push_back(new TSTreeCursor(ts_tree_cursor_new(node)));
  } else {
    ts_tree_cursor_reset(cursors_[depth_], node);
  }
  return cursors_[depth_++];
}

bool is_statement_node(NodeKind k) {
  switch (k) {
    case NodeKind::ExpressionStatement:
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
      return true;
    default:
      return false;
  }
}

namespace {

// `t == word` for a `t` known to be as long as `word`: a memcmp of a constant size compiles to
// a load and a compare, where string_view's == is an out-of-line call.
template <size_t N>
bool same_as(std::string_view t, const char (&word)[N]) {
  return std::memcmp(t.data(), word, N - 1) == 0;
}

}  // namespace

bool is_keyword(std::string_view t) {
  if (t.size() < 2 || t.size() > 8 || t[0] < 'a' || t[0] > 'z') return false;
  // By length: every identifier is asked.
  switch (t.size()) {
    case 2: return same_as(t, "fn") || same_as(t, "if") || same_as(t, "as") || same_as(t, "in") || same_as(t, "or");
    case 3:
      return same_as(t, "let") || same_as(t, "for") || same_as(t, "and") || same_as(t, "xor") || same_as(t, "not");
    case 4:
      return same_as(t, "else") || same_as(t, "loop") || same_as(t, "type") || same_as(t, "from") ||
             same_as(t, "true") || same_as(t, "null");
    case 5:
      return same_as(t, "async") || same_as(t, "await") || same_as(t, "while") || same_as(t, "match") ||
             same_as(t, "false") || same_as(t, "break");
    case 6: return same_as(t, "return") || same_as(t, "import") || same_as(t, "static");
    case 8: return same_as(t, "continue");
    default: return false;
  }
}

// ---- Lowerer: shared helpers -----------------------------------------------------------------------

namespace {

// The lowest usable address of the calling thread's stack (0 when unknown). Lowering checks it
// besides the nesting limit: frames are several times larger in sanitizer builds, and the
// language server may lower on threads with smaller stacks.
uintptr_t read_stack_floor() {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  void* addr = nullptr;
  size_t size = 0;
  int rc = pthread_attr_getstack(&attr, &addr, &size);
  pthread_attr_destroy(&attr);
  if (rc != 0 || addr == nullptr) return 0;
  // Keep a reserve for tree-sitter calls, diagnostics and the frames of the current level.
  constexpr uintptr_t kReserve = 256 * 1024;
  return size > 2 * kReserve ? reinterpret_cast<uintptr_t>(addr) + kReserve : 0;
}

// A thread's stack does not move, and for the main thread glibc finds it by reading
// /proc/self/maps (a good part of lowering one edited item in the language server): each thread
// asks once.
uintptr_t stack_floor() {
  thread_local const uintptr_t floor = read_stack_floor();
  return floor;
}

}  // namespace

Lowerer::Lowerer(const SourceFile& source, FileId file, DiagnosticBag& diags)
    : source_(source), file_(file), diags_(diags), g_(Grammar::get()), stack_floor_(stack_floor()) {
  ast_.file = file;
}

std::string_view Lowerer::text(Span sp) const {
  uint32_t b = sp.begin, e = sp.end;
  std::string_view all = source_.text();
  if (b > all.size()) return {};
  return all.substr(b, std::min<size_t>(e, all.size()) - b);
}

Ident Lowerer::ident(TSNode n) {
  if (is_null(n)) return Ident{{}, Span{file_, 0, 0}};
  // A MISSING name is empty, so it is never reported as a keyword.
  return ident(span(n));
}

Ident Lowerer::ident(Span sp) {
  Ident id{text(sp), sp};
  if (is_keyword(id.text)) {
    Diagnostic& d = diags_.error(DiagKind::KeywordAsName, id.span,
                                 "expected a name, found keyword `" + std::string(id.text) + "`");
    if (id.text == "else")
      d.with_hint("`else` goes right after the closing `}` of an `if` block");
    else
      d.with_hint("keywords cannot name anything; try `" + std::string(id.text) + "_`");
  }
  return id;
}

TSNode Lowerer::token(TSNode n, NodeKind k) {
  if (is_null(n)) return TSNode{};
  // Keywords sit among the first few children; look there before walking them all.
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count && i < 3; ++i) {
    TSNode c = ts_node_child(n, i);
    if (kind(c) == k) return c;
  }
  if (count <= 3) return TSNode{};
  TSNode found{};
  for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
    if (is_null(found) && kind(c) == k) found = c;
  });
  return found;
}

Span Lowerer::leading_token(TSNode n, Span sp, NodeKind k, std::string_view word, Span absent) {
  std::string_view all = source_.text();
  if (sp.begin <= all.size() && all.substr(sp.begin).substr(0, word.size()) == word && !ts_node_has_error(n))
    return span(sp.begin, sp.begin + uint32_t(word.size()));
  TSNode t = token(n, k);
  return is_null(t) ? absent : span(t);
}

Span Lowerer::trailing_token(TSNode n, Span sp, NodeKind k, std::string_view word, Span absent) {
  std::string_view all = source_.text();
  if (sp.end <= all.size() && sp.end >= sp.begin + word.size() &&
      all.substr(sp.end - word.size(), word.size()) == word && !ts_node_has_error(n))
    return span(sp.end - uint32_t(word.size()), sp.end);
  TSNode t = token(n, k);
  return is_null(t) ? absent : span(t);
}

Span Lowerer::equals_between(TSNode n, TSNode before, TSNode after, Span absent) {
  if (!is_null(before) && !is_null(after) && !ts_node_has_error(n)) {
    std::string_view all = source_.text();
    uint32_t b = ts_node_end_byte(before), e = ts_node_start_byte(after);
    auto blank = [&](uint32_t i) { return all[i] == ' ' || all[i] == '\t' || all[i] == '\r' || all[i] == '\n'; };
    if (b <= e && e <= all.size()) {
      while (b < e && blank(b)) ++b;
      while (e > b && blank(e - 1)) --e;
      if (e == b + 1 && all[b] == '=') return span(b, e);
    }
  }
  TSNode t = token(n, NodeKind::TokEq);
  return is_null(t) ? absent : span(t);
}

void Lowerer::report_literal_errors(const std::vector<LiteralError>& errors, uint32_t base) {
  for (const LiteralError& e : errors) {
    Diagnostic& d = diags_.error(e.kind, span(base + e.begin, base + e.end), e.message);
    if (!e.hint.empty()) d.with_hint(e.hint);
  }
}

void Lowerer::report_too_deep(TSNode n) {
  if (reported_too_deep_) return;
  reported_too_deep_ = true;
  diags_.error(DiagKind::NestingTooDeep, span(ts_node_start_byte(n), ts_node_start_byte(n) + 1),
               "expression nested too deeply")
      .with_hint("more than 1000 nested brackets, blocks or operators; split it into named parts");
}

bool Lowerer::enter(TSNode n) {
  bool out_of_stack = stack_floor_ != 0 && reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) < stack_floor_;
  if (depth_ >= kMaxNesting || out_of_stack) {
    report_too_deep(n);
    return false;
  }
  ++depth_;
  return true;
}

std::optional<Ident> Lowerer::label_of(TSNode n) {
  TSNode l = field(n, g_.f_label);
  if (is_null(l)) return std::nullopt;
  std::string_view t = text(l);
  if (!t.empty() && t[0] == '\'') t.remove_prefix(1);
  return Ident{t, span(l)};
}

// ---- Statements ------------------------------------------------------------------------------------

void Lowerer::lower_statements(TSNode container, std::vector<StmtId>& out) {
  const bool in_error = kind(container) == NodeKind::Error;
  for_each_child(cursors_, container, [&](TSNode c, TSFieldId) {
    if (!ts_node_is_named(c)) return;
    NodeKind k = kind(c);
    if (k == NodeKind::Comment) return;
    if (ts_node_start_byte(c) >= comment_cutoff_) return;
    if (k == NodeKind::Error) {
      // Complete statements that error recovery swallowed still define their names, so lower
      // them; the error itself was reported by report_syntax_errors.
      size_t before = out.size();
      if (enter(c)) {
        lower_statements(c, out);
        leave();
      }
      if (out.size() == before) out.push_back(stmt(span(c), ErrorStmt{}));
      return;
    }
    // Inside an ERROR node only whole statements are kept; loose fragments are not.
    if (in_error && !is_statement_node(k)) return;
    lower_statement(c, out);
  });
}

BlockId Lowerer::lower_block(TSNode n) {
  Block b;
  b.span = span(n);
  if (!is_null(n) && enter(n)) {
    // Its named children are its statements and comments (a count tree-sitter keeps): the
    // vector is allocated once instead of grown.
    b.stmts.reserve(ts_node_named_child_count(n));
    lower_statements(n, b.stmts);
    leave();
  }
  return ast_.add(std::move(b));
}

BlockId Lowerer::single_stmt_block(Span sp, StmtId s) {
  Block b;
  b.span = sp;
  b.stmts.push_back(s);
  return ast_.add(std::move(b));
}

namespace {

std::optional<BinaryOp> compound_op(NodeKind k) {
  switch (k) {
    case NodeKind::TokPlusEq: return BinaryOp::Add;
    case NodeKind::TokMinusEq: return BinaryOp::Sub;
    case NodeKind::TokStarEq: return BinaryOp::Mul;
    case NodeKind::TokSlashEq: return BinaryOp::Div;
    case NodeKind::TokAmpEq: return BinaryOp::BitAnd;
    case NodeKind::TokPipeEq: return BinaryOp::BitOr;
    case NodeKind::TokCaretEq: return BinaryOp::BitXor;
    case NodeKind::TokShlEq: return BinaryOp::Shl;
    case NodeKind::TokShrEq: return BinaryOp::Shr;
    default: return std::nullopt;
  }
}

}  // namespace

// True when error recovery put an ERROR or MISSING node directly among `n`'s children: then its
// fields hold whatever recovery found, e.g. `let s = "abc` swallowing the next line as value.
bool Lowerer::broken_statement(TSNode n) {
  if (!ts_node_has_error(n)) return false;
  bool broken = false;
  for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
    broken |= kind(c) == NodeKind::Error || ts_node_is_missing(c);
  });
  return broken;
}

void Lowerer::lower_statement(TSNode n, std::vector<StmtId>& out) {
  if (!enter(n)) {
    out.push_back(stmt(span(n), ErrorStmt{}));
    return;
  }
  const Span sp = span(n);
  // The value of a broken simple statement is an error; its name still gets bound.
  const bool broken = broken_statement(n);
  auto value_of = [&](TSNode v) { return broken ? error_expr(is_null(v) ? sp : span(v)) : lower_expr_or_error(v, sp); };
  switch (kind(n)) {
    case NodeKind::ExpressionStatement: {
      TSNode e = ts_node_named_child(n, 0);
      out.push_back(stmt(sp, ExprStmt{value_of(e)}));
      break;
    }
    case NodeKind::LetStatement: {
      TSNode name = field(n, g_.f_name);
      TSNode type = field(n, g_.f_type);
      TSNode value_node = field(n, g_.f_value);
      ExprId value = value_of(value_node);
      if (!is_null(name)) {
        Ident id = ident(name);
        if (!is_null(type)) {
          out.push_back(stmt(sp, AnnotatedAssignStmt{id, lower_type(type), value, true}));
        } else {
          ExprId target = expr(id.span, NameRef{id});
          out.push_back(stmt(sp, AssignStmt{target, value, std::nullopt, equals_between(n, name, value_node, id.span), true}));
        }
      } else {
        TSNode pat = field(n, g_.f_pattern);
        if (!is_null(type)) {
          diags_.error(DiagKind::InvalidPattern, span(type),
                       "a type annotation needs a single name; `let (a, b): T = ...` is not supported")
              .with_hint("annotate the value instead, or destructure without a type");
        }
        out.push_back(stmt(sp, LetPatternStmt{is_null(pat) ? PatternId() : lower_pattern(pat), value}));
      }
      break;
    }
    case NodeKind::AnnotatedAssignment: {
      Ident id = ident(field(n, g_.f_name));
      TypeExprId type = lower_type(field(n, g_.f_type));
      ExprId value = value_of(field(n, g_.f_value));
      out.push_back(stmt(sp, AnnotatedAssignStmt{id, type, value, false}));
      break;
    }
    case NodeKind::Assignment:
    case NodeKind::CompoundAssignment: {
      bool compound = kind(n) == NodeKind::CompoundAssignment;
      TSNode left = field(n, g_.f_left);
      TSNode right = field(n, g_.f_right);
      // A plain assignment's operator is its `=` token (or the statement, when there is none).
      TSNode op = compound ? field(n, g_.f_operator) : TSNode{};
      const Span op_span = compound ? (is_null(op) ? sp : span(op)) : equals_between(n, left, right, sp);
      ExprId target = lower_expr_or_error(left, sp);
      ExprId value = value_of(right);
      const Expr& t = ast_.get(target);
      bool ok = std::holds_alternative<NameRef>(t.data) || std::holds_alternative<FieldExpr>(t.data) ||
                std::holds_alternative<IndexExpr>(t.data) || std::holds_alternative<ErrorExpr>(t.data);
      if (!ok) {
        bool literal = std::holds_alternative<IntLit>(t.data) || std::holds_alternative<FloatLit>(t.data) ||
                       std::holds_alternative<StrLit>(t.data) || std::holds_alternative<BoolLit>(t.data) ||
                       std::holds_alternative<NullLit>(t.data);
        std::string_view what = literal ? "a literal"
                                : std::holds_alternative<TupleIndexExpr>(t.data) ? "a tuple element"
                                : std::holds_alternative<SliceExpr>(t.data)    ? "a slice"
                                : std::holds_alternative<CallExpr>(t.data)     ? "a call"
                                                                               : "this expression";
        diags_.error(DiagKind::InvalidAssignmentTarget, t.span,
                     "cannot assign to " + std::string(what))
            .with_hint("the left side of `" + std::string(is_null(op) ? "=" : text(op)) +
                       "` must be a variable, a field (`a.f`) or an element (`xs[i]`)");
      }
      std::optional<BinaryOp> cop;
      if (compound) cop = compound_op(kind(op));
      out.push_back(stmt(sp, AssignStmt{target, value, cop, op_span, false}));
      break;
    }
    case NodeKind::ReturnStatement: {
      TSNode v = field(n, g_.f_value);
      ExprId value = is_null(v) ? ExprId() : value_of(v);
      out.push_back(stmt(sp, ReturnStmt{value, leading_token(n, sp, NodeKind::KwReturn, "return", sp)}));
      break;
    }
    case NodeKind::StatusReturn: {
      TSNode status = field(n, g_.f_status);
      ExprId st = lower_expr_or_error(status, sp);
      if (const auto* lit = std::get_if<IntLit>(&ast_.get(st).data)) {
        if (lit->value < 100 || lit->value > 599) {
          diags_.error(DiagKind::StatusCodeOutOfRange, span(status),
                       "status code " + std::to_string(lit->value) + " is outside 100..599")
              .with_hint("HTTP status codes run from 100 to 599, e.g. `return 404 {\"error\": \"not found\"}`");
        }
      }
      ExprId body = lower_expr_or_error(field(n, g_.f_body), sp);
      out.push_back(stmt(sp, StatusReturnStmt{st, body, leading_token(n, sp, NodeKind::KwReturn, "return", sp)}));
      break;
    }
    case NodeKind::BreakStatement: {
      TSNode v = field(n, g_.f_value);
      out.push_back(stmt(sp, BreakStmt{label_of(n), is_null(v) ? ExprId() : lower_expr(v),
                                       leading_token(n, sp, NodeKind::KwBreak, "break", sp)}));
      break;
    }
    case NodeKind::ContinueStatement:
      out.push_back(stmt(sp, ContinueStmt{label_of(n), leading_token(n, sp, NodeKind::KwContinue, "continue", sp)}));
      break;
    case NodeKind::WhileStatement: {
      TSNode cond = field(n, g_.f_condition);
      check_head(cond, "a `while` condition");
      ExprId c = lower_expr_or_error(cond, sp);
      BlockId body = lower_block(field(n, g_.f_body));
      out.push_back(stmt(sp, WhileStmt{label_of(n), c, body, leading_token(n, sp, NodeKind::KwWhile, "while", sp)}));
      break;
    }
    case NodeKind::ForStatement: {
      TSNode pat = field(n, g_.f_pattern);
      PatternId p = is_null(pat) ? pattern(sp, ErrorPat{}) : lower_pattern(pat);
      check_loop_pattern(p, "a `for` variable");
      TSNode iter = field(n, g_.f_iterable);
      check_head(iter, "a `for` iterable");
      ExprId it = lower_expr_or_error(iter, sp);
      BlockId body = lower_block(field(n, g_.f_body));
      out.push_back(stmt(sp, ForStmt{label_of(n), p, it, body, leading_token(n, sp, NodeKind::KwFor, "for", sp)}));
      break;
    }
    case NodeKind::FunctionDefinition:
      out.push_back(stmt(sp, FnStmt{lower_function(n, false, false)}));
      break;
    case NodeKind::TypeDefinition:
      out.push_back(stmt(sp, TypeStmt{lower_type_definition(n)}));
      break;
    case NodeKind::ImportStatement: {
      ImportStmt s;
      TSNode path = field(n, g_.f_path);
      if (!is_null(path))
        for_each_child(cursors_, path, [&](TSNode c, TSFieldId) {
          if (kind(c) == NodeKind::Identifier) s.path.push_back(ident(c));
        });
      TSNode alias = field(n, g_.f_alias);
      if (!is_null(alias)) s.alias = ident(alias);
      out.push_back(stmt(sp, std::move(s)));
      break;
    }
    case NodeKind::FromImportStatement: {
      FromImportStmt s;
      for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
        if (kind(c) == NodeKind::ModulePath) {
          for_each_child(cursors_, c, [&](TSNode p, TSFieldId) {
            if (kind(p) == NodeKind::Identifier) s.path.push_back(ident(p));
          });
        } else if (kind(c) == NodeKind::ImportName) {
          TSNode name = field(c, g_.f_name);
          ImportName in{{}, std::nullopt, {}};
          if (kind(name) == NodeKind::DottedName) {
            bool first = true;
            for_each_child(cursors_, name, [&](TSNode p, TSFieldId) {
              if (kind(p) != NodeKind::Identifier) return;
              if (first) in.name = ident(p);
              else in.rest.push_back(ident(p));
              first = false;
            });
          } else {
            in.name = ident(name);
          }
          TSNode alias = field(c, g_.f_alias);
          if (!is_null(alias)) in.alias = ident(alias);
          s.names.push_back(in);
        }
      });
      out.push_back(stmt(sp, std::move(s)));
      break;
    }
    case NodeKind::Error:
      lower_statements(n, out);
      break;
    default: {
      // An expression where a statement was expected (error recovery can produce one).
      out.push_back(stmt(sp, ExprStmt{lower_expr(n)}));
      break;
    }
  }
  leave();
}

// ---- Functions, parameters, decorators ----------------------------------------------------------------

FnId Lowerer::lower_function(TSNode n, bool in_type, bool is_lambda) {
  FnDecl fn;
  fn.span = span(n);
  TSNode params{}, kw{}, after_arrow{}, last{};
  bool decorated = false;
  NodeKind previous = NodeKind::Other;
  // Children are matched by kind: the field ids of a cursor are slow to read in tree-sitter
  // 0.20. The name is the identifier before the parameters (an arrow body may be one too).
  for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
    const NodeKind k = kind(c);
    if (k == NodeKind::Comment) return;
    if (previous == NodeKind::TokArrow && is_null(after_arrow)) after_arrow = c;
    previous = k;
    last = c;
    switch (k) {
      case NodeKind::Identifier:
        if (is_null(params) && !fn.name) fn.name = ident(c);
        break;
      case NodeKind::KwFn:
        if (is_null(kw)) kw = c;
        break;
      case NodeKind::Decorator: decorated = true; break;
      case NodeKind::KwAsync: fn.is_async = true; break;
      case NodeKind::KwStatic: fn.is_static = true; break;
      case NodeKind::Parameters:
        if (is_null(params)) params = c;
        break;
      default: break;
    }
  });
  fn.keyword_span = is_null(kw) ? span(ts_node_start_byte(n), ts_node_start_byte(n)) : span(kw);
  // Without a syntax error, the grammar puts the return type right after `->` and the body last.
  const bool whole = !ts_node_has_error(n);
  TSNode body = whole ? last : field(n, g_.f_body);
  if (!is_lambda && decorated) fn.decorators = lower_decorators(n);
  if (fn.is_static && !in_type) {
    diags_.error(DiagKind::MisplacedModifier, span(token(n, NodeKind::KwStatic)),
                 "`static` is only allowed on methods inside a `type`")
        .with_hint("remove `static`; a top-level function needs no modifier");
  }
  if (in_type && !fn.decorators.empty()) {
    diags_.error(DiagKind::MisplacedModifier, fn.decorators.front().span,
                 "decorators are not allowed on methods")
        .with_hint("decorate a top-level function instead");
  }
  if (!is_null(params)) lower_params(params, fn.params);
  // Parameter decorators describe a `@command`'s command line: only a top-level function can be
  // one (the checker decides which decorators and whether the function is a command).
  if (in_type || is_lambda || fn_nesting_ > 0) {
    for (const Param& p : fn.params)
      if (!p.decorators.empty())
        diags_.error(DiagKind::MisplacedModifier, p.decorators.front().span,
                     std::string("decorators are not allowed on the parameters of ") +
                         (is_lambda ? "a lambda" : in_type ? "a method" : "a nested function"))
            .with_hint("parameter decorators (`@flag`, `@arg`) belong to a top-level `@command` function");
  }
  TSNode rt = whole ? after_arrow : field(n, g_.f_return_type);
  if (!is_null(rt)) fn.return_type = lower_type(rt);
  ++fn_nesting_;
  if (!is_null(body) && kind(body) == NodeKind::Block) {
    fn.body = lower_block(body);
  } else {
    // `=> expr` is a block holding `return expr`.
    Span bsp = is_null(body) ? fn.span : span(body);
    ExprId value = lower_expr_or_error(body, bsp);
    StmtId ret = stmt(bsp, ReturnStmt{value, span(bsp.begin, bsp.begin)});
    fn.body = single_stmt_block(bsp, ret);
    fn.arrow_body = true;
  }
  --fn_nesting_;
  return ast_.add(std::move(fn));
}

void Lowerer::lower_params(TSNode params, std::vector<Param>& out) {
  Span first_default{};
  bool seen_default = false;
  for_each_child(cursors_, params, [&](TSNode c, TSFieldId) {
    if (kind(c) != NodeKind::Parameter) return;
    Param p;
    p.span = span(c);
    p.name = ident(field(c, g_.f_name));
    TSNode variadic = field(c, g_.f_variadic);
    p.variadic = !is_null(variadic);
    p.decorators = lower_decorators(c);
    if (!p.decorators.empty()) {
      // The parameter itself starts after its decorators.
      TSNode first = p.variadic ? variadic : field(c, g_.f_name);
      if (!is_null(first)) p.span = span(ts_node_start_byte(first), p.span.end);
    }
    TSNode t = field(c, g_.f_type);
    if (!is_null(t)) p.type = lower_type(t);
    TSNode d = field(c, g_.f_default);
    if (!is_null(d)) p.default_value = lower_expr(d);
    out.push_back(p);
  });
  for (size_t i = 0; i < out.size(); ++i) {
    const Param& p = out[i];
    for (size_t j = 0; j < i; ++j) {
      if (out[j].name.text == p.name.text && !p.name.text.empty()) {
        diags_.error(DiagKind::DuplicateParameter, p.name.span,
                     "parameter `" + std::string(p.name.text) + "` is declared twice")
            .with_label(out[j].name.span, "first declared here");
        break;
      }
    }
    if (p.variadic) {
      if (i + 1 != out.size()) {
        diags_.error(DiagKind::InvalidVariadic, p.span,
                     "the variadic parameter `..." + std::string(p.name.text) + "` must be the last parameter");
      } else if (p.default_value.valid()) {
        diags_.error(DiagKind::InvalidVariadic, ast_.get(p.default_value).span,
                     "the variadic parameter `..." + std::string(p.name.text) + "` cannot have a default value")
            .with_hint("it is an empty list when no arguments are passed");
      }
      continue;
    }
    if (p.default_value.valid()) {
      if (!seen_default) first_default = p.span;
      seen_default = true;
    } else if (seen_default) {
      diags_.error(DiagKind::DefaultParameterOrder, p.span,
                   "parameter `" + std::string(p.name.text) + "` needs a default value because an earlier parameter has one")
          .with_label(first_default, "this parameter has a default")
          .with_hint("move parameters without defaults before the ones with defaults");
    }
  }
}

std::vector<Decorator> Lowerer::lower_decorators(TSNode n) {
  std::vector<Decorator> out;
  // Decorators are the first children of the nodes that take them: unless error recovery has
  // been at work, a node that does not start with `@` has none to walk its children for.
  const uint32_t begin = ts_node_start_byte(n);
  if (!ts_node_has_error(n) && (begin >= source_.size() || source_.text()[begin] != '@')) return out;
  for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
    if (kind(c) != NodeKind::Decorator) return;
    Decorator d;
    d.span = span(c);
    d.name = ident(field(c, g_.f_name));
    TSNode args = field(c, g_.f_arguments);
    if (!is_null(args)) {
      d.has_parens = true;
      bool seen_keyword = false;
      for_each_child(cursors_, args, [&](TSNode a, TSFieldId) {
        if (!ts_node_is_named(a) || kind(a) == NodeKind::Comment || kind(a) == NodeKind::Error) return;
        NodeKind ak = kind(a);
        if (ak == NodeKind::KeywordArgument || ak == NodeKind::DecoratorColonArgument) {
          // A decorator's option names come from its registry and bind nothing, so a keyword
          // is a fine one (`@server(static={...})`).
          TSNode name_node = field(a, g_.f_name);
          Ident name = is_null(name_node) ? ident(name_node) : Ident{text(name_node), span(name_node)};
          TSNode value = field(a, g_.f_value);
          if (ak == NodeKind::DecoratorColonArgument) {
            TSNode colon = token(a, NodeKind::TokColon);
            Span colon_span = is_null(colon) ? name.span : span(colon);
            uint32_t fix_end = is_null(value) ? colon_span.end : ts_node_start_byte(value);
            std::string value_text = is_null(value) ? "value" : std::string(text(value));
            if (value_text.size() > 40) value_text = "value";
            diags_.error(DiagKind::DecoratorColonArgument, colon_span,
                         "decorator keyword arguments are written `name=value`, not `name: value`")
                .with_hint("write `" + std::string(name.text) + "=" + value_text + "`")
                .with_fix(span(colon_span.begin, fix_end), "=");
          }
          for (const DecoratorArg& prev : d.args) {
            if (prev.name && prev.name->text == name.text) {
              diags_.error(DiagKind::DuplicateArgumentName, name.span,
                           "keyword argument `" + std::string(name.text) + "` is given twice")
                  .with_label(prev.name->span, "first given here");
              break;
            }
          }
          seen_keyword = true;
          d.args.push_back(DecoratorArg{name, lower_expr_or_error(value, span(a))});
          return;
        }
        ExprId v = lower_expr(a);
        if (seen_keyword) {
          diags_.error(DiagKind::PositionalAfterNamed, ast_.get(v).span,
                       "positional decorator arguments must come before keyword arguments");
        }
        d.args.push_back(DecoratorArg{std::nullopt, v});
      });
    }
    out.push_back(std::move(d));
  });
  return out;
}

TypeDeclId Lowerer::lower_type_definition(TSNode n) {
  TypeDecl t;
  t.span = span(n);
  t.name = ident(field(n, g_.f_name));
  t.decorators = lower_decorators(n);
  TSNode body = field(n, g_.f_body);
  if (!is_null(body) && enter(body)) {
    for_each_child(cursors_, body, [&](TSNode c, TSFieldId) {
      NodeKind k = kind(c);
      if (k == NodeKind::FieldDeclaration) {
        FieldDecl fd;
        fd.span = span(c);
        fd.name = ident(field(c, g_.f_name));
        fd.decorators = lower_decorators(c);
        fd.type = lower_type(field(c, g_.f_type));
        TSNode d = field(c, g_.f_default);
        if (!is_null(d)) fd.default_value = lower_expr(d);
        t.fields.push_back(std::move(fd));
      } else if (k == NodeKind::FunctionDefinition) {
        t.methods.push_back(lower_function(c, true, false));
      }
    });
    leave();
  }
  return ast_.add(std::move(t));
}

// ---- Types ---------------------------------------------------------------------------------------------

TypeExprId Lowerer::lower_type(TSNode n) {
  if (is_null(n)) return ast_.add(TypeExpr{Span{file_, 0, 0}, ErrorType{}});
  const Span sp = span(n);
  if (!enter(n)) return ast_.add(TypeExpr{sp, ErrorType{}});
  TypeExprData data = ErrorType{};
  switch (kind(n)) {
    case NodeKind::NamedType: {
      NamedType nt;
      for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
        if (kind(c) == NodeKind::Identifier) nt.path.push_back(ident(c));
      });
      data = std::move(nt);
      break;
    }
    case NodeKind::GenericType: {
      TSNode name = field(n, g_.f_name);
      NamedType nt;
      if (!is_null(name))
        for_each_child(cursors_, name, [&](TSNode c, TSFieldId) {
          if (kind(c) == NodeKind::Identifier) nt.path.push_back(ident(c));
        });
      TSNode args = field(n, g_.f_arguments);
      if (!is_null(args))
        for_each_child(cursors_, args, [&](TSNode c, TSFieldId) {
          if (ts_node_is_named(c) && kind(c) != NodeKind::Comment && kind(c) != NodeKind::Error)
            nt.args.push_back(lower_type(c));
        });
      data = std::move(nt);
      break;
    }
    case NodeKind::NullableType:
      data = NullableType{lower_type(field(n, g_.f_type))};
      break;
    case NodeKind::ParenthesizedType: {
      TypeExprId inner = lower_type(field(n, g_.f_type));
      leave();
      return inner;
    }
    case NodeKind::TupleType: {
      TupleType tt;
      for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
        if (ts_node_is_named(c) && kind(c) != NodeKind::Comment && kind(c) != NodeKind::Error)
          tt.elems.push_back(lower_type(c));
      });
      data = std::move(tt);
      break;
    }
    case NodeKind::FunctionType: {
      FnType ft;
      TSNode params = field(n, g_.f_parameters);
      if (!is_null(params))
        for_each_child(cursors_, params, [&](TSNode c, TSFieldId) {
          if (ts_node_is_named(c) && kind(c) != NodeKind::Comment && kind(c) != NodeKind::Error)
            ft.params.push_back(lower_type(c));
        });
      ft.result = lower_type(field(n, g_.f_return_type));
      data = std::move(ft);
      break;
    }
    default:
      break;
  }
  leave();
  return ast_.add(TypeExpr{sp, std::move(data)});
}

// ---- Module --------------------------------------------------------------------------------------------

void Lowerer::reserve_tables() {
  // The tables sized from the text (typical code has an expression per 9 to 14 bytes, a
  // statement per 40 to 60): grown by doubling instead, every node is moved about twice, and
  // reserved pages that are never written cost no memory.
  const size_t bytes = source_.size();
  ast_.exprs.reserve(bytes / 10 + 8);
  ast_.stmts.reserve(bytes / 40 + 8);
  ast_.blocks.reserve(bytes / 80 + 8);
  ast_.types.reserve(bytes / 70 + 8);
}

Ast Lowerer::run(TSNode root) {
  reserve_tables();
  if (ts_node_has_error(root)) report_syntax_errors(root);
  check_trailing_comment(root);
  lower_statements(root, ast_.top_level);
  return std::move(ast_);
}

Ast Lowerer::run_reusing(TSNode root, Ast& previous, std::string_view previous_text, TSNode previous_root) {
  // Only trees without errors are cut into items: error recovery can make a statement's nodes
  // depend on its neighbours.
  std::vector<ItemExtent> items;
  if (!ts_node_has_error(root)) items = item_extents(previous, previous_root);
  if (items.empty()) return run(root);
  reserve_tables();
  // The previous tables' sizes are a closer guess than the text's (an edit changes them by a
  // few nodes): the moved items then never make a table grow and move its nodes again.
  auto at_least = [](auto& table, size_t n) {
    if (table.capacity() < n) table.reserve(n);
  };
  at_least(ast_.exprs, previous.exprs.size() + previous.exprs.size() / 16 + 8);
  at_least(ast_.stmts, previous.stmts.size() + previous.stmts.size() / 16 + 8);
  at_least(ast_.patterns, previous.patterns.size() + previous.patterns.size() / 16 + 8);
  at_least(ast_.types, previous.types.size() + previous.types.size() / 16 + 8);
  at_least(ast_.blocks, previous.blocks.size() + previous.blocks.size() / 16 + 8);
  at_least(ast_.fns, previous.fns.size() + previous.fns.size() / 16 + 8);
  at_least(ast_.type_decls, previous.type_decls.size() + previous.type_decls.size() / 16 + 8);
  check_trailing_comment(root);
  // The previous items by text: an edit leaves all but one or two of them as they were.
  std::unordered_multimap<std::string_view, const ItemExtent*> unchanged;
  for (const ItemExtent& x : items)
    if (x.begin <= x.end && x.end <= previous_text.size())
      unchanged.emplace(previous_text.substr(x.begin, x.end - x.begin), &x);
  std::string_view text = source_.text();
  for_each_child(cursors_, root, [&](TSNode c, TSFieldId) {
    if (!ts_node_is_named(c) || kind(c) == NodeKind::Comment) return;
    uint32_t begin = ts_node_start_byte(c), end = ts_node_end_byte(c);
    if (end <= text.size()) {
      auto [from, to] = unchanged.equal_range(text.substr(begin, end - begin));
      for (auto it = from; it != to; ++it) {
        if (it->second->symbol != ts_node_symbol(c)) continue;
        move_item(previous, *it->second, previous_text, ast_, text, file_, begin);
        unchanged.erase(it);
        return;
      }
    }
    lower_statement(c, ast_.top_level);
  });
  return std::move(ast_);
}

}  // namespace lowering

Ast lower_module(const SourceFile& source, FileId file, const SyntaxTree& tree, DiagnosticBag& diags) {
  lowering::Lowerer lowerer(source, file, diags);
  if (!tree.valid()) {
    Ast ast;
    ast.file = file;
    return ast;
  }
  return lowerer.run(tree.root());
}

Ast lower_module_reusing(const SourceFile& source, FileId file, const SyntaxTree& tree, DiagnosticBag& diags,
                         Ast previous, std::string_view previous_text, const SyntaxTree& previous_tree) {
  if (!tree.valid() || !previous_tree.valid()) return lower_module(source, file, tree, diags);
  lowering::Lowerer lowerer(source, file, diags);
  return lowerer.run_reusing(tree.root(), previous, previous_text, previous_tree.root());
}

Ast parse_module(const SourceFile& source, FileId file, DiagnosticBag& diags, SyntaxTree* tree_out) {
  if (!tree_out)
    if (std::optional<Ast> ast = parse_in_pieces(source, file, diags)) return std::move(*ast);
  SyntaxTree tree = parse_text(source.text());
  Ast ast = lower_module(source, file, tree, diags);
  if (tree_out) *tree_out = std::move(tree);
  return ast;
}

}  // namespace fitz::frontend
