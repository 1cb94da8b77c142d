// Shared by the `fitz db` subcommands (cmd_db.cpp: options, diff, status, check;
// cmd_db_migrations.cpp: new, migrate, rollback and the migration files).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/driver.h"
#include "orm/ddl.h"
#include "orm/migration_file.h"
#include "pg/blocking_conn.h"

namespace fitz::cli::db {

struct Options {
  std::string sub;
  std::string name;    // `new <name>`
  std::string target;  // the program: a .fitz file, a directory, or empty for the project
  std::string url;
  std::filesystem::path migrations_dir;  // --dir, else <project>/migrations
  bool allow_destructive = false;
  bool dry_run = false;
  bool empty = false;  // `new --empty`: a template, without reading the database
  int count = 1;       // `rollback --count N`
};

// A migration file on disk, parsed.
struct OnDisk {
  orm::MigrationFile file;
  std::filesystem::path path;
};

// The files of `dir` sorted by version; a malformed file is an error naming it.
bool read_migrations(const std::filesystem::path& dir, std::vector<OnDisk>& out, Io io);
// The versions recorded in _fitz_migrations (empty when the table does not exist yet).
pg::Result<std::vector<std::string>> applied_versions(pg::BlockingConnection& conn);
// Creates the tracking table (and the `down` column older tables lack).
pg::Status ensure_tracking_table(pg::BlockingConnection& conn);
// The refusal of destructive SQL without --allow-destructive; true when refused.
bool refuse_destructive(std::string_view what, std::string_view sql, const Options& o, Io io);

int run_new(const Options& o, const std::vector<const orm::TableModel*>& tables, Io io);
int run_migrate(const Options& o, pg::BlockingConnection& conn, const orm::SchemaDiff& diff, Io io);
int run_rollback(const Options& o, pg::BlockingConnection& conn, Io io);

pg::Result<orm::LiveSchema> read_schema(pg::BlockingConnection& conn);
std::string text_of(const pg::Row& row, std::string_view column);
int fail(const pg::Error& e, Io io);

}  // namespace fitz::cli::db
