// `fitz check --dump=ast`: an indented, deterministic rendering of the AST with node kinds,
// names, literal values and line:col positions. Golden tests compare it byte for byte.
#include <charconv>
#include <cstdio>
#include <string>

#include "frontend/lower.h"

namespace fitz::frontend {

std::string_view spelling(UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg: return "-";
    case UnaryOp::Not: return "not";
    case UnaryOp::BitNot: return "~";
  }
  return "?";
}

std::string_view spelling(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Eq: return "==";
    case BinaryOp::Ne: return "!=";
    case BinaryOp::Lt: return "<";
    case BinaryOp::Le: return "<=";
    case BinaryOp::Gt: return ">";
    case BinaryOp::Ge: return ">=";
    case BinaryOp::And: return "and";
    case BinaryOp::Or: return "or";
    case BinaryOp::Xor: return "xor";
    case BinaryOp::BitAnd: return "&";
    case BinaryOp::BitOr: return "|";
    case BinaryOp::BitXor: return "^";
    case BinaryOp::Shl: return "<<";
    case BinaryOp::Shr: return ">>";
  }
  return "?";
}

namespace {

// Lowering caps nesting well below this; the bound keeps a malformed AST from exhausting the stack.
constexpr int kMaxDumpDepth = 4000;

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

// A string as a quoted literal: printable ASCII and valid UTF-8 verbatim, the rest escaped.
std::string quote_text(std::string_view s, bool bytes = false) {
  std::string out = bytes ? "b\"" : "\"";
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out += "\\\""; ++i; continue;
      case '\\': out += "\\\\"; ++i; continue;
      case '\n': out += "\\n"; ++i; continue;
      case '\t': out += "\\t"; ++i; continue;
      case '\r': out += "\\r"; ++i; continue;
      case '{': out += bytes ? "{" : "\\{"; ++i; continue;
      case '}': out += bytes ? "}" : "\\}"; ++i; continue;
      default: break;
    }
    if (c >= 0x20 && c < 0x7F) {
      out += char(c);
      ++i;
      continue;
    }
    char32_t cp;
    uint32_t len = bytes ? 1 : decode_utf8(s, uint32_t(i), cp);
    if (c >= 0x80 && len > 1) {
      out.append(s.substr(i, len));
      i += len;
      continue;
    }
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02X", unsigned(c));
    out += buf;
    ++i;
  }
  out += '"';
  return out;
}

std::string float_text(double v) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, ec == std::errc() ? ptr : buf);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

class Dumper {
 public:
  Dumper(const Ast& ast, const SourceFile& source) : ast_(ast), source_(source) {}

  std::string run() {
    out_ += "Module\n";
    for (StmtId s : ast_.top_level) stmt(1, "", s);
    return std::move(out_);
  }

 private:
  // One output line: indentation, an optional role ("cond: "), the text, then the position.
  void line(int indent, std::string_view role, std::string_view text, Span span) {
    out_.append(size_t(indent) * 2, ' ');
    if (!role.empty()) {
      out_ += role;
      out_ += ": ";
    }
    out_ += text;
    LineCol lc = source_.line_col(span.begin);
    out_ += " @";
    out_ += std::to_string(lc.line);
    out_ += ':';
    out_ += std::to_string(lc.col);
    out_ += '\n';
  }

  bool too_deep(int indent) {
    if (indent < kMaxDumpDepth) return false;
    out_.append(size_t(indent) * 2, ' ');
    out_ += "...\n";
    return true;
  }

  static std::string label_text(const std::optional<Ident>& label) {
    return label ? std::string(" '") + std::string(label->text) : std::string();
  }

  std::string type_text(TypeExprId id, int depth = 0) {
    if (!id.valid()) return "<none>";
    if (depth > kMaxDumpDepth) return "...";
    const TypeExpr& t = ast_.get(id);
    return std::visit(
        Overloaded{
            [&](const NamedType& n) {
              std::string s;
              for (size_t i = 0; i < n.path.size(); ++i) {
                if (i) s += '.';
                s += n.path[i].text;
              }
              if (!n.args.empty()) {
                s += '<';
                for (size_t i = 0; i < n.args.size(); ++i) {
                  if (i) s += ", ";
                  s += type_text(n.args[i], depth + 1);
                }
                s += '>';
              }
              return s;
            },
            [&](const NullableType& n) { return type_text(n.inner, depth + 1) + "?"; },
            [&](const TupleType& tt) {
              std::string s = "(";
              for (size_t i = 0; i < tt.elems.size(); ++i) {
                if (i) s += ", ";
                s += type_text(tt.elems[i], depth + 1);
              }
              if (tt.elems.size() == 1) s += ',';
              return s + ")";
            },
            [&](const FnType& f) {
              std::string s = "Fn(";
              for (size_t i = 0; i < f.params.size(); ++i) {
                if (i) s += ", ";
                s += type_text(f.params[i], depth + 1);
              }
              return s + ") -> " + type_text(f.result, depth + 1);
            },
            [&](const ErrorType&) { return std::string("<error>"); },
        },
        t.data);
  }

  void type(int indent, std::string_view role, TypeExprId id) {
    if (!id.valid()) return;
    line(indent, role, type_text(id), ast_.get(id).span);
  }

  void decorators(int indent, const std::vector<Decorator>& decs) {
    for (const Decorator& d : decs) {
      line(indent, "decorator", std::string("@") + std::string(d.name.text) + (d.has_parens ? "()" : ""), d.span);
      for (const DecoratorArg& a : d.args)
        expr(indent + 1, a.name ? std::string("arg ") + std::string(a.name->text) : std::string("arg"), a.value);
    }
  }

  void fn(int indent, std::string_view role, FnId id, Span at, bool lambda = false) {
    const FnDecl& f = ast_.get(id);
    std::string head = lambda ? "Lambda" : "Fn";
    if (f.name) head += std::string(" ") + std::string(f.name->text);
    if (f.is_async) head += " async";
    if (f.is_static) head += " static";
    if (f.arrow_body) head += " arrow";
    line(indent, role, head, at);
    if (too_deep(indent + 1)) return;
    decorators(indent + 1, f.decorators);
    for (const Param& p : f.params) {
      line(indent + 1, "param", (p.variadic ? "..." : "") + std::string(p.name.text), p.span);
      decorators(indent + 2, p.decorators);
      type(indent + 2, "type", p.type);
      expr(indent + 2, "default", p.default_value);
    }
    type(indent + 1, "returns", f.return_type);
    block(indent + 1, "body", f.body);
  }

  void block(int indent, std::string_view role, BlockId id) {
    if (!id.valid()) return;
    const Block& b = ast_.get(id);
    line(indent, role, b.stmts.empty() ? "Block (empty)" : "Block", b.span);
    if (too_deep(indent + 1)) return;
    for (StmtId s : b.stmts) stmt(indent + 1, "", s);
  }

  void pattern(int indent, std::string_view role, PatternId id) {
    if (!id.valid()) return;
    if (too_deep(indent)) return;
    const Pattern& p = ast_.get(id);
    std::visit(Overloaded{
                   [&](const WildcardPat&) { line(indent, role, "Wildcard", p.span); },
                   [&](const BindPat& b) { line(indent, role, std::string("Bind ") + std::string(b.name.text), p.span); },
                   [&](const LiteralPat& l) {
                     line(indent, role, "LiteralPat", p.span);
                     expr(indent + 1, "", l.literal);
                   },
                   [&](const RangePat& r) {
                     line(indent, role,
                          "RangePat " + std::to_string(r.lo) + (r.inclusive ? "..=" : "..") + std::to_string(r.hi),
                          p.span);
                   },
                   [&](const ResultPat& r) {
                     line(indent, role, r.is_ok ? "OkPat" : "ErrPat", p.span);
                     pattern(indent + 1, "", r.inner);
                   },
                   [&](const TuplePat& t) {
                     line(indent, role, t.elems.empty() ? "TuplePat (empty)" : "TuplePat", p.span);
                     for (PatternId e : t.elems) pattern(indent + 1, "", e);
                   },
                   [&](const OrPat& o) {
                     line(indent, role, "OrPat", p.span);
                     for (PatternId e : o.alternatives) pattern(indent + 1, "", e);
                   },
                   [&](const ErrorPat&) { line(indent, role, "ErrorPat", p.span); },
               },
               p.data);
  }

  void clauses(int indent, const std::vector<CompClause>& cs, ExprId filter) {
    for (const CompClause& c : cs) {
      pattern(indent, "for", c.pattern);
      expr(indent, "in", c.iterable);
    }
    expr(indent, "if", filter);
  }

  void expr(int indent, std::string_view role, ExprId id) {
    if (!id.valid()) return;
    if (too_deep(indent)) return;
    const Expr& e = ast_.get(id);
    const Span sp = e.span;
    const int in = indent + 1;
    std::visit(
        Overloaded{
            [&](const IntLit& v) { line(indent, role, "Int " + std::to_string(v.value), sp); },
            [&](const FloatLit& v) { line(indent, role, "Float " + float_text(v.value), sp); },
            [&](const BoolLit& v) { line(indent, role, v.value ? "Bool true" : "Bool false", sp); },
            [&](const NullLit&) { line(indent, role, "Null", sp); },
            [&](const StrLit& s) {
              std::string head = s.triple_quoted ? "Str triple" : "Str";
              bool simple = s.parts.empty() || (s.parts.size() == 1 && !s.parts[0].is_hole());
              if (simple) {
                line(indent, role, head + " " + quote_text(s.parts.empty() ? "" : s.parts[0].text), sp);
                return;
              }
              line(indent, role, head, sp);
              for (const StrPart& part : s.parts) {
                if (!part.is_hole()) {
                  out_.append(size_t(in) * 2, ' ');
                  out_ += "text " + quote_text(part.text) + "\n";
                  continue;
                }
                std::string h = "hole";
                if (!part.format_spec.empty()) h += " spec " + quote_text(part.format_spec);
                expr(in, h, part.hole);
              }
            },
            [&](const BytesLit& b) { line(indent, role, "Bytes " + quote_text(b.bytes, true), sp); },
            [&](const NameRef& n) { line(indent, role, std::string("Name ") + std::string(n.name.text), sp); },
            [&](const TupleExpr& t) {
              line(indent, role, t.elems.empty() ? "Tuple (empty)" : "Tuple", sp);
              for (ExprId x : t.elems) expr(in, "", x);
            },
            [&](const ListExpr& l) {
              line(indent, role, l.elems.empty() ? "List (empty)" : "List", sp);
              for (ExprId x : l.elems) expr(in, "", x);
            },
            [&](const MapExpr& m) {
              line(indent, role, m.entries.empty() ? "Map (empty)" : "Map", sp);
              for (const MapEntry& en : m.entries) {
                expr(in, "key", en.key);
                expr(in, "value", en.value);
              }
            },
            [&](const ListComp& c) {
              line(indent, role, "ListComp", sp);
              expr(in, "elem", c.elem);
              clauses(in, c.clauses, c.filter);
            },
            [&](const MapComp& c) {
              line(indent, role, "MapComp", sp);
              expr(in, "key", c.key);
              expr(in, "value", c.value);
              clauses(in, c.clauses, c.filter);
            },
            [&](const UnaryExpr& u) {
              line(indent, role, std::string("Unary ") + std::string(spelling(u.op)), sp);
              expr(in, "", u.operand);
            },
            [&](const BinaryExpr& b) {
              line(indent, role, std::string("Binary ") + std::string(spelling(b.op)), sp);
              expr(in, "", b.lhs);
              expr(in, "", b.rhs);
            },
            [&](const RangeExpr& r) {
              line(indent, role, r.inclusive ? "Range ..=" : "Range ..", sp);
              expr(in, "start", r.start);
              expr(in, "end", r.end);
            },
            [&](const FieldExpr& f) {
              line(indent, role, std::string("Field ") + std::string(f.field.text), sp);
              expr(in, "", f.object);
            },
            [&](const TupleIndexExpr& t) {
              line(indent, role, "TupleIndex " + std::to_string(t.index), sp);
              expr(in, "", t.object);
            },
            [&](const AwaitExpr& a) {
              line(indent, role, "Await", sp);
              expr(in, "", a.operand);
            },
            [&](const TryExpr& t) {
              line(indent, role, "Try", sp);
              expr(in, "", t.operand);
            },
            [&](const CallExpr& c) {
              line(indent, role, "Call", sp);
              expr(in, "callee", c.callee);
              for (const Arg& a : c.args)
                expr(in, a.name ? std::string("arg ") + std::string(a.name->text) : std::string("arg"), a.value);
            },
            [&](const IndexExpr& x) {
              line(indent, role, "Index", sp);
              expr(in, "", x.object);
              expr(in, "index", x.index);
            },
            [&](const SliceExpr& s) {
              line(indent, role, s.inclusive ? "Slice ..=" : "Slice ..", sp);
              expr(in, "", s.object);
              expr(in, "start", s.start);
              expr(in, "end", s.end);
            },
            [&](const StructLit& s) {
              line(indent, role, std::string("Struct ") + std::string(s.type_name.text), sp);
              for (const FieldInit& f : s.fields) expr(in, std::string("field ") + std::string(f.name.text), f.value);
            },
            [&](const ResultExpr& r) {
              line(indent, role, r.is_ok ? "Ok" : "Err", sp);
              expr(in, "", r.value);
            },
            [&](const IfExpr& i) {
              line(indent, role, "If", sp);
              expr(in, "cond", i.condition);
              block(in, "then", i.then_block);
              block(in, "else", i.else_block);
            },
            [&](const MatchExpr& m) {
              line(indent, role, "Match", sp);
              expr(in, "scrutinee", m.scrutinee);
              for (const MatchArm& a : m.arms) {
                line(in, "", a.arrow_body ? "Arm arrow" : "Arm", a.span);
                pattern(in + 1, "pattern", a.pattern);
                expr(in + 1, "guard", a.guard);
                block(in + 1, "body", a.body);
              }
            },
            [&](const LoopExpr& l) {
              line(indent, role, "Loop" + label_text(l.label), sp);
              block(in, "body", l.body);
            },
            [&](const LambdaExpr& l) { fn(indent, role, l.fn, sp, true); },
            [&](const ErrorExpr&) { line(indent, role, "Error", sp); },
        },
        e.data);
  }

  void stmt(int indent, std::string_view role, StmtId id) {
    if (!id.valid()) return;
    if (too_deep(indent)) return;
    const Stmt& s = ast_.get(id);
    const Span sp = s.span;
    const int in = indent + 1;
    std::visit(
        Overloaded{
            [&](const AssignStmt& a) {
              std::string head = a.is_let ? "Let" : "Assign";
              if (a.compound) head += std::string(" ") + std::string(spelling(*a.compound)) + "=";
              line(indent, role, head, sp);
              expr(in, "target", a.target);
              expr(in, "value", a.value);
            },
            [&](const AnnotatedAssignStmt& a) {
              line(indent, role, std::string(a.is_let ? "Let " : "Assign ") + std::string(a.name.text), sp);
              type(in, "type", a.type);
              expr(in, "value", a.value);
            },
            [&](const LetPatternStmt& l) {
              line(indent, role, "LetPattern", sp);
              pattern(in, "pattern", l.pattern);
              expr(in, "value", l.value);
            },
            [&](const ExprStmt& e) { expr(indent, role, e.expr); },
            [&](const ReturnStmt& r) {
              line(indent, role, "Return", sp);
              expr(in, "", r.value);
            },
            [&](const StatusReturnStmt& r) {
              line(indent, role, "StatusReturn", sp);
              expr(in, "status", r.status);
              expr(in, "body", r.body);
            },
            [&](const BreakStmt& b) {
              line(indent, role, "Break" + label_text(b.label), sp);
              expr(in, "", b.value);
            },
            [&](const ContinueStmt& c) { line(indent, role, "Continue" + label_text(c.label), sp); },
            [&](const WhileStmt& w) {
              line(indent, role, "While" + label_text(w.label), sp);
              expr(in, "cond", w.condition);
              block(in, "body", w.body);
            },
            [&](const ForStmt& f) {
              line(indent, role, "For" + label_text(f.label), sp);
              pattern(in, "pattern", f.pattern);
              expr(in, "in", f.iterable);
              block(in, "body", f.body);
            },
            [&](const FnStmt& f) { fn(indent, role, f.fn, sp); },
            [&](const TypeStmt& t) {
              const TypeDecl& d = ast_.get(t.type);
              line(indent, role, std::string("TypeDecl ") + std::string(d.name.text), sp);
              decorators(in, d.decorators);
              for (const FieldDecl& f : d.fields) {
                line(in, "field", std::string(f.name.text), f.span);
                decorators(in + 1, f.decorators);
                type(in + 1, "type", f.type);
                expr(in + 1, "default", f.default_value);
              }
              for (FnId m : d.methods) fn(in, "method", m, ast_.get(m).span);
            },
            [&](const ImportStmt& i) {
              std::string head = "Import ";
              for (size_t k = 0; k < i.path.size(); ++k) {
                if (k) head += '.';
                head += i.path[k].text;
              }
              if (i.alias) head += std::string(" as ") + std::string(i.alias->text);
              line(indent, role, head, sp);
            },
            [&](const FromImportStmt& f) {
              std::string head = "FromImport ";
              for (size_t k = 0; k < f.path.size(); ++k) {
                if (k) head += '.';
                head += f.path[k].text;
              }
              line(indent, role, head, sp);
              for (const ImportName& n : f.names) {
                std::string name(n.name.text);
                for (const Ident& part : n.rest) name += "." + std::string(part.text);
                line(in, "name", name + (n.alias ? std::string(" as ") + std::string(n.alias->text) : ""), n.name.span);
              }
            },
            [&](const ErrorStmt&) { line(indent, role, "ErrorStmt", sp); },
        },
        s.data);
  }

  const Ast& ast_;
  const SourceFile& source_;
  std::string out_;
};

}  // namespace

std::string dump_ast(const Ast& ast, const SourceFile& source) { return Dumper(ast, source).run(); }

}  // namespace fitz::frontend
