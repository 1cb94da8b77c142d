// Shared by the `fitz db` subcommands (cmd_db.cpp: options, diff, status, check;
// cmd_db_migrations.cpp: new, migrate, rollback over the engine in runtime/migrate; cmd_db_history.cpp:
// history, stamp, squash; cmd_db_inspect.cpp: inspect).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/driver.h"
#include "orm/ddl.h"
#include "migrate/engine.h"
#include "migrate/tracking.h"
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
  bool sql = false;    // `migrate --sql`: print the SQL script, run nothing
  bool all = false;    // `stamp --all`
  std::string out;     // `diff --out F`
  std::vector<std::string> versions;  // `stamp V`, `squash FROM TO`
  // inspect
  std::string schema;  // --schema S (default public)
  std::string table;   // --table T or S.T
  bool all_schemas = false;
  bool json = false;
};

// A migration file on disk, parsed (runtime/migrate: the engine `APP migrate` runs too).
using OnDisk = migrate::Migration;
using migrate::applied_versions;
using migrate::ends_statement;
using migrate::ensure_tracking_table;
using migrate::only_comments;
using migrate::record_applied;
using migrate::text_of;

inline migrate::Output output_of(Io io) { return {io.out, io.err}; }
// The engine's settings for these options: data migrations are built and run by cmd_db_data.cpp.
migrate::Settings settings_of(const Options& o, Io io);

// The files of `dir` sorted by version; a malformed file is an error naming it.
bool read_migrations(const std::filesystem::path& dir, std::vector<OnDisk>& out, Io io);

int run_new(const Options& o, const std::vector<const orm::TableModel*>& tables, Io io);
int run_migrate(const Options& o, pg::BlockingConnection& conn, const orm::SchemaDiff& diff, Io io);
int run_rollback(const Options& o, pg::BlockingConnection& conn, Io io);
int run_history(const Options& o, pg::BlockingConnection& conn, Io io);
int run_stamp(const Options& o, pg::BlockingConnection& conn, Io io);
int run_squash(const Options& o, pg::BlockingConnection& conn, Io io);
int run_inspect(const Options& o, pg::BlockingConnection& conn, Io io);
// Builds and runs a data migration's `migrate` (or, with `undo`, its `rollback`) in one
// transaction with its tracking row; false after an error when it failed (nothing changed).
bool run_data_migration(const Options& o, const OnDisk& f, bool undo, Io io);
// Whether the data migration defines `rollback`.
bool data_migration_has_rollback(const OnDisk& f);

// The migration file `arg` names: its whole version, its 14-digit timestamp or its name (when
// only one file has it). Null, after an error naming the known versions, when none matches.
const OnDisk* find_migration(const std::vector<OnDisk>& files, std::string_view arg, const Options& o, Io io);
// UTC now as 20261130120000 (file names) and 2026-11-30T12:00:00Z (file headers).
std::pair<std::string, std::string> utc_now();
// Runs `sql` and the tracking change `record` in one transaction; false (after ROLLBACK and an
// error naming `what`) on failure.
inline bool in_transaction(pg::BlockingConnection& conn, std::string_view what, std::string_view sql,
                           const std::function<pg::Status()>& record, Io io) {
  return migrate::in_transaction(conn, what, sql, record, output_of(io));
}

pg::Result<orm::LiveSchema> read_schema(pg::BlockingConnection& conn);
int fail(const pg::Error& e, Io io);

}  // namespace fitz::cli::db
