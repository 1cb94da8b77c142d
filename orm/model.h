// The table model of one `@table` type: its columns (renamed, typed, keyed), relations and
// indexes, built from the type declaration and the checked shape of each field.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/ast.h"

namespace fitz::orm {

// What a field holds, as the checker resolved its type (the ORM never reads TypeIds).
struct FieldShape {
  enum Kind : uint8_t { Int, Float, Str, Bool, Date, DateTime, Uuid, List, Map, Struct, Other };
  Kind kind = Other;
  Kind elem = Other;        // List: the element's kind
  bool nullable = false;
  std::string struct_name;  // Struct, or a List of Struct
};

enum class ColumnType : uint8_t {
  BigInt, Double, Text, Boolean, Date, Timestamptz, Uuid, BigIntArray, DoubleArray, TextArray,
  BoolArray, Jsonb,
};
std::string_view sql_type_name(ColumnType t);

struct Column {
  std::string field;        // the Fitz field name
  std::string name;         // the column name (`@column(name=)` renames)
  ColumnType type = ColumnType::Text;
  FieldShape shape;
  uint32_t field_index = 0;
  bool nullable = false;
  bool primary = false;
  bool unique = false;
  bool db_default = false;  // left out of INSERT, filled from RETURNING
  std::string default_sql;  // `@db_default("NOW()")`: DEFAULT in migrations
  bool hidden = false;
  frontend::Span span;
};

enum class RelationKind : uint8_t { BelongsTo, HasMany, HasOne };

struct Relation {
  RelationKind kind = RelationKind::HasMany;
  std::string field;   // has_many/has_one: the virtual field; belongs_to: the FK column's field
  std::string target;  // the related type's name
  std::string key;     // has_*: `via` (the child's FK column); belongs_to: the FK column
  // Foreign-key actions, spelled as written (`cascade`, `set_null`, ...). On a has_* relation,
  // `on_delete` is the action of the child's `@belongs_to` column (see fk_on_delete).
  std::string on_delete, on_update;
  uint32_t field_index = 0;
  frontend::Span span;  // the decorator
};

struct Index {
  std::vector<std::string> columns;  // column names
  bool unique = false;
  std::string name;
  std::string where;
  std::string method;  // `using=`
};

// A struct-typed field beside a `@belongs_to` column (`user: User?`): not a column; it names
// the parent for preloading and for navigation (`post.user(db)`).
struct ParentField {
  std::string field;
  std::string target;  // the struct's type name
};

struct TableModel {
  std::string type_name;
  std::string schema;  // empty: the search path's
  std::string name;
  std::vector<Column> columns;     // in field order; virtual fields are not columns
  std::vector<Relation> relations;
  std::vector<Index> indexes;
  std::vector<ParentField> parents;

  const Column* column_of_field(std::string_view field) const;
  const Relation* relation_of_field(std::string_view field) const;
  // `"schema"."name"` or `"name"`.
  std::string qualified_name() const;
  // The `@primary` columns (several for a composite key).
  std::vector<const Column*> primary_key() const;
};

struct ModelError {
  frontend::Span span;
  std::string message;
};

// The ON DELETE action of a `@belongs_to` relation of `child`: its own `on_delete=`, else the
// one given by the parent's `@has_many`/`@has_one` whose `via` names that column. Empty: none.
std::string fk_on_delete(const TableModel& child, const Relation& belongs_to, const TableModel* parent);
// The `@has_many`/`@has_one` of `parent` whose `via` names the `@belongs_to` column of `child`.
const Relation* inverse_relation(const TableModel& child, const Relation& belongs_to, const TableModel& parent);

// The SQL of a foreign-key action (`set_null` or `SET NULL` -> `SET NULL`), or nullopt.
std::optional<std::string> fk_action_sql(std::string_view action);

// Quotes an identifier for SQL text: `"name"` with embedded quotes doubled.
std::string quote_ident(std::string_view name);
bool is_table(const frontend::TypeDecl& decl);

// `shapes` holds one entry per field of `decl`, in order.
TableModel build_table(const frontend::Ast& ast, const frontend::TypeDecl& decl,
                       std::span<const FieldShape> shapes, std::vector<ModelError>& errors);

}  // namespace fitz::orm
