// The out-of-line half of the ORM's typed boundary (fitz/orm_wire.h): a driver result as cells
// for the generated decoders, and the few conversions that fall back to the `db` module's
// dynamic rules (parameters of rare types, cells of list or date fields, mismatch errors).
#include "fitz/date.h"
#include "fitz/orm_wire.h"
#include "pg/codecs.h"
#include "pg/fitz_db_internal.h"

namespace fitz::db {

orm::WireRows wire_rows(const std::shared_ptr<const pg::QueryResult>& result) {
  orm::WireRows out;
  out.rows = result->size();
  out.cols = result->columns.size();
  out.oids.reserve(out.cols);
  out.binary.reserve(out.cols);
  out.names.reserve(out.cols);
  for (const pg::Column& c : result->columns) {
    out.oids.push_back(c.type_oid);
    out.binary.push_back(c.format == pg::Format::Binary ? 1 : 0);
    out.names.push_back(c.name);
  }
  out.cells.reserve(out.rows * out.cols);
  for (std::size_t r = 0; r < out.rows; ++r)
    for (std::size_t c = 0; c < out.cols; ++c) {
      std::optional<std::string_view> v = result->rows.value(r, c);
      out.cells.push_back(v ? orm::WireCell{v->data(), int32_t(v->size())} : orm::WireCell{});
    }
  out.affected = int64_t(result->rows_affected.value_or(0));
  out.owner = result;
  return out;
}

}  // namespace fitz::db

namespace fitz::orm {

namespace {

pg::Column column_of(const WireRows& r, size_t col) {
  pg::Column c;
  c.name = r.names[col];
  c.type_oid = r.oids[col];
  c.format = r.binary[col] ? pg::Format::Binary : pg::Format::Text;
  return c;
}

std::optional<std::string_view> value_of(const WireRows& r, size_t row, size_t col) {
  const WireCell& c = r.cell(row, col);
  if (c.len < 0) return std::nullopt;
  return std::string_view(c.data, size_t(c.len));
}

}  // namespace

WireParam bind_any(const Any& value) {
  auto p = db::param_from_any(value, 0);
  if (!p.is_ok()) runtime_error(SourcePos{}, p.error());
  WireParam w;
  w.oid = p.value().type;
  w.binary = p.value().format == pg::Format::Binary;
  w.null = !p.value().value;
  if (p.value().value) w.bytes = std::move(*p.value().value);
  return w;
}

void wire_mismatch(const WireRows& r, size_t row, size_t col, const char* want, SourcePos pos) {
  std::string got = r.cell(row, col).len < 0 ? "NULL" : "a " + pg::type_name(r.oids[col]) + " value";
  runtime_error(pos, Str::from("column \"" + r.names[col] + "\": expected " + want + ", got " + got));
}

Any wire_cell_any(const WireRows& r, size_t row, size_t col) {
  return db::cell_to_any(column_of(r, col), value_of(r, row, col));
}

Any wire_datetime(const WireRows& r, size_t row, size_t col, SourcePos pos) {
  std::optional<std::string_view> v = value_of(r, row, col);
  if (!v) return Any();
  // Date, DateTime and Uuid fields alike, by the column's type.
  pg::Oid t = r.oids[col];
  Any out;
  if (!db::date_cell(t == pg::oid::kDate || t == pg::oid::kUuid || t == pg::oid::kTimestamp ? t : pg::oid::kTimestamptz,
                     *v, &out))
    runtime_error(pos, Str::from("column \"" + r.names[col] + "\": \"" + std::string(*v) + "\" is not a " +
                                 pg::type_name(t) + " value"));
  return out;
}

}  // namespace fitz::orm
