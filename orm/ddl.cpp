// CREATE TABLE / ALTER TABLE ADD COLUMN / CREATE INDEX statements from table models, diffed
// against a live schema. Identifiers are quoted; DEFAULT and index WHERE texts come from the
// program's own decorators (`@db_default("NOW()")`, `@index(where_=...)`), never from users.
#include "orm/ddl.h"

#include <fmt/format.h>

#include <algorithm>

namespace fitz::orm {

namespace {

std::string zero_default(const Column& c) {
  switch (c.type) {
    case ColumnType::BigInt: case ColumnType::Double: return "0";
    case ColumnType::Text: return "''";
    case ColumnType::Boolean: return "false";
    case ColumnType::Jsonb: return "'{}'::jsonb";
    case ColumnType::BigIntArray: case ColumnType::DoubleArray: case ColumnType::TextArray: case ColumnType::BoolArray:
      return "'{}'";
    default: return "";
  }
}

bool serial_key(const TableModel& t, const Column& c) {
  return c.primary && c.type == ColumnType::BigInt && t.primary_key().size() == 1;
}

std::string column_def(const TableModel& t, const Column& c, bool adding) {
  std::string s = quote_ident(c.name) + " " + (serial_key(t, c) ? "bigserial" : std::string(sql_type_name(c.type)));
  if (!c.nullable && !serial_key(t, c)) s += " NOT NULL";
  if (!c.default_sql.empty()) s += " DEFAULT " + c.default_sql;
  else if (c.db_default && c.type == ColumnType::Timestamptz) s += " DEFAULT now()";
  else if (adding && !c.nullable && !serial_key(t, c)) {
    std::string z = zero_default(c);
    if (!z.empty()) s += " DEFAULT " + z;
  }
  if (c.unique && !c.primary) s += " UNIQUE";
  return s;
}

std::string schema_of(const TableModel& t) { return t.schema.empty() ? "public" : t.schema; }

}  // namespace

std::string index_name(const TableModel& t, const Index& ix) {
  if (!ix.name.empty()) return ix.name;
  std::string n = t.name;
  for (const std::string& c : ix.columns) n += "_" + c;
  return n + (ix.unique ? "_key" : "_idx");
}

std::string create_table_sql(const TableModel& t, const std::function<const TableModel*(std::string_view)>& table_of) {
  std::vector<std::string> parts;
  for (const Column& c : t.columns) parts.push_back(column_def(t, c, false));
  auto pk = t.primary_key();
  if (!pk.empty()) {
    std::string cols;
    for (const Column* c : pk) cols += (cols.empty() ? "" : ", ") + quote_ident(c->name);
    parts.push_back("PRIMARY KEY (" + cols + ")");
  }
  for (const Relation& r : t.relations) {
    if (r.kind != RelationKind::BelongsTo) continue;
    const TableModel* target = table_of ? table_of(r.target) : nullptr;
    if (!target || target->primary_key().size() != 1) continue;
    std::string fk = fmt::format("FOREIGN KEY ({}) REFERENCES {} ({})", quote_ident(r.key), target->qualified_name(),
                                 quote_ident(target->primary_key()[0]->name));
    // ON DELETE from the column's own `on_delete=`, else from the parent's `@has_many`/`@has_one`.
    if (auto a = fk_action_sql(fk_on_delete(t, r, target))) fk += " ON DELETE " + *a;
    if (auto a = fk_action_sql(r.on_update)) fk += " ON UPDATE " + *a;
    parts.push_back(fk);
  }
  std::string body;
  for (size_t i = 0; i < parts.size(); ++i) body += (i ? ",\n  " : "\n  ") + parts[i];
  return fmt::format("CREATE TABLE {} ({}\n)", t.qualified_name(), body);
}

SchemaDiff diff_schema(const std::vector<const TableModel*>& models, const LiveSchema& live) {
  SchemaDiff d;
  auto table_of = [&](std::string_view type_name) -> const TableModel* {
    for (const TableModel* m : models)
      if (m->type_name == type_name) return m;
    return nullptr;
  };
  std::vector<std::string> schemas = live.schemas;
  for (const TableModel* t : models) {
    std::string schema = schema_of(*t);
    if (std::find(schemas.begin(), schemas.end(), schema) == schemas.end()) {
      d.statements.push_back("CREATE SCHEMA IF NOT EXISTS " + quote_ident(schema));
      d.down.push_back("DROP SCHEMA IF EXISTS " + quote_ident(schema));
      schemas.push_back(schema);
    }
    auto lt = std::find_if(live.tables.begin(), live.tables.end(),
                           [&](const LiveTable& x) { return x.schema == schema && x.name == t->name; });
    if (lt == live.tables.end()) {
      d.statements.push_back(create_table_sql(*t, table_of));
      d.down.push_back("DROP TABLE IF EXISTS " + t->qualified_name());
    } else {
      for (const Column& c : t->columns) {
        auto lc = std::find_if(lt->columns.begin(), lt->columns.end(), [&](const LiveColumn& x) { return x.name == c.name; });
        if (lc == lt->columns.end()) {
          d.statements.push_back(fmt::format("ALTER TABLE {} ADD COLUMN {}", t->qualified_name(), column_def(*t, c, true)));
          d.down.push_back(fmt::format("ALTER TABLE {} DROP COLUMN IF EXISTS {}", t->qualified_name(), quote_ident(c.name)));
          continue;
        }
        if (lc->nullable != c.nullable && !c.primary)
          d.notes.push_back(fmt::format("column {}.{} is {} in the database but {} in `{}` (left alone)", t->name, c.name,
                                        lc->nullable ? "nullable" : "NOT NULL", c.nullable ? "nullable" : "not nullable",
                                        t->type_name));
      }
      for (const LiveColumn& lc : lt->columns)
        if (std::none_of(t->columns.begin(), t->columns.end(), [&](const Column& c) { return c.name == lc.name; })) {
          d.notes.push_back(fmt::format("column {}.{} is not in `{}`; dropping it is destructive (left alone)", t->name,
                                        lc.name, t->type_name));
          d.destructive.push_back(fmt::format("ALTER TABLE {} DROP COLUMN {}", t->qualified_name(), quote_ident(lc.name)));
        }
    }
    for (const Index& ix : t->indexes) {
      std::string name = index_name(*t, ix);
      if (std::find(live.indexes.begin(), live.indexes.end(), name) != live.indexes.end()) continue;
      std::string cols;
      for (const std::string& c : ix.columns) cols += (cols.empty() ? "" : ", ") + quote_ident(c);
      std::string s = fmt::format("CREATE {}INDEX IF NOT EXISTS {} ON {}{} ({})", ix.unique ? "UNIQUE " : "",
                                  quote_ident(name), t->qualified_name(),
                                  ix.method.empty() ? "" : " USING " + quote_ident(ix.method), cols);
      if (!ix.where.empty()) s += " WHERE " + ix.where;
      d.statements.push_back(std::move(s));
      std::string qualified = t->schema.empty() ? quote_ident(name) : quote_ident(t->schema) + "." + quote_ident(name);
      d.down.push_back("DROP INDEX IF EXISTS " + qualified);
    }
  }
  std::reverse(d.down.begin(), d.down.end());
  return d;
}

}  // namespace fitz::orm
