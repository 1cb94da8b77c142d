// `fitz db diff|migrate|status`: the `@table` types of a program against a live Postgres schema.
// `diff` prints the additive DDL (CREATE SCHEMA/TABLE, ADD COLUMN, CREATE INDEX) that would bring
// the database to the types; `migrate` applies it in one transaction and records it in
// `_fitz_migrations`; `status` lists applied migrations and whether the schema is in sync.
#include <cstdlib>
#include <ostream>

#include "checker/check_orm.h"
#include "checker/checker.h"
#include "cli/driver.h"
#include "frontend/project.h"
#include "frontend/render.h"
#include "orm/ddl.h"
#include "pg/blocking_conn.h"

namespace fitz::cli {

namespace {

constexpr const char* kDbUsage = R"(usage: fitz db <diff|migrate|status> [PATH] [--url URL]

Compares the @table types of a .fitz file, a directory or (with no PATH) the project around the
current directory with the schema of a Postgres database (--url, else DATABASE_URL).

  diff      print the DDL that would bring the database to the types (additive changes only;
            differences it leaves alone are printed as comments)
  migrate   apply that DDL in one transaction and record it in _fitz_migrations
  status    list the applied migrations and say whether the database matches the types

options:
  --url URL    the database (default: the DATABASE_URL environment variable)
  -h, --help   show this help
)";

constexpr const char* kTrackingTable =
    "CREATE TABLE IF NOT EXISTS \"_fitz_migrations\" (\"version\" text PRIMARY KEY, "
    "\"applied_at\" timestamptz NOT NULL DEFAULT now(), \"statements\" text NOT NULL)";

std::string text_of(const pg::Row& row, std::string_view column) {
  auto v = row.get<std::optional<std::string>>(column);
  return v && *v ? **v : std::string();
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

}  // namespace

int cmd_db(const std::vector<std::string>& args, Io io) {
  std::string sub, target, url;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (a == "-h" || a == "--help") {
      io.out << kDbUsage;
      return kOk;
    }
    if (a == "--url") {
      if (i + 1 >= args.size()) {
        io.err << "error: `--url` needs a value\n\n" << kDbUsage;
        return kUsageError;
      }
      url = args[++i];
      continue;
    }
    if (a.starts_with("--url=")) {
      url = std::string(a.substr(6));
      continue;
    }
    if (a.starts_with("-")) {
      io.err << "error: unknown option `" << a << "` for `fitz db`\n\n" << kDbUsage;
      return kUsageError;
    }
    if (sub.empty()) sub = std::string(a);
    else if (target.empty()) target = std::string(a);
    else {
      io.err << "error: `fitz db` takes one path\n";
      return kUsageError;
    }
  }
  if (sub != "diff" && sub != "migrate" && sub != "status") {
    io.err << (sub.empty() ? std::string("error: `fitz db` needs a subcommand\n\n")
                           : "error: unknown subcommand `" + sub + "` for `fitz db`\n\n")
           << kDbUsage;
    return kUsageError;
  }
  if (url.empty())
    if (const char* env = std::getenv("DATABASE_URL")) url = env;
  if (url.empty()) {
    io.err << "error: no database: pass --url or set DATABASE_URL\n";
    return kUsageError;
  }

  frontend::SourceManager sources;
  frontend::DiagnosticBag diags;
  frontend::LoadRequest req;
  req.target = target;
  frontend::LoadResult loaded = frontend::load_program(req, sources, diags);
  if (loaded.fatal) {
    io.err << "error: " << *loaded.fatal << "\n";
    return kUsageError;
  }
  checker::CheckOptions check_options;
  check_options.warnings = false;
  checker::TypedProgram program = checker::check_program(loaded.graph, sources, diags, check_options);
  if (diags.error_count() > 0) {
    frontend::TextRenderOptions text_options;
    text_options.color = io.color;
    for (const auto& d : diags.sorted()) io.err << frontend::render(d, sources, frontend::DiagnosticFormat::Text, text_options);
    io.err << frontend::render_summary(diags.error_count(), diags.warning_count(), io.color);
    return kUserError;
  }
  checker::OrmModels models(program, loaded.graph);
  std::vector<const orm::TableModel*> tables;
  for (uint32_t i = 0; i < program.types->struct_count(); ++i)
    if (const orm::TableModel* t = models.table(checker::StructId(i))) tables.push_back(t);

  auto conn = pg::BlockingConnection::connect(url);
  if (!conn) {
    io.err << "error: cannot connect to the database: " << conn.error().to_string() << "\n";
    return kUserError;
  }
  auto fail = [&](const pg::Error& e) {
    io.err << "error: " << e.to_string() << "\n";
    return kUserError;
  };
  auto live = read_schema(*conn);
  if (!live) return fail(live.error());
  orm::SchemaDiff diff = orm::diff_schema(tables, *live);

  if (sub == "diff") {
    for (const std::string& n : diff.notes) io.out << "-- " << n << "\n";
    if (diff.statements.empty()) io.out << "-- the database matches the @table types\n";
    for (const std::string& s : diff.statements) io.out << s << ";\n";
    return kOk;
  }
  if (auto r = conn->simple_query(kTrackingTable); !r) return fail(r.error());
  if (sub == "status") {
    auto applied = conn->query("SELECT version, applied_at::text AS at FROM \"_fitz_migrations\" ORDER BY version", {},
                               {pg::Format::Text});
    if (!applied) return fail(applied.error());
    for (size_t i = 0; i < applied->size(); ++i)
      io.out << "applied " << text_of(applied->row(i), "version") << " at " << text_of(applied->row(i), "at") << "\n";
    if (diff.statements.empty()) io.out << "in sync: the database matches the @table types\n";
    else io.out << "pending: " << diff.statements.size() << " statement(s); `fitz db diff` shows them\n";
    return diff.statements.empty() ? kOk : kUserError;
  }
  // migrate
  if (diff.statements.empty()) {
    io.out << "nothing to migrate: the database matches the @table types\n";
    return kOk;
  }
  std::string all;
  for (const std::string& s : diff.statements) all += s + ";\n";
  if (auto r = conn->simple_query("BEGIN"); !r) return fail(r.error());
  auto rollback = [&](const pg::Error& e) {
    (void)conn->simple_query("ROLLBACK");
    io.err << "error: the migration was rolled back: " << e.to_string() << "\n";
    return kUserError;
  };
  for (const std::string& s : diff.statements)
    if (auto r = conn->simple_query(s); !r) return rollback(r.error());
  std::vector<pg::Param> params{pg::Param::text(all)};
  auto rec = conn->query(
      "INSERT INTO \"_fitz_migrations\" (\"version\", \"statements\") VALUES "
      "(to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSUS'), $1) RETURNING version",
      params, {pg::Format::Text});
  if (!rec) return rollback(rec.error());
  if (auto r = conn->simple_query("COMMIT"); !r) return fail(r.error());
  io.out << all << "applied " << diff.statements.size() << " statement(s) as migration "
         << text_of(rec->row(0), "version") << "\n";
  return kOk;
}

}  // namespace fitz::cli
