// The ORM's calls that are not templates: the rows, counts, aggregates and writes of fitz/orm.h,
// fitz/orm_wire.h and fitz/orm_query.h. They live here rather than inline in those headers
// because they are coroutines: GCC emits an inline coroutine in every translation unit that
// includes its header, used or not, at -O0 (with everything it calls), so that every program
// built at -O0, ORM or not, compiled them all again.
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "fitz/orm.h"

namespace fitz::orm {

namespace {
// An aggregate over no rows is NULL in SQL: `sum` gives 0.0, the others an Err.
Result<double, Str> aggregate_of(Nullable<double> v, bool is_sum) {
  if (!v.is_null()) return Result<double, Str>::ok(v.value());
  if (is_sum) return Result<double, Str>::ok(0.0);
  return Result<double, Str>::err(Str("no rows to aggregate"));
}
}  // namespace

// ---- fitz/orm.h: through DbConn, rows as DbRow values -------------------------------------------

Task<Result<List<Any>, Str>> rows(Any conn, const char* sql, List<Any> params, SourcePos pos) {
  Any args[2] = {Any(Str(sql)), to_any(params)};
  Any task = any_method_n(conn, "query", args, 2, pos);
  Any done = co_await any_await(task, pos);
  co_return from_any<Result<List<Any>, Str>>(done, pos);
}

Task<Result<int64_t, Str>> count(Any conn, const char* sql, List<Any> params, SourcePos pos) {
  using R = Result<int64_t, Str>;
  auto r = co_await rows(std::move(conn), sql, std::move(params), pos);
  if (!r.is_ok()) co_return R::err(r.error());
  if (r.value().vec().empty()) co_return R::ok(0);
  co_return R::ok(column<int64_t>(r.value().vec().front(), "count", pos));
}

Task<Result<double, Str>> aggregate(Any conn, const char* sql, List<Any> params, const char* name,
                                    SourcePos pos) {
  using R = Result<double, Str>;
  auto r = co_await rows(std::move(conn), sql, std::move(params), pos);
  if (!r.is_ok()) co_return R::err(r.error());
  Nullable<double> v = r.value().vec().empty() ? Nullable<double>() : column<Nullable<double>>(r.value().vec().front(), name, pos);
  co_return aggregate_of(v, std::string_view(name) == "sum");
}

Task<Result<List<Map<Str, Any>>, Str>> grouped(Any conn, const char* sql, List<Any> params,
                                               std::initializer_list<const char*> keys, SourcePos pos) {
  using R = Result<List<Map<Str, Any>>, Str>;
  std::vector<const char*> names(keys);
  auto r = co_await rows(std::move(conn), sql, std::move(params), pos);
  if (!r.is_ok()) co_return R::err(r.error());
  List<Map<Str, Any>> out;
  for (const Any& row : r.value().vec()) {
    Map<Str, Any> m;
    for (const char* k : names) m.set(Str(k), column<Any>(row, k, pos));
    out.push(std::move(m));
  }
  co_return R::ok(std::move(out));
}

Task<Result<int64_t, Str>> exec(Any conn, const char* sql, List<Any> params, SourcePos pos) {
  Any args[2] = {Any(Str(sql)), to_any(params)};
  Any task = any_method_n(conn, "exec", args, 2, pos);
  Any done = co_await any_await(task, pos);
  co_return from_any<Result<int64_t, Str>>(done, pos);
}

// ---- fitz/orm_wire.h: the binary wire path ------------------------------------------------------

Task<Result<int64_t, Str>> wire_count(Any conn, const char* sql, WireParams params, SourcePos pos) {
  using R = Result<int64_t, Str>;
  static const uint8_t kBinary[1] = {1};
  auto r = co_await wire_query(std::move(conn), sql, std::move(params), kBinary, 1, pos);
  if (!r.is_ok()) co_return R::err(r.error());
  if (r.value().rows == 0) co_return R::ok(0);
  co_return R::ok(wire_get<int64_t>(r.value(), 0, 0, pos));
}

Task<Result<double, Str>> wire_aggregate(Any conn, const char* sql, WireParams params, bool is_sum,
                                         SourcePos pos) {
  using R = Result<double, Str>;
  static const uint8_t kBinary[1] = {1};
  auto r = co_await wire_query(std::move(conn), sql, std::move(params), kBinary, 1, pos);
  if (!r.is_ok()) co_return R::err(r.error());
  Nullable<double> v = r.value().rows == 0 ? Nullable<double>() : wire_get<Nullable<double>>(r.value(), 0, 0, pos);
  co_return aggregate_of(v, is_sum);
}

Task<Result<int64_t, Str>> wire_exec(Any conn, const char* sql, WireParams params, SourcePos pos) {
  using R = Result<int64_t, Str>;
  auto r = co_await wire_query(std::move(conn), sql, std::move(params), nullptr, 0, pos);
  if (!r.is_ok()) co_return R::err(r.error());
  co_return R::ok(r.value().affected);
}

// ---- fitz/orm_query.h: query values assembled, then run -----------------------------------------

Task<Result<int64_t, Str>> query_count(Any conn, Any query, const char* table, SourcePos pos) {
  Assembled a = assemble(query, table, Shape::Count, List<Any>(), "count", pos);
  co_return co_await count(std::move(conn), a.sql.c_str(), std::move(a.params), pos);
}

Task<Result<double, Str>> query_aggregate(Any conn, Any query, const char* head, List<Any> head_params,
                                          const char* name, SourcePos pos) {
  Assembled a = assemble(query, head, Shape::Aggregate, std::move(head_params), name, pos);
  if (!a.error.empty()) co_return Result<double, Str>::err(str_of(a.error));
  co_return co_await aggregate(std::move(conn), a.sql.c_str(), std::move(a.params), name, pos);
}

Task<Result<int64_t, Str>> query_exec(Any conn, Any query, const char* head, List<Any> head_params,
                                      const char* what, SourcePos pos) {
  Assembled a = assemble(query, head, Shape::Write, std::move(head_params), what, pos);
  if (!a.error.empty()) co_return Result<int64_t, Str>::err(str_of(a.error));
  co_return co_await exec(std::move(conn), a.sql.c_str(), std::move(a.params), pos);
}
}  // namespace fitz::orm
