// ORM terminals emitted from the checker's plans (checker/orm_plan.h): the SQL as a string
// literal, each parameter encoded from its static type and rows read by one generated decoder
// per struct (fitz/orm_wire.h). Values reach the database only as parameters.
#include "codegen/cpp_literal.h"
#include "codegen/emit_orm.h"

#include <fmt/format.h>

#include <map>

#include "checker/check_orm.h"
#include "checker/orm_plan.h"

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
                           : col->shape.kind == orm::FieldShape::DateTime || col->shape.kind == orm::FieldShape::Date ||
                                     col->shape.kind == orm::FieldShape::Uuid
                               ? "datetime_column"
                                                                          : "column";
      body += fmt::format("_o->fld_{} = fitz::orm::{}<{}>(_row, {}, _pos); ", f.name, reader, g.cpp_type(f.type),
                          cpp_quoted(col->name));
    }
    else if (f.has_default)
      body += fmt::format("_o->fld_{} = {}::dflt_{}(); ", f.name, name, f.name);
  }
  return body + "return _o; }";
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

namespace {

std::string decoder_name(StructId sid) { return fmt::format("fzorm_row_{}", sid.index); }
std::string formats_arg(StructId sid, const checker::OrmPlans& plans) {
  const checker::OrmRowDecoder* d = plans.decoder_of(sid);
  return fmt::format("fzorm_fmt_{}, {}", sid.index, d ? d->columns.size() : 0);
}

// One parameter encoded from its static type (fitz/orm_wire.h).
std::string wire_param(Gen& g, const checker::OrmParam& p) {
  std::string code = g.expr_raw(p.expr);
  switch (p.form) {
    case orm::ParamForm::LikeContains:
      return fmt::format("fitz::orm::bind<fitz::Str>(fitz::orm::like_param({}, fitz::orm::Like::Contains))", code);
    case orm::ParamForm::LikePrefix:
      return fmt::format("fitz::orm::bind<fitz::Str>(fitz::orm::like_param({}, fitz::orm::Like::Prefix))", code);
    case orm::ParamForm::LikeSuffix:
      return fmt::format("fitz::orm::bind<fitz::Str>(fitz::orm::like_param({}, fitz::orm::Like::Suffix))", code);
    case orm::ParamForm::Field:
      // Navigation: the key (or FK) field of the row the query starts from.
      if (p.type.valid()) return fmt::format("fitz::orm::bind<{}>(({})->fld_{})", g.cpp_type(p.type), code, p.field);
      return fmt::format("fitz::orm::bind_any(fitz::any_field(fitz::to_any({}), {}, fitz::SourcePos{{}}))", code,
                         cpp_quoted(p.field));
    default: break;
  }
  return fmt::format("fitz::orm::bind<{}>({})", g.cpp_type(g.tir_->type_of(p.expr)), code);
}

std::string wire_list(const std::vector<std::string>& code, size_t from, size_t to) {
  std::string s;
  for (size_t i = from; i < to; ++i) s += (i > from ? ", " : "") + code[i];
  return "fitz::orm::wire_params(" + s + ")";
}

}  // namespace

void emit_orm_row_decoders(Gen& g) {
  std::map<uint32_t, const checker::OrmRowDecoder*> all;
  for (const checker::ModuleTir& m : g.prog_.modules)
    if (m.orm)
      for (const auto& [sid, d] : m.orm->decoders) all.emplace(sid, &d);
  if (all.empty()) return;
  for (const auto& [index, d] : all) {
    StructId sid(index);
    const checker::StructInfo& si = g.types_.struct_info(sid);
    std::string name = g.struct_name(sid);
    std::string formats;
    for (const checker::OrmColumnRead& r : d->columns) formats += fmt::format("{}{}", formats.empty() ? "" : ", ", r.binary ? 1 : 0);
    if (formats.empty()) formats = "0";
    g.line(fmt::format("[[maybe_unused]] static const uint8_t fzorm_fmt_{}[] = {{{}}};", index, formats));
    g.line(fmt::format("[[maybe_unused]] static fitz::Ref<{}> {}(const fitz::orm::WireRows& _r, size_t _i, fitz::SourcePos _pos) {{",
                       name, decoder_name(sid)));
    g.line(fmt::format("  auto _o = fitz::make<{}>();", name));
    for (const checker::OrmColumnRead& r : d->columns) {
      const checker::FieldInfo& f = si.fields[r.field];
      std::string t = g.cpp_type(f.type);
      switch (r.reader) {
        case checker::OrmColumnRead::Json:
          g.orm_json_ = true;
          g.line(fmt::format("  _o->fld_{} = fitz::orm::json_cell<{}>(_r, _i, {}, _pos);", f.name, t, r.column));
          break;
        case checker::OrmColumnRead::DateTime:
          g.line(fmt::format("  _o->fld_{} = fitz::from_any<{}>(fitz::orm::wire_datetime(_r, _i, {}, _pos), _pos);", f.name, t,
                             r.column));
          break;
        case checker::OrmColumnRead::Value:
          g.line(fmt::format("  _o->fld_{} = fitz::orm::wire_get<{}>(_r, _i, {}, _pos);", f.name, t, r.column));
          break;
      }
    }
    for (uint32_t f : d->defaulted)
      g.line(fmt::format("  _o->fld_{} = {}::dflt_{}();", si.fields[f].name, name, si.fields[f].name));
    g.line("  return _o;");
    g.line("}");
  }
}

std::optional<std::string> emit_orm_call(Gen& g, ExprId id, const CallExpr& c) {
  if (g.tir_->call_of(id)) return std::nullopt;
  const checker::OrmPlan* plan = g.tir_->orm ? g.tir_->orm->plan_of(id) : nullptr;
  if (!plan) return std::nullopt;
  const checker::OrmPlans& plans = *g.tir_->orm;
  if (!plan->compiled) {
    g.result_.unsupported.push_back("an ORM query the checker rejected");
    return "fitz::Any()";
  }
  const orm::QueryPlan& p = plan->query;
  if (plan->builder) return emit_orm_query_value(g, id, *plan);
  if (p.dynamic) return emit_orm_query_terminal(g, id, *plan);
  if (!p.preloads.empty() && p.terminal != orm::Terminal::All && p.terminal != orm::Terminal::First) {
    g.result_.unsupported.push_back("`preload` before a terminal other than `all` or `first`");
    return "fitz::Any()";
  }
  StructId sid = plan->row;
  if (!sid.valid()) return std::nullopt;
  Span at = g.ast_->get(id).span;
  std::string pos = g.pos(at);
  bool insert = p.terminal == orm::Terminal::Insert;
  bool bulk = p.terminal == orm::Terminal::BulkInsert;
  // Grouped rows and a Map of changes stay dynamic (their shape is data); their values still
  // travel only as parameters.
  bool dynamic_params = p.grouped || p.update_map.valid();

  // Operands in source order: the database, then the row (insert) or the parameters.
  std::vector<Gen::Child> children;
  children.push_back(Gen::child_of(&g, p.db_arg));
  if (insert || bulk) {
    children.push_back(Gen::child_of(&g, p.row_arg));
  } else {
    for (size_t i = 0; i < plan->params.size(); ++i) {
      const checker::OrmParam& op = plan->params[i];
      const orm::SqlParam& sp = p.params[i];
      if (dynamic_params) children.push_back(Gen::Child{[&g, sp] { return orm_param_value(g, sp); }, sp.expr});
      else children.push_back(Gen::Child{[&g, op] { return wire_param(g, op); }, op.expr});
    }
    if (p.update_map.valid()) children.push_back(Gen::child_of(&g, p.update_map));
  }
  std::vector<std::string> code = g.sequence(children);
  const std::string& db = code[0];
  std::string row_cpp = fmt::format("fitz::Ref<{}>", g.struct_name(sid));
  auto any_list = [&](size_t from) {
    std::string s;
    for (size_t i = from; i < code.size(); ++i) s += (i > from ? ", " : "") + code[i];
    return "fitz::List<fitz::Any>{" + s + "}";
  };
  std::string params = dynamic_params ? std::string() : wire_list(code, 1, code.size());
  std::string sql = cpp_quoted(p.sql);
  std::string dec = decoder_name(sid);
  std::string fmts = formats_arg(sid, plans);
  // The rows of the query (on `_db`) with every `preload` applied, as one task expression.
  auto preloaded_rows = [&]() -> std::optional<std::string> {
    std::string task = fmt::format("fitz::orm::wire_all<{}>(_db, {}, {}, {}, {}, {})", row_cpp, sql, params, fmts, dec, pos);
    for (size_t k = 0; k < p.preloads.size(); ++k) {
      const orm::Preload& pl = p.preloads[k];
      StructId child = plan->preloads[k].child;
      if (!child.valid()) return std::nullopt;
      std::string child_cpp = fmt::format("fitz::Ref<{}>", g.struct_name(child));
      TypeId key_type = plan->preloads[k].key_type;
      if (!key_type.valid()) return std::nullopt;
      // has_one and a `@belongs_to` parent take the first match; a row whose parent is missing
      // keeps its field as it was (null).
      std::string set = pl.many ? fmt::format("[](const {} & _p, fitz::List<{}> _xs) {{ _p->fld_{} = std::move(_xs); }}",
                                              row_cpp, child_cpp, pl.field)
                                : fmt::format("[](const {} & _p, fitz::List<{}> _xs) {{ if (!_xs.vec().empty()) "
                                              "_p->fld_{} = _xs.vec().front(); }}",
                                              row_cpp, child_cpp, pl.field);
      task = fmt::format(
          "fitz::orm::wire_preload<{}, {}, {}>({}, _db, {}, {}, {}, [](const {} & _p) {{ return _p->fld_{}; }}, "
          "[](const {} & _c) {{ return _c->fld_{}; }}, {}, {})",
          row_cpp, child_cpp, g.cpp_type(key_type), task, cpp_quoted(pl.sql), formats_arg(child, plans),
          decoder_name(child), row_cpp, pl.key_field, child_cpp, pl.fk_field, set, pos);
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
        return fmt::format("fitz::orm::grouped({}, {}, {}, {{{}}}, {})", db, sql, any_list(1), keys, pos);
      }
      if (p.terminal == orm::Terminal::All) {
        if (p.preloads.empty())
          return fmt::format("fitz::orm::wire_all<{}>({}, {}, {}, {}, {}, {})", row_cpp, db, sql, params, fmts, dec, pos);
        std::optional<std::string> task = preloaded_rows();
        if (!task) return std::nullopt;
        return fmt::format("({{ auto _db = {}; {}; }})", db, *task);
      }
      if (p.terminal == orm::Terminal::Count) return fmt::format("fitz::orm::wire_count({}, {}, {}, {})", db, sql, params, pos);
      return fmt::format("fitz::orm::wire_aggregate({}, {}, {}, {}, {})", db, sql, params,
                         p.terminal == orm::Terminal::Sum ? "true" : "false", pos);
    case orm::Terminal::First:
      if (!p.preloads.empty()) {
        // The LIMIT 1 query's rows, preloaded like `.all`'s, then reduced to the one row.
        std::optional<std::string> task = preloaded_rows();
        if (!task) return std::nullopt;
        return fmt::format("({{ auto _db = {}; fitz::orm::{}<{}>({}, {}); }})", db, p.maybe ? "maybe_of" : "first_of",
                           row_cpp, *task, pos);
      }
      return fmt::format("fitz::orm::{}<{}>({}, {}, {}, {}, {}, {})", p.maybe ? "wire_maybe" : "wire_one", row_cpp, db, sql,
                         params, fmts, dec, pos);
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
      return fmt::format("fitz::orm::wire_exec({}, {}, {}, {})", db, sql, params, pos);
    case orm::Terminal::Insert: {
      // The row's fields, each encoded from its field type.
      auto fields = [&](const std::vector<checker::OrmParam>& ps) {
        std::vector<std::string> binds;
        for (const checker::OrmParam& op : ps) {
          if (!op.type.valid()) return std::string();
          binds.push_back(fmt::format("fitz::orm::bind<{}>(_r->fld_{})", g.cpp_type(op.type), op.field));
        }
        return wire_list(binds, 0, binds.size());
      };
      std::string with_key = fmt::format("fitz::orm::wire_one<{}>({}, {}, {}, {}, {}, {})", row_cpp, db, sql,
                                         fields(plan->params), fmts, dec, pos);
      if (p.sql_without_key.empty()) return fmt::format("({{ auto _r = {}; {}; }})", code[1], with_key);
      std::string without = fmt::format("fitz::orm::wire_one<{}>({}, {}, {}, {}, {}, {})", row_cpp, db,
                                        cpp_quoted(p.sql_without_key), fields(plan->params_without_key), fmts, dec, pos);
      return fmt::format("({{ auto _r = {}; _r->fld_{} == 0 ? {} : {}; }})", code[1], p.key_field, without, with_key);
    }
    case orm::Terminal::BulkInsert: {
      // Each row adds one value to every column's array, in the order of the statement's $n.
      std::string cols;
      for (size_t i = 0; i < plan->params.size(); ++i) {
        const checker::OrmParam& op = plan->params[i];
        if (!op.type.valid()) return std::nullopt;
        cols += fmt::format("_c[{}].push_back(fitz::to_any<{}>(_r->fld_{})); ", i, g.cpp_type(op.type), op.field);
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
