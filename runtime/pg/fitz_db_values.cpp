// Fitz values to Postgres parameters, result cells to Fitz values (by column type: integers to
// Int, floats to Float, bool to Bool, int and text arrays to lists, NULL to null, everything
// else to its text), the DbRow box with its accessors, and the Err texts of database errors.
#include <charconv>
#include <cstdio>
#include <cstdlib>

#include "fitz/date.h"
#include "fitz/db.h"
#include "pg/codecs.h"
#include "pg/fitz_db_internal.h"

namespace fitz::db {

using detail::AnyObj;
using detail::ObjKind;

namespace {

Str str_of(std::string_view s) { return Str(s.data(), s.size()); }

std::string describe(const Any& v) {
  Str t = v.type_name();
  return std_of(t);
}

bool is_int_type(pg::Oid t) {
  return t == pg::oid::kInt2 || t == pg::oid::kInt4 || t == pg::oid::kInt8 || t == pg::oid::kOid;
}

// JSON text of a Fitz value for a jsonb parameter: null, Bool, Int, finite Float, Str, lists,
// tuples and maps with Str keys. False (with `why`) for anything else.
bool write_json(std::string& out, const Any& v, std::string& why) {
  switch (v.tag()) {
    case Any::Tag::Null: out += "null"; return true;
    case Any::Tag::Bool: out += v.bool_value() ? "true" : "false"; return true;
    case Any::Tag::Int: out += std::to_string(v.int_value()); return true;
    case Any::Tag::Float:
      if (!__builtin_isfinite(v.float_value())) {
        why = "JSON has no NaN or infinity";
        return false;
      }
      out += pg::format_float(v.float_value());
      return true;
    case Any::Tag::Str: {
      const Str& s = v.str_value();
      out.push_back('"');
      for (unsigned char c : std::string_view(s.data(), s.size())) {
        if (c == '"' || c == '\\') {
          out.push_back('\\');
          out.push_back(char(c));
        } else if (c < 0x20) {
          char esc[8];
          std::snprintf(esc, sizeof esc, "\\u%04x", c);
          out += esc;
        } else {
          out.push_back(char(c));
        }
      }
      out.push_back('"');
      return true;
    }
    case Any::Tag::Obj: break;
  }
  AnyObj* o = v.obj();
  if (o->kind() == ObjKind::List || o->kind() == ObjKind::Tuple) {
    out.push_back('[');
    for (int64_t i = 0, n = o->len(); i < n; ++i) {
      if (i) out.push_back(',');
      if (!write_json(out, o->get(i, {}), why)) return false;
    }
    out.push_back(']');
    return true;
  }
  if (o->kind() == ObjKind::Map) {
    out.push_back('{');
    for (int64_t i = 0, n = o->len(); i < n; ++i) {
      Any key = o->key_at(i);
      if (!key.is_str()) {
        why = "JSON object keys must be Str, got " + describe(key);
        return false;
      }
      if (i) out.push_back(',');
      if (!write_json(out, key, why)) return false;
      out.push_back(':');
      if (!write_json(out, o->value_at(i), why)) return false;
    }
    out.push_back('}');
    return true;
  }
  why = "cannot write a " + describe(v) + " as JSON";
  return false;
}

}  // namespace

// ---- parameters ---------------------------------------------------------------------------

Result<pg::Param, Str> param_from_any(const Any& value, std::size_t index) {
  auto fail = [&](std::string why) {
    return Result<pg::Param, Str>::err(Str::from("parameter $" + std::to_string(index + 1) + ": " + why));
  };
  auto take = [&](pg::Result<pg::Param> p) {
    if (!p) return fail(p.error().message);
    return Result<pg::Param, Str>::ok(std::move(*p));
  };
  switch (value.tag()) {
    case Any::Tag::Null: return Result<pg::Param, Str>::ok(pg::Param::null());
    case Any::Tag::Bool: return take(pg::to_param(value.bool_value()));
    case Any::Tag::Int: return take(pg::to_param(value.int_value()));
    case Any::Tag::Float: return take(pg::to_param(value.float_value()));
    case Any::Tag::Str: {
      const Str& s = value.str_value();
      return Result<pg::Param, Str>::ok(pg::Param::text(std::string(s.data(), s.size())));
    }
    case Any::Tag::Obj: break;
  }
  if (value.is_kind(ObjKind::List)) {
    AnyObj* list = value.obj();
    int64_t n = list->len();
    bool ints = true, strs = true;
    for (int64_t i = 0; i < n; ++i) {
      Any e = list->get(i, {});
      ints = ints && (e.is_int() || e.is_null());
      strs = strs && (e.is_str() || e.is_null());
    }
    if (n == 0) return Result<pg::Param, Str>::ok(pg::Param::text("{}"));  // the server infers the array type
    if (ints) {
      pg::Int8Array a;
      for (int64_t i = 0; i < n; ++i) {
        Any e = list->get(i, {});
        a.push_back(e.is_null() ? std::nullopt : std::optional<int64_t>(e.int_value()));
      }
      return take(pg::to_param(a));
    }
    if (strs) {
      pg::TextArray a;
      for (int64_t i = 0; i < n; ++i) {
        Any e = list->get(i, {});
        a.push_back(e.is_null() ? std::nullopt : std::optional<std::string>(std_of(e.str_value())));
      }
      return take(pg::to_param(a));
    }
    if (auto p = date_param(value)) return Result<pg::Param, Str>::ok(std::move(*p));
    return fail("a list parameter must hold only Int, only Str, only Date, only DateTime or only Uuid values, got " +
                describe(value));
  }
  if (value.is_kind(ObjKind::Map)) {
    // A map goes as jsonb text, parsed by the server.
    std::string json, why;
    if (!write_json(json, value, why)) return fail(why);
    return Result<pg::Param, Str>::ok(pg::Param::text(std::move(json), pg::oid::kJsonb));
  }
  if (int64_t us = 0; datetime_unix_micros(value, &us)) return take(pg::to_param(pg::Timestamptz::from_unix_micros(us)));
  if (auto p = date_param(value)) return Result<pg::Param, Str>::ok(std::move(*p));
  return fail("cannot send a " + describe(value) +
              " (use Int, Float, Bool, Str, Date, DateTime, Uuid, null, a List of one of those, or a Map)");
}

Result<std::vector<pg::Param>, Str> params_from_any(const Any& list) {
  std::vector<pg::Param> out;
  if (list.is_null()) return Result<std::vector<pg::Param>, Str>::ok(std::move(out));
  if (!list.is_kind(ObjKind::List))
    return Result<std::vector<pg::Param>, Str>::err(
        Str::from("query parameters must be a List, got " + describe(list)));
  AnyObj* o = list.obj();
  int64_t n = o->len();
  out.reserve(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    auto p = param_from_any(o->get(i, {}), static_cast<std::size_t>(i));
    if (!p.is_ok()) return Result<std::vector<pg::Param>, Str>::err(p.error());
    out.push_back(std::move(p.value()));
  }
  return Result<std::vector<pg::Param>, Str>::ok(std::move(out));
}

// ---- cells and rows -------------------------------------------------------------------------

Any cell_to_any(const pg::Column& c, std::optional<std::string_view> v) {
  if (!v) return Any();
  pg::Oid t = c.type_oid;
  if (is_int_type(t)) {
    if (auto r = pg::decode_value<int64_t>(v, pg::Format::Text, t == pg::oid::kOid ? pg::oid::kInt8 : t))
      return Any(*r);
  } else if (t == pg::oid::kFloat4 || t == pg::oid::kFloat8) {
    if (auto r = pg::decode_value<double>(v, pg::Format::Text, t)) return Any(*r);
  } else if (t == pg::oid::kBool) {
    if (auto r = pg::decode_value<bool>(v, pg::Format::Text, t)) return Any(*r);
  } else if (t == pg::oid::kInt8Array || t == pg::oid::kInt4Array || t == pg::oid::kInt2Array) {
    if (auto r = pg::decode_value<pg::Int8Array>(v, pg::Format::Text, t)) {
      List<Any> out;
      for (const auto& e : *r) out.push(e ? Any(*e) : Any());
      return to_any(out);
    }
  } else if (t == pg::oid::kTextArray || t == pg::oid::kVarcharArray) {
    if (auto r = pg::decode_value<pg::TextArray>(v, pg::Format::Text, t)) {
      List<Any> out;
      for (const auto& e : *r) out.push(e ? Any(str_of(*e)) : Any());
      return to_any(out);
    }
  }
  return Any(str_of(*v));
}

namespace {

class RowBox final : public AnyObj {
 public:
  RowBox(std::shared_ptr<const pg::QueryResult> result, std::size_t index) : result_(std::move(result)), index_(index) {}
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return fitz::detail::type_id<RowBox>(); }
  void type_name(Buf& b) const override { b.lit("DbRow"); }
  void show(Buf& b, bool) const override {
    b.lit("DbRow {");
    for (std::size_t i = 0; i < result_->columns.size(); ++i) {
      b.append_cstr(i ? ", " : " ");
      b.append(result_->columns[i].name.data(), result_->columns[i].name.size());
      b.lit(": ");
      fitz::detail::any_show(b, cell(i), true);
    }
    b.append_cstr(result_->columns.empty() ? "}" : " }");
  }
  bool get_field(const char* name, Any* out) const override {
    auto i = result_->column_index(name);
    if (!i) return false;
    *out = cell(*i);
    return true;
  }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    std::string_view m(name);
    if (m == "len" && n == 0) {
      *out = Any(int64_t(result_->columns.size()));
      return true;
    }
    if (n != 1) return false;
    if (!args[0].is_str()) runtime_error(pos, Str::from("DbRow." + std::string(m) + ": the column name must be a Str"));
    std::string column = std_of(args[0].str_value());
    if (m == "get") {
      *out = cell(index_or_fail(column, "DbRow.get", pos));
      return true;
    }
    if (m == "get_int") return typed<int64_t>(column, "Int", out);
    if (m == "get_str") return typed<Str>(column, "Str", out);
    if (m == "get_float") return typed<double>(column, "Float", out);
    if (m == "get_bool") return typed<bool>(column, "Bool", out);
    // Not a DbRow method of the language (the checker knows none by this name): the ORM's row
    // decoders read a `DateTime` field through it.
    if (m == "orm_datetime") {
      auto v = result_->rows.value(index_, index_or_fail(column, "the row decoder", pos));
      if (!v) {
        *out = Any();
        return true;
      }
      // Date, DateTime and Uuid fields alike, by the column's type.
      const pg::Column& c = result_->columns[index_or_fail(column, "the row decoder", pos)];
      if (!date_cell(c.type_oid == pg::oid::kDate || c.type_oid == pg::oid::kUuid || c.type_oid == pg::oid::kTimestamp
                         ? c.type_oid
                         : pg::oid::kTimestamptz,
                     *v, out))
        runtime_error(pos, Str::from("column \"" + column + "\": \"" + std::string(*v) + "\" is not a " +
                                     pg::type_name(c.type_oid) + " value"));
      return true;
    }
    if (m == "get_date") return date_getter(column, pg::oid::kDate, "a date", out);
    if (m == "get_datetime") return date_getter(column, pg::oid::kTimestamptz, "a timestamptz", out);
    if (m == "get_uuid") return date_getter(column, pg::oid::kUuid, "a uuid", out);
    return false;
  }

 private:
  Any cell(std::size_t column) const {
    return cell_to_any(result_->columns[column], result_->rows.value(index_, column));
  }
  // The index of `column`; a column the result does not have is a runtime error of `who`.
  std::size_t index_or_fail(const std::string& column, const char* who, SourcePos pos) const {
    auto i = result_->column_index(column);
    if (!i)
      runtime_error(pos, Str::from(std::string(who) + ": no column named \"" + column + "\" (columns: " + names() + ")"));
    return *i;
  }
  std::string names() const {
    std::string s;
    for (const auto& c : result_->columns) s += (s.empty() ? "" : ", ") + c.name;
    return s;
  }
  // DbRow.get_date / get_datetime / get_uuid: Result<T>, Err naming the column when it is
  // missing, NULL or of another type (a `timestamp` column reads as UTC for get_datetime).
  bool date_getter(const std::string& column, pg::Oid want, const char* what, Any* out) const {
    auto err = [&](std::string why) {
      *out = to_any(Result<Any, Str>::err(Str::from("column \"" + column + "\": " + why)));
      return true;
    };
    auto i = result_->column_index(column);
    if (!i) return err("no such column (columns: " + names() + ")");
    pg::Oid type = result_->columns[*i].type_oid;
    auto v = result_->rows.value(index_, *i);
    if (!v) return err("is NULL");
    bool fits = type == want || (want == pg::oid::kTimestamptz && type == pg::oid::kTimestamp);
    Any value;
    if (!fits || !date_cell(type, *v, &value))
      return err("expected " + std::string(what) + ", got a " + pg::type_name(type) + " value `" + std::string(*v) + "`");
    *out = to_any(Result<Any, Str>::ok(value));
    return true;
  }
  template <class T>
  bool typed(const std::string& column, const char* fitz_type, Any* out) const {
    auto err = [&](std::string why) {
      *out = to_any(Result<T, Str>::err(Str::from("column \"" + column + "\": " + why)));
      return true;
    };
    auto i = result_->column_index(column);
    if (!i) return err("no such column (columns: " + names() + ")");
    const pg::Column& c = result_->columns[*i];
    auto v = result_->rows.value(index_, *i);
    if (!v) return err("is NULL");
    std::string type = pg::type_name(c.type_oid);
    if constexpr (std::is_same_v<T, Str>) {
      *out = to_any(Result<T, Str>::ok(str_of(*v)));
      return true;
    } else if constexpr (std::is_same_v<T, double>) {
      if (is_int_type(c.type_oid) || c.type_oid == pg::oid::kFloat4 || c.type_oid == pg::oid::kFloat8 ||
          c.type_oid == pg::oid::kNumeric) {
        std::string text(*v);
        char* end = nullptr;
        double d = std::strtod(text.c_str(), &end);
        if (end && *end == '\0') {
          *out = to_any(Result<T, Str>::ok(d));
          return true;
        }
        if (auto r = pg::decode_value<double>(v, pg::Format::Text, pg::oid::kFloat8)) {
          *out = to_any(Result<T, Str>::ok(*r));
          return true;
        }
      }
      return err("a " + type + " value cannot be read as " + fitz_type);
    } else {
      pg::Oid as = c.type_oid == pg::oid::kOid ? pg::oid::kInt8 : c.type_oid;
      auto r = pg::decode_value<T>(v, pg::Format::Text, as);
      if (!r) return err("a " + type + " value cannot be read as " + fitz_type);
      *out = to_any(Result<T, Str>::ok(*r));
      return true;
    }
  }

  std::shared_ptr<const pg::QueryResult> result_;
  std::size_t index_;
};

}  // namespace

Any make_row(std::shared_ptr<const pg::QueryResult> result, std::size_t index) {
  return Any(new RowBox(std::move(result), index));
}

// ---- errors --------------------------------------------------------------------------------

Str unavailable_text(std::string_view message) { return Str::from("database unavailable: " + std::string(message)); }

Str error_text(const pg::Error& e) {
  // Class 08 (connection exception) and the shutdown codes of class 57 mean "no database".
  bool unavailable = e.kind == pg::ErrorKind::Io || e.sqlstate.starts_with("08") || e.sqlstate == "57P01" ||
                     e.sqlstate == "57P02" || e.sqlstate == "57P03";
  if (unavailable) return unavailable_text(e.message);
  std::string text = e.summary();
  if (!e.sqlstate.empty()) text += " (SQLSTATE " + e.sqlstate + ")";
  if (e.server && !e.server->detail.empty()) text += "; DETAIL: " + e.server->detail;
  return Str::from(text);
}

Str acquire_error_text(const pg::Error& e) {
  Str text = error_text(e);
  if (fitz::db_unavailable(text)) return text;
  // A refused login or a missing database is a server the program cannot use: "unavailable"
  // (503 from handlers), with the server's reason kept.
  std::string reason = e.summary();
  if (!e.sqlstate.empty()) reason += " (SQLSTATE " + e.sqlstate + ")";
  return unavailable_text(reason);
}

}  // namespace fitz::db

namespace fitz {

bool db_unavailable(const Str& error) {
  std::string_view s(error.data(), error.size());
  return s.starts_with("database unavailable");
}

}  // namespace fitz
