// Applying, rolling back and listing migrations. Every step runs in its own transaction with
// its tracking row (tracking.cpp); destructive SQL is refused before anything runs, so a refused
// file never stops a run half-way.
#include "migrate/engine.h"

#include <algorithm>
#include <fstream>
#include <ostream>
#include <sstream>

#include "migrate/tracking.h"

namespace fitz::migrate {

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool fail(const pg::Error& e, Output io) {
  io.err << "error: " << e.to_string() << "\n";
  return false;
}

}  // namespace

bool parse_file(std::string_view file_name, std::string text, const std::filesystem::path& path, Migration& out,
                bool& is_migration, Output io) {
  // A data migration is named like an SQL one: YYYYMMDDHHMMSS_<name>.fitz.
  bool data = file_name.ends_with(".fitz");
  auto version = migration_version(data ? std::string(file_name.substr(0, file_name.size() - 5)) + ".sql"
                                        : std::string(file_name));
  is_migration = bool(version);
  if (!version) {
    // Another Fitz file is a helper the data migrations import; a misnamed .sql file is a slip.
    if (!data && file_name.ends_with(".sql"))
      io.err << "warning: " << path.string() << " is not named YYYYMMDDHHMMSS_<name>.sql and is not a migration\n";
    return true;
  }
  if (data) {
    out.file.version = *version;
    out.file.name = version->substr(15);
    out.file.up = "-- data migration " + std::string(file_name) + "\n";
    out.file.down.clear();
    out.path = path;
    out.data = true;
    out.text = std::move(text);
    return true;
  }
  std::string error;
  auto parsed = parse_migration(*version, text, &error);
  if (!parsed) {
    io.err << "error: " << path.string() << ": " << error << "\n";
    return false;
  }
  out = Migration{std::move(*parsed), path, false, std::move(text)};
  return true;
}

bool sort_migrations(std::vector<Migration>& files, Output io) {
  std::sort(files.begin(), files.end(), [](const Migration& a, const Migration& b) { return a.file.version < b.file.version; });
  for (size_t i = 1; i < files.size(); ++i)
    if (files[i].file.version == files[i - 1].file.version) {
      io.err << "error: two migrations have version " << files[i].file.version << ": " << files[i - 1].path.string()
             << " and " << files[i].path.string() << "\n";
      return false;
    }
  return true;
}

bool read_directory(const std::filesystem::path& dir, std::vector<Migration>& out, Output io) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return true;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file()) continue;
    std::string file_name = entry.path().filename().string();
    if (!file_name.ends_with(".sql") && !file_name.ends_with(".fitz")) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      io.err << "error: cannot read " << entry.path().string() << "\n";
      return false;
    }
    Migration m;
    bool is_migration = false;
    if (!parse_file(file_name, text.str(), entry.path(), m, is_migration, io)) return false;
    if (is_migration) out.push_back(std::move(m));
  }
  if (ec) {
    io.err << "error: cannot list " << dir.string() << ": " << ec.message() << "\n";
    return false;
  }
  return sort_migrations(out, io);
}

bool apply(pg::BlockingConnection& conn, const std::vector<Migration>& files, const Settings& s, Output io) {
  // --dry-run and --sql change nothing, not even the tracking table.
  if (!s.dry_run && !s.sql)
    if (auto r = ensure_tracking_table(conn); !r) return fail(r.error(), io);
  auto applied = applied_versions(conn);
  if (!applied) return fail(applied.error(), io);
  std::vector<const Migration*> pending;
  for (const Migration& f : files)
    if (!contains(*applied, f.file.version)) pending.push_back(&f);
  if (pending.empty()) {
    // As an SQL comment under --sql, so the output stays a script.
    io.out << (s.sql ? "-- " : "") << "nothing to migrate: every migration in " << s.source << " is applied\n";
    return true;
  }
  // Refuse before running anything, so a destructive file does not stop a run half-way.
  bool refused = false;
  for (const Migration* f : pending)
    refused |= refuse_destructive("migration " + f->file.version, f->file.up, s.allow_destructive, io);
  if (refused) return false;
  for (const Migration* f : pending)
    if (f->data && (s.sql || !s.run_data)) {
      io.err << "error: migration " << f->file.version << " is a data migration (" << f->path.string() << "), which "
             << (s.sql ? "has no SQL to print" : "only the toolchain can build and run")
             << "; run it with `fitz db migrate`\n";
      return false;
    }
  if (s.sql) {
    io.out << "-- " << pending.size() << " pending migration(s); after running this script, record them with "
           << "`fitz db stamp --all`\n";
    for (const Migration* f : pending)
      io.out << "\n-- " << f->file.version << "\nBEGIN;\n" << f->file.up << (ends_statement(f->file.up) ? "" : ";\n")
             << "COMMIT;\n";
    return true;
  }
  for (const Migration* f : pending) {
    if (s.dry_run) {
      io.out << "-- would apply " << f->file.version << "\n" << f->file.up;
      continue;
    }
    bool ok = f->data ? s.run_data(*f, false)
                      : in_transaction(conn, "migration " + f->file.version, f->file.up,
                                       [&] { return record_applied(conn, f->file.version, f->file.up, f->file.down); }, io);
    if (!ok) return false;
    io.out << "applied " << f->file.version << "\n";
  }
  return true;
}

bool rollback(pg::BlockingConnection& conn, const std::vector<Migration>& files, const Settings& s, Output io) {
  auto present = applied_versions(conn);
  if (!present) return fail(present.error(), io);
  if (present->empty()) {
    io.out << "nothing to roll back: no migration is applied\n";
    return true;
  }
  if (auto r = ensure_tracking_table(conn); !r) return fail(r.error(), io);
  std::vector<pg::Param> limit{pg::Param::text(std::to_string(s.count))};
  auto rows = conn.query(
      "SELECT version, coalesce(down, '') AS down FROM \"_fitz_migrations\" ORDER BY version DESC LIMIT $1::int8",
      limit, {pg::Format::Text});
  if (!rows) return fail(rows.error(), io);
  struct Undo {
    std::string version, down;
    const Migration* data = nullptr;  // a data migration, undone by its `rollback` function
  };
  std::vector<Undo> undo;
  for (size_t i = 0; i < rows->size(); ++i) {
    Undo u{text_of(rows->row(i), "version"), text_of(rows->row(i), "down")};
    // The file's DOWN wins over the copy recorded when it was applied (it may have been fixed since).
    for (const Migration& f : files)
      if (f.file.version == u.version) {
        u.down = f.file.down;
        if (f.data) u.data = &f;
      }
    if (u.data) {
      if (!s.run_data) {
        io.err << "error: migration " << u.version << " is a data migration, which only the toolchain can build and "
               << "run; roll it back with `fitz db rollback`\n";
        return false;
      }
      if (!s.data_has_rollback(*u.data)) {
        io.err << "error: data migration " << u.version
               << " defines no `async fn rollback(db: DbConn)`; nothing to undo it with\n";
        return false;
      }
    } else if (only_comments(u.down)) {
      io.err << "error: migration " << u.version << " has no DOWN statements; nothing to undo it with\n";
      return false;
    }
    undo.push_back(std::move(u));
  }
  bool refused = false;
  for (const Undo& u : undo)
    if (!u.data) refused |= refuse_destructive("rolling back " + u.version, u.down, s.allow_destructive, io);
  if (refused) return false;
  for (const Undo& u : undo) {
    bool ok = u.data ? s.run_data(*u.data, true)
                     : in_transaction(conn, "rolling back " + u.version, u.down,
                                      [&] { return forget_applied(conn, u.version); }, io);
    if (!ok) return false;
    io.out << "rolled back " << u.version << "\n";
  }
  return true;
}

pg::Result<size_t> status(pg::BlockingConnection& conn, const std::vector<Migration>& files, Output io) {
  if (auto r = ensure_tracking_table(conn); !r) return r.error();
  auto applied = conn.query("SELECT version, applied_at::text AS at FROM \"_fitz_migrations\" ORDER BY version", {},
                            {pg::Format::Text});
  if (!applied) return applied.error();
  std::vector<std::string> done;
  for (size_t i = 0; i < applied->size(); ++i) {
    done.push_back(text_of(applied->row(i), "version"));
    io.out << "applied " << done.back() << " at " << text_of(applied->row(i), "at") << "\n";
  }
  size_t pending = 0;
  for (const Migration& f : files)
    if (!contains(done, f.file.version)) {
      io.out << "pending " << f.file.version << "\n";
      ++pending;
    }
  return pending;
}

}  // namespace fitz::migrate
