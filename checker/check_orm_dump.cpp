// `fitz check --dump=orm`: the plans the checker stored for a module's ORM calls (orm_plan.h):
// the SQL, what is bound to each `$n` with its type and wire form, and the row decoders.
// Golden tests of the ORM read this.
#include <fmt/format.h>

#include <algorithm>

#include "checker/check_orm.h"
#include "checker/orm_plan.h"

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
  const ModuleTir& tir = program.modules[module.index];
  if (!tir.orm) return "";
  const TypeStore& ts = *program.types;
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
    const OrmPlan* plan = tir.orm->plan_of(e);
    if (!plan || (plan->builder && inner[i])) continue;
    const auto& call = std::get<frontend::CallExpr>(m.ast.get(e).data);
    const auto& callee = std::get<frontend::FieldExpr>(m.ast.get(call.callee).data);
    frontend::LineCol lc = file.line_col(callee.field.span.begin);
    std::string out = fmt::format("{}:{} {}\n", lc.line, lc.col, callee.field.text);
    if (!plan->compiled) {
      out += fmt::format("  not compiled: {}\n", plan->error);
      entries.emplace_back(callee.field.span.begin, std::move(out));
      continue;
    }
    const orm::QueryPlan& p = plan->query;
    // Each `$n` with the expression bound to it, its Fitz type and how it travels.
    auto params = [&](const std::vector<orm::SqlParam>& ps, const std::vector<OrmParam>& typed) {
      for (size_t k = 0; k < ps.size(); ++k) {
        out += fmt::format("  ${} = {}", k + 1, describe(ps[k], file.slice(m.ast.get(ps[k].expr).span)));
        if (k < typed.size() && typed[k].type.valid())
          out += fmt::format(" : {} as {}", ts.display(typed[k].type), orm_wire_name(typed[k].wire));
        out += "\n";
      }
    };
    auto text_of = [&](frontend::ExprId x) { return file.slice(m.ast.get(x).span); };
    if (plan->builder || p.dynamic) {
      out += plan->builder ? fmt::format("  query value, from {}\n", p.dynamic ? text_of(p.root) : std::string_view("the table"))
                       : fmt::format("  extends the query value {}\n", text_of(p.root));
      if (plan->builder && (!p.preloads.empty() || !p.group_keys.empty()))
        out += "  not compiled: `group_by` and `preload` need the whole query in one expression\n";
      static constexpr std::string_view kinds[] = {"where", "order_by", "limit", "offset"};
      for (size_t k = 0; k < p.fragments.size(); ++k) {
        const orm::Fragment& fr = p.fragments[k];
        out += fmt::format("  {}: {}\n", kinds[fr.kind], fr.sql.empty() ? "$1" : fr.sql);
        params(fr.params, plan->fragment_params[k]);
      }
      if (plan->builder) {
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
    params(p.params, plan->params);
    if (!p.sql_without_key.empty()) {
      out += fmt::format("  when {} is 0: {}\n", p.key_field, p.sql_without_key);
      params(p.params_without_key, plan->params_without_key);
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
  // The row decoders: each column of the SELECT list by index into its field.
  for (const auto& [sid, d] : tir.orm->decoders) {
    const StructInfo& si = ts.struct_info(StructId(sid));
    all += fmt::format("decode {}:", si.name);
    for (const OrmColumnRead& c : d.columns) {
      static constexpr std::string_view readers[] = {"", " datetime", " json"};
      all += fmt::format(" {}={}{}{}", c.column, si.fields[c.field].name, readers[c.reader], c.binary ? " (binary)" : "");
    }
    for (uint32_t f : d.defaulted) all += fmt::format(" default {}", si.fields[f].name);
    all += "\n";
  }
  return all;
}

}  // namespace fitz::checker
