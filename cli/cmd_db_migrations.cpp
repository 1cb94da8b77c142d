// `fitz db new|migrate|rollback`: the migration files of a project run by the engine that built
// services share (runtime/migrate), and the diff of the @table types applied when a project has
// no files. Every migration runs in its own transaction together with its tracking row.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <fstream>
#include <functional>
#include <ostream>
#include <sstream>

#include "cli/cmd_db_internal.h"

namespace fitz::cli::db {

std::pair<std::string, std::string> utc_now() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32], iso[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &tm);
  std::strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return {stamp, iso};
}

int fail(const pg::Error& e, Io io) {
  io.err << "error: " << e.to_string() << "\n";
  return kUserError;
}

pg::Result<orm::LiveSchema> read_schema(pg::BlockingConnection& conn) {
  orm::LiveSchema live;
  auto schemas = conn.query("SELECT nspname::text AS name FROM pg_namespace", {}, {pg::Format::Text});
  if (!schemas) return schemas.error();
  for (size_t i = 0; i < schemas->size(); ++i) live.schemas.push_back(text_of(schemas->row(i), "name"));
  auto cols = conn.query(
      "SELECT table_schema::text AS s, table_name::text AS t, column_name::text AS c, data_type::text AS d, "
      "is_nullable::text AS n FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', "
      "'information_schema') ORDER BY table_schema, table_name, ordinal_position",
      {}, {pg::Format::Text});
  if (!cols) return cols.error();
  for (size_t i = 0; i < cols->size(); ++i) {
    pg::Row r = cols->row(i);
    std::string s = text_of(r, "s"), t = text_of(r, "t");
    if (live.tables.empty() || live.tables.back().schema != s || live.tables.back().name != t)
      live.tables.push_back(orm::LiveTable{s, t, {}});
    live.tables.back().columns.push_back(orm::LiveColumn{text_of(r, "c"), text_of(r, "d"), text_of(r, "n") == "YES"});
  }
  auto idx = conn.query("SELECT indexname::text AS name FROM pg_indexes", {}, {pg::Format::Text});
  if (!idx) return idx.error();
  for (size_t i = 0; i < idx->size(); ++i) live.indexes.push_back(text_of(idx->row(i), "name"));
  return live;
}

bool read_migrations(const std::filesystem::path& dir, std::vector<OnDisk>& out, Io io) {
  return migrate::read_directory(dir, out, output_of(io));
}

migrate::Settings settings_of(const Options& o, Io io) {
  migrate::Settings s;
  s.allow_destructive = o.allow_destructive;
  s.dry_run = o.dry_run;
  s.sql = o.sql;
  s.count = o.count;
  s.source = o.migrations_dir.string();
  s.run_data = [&o, io](const OnDisk& f, bool undo) { return run_data_migration(o, f, undo, io); };
  s.data_has_rollback = data_migration_has_rollback;
  return s;
}

int run_new(const Options& o, const std::vector<const orm::TableModel*>& tables, Io io) {
  std::vector<std::string> up, down;
  if (!o.empty) {
    auto conn = pg::BlockingConnection::connect(o.url);
    if (!conn) {
      io.err << "error: cannot connect to the database: " << conn.error().to_string()
             << " (pass --empty for a template that does not read it)\n";
      return kUserError;
    }
    // A diff against a database that lacks pending migrations would repeat them.
    std::vector<OnDisk> files;
    if (!read_migrations(o.migrations_dir, files, io)) return kUserError;
    auto applied = applied_versions(*conn);
    if (!applied) return fail(applied.error(), io);
    for (const OnDisk& f : files)
      if (std::find(applied->begin(), applied->end(), f.file.version) == applied->end()) {
        io.err << "error: migration " << f.file.version
               << " is not applied yet; run `fitz db migrate` first, or pass --empty for a template\n";
        return kUserError;
      }
    auto live = read_schema(*conn);
    if (!live) return fail(live.error(), io);
    orm::SchemaDiff diff = orm::diff_schema(tables, *live);
    up = diff.statements;
    down = diff.down;
    for (const std::string& s : diff.destructive) up.push_back(o.allow_destructive ? s : "-- " + s);
    for (const std::string& n : diff.notes) up.push_back("-- " + n);
  }
  auto [stamp, iso] = utc_now();
  std::filesystem::path path = o.migrations_dir / (stamp + "_" + o.name + ".sql");
  std::error_code ec;
  std::filesystem::create_directories(o.migrations_dir, ec);
  if (ec) {
    io.err << "error: cannot create " << o.migrations_dir.string() << ": " << ec.message() << "\n";
    return kUserError;
  }
  if (std::filesystem::exists(path)) {
    io.err << "error: " << path.string() << " already exists\n";
    return kUserError;
  }
  std::ofstream out(path, std::ios::binary);
  out << migrate::render_migration(o.name, iso, up, down);
  out.close();
  if (!out) {
    io.err << "error: cannot write " << path.string() << "\n";
    return kUserError;
  }
  io.out << "created " << path.string() << " (" << up.size() << " statement(s) in UP)\n";
  return kOk;
}

int run_migrate(const Options& o, pg::BlockingConnection& conn, const orm::SchemaDiff& diff, Io io) {
  std::vector<OnDisk> files;
  if (!read_migrations(o.migrations_dir, files, io)) return kUserError;
  if (!files.empty()) return migrate::apply(conn, files, settings_of(o, io), output_of(io)) ? kOk : kUserError;

  // No files: the diff of the @table types, applied as one recorded migration.
  if (!o.dry_run && !o.sql)
    if (auto r = ensure_tracking_table(conn); !r) return fail(r.error(), io);
  std::vector<std::string> statements = diff.statements;
  if (o.allow_destructive) statements.insert(statements.end(), diff.destructive.begin(), diff.destructive.end());
  for (const std::string& n : diff.notes)
    if (!o.allow_destructive || n.find("destructive") == std::string::npos) io.out << "-- " << n << "\n";
  if (statements.empty()) {
    io.out << (o.sql ? "-- " : "") << "nothing to migrate: the database matches the @table types\n";
    return kOk;
  }
  std::string all, down;
  for (const std::string& s : statements) all += s + ";\n";
  for (const std::string& s : diff.down) down += s + ";\n";
  if (o.sql) {
    io.out << "BEGIN;\n" << all << "COMMIT;\n";
    return kOk;
  }
  if (o.dry_run) {
    io.out << all << "-- dry run: nothing applied\n";
    return kOk;
  }
  std::string version = utc_now().first + "_schema";
  // Two diff migrations in the same second get distinct versions.
  auto applied = applied_versions(conn);
  if (!applied) return fail(applied.error(), io);
  for (int n = 2; std::find(applied->begin(), applied->end(), version) != applied->end(); ++n)
    version = utc_now().first + "_schema" + std::to_string(n);
  bool ok = in_transaction(conn, "the migration", all, [&] { return record_applied(conn, version, all, down); }, io);
  if (!ok) return kUserError;
  io.out << all << "applied " << statements.size() << " statement(s) as migration " << version << "\n";
  return kOk;
}

int run_rollback(const Options& o, pg::BlockingConnection& conn, Io io) {
  std::vector<OnDisk> files;
  if (!read_migrations(o.migrations_dir, files, io)) return kUserError;
  return migrate::rollback(conn, files, settings_of(o, io), output_of(io)) ? kOk : kUserError;
}

}  // namespace fitz::cli::db
