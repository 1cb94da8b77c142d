// The one migration engine: applying, rolling back and listing migrations against the
// `_fitz_migrations` tracking table. `fitz db migrate|rollback|status` (files read from the
// project) and `APP migrate` of a built service (files embedded at build time) both call it.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "migrate/migration_file.h"
#include "pg/blocking_conn.h"

namespace fitz::migrate {

// A migration of the project: a parsed `.sql` file, or a `.fitz` data migration (its `up` is
// only a description; running it needs the toolchain, so only `fitz db` can).
struct Migration {
  MigrationFile file;
  std::filesystem::path path;  // where it came from: the file, or its name inside a binary
  bool data = false;
  std::string text;  // the file's text as read (what a build embeds)
};

struct Output {
  std::ostream& out;
  std::ostream& err;
};

struct Settings {
  bool allow_destructive = false;
  bool dry_run = false;  // apply: print what would run, change nothing
  bool sql = false;      // apply: print the pending SQL as a script, run and record nothing
  int count = 1;         // rollback: how many
  std::string source;    // where the migrations are, for messages: a folder, or "this binary"
  // Runs a data migration (or, with `undo`, its rollback) in one transaction with its tracking
  // row; false after an error. Without it, pending data migrations are refused up front.
  std::function<bool(const Migration&, bool undo)> run_data;
  // Whether a data migration defines `rollback`.
  std::function<bool(const Migration&)> data_has_rollback;
};

// One file (`YYYYMMDDHHMMSS_<name>.sql` or `.fitz`) read from `text`. Returns false, after an
// error, for a malformed migration; sets `is_migration` to false for files that are not
// migrations (a `.sql` file named otherwise gets a warning).
bool parse_file(std::string_view file_name, std::string text, const std::filesystem::path& path, Migration& out,
                bool& is_migration, Output io);
// The migrations of `dir` sorted by version (none when it does not exist); false after an
// error naming a malformed or unreadable file.
bool read_directory(const std::filesystem::path& dir, std::vector<Migration>& out, Output io);
// Sorts by version and refuses two files with the same version.
bool sort_migrations(std::vector<Migration>& files, Output io);

// Applies the pending migrations in order, each in its own transaction with its tracking row.
// Destructive SQL is refused before anything runs unless allowed. False after an error.
bool apply(pg::BlockingConnection& conn, const std::vector<Migration>& files, const Settings& s, Output io);
// Undoes the last `s.count` applied migrations with their DOWN sections (the file's, else the
// copy recorded when applied) and forgets them. False after an error.
bool rollback(pg::BlockingConnection& conn, const std::vector<Migration>& files, const Settings& s, Output io);
// Prints `applied V at T` for every recorded migration and `pending V` for every file not
// recorded; returns the number pending, or an error.
pg::Result<size_t> status(pg::BlockingConnection& conn, const std::vector<Migration>& files, Output io);

}  // namespace fitz::migrate
