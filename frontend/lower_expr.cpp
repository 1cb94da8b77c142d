// Lowering of expressions, string literals and patterns, with the checks that belong to them:
// `Ok`/`Err` arity, chained ranges, argument order, struct literals in conditions, or-patterns.
#include <algorithm>
#include <string>

#include "frontend/lower_internal.h"

namespace fitz::frontend::lowering {

namespace {

std::optional<BinaryOp> binary_op(NodeKind k) {
  switch (k) {
    case NodeKind::TokPlus: return BinaryOp::Add;
    case NodeKind::TokMinus: return BinaryOp::Sub;
    case NodeKind::TokStar: return BinaryOp::Mul;
    case NodeKind::TokSlash: return BinaryOp::Div;
    case NodeKind::TokPercent: return BinaryOp::Mod;
    case NodeKind::TokEqEq: return BinaryOp::Eq;
    case NodeKind::TokNotEq: return BinaryOp::Ne;
    case NodeKind::TokLt: return BinaryOp::Lt;
    case NodeKind::TokLe: return BinaryOp::Le;
    case NodeKind::TokGt: return BinaryOp::Gt;
    case NodeKind::TokGe: return BinaryOp::Ge;
    case NodeKind::TokAnd: return BinaryOp::And;
    case NodeKind::TokOr: return BinaryOp::Or;
    case NodeKind::TokXor: return BinaryOp::Xor;
    case NodeKind::TokAmp: return BinaryOp::BitAnd;
    case NodeKind::TokPipe: return BinaryOp::BitOr;
    case NodeKind::TokCaret: return BinaryOp::BitXor;
    case NodeKind::TokShl: return BinaryOp::Shl;
    case NodeKind::TokShr: return BinaryOp::Shr;
    default: return std::nullopt;
  }
}

// True when `text` is an integer literal whose magnitude is exactly 2^63: `-9223372036854775808`
// is the smallest Int even though its digits alone do not fit.
bool is_int64_min_magnitude(std::string_view text) {
  unsigned base = 10;
  size_t i = 0;
  if (text.size() > 2 && text[0] == '0') {
    char p = text[1];
    if (p == 'x' || p == 'X') base = 16, i = 2;
    if (p == 'b' || p == 'B') base = 2, i = 2;
    if (p == 'o' || p == 'O') base = 8, i = 2;
  }
  unsigned __int128 v = 0;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '_') continue;
    unsigned d = c >= '0' && c <= '9'   ? unsigned(c - '0')
                 : c >= 'a' && c <= 'f' ? unsigned(c - 'a' + 10)
                 : c >= 'A' && c <= 'F' ? unsigned(c - 'A' + 10)
                                        : 99;
    if (d >= base) return false;
    v = v * base + d;
    if (v > (unsigned __int128)1 << 63) return false;
  }
  return v == (unsigned __int128)1 << 63;
}

bool is_list_item(NodeKind k) { return k != NodeKind::Comment && k != NodeKind::Error; }

}  // namespace

ExprId Lowerer::lower_expr_or_error(TSNode n, Span fallback) {
  if (is_null(n)) return error_expr(span(fallback.end, fallback.end));
  return lower_expr(n);
}

ExprId Lowerer::lower_int(TSNode n, bool negate, Span sp) {
  std::string_view t = text(n);
  std::vector<LiteralError> errors;
  std::optional<int64_t> v = parse_int_literal(t, errors);
  if (!v) {
    if (negate && is_int64_min_magnitude(t)) return expr(sp, IntLit{INT64_MIN});
    report_literal_errors(errors, ts_node_start_byte(n));
    return error_expr(sp);
  }
  return expr(sp, IntLit{negate ? -*v : *v});
}

ExprId Lowerer::lower_float(TSNode n, bool negate, Span sp) {
  std::vector<LiteralError> errors;
  std::optional<double> v = parse_float_literal(text(n), errors);
  if (!v) {
    report_literal_errors(errors, ts_node_start_byte(n));
    return error_expr(sp);
  }
  return expr(sp, FloatLit{negate ? -*v : *v});
}

namespace {

// Expressions that hold blocks or whole function bodies: a syntax error inside them is lowered
// piecewise so that the rest of the body is still checked.
bool holds_statements(NodeKind k) {
  return k == NodeKind::IfExpression || k == NodeKind::MatchExpression || k == NodeKind::LoopExpression ||
         k == NodeKind::Lambda;
}

}  // namespace

ExprId Lowerer::lower_expr(TSNode n) {
  if (is_null(n)) return error_expr(Span{file_, 0, 0});
  const Span sp = span(n);
  // A syntax error inside an expression was reported by report_syntax_errors; whatever
  // recovery made of the rest of it would only produce follow-on errors in the checker.
  const NodeKind k = kind(n);
  // (A MISSING node has an error too: one call tells nodes without errors apart.)
  if (ts_node_has_error(n) && (ts_node_is_missing(n) || !holds_statements(k))) return error_expr(sp);
  if (!enter(n)) return error_expr(sp);
  ExprId result;
  switch (k) {
    case NodeKind::Identifier: {
      std::string_view t = text(sp);
      if (is_keyword(t)) {
        result = keyword_as_expression(n);
        break;
      }
      if (t == "Ok" || t == "Err") {
        diags_.error(DiagKind::ResultArity, sp, std::string("`") + std::string(t) + "` must be applied to exactly one value")
            .with_hint("write `" + std::string(t) + "(value)`");
        result = error_expr(sp);
      } else {
        result = expr(sp, NameRef{Ident{t, sp}});  // what ident(n) makes of a name that is no keyword
      }
      break;
    }
    case NodeKind::Integer: result = lower_int(n, false, sp); break;
    case NodeKind::Float: result = lower_float(n, false, sp); break;
    case NodeKind::True: result = expr(sp, BoolLit{true}); break;
    case NodeKind::False: result = expr(sp, BoolLit{false}); break;
    case NodeKind::Null: result = expr(sp, NullLit{}); break;
    case NodeKind::String: result = lower_string(n); break;
    case NodeKind::Bytes: result = lower_bytes(n); break;
    case NodeKind::ParenthesizedExpression:
      result = lower_expr_or_error(field(n, g_.f_expression), sp);
      break;
    case NodeKind::Tuple:
    case NodeKind::List: {
      std::vector<ExprId> elems;
      for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
        if (ts_node_is_named(c) && is_list_item(kind(c))) elems.push_back(lower_expr(c));
      });
      if (k == NodeKind::Tuple)
        result = expr(sp, TupleExpr{std::move(elems)});
      else
        result = expr(sp, ListExpr{std::move(elems)});
      break;
    }
    case NodeKind::Map: {
      MapExpr m;
      for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
        if (kind(c) != NodeKind::MapEntry) return;
        ExprId k = lower_expr_or_error(field(c, g_.f_key), span(c));
        ExprId v = lower_expr_or_error(field(c, g_.f_value), span(c));
        m.entries.push_back(MapEntry{k, v});
      });
      result = expr(sp, std::move(m));
      break;
    }
    case NodeKind::ListComprehension: {
      ListComp c;
      c.elem = lower_expr_or_error(field(n, g_.f_body), sp);
      lower_comprehension(n, c.clauses, c.filter);
      result = expr(sp, std::move(c));
      break;
    }
    case NodeKind::MapComprehension: {
      MapComp c;
      c.key = lower_expr_or_error(field(n, g_.f_key), sp);
      c.value = lower_expr_or_error(field(n, g_.f_value), sp);
      lower_comprehension(n, c.clauses, c.filter);
      result = expr(sp, std::move(c));
      break;
    }
    case NodeKind::BinaryExpression: result = lower_binary_chain(n); break;
    case NodeKind::RangeExpression: {
      TSNode start = field(n, g_.f_start), end = field(n, g_.f_end), op = field(n, g_.f_operator);
      if (kind(start) == NodeKind::RangeExpression || kind(end) == NodeKind::RangeExpression) {
        diags_.error(DiagKind::ChainedRange, span(op), "range operators cannot be chained")
            .with_hint("`a..b..c` has no meaning; add parentheses to say which range is meant");
        result = error_expr(sp);
        break;
      }
      ExprId s = lower_expr_or_error(start, sp);
      ExprId e = lower_expr_or_error(end, sp);
      result = expr(sp, RangeExpr{s, e, kind(op) == NodeKind::TokDotDotEq, span(op)});
      break;
    }
    case NodeKind::UnaryExpression: {
      TSNode op = field(n, g_.f_operator), operand = field(n, g_.f_operand);
      NodeKind ok = kind(op);
      if (ok == NodeKind::TokMinus && kind(operand) == NodeKind::Integer && is_int64_min_magnitude(text(operand))) {
        result = expr(sp, IntLit{INT64_MIN});
        break;
      }
      UnaryOp uop = ok == NodeKind::TokNot ? UnaryOp::Not : ok == NodeKind::TokTilde ? UnaryOp::BitNot : UnaryOp::Neg;
      ExprId x = lower_expr_or_error(operand, sp);
      result = expr(sp, UnaryExpr{uop, span(op), x});
      break;
    }
    case NodeKind::FieldExpression: {
      ExprId obj = lower_expr_or_error(field(n, g_.f_object), sp);
      if (std::optional<Span> at = member_after_dot(sp)) {
        result = expr(sp, FieldExpr{obj, ident(*at)});
        break;
      }
      TSNode member = field(n, g_.f_field);
      if (kind(member) == NodeKind::MissingField) {
        // `origin.` at the end of a line: the receiver stays in the tree (references, rename
        // and hover see it) and the member is an empty name, as a MISSING one would be.
        Span at = span(member);
        diags_.error(DiagKind::ExpectedToken, at, "expected a field name, a tuple index or `await` after `.`, found the end of the line");
        result = expr(sp, FieldExpr{obj, Ident{{}, at}});
        break;
      }
      result = expr(sp, FieldExpr{obj, ident(member)});
      break;
    }
    case NodeKind::TupleIndexExpression: {
      ExprId obj = lower_expr_or_error(field(n, g_.f_object), sp);
      TSNode idx = field(n, g_.f_index);
      std::vector<LiteralError> errors;
      std::optional<int64_t> v = parse_int_literal(text(idx), errors);
      if (!v || *v > int64_t(UINT32_MAX) - 1) {
        if (errors.empty())
          errors.push_back({DiagKind::InvalidNumberLiteral, 0, uint32_t(text(idx).size()),
                            "tuple index `" + std::string(text(idx)) + "` is too large", ""});
        report_literal_errors(errors, ts_node_start_byte(idx));
        result = error_expr(sp);
        break;
      }
      result = expr(sp, TupleIndexExpr{obj, uint32_t(*v), span(idx)});
      break;
    }
    case NodeKind::AwaitExpression: {
      ExprId obj = lower_expr_or_error(field(n, g_.f_object), sp);
      result = expr(sp, AwaitExpr{obj, trailing_token(n, sp, NodeKind::KwAwait, "await", span(sp.end, sp.end))});
      break;
    }
    case NodeKind::CallExpression: result = lower_call(n); break;
    case NodeKind::IndexExpression: {
      ExprId obj = lower_expr_or_error(field(n, g_.f_object), sp);
      ExprId idx = lower_expr_or_error(field(n, g_.f_index), sp);
      result = expr(sp, IndexExpr{obj, idx});
      break;
    }
    case NodeKind::SliceExpression: {
      ExprId obj = lower_expr_or_error(field(n, g_.f_object), sp);
      TSNode s = field(n, g_.f_start), e = field(n, g_.f_end);
      ExprId start = is_null(s) ? ExprId() : lower_expr(s);
      ExprId end = is_null(e) ? ExprId() : lower_expr(e);
      bool inclusive = kind(field(n, g_.f_operator)) == NodeKind::TokDotDotEq;
      if (inclusive && !end.valid()) {
        diags_.error(DiagKind::ExpectedExpression, span(field(n, g_.f_operator)),
                     "an inclusive slice `..=` needs an end")
            .with_hint("write `xs[a..]` to slice to the end");
      }
      result = expr(sp, SliceExpr{obj, start, end, inclusive});
      break;
    }
    case NodeKind::TryExpression: {
      ExprId x = lower_expr_or_error(field(n, g_.f_operand), sp);
      result = expr(sp, TryExpr{x, trailing_token(n, sp, NodeKind::TokQuestion, "?", span(sp.end, sp.end))});
      break;
    }
    case NodeKind::StructLiteral: {
      StructLit s;
      s.type_name = ident(field(n, g_.f_name));
      for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
        if (kind(c) != NodeKind::FieldInitializer) return;
        Ident name = ident(field(c, g_.f_name));
        s.fields.push_back(FieldInit{name, lower_expr_or_error(field(c, g_.f_value), span(c))});
      });
      result = expr(sp, std::move(s));
      break;
    }
    case NodeKind::IfExpression: result = lower_if(n); break;
    case NodeKind::MatchExpression: result = lower_match(n); break;
    case NodeKind::LoopExpression: {
      Span kw = leading_token(n, sp, NodeKind::KwLoop, "loop", sp);
      BlockId body = lower_block(field(n, g_.f_body));
      result = expr(sp, LoopExpr{label_of(n), body, kw});
      break;
    }
    case NodeKind::Lambda: result = expr(sp, LambdaExpr{lower_function(n, false, true)}); break;
    case NodeKind::Error: result = error_expr(sp); break;
    default:
      // Not an expression (error recovery can put a statement or a pattern here); any syntax
      // error around it has been reported already.
      if (!ts_node_has_error(n) && !ts_node_is_missing(n)) {
        diags_.error(DiagKind::UnexpectedToken, sp, "expected an expression here");
      }
      result = error_expr(sp);
      break;
  }
  leave();
  return result;
}

std::optional<Span> Lowerer::member_after_dot(Span sp) const {
  // The node (a field expression without syntax errors) ends with its member name. When the
  // name is ASCII and right after the `.`, it runs from there to the end: no lookup needed.
  std::string_view t = text(sp);
  size_t p = t.size();
  auto name_char = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; };
  while (p > 0 && name_char(t[p - 1])) --p;
  if (p == 0 || p == t.size() || t[p - 1] != '.' || (t[p] >= '0' && t[p] <= '9')) return std::nullopt;
  return span(sp.begin + uint32_t(p), sp.end);
}

ExprId Lowerer::keyword_as_expression(TSNode n) {
  // Error recovery reads a keyword as a name when nothing else fits, typically because the
  // line before ended early: `let b =` followed by `let c = 3` on the next line.
  const Span sp = span(n);
  std::string_view all = source_.text();
  uint32_t p = sp.begin;
  bool newline = false;
  while (p > 0 && (all[p - 1] == ' ' || all[p - 1] == '\t' || all[p - 1] == '\r' || all[p - 1] == '\n')) {
    newline |= all[p - 1] == '\n';
    --p;
  }
  if (newline && p > 0 && std::string_view("=+-*/%<>&|^,(:[").find(all[p - 1]) != std::string_view::npos) {
    size_t op_begin = p - 1;
    while (op_begin > 0 && std::string_view("=+-*/%<>&|^.!").find(all[op_begin - 1]) != std::string_view::npos &&
           p - op_begin < 3)
      --op_begin;
    diags_.error(DiagKind::ExpectedExpression, span(p, p),
                 "expected an expression after `" + std::string(all.substr(op_begin, p - op_begin)) + "`");
  } else {
    diags_.error(DiagKind::KeywordAsName, sp, std::string("expected an expression, found keyword `") + std::string(text(n)) + "`");
  }
  return error_expr(sp);
}

ExprId Lowerer::lower_binary_chain(TSNode n) {
  // Left-deep chains (`a + b + c + ...`) are walked iteratively; their length still counts
  // towards the nesting limit because every later pass recurses through them. The spine goes
  // on top of chain_, above the spines of the chains around this one.
  const size_t base = chain_.size();
  TSNode cur = n;
  while (kind(cur) == NodeKind::BinaryExpression) {
    chain_.push_back(cur);
    if (depth_ + (chain_.size() - base) > kMaxNesting) {
      chain_.resize(base);
      report_too_deep(n);
      return error_expr(span(n));
    }
    cur = field(cur, g_.f_left);
  }
  const uint32_t saved = depth_;
  depth_ += uint32_t(chain_.size() - base) - 1;
  ExprId acc = lower_expr_or_error(cur, span(chain_.back()));
  for (size_t i = chain_.size(); i-- > base;) {
    TSNode node = chain_[i];  // a copy: lowering the right operand may grow chain_
    const Span sp = span(node);
    TSNode op = field(node, g_.f_operator);
    ExprId rhs = lower_expr_or_error(field(node, g_.f_right), sp);
    BinaryOp bop = binary_op(kind(op)).value_or(BinaryOp::Add);
    acc = expr(sp, BinaryExpr{bop, span(op), acc, rhs});
    if (depth_ > saved) --depth_;
  }
  chain_.resize(base);
  depth_ = saved;
  return acc;
}

void Lowerer::lower_comprehension(TSNode n, std::vector<CompClause>& clauses, ExprId& filter) {
  for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
    NodeKind k = kind(c);
    if (k == NodeKind::ForClause) {
      TSNode p = field(c, g_.f_pattern);
      PatternId pat = is_null(p) ? pattern(span(c), ErrorPat{}) : lower_pattern(p);
      check_loop_pattern(pat, "a comprehension variable");
      clauses.push_back(CompClause{pat, lower_expr_or_error(field(c, g_.f_iterable), span(c))});
    } else if (k == NodeKind::IfClause) {
      filter = lower_expr_or_error(field(c, g_.f_condition), span(c));
    }
  });
}

ExprId Lowerer::lower_call(TSNode n) {
  const Span sp = span(n);
  TSNode callee = field(n, g_.f_function);
  TSNode args = field(n, g_.f_arguments);
  std::vector<Arg> out;
  bool seen_named = false;
  if (!is_null(args)) {
    out.reserve(ts_node_named_child_count(args));
    for_each_child(cursors_, args, [&](TSNode c, TSFieldId) {
      if (!ts_node_is_named(c) || !is_list_item(kind(c))) return;
      if (kind(c) == NodeKind::NamedArgument) {
        Ident name = ident(field(c, g_.f_name));
        seen_named = true;
        out.push_back(Arg{name, lower_expr_or_error(field(c, g_.f_value), span(c))});
        return;
      }
      ExprId v = lower_expr(c);
      if (seen_named) {
        diags_.error(DiagKind::PositionalAfterNamed, ast_.get(v).span,
                     "positional arguments must come before named arguments");
      }
      out.push_back(Arg{std::nullopt, v});
    });
  }
  Span args_span = is_null(args) ? span(sp.end, sp.end) : span(args);
  if (kind(callee) == NodeKind::Identifier) {
    std::string_view t = text(callee);
    if (t == "Ok" || t == "Err") {
      bool ok = out.size() == 1 && !out[0].name;
      if (!ok) {
        std::string found = out.empty() ? "no arguments" : std::to_string(out.size()) + " arguments";
        if (out.size() == 1) found = "a named argument";
        diags_.error(DiagKind::ResultArity, span(callee),
                     "`" + std::string(t) + "` takes exactly one value, found " + found)
            .with_hint(out.size() > 1 ? std::string("wrap several values in a tuple: `") + std::string(t) + "((a, b))`"
                                      : std::string("write `") + std::string(t) + "(value)`");
      }
      ExprId value = out.empty() ? error_expr(args_span) : out[0].value;
      return expr(sp, ResultExpr{t == "Ok", value, span(callee)});
    }
  }
  ExprId c = lower_expr_or_error(callee, sp);
  return expr(sp, CallExpr{c, std::move(out), args_span});
}

ExprId Lowerer::lower_if(TSNode n) {
  const Span sp = span(n);
  TSNode cond = field(n, g_.f_condition);
  check_head(cond, "an `if` condition");
  ExprId c = lower_expr_or_error(cond, sp);
  BlockId then_block = lower_block(field(n, g_.f_consequence));
  BlockId else_block;
  TSNode alt = field(n, g_.f_alternative);
  if (!is_null(alt)) {
    if (kind(alt) == NodeKind::IfExpression) {
      // `else if` is an else block holding one expression statement with the nested `if`.
      ExprId nested = lower_expr(alt);
      const Span asp = span(alt);
      else_block = single_stmt_block(asp, stmt(asp, ExprStmt{nested}));
    } else {
      else_block = lower_block(alt);
    }
  }
  Span kw = leading_token(n, sp, NodeKind::KwIf, "if", sp);
  return expr(sp, IfExpr{c, then_block, else_block, kw});
}

ExprId Lowerer::lower_match(TSNode n) {
  const Span sp = span(n);
  MatchExpr m;
  TSNode value = field(n, g_.f_value);
  check_head(value, "a `match` scrutinee");
  m.scrutinee = lower_expr_or_error(value, sp);
  m.match_span = leading_token(n, sp, NodeKind::KwMatch, "match", sp);
  TSNode body = field(n, g_.f_body);
  if (!is_null(body)) {
    for_each_child(cursors_, body, [&](TSNode arm, TSFieldId) {
      if (kind(arm) != NodeKind::MatchArm) return;
      MatchArm a;
      a.span = span(arm);
      TSNode p = field(arm, g_.f_pattern);
      a.pattern = is_null(p) ? pattern(a.span, ErrorPat{}) : lower_pattern(p);
      TSNode guard = field(arm, g_.f_guard);
      if (!is_null(guard)) a.guard = lower_expr(guard);
      TSNode v = field(arm, g_.f_value);
      NodeKind vk = kind(v);
      if (vk == NodeKind::Block) {
        a.body = lower_block(v);
      } else if (vk == NodeKind::ReturnStatement || vk == NodeKind::StatusReturn ||
                 vk == NodeKind::BreakStatement || vk == NodeKind::ContinueStatement) {
        std::vector<StmtId> stmts;
        lower_statement(v, stmts);
        Block b;
        b.span = span(v);
        b.stmts = std::move(stmts);
        a.body = ast_.add(std::move(b));
        a.arrow_body = true;
      } else {
        Span vsp = is_null(v) ? span(a.span.end, a.span.end) : span(v);
        ExprId e = lower_expr_or_error(v, vsp);
        a.body = single_stmt_block(vsp, stmt(vsp, ExprStmt{e}));
        a.arrow_body = true;
      }
      m.arms.push_back(a);
    });
  }
  return expr(sp, std::move(m));
}

void Lowerer::check_loop_pattern(PatternId id, std::string_view construct) {
  // `for` and comprehension variables take a name, `_` or a tuple of those: nothing refutable.
  std::vector<PatternId> work{id};
  while (!work.empty()) {
    PatternId p = work.back();
    work.pop_back();
    if (!p.valid()) continue;
    const Pattern& pat = ast_.get(p);
    if (const auto* t = std::get_if<TuplePat>(&pat.data)) {
      work.insert(work.end(), t->elems.begin(), t->elems.end());
      continue;
    }
    if (std::holds_alternative<BindPat>(pat.data) || std::holds_alternative<WildcardPat>(pat.data) ||
        std::holds_alternative<ErrorPat>(pat.data))
      continue;
    diags_.error(DiagKind::InvalidPattern, pat.span,
                 "pattern `" + std::string(source_.slice(pat.span)) + "` is not allowed as " + std::string(construct))
        .with_hint("use a name, `_` or a tuple of them, e.g. `for (key, _) in pairs`");
    return;
  }
}

void Lowerer::check_head(TSNode head, std::string_view construct) {
  if (is_null(head)) return;
  // A struct literal has a `{` in its text, unless error recovery made one up.
  if (text(head).find('{') == std::string_view::npos && !ts_node_has_error(head)) return;
  std::vector<TSNode> work{head};
  while (!work.empty()) {
    TSNode n = work.back();
    work.pop_back();
    if (is_null(n)) continue;
    switch (kind(n)) {
      case NodeKind::StructLiteral: {
        TSNode name = field(n, g_.f_name);
        Span at = is_null(name) ? span(n) : span(name);
        std::string_view lit = text(n);
        std::string shown = lit.size() <= 50 && lit.find('\n') == std::string_view::npos
                                ? std::string(lit)
                                : std::string(text(name)) + " { ... }";
        diags_.error(DiagKind::StructLiteralInCondition, at,
                     "struct literals are not allowed directly in " + std::string(construct) +
                         "; wrap it in parentheses")
            .with_hint("write `(" + shown + ")`")
            .with_fix(span(ts_node_start_byte(n), ts_node_start_byte(n)), "(")
            .with_fix(span(ts_node_end_byte(n), ts_node_end_byte(n)), ")");
        break;
      }
      case NodeKind::BinaryExpression:
        work.push_back(field(n, g_.f_right));
        work.push_back(field(n, g_.f_left));
        break;
      case NodeKind::RangeExpression:
        work.push_back(field(n, g_.f_end));
        work.push_back(field(n, g_.f_start));
        break;
      case NodeKind::UnaryExpression: work.push_back(field(n, g_.f_operand)); break;
      case NodeKind::TryExpression: work.push_back(field(n, g_.f_operand)); break;
      case NodeKind::FieldExpression:
      case NodeKind::TupleIndexExpression:
      case NodeKind::AwaitExpression:
      case NodeKind::IndexExpression:
      case NodeKind::SliceExpression: work.push_back(field(n, g_.f_object)); break;
      case NodeKind::CallExpression: work.push_back(field(n, g_.f_function)); break;
      default: break;
    }
    if (work.size() > kMaxNesting) return;
  }
}

// ---- Strings ----------------------------------------------------------------------------------------

ExprId Lowerer::lower_string(TSNode n) {
  const Span sp = span(n);
  StrLit lit;
  // A one-line string without escapes or holes is its two quotes around at most one content
  // token: its text is decoded without a walk over its children.
  std::string_view whole = text(sp);
  if (whole.size() >= 2 && whole.front() == '"' && whole.back() == '"' && whole.substr(0, 3) != "\"\"\"" &&
      whole.find_first_of("\\{\n") == std::string_view::npos && !ts_node_has_error(n)) {
    if (whole.size() > 2) {
      std::string buf;
      std::vector<LiteralError> errors;
      decode_string_text(whole.substr(1, whole.size() - 2), StringFlavor::Str, buf, errors);
      report_literal_errors(errors, sp.begin + 1);
      if (!buf.empty()) lit.parts.push_back(StrPart{std::move(buf), {}, {}, {}});
    }
    return expr(sp, std::move(lit));
  }
  std::string buf;
  std::vector<LiteralError> errors;
  // Text and escape tokens are adjacent in the source; each run between holes is decoded as a
  // whole so that an escape split over two tokens (`\u{` + `zz}`) is one error, not two.
  uint32_t run_begin = 0, run_end = 0;
  auto decode_run = [&] {
    if (run_end == run_begin) return;
    errors.clear();
    decode_string_text(source_.text().substr(run_begin, run_end - run_begin), StringFlavor::Str, buf, errors);
    report_literal_errors(errors, run_begin);
    run_begin = run_end = 0;
  };
  auto flush = [&] {
    decode_run();
    if (buf.empty()) return;
    StrPart part;
    part.text = std::move(buf);
    buf.clear();
    lit.parts.push_back(std::move(part));
  };
  for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
    switch (kind(c)) {
      case NodeKind::TokTripleQuote:
        if (ts_node_start_byte(c) == sp.begin) lit.triple_quoted = true;
        break;
      case NodeKind::StringContent:
      case NodeKind::EscapeSequence:
        if (run_end != ts_node_start_byte(c)) {
          decode_run();
          run_begin = ts_node_start_byte(c);
        }
        run_end = ts_node_end_byte(c);
        break;
      case NodeKind::Interpolation: {
        TSNode e = field(c, g_.f_expression);
        if (is_null(e)) {
          if (!ts_node_has_error(c)) {
            diags_.error(DiagKind::EmptyInterpolation, span(c), "empty interpolation `{}` in a string")
                .with_hint("put an expression inside the braces, or write `\\{\\}` for literal braces");
          }
          break;
        }
        flush();
        StrPart part;
        part.hole = lower_expr(e);
        TSNode spec = field(c, g_.f_format_spec);
        if (!is_null(spec)) {
          part.format_spec = text(spec);
          part.format_span = span(spec);
          if (auto err = check_format_spec(part.format_spec)) {
            report_literal_errors({*err}, ts_node_start_byte(spec));
          }
        }
        lit.parts.push_back(std::move(part));
        break;
      }
      default: break;
    }
  });
  flush();
  return expr(sp, std::move(lit));
}

ExprId Lowerer::lower_bytes(TSNode n) {
  BytesLit b;
  std::vector<LiteralError> errors;
  uint32_t begin = UINT32_MAX, end = 0;
  for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
    NodeKind k = kind(c);
    if (k != NodeKind::StringContent && k != NodeKind::EscapeSequence) return;
    begin = std::min(begin, ts_node_start_byte(c));
    end = std::max(end, ts_node_end_byte(c));
  });
  if (begin < end) {
    decode_string_text(source_.text().substr(begin, end - begin), StringFlavor::Bytes, b.bytes, errors);
    report_literal_errors(errors, begin);
  }
  return expr(span(n), std::move(b));
}

// ---- Patterns -----------------------------------------------------------------------------------------

PatternId Lowerer::pattern(Span sp, PatternData data) {
  ast_.patterns.emplace_back();
  Pattern& p = ast_.patterns.back();
  p.span = sp;
  p.data = std::move(data);
  return PatternId(uint32_t(ast_.patterns.size() - 1));
}

PatternId Lowerer::lower_pattern(TSNode n) {
  const Span sp = span(n);
  if (!enter(n)) return pattern(sp, ErrorPat{});
  PatternId result;
  switch (kind(n)) {
    case NodeKind::WildcardPattern: result = pattern(sp, WildcardPat{}); break;
    case NodeKind::Identifier:
      if (text(n) == "_")
        result = pattern(sp, WildcardPat{});
      else
        result = pattern(sp, BindPat{ident(n)});
      break;
    case NodeKind::Integer:
    case NodeKind::Float:
    case NodeKind::String:
    case NodeKind::True:
    case NodeKind::False:
    case NodeKind::Null: {
      ExprId lit = lower_expr(n);
      if (const auto* str = std::get_if<StrLit>(&ast_.get(lit).data)) {
        bool holes = std::any_of(str->parts.begin(), str->parts.end(), [](const StrPart& p) { return p.is_hole(); });
        if (holes) {
          diags_.error(DiagKind::InvalidPattern, sp, "a string pattern cannot contain interpolation holes")
              .with_hint("match the value with a name and compare in a guard: `s if s == \"...\" => ...`");
          result = pattern(sp, ErrorPat{});
          break;
        }
      }
      result = pattern(sp, LiteralPat{lit});
      break;
    }
    case NodeKind::NegativeLiteral: {
      TSNode lit = ts_node_named_child(n, 0);
      ExprId e = kind(lit) == NodeKind::Float     ? lower_float(lit, true, sp)
                 : kind(lit) == NodeKind::Integer ? lower_int(lit, true, sp)
                                                  : error_expr(sp);
      result = pattern(sp, LiteralPat{e});
      break;
    }
    case NodeKind::RangePattern: {
      TSNode op = field(n, g_.f_operator);
      bool inclusive = kind(op) == NodeKind::TokDotDotEq;
      bool valid = true;
      auto bound = [&](TSNode b) -> int64_t {
        if (is_null(b)) {
          valid = false;
          return 0;
        }
        bool negate = kind(b) == NodeKind::NegativeLiteral;
        TSNode lit = negate ? ts_node_named_child(b, 0) : b;
        if (kind(lit) != NodeKind::Integer) {
          diags_.error(DiagKind::InvalidPattern, span(b), "range patterns need `Int` bounds")
              .with_hint("match a `Float` with a guard instead, e.g. `x if x >= 0.5 => ...`");
          valid = false;
          return 0;
        }
        ExprId e = lower_int(lit, negate, span(b));
        if (const auto* i = std::get_if<IntLit>(&ast_.get(e).data)) return i->value;
        valid = false;
        return 0;
      };
      int64_t lo = bound(field(n, g_.f_start));
      int64_t hi = bound(field(n, g_.f_end));
      result = valid ? pattern(sp, RangePat{lo, hi, inclusive}) : pattern(sp, ErrorPat{});
      break;
    }
    case NodeKind::ResultPattern: {
      TSNode k = field(n, g_.f_kind);
      TSNode inner = field(n, g_.f_pattern);
      PatternId ip = is_null(inner) ? pattern(sp, ErrorPat{}) : lower_pattern(inner);
      result = pattern(sp, ResultPat{kind(k) == NodeKind::KwOk || text(k) == "Ok", ip});
      break;
    }
    case NodeKind::TuplePattern: {
      TuplePat t;
      for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
        if (ts_node_is_named(c) && kind(c) != NodeKind::Comment) t.elems.push_back(lower_pattern(c));
      });
      result = pattern(sp, std::move(t));
      break;
    }
    case NodeKind::OrPattern: {
      OrPat o;
      for_each_child(cursors_, n, [&](TSNode c, TSFieldId) {
        if (ts_node_is_named(c) && kind(c) != NodeKind::Comment) o.alternatives.push_back(lower_pattern(c));
      });
      // Alternatives may not bind names: which alternative matched would decide what is bound.
      std::vector<PatternId> work(o.alternatives.begin(), o.alternatives.end());
      while (!work.empty()) {
        PatternId id = work.back();
        work.pop_back();
        const Pattern& p = ast_.get(id);
        if (const auto* b = std::get_if<BindPat>(&p.data)) {
          diags_.error(DiagKind::OrPatternBinding, b->name.span,
                       "an or-pattern cannot bind `" + std::string(b->name.text) + "`")
              .with_hint("use `_` in the alternatives, or give each alternative its own arm");
        } else if (const auto* r = std::get_if<ResultPat>(&p.data)) {
          work.push_back(r->inner);
        } else if (const auto* t = std::get_if<TuplePat>(&p.data)) {
          work.insert(work.end(), t->elems.begin(), t->elems.end());
        } else if (const auto* nested = std::get_if<OrPat>(&p.data)) {
          work.insert(work.end(), nested->alternatives.begin(), nested->alternatives.end());
        }
      }
      result = pattern(sp, std::move(o));
      break;
    }
    case NodeKind::Error: result = pattern(sp, ErrorPat{}); break;
    default:
      if (!ts_node_has_error(n) && !ts_node_is_missing(n)) {
        diags_.error(DiagKind::InvalidPattern, sp, "this is not a pattern")
            .with_hint("patterns are literals, names, `_`, ranges of Int literals, `Ok(p)`, `Err(p)` and tuples");
      }
      result = pattern(sp, ErrorPat{});
      break;
  }
  leave();
  return result;
}

}  // namespace fitz::frontend::lowering
