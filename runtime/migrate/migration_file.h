// Migration files of `fitz db new|migrate|rollback|check`: `migrations/YYYYMMDDHHMMSS_<name>.sql`
// with `-- Migration:` and `-- Created:` header lines, then an `-- UP` and a `-- DOWN` section of
// SQL. Pure text functions (no I/O): engine.cpp runs the sections, for `fitz db` and for the
// `APP migrate` of a built service alike.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fitz::migrate {

struct MigrationFile {
  std::string version;  // the file name without `.sql`: `20261130120000_add_users`
  std::string name;     // the part after the timestamp: `add_users`
  std::string up;       // SQL of the `-- UP` section (may hold several statements)
  std::string down;     // SQL of the `-- DOWN` section; empty when there is none
};

// A migration name is lower-case letters, digits and `_`, starting with a letter (it becomes
// part of a file name and of the version recorded in the database).
bool valid_migration_name(std::string_view name);

// `YYYYMMDDHHMMSS_<name>.sql` → the version (file name without `.sql`), or nullopt for files
// that are not migrations.
std::optional<std::string> migration_version(std::string_view file_name);

// Parses a migration file. On a malformed file (no `-- UP` line, a section given twice, SQL
// before `-- UP`) returns nullopt and sets `error`.
std::optional<MigrationFile> parse_migration(std::string_view version, std::string_view text, std::string* error);

// The text of a new migration file; `created` is an ISO-8601 UTC time. Statements get a `;`;
// lines starting with `--` (notes, statements left commented out) are written as they are.
std::string render_migration(std::string_view name, std::string_view created, const std::vector<std::string>& up,
                             const std::vector<std::string>& down);

// The statements of `sql` that lose data or schema (DROP TABLE/COLUMN/SCHEMA/DATABASE/VIEW/TYPE,
// TRUNCATE, DELETE, ALTER COLUMN .. TYPE), each shortened to its first words, for the
// `--allow-destructive` refusal. Comments, string literals, quoted identifiers and
// dollar-quoted bodies are not read as SQL.
std::vector<std::string> destructive_statements(std::string_view sql);

}  // namespace fitz::migrate
