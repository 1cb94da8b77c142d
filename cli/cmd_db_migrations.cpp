// `fitz db new|migrate|rollback` and what they share: the migration files of a project, the
// `_fitz_migrations` tracking table, and the refusal of destructive SQL. Every migration runs in
// its own transaction together with its tracking row, so a failed one leaves neither behind.
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

namespace {

constexpr const char* kTrackingTable =
    "CREATE TABLE IF NOT EXISTS \"_fitz_migrations\" (\"version\" text PRIMARY KEY, "
    "\"applied_at\" timestamptz NOT NULL DEFAULT now(), \"statements\" text NOT NULL)";
// Tables created before rollback existed lack the column holding the undo statements.
constexpr const char* kTrackingDown = "ALTER TABLE \"_fitz_migrations\" ADD COLUMN IF NOT EXISTS \"down\" text";

}  // namespace

std::pair<std::string, std::string> utc_now() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32], iso[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &tm);
  std::strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return {stamp, iso};
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

bool in_transaction(pg::BlockingConnection& conn, std::string_view what, std::string_view sql,
                    const std::function<pg::Status()>& record, Io io) {
  if (auto r = conn.simple_query("BEGIN"); !r) {
    fail(r.error(), io);
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
    fail(r.error(), io);
    return false;
  }
  return true;
}

pg::Status record_applied(pg::BlockingConnection& conn, const std::string& version, const std::string& up,
                          const std::string& down) {
  std::vector<pg::Param> params{pg::Param::text(version), pg::Param::text(up), pg::Param::text(down)};
  auto r = conn.query("INSERT INTO \"_fitz_migrations\" (\"version\", \"statements\", \"down\") VALUES ($1, $2, $3)",
                      params, {pg::Format::Text});
  if (!r) return r.error();
  return {};
}

std::string text_of(const pg::Row& row, std::string_view column) {
  auto v = row.get<std::optional<std::string>>(column);
  return v && *v ? **v : std::string();
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
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return true;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file()) continue;
    std::string file_name = entry.path().filename().string();
    // A data migration is named like an SQL one: YYYYMMDDHHMMSS_<name>.fitz.
    bool data = file_name.ends_with(".fitz");
    auto version = orm::migration_version(data ? file_name.substr(0, file_name.size() - 5) + ".sql" : file_name);
    if (data && !version) continue;  // another Fitz file (a helper the migrations import)
    if (!version) {
      if (file_name.ends_with(".sql"))
        io.err << "warning: " << entry.path().string()
               << " is not named YYYYMMDDHHMMSS_<name>.sql and is not a migration\n";
      continue;
    }
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      io.err << "error: cannot read " << entry.path().string() << "\n";
      return false;
    }
    if (data) {
      orm::MigrationFile m;
      m.version = *version;
      m.name = version->substr(15);
      m.up = "-- data migration " + file_name + "\n";
      out.push_back(OnDisk{std::move(m), entry.path(), true});
      continue;
    }
    std::string error;
    auto parsed = orm::parse_migration(*version, text.str(), &error);
    if (!parsed) {
      io.err << "error: " << entry.path().string() << ": " << error << "\n";
      return false;
    }
    out.push_back(OnDisk{std::move(*parsed), entry.path()});
  }
  if (ec) {
    io.err << "error: cannot list " << dir.string() << ": " << ec.message() << "\n";
    return false;
  }
  std::sort(out.begin(), out.end(), [](const OnDisk& a, const OnDisk& b) { return a.file.version < b.file.version; });
  return true;
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

pg::Status ensure_tracking_table(pg::BlockingConnection& conn) {
  if (auto r = conn.simple_query(kTrackingTable); !r) return r.error();
  if (auto r = conn.simple_query(kTrackingDown); !r) return r.error();
  return {};
}

bool refuse_destructive(std::string_view what, std::string_view sql, const Options& o, Io io) {
  if (o.allow_destructive) return false;
  auto found = orm::destructive_statements(sql);
  if (found.empty()) return false;
  io.err << "error: " << what << " is destructive and was not run (pass --allow-destructive to run it):\n";
  for (const std::string& s : found) io.err << "  " << s << "\n";
  return true;
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
  out << orm::render_migration(o.name, iso, up, down);
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
  // --dry-run and --sql change nothing, not even the tracking table.
  bool runs = !o.dry_run && !o.sql;
  if (runs)
    if (auto r = ensure_tracking_table(conn); !r) return fail(r.error(), io);

  if (!files.empty()) {
    auto applied = applied_versions(conn);
    if (!applied) return fail(applied.error(), io);
    std::vector<const OnDisk*> pending;
    for (const OnDisk& f : files)
      if (std::find(applied->begin(), applied->end(), f.file.version) == applied->end()) pending.push_back(&f);
    if (pending.empty()) {
      // As an SQL comment under --sql, so the output stays a script.
      io.out << (o.sql ? "-- " : "") << "nothing to migrate: every migration in " << o.migrations_dir.string()
             << " is applied\n";
      return kOk;
    }
    // Refuse before running anything, so a destructive file does not stop a run half-way.
    bool refused = false;
    for (const OnDisk* f : pending) refused |= refuse_destructive("migration " + f->file.version, f->file.up, o, io);
    if (refused) return kUserError;
    if (o.sql) {
      for (const OnDisk* f : pending)
        if (f->data) {
          io.err << "error: migration " << f->file.version << " is a data migration (" << f->path.string()
                 << "), which has no SQL to print; run it with `fitz db migrate`\n";
          return kUserError;
        }
      io.out << "-- " << pending.size() << " pending migration(s); after running this script, record them with "
             << "`fitz db stamp --all`\n";
      for (const OnDisk* f : pending)
        io.out << "\n-- " << f->file.version << "\nBEGIN;\n" << f->file.up << (ends_statement(f->file.up) ? "" : ";\n")
               << "COMMIT;\n";
      return kOk;
    }
    for (const OnDisk* f : pending) {
      if (o.dry_run) {
        io.out << "-- would apply " << f->file.version << "\n" << f->file.up;
        continue;
      }
      if (f->data) {
        if (!run_data_migration(o, *f, false, io)) return kUserError;
        io.out << "applied " << f->file.version << "\n";
        continue;
      }
      bool ok = in_transaction(conn, "migration " + f->file.version, f->file.up,
                               [&] { return record_applied(conn, f->file.version, f->file.up, f->file.down); }, io);
      if (!ok) return kUserError;
      io.out << "applied " << f->file.version << "\n";
    }
    return kOk;
  }

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
  auto present = applied_versions(conn);
  if (!present) return fail(present.error(), io);
  if (present->empty()) {
    io.out << "nothing to roll back: no migration is applied\n";
    return kOk;
  }
  if (auto r = ensure_tracking_table(conn); !r) return fail(r.error(), io);
  std::vector<pg::Param> limit{pg::Param::text(std::to_string(o.count))};
  auto rows = conn.query(
      "SELECT version, coalesce(down, '') AS down FROM \"_fitz_migrations\" ORDER BY version DESC LIMIT $1::int8",
      limit, {pg::Format::Text});
  if (!rows) return fail(rows.error(), io);
  struct Undo {
    std::string version, down;
    const OnDisk* data = nullptr;  // a data migration, undone by its `rollback` function
  };
  std::vector<Undo> undo;
  for (size_t i = 0; i < rows->size(); ++i) {
    Undo u{text_of(rows->row(i), "version"), text_of(rows->row(i), "down")};
    // The file's DOWN wins over the copy recorded when it was applied (it may have been fixed since).
    for (const OnDisk& f : files)
      if (f.file.version == u.version) {
        u.down = f.file.down;
        if (f.data) u.data = &f;
      }
    if (u.data) {
      if (!data_migration_has_rollback(*u.data)) {
        io.err << "error: data migration " << u.version << " defines no `async fn rollback(db: DbConn)`; nothing to undo it with\n";
        return kUserError;
      }
      undo.push_back(std::move(u));
      continue;
    }
    if (only_comments(u.down)) {
      io.err << "error: migration " << u.version << " has no DOWN statements; nothing to undo it with\n";
      return kUserError;
    }
    undo.push_back(std::move(u));
  }
  bool refused = false;
  for (const Undo& u : undo)
    if (!u.data) refused |= refuse_destructive("rolling back " + u.version, u.down, o, io);
  if (refused) return kUserError;
  for (const Undo& u : undo) {
    auto forget = [&]() -> pg::Status {
      std::vector<pg::Param> p{pg::Param::text(u.version)};
      auto r = conn.query("DELETE FROM \"_fitz_migrations\" WHERE version = $1", p, {pg::Format::Text});
      if (!r) return r.error();
      return {};
    };
    if (u.data ? !run_data_migration(o, *u.data, true, io)
               : !in_transaction(conn, "rolling back " + u.version, u.down, forget, io))
      return kUserError;
    io.out << "rolled back " << u.version << "\n";
  }
  return kOk;
}

}  // namespace fitz::cli::db
