// `fitz check --dump=orm`: the SQL each ORM call of a module compiles to, with what is bound to
// each `$n`. Golden tests of the ORM read this.
#include <fmt/format.h>

#include <algorithm>

#include "checker/check_orm.h"

namespace fitz::checker {

namespace {

std::string describe(const orm::SqlParam& p, std::string_view text) {
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

}  // namespace

std::string dump_orm(const TypedProgram& program, const frontend::ModuleGraph& graph, ModuleId module,
                     const frontend::SourceManager& sources) {
  const frontend::Module& m = graph.get(module);
  const frontend::SourceFile& file = sources.file(m.file);
  OrmModels models(program, graph);
  orm::QueryEnv env = models.env(module);
  std::vector<std::pair<uint32_t, std::string>> entries;
  // Calls that are the object of another call's method are steps inside a longer chain; only
  // the outermost call of a chain is planned (a builder there is a query kept as a value).
  std::vector<bool> inner(m.ast.exprs.size());
  for (const frontend::Expr& x : m.ast.exprs)
    if (auto* c = std::get_if<frontend::CallExpr>(&x.data))
      if (auto* f = std::get_if<frontend::FieldExpr>(&m.ast.get(c->callee).data))
        if (f->object.index < inner.size()) inner[f->object.index] = true;
  for (uint32_t i = 0; i < m.ast.exprs.size(); ++i) {
    ExprId e(i);
    if (!std::holds_alternative<frontend::CallExpr>(m.ast.get(e).data)) continue;
    orm::PlanResult r = orm::plan_query(env, e);
    if (!r.is_orm || (r.builder && inner[i])) continue;
    const auto& call = std::get<frontend::CallExpr>(m.ast.get(e).data);
    const auto& callee = std::get<frontend::FieldExpr>(m.ast.get(call.callee).data);
    frontend::LineCol lc = file.line_col(callee.field.span.begin);
    std::string out = fmt::format("{}:{} {}\n", lc.line, lc.col, callee.field.text);
    if (!r.plan) {
      out += fmt::format("  not compiled: {}\n", r.error ? r.error->message : "");
      entries.emplace_back(callee.field.span.begin, std::move(out));
      continue;
    }
    const orm::QueryPlan& p = *r.plan;
    auto params = [&](const std::vector<orm::SqlParam>& ps) {
      for (size_t k = 0; k < ps.size(); ++k)
        out += fmt::format("  ${} = {}\n", k + 1, describe(ps[k], file.slice(m.ast.get(ps[k].expr).span)));
    };
    auto text_of = [&](frontend::ExprId x) { return file.slice(m.ast.get(x).span); };
    if (r.builder || p.dynamic) {
      out += r.builder ? fmt::format("  query value, from {}\n", p.dynamic ? text_of(p.root) : std::string_view("the table"))
                       : fmt::format("  extends the query value {}\n", text_of(p.root));
      if (r.builder && (!p.preloads.empty() || !p.group_keys.empty()))
        out += "  not compiled: `group_by` and `preload` need the whole query in one expression\n";
      static constexpr std::string_view kinds[] = {"where", "order_by", "limit", "offset"};
      for (const orm::Fragment& fr : p.fragments) {
        out += fmt::format("  {}: {}\n", kinds[fr.kind], fr.sql.empty() ? "$1" : fr.sql);
        params(fr.params);
      }
      if (r.builder) {
        entries.emplace_back(callee.field.span.begin, std::move(out));
        continue;
      }
      static constexpr std::string_view shapes[] = {"select", "first", "count", "aggregate", "write"};
      out += fmt::format("  then ({}), the head:\n", shapes[static_cast<int>(p.shape)]);
    }
    if (p.maybe) out += "  no row: null\n";
    if (p.update_map.valid()) {
      std::string cols;
      for (const auto& c : p.update_columns) cols += (cols.empty() ? "" : " | ") + c.column + c.cast;
      out += fmt::format("  sql: {}<\"column\" = $n for each key of {}, $n after the others; one of {}>{}\n",
                         p.update_prefix, file.slice(m.ast.get(p.update_map).span), cols, p.sql);
    } else {
      out += fmt::format("  sql: {}\n", p.sql);
    }
    params(p.params);
    if (!p.sql_without_key.empty()) {
      out += fmt::format("  when {} is 0: {}\n", p.key_field, p.sql_without_key);
      params(p.params_without_key);
    }
    for (const orm::Preload& pl : p.preloads)
      out += fmt::format("  preload {}: {}\n  $1 = rows[*].{}\n", pl.field, pl.sql, pl.key_field);
    if (p.grouped) {
      std::string keys;
      for (const std::string& k : p.group_keys) keys += (keys.empty() ? "" : ", ") + k;
      out += fmt::format("  rows: Map with {}\n", keys);
    }
    entries.emplace_back(callee.field.span.begin, std::move(out));
  }
  std::sort(entries.begin(), entries.end());
  std::string all;
  for (auto& [at, text] : entries) all += text;
  return all;
}

}  // namespace fitz::checker
