// The tracking table, the one-transaction-per-step rule, and the small SQL text checks the
// engine and `fitz db` share.
#include "migrate/tracking.h"

#include <ostream>
#include <sstream>

namespace fitz::migrate {

namespace {

constexpr const char* kTrackingTable =
    "CREATE TABLE IF NOT EXISTS \"_fitz_migrations\" (\"version\" text PRIMARY KEY, "
    "\"applied_at\" timestamptz NOT NULL DEFAULT now(), \"statements\" text NOT NULL)";
// Tables created before rollback existed lack the column holding the undo statements.
constexpr const char* kTrackingDown = "ALTER TABLE \"_fitz_migrations\" ADD COLUMN IF NOT EXISTS \"down\" text";

}  // namespace

pg::Status ensure_tracking_table(pg::BlockingConnection& conn) {
  if (auto r = conn.simple_query(kTrackingTable); !r) return r.error();
  if (auto r = conn.simple_query(kTrackingDown); !r) return r.error();
  return {};
}

pg::Result<std::vector<std::string>> applied_versions(pg::BlockingConnection& conn) {
  std::vector<std::string> versions;
  auto exists = conn.query("SELECT to_regclass('\"_fitz_migrations\"') IS NOT NULL AS present", {}, {pg::Format::Text});
  if (!exists) return exists.error();
  if (text_of(exists->row(0), "present") != "t") return versions;
  auto rows = conn.query("SELECT version FROM \"_fitz_migrations\" ORDER BY version", {}, {pg::Format::Text});
  if (!rows) return rows.error();
  for (size_t i = 0; i < rows->size(); ++i) versions.push_back(text_of(rows->row(i), "version"));
  return versions;
}

pg::Status record_applied(pg::BlockingConnection& conn, const std::string& version, const std::string& up,
                          const std::string& down) {
  std::vector<pg::Param> params{pg::Param::text(version), pg::Param::text(up), pg::Param::text(down)};
  auto r = conn.query("INSERT INTO \"_fitz_migrations\" (\"version\", \"statements\", \"down\") VALUES ($1, $2, $3)",
                      params, {pg::Format::Text});
  if (!r) return r.error();
  return {};
}

pg::Status forget_applied(pg::BlockingConnection& conn, const std::string& version) {
  std::vector<pg::Param> p{pg::Param::text(version)};
  auto r = conn.query("DELETE FROM \"_fitz_migrations\" WHERE version = $1", p, {pg::Format::Text});
  if (!r) return r.error();
  return {};
}

bool in_transaction(pg::BlockingConnection& conn, std::string_view what, std::string_view sql,
                    const std::function<pg::Status()>& record, Output io) {
  if (auto r = conn.simple_query("BEGIN"); !r) {
    io.err << "error: " << r.error().to_string() << "\n";
    return false;
  }
  auto undo = [&](const pg::Error& e) {
    (void)conn.simple_query("ROLLBACK");
    io.err << "error: " << what << " failed and was rolled back: " << e.to_string() << "\n";
    return false;
  };
  if (!only_comments(sql))
    if (auto r = conn.simple_query(sql); !r) return undo(r.error());
  if (auto r = record(); !r) return undo(r.error());
  if (auto r = conn.simple_query("COMMIT"); !r) {
    io.err << "error: " << r.error().to_string() << "\n";
    return false;
  }
  return true;
}

std::string text_of(const pg::Row& row, std::string_view column) {
  auto v = row.get<std::optional<std::string>>(column);
  return v && *v ? **v : std::string();
}

bool ends_statement(std::string_view sql) {
  std::istringstream in{std::string(sql)};
  std::string line, last;
  while (std::getline(in, line)) {
    auto first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos && line.compare(first, 2, "--") != 0) last = line;
  }
  auto end = last.find_last_not_of(" \t\r");
  return last.empty() || last[end] == ';';
}

bool only_comments(std::string_view sql) {
  std::istringstream in{std::string(sql)};
  std::string line;
  while (std::getline(in, line)) {
    auto first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos && line.compare(first, 2, "--") != 0) return false;
  }
  return true;
}

bool refuse_destructive(std::string_view what, std::string_view sql, bool allowed, Output io) {
  if (allowed) return false;
  auto found = destructive_statements(sql);
  if (found.empty()) return false;
  io.err << "error: " << what << " is destructive and was not run (pass --allow-destructive to run it):\n";
  for (const std::string& s : found) io.err << "  " << s << "\n";
  return true;
}

}  // namespace fitz::migrate
