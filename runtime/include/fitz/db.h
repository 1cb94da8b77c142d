// The `db` built-in of Fitz programs: `db.connect(url)` leases a pooled Postgres connection
// (a `DbConn`), whose `query`/`exec` always send values as $n parameters and whose
// `transaction(async fn(tx) {...})` commits on Ok and rolls back on Err or a runtime error.
// Rows are `DbRow`s (`get`, `get_int`, `get_str`, `get_float`, `get_bool`, `len`). All of it is
// reached through `Any` (DbConn and DbRow are opaque built-in types), so this header stays
// free of Boost; the implementation is libfitz_db (runtime/pg/fitz_db*.cpp).
//
// Database errors are `Err(Str)` values. A connection that cannot be made or was lost reads
// "database unavailable: ..." (`db_unavailable` recognises it; HTTP handlers answer 503).
#pragma once

#include "fitz/any.h"

namespace fitz {

// The value of the built-in `db`.
Any db_module();

// Whether an error returned by a database operation means the database could not be reached
// (connect failure, lost connection, pool timeout) rather than a problem with the statement.
bool db_unavailable(const Str& error);

}  // namespace fitz
