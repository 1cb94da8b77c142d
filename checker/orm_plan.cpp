// Typing the orm library's plans for the TIR: every bound parameter gets its Fitz type and
// wire form, and every struct a plan reads gets its row decoder (column index to field).
#include "checker/orm_plan.h"

#include "checker/check_orm.h"

namespace fitz::checker {

std::string_view orm_wire_name(OrmWire w) {
  switch (w) {
    case OrmWire::Int8: return "int8 binary";
    case OrmWire::Float8: return "float8 binary";
    case OrmWire::Bool: return "bool binary";
    case OrmWire::Text: return "text";
    case OrmWire::Int8Array: return "int8[] text";
    case OrmWire::TextArray: return "text[] text";
    case OrmWire::Dynamic: return "dynamic";
  }
  return "dynamic";
}

uint32_t orm_wire_oid(OrmWire w) {
  switch (w) {
    case OrmWire::Int8: return 20;
    case OrmWire::Float8: return 701;
    case OrmWire::Bool: return 16;
    case OrmWire::Int8Array: return 1016;
    case OrmWire::TextArray: return 1009;
    default: return 0;
  }
}

OrmWire orm_wire_of(const TypeStore& ts, TypeId t) {
  if (!t.valid()) return OrmWire::Dynamic;
  switch (ts.kind(t)) {
    case TypeKind::Nullable: return orm_wire_of(ts, ts.inner(t));
    case TypeKind::Int: return OrmWire::Int8;
    case TypeKind::Float: return OrmWire::Float8;
    case TypeKind::Bool: return OrmWire::Bool;
    case TypeKind::Str: return OrmWire::Text;
    case TypeKind::List: {
      TypeId e = ts.elem(t);
      if (ts.kind(e) == TypeKind::Int) return OrmWire::Int8Array;
      if (ts.kind(e) == TypeKind::Str) return OrmWire::TextArray;
      return OrmWire::Dynamic;
    }
    default: return OrmWire::Dynamic;
  }
}

namespace {

TypeId strip_nullable(const TypeStore& ts, TypeId t) {
  return t.valid() && ts.kind(t) == TypeKind::Nullable ? ts.inner(t) : t;
}

// The type of field `name` of the struct value typed `t`, or invalid.
TypeId field_type(const TypeStore& ts, TypeId t, std::string_view name) {
  t = strip_nullable(ts, t);
  if (!t.valid() || ts.kind(t) != TypeKind::Struct) return TypeId();
  const FieldInfo* f = ts.struct_info(ts.struct_of(t)).field(name);
  return f ? f->type : TypeId();
}

OrmParam typed_param(const TypeStore& ts, const ModuleTir& tir, const orm::SqlParam& sp) {
  OrmParam p;
  p.expr = sp.expr;
  p.form = sp.form;
  p.field = sp.field;
  TypeId t = sp.expr.valid() && sp.expr.index < tir.expr_types.size() ? tir.type_of(sp.expr) : TypeId();
  switch (sp.form) {
    case orm::ParamForm::Value: p.type = t; break;
    case orm::ParamForm::LikeContains:
    case orm::ParamForm::LikePrefix:
    case orm::ParamForm::LikeSuffix: p.type = ts.str(); break;
    case orm::ParamForm::Field: p.type = field_type(ts, t, sp.field); break;
    // Whole columns of a list of rows: one array each, encoded by the db module; `type` is the
    // field's (each element's) type.
    case orm::ParamForm::FieldOfEach:
      if (t.valid() && ts.kind(t) == TypeKind::List) p.type = field_type(ts, ts.elem(t), sp.field);
      p.wire = OrmWire::Dynamic;
      return p;
    case orm::ParamForm::KeysOfRows: p.wire = OrmWire::Dynamic; return p;
  }
  p.wire = orm_wire_of(ts, p.type);
  return p;
}

std::vector<OrmParam> typed_params(const TypeStore& ts, const ModuleTir& tir, const std::vector<orm::SqlParam>& ps) {
  std::vector<OrmParam> out;
  out.reserve(ps.size());
  for (const orm::SqlParam& sp : ps) out.push_back(typed_param(ts, tir, sp));
  return out;
}

void add_decoder(const TypeStore& ts, StructId sid, const orm::TableModel& table, OrmPlans& plans) {
  if (!sid.valid() || plans.decoders.count(sid.index)) return;
  const StructInfo& si = ts.struct_info(sid);
  OrmRowDecoder d;
  d.row = sid;
  for (uint32_t i = 0; i < table.columns.size(); ++i) {
    const orm::Column& col = table.columns[i];
    auto fi = si.field_index.find(col.field);
    if (fi == si.field_index.end()) continue;
    OrmColumnRead r;
    r.column = i;
    r.field = fi->second;
    r.name = col.name;
    TypeId ft = strip_nullable(ts, si.fields[fi->second].type);
    if (col.type == orm::ColumnType::Jsonb) r.reader = OrmColumnRead::Json;
    else if (col.shape.kind == orm::FieldShape::DateTime || col.shape.kind == orm::FieldShape::Date ||
             col.shape.kind == orm::FieldShape::Uuid)
      r.reader = OrmColumnRead::DateTime;  // parsed from the column's text by its type
    TypeKind k = ft.valid() ? ts.kind(ft) : TypeKind::Any;
    r.binary = r.reader == OrmColumnRead::Value && (k == TypeKind::Int || k == TypeKind::Float || k == TypeKind::Bool);
    d.columns.push_back(std::move(r));
  }
  for (uint32_t f = 0; f < si.fields.size(); ++f)
    if (!table.column_of_field(si.fields[f].name) && si.fields[f].has_default) d.defaulted.push_back(f);
  plans.decoders.emplace(sid.index, std::move(d));
}

}  // namespace

OrmPlan typed_orm_plan(const TypedProgram& program, ModuleId module, const orm::PlanResult& r, OrmModels& models,
                       OrmPlans& plans) {
  const TypeStore& ts = *program.types;
  const ModuleTir& tir = program.modules[module.index];
  OrmPlan p;
  p.builder = r.builder;
  p.query = *r.plan;
  const orm::QueryPlan& q = p.query;
  if (q.table) {
    p.row = models.struct_of(q.table);
    add_decoder(ts, p.row, *q.table, plans);
  }
  p.params = typed_params(ts, tir, q.params);
  p.params_without_key = typed_params(ts, tir, q.params_without_key);
  for (const orm::Fragment& f : q.fragments) p.fragment_params.push_back(typed_params(ts, tir, f.params));
  const StructInfo* row_info = p.row.valid() ? &ts.struct_info(p.row) : nullptr;
  for (const orm::Preload& pl : q.preloads) {
    OrmPreload op;
    if (pl.target) {
      op.child = models.struct_of(pl.target);
      if (!op.child.valid()) {
        models.table_named(pl.target->type_name);
        op.child = models.struct_of(pl.target);
      }
      add_decoder(ts, op.child, *pl.target, plans);
    }
    if (row_info)
      if (const FieldInfo* k = row_info->field(pl.key_field)) op.key_type = k->type;
    p.preloads.push_back(op);
  }
  return p;
}

}  // namespace fitz::checker
