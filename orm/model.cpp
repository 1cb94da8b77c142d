// Table models from `@table` type declarations. The decorators were validated for placement and
// argument count by the checker; this file reads their values and the field shapes.
#include "orm/model.h"

#include <fmt/format.h>

#include <cctype>

#include "checker/decorators.h"
#include "frontend/decorator_args.h"

namespace fitz::orm {

using namespace frontend;
using checker::DecoratorKind;

std::string_view sql_type_name(ColumnType t) {
  switch (t) {
    case ColumnType::BigInt: return "bigint";
    case ColumnType::Double: return "double precision";
    case ColumnType::Text: return "text";
    case ColumnType::Boolean: return "boolean";
    case ColumnType::Date: return "date";
    case ColumnType::Timestamptz: return "timestamptz";
    case ColumnType::Uuid: return "uuid";
    case ColumnType::BigIntArray: return "bigint[]";
    case ColumnType::DoubleArray: return "double precision[]";
    case ColumnType::TextArray: return "text[]";
    case ColumnType::BoolArray: return "boolean[]";
    case ColumnType::Jsonb: return "jsonb";
  }
  return "text";
}

std::string quote_ident(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

bool is_table(const TypeDecl& decl) { return checker::find_decorator(decl.decorators, DecoratorKind::Table) != nullptr; }

const Column* TableModel::column_of_field(std::string_view field) const {
  for (const Column& c : columns)
    if (c.field == field) return &c;
  return nullptr;
}

const Relation* TableModel::relation_of_field(std::string_view field) const {
  for (const Relation& r : relations)
    if (r.field == field) return &r;
  return nullptr;
}

std::string TableModel::qualified_name() const {
  return schema.empty() ? quote_ident(name) : quote_ident(schema) + "." + quote_ident(name);
}

std::vector<const Column*> TableModel::primary_key() const {
  std::vector<const Column*> out;
  for (const Column& c : columns)
    if (c.primary) out.push_back(&c);
  return out;
}

namespace {

std::optional<ColumnType> scalar_type(FieldShape::Kind k) {
  switch (k) {
    case FieldShape::Int: return ColumnType::BigInt;
    case FieldShape::Float: return ColumnType::Double;
    case FieldShape::Str: return ColumnType::Text;
    case FieldShape::Bool: return ColumnType::Boolean;
    case FieldShape::Date: return ColumnType::Date;
    case FieldShape::DateTime: return ColumnType::Timestamptz;
    case FieldShape::Uuid: return ColumnType::Uuid;
    case FieldShape::Map: return ColumnType::Jsonb;
    default: return std::nullopt;
  }
}

std::optional<ColumnType> array_type(FieldShape::Kind k) {
  switch (k) {
    case FieldShape::Int: return ColumnType::BigIntArray;
    case FieldShape::Float: return ColumnType::DoubleArray;
    case FieldShape::Str: return ColumnType::TextArray;
    case FieldShape::Bool: return ColumnType::BoolArray;
    default: return std::nullopt;
  }
}

std::optional<std::string> kwarg_str(const Ast& ast, const Decorator& d, std::string_view key) {
  for (const DecoratorArg& a : d.args)
    if (a.name && a.name->text == key) return frontend::plain_string_literal(ast, a.value);
  return std::nullopt;
}

bool kwarg_true(const Ast& ast, const Decorator& d, std::string_view key) {
  for (const DecoratorArg& a : d.args)
    if (a.name && a.name->text == key)
      if (auto* b = std::get_if<BoolLit>(&ast.get(a.value).data)) return b->value;
  return false;
}

const DecoratorArg* positional(const Decorator& d, size_t n) {
  size_t i = 0;
  for (const DecoratorArg& a : d.args)
    if (!a.name && i++ == n) return &a;
  return nullptr;
}

// Field names of an `@index`/`@unique` argument: "a", or ["a", "b"], or several positionals.
std::vector<std::string> name_list(const Ast& ast, const Decorator& d) {
  std::vector<std::string> out;
  for (const DecoratorArg& a : d.args) {
    if (a.name) continue;
    if (auto s = frontend::plain_string_literal(ast, a.value)) out.push_back(*s);
    else if (auto* l = std::get_if<ListExpr>(&ast.get(a.value).data))
      for (ExprId x : l->elems)
        if (auto s2 = frontend::plain_string_literal(ast, x)) out.push_back(*s2);
  }
  return out;
}

}  // namespace

TableModel build_table(const Ast& ast, const TypeDecl& decl, std::span<const FieldShape> shapes,
                       std::vector<ModelError>& errors) {
  TableModel t;
  t.type_name = std::string(decl.name.text);
  if (const Decorator* d = checker::find_decorator(decl.decorators, DecoratorKind::Table)) {
    const DecoratorArg* a = positional(*d, 0);
    std::string full = a ? frontend::plain_string_literal(ast, a->value).value_or("") : "";
    if (auto dot = full.find('.'); dot != std::string::npos) {
      t.schema = full.substr(0, dot);
      t.name = full.substr(dot + 1);
    } else {
      t.name = full;
    }
    if (t.name.empty()) errors.push_back({d->span, "`@table` needs a table name"});
  }
  for (uint32_t i = 0; i < decl.fields.size() && i < shapes.size(); ++i) {
    const FieldDecl& f = decl.fields[i];
    const FieldShape& shape = shapes[i];
    const auto& ds = f.decorators;
    std::string field(f.name.text);
    const Decorator* has_many = checker::find_decorator(ds, DecoratorKind::HasMany);
    const Decorator* has_one = checker::find_decorator(ds, DecoratorKind::HasOne);
    if (has_many || has_one) {
      const Decorator& d = has_many ? *has_many : *has_one;
      Relation r;
      r.kind = has_many ? RelationKind::HasMany : RelationKind::HasOne;
      r.field = field;
      r.field_index = i;
      const DecoratorArg* a = positional(d, 0);
      r.target = a ? frontend::plain_string_literal(ast, a->value).value_or("") : "";
      r.key = kwarg_str(ast, d, "via").value_or("");
      r.span = d.span;
      if (r.key.empty()) errors.push_back({d.span, fmt::format("`@{}` needs `via=\"fk_column\"`", d.name.text)});
      if (auto od = kwarg_str(ast, d, "on_delete")) {
        r.on_delete = *od;
        if (r.on_delete != "cascade" && r.on_delete != "set_null" && r.on_delete != "restrict")
          errors.push_back({d.span, fmt::format("`@{}(on_delete=\"{}\")` is not an action; use \"cascade\", "
                                                "\"set_null\" or \"restrict\"",
                                                d.name.text, r.on_delete)});
      }
      t.relations.push_back(std::move(r));
      continue;
    }
    // A struct-typed sibling of a `@belongs_to` column is the preloadable parent: not a column.
    if (shape.kind == FieldShape::Struct || (shape.kind == FieldShape::List && shape.elem == FieldShape::Struct)) {
      if (shape.kind == FieldShape::Struct) t.parents.push_back(ParentField{field, shape.struct_name});
      continue;
    }
    Column c;
    c.field = field;
    c.field_index = i;
    c.shape = shape;
    c.span = f.name.span;
    c.nullable = shape.nullable;
    if (const Decorator* d = checker::find_decorator(ds, DecoratorKind::Column))
      if (auto n = kwarg_str(ast, *d, "name")) c.name = *n;
    if (c.name.empty()) c.name = field;
    std::optional<ColumnType> ct = shape.kind == FieldShape::List ? array_type(shape.elem) : scalar_type(shape.kind);
    if (!ct) {
      errors.push_back({f.name.span, fmt::format("field `{}` of table type `{}` has no column type (use Int, Float, "
                                                 "Str, Bool, Date, DateTime, Uuid, a List of those or a Map)",
                                                 field, t.type_name)});
      ct = ColumnType::Text;
    }
    c.type = *ct;
    c.primary = checker::find_decorator(ds, DecoratorKind::Primary) != nullptr;
    if (c.primary && shape.kind != FieldShape::Int && shape.kind != FieldShape::Str)
      errors.push_back({f.name.span, fmt::format("`@primary` field `{}` must be `Int` or `Str`", field)});
    if (const Decorator* d = checker::find_decorator(ds, DecoratorKind::DbDefault)) {
      c.db_default = true;
      if (const DecoratorArg* a = positional(*d, 0)) c.default_sql = frontend::plain_string_literal(ast, a->value).value_or("");
    }
    c.hidden = checker::find_decorator(ds, DecoratorKind::Hidden) != nullptr;
    if (const Decorator* d = checker::find_decorator(ds, DecoratorKind::Unique)) {
      c.unique = true;
      (void)d;
    }
    if (const Decorator* d = checker::find_decorator(ds, DecoratorKind::Index)) {
      Index ix;
      ix.columns = {c.name};
      ix.unique = kwarg_true(ast, *d, "unique");
      ix.name = kwarg_str(ast, *d, "name").value_or("");
      ix.where = kwarg_str(ast, *d, "where_").value_or("");
      ix.method = kwarg_str(ast, *d, "using").value_or("");
      t.indexes.push_back(std::move(ix));
    }
    if (const Decorator* d = checker::find_decorator(ds, DecoratorKind::BelongsTo)) {
      Relation r;
      r.kind = RelationKind::BelongsTo;
      r.field = field;
      r.field_index = i;
      const DecoratorArg* a = positional(*d, 0);
      r.target = a ? frontend::plain_string_literal(ast, a->value).value_or("") : "";
      r.key = c.name;
      r.on_delete = kwarg_str(ast, *d, "on_delete").value_or("");
      r.on_update = kwarg_str(ast, *d, "on_update").value_or("");
      r.span = d->span;
      for (const std::string* a : {&r.on_delete, &r.on_update})
        if (!a->empty() && !fk_action_sql(*a))
          errors.push_back({d->span, fmt::format("`@belongs_to({}=\"{}\")` is not an action; use \"cascade\", "
                                                 "\"set_null\", \"restrict\", \"set_default\" or \"no_action\"",
                                                 a == &r.on_delete ? "on_delete" : "on_update", *a)});
      t.relations.push_back(std::move(r));
    }
    t.columns.push_back(std::move(c));
  }
  // Type-level indexes and unique constraints name fields; they are stored as column names.
  auto to_columns = [&](const Decorator& d, std::vector<std::string> fields) {
    std::vector<std::string> cols;
    for (const std::string& fname : fields) {
      if (const Column* c = t.column_of_field(fname)) cols.push_back(c->name);
      else errors.push_back({d.span, fmt::format("`@{}` names `{}`, which is not a column of `{}`", d.name.text, fname,
                                                 t.type_name)});
    }
    return cols;
  };
  for (const Decorator& d : decl.decorators) {
    bool unique = checker::is_decorator(d, DecoratorKind::Unique);
    if (!unique && !checker::is_decorator(d, DecoratorKind::Index)) continue;
    Index ix;
    ix.columns = to_columns(d, name_list(ast, d));
    if (ix.columns.empty()) continue;
    ix.unique = unique || kwarg_true(ast, d, "unique");
    ix.name = kwarg_str(ast, d, "name").value_or("");
    ix.where = kwarg_str(ast, d, "where_").value_or("");
    ix.method = kwarg_str(ast, d, "using").value_or("");
    t.indexes.push_back(std::move(ix));
  }
  return t;
}

const Relation* inverse_relation(const TableModel& child, const Relation& belongs_to, const TableModel& parent) {
  for (const Relation& r : parent.relations) {
    if (r.kind == RelationKind::BelongsTo || r.target != child.type_name) continue;
    const Column* via = child.column_of_field(r.key);
    if (!via)
      for (const Column& c : child.columns)
        if (c.name == r.key) via = &c;
    if (via && via->field == belongs_to.field) return &r;
  }
  return nullptr;
}

std::string fk_on_delete(const TableModel& child, const Relation& belongs_to, const TableModel* parent) {
  if (!belongs_to.on_delete.empty() || !parent) return belongs_to.on_delete;
  const Relation* inv = inverse_relation(child, belongs_to, *parent);
  return inv ? inv->on_delete : std::string();
}

std::optional<std::string> fk_action_sql(std::string_view action) {
  std::string up(action);
  for (char& ch : up) ch = ch == '_' ? ' ' : char(std::toupper(static_cast<unsigned char>(ch)));
  for (const char* a : {"CASCADE", "RESTRICT", "SET NULL", "SET DEFAULT", "NO ACTION"})
    if (up == a) return up;
  return std::nullopt;
}

}  // namespace fitz::orm
