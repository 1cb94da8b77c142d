// `.where`/`.order_by`/aggregate closures translated to SQL. The lambda's parameter is the row:
// `u.field` is a column; every other value (literals, captured variables, `v.field` chains) is
// bound as `$n`. Forms with no SQL meaning are errors that point at the sub-expression.
#include <fmt/format.h>

#include "orm/query.h"

namespace fitz::orm {

using namespace frontend;

namespace {

// Sql: constant SQL from the program (`sql.now()`, `sql.raw("...")`, `col.plus_days(n)`), which
// the type checks of comparisons leave alone.
enum class PieceKind : uint8_t { Column, Value, Null, Bool, Numeric, Text, Sql };

struct Piece {
  std::string sql;
  PieceKind kind = PieceKind::Bool;
  const Column* column = nullptr;  // Column
  ValueClass value = ValueClass::Unknown;  // Value
};

class Translator {
 public:
  Translator(const QueryEnv& env, const TableModel& table, std::string_view row, std::vector<SqlParam>& params)
      : env_(env), ast_(*env.ast), table_(table), row_(row), params_(params) {}

  std::optional<OrmError> error;

  std::optional<Piece> piece(ExprId e);

 private:
  std::optional<Piece> fail(OrmErrorCode code, Span at, std::string message, std::string hint = "") {
    if (!error) error = OrmError{code, at, std::move(message), std::move(hint)};
    return std::nullopt;
  }
  std::optional<Piece> untranslatable(Span at, std::string what) {
    return fail(OrmErrorCode::Untranslatable, at, fmt::format("{} cannot be translated to SQL", what),
                "compute the value before the query and use the variable inside the closure");
  }

  Piece bind(ExprId e, ParamForm form = ParamForm::Value) {
    params_.push_back(SqlParam{e, form, {}});
    Piece p;
    p.sql = fmt::format("${}", params_.size());
    p.kind = PieceKind::Value;
    p.value = env_.class_of ? env_.class_of(e) : ValueClass::Unknown;
    return p;
  }

  bool is_row(ExprId e) const {
    auto* n = std::get_if<NameRef>(&ast_.get(e).data);
    return n && n->name.text == row_;
  }
  // Whether `e` is a chain of names and fields rooted at a variable other than the row.
  bool is_captured_chain(ExprId e) const {
    const Expr& x = ast_.get(e);
    if (auto* n = std::get_if<NameRef>(&x.data)) return n->name.text != row_;
    if (auto* f = std::get_if<FieldExpr>(&x.data)) return is_captured_chain(f->object);
    return false;
  }

  template <class T>
  std::optional<Piece> on(ExprId, const Expr& x, const T&) {
    return untranslatable(x.span, "this expression");
  }
  std::optional<Piece> on(ExprId e, const Expr&, const IntLit&) { return bind(e); }
  std::optional<Piece> on(ExprId e, const Expr&, const FloatLit&) { return bind(e); }
  std::optional<Piece> on(ExprId, const Expr&, const BoolLit& b) {
    return Piece{b.value ? "TRUE" : "FALSE", PieceKind::Bool, nullptr, ValueClass::Bool};
  }
  std::optional<Piece> on(ExprId, const Expr&, const NullLit&) {
    return Piece{"NULL", PieceKind::Null, nullptr, ValueClass::Null};
  }
  std::optional<Piece> on(ExprId e, const Expr& x, const StrLit& s) {
    for (const StrPart& p : s.parts)
      if (p.is_hole()) return untranslatable(x.span, "string interpolation");
    return bind(e);
  }
  std::optional<Piece> on(ExprId e, const Expr& x, const NameRef& n) {
    if (n.name.text == row_)
      return fail(OrmErrorCode::Untranslatable, x.span, "comparing the whole row cannot be translated to SQL",
                  fmt::format("compare its columns, e.g. `{}.id`", row_));
    return bind(e);
  }
  std::optional<Piece> on(ExprId e, const Expr& x, const FieldExpr& f) {
    if (is_row(f.object)) {
      const Column* c = table_.column_of_field(f.field.text);
      if (!c) {
        if (table_.relation_of_field(f.field.text))
          return fail(OrmErrorCode::UnknownColumn, f.field.span,
                      fmt::format("`{}.{}` is a relation, not a column of table `{}`", table_.type_name, f.field.text,
                                  table_.name),
                      "filter on the foreign key column instead");
        return fail(OrmErrorCode::UnknownColumn, f.field.span,
                    fmt::format("table `{}` has no column for field `{}`", table_.name, f.field.text));
      }
      Piece p;
      p.sql = quote_ident(c->name);
      p.kind = PieceKind::Column;
      p.column = c;
      return p;
    }
    if (is_captured_chain(f.object)) return bind(e);
    // u.rel.field and anything else rooted at the row through a field.
    ExprId root = f.object;
    while (auto* inner = std::get_if<FieldExpr>(&ast_.get(root).data)) root = inner->object;
    if (is_row(root)) return untranslatable(x.span, "access through a nested relation");
    return untranslatable(x.span, "this expression");
  }
  std::optional<Piece> on(ExprId, const Expr&, const UnaryExpr& u) {
    auto in = piece(u.operand);
    if (!in) return std::nullopt;
    if (u.op == UnaryOp::Not) return Piece{fmt::format("(NOT {})", in->sql), PieceKind::Bool};
    if (u.op == UnaryOp::Neg) return Piece{fmt::format("(-{})", in->sql), PieceKind::Numeric};
    return untranslatable(u.op_span, fmt::format("the operator `{}`", spelling(u.op)));
  }

  static bool numeric(const Column& c) {
    return c.shape.kind == FieldShape::Int || c.shape.kind == FieldShape::Float;
  }
  // Whether a value of class `v` may be compared with column `c`.
  static bool fits(const Column& c, ValueClass v) {
    switch (v) {
      case ValueClass::Unknown: case ValueClass::Other: return true;
      case ValueClass::Null: return c.nullable;
      case ValueClass::Int: case ValueClass::Float: return numeric(c);
      case ValueClass::Str:
        return c.shape.kind == FieldShape::Str || c.shape.kind == FieldShape::Date ||
               c.shape.kind == FieldShape::DateTime || c.shape.kind == FieldShape::Uuid;
      case ValueClass::Bool: return c.shape.kind == FieldShape::Bool;
      case ValueClass::List: return c.shape.kind == FieldShape::List;
      case ValueClass::Map: return c.shape.kind == FieldShape::Map;
    }
    return true;
  }
  static std::string_view class_name(ValueClass v) {
    switch (v) {
      case ValueClass::Int: return "Int";
      case ValueClass::Float: return "Float";
      case ValueClass::Str: return "Str";
      case ValueClass::Bool: return "Bool";
      case ValueClass::Null: return "Null";
      case ValueClass::List: return "a List";
      case ValueClass::Map: return "a Map";
      default: return "this value";
    }
  }
  static std::string shape_name(const Column& c) {
    static constexpr std::string_view names[] = {"Int", "Float", "Str", "Bool", "Date", "DateTime",
                                                 "Uuid", "List", "Map", "a type", "this type"};
    std::string s(names[c.shape.kind]);
    return c.nullable ? s + "?" : s;
  }
  bool check_compare(const Piece& col, const Piece& val, Span at) {
    if (col.kind != PieceKind::Column || val.kind != PieceKind::Value) return true;
    if (fits(*col.column, val.value)) return true;
    fail(OrmErrorCode::TypeMismatch, at,
         fmt::format("column `{}` holds {} but is compared with {}", col.column->name, shape_name(*col.column),
                     class_name(val.value)));
    return false;
  }

  static bool is_text(const Piece& p) {
    return p.kind == PieceKind::Text || (p.kind == PieceKind::Column && p.column->shape.kind == FieldShape::Str) ||
           (p.kind == PieceKind::Value && p.value == ValueClass::Str);
  }

  std::optional<Piece> on(ExprId, const Expr& x, const BinaryExpr& b) {
    auto l = piece(b.lhs);
    if (!l) return std::nullopt;
    auto r = piece(b.rhs);
    if (!r) return std::nullopt;
    std::string_view op;
    PieceKind kind = PieceKind::Bool;
    switch (b.op) {
      case BinaryOp::Eq: op = "="; break;
      case BinaryOp::Ne: op = "<>"; break;
      case BinaryOp::Lt: op = "<"; break;
      case BinaryOp::Le: op = "<="; break;
      case BinaryOp::Gt: op = ">"; break;
      case BinaryOp::Ge: op = ">="; break;
      case BinaryOp::And: op = "AND"; break;
      case BinaryOp::Or: op = "OR"; break;
      case BinaryOp::Add: op = "+"; kind = PieceKind::Numeric; break;
      case BinaryOp::Sub: op = "-"; kind = PieceKind::Numeric; break;
      case BinaryOp::Mul: op = "*"; kind = PieceKind::Numeric; break;
      case BinaryOp::Div: op = "/"; kind = PieceKind::Numeric; break;
      case BinaryOp::Mod: op = "%"; kind = PieceKind::Numeric; break;
      default: return untranslatable(b.op_span, fmt::format("the operator `{}`", spelling(b.op)));
    }
    // Str `+` is concatenation: SQL `||`, each bound value typed text so the server does not
    // have to guess (and `+` on text is no operator at all).
    if (b.op == BinaryOp::Add && (is_text(*l) || is_text(*r))) {
      auto operand = [](const Piece& p) { return p.kind == PieceKind::Value ? p.sql + "::text" : p.sql; };
      return Piece{fmt::format("({} || {})", operand(*l), operand(*r)), PieceKind::Text};
    }
    bool equality = b.op == BinaryOp::Eq || b.op == BinaryOp::Ne;
    // `= NULL` is never true in SQL: null checks become IS [NOT] NULL.
    if (equality && (l->kind == PieceKind::Null || r->kind == PieceKind::Null)) {
      const Piece& other = l->kind == PieceKind::Null ? *r : *l;
      return Piece{fmt::format("({} {})", other.sql, b.op == BinaryOp::Eq ? "IS NULL" : "IS NOT NULL"), PieceKind::Bool};
    }
    if (b.op != BinaryOp::And && b.op != BinaryOp::Or) {
      if (!check_compare(*l, *r, x.span) || !check_compare(*r, *l, x.span)) return std::nullopt;
    }
    return Piece{fmt::format("({} {} {})", l->sql, op, r->sql), kind};
  }

  std::string_view array_cast(const Column& c) const {
    switch (c.shape.elem) {
      case FieldShape::Int: return "::int8[]";
      case FieldShape::Float: return "::float8[]";
      case FieldShape::Bool: return "::bool[]";
      default: return "::text[]";
    }
  }

  std::optional<Piece> on(ExprId e, const Expr& x, const CallExpr& c) {
    if (auto constant = sql_constant(ast_, e)) return Piece{*constant, PieceKind::Sql};
    auto* callee = std::get_if<FieldExpr>(&ast_.get(c.callee).data);
    if (!callee) return untranslatable(x.span, "a function call");
    if (is_captured_chain(callee->object)) return untranslatable(x.span, "a method call on a captured value");
    auto obj = piece(callee->object);
    if (!obj) return std::nullopt;
    std::string_view m = callee->field.text;
    if (obj->kind != PieceKind::Column)
      return untranslatable(callee->field.span, fmt::format("the method `{}` on this expression", m));
    const Column& col = *obj->column;
    std::string cs = obj->sql;
    auto argc = [&](size_t n) -> bool {
      if (c.args.size() == n) return true;
      fail(OrmErrorCode::Untranslatable, x.span, fmt::format("`{}` takes {} argument{} here", m, n, n == 1 ? "" : "s"));
      return false;
    };
    auto arg = [&](size_t i, ParamForm form = ParamForm::Value) -> std::optional<Piece> {
      ExprId a = c.args[i].value;
      const Expr& ax = ast_.get(a);
      if (auto* s = std::get_if<StrLit>(&ax.data))
        for (const StrPart& p : s->parts)
          if (p.is_hole()) return untranslatable(ax.span, "string interpolation");
      if (form != ParamForm::Value) {
        if (!is_captured_chain(a) && !std::holds_alternative<StrLit>(ax.data))
          return untranslatable(ax.span, "this pattern argument");
        return bind(a, form);
      }
      return piece(a);
    };
    auto bool_piece = [](std::string s) { return Piece{std::move(s), PieceKind::Bool}; };
    bool is_text = col.shape.kind == FieldShape::Str;
    bool is_array = col.shape.kind == FieldShape::List;
    bool is_json = col.shape.kind == FieldShape::Map;
    if (m == "is_null" || m == "is_not_null") {
      if (!argc(0)) return std::nullopt;
      return bool_piece(fmt::format("({} {})", cs, m == "is_null" ? "IS NULL" : "IS NOT NULL"));
    }
    if (m == "is_in") {
      if (!argc(1)) return std::nullopt;
      ExprId a = c.args[0].value;
      if (auto* l = std::get_if<ListExpr>(&ast_.get(a).data)) {
        if (l->elems.empty()) return bool_piece("FALSE");
        std::string list = "(";
        for (size_t i = 0; i < l->elems.size(); ++i) {
          auto p = piece(l->elems[i]);
          if (!p || !check_compare(*obj, *p, ast_.get(l->elems[i]).span)) return std::nullopt;
          list += (i ? "," : "") + p->sql;
        }
        list += ")";
        return bool_piece(fmt::format("({} IN {})", cs, list));
      }
      if (!is_captured_chain(a)) return untranslatable(ast_.get(a).span, "this `is_in` argument");
      Piece p = bind(a);
      return bool_piece(fmt::format("({} = ANY({}))", cs, p.sql));
    }
    if (m == "between") {
      if (!argc(2)) return std::nullopt;
      auto lo = arg(0);
      if (!lo || !check_compare(*obj, *lo, x.span)) return std::nullopt;
      auto hi = arg(1);
      if (!hi || !check_compare(*obj, *hi, x.span)) return std::nullopt;
      return bool_piece(fmt::format("({} BETWEEN {} AND {})", cs, lo->sql, hi->sql));
    }
    // DateTime arithmetic: `col.plus_minutes(n)` with n a value or an Int column. The interval is
    // multiplied by n (int8 widens to float8), so a bound Int needs no cast of its own.
    if (col.shape.kind == FieldShape::DateTime && m.starts_with("plus_")) {
      static constexpr std::pair<std::string_view, std::string_view> kUnits[] = {
          {"plus_seconds", "1 second"}, {"plus_minutes", "1 minute"}, {"plus_hours", "1 hour"}, {"plus_days", "1 day"}};
      for (const auto& [name, unit] : kUnits) {
        if (m != name) continue;
        if (!argc(1)) return std::nullopt;
        auto n = arg(0);
        if (!n) return std::nullopt;
        bool whole = (n->kind == PieceKind::Column && n->column->shape.kind == FieldShape::Int) ||
                     (n->kind == PieceKind::Value && (n->value == ValueClass::Int || n->value == ValueClass::Unknown)) ||
                     n->kind == PieceKind::Numeric;
        if (!whole)
          return fail(OrmErrorCode::TypeMismatch, ast_.get(c.args[0].value).span,
                      fmt::format("`{}` takes an Int (a value or an Int column)", m));
        return Piece{fmt::format("({} + ({} * interval '{}'))", cs, n->sql, unit), PieceKind::Sql};
      }
    }
    if (is_text && (m == "like" || m == "ilike")) {
      if (!argc(1)) return std::nullopt;
      auto p = arg(0);
      if (!p) return std::nullopt;
      return bool_piece(fmt::format("({} {} {})", cs, m == "like" ? "LIKE" : "ILIKE", p->sql));
    }
    if (is_text && (m == "starts_with" || m == "ends_with" || m == "contains")) {
      if (!argc(1)) return std::nullopt;
      ParamForm form = m == "starts_with" ? ParamForm::LikePrefix
                       : m == "ends_with" ? ParamForm::LikeSuffix
                                          : ParamForm::LikeContains;
      auto p = arg(0, form);
      if (!p) return std::nullopt;
      return bool_piece(fmt::format("({} LIKE {})", cs, p->sql));
    }
    if (is_text && (m == "matches" || m == "plainto_matches")) {
      if (!argc(1)) return std::nullopt;
      auto p = arg(0);
      if (!p) return std::nullopt;
      return bool_piece(fmt::format("(to_tsvector({}) @@ {}({}))", cs, m == "matches" ? "to_tsquery" : "plainto_tsquery",
                                    p->sql));
    }
    if (is_array && m == "has") {
      if (!argc(1)) return std::nullopt;
      auto p = arg(0);
      if (!p) return std::nullopt;
      return bool_piece(fmt::format("({} = ANY({}))", p->sql, cs));
    }
    if (is_array && (m == "contains_all" || m == "contained_in")) {
      if (!argc(1)) return std::nullopt;
      ExprId a = c.args[0].value;
      Piece p = bind(a);
      return bool_piece(fmt::format("({} {} {}{})", cs, m == "contains_all" ? "@>" : "<@", p.sql, array_cast(col)));
    }
    if (is_json && m == "has_key") {
      if (!argc(1)) return std::nullopt;
      auto p = arg(0);
      if (!p) return std::nullopt;
      return bool_piece(fmt::format("({} ? {})", cs, p->sql));
    }
    if (is_json && (m == "has_all_keys" || m == "has_any_keys")) {
      if (!argc(1)) return std::nullopt;
      Piece p = bind(c.args[0].value);
      return bool_piece(fmt::format("({} {} {}::text[])", cs, m == "has_all_keys" ? "?&" : "?|", p.sql));
    }
    if (is_json && m == "contains_json") {
      if (!argc(1)) return std::nullopt;
      Piece p = bind(c.args[0].value);
      return bool_piece(fmt::format("({} @> {}::jsonb)", cs, p.sql));
    }
    // jsonb paths: `#>` keeps the value as jsonb (has_path), `#>>` reads it as text.
    if (is_json && (m == "path_text" || m == "path_int" || m == "has_path")) {
      if (!argc(1)) return std::nullopt;
      ExprId a = c.args[0].value;
      if (!std::holds_alternative<ListExpr>(ast_.get(a).data) && !is_captured_chain(a))
        return untranslatable(ast_.get(a).span, fmt::format("this `{}` argument (a list of keys)", m));
      Piece p = bind(a);
      if (m == "has_path") return bool_piece(fmt::format("(({} #> {}::text[]) IS NOT NULL)", cs, p.sql));
      if (m == "path_int") return Piece{fmt::format("(({} #>> {}::text[])::bigint)", cs, p.sql), PieceKind::Numeric};
      return Piece{fmt::format("({} #>> {}::text[])", cs, p.sql), PieceKind::Text};
    }
    // Full-text rank, for `order_by(fn(d) => -d.body.rank(q))`.
    if (is_text && m == "rank") {
      if (!argc(1)) return std::nullopt;
      auto p = arg(0);
      if (!p) return std::nullopt;
      return Piece{fmt::format("ts_rank(to_tsvector({}), to_tsquery({}))", cs, p->sql), PieceKind::Numeric};
    }
    if (is_json && m == "get") {
      if (!argc(1)) return std::nullopt;
      auto p = arg(0);
      if (!p) return std::nullopt;
      return Piece{fmt::format("({}->>{})", cs, p->sql), PieceKind::Text};
    }
    return untranslatable(callee->field.span,
                          fmt::format("the method `{}` on column `{}` ({})", m, col.name, shape_name(col)));
  }

  const QueryEnv& env_;
  const Ast& ast_;
  const TableModel& table_;
  std::string_view row_;
  std::vector<SqlParam>& params_;
};

// Defined after the class: clang 14 does not instantiate the catch-all `on` template for a
// generic lambda written inside the class body ahead of the template's declaration.
std::optional<Piece> Translator::piece(ExprId e) {
  const Expr& x = ast_.get(e);
  return std::visit([&](const auto& d) -> std::optional<Piece> { return on(e, x, d); }, x.data);
}

}  // namespace

ExprId closure_body(const Ast& ast, const FnDecl& fn) {
  if (!fn.body.valid()) return ExprId();
  const Block& b = ast.get(fn.body);
  if (b.stmts.size() != 1) return ExprId();
  const Stmt& s = ast.get(b.stmts[0]);
  if (auto* r = std::get_if<ReturnStmt>(&s.data)) return r->value;
  if (auto* x = std::get_if<ExprStmt>(&s.data)) return x->expr;
  return ExprId();
}

Translated translate_closure(const QueryEnv& env, const TableModel& table, ExprId lambda,
                             std::vector<SqlParam>& params, bool order_key) {
  Translated out;
  const Ast& ast = *env.ast;
  const Expr& lx = ast.get(lambda);
  auto* l = std::get_if<LambdaExpr>(&lx.data);
  if (!l) {
    out.error = OrmError{OrmErrorCode::Untranslatable, lx.span, "expected a closure such as `fn(row) => row.id == id`",
                         "write the condition inline so it can be compiled to SQL"};
    return out;
  }
  const FnDecl& fn = ast.get(l->fn);
  ExprId body = closure_body(ast, fn);
  if (fn.params.size() != 1 || !body.valid()) {
    out.error = OrmError{OrmErrorCode::Untranslatable, lx.span,
                         "a query closure takes one parameter and has a single expression body", ""};
    return out;
  }
  if (order_key) {
    if (auto* u = std::get_if<UnaryExpr>(&ast.get(body).data); u && u->op == UnaryOp::Neg) {
      out.descending = true;
      body = u->operand;
    }
  }
  size_t before = params.size();
  Translator t(env, table, fn.params[0].name.text, params);
  auto p = t.piece(body);
  if (!p) {
    out.error = t.error;
    params.resize(before);
    return out;
  }
  out.sql = std::move(p->sql);
  return out;
}

}  // namespace fitz::orm
