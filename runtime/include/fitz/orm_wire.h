// The ORM's typed database boundary: generated code encodes each parameter from its static type
// (numbers and booleans in binary with their Postgres OIDs) and decodes rows with one generated
// function per row struct that reads cells by column index. Nothing here goes through `Any`
// except the rare value types listed at `bind`; the header stays free of Boost (libfitz_db
// implements the few out-of-line pieces).
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fitz/any.h"
#include "fitz/list.h"
#include "fitz/result.h"
#include "fitz/str.h"
#include "fitz/task.h"

namespace fitz::orm {

// Type OIDs of the parameters generated code binds (the values of pg_type.oid).
namespace wire_oid {
inline constexpr uint32_t kUnspecified = 0, kBool = 16, kInt8 = 20, kInt2 = 21, kInt4 = 23, kText = 25,
                          kFloat4 = 700, kFloat8 = 701, kTextArray = 1009, kInt8Array = 1016;
}

// One encoded parameter.
struct WireParam {
  uint32_t oid = wire_oid::kUnspecified;
  bool binary = false;
  bool null = false;
  std::string bytes;
};
using WireParams = std::vector<WireParam>;

// A value the typed encoders do not cover (a Map as jsonb, Date, DateTime, Uuid, lists of other
// element types), encoded by the `db` module's own rules for parameters.
WireParam bind_any(const Any& value);

namespace wire_detail {
inline void put_be(std::string& out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(char((v >> (8 * i)) & 0xff));
}
inline uint64_t get_be(const char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | uint8_t(p[i]);
  return v;
}
// An element of a text array literal, always quoted so no value is read as NULL or split.
inline void put_array_text(std::string& out, const char* p, size_t n) {
  out.push_back('"');
  for (size_t i = 0; i < n; ++i) {
    if (p[i] == '"' || p[i] == '\\') out.push_back('\\');
    out.push_back(p[i]);
  }
  out.push_back('"');
}
template <class T> struct NullableOf { static constexpr bool value = false; };
template <class T> struct NullableOf<Nullable<T>> {
  static constexpr bool value = true;
  using inner = T;
};
}  // namespace wire_detail

template <class T> constexpr uint32_t wire_oid_of() {
  if constexpr (std::is_same_v<T, int64_t>) return wire_oid::kInt8;
  else if constexpr (std::is_same_v<T, double>) return wire_oid::kFloat8;
  else if constexpr (std::is_same_v<T, bool>) return wire_oid::kBool;
  else return wire_oid::kUnspecified;
}

// `T` is the parameter's static type as generated code spells it. Int, Float and Bool go in
// binary; Str goes as text with the type left to the server (its column decides: text, but
// also timestamptz, uuid or numeric written as text); lists of Int or Str as int8[] / text[].
template <class T> WireParam bind(const T& v) {
  WireParam p;
  if constexpr (wire_detail::NullableOf<T>::value) {
    using U = typename wire_detail::NullableOf<T>::inner;
    if (v.is_null()) {
      p.oid = wire_oid_of<U>();
      p.null = true;
      return p;
    }
    return bind<U>(v.value());
  } else if constexpr (std::is_same_v<T, int64_t>) {
    p.oid = wire_oid::kInt8;
    p.binary = true;
    wire_detail::put_be(p.bytes, uint64_t(v), 8);
  } else if constexpr (std::is_same_v<T, double>) {
    p.oid = wire_oid::kFloat8;
    p.binary = true;
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    wire_detail::put_be(p.bytes, bits, 8);
  } else if constexpr (std::is_same_v<T, bool>) {
    p.oid = wire_oid::kBool;
    p.binary = true;
    p.bytes.push_back(v ? 1 : 0);
  } else if constexpr (std::is_same_v<T, Str>) {
    p.bytes.assign(v.data(), v.size());
  } else if constexpr (std::is_same_v<T, List<int64_t>>) {
    p.oid = wire_oid::kInt8Array;
    p.bytes.push_back('{');
    char buf[24];
    for (size_t i = 0; i < v.vec().size(); ++i) {
      if (i) p.bytes.push_back(',');
      auto r = std::to_chars(buf, buf + sizeof buf, v.vec()[i]);
      p.bytes.append(buf, r.ptr);
    }
    p.bytes.push_back('}');
  } else if constexpr (std::is_same_v<T, List<Str>>) {
    p.oid = wire_oid::kTextArray;
    p.bytes.push_back('{');
    for (size_t i = 0; i < v.vec().size(); ++i) {
      if (i) p.bytes.push_back(',');
      wire_detail::put_array_text(p.bytes, v.vec()[i].data(), v.vec()[i].size());
    }
    p.bytes.push_back('}');
  } else {
    return bind_any(to_any(v));
  }
  return p;
}

// The parameters of one statement, in `$n` order (moved in, not copied as an initializer list).
template <class... P> WireParams wire_params(P&&... p) {
  WireParams v;
  v.reserve(sizeof...(P));
  (v.push_back(std::forward<P>(p)), ...);
  return v;
}

// One cell: its bytes in the result, or `len` -1 for NULL.
struct WireCell {
  const char* data = nullptr;
  int32_t len = -1;
};

// The rows of one statement as cells, with each column's type and format; `owner` keeps the
// bytes alive. Built by libfitz_db from the driver's result.
struct WireRows {
  size_t rows = 0, cols = 0;
  std::vector<WireCell> cells;  // row-major
  std::vector<uint32_t> oids;   // per column
  std::vector<uint8_t> binary;  // per column
  std::vector<std::string> names;
  int64_t affected = 0;
  std::shared_ptr<const void> owner;

  const WireCell& cell(size_t row, size_t col) const { return cells[row * cols + col]; }
};

// A cell that does not fit the field: a runtime error naming the column and what was expected.
[[noreturn]] void wire_mismatch(const WireRows& r, size_t row, size_t col, const char* want, SourcePos pos);
// The cell as the `db` module's DbRow.get gives it (lists, dates as text, ...), for field types
// the typed readers do not cover.
Any wire_cell_any(const WireRows& r, size_t row, size_t col);
// A timestamptz cell (text format) as a DateTime value; NULL is null.
Any wire_datetime(const WireRows& r, size_t row, size_t col, SourcePos pos);

// The cell at (row, col) as `T`. Int, Float and Bool read binary or text cells; Str reads the
// text format; `T?` reads NULL as null.
template <class T> T wire_get(const WireRows& r, size_t row, size_t col, SourcePos pos) {
  const WireCell& c = r.cell(row, col);
  if constexpr (wire_detail::NullableOf<T>::value) {
    if (c.len < 0) return T();
    return T(wire_get<typename wire_detail::NullableOf<T>::inner>(r, row, col, pos));
  } else {
    if (c.len < 0) wire_mismatch(r, row, col, "a value (the field is not nullable)", pos);
    if constexpr (std::is_same_v<T, int64_t>) {
      if (r.binary[col]) {
        if (c.len == 8) return int64_t(wire_detail::get_be(c.data, 8));
        if (c.len == 4) return int64_t(int32_t(wire_detail::get_be(c.data, 4)));
        if (c.len == 2) return int64_t(int16_t(wire_detail::get_be(c.data, 2)));
      } else {
        int64_t v = 0;
        auto res = std::from_chars(c.data, c.data + c.len, v);
        if (res.ec == std::errc() && res.ptr == c.data + c.len) return v;
      }
      wire_mismatch(r, row, col, "an Int", pos);
    } else if constexpr (std::is_same_v<T, double>) {
      if (r.binary[col]) {
        if (r.oids[col] == wire_oid::kFloat8 && c.len == 8) {
          uint64_t bits = wire_detail::get_be(c.data, 8);
          double d;
          std::memcpy(&d, &bits, 8);
          return d;
        }
        if (r.oids[col] == wire_oid::kFloat4 && c.len == 4) {
          uint32_t bits = uint32_t(wire_detail::get_be(c.data, 4));
          float f;
          std::memcpy(&f, &bits, 4);
          return double(f);
        }
        if (r.oids[col] == wire_oid::kInt8 && c.len == 8) return double(int64_t(wire_detail::get_be(c.data, 8)));
      } else {
        // float8, numeric and integer texts; NaN and Infinity as Postgres writes them.
        std::string text(c.data, size_t(c.len));
        char* end = nullptr;
        double d = std::strtod(text.c_str(), &end);
        if (end && *end == '\0' && !text.empty()) return d;
      }
      wire_mismatch(r, row, col, "a Float", pos);
    } else if constexpr (std::is_same_v<T, bool>) {
      if (r.binary[col] && c.len == 1) return c.data[0] != 0;
      if (!r.binary[col] && c.len == 1 && (c.data[0] == 't' || c.data[0] == 'f')) return c.data[0] == 't';
      wire_mismatch(r, row, col, "a Bool", pos);
    } else if constexpr (std::is_same_v<T, Str>) {
      if (r.binary[col]) wire_mismatch(r, row, col, "text", pos);
      return Str(c.data, size_t(c.len));
    } else {
      return from_any<T>(wire_cell_any(r, row, col), pos);
    }
  }
}

// Runs one statement on a DbConn with typed parameters; `formats` gives each result column's
// format (1 binary, 0 text; fewer entries than columns: text for the rest).
Task<Result<WireRows, Str>> wire_query(Any conn, const char* sql, WireParams params, const uint8_t* formats,
                                       size_t format_count, SourcePos pos);

template <class T, class Decode>
Task<Result<List<T>, Str>> wire_all(Any conn, const char* sql, WireParams params, const uint8_t* formats,
                                    size_t format_count, Decode decode, SourcePos pos) {
  using R = Result<List<T>, Str>;
  auto r = co_await wire_query(std::move(conn), sql, std::move(params), formats, format_count, pos);
  if (!r.is_ok()) co_return R::err(r.error());
  const WireRows& rows = r.value();
  List<T> out = List<T>::with_capacity(int64_t(rows.rows));
  for (size_t i = 0; i < rows.rows; ++i) out.push(decode(rows, i, pos));
  co_return R::ok(std::move(out));
}

// `.first` and `insert`: one row, or Err when the query matched none.
template <class T, class Decode>
Task<Result<T, Str>> wire_one(Any conn, const char* sql, WireParams params, const uint8_t* formats,
                              size_t format_count, Decode decode, SourcePos pos) {
  using R = Result<T, Str>;
  auto r = co_await wire_query(std::move(conn), sql, std::move(params), formats, format_count, pos);
  if (!r.is_ok()) co_return R::err(r.error());
  if (r.value().rows == 0) co_return R::err(Str("no row matched the query"));
  co_return R::ok(decode(r.value(), 0, pos));
}

// has_one navigation: the row or null.
template <class T, class Decode>
Task<Result<Nullable<T>, Str>> wire_maybe(Any conn, const char* sql, WireParams params, const uint8_t* formats,
                                          size_t format_count, Decode decode, SourcePos pos) {
  using R = Result<Nullable<T>, Str>;
  auto r = co_await wire_query(std::move(conn), sql, std::move(params), formats, format_count, pos);
  if (!r.is_ok()) co_return R::err(r.error());
  if (r.value().rows == 0) co_return R::ok(Nullable<T>());
  co_return R::ok(Nullable<T>(decode(r.value(), 0, pos)));
}

// COUNT(*): the one column of the one row (binary int8).
Task<Result<int64_t, Str>> wire_count(Any conn, const char* sql, WireParams params, SourcePos pos);

// sum/avg/min/max (`::float8` in the SQL). Over no rows SQL gives NULL: `sum` is 0.0, the
// others an Err.
Task<Result<double, Str>> wire_aggregate(Any conn, const char* sql, WireParams params, bool is_sum,
                                         SourcePos pos);

// update, delete, merge_jsonb: the affected row count.
Task<Result<int64_t, Str>> wire_exec(Any conn, const char* sql, WireParams params, SourcePos pos);

namespace wire_detail {
// The hash key of a relation key value: Int keys as themselves, Str keys as their bytes.
inline int64_t key_of(int64_t v) { return v; }
inline std::string key_of(const Str& v) { return std::string(v.data(), v.size()); }
template <class K> struct KeyValue { using type = K; };
template <class K> struct KeyValue<Nullable<K>> { using type = K; };
}  // namespace wire_detail

// `.preload("rel")`: one more query for the related rows of every row, their keys bound as one
// array (null keys left out), then matched through a hash map of the children by key.
// For has_many/has_one the key is the row's primary key and the match the child's foreign key;
// for a `@belongs_to` parent the key is the row's foreign key and the match the parent's
// primary key. `set` stores the matches (a List) or the first of them.
template <class T, class C, class K, class DecodeC, class KeyOf, class FkOf, class Set>
Task<Result<List<T>, Str>> wire_preload(Task<Result<List<T>, Str>> main, Any conn, const char* sql,
                                        const uint8_t* formats, size_t format_count, DecodeC decode, KeyOf key_of,
                                        FkOf fk_of, Set set, SourcePos pos) {
  using R = Result<List<T>, Str>;
  using Key = typename wire_detail::KeyValue<K>::type;
  auto parents = co_await std::move(main);
  if (!parents.is_ok() || parents.value().vec().empty()) co_return parents;
  List<Key> keys;
  for (const T& p : parents.value().vec()) {
    K k = key_of(p);
    if constexpr (wire_detail::NullableOf<K>::value) {
      if (!k.is_null()) keys.push(k.value());
    } else {
      keys.push(std::move(k));
    }
  }
  WireParams params;
  params.push_back(bind<List<Key>>(keys));
  auto children = co_await wire_all<C>(std::move(conn), sql, std::move(params), formats, format_count, decode, pos);
  if (!children.is_ok()) co_return R::err(children.error());
  using HashKey = decltype(wire_detail::key_of(std::declval<Key>()));
  std::unordered_map<HashKey, List<C>> by_key;
  for (const C& c : children.value().vec()) {
    auto fk = fk_of(c);
    if constexpr (wire_detail::NullableOf<decltype(fk)>::value) {
      if (!fk.is_null()) by_key[wire_detail::key_of(fk.value())].push(c);
    } else {
      by_key[wire_detail::key_of(fk)].push(c);
    }
  }
  for (const T& p : parents.value().vec()) {
    K k = key_of(p);
    List<C> mine;
    if constexpr (wire_detail::NullableOf<K>::value) {
      if (!k.is_null())
        if (auto it = by_key.find(wire_detail::key_of(k.value())); it != by_key.end()) mine = it->second;
    } else {
      if (auto it = by_key.find(wire_detail::key_of(k)); it != by_key.end()) mine = it->second;
    }
    set(p, std::move(mine));
  }
  co_return parents;
}

}  // namespace fitz::orm
