// ORM terminals compiled to calls of fitz::orm (runtime/include/fitz/orm.h) with the SQL the
// orm library planned as a string literal. Values reach the database only as parameters.
#include "codegen/cpp_literal.h"
#include "codegen/emit_orm.h"

#include <fmt/format.h>

#include "checker/check_orm.h"

namespace fitz::codegen {

std::string orm_update_columns(const orm::QueryPlan& p) {
  std::string cols;
  for (const auto& c : p.update_columns)
    cols += fmt::format("{}{{{}, {}, {}}}", cols.empty() ? "" : ", ", cpp_quoted(c.field), cpp_quoted(c.column),
                        cpp_quoted(c.cast));
  return cols;
}

// A lambda that builds the struct of `table` from a DbRow: columns by name, other fields from
// their defaults.
std::string orm_row_decoder(Gen& g, StructId sid, const orm::TableModel& table) {
  const checker::StructInfo& si = g.types_.struct_info(sid);
  std::string name = g.struct_name(sid);
  std::string body = fmt::format("[](const fitz::Any& _row, fitz::SourcePos _pos) {{ auto _o = fitz::make<{}>(); ", name);
  for (const checker::FieldInfo& f : si.fields) {
    if (const orm::Column* col = table.column_of_field(f.name)) {
      // jsonb comes back as text: parsed into the field's Map type; timestamptz text becomes a
      // DateTime.
      bool json = col->type == orm::ColumnType::Jsonb;
      g.orm_json_ = g.orm_json_ || json;
      const char* reader = json ? "json_column"
                           : col->shape.kind == orm::FieldShape::DateTime ? "datetime_column"
                                                                          : "column";
      body += fmt::format("_o->fld_{} = fitz::orm::{}<{}>(_row, {}, _pos); ", f.name, reader, g.cpp_type(f.type),
                          cpp_quoted(col->name));
    }
    else if (f.has_default)
      body += fmt::format("_o->fld_{} = {}::dflt_{}(); ", f.name, name, f.name);
  }
  return body + "return _o; }";
}

StructId orm_struct_of_table(Gen& g, checker::OrmModels& models, std::string_view type_name) {
  for (uint32_t i = 0; i < g.types_.struct_count(); ++i) {
    const checker::StructInfo& si = g.types_.struct_info(StructId(i));
    if (!si.builtin && si.name == type_name && models.table(StructId(i))) return StructId(i);
  }
  return StructId();
}

std::string orm_param_value(Gen& g, const orm::SqlParam& sp) {
  ExprId e = sp.expr;
  std::string code = g.expr_raw(e);
  switch (sp.form) {
    case orm::ParamForm::LikeContains: return fmt::format("fitz::to_any(fitz::orm::like_param({}, fitz::orm::Like::Contains))", code);
    case orm::ParamForm::LikePrefix: return fmt::format("fitz::to_any(fitz::orm::like_param({}, fitz::orm::Like::Prefix))", code);
    case orm::ParamForm::LikeSuffix: return fmt::format("fitz::to_any(fitz::orm::like_param({}, fitz::orm::Like::Suffix))", code);
    case orm::ParamForm::Field: {
      // Navigation: the key (or FK) field of the row the query starts from.
      TypeId t = g.tir_->type_of(e);
      const checker::FieldInfo* f = g.types_.kind(t) == checker::TypeKind::Struct
                                        ? g.types_.struct_info(g.types_.struct_of(t)).field(sp.field)
                                        : nullptr;
      if (f) return fmt::format("fitz::to_any<{}>(({})->fld_{})", g.cpp_type(f->type), code, sp.field);
      return fmt::format("fitz::any_field(fitz::to_any({}), {}, fitz::SourcePos{{}})", code, cpp_quoted(sp.field));
    }
    default: break;
  }
  return fmt::format("fitz::to_any<{}>({})", g.cpp_type(g.tir_->type_of(e)), code);
}

std::optional<std::string> emit_orm_call(Gen& g, ExprId id, const CallExpr& c) {
  if (g.tir_->call_of(id)) return std::nullopt;
  checker::OrmModels models(g.prog_, g.graph_);
  orm::PlanResult r = models.plan(g.mod_, id);
  if (!r.is_orm) return std::nullopt;
  if (!r.plan) {
    g.result_.unsupported.push_back("an ORM query the checker rejected");
    return "fitz::Any()";
  }
  const orm::QueryPlan& p = *r.plan;
  if (r.builder) return emit_orm_query_value(g, id, p);
  if (p.dynamic) return emit_orm_query_terminal(g, id, p, models);
  if (!p.preloads.empty() && p.terminal != orm::Terminal::All && p.terminal != orm::Terminal::First) {
    g.result_.unsupported.push_back("`preload` before a terminal other than `all` or `first`");
    return "fitz::Any()";
  }
  StructId sid = orm_struct_of_table(g, models, p.table->type_name);
  if (!sid.valid()) return std::nullopt;
  Span at = g.ast_->get(id).span;
  std::string pos = g.pos(at);
  bool insert = p.terminal == orm::Terminal::Insert;
  bool bulk = p.terminal == orm::Terminal::BulkInsert;

  // Operands in source order: the database, then the row (insert) or the parameters.
  std::vector<Gen::Child> children;
  children.push_back(Gen::child_of(&g, p.db_arg));
  auto value_of = [&g](const orm::SqlParam& sp) { return orm_param_value(g, sp); };
  if (insert || bulk) {
    children.push_back(Gen::child_of(&g, p.row_arg));
  } else {
    for (const orm::SqlParam& sp : p.params) children.push_back(Gen::Child{[&value_of, sp] { return value_of(sp); }, sp.expr});
    if (p.update_map.valid()) children.push_back(Gen::child_of(&g, p.update_map));
  }
  std::vector<std::string> code = g.sequence(children);
  const std::string& db = code[0];
  std::string row_cpp = fmt::format("fitz::Ref<{}>", g.struct_name(sid));
  auto param_list = [&](size_t from) {
    std::string s;
    for (size_t i = from; i < code.size(); ++i) s += (i > from ? ", " : "") + code[i];
    return "fitz::List<fitz::Any>{" + s + "}";
  };
  std::string sql = cpp_quoted(p.sql);
  auto decoder = orm_row_decoder;
  // The rows of the query (on `_db`) with every `preload` applied, as one task expression.
  auto preloaded_rows = [&]() -> std::optional<std::string> {
    std::string task = fmt::format("fitz::orm::all<{}>(_db, {}, {}, {}, {})", row_cpp, sql, param_list(1),
                                   decoder(g, sid, *p.table), pos);
    const checker::StructInfo& si = g.types_.struct_info(sid);
    for (const orm::Preload& pl : p.preloads) {
      StructId child = orm_struct_of_table(g, models, pl.target->type_name);
      if (!child.valid()) return std::nullopt;
      const checker::StructInfo& ci = g.types_.struct_info(child);
      std::string child_cpp = fmt::format("fitz::Ref<{}>", g.struct_name(child));
      const checker::FieldInfo* key = si.field(pl.key_field);
      const checker::FieldInfo* target = si.field(pl.field);
      if (!key || !target || !ci.field(pl.fk_field)) return std::nullopt;
      // has_one and a `@belongs_to` parent take the first match; a row whose parent is missing
      // keeps its field as it was (null).
      std::string set = pl.many ? fmt::format("[](const {} & _p, fitz::List<{}> _xs) {{ _p->fld_{} = std::move(_xs); }}",
                                              row_cpp, child_cpp, pl.field)
                                : fmt::format("[](const {} & _p, fitz::List<{}> _xs) {{ if (!_xs.vec().empty()) "
                                              "_p->fld_{} = _xs.vec().front(); }}",
                                              row_cpp, child_cpp, pl.field);
      task = fmt::format(
          "fitz::orm::preload<{}, {}, {}>({}, _db, {}, {}, [](const {} & _p) {{ return _p->fld_{}; }}, "
          "[](const {} & _c) {{ return _c->fld_{}; }}, {}, {})",
          row_cpp, child_cpp, g.cpp_type(key->type), task, cpp_quoted(pl.sql), decoder(g, child, *pl.target), row_cpp,
          pl.key_field, child_cpp, pl.fk_field, set, pos);
    }
    return task;
  };
  switch (p.terminal) {
    case orm::Terminal::All:
    case orm::Terminal::Count:
    case orm::Terminal::Sum:
    case orm::Terminal::Avg:
    case orm::Terminal::Min:
    case orm::Terminal::Max:
      if (p.grouped) {
        std::string keys;
        for (const std::string& k : p.group_keys) keys += (keys.empty() ? "" : ", ") + cpp_quoted(k);
        return fmt::format("fitz::orm::grouped({}, {}, {}, {{{}}}, {})", db, sql, param_list(1), keys, pos);
      }
      if (p.terminal == orm::Terminal::All) {
        if (p.preloads.empty())
          return fmt::format("fitz::orm::all<{}>({}, {}, {}, {}, {})", row_cpp, db, sql, param_list(1),
                             decoder(g, sid, *p.table), pos);
        std::optional<std::string> task = preloaded_rows();
        if (!task) return std::nullopt;
        return fmt::format("({{ auto _db = {}; {}; }})", db, *task);
      }
      if (p.terminal == orm::Terminal::Count)
        return fmt::format("fitz::orm::count({}, {}, {}, {})", db, sql, param_list(1), pos);
      return fmt::format("fitz::orm::aggregate({}, {}, {}, {}, {})", db, sql, param_list(1),
                         cpp_quoted(orm::terminal_name(p.terminal)), pos);
    case orm::Terminal::First:
      if (!p.preloads.empty()) {
        // The LIMIT 1 query's rows, preloaded like `.all`'s, then reduced to the one row.
        std::optional<std::string> task = preloaded_rows();
        if (!task) return std::nullopt;
        return fmt::format("({{ auto _db = {}; fitz::orm::{}<{}>({}, {}); }})", db, p.maybe ? "maybe_of" : "first_of",
                           row_cpp, *task, pos);
      }
      if (p.maybe)
        return fmt::format("fitz::orm::maybe<{}>({}, {}, {}, {}, {})", row_cpp, db, sql, param_list(1),
                           decoder(g, sid, *p.table), pos);
      return fmt::format("fitz::orm::one<{}>({}, {}, {}, {}, {})", row_cpp, db, sql, param_list(1),
                         decoder(g, sid, *p.table), pos);
    case orm::Terminal::Update:
      if (p.update_map.valid()) {
        std::string cols = orm_update_columns(p);
        std::string where_params;
        for (size_t i = 1; i + 1 < code.size(); ++i) where_params += (i > 1 ? ", " : "") + code[i];
        return fmt::format("fitz::orm::update_map({}, {}, {}, fitz::List<fitz::Any>{{{}}}, {}, {{{}}}, {})", db,
                           cpp_quoted(p.update_prefix), sql, where_params, code.back(), cols, pos);
      }
      [[fallthrough]];
    case orm::Terminal::Delete:
    case orm::Terminal::MergeJsonb:
      return fmt::format("fitz::orm::exec({}, {}, {}, {})", db, sql, param_list(1), pos);
    case orm::Terminal::Insert: {
      const checker::StructInfo& si = g.types_.struct_info(sid);
      auto fields = [&](const std::vector<orm::SqlParam>& ps) {
        std::string s;
        for (const orm::SqlParam& sp : ps) {
          const checker::FieldInfo* f = si.field(sp.field);
          s += fmt::format("{}fitz::to_any<{}>(_r->fld_{})", s.empty() ? "" : ", ", g.cpp_type(f->type), sp.field);
        }
        return "fitz::List<fitz::Any>{" + s + "}";
      };
      std::string dec = decoder(g, sid, *p.table);
      std::string with_key = fmt::format("fitz::orm::one<{}>({}, {}, {}, {}, {})", row_cpp, db, sql, fields(p.params), dec, pos);
      if (p.sql_without_key.empty()) return fmt::format("({{ auto _r = {}; {}; }})", code[1], with_key);
      std::string without = fmt::format("fitz::orm::one<{}>({}, {}, {}, {}, {})", row_cpp, db, cpp_quoted(p.sql_without_key),
                                        fields(p.params_without_key), dec, pos);
      return fmt::format("({{ auto _r = {}; _r->fld_{} == 0 ? {} : {}; }})", code[1], p.key_field, without, with_key);
    }
    case orm::Terminal::BulkInsert: {
      // Each row adds one value to every column's array, in the order of the statement's $n.
      const checker::StructInfo& si = g.types_.struct_info(sid);
      std::string cols;
      for (size_t i = 0; i < p.params.size(); ++i) {
        const checker::FieldInfo* f = si.field(p.params[i].field);
        if (!f) return std::nullopt;
        cols += fmt::format("_c[{}].push_back(fitz::to_any<{}>(_r->fld_{})); ", i, g.cpp_type(f->type), f->name);
      }
      return fmt::format("fitz::orm::bulk_insert<{}>({}, {}, {}, {}, [](const {}& _r, std::vector<std::vector<fitz::Any>>& _c) {{ {}}}, {})",
                         row_cpp, db, sql, code[1], p.params.size(), row_cpp, cols, pos);
    }
    default: break;
  }
  g.result_.unsupported.push_back("this ORM call");
  return "fitz::Any()";
}

}  // namespace fitz::codegen
