// Shared pieces of libfitz_db (the `db` module of generated programs): the Asio loop a program
// thread awaits database work on, Fitz values to and from Postgres parameters and rows, the
// DbRow box, and error texts. Internal to runtime/pg.
#pragma once

#include <boost/asio/io_context.hpp>
#include <memory>
#include <string>
#include <vector>

#include "fitz/orm_wire.h"
#include "fitz/runtime.h"
#include "pg/error.h"
#include "pg/query.h"

namespace fitz::db {

// The io_context of the current thread's scheduler. A thread whose scheduler has none (the
// built-in loop) gets an Asio-driven one installed first.
boost::asio::io_context& loop_context();
// Installs the Asio-driven scheduler on the calling thread unless it already has an Asio loop.
// Programs that link the `db` module call it for the main thread before main() runs, while
// no task is queued yet (a loop swapped later would strand tasks queued on the old one).
void install_program_loop();

// A Fitz value as a query parameter: Int, Float, Bool, null, Str (sent untyped, so the server
// infers the column type: timestamps, uuids and numerics are written as text), lists of Int
// or Str (int8[] / text[]) and maps with Str keys (jsonb).
Result<pg::Param, Str> param_from_any(const Any& value, std::size_t index);
Result<std::vector<pg::Param>, Str> params_from_any(const Any& list);

// Date, Uuid and lists of Date, DateTime or Uuid as parameters (text with an explicit type:
// date, uuid, date[], timestamptz[], uuid[]); nullopt for any other value (fitz_db_dates.cpp).
std::optional<pg::Param> date_param(const Any& value);
// A text cell of a date, timestamp, timestamptz or uuid column as a Date, DateTime or Uuid;
// false when the column has another type or the text does not parse (infinity, BC dates).
bool date_cell(pg::Oid type, std::string_view text, Any* out);

// A text-format cell as DbRow.get gives it (by the column's type; NULL is null).
Any cell_to_any(const pg::Column& column, std::optional<std::string_view> value);

// A result as the ORM's typed decoders read it (fitz/orm_wire.h), sharing its bytes.
orm::WireRows wire_rows(const std::shared_ptr<const pg::QueryResult>& result);

// One row of a result, shared by every DbRow of that result.
Any make_row(std::shared_ptr<const pg::QueryResult> result, std::size_t index);

// The Err text of a database error: "database unavailable: ..." when the server could not be
// reached or the connection was lost, else "ERROR: message (SQLSTATE xxxxx)" and the detail.
Str error_text(const pg::Error& error);
Str unavailable_text(std::string_view message);
// The Err text of a failed db.connect or lease: always "database unavailable: ...", since the
// pool only fails to connect (wrong password, unknown database, no server) or times out.
Str acquire_error_text(const pg::Error& error);

inline std::string std_of(const Str& s) { return std::string(s.data(), s.size()); }

}  // namespace fitz::db
