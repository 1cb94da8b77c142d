// Reading jsonb columns into a table struct's Map fields. The driver hands jsonb cells over as
// their text; the row decoder parses it with the HTTP runtime's JSON reader (one parser for
// request bodies, WebSocket messages and database cells), so programs that read a jsonb field
// link libfitz_http even without routes.
#pragma once

#include "fitz/http/json.h"
#include "fitz/orm_wire.h"
#include "fitz/runtime.h"

namespace fitz::orm {

// The column as T: SQL NULL as null (T nullable), text parsed as JSON. A cell that is not valid
// JSON of the field's type is a runtime error naming the column.
template <class T> T json_column(const Any& row, const char* name, SourcePos pos) {
  Any args[1] = {Any(Str(name))};
  Any cell = any_method_n(row, "get", args, 1, pos);
  if (!cell.is_str()) return from_any<T>(cell, pos);
  const Str& text = cell.str_value();
  http::JsonReader r(text.data(), text.size());
  T out{};
  if (!http::from_json(r, &out))
    runtime_error(pos, Str::from("column \"" + std::string(name) + "\": " + std::string(r.error().data(), r.error().size())));
  return out;
}

// The same for the typed decoders: the cell at (row, col), requested in text format.
template <class T> T json_cell(const WireRows& r, size_t row, size_t col, SourcePos pos) {
  const WireCell& c = r.cell(row, col);
  if (c.len < 0) return from_any<T>(Any(), pos);
  http::JsonReader reader(c.data, size_t(c.len));
  T out{};
  if (!http::from_json(reader, &out))
    runtime_error(pos, Str::from("column \"" + r.names[col] + "\": " + std::string(reader.error().data(), reader.error().size())));
  return out;
}

}  // namespace fitz::orm
