// Hover on the ORM (see hover_orm.h).
#include "lsp/features/hover_orm.h"

#include <fmt/format.h>

#include "checker/check_orm.h"
#include "checker/orm_plan.h"
#include "orm/ddl.h"

namespace fitz::lsp {

using namespace frontend;

namespace {

std::string sql_block(const std::string& sql) { return "```sql\n" + sql + "\n```"; }

std::string bound(const orm::SqlParam& p, std::string_view text) {
  switch (p.form) {
    case orm::ParamForm::Value: return std::string(text);
    case orm::ParamForm::LikeContains: return fmt::format("{} (contains pattern)", text);
    case orm::ParamForm::LikePrefix: return fmt::format("{} (prefix pattern)", text);
    case orm::ParamForm::LikeSuffix: return fmt::format("{} (suffix pattern)", text);
    case orm::ParamForm::Field: return fmt::format("{}.{}", text, p.field);
    case orm::ParamForm::FieldOfEach: return fmt::format("{}[*].{}", text, p.field);
    case orm::ParamForm::KeysOfRows: return fmt::format("rows[*].{}", p.field);
  }
  return std::string(text);
}

// The method name of a call `<receiver>.<name>(...)`, or null.
const FieldExpr* method_of(const Ast& ast, ExprId e) {
  auto* call = std::get_if<CallExpr>(&ast.get(e).data);
  if (!call || !call->callee.valid()) return nullptr;
  return std::get_if<FieldExpr>(&ast.get(call->callee).data);
}

}  // namespace

std::optional<std::string> table_schema_markdown(const Analysis& a, const SymbolKey& key) {
  if (key.kind != SymbolKey::Kind::Struct || !a.program.types || key.a >= a.program.types->struct_count())
    return std::nullopt;
  checker::OrmModels models(a.program, a.graph);
  const orm::TableModel* t = models.table(checker::StructId(key.a));
  if (!t) return std::nullopt;
  std::string sql = orm::create_table_sql(*t, [&](std::string_view name) { return models.table_named(name); });
  return sql_block(sql);
}

std::optional<std::pair<std::string, Span>> orm_query_markdown(const Analysis& a, ModuleId m, uint32_t offset) {
  if (!m.valid() || !a.tir(m)) return std::nullopt;
  const Ast& ast = a.module(m).ast;
  const SourceFile& file = a.file(m);
  // The call whose method name the cursor is on.
  ExprId hovered;
  Span name;
  for (uint32_t i = 0; i < ast.exprs.size() && !hovered.valid(); ++i) {
    const FieldExpr* f = method_of(ast, ExprId(i));
    if (f && f->field.span.begin <= offset && offset <= f->field.span.end) {
      hovered = ExprId(i);
      name = f->field.span;
    }
  }
  if (!hovered.valid()) return std::nullopt;
  // The checker's plans (checker/orm_plan.h): hover shows what codegen compiles, never a re-plan.
  const checker::OrmPlans* plans = a.program.modules[m.index].orm.get();
  const checker::OrmPlan* r = plans ? plans->plan_of(hovered) : nullptr;
  if (!r) return std::nullopt;
  if (r->builder) {
    // A step of a chain: the SQL is the terminal's, the smallest ORM call around this one.
    Span inner = ast.get(hovered).span;
    ExprId best;
    for (uint32_t i = 0; i < ast.exprs.size(); ++i) {
      const Span& s = ast.exprs[i].span;
      if (i == hovered.index || !method_of(ast, ExprId(i)) || s.begin > inner.begin || s.end < inner.end) continue;
      if (best.valid() && ast.get(best).span.size() <= s.size()) continue;
      const checker::OrmPlan* outer = plans->plan_of(ExprId(i));
      if (outer && !outer->builder) {
        best = ExprId(i);
        r = outer;
      }
    }
    if (!best.valid()) return std::pair(std::string("query builder step (no terminal such as `.all(db)` yet)"), name);
  }
  if (!r->compiled) {
    std::string why = r->error.empty() ? "this query has no SQL translation" : r->error;
    return std::pair(fmt::format("not compiled to SQL: {}", why), name);
  }
  const orm::QueryPlan& p = r->query;
  auto params = [&](const std::vector<orm::SqlParam>& ps) {
    std::string out;
    for (size_t k = 0; k < ps.size(); ++k) {
      std::string_view text = ps[k].expr.valid() ? file.slice(ast.get(ps[k].expr).span) : std::string_view();
      out += fmt::format("\n- `${}` = `{}`", k + 1, bound(ps[k], text));
    }
    return out;
  };
  std::string md = sql_block(p.sql) + params(p.params);
  if (!p.sql_without_key.empty())
    md += fmt::format("\n\nwhen `{}` is 0:\n", p.key_field) + sql_block(p.sql_without_key) + params(p.params_without_key);
  for (const orm::Preload& pl : p.preloads)
    md += fmt::format("\n\npreload `{}`:\n", pl.field) + sql_block(pl.sql) + fmt::format("\n- `$1` = `rows[*].{}`", pl.key_field);
  return std::pair(std::move(md), name);
}

}  // namespace fitz::lsp
