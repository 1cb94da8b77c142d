// Running the ORM's compiled queries: each generated call passes one constant SQL string, its
// parameters as values (never spliced into the text) and a row decoder the code generator
// wrote for the table's struct. Everything goes through the `db` module's DbConn (fitz/db.h),
// so this header stays free of Boost. The calls that are not templates (coroutines, which GCC
// would emit in every program at -O0) are defined in runtime/pg/fitz_db_orm.cpp.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fitz/any.h"
#include "fitz/eq.h"
#include "fitz/list.h"
#include "fitz/map.h"
#include "fitz/orm_wire.h"
#include "fitz/result.h"
#include "fitz/str.h"
#include "fitz/task.h"

namespace fitz::orm {

// How a LIKE parameter is built from a Str: its wildcards escaped (`\` is Postgres's default
// LIKE escape), then wrapped.
enum class Like : int { Contains, Prefix, Suffix };

inline Str like_param(const Str& v, Like form) {
  std::vector<char> out;
  out.reserve(v.size() + 4);
  if (form != Like::Prefix) out.push_back('%');
  for (size_t i = 0; i < v.size(); ++i) {
    char c = v.data()[i];
    if (c == '%' || c == '_' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  if (form != Like::Suffix) out.push_back('%');
  return Str(out.data(), out.size());
}

// The rows of `sql` as DbRow values.
Task<Result<List<Any>, Str>> rows(Any conn, const char* sql, List<Any> params, SourcePos pos);

// A column of a DbRow converted to the field's type (a type mismatch is a runtime error that
// names the column).
template <class T> T column(const Any& row, const char* name, SourcePos pos) {
  Any args[1] = {Any(Str(name))};
  return from_any<T>(any_method_n(row, "get", args, 1, pos), pos);
}

// A timestamptz column read into a `DateTime` field (the driver hands DbRow cells over as text).
template <class T> T datetime_column(const Any& row, const char* name, SourcePos pos) {
  Any args[1] = {Any(Str(name))};
  return from_any<T>(any_method_n(row, "orm_datetime", args, 1, pos), pos);
}

template <class T, class Decode>
Task<Result<List<T>, Str>> all(Any conn, const char* sql, List<Any> params, Decode decode, SourcePos pos) {
  using R = Result<List<T>, Str>;
  auto r = co_await rows(std::move(conn), sql, std::move(params), pos);
  if (!r.is_ok()) co_return R::err(r.error());
  List<T> out = List<T>::with_capacity(int64_t(r.value().vec().size()));
  for (const Any& row : r.value().vec()) out.push(decode(row, pos));
  co_return R::ok(std::move(out));
}

// `.first` and `insert`: one row, or Err when the query matched none.
template <class T, class Decode>
Task<Result<T, Str>> one(Any conn, const char* sql, List<Any> params, Decode decode, SourcePos pos) {
  using R = Result<T, Str>;
  auto r = co_await rows(std::move(conn), sql, std::move(params), pos);
  if (!r.is_ok()) co_return R::err(r.error());
  if (r.value().vec().empty()) co_return R::err(Str("no row matched the query"));
  co_return R::ok(decode(r.value().vec().front(), pos));
}

// COUNT(*) and aggregates: the one column of the one row, by name. An aggregate over no rows is
// NULL in SQL: `sum` gives 0.0, the others an Err.
Task<Result<int64_t, Str>> count(Any conn, const char* sql, List<Any> params, SourcePos pos);

Task<Result<double, Str>> aggregate(Any conn, const char* sql, List<Any> params, const char* name,
                                    SourcePos pos);

// `group_by` terminals: each row as a map of its columns.
Task<Result<List<Map<Str, Any>>, Str>> grouped(Any conn, const char* sql, List<Any> params,
                                               std::initializer_list<const char*> keys, SourcePos pos);

// `.first` after a preload: the preloaded rows of a `LIMIT 1` query, reduced to the one row (an
// Err when there is none) or, for has_one navigation, to the row or null.
template <class T>
Task<Result<T, Str>> first_of(Task<Result<List<T>, Str>> rows, SourcePos pos) {
  using R = Result<T, Str>;
  auto r = co_await std::move(rows);
  if (!r.is_ok()) co_return R::err(r.error());
  if (r.value().vec().empty()) co_return R::err(Str("no row matched the query"));
  co_return R::ok(r.value().vec().front());
}
template <class T>
Task<Result<Nullable<T>, Str>> maybe_of(Task<Result<List<T>, Str>> rows, SourcePos pos) {
  using R = Result<Nullable<T>, Str>;
  auto r = co_await std::move(rows);
  if (!r.is_ok()) co_return R::err(r.error());
  if (r.value().vec().empty()) co_return R::ok(Nullable<T>());
  co_return R::ok(Nullable<T>(r.value().vec().front()));
}

// update, delete, bulk_insert: the affected row count.
Task<Result<int64_t, Str>> exec(Any conn, const char* sql, List<Any> params, SourcePos pos);

// `update(db, changes)` with a Map variable: the SET list is built from the map's keys, each
// matched against the table's columns (field or column name; compiled into `columns`), so the
// statement text only ever holds the program's own identifiers; the values are parameters
// numbered after the WHERE clause's. An unknown key or an empty map is an Err.
struct UpdateColumn {
  const char* field;
  const char* column;  // quoted
  const char* cast;
};

template <class M>
Task<Result<int64_t, Str>> update_map(Any conn, const char* prefix, const char* where, List<Any> params,
                                      M changes, std::vector<UpdateColumn> columns, SourcePos pos) {
  using R = Result<int64_t, Str>;
  std::string set;
  size_t n = params.vec().size();
  for (const auto& e : changes.entries_vec()) {
    std::string_view key(e.key.data(), e.key.size());
    const UpdateColumn* hit = nullptr;
    for (const UpdateColumn& c : columns) {
      std::string_view quoted(c.column);
      if (key == c.field || (quoted.size() >= 2 && key == quoted.substr(1, quoted.size() - 2))) hit = &c;
    }
    if (!hit) {
      std::string message = "update: the table has no column `" + std::string(key) + "`";
      co_return R::err(Str(message.data(), message.size()));
    }
    if (!set.empty()) set += ", ";
    set += std::string(hit->column) + " = $" + std::to_string(++n) + hit->cast;
    params.push(to_any(e.value));
  }
  if (set.empty()) co_return R::err(Str("update: the map of changes is empty"));
  std::string sql = std::string(prefix) + set + where;
  co_return co_await exec(std::move(conn), sql.c_str(), std::move(params), pos);
}

}  // namespace fitz::orm

#include "fitz/orm_query.h"
