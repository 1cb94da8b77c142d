// `fitz db inspect`: the live schema as the server's catalog describes it (pg_catalog, not the
// @table types): tables, columns with their types, nullability and defaults, indexes and
// foreign keys, as text or as JSON. Tables, indexes and foreign keys are sorted by name (byte
// order, not the database's collation) and columns keep their position, so the JSON of an
// unchanged schema is byte-for-byte the same. Names to filter on travel as parameters.
#include <algorithm>
#include <map>
#include <ostream>

#include "cli/cmd_db_internal.h"

namespace fitz::cli::db {

namespace {

struct Column {
  std::string name, type;
  bool nullable = true;
  std::optional<std::string> default_sql;
};

struct IndexInfo {
  std::string name, definition;
  std::vector<std::string> columns;  // key columns or expressions
  bool unique = false, primary = false;
};

struct ForeignKey {
  std::string name, ref_schema, ref_table, on_delete, on_update;
  std::vector<std::string> columns, ref_columns;
};

struct Table {
  std::string schema, name;
  std::vector<Column> columns;
  std::vector<IndexInfo> indexes;
  std::vector<ForeignKey> foreign_keys;
};

// The WHERE conditions of the options on the namespace `n` and the table `c`, with their values.
struct Filter {
  std::string sql;
  std::vector<pg::Param> params;
};

Filter filter_of(const Options& o) {
  Filter f;
  std::string schema = o.schema, table = o.table;
  if (auto dot = table.find('.'); dot != std::string::npos) {
    schema = table.substr(0, dot);
    table = table.substr(dot + 1);
  }
  if (o.all_schemas && schema.empty()) {
    // pg_ names are reserved for the system (pg_catalog, pg_toast, pg_temp_N).
    f.sql = " AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%'";
  } else {
    f.params.push_back(pg::Param::text(schema.empty() ? "public" : schema));
    f.sql = " AND n.nspname = $1";
  }
  if (!table.empty()) {
    f.params.push_back(pg::Param::text(table));
    f.sql += " AND c.relname = $" + std::to_string(f.params.size());
  }
  return f;
}

std::vector<std::string> text_array(const pg::Row& row, std::string_view column) {
  std::vector<std::string> out;
  if (auto a = row.get<pg::TextArray>(column))
    for (const auto& v : *a) out.push_back(v.value_or(""));
  return out;
}

std::string action_name(std::string_view code) {
  if (code == "r") return "restrict";
  if (code == "c") return "cascade";
  if (code == "n") return "set null";
  if (code == "d") return "set default";
  return "no action";
}

pg::Result<std::vector<Table>> read_catalog(pg::BlockingConnection& conn, const Options& o) {
  Filter f = filter_of(o);
  std::map<std::pair<std::string, std::string>, Table> tables;
  auto table = [&](const pg::Row& r) -> Table& {
    std::string s = text_of(r, "s"), t = text_of(r, "t");
    Table& x = tables[{s, t}];
    x.schema = s;
    x.name = t;
    return x;
  };
  auto cols = conn.query(
      "SELECT n.nspname::text AS s, c.relname::text AS t, a.attname::text AS c, "
      "format_type(a.atttypid, a.atttypmod) AS ty, (NOT a.attnotnull)::text AS nullable, "
      "pg_get_expr(d.adbin, d.adrelid) AS def "
      "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
      "LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped "
      "LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum "
      "WHERE c.relkind IN ('r', 'p')" + f.sql + " ORDER BY 1, 2, a.attnum",
      f.params, {pg::Format::Text});
  if (!cols) return cols.error();
  for (size_t i = 0; i < cols->size(); ++i) {
    pg::Row r = cols->row(i);
    Table& t = table(r);
    if (text_of(r, "c").empty()) continue;  // a table without columns
    auto def = r.get<std::optional<std::string>>("def");
    t.columns.push_back(Column{text_of(r, "c"), text_of(r, "ty"), text_of(r, "nullable") == "true",
                               def ? *def : std::optional<std::string>()});
  }
  auto idx = conn.query(
      "SELECT n.nspname::text AS s, c.relname::text AS t, i.relname::text AS name, x.indisunique::text AS u, "
      "x.indisprimary::text AS p, pg_get_indexdef(x.indexrelid) AS def, "
      "ARRAY(SELECT pg_get_indexdef(x.indexrelid, k, true) FROM generate_series(1, x.indnkeyatts) AS k ORDER BY k) "
      "AS cols "
      "FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class c ON c.oid = x.indrelid "
      "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p')" + f.sql,
      f.params, {pg::Format::Text});
  if (!idx) return idx.error();
  for (size_t i = 0; i < idx->size(); ++i) {
    pg::Row r = idx->row(i);
    table(r).indexes.push_back(IndexInfo{text_of(r, "name"), text_of(r, "def"), text_array(r, "cols"),
                                         text_of(r, "u") == "true", text_of(r, "p") == "true"});
  }
  auto fks = conn.query(
      "SELECT n.nspname::text AS s, c.relname::text AS t, k.conname::text AS name, "
      "ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY AS u(num, ord) JOIN pg_attribute a "
      "ON a.attrelid = k.conrelid AND a.attnum = u.num ORDER BY u.ord) AS cols, "
      "rn.nspname::text AS rs, rc.relname::text AS rt, "
      "ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY AS u(num, ord) JOIN pg_attribute a "
      "ON a.attrelid = k.confrelid AND a.attnum = u.num ORDER BY u.ord) AS rcols, "
      "k.confdeltype::text AS del, k.confupdtype::text AS upd "
      "FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
      "JOIN pg_class rc ON rc.oid = k.confrelid JOIN pg_namespace rn ON rn.oid = rc.relnamespace "
      "WHERE k.contype = 'f' AND c.relkind IN ('r', 'p')" + f.sql,
      f.params, {pg::Format::Text});
  if (!fks) return fks.error();
  for (size_t i = 0; i < fks->size(); ++i) {
    pg::Row r = fks->row(i);
    table(r).foreign_keys.push_back(ForeignKey{text_of(r, "name"), text_of(r, "rs"), text_of(r, "rt"),
                                               action_name(text_of(r, "del")), action_name(text_of(r, "upd")),
                                               text_array(r, "cols"), text_array(r, "rcols")});
  }
  std::vector<Table> out;
  for (auto& [key, t] : tables) {
    std::sort(t.indexes.begin(), t.indexes.end(), [](const IndexInfo& a, const IndexInfo& b) { return a.name < b.name; });
    std::sort(t.foreign_keys.begin(), t.foreign_keys.end(),
              [](const ForeignKey& a, const ForeignKey& b) { return a.name < b.name; });
    out.push_back(std::move(t));
  }
  return out;
}

// ---- JSON -----------------------------------------------------------------------------------

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          static const char* hex = "0123456789abcdef";
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

std::string json_strings(const std::vector<std::string>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + json_string(v[i]);
  return out + "]";
}

void write_json(const std::vector<Table>& tables, std::ostream& out) {
  out << "{\"tables\": [";
  for (size_t ti = 0; ti < tables.size(); ++ti) {
    const Table& t = tables[ti];
    out << (ti ? "," : "") << "\n  {\"schema\": " << json_string(t.schema) << ", \"name\": " << json_string(t.name)
        << ",\n   \"columns\": [";
    for (size_t i = 0; i < t.columns.size(); ++i) {
      const Column& c = t.columns[i];
      out << (i ? "," : "") << "\n     {\"name\": " << json_string(c.name) << ", \"type\": " << json_string(c.type)
          << ", \"nullable\": " << (c.nullable ? "true" : "false")
          << ", \"default\": " << (c.default_sql ? json_string(*c.default_sql) : "null") << "}";
    }
    std::vector<std::string> primary;
    for (const IndexInfo& ix : t.indexes)
      if (ix.primary) primary = ix.columns;
    out << "],\n   \"primary_key\": " << json_strings(primary) << ",\n   \"indexes\": [";
    for (size_t i = 0; i < t.indexes.size(); ++i) {
      const IndexInfo& ix = t.indexes[i];
      out << (i ? "," : "") << "\n     {\"name\": " << json_string(ix.name) << ", \"columns\": " << json_strings(ix.columns)
          << ", \"unique\": " << (ix.unique ? "true" : "false") << ", \"primary\": " << (ix.primary ? "true" : "false")
          << ", \"definition\": " << json_string(ix.definition) << "}";
    }
    out << "],\n   \"foreign_keys\": [";
    for (size_t i = 0; i < t.foreign_keys.size(); ++i) {
      const ForeignKey& fk = t.foreign_keys[i];
      out << (i ? "," : "") << "\n     {\"name\": " << json_string(fk.name) << ", \"columns\": " << json_strings(fk.columns)
          << ", \"references\": {\"schema\": " << json_string(fk.ref_schema) << ", \"table\": " << json_string(fk.ref_table)
          << ", \"columns\": " << json_strings(fk.ref_columns) << "}, \"on_delete\": " << json_string(fk.on_delete)
          << ", \"on_update\": " << json_string(fk.on_update) << "}";
    }
    out << "]}";
  }
  out << (tables.empty() ? "" : "\n") << "]}\n";
}

// ---- text -----------------------------------------------------------------------------------

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string padded(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

void write_text(const std::vector<Table>& tables, std::ostream& out) {
  for (size_t ti = 0; ti < tables.size(); ++ti) {
    const Table& t = tables[ti];
    out << (ti ? "\n" : "") << "table " << t.schema << "." << t.name << "\n";
    size_t name_w = 0, type_w = 0;
    for (const Column& c : t.columns) {
      name_w = std::max(name_w, c.name.size());
      type_w = std::max(type_w, c.type.size());
    }
    for (const Column& c : t.columns) {
      std::string line = "  " + padded(c.name, name_w) + "  " + padded(c.type, type_w) + "  " +
                         (c.nullable ? "null    " : "not null");
      if (c.default_sql) line += "  default " + *c.default_sql;
      line.erase(line.find_last_not_of(' ') + 1);
      out << line << "\n";
    }
    for (const IndexInfo& ix : t.indexes)
      if (ix.primary) out << "  primary key (" << joined(ix.columns) << ")\n";
    for (const IndexInfo& ix : t.indexes)
      if (!ix.primary)
        out << "  " << (ix.unique ? "unique index " : "index ") << ix.name << " (" << joined(ix.columns) << ")\n";
    for (const ForeignKey& fk : t.foreign_keys) {
      out << "  foreign key " << fk.name << " (" << joined(fk.columns) << ") references " << fk.ref_schema << "."
          << fk.ref_table << " (" << joined(fk.ref_columns) << ")";
      if (fk.on_delete != "no action") out << " on delete " << fk.on_delete;
      if (fk.on_update != "no action") out << " on update " << fk.on_update;
      out << "\n";
    }
  }
}

}  // namespace

int run_inspect(const Options& o, pg::BlockingConnection& conn, Io io) {
  auto tables = read_catalog(conn, o);
  if (!tables) return fail(tables.error(), io);
  if (tables->empty() && !o.table.empty()) {
    io.err << "error: no table `" << o.table << "`"
           << (o.table.find('.') == std::string::npos ? " in schema " + (o.schema.empty() ? std::string("public") : o.schema)
                                                      : std::string())
           << "\n";
    return kUserError;
  }
  if (tables->empty() && !o.schema.empty()) {
    std::vector<pg::Param> p{pg::Param::text(o.schema)};
    auto present = conn.query("SELECT count(*)::text AS n FROM pg_namespace WHERE nspname = $1", p, {pg::Format::Text});
    if (!present) return fail(present.error(), io);
    if (text_of(present->row(0), "n") == "0") {
      io.err << "error: no schema `" << o.schema << "` in the database\n";
      return kUserError;
    }
  }
  if (o.json) {
    write_json(*tables, io.out);
  } else if (tables->empty()) {
    io.out << "no tables in " << (o.all_schemas ? std::string("any schema") : "schema " + (o.schema.empty() ? std::string("public") : o.schema))
           << "\n";
  } else {
    write_text(*tables, io.out);
  }
  return kOk;
}

}  // namespace fitz::cli::db
