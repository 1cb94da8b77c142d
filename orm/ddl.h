// Schema DDL from table models: what `fitz db diff` and `fitz db migrate` print and apply. The
// live schema is passed in as data (read from information_schema by the caller), so the diff is
// a pure function. Only additive changes are generated; anything destructive is reported.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "orm/model.h"

namespace fitz::orm {

struct LiveColumn {
  std::string name;
  std::string data_type;  // information_schema.columns.data_type
  bool nullable = true;
};

struct LiveTable {
  std::string schema;  // "public" for unqualified tables
  std::string name;
  std::vector<LiveColumn> columns;
};

struct LiveSchema {
  std::vector<LiveTable> tables;
  std::vector<std::string> schemas;  // existing schema names
  std::vector<std::string> indexes;  // existing index names (pg_indexes.indexname)
};

struct SchemaDiff {
  std::vector<std::string> statements;   // in the order to run them
  std::vector<std::string> down;         // undoes `statements` (DROP ... IF EXISTS), in the order to run them
  std::vector<std::string> destructive;  // DROP COLUMN of live columns no type declares, run only on request
  std::vector<std::string> notes;        // differences left alone (destructive or type changes)
};

// The name an index gets when `@index` does not give one: <table>_<col>_..._idx (or _key).
std::string index_name(const TableModel& t, const Index& ix);
// CREATE TABLE for one model (columns, primary key, unique columns, foreign keys to models
// found by `table_of`).
std::string create_table_sql(const TableModel& t, const std::function<const TableModel*(std::string_view)>& table_of);
SchemaDiff diff_schema(const std::vector<const TableModel*>& models, const LiveSchema& live);

}  // namespace fitz::orm
