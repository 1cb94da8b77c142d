// Query-builder chains planned into one constant SQL string. A chain is read from its root
// (`T`, a `@table` type) to its terminal; each step's closure is translated in the order its
// SQL appears, so `$n` numbers follow the text.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "orm/query.h"

#include "frontend/decorator_args.h"

namespace fitz::orm {

using namespace frontend;

namespace {

constexpr std::array kBuilders = {std::string_view("where"), std::string_view("order_by"),
                                  std::string_view("limit"), std::string_view("offset"),
                                  std::string_view("group_by"), std::string_view("preload")};
constexpr std::array kTerminals = {std::string_view("all"), std::string_view("first"), std::string_view("count"),
                                   std::string_view("update"), std::string_view("delete"), std::string_view("sum"),
                                   std::string_view("avg"), std::string_view("min"), std::string_view("max"),
                                   std::string_view("insert"), std::string_view("bulk_insert"),
                                   std::string_view("merge_jsonb")};

struct Step {
  ExprId call;
  const CallExpr* c = nullptr;
  Ident method;
};

// Where a chain starts: a `@table` type, a query value, or navigation from a row
// (`user.posts()`), which filters on the child's FK column bound to the row's key.
struct Root {
  enum Kind : uint8_t { Table, Value, Navigation };
  Kind kind = Table;
  ExprId expr;            // Value: the query value; Navigation: the row
  std::string fk_sql;     // Navigation: the child's FK column, quoted
  std::string key_field;  // Navigation: the row's key field bound to it
};

std::string_view array_cast_of(ColumnType t) {
  switch (t) {
    case ColumnType::BigInt: return "::int8[]";
    case ColumnType::Double: return "::float8[]";
    case ColumnType::Text: return "::text[]";
    case ColumnType::Boolean: return "::bool[]";
    case ColumnType::Date: return "::date[]";
    case ColumnType::Timestamptz: return "::timestamptz[]";
    case ColumnType::Uuid: return "::uuid[]";
    default: return "";  // arrays and jsonb: the driver sends no arrays of those
  }
}

// The cast a bound value needs where Postgres cannot infer it from text.
std::string_view value_cast_of(ColumnType t) {
  switch (t) {
    case ColumnType::BigIntArray: return "::int8[]";
    case ColumnType::DoubleArray: return "::float8[]";
    case ColumnType::TextArray: return "::text[]";
    case ColumnType::BoolArray: return "::bool[]";
    case ColumnType::Jsonb: return "::jsonb";
    default: return "";
  }
}

class Planner {
 public:
  Planner(const QueryEnv& env, std::vector<Step> steps, const TableModel& table, Root root = {})
      : env_(env), ast_(*env.ast), steps_(std::move(steps)), t_(table), root_(std::move(root)) {}

  PlanResult run() {
    PlanResult r;
    r.is_orm = true;
    r.builder = steps_.empty() || is_builder_method(steps_.back().method.text);
    QueryPlan plan;
    plan.table = &t_;
    if (!collect()) {
      r.error = error_;
      return r;
    }
    if (r.builder) {
      std::vector<std::string> gcols;
      std::string scratch_sql;
      std::vector<SqlParam> scratch;
      if (!where_sql(scratch_sql, scratch) || !group_sql(gcols, plan.group_keys) || !order_sql(scratch_sql, scratch) ||
          !plan_preloads(plan) || !fragments(plan.fragments)) {
        r.error = error_;
        return r;
      }
      if (root_.kind == Root::Value) {
        plan.dynamic = true;
        plan.root = root_.expr;
      }
      r.plan = std::move(plan);
      return r;
    }
    if (root_.kind == Root::Value ? !dynamic_terminal(plan) : !terminal(plan)) {
      r.error = error_;
      return r;
    }
    r.plan = std::move(plan);
    return r;
  }

 private:
  bool fail(OrmErrorCode code, Span at, std::string message, std::string hint = "") {
    if (!error_) error_ = OrmError{code, at, std::move(message), std::move(hint)};
    return false;
  }
  bool want_args(const Step& s, size_t n, std::string_view shape) {
    if (s.c->args.size() == n) return true;
    return fail(OrmErrorCode::BadQuery, s.c->args_span, fmt::format("`{}` takes {}", s.method.text, shape));
  }

  // Reads the builder steps (everything but a terminal) and checks their shape.
  bool collect() {
    for (size_t i = 0; i < steps_.size(); ++i) {
      const Step& s = steps_[i];
      std::string_view m = s.method.text;
      if (is_terminal_method(m)) {
        if (i + 1 != steps_.size())
          return fail(OrmErrorCode::BadQuery, s.method.span, fmt::format("`{}` ends a query; nothing can follow it", m));
        continue;
      }
      if (root_.kind == Root::Value && (m == "group_by" || m == "preload"))
        return fail(OrmErrorCode::BadQuery, s.method.span,
                    fmt::format("`{}` needs the whole query in one expression, from the table to its terminal", m),
                    "write e.g. `User.where(..).group_by(..).count(db)` in one chain");
      if (m == "where" || m == "order_by" || m == "group_by") {
        if (!want_args(s, 1, "one closure")) return false;
        (m == "where" ? wheres_ : m == "order_by" ? orders_ : groups_).push_back(s.c->args[0].value);
      } else if (m == "limit" || m == "offset") {
        if (!want_args(s, 1, "one Int")) return false;
        (m == "limit" ? limit_ : offset_) = s.c->args[0].value;
      } else if (m == "preload") {
        if (!want_args(s, 1, "the name of a relation")) return false;
        preloads_.push_back(s.c->args[0].value);
      }
    }
    return true;
  }

  // Translates the where, group and order closures, validating each (even for builders).
  bool where_sql(std::string& out, std::vector<SqlParam>& params) {
    std::vector<std::string> parts;
    if (root_.kind == Root::Navigation) {
      params.push_back(SqlParam{root_.expr, ParamForm::Field, root_.key_field});
      parts.push_back(fmt::format("({} = ${})", root_.fk_sql, params.size()));
    }
    for (ExprId w : wheres_) {
      Translated tr = translate_closure(env_, t_, w, params);
      if (tr.error) return fail(tr.error->code, tr.error->span, tr.error->message, tr.error->hint);
      parts.push_back(tr.sql);
    }
    if (parts.empty()) return true;
    out += " WHERE ";
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? " AND " : "") + parts[i];
    return true;
  }
  bool group_sql(std::vector<std::string>& cols, std::vector<std::string>& keys) {
    for (ExprId g : groups_) {
      std::vector<SqlParam> scratch;
      Translated tr = translate_closure(env_, t_, g, scratch);
      if (tr.error) return fail(tr.error->code, tr.error->span, tr.error->message, tr.error->hint);
      if (!scratch.empty() || tr.sql.empty() || tr.sql[0] != '"')
        return fail(OrmErrorCode::BadQuery, ast_.get(g).span, "`group_by` takes a closure that names one column",
                    "e.g. `.group_by(fn(p) => p.user_id)`");
      cols.push_back(tr.sql);
      keys.push_back(tr.sql.substr(1, tr.sql.size() - 2));
    }
    return true;
  }
  bool order_sql(std::string& out, std::vector<SqlParam>& params) {
    for (size_t i = 0; i < orders_.size(); ++i) {
      Translated tr = translate_closure(env_, t_, orders_[i], params, true);
      if (tr.error) return fail(tr.error->code, tr.error->span, tr.error->message, tr.error->hint);
      out += (i ? ", " : " ORDER BY ") + tr.sql + (tr.descending ? " DESC" : "");
    }
    return true;
  }
  // LIMIT/OFFSET: Int literals are program constants; anything else is bound.
  void bound_int(std::string& out, std::string_view kw, ExprId e, std::vector<SqlParam>& params) {
    if (!e.valid()) return;
    if (auto* i = std::get_if<IntLit>(&ast_.get(e).data)) {
      out += fmt::format(" {} {}", kw, i->value);
      return;
    }
    params.push_back(SqlParam{e, ParamForm::Value, {}});
    out += fmt::format(" {} ${}", kw, params.size());
  }
  bool filtered() const { return !wheres_.empty() || root_.kind == Root::Navigation; }
  bool no_shaping(const Step& s, bool allow_where) {
    if (!allow_where && filtered())
      return fail(OrmErrorCode::BadQuery, s.method.span, fmt::format("`{}` is called on the table, not after `where`", s.method.text));
    if (!orders_.empty() || limit_.valid() || offset_.valid() || !groups_.empty() || !preloads_.empty())
      return fail(OrmErrorCode::BadQuery, s.method.span,
                  fmt::format("`{}` cannot follow `order_by`, `limit`, `offset`, `group_by` or `preload`", s.method.text));
    return true;
  }

  // The statement before the WHERE clause of update, delete and merge_jsonb, into plan.sql and
  // plan.params ($1..). `update` with a Map variable leaves it empty: the runtime builds the SET
  // list after the WHERE clause's parameters (plan.update_*).
  bool write_head(const Step& s, QueryPlan& plan) {
    std::string_view m = s.method.text;
    std::string table = t_.qualified_name();
    auto& P = plan.params;
    plan.terminal = m == "delete" ? Terminal::Delete : m == "update" ? Terminal::Update : Terminal::MergeJsonb;
    if (!want_args(s, m == "delete" ? 1 : m == "update" ? 2 : 3,
                   m == "delete"   ? "the database connection"
                   : m == "update" ? "the database connection and a map of new values"
                                   : "the database connection, the name of a Map column and the patch"))
      return false;
    plan.db_arg = s.c->args[0].value;
    auto column_named = [&](std::string_view key) {
      const Column* c = t_.column_of_field(key);
      if (!c)
        for (const Column& x : t_.columns)
          if (x.name == key) c = &x;
      return c;
    };
    if (plan.terminal == Terminal::Delete) {
      plan.sql = fmt::format("DELETE FROM {}", table);
      return true;
    }
    if (plan.terminal == Terminal::MergeJsonb) {
      ExprId fx = s.c->args[1].value;
      auto key = frontend::plain_string_literal(ast_, fx);
      const Column* c = key ? column_named(*key) : nullptr;
      if (!c || c->type != ColumnType::Jsonb)
        return fail(OrmErrorCode::UnknownColumn, ast_.get(fx).span,
                    key ? fmt::format("table `{}` has no Map column `{}`", t_.name, *key)
                        : std::string("`merge_jsonb` takes the Map column's name as a string literal"));
      P.push_back(SqlParam{s.c->args[2].value, ParamForm::Value, {}});
      std::string col = quote_ident(c->name);
      plan.sql = fmt::format("UPDATE {} SET {} = {} || ${}::jsonb", table, col, col, P.size());
      return true;
    }
    ExprId mapx = s.c->args[1].value;
    auto* map = std::get_if<MapExpr>(&ast_.get(mapx).data);
    if (map && map->entries.empty())
      return fail(OrmErrorCode::BadQuery, ast_.get(mapx).span,
                  "`update` with an empty map changes nothing; name the columns, e.g. `{\"name\": name}`");
    if (!map) {
      // A map variable: the columns are picked at run time from this constant list.
      plan.update_map = mapx;
      plan.update_prefix = fmt::format("UPDATE {} SET ", table);
      for (const Column& c : t_.columns)
        plan.update_columns.push_back(
            QueryPlan::UpdateColumn{c.field, quote_ident(c.name), std::string(value_cast_of(c.type))});
      return true;
    }
    std::string set;
    for (const MapEntry& en : map->entries) {
      auto key = frontend::plain_string_literal(ast_, en.key);
      const Column* c = key ? column_named(*key) : nullptr;
      if (!c)
        return fail(OrmErrorCode::UnknownColumn, ast_.get(en.key).span,
                    key ? fmt::format("table `{}` has no column `{}`", t_.name, *key)
                        : std::string("an `update` key must be a string literal naming a column"));
      if (auto constant = sql_constant(ast_, en.value)) {
        // `sql.now()` / `sql.raw("...")`: constant SQL from the program text, never a user value.
        set += fmt::format("{}{} = {}", set.empty() ? "" : ", ", quote_ident(c->name), *constant);
        continue;
      }
      P.push_back(SqlParam{en.value, ParamForm::Value, {}});
      set += fmt::format("{}{} = ${}{}", set.empty() ? "" : ", ", quote_ident(c->name), P.size(), value_cast_of(c->type));
    }
    plan.sql = fmt::format("UPDATE {} SET {}", table, set);
    return true;
  }

  // The steps as fragments, each numbered from $1 (builders and terminals over query values).
  bool fragments(std::vector<Fragment>& out) {
    if (root_.kind == Root::Navigation) {
      Fragment f;
      f.params.push_back(SqlParam{root_.expr, ParamForm::Field, root_.key_field});
      f.sql = fmt::format("({} = $1)", root_.fk_sql);
      out.push_back(std::move(f));
    }
    for (const Step& s : steps_) {
      std::string_view m = s.method.text;
      Fragment f;
      if (m == "where" || m == "order_by") {
        f.kind = m == "where" ? Fragment::Where : Fragment::Order;
        Translated tr = translate_closure(env_, t_, s.c->args[0].value, f.params, m == "order_by");
        if (tr.error) return fail(tr.error->code, tr.error->span, tr.error->message, tr.error->hint);
        f.sql = tr.sql + (tr.descending ? " DESC" : "");
      } else if (m == "limit" || m == "offset") {
        f.kind = m == "limit" ? Fragment::Limit : Fragment::Offset;
        f.params.push_back(SqlParam{s.c->args[0].value, ParamForm::Value, {}});
      } else {
        continue;
      }
      out.push_back(std::move(f));
    }
    return true;
  }

  // A terminal over a query value: the head here, the rest joined at run time.
  bool dynamic_terminal(QueryPlan& plan) {
    const Step& s = steps_.back();
    std::string_view m = s.method.text;
    plan.dynamic = true;
    plan.root = root_.expr;
    if (!fragments(plan.fragments)) return false;
    std::string table = t_.qualified_name();
    auto& P = plan.params;
    if (m == "all" || m == "first" || m == "count") {
      plan.terminal = m == "all" ? Terminal::All : m == "first" ? Terminal::First : Terminal::Count;
      plan.shape = m == "all" ? Shape::Select : m == "first" ? Shape::First : Shape::Count;
      if (!want_args(s, 1, "the database connection")) return false;
      plan.db_arg = s.c->args[0].value;
      plan.sql = m == "count" ? table : fmt::format("SELECT {} FROM {}", column_list(t_), table);
      return true;
    }
    if (m == "sum" || m == "avg" || m == "min" || m == "max") {
      plan.terminal = m == "sum" ? Terminal::Sum : m == "avg" ? Terminal::Avg : m == "min" ? Terminal::Min : Terminal::Max;
      plan.shape = Shape::Aggregate;
      if (!want_args(s, 2, "a closure and the database connection")) return false;
      plan.db_arg = s.c->args[1].value;
      Translated agg = translate_closure(env_, t_, s.c->args[0].value, P);
      if (agg.error) return fail(agg.error->code, agg.error->span, agg.error->message, agg.error->hint);
      std::string fn = m == "sum" ? "SUM" : m == "avg" ? "AVG" : m == "min" ? "MIN" : "MAX";
      plan.sql = fmt::format("SELECT {}({})::float8 AS {} FROM {}", fn, agg.sql, quote_ident(m), table);
      return true;
    }
    if (m == "delete" || m == "update" || m == "merge_jsonb") {
      plan.shape = Shape::Write;
      return write_head(s, plan);
    }
    return fail(OrmErrorCode::BadQuery, s.method.span, fmt::format("`{}` is called on the table, not on a query", m));
  }

  bool terminal(QueryPlan& plan) {
    const Step& s = steps_.back();
    std::string_view m = s.method.text;
    std::string table = t_.qualified_name();
    std::string cols = column_list(t_);
    auto& P = plan.params;
    if (m == "all" || m == "first" || m == "count") {
      plan.terminal = m == "all" ? Terminal::All : m == "first" ? Terminal::First : Terminal::Count;
      if (!want_args(s, 1, "the database connection")) return false;
      plan.db_arg = s.c->args[0].value;
      std::vector<std::string> gcols;
      if (!group_sql(gcols, plan.group_keys)) return false;
      std::string where, order, tail;
      if (!where_sql(where, P)) return false;
      if (!order_sql(order, P)) return false;
      if (!gcols.empty()) {
        if (plan.terminal == Terminal::First)
          return fail(OrmErrorCode::BadQuery, s.method.span, "`first` cannot follow `group_by`; use `all`");
        plan.grouped = true;
        std::string g;
        for (size_t i = 0; i < gcols.size(); ++i) g += (i ? ", " : "") + gcols[i];
        bound_int(tail, "LIMIT", limit_, P);
        bound_int(tail, "OFFSET", offset_, P);
        plan.group_keys.push_back("count");
        plan.sql = fmt::format("SELECT {}, COUNT(*) AS \"count\" FROM {}{} GROUP BY {}{}{}", g, table, where, g, order, tail);
        return preloads_.empty() || fail(OrmErrorCode::BadQuery, s.method.span, "`preload` cannot be used with `group_by`");
      }
      if (plan.terminal == Terminal::Count) {
        bound_int(tail, "LIMIT", limit_, P);
        bound_int(tail, "OFFSET", offset_, P);
        plan.sql = tail.empty() ? fmt::format("SELECT COUNT(*) FROM {}{}", table, where)
                                : fmt::format("SELECT COUNT(*) FROM (SELECT 1 FROM {}{}{}{}) AS \"q\"", table, where, order, tail);
        // A preload does not change how many rows match, so `count` runs no related query; its
        // relation is still checked, so a name that is no relation is an error here as anywhere.
        if (!plan_preloads(plan)) return false;
        plan.preloads.clear();
        return true;
      }
      if (plan.terminal == Terminal::First) tail = " LIMIT 1";
      else bound_int(tail, "LIMIT", limit_, P);
      bound_int(tail, "OFFSET", offset_, P);
      plan.sql = fmt::format("SELECT {} FROM {}{}{}{}", cols, table, where, order, tail);
      return plan_preloads(plan);
    }
    if (m == "sum" || m == "avg" || m == "min" || m == "max") {
      plan.terminal = m == "sum" ? Terminal::Sum : m == "avg" ? Terminal::Avg : m == "min" ? Terminal::Min : Terminal::Max;
      if (!want_args(s, 2, "a closure and the database connection")) return false;
      plan.db_arg = s.c->args[1].value;
      std::vector<std::string> gcols;
      if (!group_sql(gcols, plan.group_keys)) return false;
      Translated agg = translate_closure(env_, t_, s.c->args[0].value, P);
      if (agg.error) return fail(agg.error->code, agg.error->span, agg.error->message, agg.error->hint);
      std::string fn = m == "sum" ? "SUM" : m == "avg" ? "AVG" : m == "min" ? "MIN" : "MAX";
      std::string where, order, tail;
      if (!where_sql(where, P)) return false;
      if (!order_sql(order, P)) return false;
      bound_int(tail, "LIMIT", limit_, P);
      bound_int(tail, "OFFSET", offset_, P);
      if (!preloads_.empty()) return fail(OrmErrorCode::BadQuery, s.method.span, "`preload` cannot be used with an aggregate");
      if (!gcols.empty()) {
        plan.grouped = true;
        std::string g;
        for (size_t i = 0; i < gcols.size(); ++i) g += (i ? ", " : "") + gcols[i];
        plan.group_keys.push_back(std::string(m));
        plan.sql = fmt::format("SELECT {}, {}({})::float8 AS {} FROM {}{} GROUP BY {}{}{}", g, fn, agg.sql,
                               quote_ident(m), table, where, g, order, tail);
        return true;
      }
      if (!order.empty() || !tail.empty())
        return fail(OrmErrorCode::BadQuery, s.method.span,
                    fmt::format("`{}` over a whole query cannot follow `order_by`, `limit` or `offset`", m));
      plan.sql = fmt::format("SELECT {}({})::float8 AS {} FROM {}{}", fn, agg.sql, quote_ident(m), table, where);
      return true;
    }
    if (m == "delete" || m == "update" || m == "merge_jsonb") {
      if (!write_head(s, plan)) return false;
      if (!no_shaping(s, true)) return false;
      if (!filtered())
        return fail(OrmErrorCode::UnfilteredWrite, s.method.span,
                    fmt::format("`{}` without `where` would change every row of `{}`", m, t_.name),
                    "add `.where(...)`; to target every row on purpose write `.where(fn(_) => true)`");
      std::string where;
      if (!where_sql(where, P)) return false;
      plan.sql += where;
      return true;
    }
    if (root_.kind != Root::Table)
      return fail(OrmErrorCode::BadQuery, s.method.span, fmt::format("`{}` is called on the table, not on a query", m));
    if (m == "insert") {
      plan.terminal = Terminal::Insert;
      if (!want_args(s, 2, "the database connection and the row")) return false;
      if (steps_.size() != 1) return no_shaping(s, false);
      plan.db_arg = s.c->args[0].value;
      plan.row_arg = s.c->args[1].value;
      auto pk = t_.primary_key();
      bool serial = pk.size() == 1 && pk[0]->shape.kind == FieldShape::Int;
      auto build = [&](bool skip_key, std::string& sql, std::vector<SqlParam>& params) {
        std::string names, values;
        for (const Column& c : t_.columns) {
          if (c.db_default || (skip_key && c.primary)) continue;
          params.push_back(SqlParam{plan.row_arg, ParamForm::Field, c.field});
          names += (names.empty() ? "" : ", ") + quote_ident(c.name);
          values += fmt::format("{}${}{}", values.empty() ? "" : ", ", params.size(), value_cast_of(c.type));
        }
        sql = names.empty() ? fmt::format("INSERT INTO {} DEFAULT VALUES RETURNING {}", table, cols)
                            : fmt::format("INSERT INTO {} ({}) VALUES ({}) RETURNING {}", table, names, values, cols);
      };
      build(false, plan.sql, plan.params);
      if (serial) {
        plan.key_field = pk[0]->field;
        build(true, plan.sql_without_key, plan.params_without_key);
      }
      return true;
    }
    // bulk_insert(rows, db): one statement whatever the row count; each column travels as one array.
    plan.terminal = Terminal::BulkInsert;
    if (!want_args(s, 2, "the rows and the database connection")) return false;
    if (steps_.size() != 1) return no_shaping(s, false);
    plan.row_arg = s.c->args[0].value;
    plan.db_arg = s.c->args[1].value;
    auto pk = t_.primary_key();
    bool serial = pk.size() == 1 && pk[0]->shape.kind == FieldShape::Int;
    std::string names, arrays;
    for (const Column& c : t_.columns) {
      if (c.db_default || (serial && c.primary)) continue;
      std::string_view cast = array_cast_of(c.type);
      if (cast.empty())
        return fail(OrmErrorCode::BadQuery, s.method.span,
                    fmt::format("`bulk_insert` cannot send the {} column `{}`; insert those rows one by one",
                                      c.type == ColumnType::Jsonb ? "Map" : "array", c.name));
      P.push_back(SqlParam{plan.row_arg, ParamForm::FieldOfEach, c.field});
      names += (names.empty() ? "" : ", ") + quote_ident(c.name);
      arrays += fmt::format("{}${}{}", arrays.empty() ? "" : ", ", P.size(), cast);
    }
    if (names.empty()) return fail(OrmErrorCode::BadQuery, s.method.span, "`bulk_insert` needs a table with columns to fill");
    plan.sql = fmt::format("INSERT INTO {} ({}) SELECT * FROM unnest({})", table, names, arrays);
    return true;
  }

  bool plan_preloads(QueryPlan& plan) {
    for (ExprId p : preloads_) {
      auto name = frontend::plain_string_literal(ast_, p);
      if (!name)
        return fail(OrmErrorCode::UnknownRelation, ast_.get(p).span, "`preload` takes the relation's name as a string literal");
      const Relation* r = t_.relation_of_field(*name);
      if (r && r->kind == RelationKind::BelongsTo) r = nullptr;
      if (!r) {
        // The struct-typed sibling of a `@belongs_to` column (`author: Author?`): the parent row.
        std::optional<Navigation> nav = find_navigation(t_, *name);
        if (nav && nav->relation && nav->relation->kind == RelationKind::BelongsTo) {
          if (!plan_parent_preload(plan, p, *name, *nav)) return false;
          continue;
        }
      }
      if (!r) {
        std::string known;
        for (const Relation& x : t_.relations)
          if (x.kind != RelationKind::BelongsTo) known += (known.empty() ? "`" : ", `") + x.field + "`";
        for (const ParentField& pf : t_.parents)
          if (auto nav = find_navigation(t_, pf.field); nav && nav->relation)
            known += (known.empty() ? "`" : ", `") + pf.field + "`";
        return fail(OrmErrorCode::UnknownRelation, ast_.get(p).span,
                    fmt::format("`{}` has no relation `{}`", t_.type_name, *name),
                    known.empty() ? "declare one with `@has_many(\"T\", via=\"fk\")`" : "its relations: " + known);
      }
      const TableModel* target = env_.table_named ? env_.table_named(r->target) : nullptr;
      if (!target)
        return fail(OrmErrorCode::UnknownRelation, ast_.get(p).span,
                    fmt::format("relation `{}` points at `{}`, which is not a `@table` type", *name, r->target));
      const Column* fk = target->column_of_field(r->key);
      if (!fk)
        for (const Column& x : target->columns)
          if (x.name == r->key) fk = &x;
      auto pk = t_.primary_key();
      if (!fk || pk.size() != 1)
        return fail(OrmErrorCode::UnknownRelation, ast_.get(p).span,
                    fmt::format("relation `{}` needs column `{}` in `{}` and one primary key in `{}`", *name, r->key,
                                target->type_name, t_.type_name));
      Preload pl;
      pl.field = r->field;
      pl.target = target;
      pl.key_field = pk[0]->field;
      pl.fk_field = fk->field;
      pl.many = r->kind == RelationKind::HasMany;
      pl.sql = fmt::format("SELECT {} FROM {} WHERE {} = ANY($1{})", column_list(*target), target->qualified_name(),
                           quote_ident(fk->name), array_cast_of(pk[0]->type));
      plan.preloads.push_back(std::move(pl));
    }
    return true;
  }

  // `preload("author")` for `author: Author?` beside `@belongs_to("Author") author_id`: the
  // parents whose key is any of the rows' FK values, each row given the one it points at.
  bool plan_parent_preload(QueryPlan& plan, ExprId at, std::string_view name, const Navigation& nav) {
    const TableModel* target = env_.table_named ? env_.table_named(nav.target) : nullptr;
    if (!target)
      return fail(OrmErrorCode::UnknownRelation, ast_.get(at).span,
                  fmt::format("`{}` points at `{}`, which is not a `@table` type", name, nav.target));
    auto pk = target->primary_key();
    const Column* fk = t_.column_of_field(nav.relation->field);
    std::string_view cast = pk.size() == 1 ? array_cast_of(pk[0]->type) : std::string_view();
    if (!fk || cast.empty())
      return fail(OrmErrorCode::UnknownRelation, ast_.get(at).span,
                  fmt::format("preloading `{}` needs one primary key in `{}`", name, target->type_name));
    Preload pl;
    pl.field = std::string(name);
    pl.target = target;
    pl.key_field = fk->field;
    pl.fk_field = pk[0]->field;
    pl.many = false;
    pl.parent = true;
    pl.sql = fmt::format("SELECT {} FROM {} WHERE {} = ANY($1{})", column_list(*target), target->qualified_name(),
                         quote_ident(pk[0]->name), cast);
    plan.preloads.push_back(std::move(pl));
    return true;
  }

  const QueryEnv& env_;
  const Ast& ast_;
  std::vector<Step> steps_;
  const TableModel& t_;
  std::optional<OrmError> error_;
  Root root_;
  std::vector<ExprId> wheres_, orders_, groups_, preloads_;
  ExprId limit_, offset_;
};

// The child table of a has_many/has_one relation, its FK column and the owner's key field.
struct HasTarget {
  const TableModel* target = nullptr;
  const Column* fk = nullptr;
  const Column* key = nullptr;
};
std::optional<HasTarget> has_target(const QueryEnv& env, const TableModel& owner, const Relation& r) {
  HasTarget h;
  h.target = env.table_named ? env.table_named(r.target) : nullptr;
  if (!h.target) return std::nullopt;
  h.fk = h.target->column_of_field(r.key);
  if (!h.fk)
    for (const Column& x : h.target->columns)
      if (x.name == r.key) h.fk = &x;
  auto pk = owner.primary_key();
  if (!h.fk || pk.size() != 1) return std::nullopt;
  h.key = pk[0];
  return h;
}

// `row.rel(db)` and `row.rel()` (a builder, extended by `steps`).
PlanResult plan_navigation(const QueryEnv& env, const Step& nav_step, ExprId row, const TableModel& owner,
                           const Navigation& nav, std::vector<Step> steps) {
  const Ast& ast = *env.ast;
  PlanResult r;
  r.is_orm = true;
  auto fail = [&](OrmErrorCode code, Span at, std::string message, std::string hint = "") {
    r.error = OrmError{code, at, std::move(message), std::move(hint)};
    return r;
  };
  std::string_view m = nav_step.method.text;
  const Relation* rel = nav.relation;
  if (!rel)
    return fail(OrmErrorCode::UnknownRelation, nav_step.method.span,
                fmt::format("`{}.{}` needs one `@belongs_to(\"{}\")` column in `{}` (or one named `{}_id`)",
                            owner.type_name, m, nav.target, owner.type_name, m));
  size_t argc = nav_step.c->args.size();
  if (argc > 1 || (!steps.empty() && argc != 0))
    return fail(OrmErrorCode::BadQuery, nav_step.c->args_span,
                steps.empty() ? fmt::format("`{}` takes the database connection, or nothing to start a query", m)
                              : fmt::format("`{}(db)` runs the query; write `{}()` to extend it", m, m));
  if (rel->kind == RelationKind::BelongsTo) {
    if (argc != 1)
      return fail(OrmErrorCode::BadQuery, nav_step.c->args_span,
                  fmt::format("`{}` loads the parent row: it takes the database connection", m));
    const TableModel* parent = env.table_named ? env.table_named(rel->target) : nullptr;
    auto pk = parent ? parent->primary_key() : std::vector<const Column*>{};
    if (!parent || pk.size() != 1)
      return fail(OrmErrorCode::UnknownRelation, nav_step.method.span,
                  fmt::format("`{}` points at `{}`, which is not a `@table` type with one primary key", rel->field,
                              rel->target));
    QueryPlan plan;
    plan.table = parent;
    plan.terminal = Terminal::First;
    plan.db_arg = nav_step.c->args[0].value;
    plan.params.push_back(SqlParam{row, ParamForm::Field, rel->field});
    plan.sql = fmt::format("SELECT {} FROM {} WHERE {} = $1 LIMIT 1", column_list(*parent), parent->qualified_name(),
                           quote_ident(pk[0]->name));
    r.plan = std::move(plan);
    return r;
  }
  auto h = has_target(env, owner, *rel);
  if (!h)
    return fail(OrmErrorCode::UnknownRelation, nav_step.method.span,
                fmt::format("relation `{}` needs column `{}` in `{}` and one primary key in `{}`", rel->field, rel->key,
                            rel->target, owner.type_name));
  if (argc == 1) {
    QueryPlan plan;
    plan.table = h->target;
    plan.terminal = rel->kind == RelationKind::HasMany ? Terminal::All : Terminal::First;
    plan.maybe = rel->kind == RelationKind::HasOne;
    plan.db_arg = nav_step.c->args[0].value;
    plan.params.push_back(SqlParam{row, ParamForm::Field, h->key->field});
    plan.sql = fmt::format("SELECT {} FROM {} WHERE {} = $1{}", column_list(*h->target), h->target->qualified_name(),
                           quote_ident(h->fk->name), plan.maybe ? " LIMIT 1" : "");
    r.plan = std::move(plan);
    return r;
  }
  (void)ast;
  Root root{Root::Navigation, row, quote_ident(h->fk->name), h->key->field};
  return Planner(env, std::move(steps), *h->target, std::move(root)).run();
}

// Whether `e` is a step of the chain being read rather than its root: a builder step or a
// navigation call such as `user.posts()`.
bool continues_chain(const QueryEnv& env, ExprId e) {
  auto* c = std::get_if<CallExpr>(&env.ast->get(e).data);
  auto* f = c ? std::get_if<FieldExpr>(&env.ast->get(c->callee).data) : nullptr;
  if (!f) return false;
  if (is_builder_method(f->field.text)) return true;
  const TableModel* owner = env.table_of_value ? env.table_of_value(f->object) : nullptr;
  return owner && find_navigation(*owner, f->field.text);
}

}  // namespace

bool is_builder_method(std::string_view name) {
  return std::find(kBuilders.begin(), kBuilders.end(), name) != kBuilders.end();
}
bool is_terminal_method(std::string_view name) {
  return std::find(kTerminals.begin(), kTerminals.end(), name) != kTerminals.end();
}

std::string_view terminal_name(Terminal t) {
  static constexpr std::string_view names[] = {"all", "first", "count", "update", "delete", "sum", "avg",
                                               "min", "max", "insert", "bulk_insert", "merge_jsonb"};
  return names[static_cast<int>(t)];
}

std::optional<Navigation> find_navigation(const TableModel& owner, std::string_view method) {
  if (const Relation* r = owner.relation_of_field(method)) return Navigation{r, r->target};
  for (const ParentField& p : owner.parents) {
    if (p.field != method) continue;
    // The parent's FK column: the one named `<field>_id`, else the only one pointing at the type.
    const Relation* hit = nullptr;
    int count = 0;
    for (const Relation& r : owner.relations) {
      if (r.kind != RelationKind::BelongsTo || r.target != p.target) continue;
      ++count;
      if (r.field == p.field + "_id") return Navigation{&r, p.target};
      hit = &r;
    }
    return Navigation{count == 1 ? hit : nullptr, p.target};
  }
  return std::nullopt;
}

std::string column_list(const TableModel& t) {
  std::string out;
  for (const Column& c : t.columns) out += (out.empty() ? "" : ", ") + quote_ident(c.name);
  return out;
}

PlanResult plan_query(const QueryEnv& env, ExprId call) {
  const Ast& ast = *env.ast;
  std::vector<Step> steps;
  ExprId at = call;
  for (int guard = 0; guard < 256; ++guard) {
    auto* c = std::get_if<CallExpr>(&ast.get(at).data);
    if (!c) return {};
    auto* f = std::get_if<FieldExpr>(&ast.get(c->callee).data);
    if (!f) return {};
    std::string_view m = f->field.text;
    if (!is_builder_method(m) && !is_terminal_method(m)) {
      const TableModel* owner = env.table_of_value ? env.table_of_value(f->object) : nullptr;
      std::optional<Navigation> nav = owner ? find_navigation(*owner, m) : std::nullopt;
      if (!nav) return {};
      std::reverse(steps.begin(), steps.end());
      return plan_navigation(env, Step{at, c, f->field}, f->object, *owner, *nav, std::move(steps));
    }
    if (!steps.empty() && !is_builder_method(m)) return {};
    steps.push_back(Step{at, c, f->field});
    if (std::holds_alternative<NameRef>(ast.get(f->object).data))
      if (const TableModel* t = env.table_of_root ? env.table_of_root(f->object) : nullptr) {
        std::reverse(steps.begin(), steps.end());
        return Planner(env, std::move(steps), *t).run();
      }
    if (!continues_chain(env, f->object))
      if (const TableModel* t = env.table_of_query ? env.table_of_query(f->object) : nullptr) {
        std::reverse(steps.begin(), steps.end());
        return Planner(env, std::move(steps), *t, Root{Root::Value, f->object, {}, {}}).run();
      }
    at = f->object;
  }
  return {};
}

std::optional<std::string> sql_constant(const frontend::Ast& ast, frontend::ExprId e) {
  auto* c = std::get_if<frontend::CallExpr>(&ast.get(e).data);
  auto* f = c ? std::get_if<frontend::FieldExpr>(&ast.get(c->callee).data) : nullptr;
  auto* n = f ? std::get_if<frontend::NameRef>(&ast.get(f->object).data) : nullptr;
  if (!n || n->name.text != "sql") return std::nullopt;
  if (f->field.text == "now" && c->args.empty()) return std::string("NOW()");
  if (f->field.text == "raw" && c->args.size() == 1) {
    auto text = frontend::plain_string_literal(ast, c->args[0].value);
    if (text) return "(" + *text + ")";
  }
  return std::nullopt;
}

}  // namespace fitz::orm
