// ORM queries the generated code cannot finish at compile time: a query kept as a value
// (`let qb = User.where(..)`, `qb = qb.order_by(..)`), `has_one` navigation (a row or null)
// and `bulk_insert`. A query value holds the program's constant SQL fragments, each numbered
// from $1, with the values bound to them; a terminal joins the fragments behind a constant
// head, renumbering each fragment's placeholders after those before it. User values never
// become SQL text. Included by fitz/orm.h.
#pragma once

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <string>
#include <vector>

#include "fitz/orm.h"

namespace fitz::orm {

// One step of a query value.
struct Fragment {
  enum Kind : int { Where, Order, Limit, Offset };
  int kind = Where;
  const char* sql = "";  // Where/Order: a program constant; Limit/Offset: unused (one bound value)
  List<Any> params;
};

class QueryBox final : public fitz::detail::AnyObj {
 public:
  QueryBox(const char* name, std::vector<Fragment> steps) : name_(name), steps_(std::move(steps)) {}
  fitz::detail::ObjKind kind() const override { return fitz::detail::ObjKind::Struct; }
  const void* type_id() const override { return fitz::detail::type_id<QueryBox>(); }
  void type_name(Buf& b) const override { b.append_cstr(name_); }
  void show(Buf& b, bool) const override {
    b.push('<');
    b.append_cstr(name_);
    b.push('>');
  }
  const std::vector<Fragment>& steps() const { return steps_; }

 private:
  const char* name_;
  std::vector<Fragment> steps_;
};

inline const std::vector<Fragment>& query_steps(const Any& q, SourcePos pos) {
  if (!q.is_obj() || q.obj()->type_id() != fitz::detail::type_id<QueryBox>())
    runtime_error(pos, "expected a query value");
  return static_cast<const QueryBox*>(q.obj())->steps();
}

// A new query value: `base`'s steps (none when `base` is null) followed by `steps`. Query
// values are immutable, so `qb.where(..)` leaves `qb` as it was.
inline Any extend(const Any& base, const char* name, std::initializer_list<Fragment> steps, SourcePos pos) {
  std::vector<Fragment> all;
  if (!base.is_null()) all = query_steps(base, pos);
  all.insert(all.end(), steps.begin(), steps.end());
  return Any(new QueryBox(name, std::move(all)));
}

// `text` with each `$n` outside quotes shifted by `by`.
inline void append_renumbered(std::string& out, const char* text, size_t by) {
  char quote = 0;
  for (const char* p = text; *p; ++p) {
    char c = *p;
    if (quote) {
      out.push_back(c);
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
      out.push_back(c);
    } else if (c == '$' && p[1] >= '0' && p[1] <= '9') {
      size_t n = 0;
      while (p[1] >= '0' && p[1] <= '9') n = n * 10 + size_t(*++p - '0');
      out += '$';
      out += std::to_string(n + by);
    } else {
      out.push_back(c);
    }
  }
}

// What follows the head of a terminal (mirrors orm::Shape of the compiler).
enum class Shape : int { Select, First, Count, Aggregate, Write };

struct Assembled {
  std::string sql;
  List<Any> params;
  std::string error;  // non-empty: the query cannot run this way
};

// The terminal's statement: `head` (numbered $1.. with `head_params`), then every `where`
// AND-joined, every `order_by` in call order, and the last `limit` and `offset`.
inline Assembled assemble(const Any& query, const char* head, Shape shape, List<Any> head_params, const char* what,
                          SourcePos pos) {
  Assembled a;
  a.params = std::move(head_params);
  std::string where, order, tail;
  const Fragment* limit = nullptr;
  const Fragment* offset = nullptr;
  auto add = [&](std::string& out, const Fragment& f, const char* first, const char* sep) {
    out += out.empty() ? first : sep;
    append_renumbered(out, f.sql, a.params.vec().size());
    for (const Any& v : f.params.vec()) a.params.push(v);
  };
  for (const Fragment& f : query_steps(query, pos)) {
    if (f.kind == Fragment::Where) add(where, f, " WHERE ", " AND ");
    else if (f.kind == Fragment::Order) add(order, f, " ORDER BY ", ", ");
    else (f.kind == Fragment::Limit ? limit : offset) = &f;
  }
  auto bound = [&](const char* kw, const Fragment* f) {
    if (!f || f->params.vec().empty()) return;
    a.params.push(f->params.vec().front());
    tail += std::string(" ") + kw + " $" + std::to_string(a.params.vec().size());
  };
  bool shaped = !order.empty() || limit || offset;
  switch (shape) {
    case Shape::Select:
    case Shape::First:
      if (shape == Shape::First) tail = " LIMIT 1";
      else bound("LIMIT", limit);
      bound("OFFSET", offset);
      a.sql = head + where + order + tail;
      break;
    case Shape::Count:
      bound("LIMIT", limit);
      bound("OFFSET", offset);
      a.sql = shaped ? "SELECT COUNT(*) FROM (SELECT 1 FROM " + std::string(head) + where + order + tail + ") AS \"q\""
                     : "SELECT COUNT(*) FROM " + std::string(head) + where;
      break;
    case Shape::Aggregate:
    case Shape::Write:
      if (shape == Shape::Write && where.empty())
        a.error = std::string(what) + ": the query has no `where`, so it would change every row; add "
                  "`.where(fn(_) => true)` to mean every row";
      else if (shaped)
        a.error = std::string(what) + ": a query with `order_by`, `limit` or `offset` cannot be used here";
      a.sql = head + where;
      break;
  }
  return a;
}

inline Str str_of(const std::string& s) { return Str(s.data(), s.size()); }

// Terminals over a query value. Each owns its assembled statement for as long as it runs.
template <class T, class Decode>
Task<Result<List<T>, Str>> query_all(Any conn, Any query, const char* head, Decode decode, SourcePos pos) {
  Assembled a = assemble(query, head, Shape::Select, List<Any>(), "all", pos);
  co_return co_await all<T>(std::move(conn), a.sql.c_str(), std::move(a.params), decode, pos);
}

template <class T, class Decode>
Task<Result<T, Str>> query_first(Any conn, Any query, const char* head, Decode decode, SourcePos pos) {
  Assembled a = assemble(query, head, Shape::First, List<Any>(), "first", pos);
  co_return co_await one<T>(std::move(conn), a.sql.c_str(), std::move(a.params), decode, pos);
}

Task<Result<int64_t, Str>> query_count(Any conn, Any query, const char* table, SourcePos pos);

Task<Result<double, Str>> query_aggregate(Any conn, Any query, const char* head, List<Any> head_params,
                                          const char* name, SourcePos pos);

// update (map literal), delete, merge_jsonb: refused as an Err, never run, without a `where`.
Task<Result<int64_t, Str>> query_exec(Any conn, Any query, const char* head, List<Any> head_params,
                                      const char* what, SourcePos pos);

template <class M>
Task<Result<int64_t, Str>> query_update_map(Any conn, Any query, const char* prefix, M changes,
                                            std::vector<UpdateColumn> columns, SourcePos pos) {
  Assembled a = assemble(query, "", Shape::Write, List<Any>(), "update", pos);
  if (!a.error.empty()) co_return Result<int64_t, Str>::err(str_of(a.error));
  co_return co_await update_map(std::move(conn), prefix, a.sql.c_str(), std::move(a.params), std::move(changes),
                                std::move(columns), pos);
}

// has_one navigation: the child row, or null when there is none.
template <class T, class Decode>
Task<Result<Nullable<T>, Str>> maybe(Any conn, const char* sql, List<Any> params, Decode decode, SourcePos pos) {
  using R = Result<Nullable<T>, Str>;
  auto r = co_await rows(std::move(conn), sql, std::move(params), pos);
  if (!r.is_ok()) co_return R::err(r.error());
  if (r.value().vec().empty()) co_return R::ok(Nullable<T>());
  co_return R::ok(Nullable<T>(decode(r.value().vec().front(), pos)));
}

// One column of a bulk insert as an array parameter. Float and Bool values travel as text (the
// statement casts each array to its column type), as the driver sends arrays of Int or Str.
inline Any array_param(std::vector<Any> values) {
  List<Any> out = List<Any>::with_capacity(int64_t(values.size()));
  for (Any& v : values) {
    if (v.is_float()) {
      char buf[32];
      auto res = std::to_chars(buf, buf + sizeof buf, v.float_value());
      out.push(Any(Str(buf, size_t(res.ptr - buf))));
    } else if (v.is_bool()) {
      out.push(Any(Str(v.bool_value() ? "true" : "false")));
    } else {
      out.push(std::move(v));
    }
  }
  return to_any(out);
}

// `T.bulk_insert(rows, db)`: one `INSERT .. SELECT * FROM unnest(..)` per batch of 1000 rows,
// each column sent as one array; the rows inserted. Batches are separate statements: run it
// inside `db.transaction` to insert all or nothing.
inline constexpr size_t kBulkBatch = 1000;

template <class T, class Columns>
Task<Result<int64_t, Str>> bulk_insert(Any conn, const char* sql, List<T> rows, size_t ncols, Columns columns,
                                       SourcePos pos) {
  int64_t total = 0;
  const auto& all_rows = rows.vec();
  for (size_t from = 0; from < all_rows.size(); from += kBulkBatch) {
    size_t to = std::min(all_rows.size(), from + kBulkBatch);
    std::vector<std::vector<Any>> cols(ncols);
    for (auto& c : cols) c.reserve(to - from);
    for (size_t i = from; i < to; ++i) columns(all_rows[i], cols);
    List<Any> params;
    for (auto& c : cols) params.push(array_param(std::move(c)));
    auto r = co_await exec(conn, sql, std::move(params), pos);
    if (!r.is_ok()) co_return r;
    total += r.value();
  }
  co_return Result<int64_t, Str>::ok(total);
}

}  // namespace fitz::orm
