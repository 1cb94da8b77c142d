// ORM calls in the checker: `@table` types get the query builder (`where`, `order_by`, `limit`,
// `offset`, `group_by`, `preload`) and its terminals. A builder step has type `Query<T>`, a
// built-in struct per row type whose only (private) field names the row; terminals are futures
// of results. Each chain is planned by the orm library, whose errors are reported at the step
// that causes them.
#include "checker/check_orm.h"

#include <array>

#include "checker/check_internal.h"

namespace fitz::checker {

namespace {

orm::FieldShape shape_of(const TypeStore& ts, TypeId t) {
  orm::FieldShape s;
  switch (ts.kind(t)) {
    case TypeKind::Nullable:
      s = shape_of(ts, ts.inner(t));
      s.nullable = true;
      return s;
    case TypeKind::Int: s.kind = orm::FieldShape::Int; break;
    case TypeKind::Float: s.kind = orm::FieldShape::Float; break;
    case TypeKind::Str: s.kind = orm::FieldShape::Str; break;
    case TypeKind::Bool: s.kind = orm::FieldShape::Bool; break;
    case TypeKind::Map: s.kind = orm::FieldShape::Map; break;
    case TypeKind::List: {
      orm::FieldShape e = shape_of(ts, ts.elem(t));
      s.kind = orm::FieldShape::List;
      s.elem = e.kind;
      s.struct_name = e.struct_name;
      break;
    }
    case TypeKind::Struct: {
      const StructInfo& si = ts.struct_info(ts.struct_of(t));
      if (si.builtin && si.name == "Date") s.kind = orm::FieldShape::Date;
      else if (si.builtin && si.name == "DateTime") s.kind = orm::FieldShape::DateTime;
      else if (si.builtin && si.name == "Uuid") s.kind = orm::FieldShape::Uuid;
      else {
        s.kind = orm::FieldShape::Struct;
        s.struct_name = si.name;
      }
      break;
    }
    default: s.kind = orm::FieldShape::Other;
  }
  return s;
}

orm::ValueClass class_of_type(const TypeStore& ts, TypeId t) {
  switch (ts.kind(t)) {
    case TypeKind::Int: return orm::ValueClass::Int;
    case TypeKind::Float: return orm::ValueClass::Float;
    case TypeKind::Str: return orm::ValueClass::Str;
    case TypeKind::Bool: return orm::ValueClass::Bool;
    case TypeKind::Null: return orm::ValueClass::Null;
    case TypeKind::List: return orm::ValueClass::List;
    case TypeKind::Map: return orm::ValueClass::Map;
    case TypeKind::Nullable: return class_of_type(ts, ts.inner(t));
    case TypeKind::Struct: return orm::ValueClass::Other;
    default: return orm::ValueClass::Unknown;
  }
}

}  // namespace

const orm::TableModel* OrmModels::table(StructId id, std::vector<orm::ModelError>* errors) {
  if (!id.valid()) return nullptr;
  for (auto& [sid, t] : tables_)
    if (sid == id.index) return &t;
  const TypeStore& ts = *program_.types;
  const StructInfo& si = ts.struct_info(id);
  if (si.builtin || !si.decl.valid() || !si.module.valid()) return nullptr;
  const frontend::Ast& ast = graph_.get(si.module).ast;
  const frontend::TypeDecl& decl = ast.get(si.decl);
  if (!orm::is_table(decl)) return nullptr;
  std::vector<orm::FieldShape> shapes;
  for (const frontend::FieldDecl& fd : decl.fields) {
    const FieldInfo* fi = si.field(fd.name.text);
    shapes.push_back(fi ? shape_of(ts, fi->type) : orm::FieldShape{});
  }
  std::vector<orm::ModelError> errs;
  tables_.emplace_back(id.index, orm::build_table(ast, decl, shapes, errs));
  if (errors) *errors = std::move(errs);
  return &tables_.back().second;
}

const orm::TableModel* OrmModels::table_named(std::string_view type_name) {
  const TypeStore& ts = *program_.types;
  for (uint32_t i = 0; i < ts.struct_count(); ++i) {
    const StructInfo& si = ts.struct_info(StructId(i));
    if (!si.builtin && si.name == type_name)
      if (const orm::TableModel* t = table(StructId(i))) return t;
  }
  return nullptr;
}

orm::QueryEnv OrmModels::env(ModuleId module) {
  orm::QueryEnv env;
  env.ast = &graph_.get(module).ast;
  const ModuleTir* tir = &program_.modules[module.index];
  const TypeStore* ts = program_.types.get();
  env.table_of_root = [this, tir](ExprId e) -> const orm::TableModel* {
    const Ref& r = tir->ref_of(e);
    if (r.kind != RefKind::Symbol) return nullptr;
    const Symbol& s = program_.symbol(SymbolId(r.id));
    return s.kind == SymbolKind::Type ? table(s.struct_id) : nullptr;
  };
  env.table_named = [this](std::string_view n) { return table_named(n); };
  env.class_of = [tir, ts](ExprId e) {
    return e.index < tir->expr_types.size() ? class_of_type(*ts, tir->type_of(e)) : orm::ValueClass::Unknown;
  };
  env.table_of_value = [this, tir, ts](ExprId e) -> const orm::TableModel* {
    if (e.index >= tir->expr_types.size()) return nullptr;
    TypeId t = tir->type_of(e);
    return t.valid() && ts->kind(t) == TypeKind::Struct ? table(ts->struct_of(t)) : nullptr;
  };
  env.table_of_query = [this, tir, ts](ExprId e) -> const orm::TableModel* {
    if (e.index >= tir->expr_types.size()) return nullptr;
    TypeId t = tir->type_of(e);
    return t.valid() ? table(orm_query_row(*ts, t)) : nullptr;
  };
  return env;
}

orm::PlanResult OrmModels::plan(ModuleId module, ExprId call) { return orm::plan_query(env(module), call); }

StructId OrmModels::struct_of(const orm::TableModel* t) const {
  for (const auto& [sid, model] : tables_)
    if (&model == t) return StructId(sid);
  return StructId();
}

StructId orm_query_row(const TypeStore& types, TypeId t) {
  if (types.kind(t) != TypeKind::Struct) return StructId();
  const StructInfo& si = types.struct_info(types.struct_of(t));
  if (!si.builtin || !si.name.starts_with("Query<") || si.fields.size() != 1 || si.fields[0].name != "_row")
    return StructId();
  return types.struct_of(si.fields[0].type);
}

}  // namespace fitz::checker

namespace fitz::checker::detail {

namespace {

TypeId query_type(Checker& ck, StructId row) {
  TypeStore& ts = *ck.types_;
  TypeId row_t = ts.struct_type(row);
  for (uint32_t i = 0; i < ts.struct_count(); ++i) {
    TypeId t = ts.struct_type(StructId(i));
    if (orm_query_row(ts, t) == row) return t;
  }
  StructInfo si;
  si.name = "Query<" + ts.struct_info(row).name + ">";
  si.builtin = true;
  FieldInfo f;
  f.name = "_row";
  f.type = row_t;
  f.is_private = true;
  si.fields.push_back(f);
  si.field_index.try_emplace("_row", 0);
  return ts.struct_type(ts.add_struct(std::move(si)));
}

DiagKind diag_kind_of(orm::OrmErrorCode c) {
  switch (c) {
    case orm::OrmErrorCode::Untranslatable: return DiagKind::OrmUntranslatable;
    case orm::OrmErrorCode::UnknownColumn: return DiagKind::OrmUnknownColumn;
    case orm::OrmErrorCode::TypeMismatch: return DiagKind::OrmTypeMismatch;
    case orm::OrmErrorCode::UnfilteredWrite: return DiagKind::OrmUnfilteredWrite;
    case orm::OrmErrorCode::BadQuery: return DiagKind::OrmBadQuery;
    case orm::OrmErrorCode::UnknownRelation: return DiagKind::OrmUnknownRelation;
  }
  return DiagKind::OrmBadQuery;
}

// The plan of the ORM call `e` into the module's side table (a refused one with its error).
void record_plan(Checker& ck, ExprId e, const orm::PlanResult& r, OrmModels& models) {
  if (!ck.tir_->orm || !r.is_orm) return;
  if (r.plan) {
    ck.tir_->orm->by_call[e.index] = typed_orm_plan(ck.prog_, ck.mod_, r, models, *ck.tir_->orm);
    return;
  }
  OrmPlan refused;
  refused.compiled = false;
  refused.builder = r.builder;
  refused.error = r.error ? r.error->message : "";
  ck.tir_->orm->by_call[e.index] = std::move(refused);
}

bool within(Span inner, Span outer) { return inner.begin >= outer.begin && inner.end <= outer.end; }

// Types a query closure without checking it as an ordinary lambda: `row.field` is a column
// (typed as the field), column methods such as `is_in` or `starts_with` exist only in SQL, and
// every other value is an ordinary expression of the enclosing scope. Forms the translator
// rejects are left unchecked; the translator reports them.
class ClosureTyper {
 public:
  ClosureTyper(Checker& ck, StructId row) : ck_(ck), ts_(*ck.types_), row_(row), row_t_(ts_.struct_type(row)) {}

  void run(ExprId lam, TypeId ret) {
    auto* l = std::get_if<LambdaExpr>(&ck_.expr(lam).data);
    if (!l) {
      ck_.check_expr(lam);
      return;
    }
    const FnDecl& fn = ck_.ast_->get(l->fn);
    ExprId body = orm::closure_body(*ck_.ast_, fn);
    std::array<TypeId, 1> params{row_t_};
    ck_.set_type(lam, ts_.fn(params, ret));
    if (fn.params.size() != 1 || !body.valid()) return;
    name_ = fn.params[0].name.text;
    walk(body);
  }

 private:
  bool rooted_at_row(ExprId e) const {
    for (;;) {
      const Expr& x = ck_.expr(e);
      if (auto* n = std::get_if<NameRef>(&x.data)) return n->name.text == name_;
      auto* f = std::get_if<FieldExpr>(&x.data);
      if (!f) return false;
      e = f->object;
    }
  }
  void walk(ExprId e) {
    const Expr& x = ck_.expr(e);
    if (auto* n = std::get_if<NameRef>(&x.data)) {
      if (n->name.text == name_) ck_.set_type(e, row_t_);
      else ck_.check_expr(e);
    } else if (auto* f = std::get_if<FieldExpr>(&x.data)) {
      if (!rooted_at_row(e)) {
        ck_.check_expr(e);
        return;
      }
      auto* n = std::get_if<NameRef>(&ck_.expr(f->object).data);
      if (!n) return;  // through a nested relation: rejected by the translator
      ck_.set_type(f->object, row_t_);
      const StructInfo& si = ts_.struct_info(row_);
      if (const FieldInfo* fi = si.field(f->field.text)) {
        ck_.set_type(e, fi->type);
        ck_.tir_->refs[e.index] = Ref{RefKind::Field, si.index_of(fi), row_};
      }
    } else if (auto* u = std::get_if<UnaryExpr>(&x.data)) {
      walk(u->operand);
      ck_.set_type(e, u->op == UnaryOp::Not ? ts_.bool_() : ts_.any());
    } else if (auto* b = std::get_if<BinaryExpr>(&x.data)) {
      walk(b->lhs);
      walk(b->rhs);
      bool arith = b->op == BinaryOp::Add || b->op == BinaryOp::Sub || b->op == BinaryOp::Mul ||
                   b->op == BinaryOp::Div || b->op == BinaryOp::Mod;
      ck_.set_type(e, arith ? ts_.any() : ts_.bool_());
    } else if (auto* c = std::get_if<CallExpr>(&x.data)) {
      auto* callee = std::get_if<FieldExpr>(&ck_.expr(c->callee).data);
      if (!callee || !rooted_at_row(callee->object)) return;
      walk(callee->object);
      for (const Arg& a : c->args) walk(a.value);
      ck_.set_type(e, ts_.any());
    } else if (auto* l = std::get_if<ListExpr>(&x.data)) {
      for (ExprId el : l->elems) walk(el);
      ck_.set_type(e, ts_.list(ts_.any()));
    } else if (auto* s = std::get_if<StrLit>(&x.data)) {
      for (const StrPart& p : s->parts)
        if (p.is_hole()) return;
      ck_.check_expr(e);
    } else if (std::holds_alternative<IntLit>(x.data) || std::holds_alternative<FloatLit>(x.data) ||
               std::holds_alternative<BoolLit>(x.data) || std::holds_alternative<NullLit>(x.data) ||
               std::holds_alternative<MapExpr>(x.data)) {
      ck_.check_expr(e);
    }
  }

  Checker& ck_;
  TypeStore& ts_;
  StructId row_;
  TypeId row_t_;
  std::string_view name_;
};

// A builder chain `e` holding `group_by` or `preload` that no further step continues (kept in a
// variable, passed or returned): the span of its last such step. Query values are fragments
// joined at run time (orm_query.h), which have no grouped or preloaded form.
std::optional<Span> step_kept_as_value(const Ast& ast, ExprId e) {
  for (const Expr& x : ast.exprs)
    if (auto* f = std::get_if<FieldExpr>(&x.data); f && f->object.index == e.index) return std::nullopt;
  for (ExprId at = e;;) {
    auto* c = std::get_if<CallExpr>(&ast.get(at).data);
    auto* f = c ? std::get_if<FieldExpr>(&ast.get(c->callee).data) : nullptr;
    if (!f) return std::nullopt;
    if (f->field.text == "group_by" || f->field.text == "preload") return f->field.span;
    at = f->object;
  }
}

// The root of the builder chain ending at `e`, and whether a step of it is `where`.
ExprId chain_root(const Ast& ast, ExprId e, bool& has_where) {
  for (;;) {
    auto* c = std::get_if<CallExpr>(&ast.get(e).data);
    auto* f = c ? std::get_if<FieldExpr>(&ast.get(c->callee).data) : nullptr;
    if (!f) return e;
    has_where = has_where || f->field.text == "where";
    e = f->object;
  }
}

// Whether the local variable `root` names can be seen to hold a query without `where` on every
// path: each assignment to a variable of that name in the module is a chain from a `@table`
// type or from the variable itself with no `where` step. Anything else (a parameter, a
// pattern binding, a call, navigation) is left to the run-time check.
bool never_filtered(Checker& ck, ExprId root) {
  const Ast& ast = *ck.ast_;
  auto* n = std::get_if<NameRef>(&ast.get(root).data);
  const Ref& ref = ck.tir_->ref_of(root);
  if (!n || ref.kind != RefKind::Symbol) return false;
  const Symbol& var = ck.sym(SymbolId(ref.id));
  if (var.kind != SymbolKind::Local) return false;
  bool declared = false;
  for (const Stmt& st : ast.stmts) {
    auto* a = std::get_if<AssignStmt>(&st.data);
    auto* t = a ? std::get_if<NameRef>(&ast.get(a->target).data) : nullptr;
    if (!t || t->name.text != n->name.text) continue;
    if (a->compound) return false;
    declared = declared || ast.get(a->target).span == var.span;
    bool has_where = false;
    ExprId from = chain_root(ast, a->value, has_where);
    if (has_where || from.index == a->value.index) return false;
    auto* r = std::get_if<NameRef>(&ast.get(from).data);
    if (!r) return false;
    if (r->name.text == n->name.text) continue;
    const Ref& rr = ck.tir_->ref_of(from);
    if (rr.kind != RefKind::Symbol || ck.sym(SymbolId(rr.id)).kind != SymbolKind::Type) return false;
  }
  return declared;
}

std::optional<TypeId> check_orm_call(Checker& ck, ExprId e, const CallExpr& c, const FieldExpr& f, StructId row,
                                     bool on_table) {
  std::string_view m = f.field.text;
  bool builder = orm::is_builder_method(m);
  if (!builder && !orm::is_terminal_method(m)) return std::nullopt;
  TypeStore& ts = *ck.types_;
  TypeId row_t = ts.struct_type(row);
  std::optional<StructId> db_sid = ck.builtins_->nominal("DbConn");
  TypeId db = db_sid ? ts.struct_type(*db_sid) : ts.any();
  std::array<TypeId, 1> row_param{row_t};
  TypeId where_fn = ts.fn(row_param, ts.bool_());
  TypeId key_fn = ts.fn(row_param, ts.any());
  std::string what = fmt::format("`{}.{}`", ts.struct_info(row).name, m);
  for (size_t i = 0; i < c.args.size(); ++i) {
    ExprId a = c.args[i].value;
    TypeId want;
    if (m == "where") want = where_fn;
    else if (m == "order_by" || m == "group_by") want = key_fn;
    else if (m == "limit" || m == "offset") want = ts.int_();
    else if (m == "preload") want = ts.str();
    else if (m == "sum" || m == "avg" || m == "min" || m == "max") want = i == 0 ? key_fn : db;
    else if (m == "insert") want = i == 0 ? db : row_t;
    else if (m == "bulk_insert") want = i == 0 ? ts.list(row_t) : db;
    else if (m == "update") want = i == 0 ? db : ts.map(ts.str(), ts.any());
    else if (m == "merge_jsonb") want = i == 0 ? db : i == 1 ? ts.str() : ts.map(ts.str(), ts.any());
    else want = i == 0 ? db : TypeId();
    if (want.valid() && ts.kind(want) == TypeKind::Fn) {
      ClosureTyper(ck, row).run(a, ts.fn_result(want));
      continue;
    }
    TypeId got = ck.check_expr(a, want);
    if (!want.valid() || ts.is_dynamic(got)) continue;
    if (!ck.coerce(a, got, want)) ck.arg_mismatch(a, i, c.args[i].name, what, want, got);
  }
  ck.set_type(c.callee, ts.any());

  OrmModels models(ck.prog_, ck.graph_, ck.tir_->orm ? &ck.tir_->orm->tables : nullptr);
  orm::PlanResult plan = models.plan(ck.mod_, e);
  record_plan(ck, e, plan, models);
  if (!plan.is_orm && !on_table) {
    ck.error(DiagKind::OrmBadQuery, ck.span_of(f.object),
             "this query is not one chain from a `@table` type, so it cannot be compiled to constant SQL")
        .with_hint("write the query in one expression, e.g. `User.where(fn(u) => ...).all(db)`");
  }
  if (plan.error && (within(plan.error->span, c.args_span) || plan.error->span == f.field.span)) {
    const orm::OrmError& err = *plan.error;
    Diagnostic& d = ck.error(diag_kind_of(err.code), err.span, err.message);
    if (!err.hint.empty()) d.with_hint(err.hint);
  }
  if (builder && plan.plan && !plan.plan->dynamic && (!plan.plan->group_keys.empty() || !plan.plan->preloads.empty()))
    if (std::optional<Span> step = step_kept_as_value(*ck.ast_, e))
      ck.error(DiagKind::OrmBadQuery, *step,
               "`group_by` and `preload` need the whole query in one expression, from the table to its terminal")
          .with_hint("write e.g. `User.where(..).group_by(..).count(db)` in one chain, or add them where the query ends");
  if (plan.plan && plan.plan->dynamic &&
      (m == "update" || m == "delete" || m == "merge_jsonb")) {
    bool has_where = false;
    ExprId root = chain_root(*ck.ast_, e, has_where);
    if (!has_where && never_filtered(ck, root))
      ck.error(DiagKind::OrmUnfilteredWrite, f.field.span,
               fmt::format("`{}` on a query that never gets a `where` would change every row", m))
          .with_hint("add `.where(...)`; to target every row on purpose write `.where(fn(_) => true)`");
  }
  if (builder) return query_type(ck, row);
  bool grouped = plan.plan && plan.plan->grouped;
  TypeId rows_of_maps = ts.list(ts.map(ts.str(), ts.any()));
  TypeId value;
  if (grouped) value = rows_of_maps;
  else if (m == "all") value = ts.list(row_t);
  else if (m == "first" || m == "insert") value = row_t;
  else if (m == "sum" || m == "avg" || m == "min" || m == "max") value = ts.float_();
  else value = ts.int_();
  return ts.future(ts.result(value, ts.str()));
}

// `row.rel(db)` / `row.rel()` on a row of a `@table` type (see orm::find_navigation): the
// children (List<T>), the child (T?) or the parent (T), or a query to extend (Query<T>).
std::optional<TypeId> check_orm_navigation(Checker& ck, ExprId e, const CallExpr& c, const FieldExpr& f, TypeId obj) {
  TypeStore& ts = *ck.types_;
  if (ts.kind(obj) != TypeKind::Struct) return std::nullopt;
  StructId sid = ts.struct_of(obj);
  if (ts.struct_info(sid).method(f.field.text)) return std::nullopt;
  OrmModels models(ck.prog_, ck.graph_, ck.tir_->orm ? &ck.tir_->orm->tables : nullptr);
  const orm::TableModel* owner = models.table(sid);
  std::optional<orm::Navigation> nav = owner ? orm::find_navigation(*owner, f.field.text) : std::nullopt;
  if (!nav) return std::nullopt;
  std::optional<StructId> db_sid = ck.builtins_->nominal("DbConn");
  TypeId db = db_sid ? ts.struct_type(*db_sid) : ts.any();
  std::string what = fmt::format("`{}.{}`", ts.struct_info(sid).name, f.field.text);
  for (size_t i = 0; i < c.args.size(); ++i) {
    ExprId a = c.args[i].value;
    TypeId got = ck.check_expr(a, i == 0 ? db : TypeId());
    if (i == 0 && !ts.is_dynamic(got) && !ck.coerce(a, got, db)) ck.arg_mismatch(a, i, c.args[i].name, what, db, got);
  }
  ck.set_type(c.callee, ts.any());
  orm::PlanResult plan = models.plan(ck.mod_, e);
  record_plan(ck, e, plan, models);
  if (plan.error) {
    Diagnostic& d = ck.error(diag_kind_of(plan.error->code), plan.error->span, plan.error->message);
    if (!plan.error->hint.empty()) d.with_hint(plan.error->hint);
  }
  const orm::TableModel* target = models.table_named(nav->target);
  StructId tsid;
  for (uint32_t i = 0; i < ts.struct_count() && target; ++i)
    if (!ts.struct_info(StructId(i)).builtin && models.table(StructId(i)) == target) tsid = StructId(i);
  if (!tsid.valid()) return plan.error ? ts.error() : ts.any();
  if (c.args.empty()) return query_type(ck, tsid);
  TypeId row_t = ts.struct_type(tsid);
  TypeId value = !nav->relation || nav->relation->kind == orm::RelationKind::BelongsTo ? row_t
                 : nav->relation->kind == orm::RelationKind::HasOne                    ? ts.nullable(row_t)
                                                                                      : ts.list(row_t);
  return ts.future(ts.result(value, ts.str()));
}

}  // namespace

std::optional<TypeId> check_orm_static_call(Checker& ck, ExprId e, const CallExpr& c, const FieldExpr& f,
                                            StructId table) {
  OrmModels models(ck.prog_, ck.graph_);
  if (!models.table(table)) return std::nullopt;
  return check_orm_call(ck, e, c, f, table, true);
}

std::optional<TypeId> check_orm_query_call(Checker& ck, ExprId e, const CallExpr& c, const FieldExpr& f, TypeId obj) {
  StructId row = orm_query_row(*ck.types_, obj);
  if (!row.valid()) return check_orm_navigation(ck, e, c, f, obj);
  return check_orm_call(ck, e, c, f, row, false);
}

void check_orm_tables(Checker& ck) {
  OrmModels models(ck.prog_, ck.graph_);
  for (uint32_t i = 0; i < ck.tir_->type_decls.size(); ++i) {
    StructId sid = ck.tir_->type_decls[i];
    if (!sid.valid()) continue;
    std::vector<orm::ModelError> errors;
    const orm::TableModel* t = models.table(sid, &errors);
    for (const orm::ModelError& err : errors) ck.error(DiagKind::OrmTableModel, err.span, err.message);
    if (!t) continue;
    // A child row may be missing (and the field is empty until preloaded), so a `@has_one`
    // field that cannot hold null could never be filled honestly.
    const StructInfo& si = ck.types_->struct_info(sid);
    for (const orm::Relation& r : t->relations) {
      if (r.kind != orm::RelationKind::HasOne) continue;
      const FieldInfo* f = si.field(r.field);
      if (!f || ck.types_->kind(f->type) == TypeKind::Nullable || ck.types_->is_dynamic(f->type)) continue;
      ck.error(DiagKind::OrmHasOneNotNullable, r.span,
               fmt::format("`@has_one` field `{}` must be nullable, got `{}`", r.field, ck.types_->display(f->type)))
          .with_hint(fmt::format("write `{}: {}? = null`: the related row may not exist", r.field,
                                 ck.types_->display(f->type)));
    }
    // `on_delete=` on both sides of one foreign key must agree (decision 12).
    for (const orm::Relation& r : t->relations) {
      if (r.kind != orm::RelationKind::BelongsTo || r.on_delete.empty()) continue;
      const orm::TableModel* parent = models.table_named(r.target);
      const orm::Relation* inv = parent ? orm::inverse_relation(*t, r, *parent) : nullptr;
      if (!inv || inv->on_delete.empty()) continue;
      if (orm::fk_action_sql(inv->on_delete) != orm::fk_action_sql(r.on_delete))
        ck.error(DiagKind::OrmTableModel, r.span,
                 fmt::format("`{}.{}` deletes with `{}`, but `{}` says `on_delete=\"{}\"` for it", t->type_name, r.field,
                             r.on_delete, parent->type_name, inv->on_delete))
            .with_label(inv->span, "the other side's action")
            .with_hint("give `on_delete=` on one side only, or the same action on both");
    }
  }
}

}  // namespace fitz::checker::detail
