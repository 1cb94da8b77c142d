// The `_fitz_migrations` tracking table and the transaction every migration step runs in, so a
// failed step leaves neither its changes nor its tracking row behind. Used by engine.cpp and by
// the `fitz db history|stamp|squash` commands that edit the record directly.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "migrate/engine.h"
#include "pg/blocking_conn.h"

namespace fitz::migrate {

// Creates the tracking table (and the `down` column older tables lack).
pg::Status ensure_tracking_table(pg::BlockingConnection& conn);
// The versions recorded, in order (empty when the table does not exist yet).
pg::Result<std::vector<std::string>> applied_versions(pg::BlockingConnection& conn);
// Records `version` as applied (with its UP and DOWN texts) in the current transaction.
pg::Status record_applied(pg::BlockingConnection& conn, const std::string& version, const std::string& up,
                          const std::string& down);
// Forgets `version` in the current transaction.
pg::Status forget_applied(pg::BlockingConnection& conn, const std::string& version);
// Runs `sql` and the tracking change `record` in one transaction; false (after ROLLBACK and an
// error naming `what`) on failure.
bool in_transaction(pg::BlockingConnection& conn, std::string_view what, std::string_view sql,
                    const std::function<pg::Status()>& record, Output io);

// A text column of a row ("" for NULL).
std::string text_of(const pg::Row& row, std::string_view column);
// Only comments and blank lines: nothing to run.
bool only_comments(std::string_view sql);
// The last SQL line (comments and blank lines aside) ends with `;`, so text appended after it
// starts a new statement.
bool ends_statement(std::string_view sql);
// The refusal of destructive SQL unless allowed; true when refused (after naming the statements).
bool refuse_destructive(std::string_view what, std::string_view sql, bool allowed, Output io);

}  // namespace fitz::migrate
