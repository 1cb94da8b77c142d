// `fitz db`: the `@table` types of a program against a live Postgres schema, and the migration
// files of the project. This file parses the options and runs the read-only subcommands: `diff`
// prints the DDL that would bring the database to the types, `status` lists applied and pending
// migrations, `check` exits 1 when anything has drifted. `new`, `migrate` and `rollback` are in
// cmd_db_migrations.cpp, `history`, `stamp` and `squash` in cmd_db_history.cpp, `inspect` in
// cmd_db_inspect.cpp.
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <ostream>

#include "checker/check_orm.h"
#include "checker/checker.h"
#include "cli/cmd_db_internal.h"
#include "cli/migrations_dir.h"
#include "frontend/project.h"
#include "frontend/render.h"

namespace fitz::cli {

namespace {

constexpr const char* kDbUsage = R"(usage: fitz db <subcommand> [PATH] [options]

Compares the @table types of a .fitz file, a directory or (with no PATH) the project around the
current directory with the schema of a Postgres database (--url, else DATABASE_URL), and manages
the migration files in migrations/: YYYYMMDDHHMMSS_<name>.sql with `-- UP` and `-- DOWN`, and
data migrations YYYYMMDDHHMMSS_<name>.fitz defining `async fn migrate(db: DbConn) ->
Result<Null>` (and `rollback`, to undo it), built and run in order with the SQL files.

  new NAME   write migrations/<timestamp>_NAME.sql; with a database, its UP holds the DDL that
             brings the database to the types and its DOWN the DDL that undoes it
  diff       print the DDL that would bring the database to the types (additive changes only;
             differences it leaves alone are printed as comments)
  migrate    apply the pending migration files, each in its own transaction; without files,
             apply the diff in one transaction; both are recorded in _fitz_migrations
  rollback   run the DOWN section of the last applied migration(s) and forget them
  status     list the applied and pending migrations and say whether the database matches
  check      exit 1 when migrations are pending or the database differs from the types
  history    the applied migrations with the time each was applied, then the pending ones
  stamp V    record migration V (its version, timestamp or name) as applied without running
             it; `stamp --all` records every pending file
  squash FROM TO
             replace the migration files FROM..TO by one (UP: their UPs in order, DOWN: their
             DOWNs in reverse); refused when only part of the range is applied
  inspect    print the live schema: tables, columns (type, nullability, default), indexes and
             foreign keys (needs no program)

options:
  --url URL             the database (default: the DATABASE_URL environment variable)
  --dir DIR             the migration files (default: migrations/ of the project)
  --allow-destructive   run statements that drop tables, columns or data (DROP, TRUNCATE,
                        DELETE, column type changes); refused without it
  --dry-run             migrate: print what would run, change nothing
  --sql                 migrate: print the pending SQL as a script (each migration in
                        BEGIN/COMMIT), run and record nothing
  --count N             rollback: how many migrations to undo (default 1)
  --empty               new: write an empty template without reading the database
  --out FILE            diff: write the DDL to FILE instead of printing it
  --all                 stamp: record every pending migration
  --schema S            inspect: the schema to show (default public)
  --all-schemas         inspect: every schema but the system ones
  --table T             inspect: only table T (or S.T)
  --json                inspect: JSON instead of text (sorted, stable)
  -h, --help            show this help
)";

int usage(Io io, const std::string& message) {
  io.err << "error: " << message << "\n\n" << kDbUsage;
  return kUsageError;
}

// An option given to a subcommand that has no use for it is a usage error, not silently ignored.
int check_option_use(const db::Options& o, Io io) {
  auto only = [&](bool given, std::string_view option, std::initializer_list<std::string_view> subs) {
    if (!given || std::find(subs.begin(), subs.end(), o.sub) != subs.end()) return int(kOk);
    // Appended piecewise: GCC 12 warns (-Wrestrict) about "literal" + std::string here.
    std::string message(option);
    message.insert(0, 1, '`');
    message.append("` does not apply to `fitz db ").append(o.sub).append("`");
    return usage(io, message);
  };
  for (int r : {only(o.dry_run, "--dry-run", {"migrate"}), only(o.sql, "--sql", {"migrate"}),
                only(o.empty, "--empty", {"new"}), only(!o.out.empty(), "--out", {"diff"}),
                only(o.all, "--all", {"stamp"}), only(!o.schema.empty(), "--schema", {"inspect"}),
                only(!o.table.empty(), "--table", {"inspect"}), only(o.all_schemas, "--all-schemas", {"inspect"}),
                only(o.json, "--json", {"inspect"})})
    if (r != kOk) return r;
  if (o.dry_run && o.sql) return usage(io, "`--dry-run` and `--sql` are alternatives; give one");
  if (o.all_schemas && !o.schema.empty()) return usage(io, "`--schema` and `--all-schemas` are alternatives; give one");
  return kOk;
}

// The connection of every subcommand but `new`; the error says what failed, never the password.
std::optional<pg::BlockingConnection> open_database(const db::Options& o, Io io) {
  auto conn = pg::BlockingConnection::connect(o.url);
  if (!conn) {
    io.err << "error: cannot connect to the database: " << conn.error().to_string() << "\n";
    return std::nullopt;
  }
  return std::move(*conn);
}

// Drift reported by `check`: pending files, missing DDL, differences left alone.
int run_check(const db::Options& o, pg::BlockingConnection& conn, const orm::SchemaDiff& diff, Io io) {
  std::vector<db::OnDisk> files;
  if (!db::read_migrations(o.migrations_dir, files, io)) return kUserError;
  auto applied = db::applied_versions(conn);
  if (!applied) return db::fail(applied.error(), io);
  size_t problems = 0;
  for (const db::OnDisk& f : files)
    if (std::find(applied->begin(), applied->end(), f.file.version) == applied->end()) {
      io.out << "pending migration " << f.file.version << "\n";
      ++problems;
    }
  for (const std::string& s : diff.statements) {
    io.out << "missing: " << s << ";\n";
    ++problems;
  }
  for (const std::string& n : diff.notes) {
    io.out << "differs: " << n << "\n";
    ++problems;
  }
  if (problems == 0) {
    io.out << "in sync: every migration is applied and the database matches the @table types\n";
    return kOk;
  }
  io.out << "drifted: " << problems << " difference(s)\n";
  return kUserError;
}

int run_status(const db::Options& o, pg::BlockingConnection& conn, const orm::SchemaDiff& diff, Io io) {
  std::vector<db::OnDisk> files;
  if (!db::read_migrations(o.migrations_dir, files, io)) return kUserError;
  auto pending_files = migrate::status(conn, files, db::output_of(io));
  if (!pending_files) return db::fail(pending_files.error(), io);
  if (diff.statements.empty()) io.out << "in sync: the database matches the @table types\n";
  else io.out << "pending: " << diff.statements.size() << " statement(s); `fitz db diff` shows them\n";
  return diff.statements.empty() && *pending_files == 0 ? kOk : kUserError;
}

}  // namespace

int cmd_db(const std::vector<std::string>& args, Io io) {
  db::Options o;
  std::string dir;
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (a == "-h" || a == "--help") {
      io.out << kDbUsage;
      return kOk;
    }
    auto value = [&](std::string_view flag, std::string& into) -> int {
      if (a == flag) {
        if (i + 1 >= args.size()) return usage(io, std::string(1, '`').append(flag).append("` needs a value"));
        into = args[++i];
        return -1;
      }
      if (a.starts_with(std::string(flag) + "=")) {
        into = std::string(a.substr(flag.size() + 1));
        return -1;
      }
      return 0;
    };
    std::string count;
    int r = value("--url", o.url);
    if (r == 0) r = value("--dir", dir);
    if (r == 0) r = value("--count", count);
    if (r == 0) r = value("--out", o.out);
    if (r == 0) r = value("--schema", o.schema);
    if (r == 0) r = value("--table", o.table);
    if (r > 0) return r;
    if (r < 0) {
      if (!count.empty()) {
        auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), o.count);
        if (ec != std::errc() || end != count.data() + count.size() || o.count < 1)
          return usage(io, "`--count` needs a positive whole number, got `" + count + "`");
      }
      continue;
    }
    if (a == "--allow-destructive") o.allow_destructive = true;
    else if (a == "--dry-run") o.dry_run = true;
    else if (a == "--empty") o.empty = true;
    else if (a == "--sql") o.sql = true;
    else if (a == "--all") o.all = true;
    else if (a == "--all-schemas") o.all_schemas = true;
    else if (a == "--json") o.json = true;
    else if (a.starts_with("-")) return usage(io, "unknown option `" + std::string(a) + "` for `fitz db`");
    else positional.push_back(std::string(a));
  }
  static const std::vector<std::string> subs = {"new",     "diff",  "migrate", "rollback", "status",
                                                "check",   "history", "stamp", "squash",   "inspect"};
  if (positional.empty()) return usage(io, "`fitz db` needs a subcommand");
  o.sub = positional[0];
  if (std::find(subs.begin(), subs.end(), o.sub) == subs.end())
    return usage(io, "unknown subcommand `" + o.sub + "` for `fitz db`");
  size_t next = 1;
  if (o.sub == "new") {
    if (positional.size() < 2) return usage(io, "`fitz db new` needs a migration name");
    o.name = positional[1];
    if (!migrate::valid_migration_name(o.name))
      return usage(io, "a migration name is lower-case letters, digits and `_`, starting with a letter; got `" +
                           o.name + "`");
    next = 2;
  }
  if (o.sub == "stamp" && !o.all) {
    if (positional.size() < 2) return usage(io, "`fitz db stamp` needs a migration version, or --all");
    o.versions = {positional[1]};
    next = 2;
  }
  if (o.sub == "squash") {
    if (positional.size() < 3) return usage(io, "`fitz db squash` needs two migration versions: FROM and TO");
    o.versions = {positional[1], positional[2]};
    next = 3;
  }
  if (int r = check_option_use(o, io); r != kOk) return r;
  if (positional.size() > next + 1) return usage(io, "`fitz db` takes one path");
  if (positional.size() == next + 1) o.target = positional[next];
  if (o.url.empty())
    if (const char* env = std::getenv("DATABASE_URL")) o.url = env;
  if (o.url.empty() && !(o.sub == "new" && o.empty)) {
    io.err << "error: no database: pass --url or set DATABASE_URL" << (o.sub == "new" ? " (or --empty)" : "") << "\n";
    return kUsageError;
  }
  // A malformed URL is a usage error, told before any file is read.
  if (!o.url.empty())
    if (auto info = pg::parse_conninfo(o.url); !info) {
      io.err << "error: invalid database URL: " << info.error().message << "\n";
      return kUsageError;
    }
  if (o.sub == "inspect") {
    auto conn = open_database(o, io);
    return conn ? db::run_inspect(o, *conn, io) : kUserError;
  }

  frontend::SourceManager sources;
  frontend::DiagnosticBag diags;
  frontend::LoadRequest req;
  req.target = o.target;
  frontend::LoadResult loaded = frontend::load_program(req, sources, diags);
  // history, stamp and squash read the files and the tracking table, not the types.
  bool needs_types = o.sub != "history" && o.sub != "stamp" && o.sub != "squash";
  if (loaded.fatal && !needs_types) loaded.fatal.reset();  // no project: migrations/ of the directory
  if (loaded.fatal) {
    io.err << "error: " << *loaded.fatal << "\n";
    return kUsageError;
  }
  if (!dir.empty()) o.migrations_dir = dir;
  else o.migrations_dir = migrations_dir_of(loaded.graph.project_root, o.target);
  if (!needs_types) {
    auto conn = open_database(o, io);
    if (!conn) return kUserError;
    if (o.sub == "history") return db::run_history(o, *conn, io);
    if (o.sub == "stamp") return db::run_stamp(o, *conn, io);
    return db::run_squash(o, *conn, io);
  }
  checker::CheckOptions check_options;
  check_options.warnings = false;
  checker::TypedProgram program = checker::check_program(loaded.graph, sources, diags, check_options);
  if (diags.error_count() > 0) {
    frontend::TextRenderOptions text_options = text_options_of(io);
    for (const auto& d : diags.sorted()) io.err << frontend::render(d, sources, frontend::DiagnosticFormat::Text, text_options);
    io.err << frontend::render_summary(diags.error_count(), diags.warning_count(), io.color);
    return kUserError;
  }
  checker::OrmModels models(program, loaded.graph);
  std::vector<const orm::TableModel*> tables;
  for (uint32_t i = 0; i < program.types->struct_count(); ++i)
    if (const orm::TableModel* t = models.table(checker::StructId(i))) tables.push_back(t);
  if (o.sub == "new") return db::run_new(o, tables, io);

  auto conn = open_database(o, io);
  if (!conn) return kUserError;
  if (o.sub == "rollback") return db::run_rollback(o, *conn, io);
  auto live = db::read_schema(*conn);
  if (!live) return db::fail(live.error(), io);
  orm::SchemaDiff diff = orm::diff_schema(tables, *live);

  if (o.sub == "diff") {
    std::ostringstream text;
    for (const std::string& n : diff.notes) text << "-- " << n << "\n";
    if (diff.statements.empty() && (diff.destructive.empty() || !o.allow_destructive))
      text << "-- the database matches the @table types\n";
    for (const std::string& s : diff.statements) text << s << ";\n";
    if (o.allow_destructive)
      for (const std::string& s : diff.destructive) text << s << ";\n";
    if (o.out.empty()) {
      io.out << text.str();
      return kOk;
    }
    std::ofstream file(o.out, std::ios::binary);
    file << text.str();
    file.close();
    if (!file) {
      io.err << "error: cannot write " << o.out << "\n";
      return kUserError;
    }
    size_t n = diff.statements.size() + (o.allow_destructive ? diff.destructive.size() : 0);
    io.out << "wrote " << o.out << " (" << n << " statement(s))\n";
    return kOk;
  }
  if (o.sub == "status") return run_status(o, *conn, diff, io);
  if (o.sub == "check") return run_check(o, *conn, diff, io);
  return db::run_migrate(o, *conn, diff, io);
}

}  // namespace fitz::cli
