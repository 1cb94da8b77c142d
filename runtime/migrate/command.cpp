// `APP migrate|migrate status|migrate rollback [N]` of a built service: parses the embedded
// migration files, connects to DATABASE_URL like the service does, and runs the engine.
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "fitz/migrate.h"
#include "migrate/engine.h"

namespace fitz::migrate {

namespace {

constexpr int kOk = 0, kFailed = 1, kUsage = 2;

constexpr const char* kUsageText = R"(usage: APP migrate [status | rollback [N]] [options]

Applies the migrations built into this binary (the project's migrations/ folder when it was
built) to the database in DATABASE_URL, each in its own transaction, recorded in the
_fitz_migrations table exactly like `fitz db migrate`.

  migrate             apply the pending migrations
  migrate status      list applied and pending migrations (exit 1 when any is pending)
  migrate rollback N  run the DOWN section of the last N applied migrations (default 1)

options:
  --allow-destructive   run statements that drop tables, columns or data; refused without it
  --dry-run             migrate: print what would run, change nothing
  -h, --help            show this help
)";

// The usage text with the binary's own name for APP.
std::string usage_text(const char* argv0) {
  std::string_view name = argv0 ? argv0 : "APP";
  if (auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  std::string text = kUsageText;
  text.replace(text.find("APP"), 3, name);
  return text;
}

int usage(const std::string& message, const char* argv0) {
  std::cerr << "error: " << message << "\n\n" << usage_text(argv0);
  return kUsage;
}

}  // namespace

bool is_command(int argc, char** argv) { return argc >= 2 && std::strcmp(argv[1], "migrate") == 0; }

int run_command(int argc, char** argv, const EmbeddedFile* embedded, size_t count) {
  Output io{std::cout, std::cerr};
  std::string sub = "migrate";
  Settings s;
  s.source = "this binary";
  std::vector<std::string> positional;
  for (int i = 2; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      std::cout << usage_text(argv[0]);
      return kOk;
    }
    if (a == "--allow-destructive") s.allow_destructive = true;
    else if (a == "--dry-run") s.dry_run = true;
    else if (a.starts_with("-")) return usage("unknown option `" + std::string(a) + "` for `migrate`", argv[0]);
    else positional.emplace_back(a);
  }
  if (!positional.empty()) {
    sub = positional[0];
    if (sub != "status" && sub != "rollback") return usage("unknown subcommand `" + sub + "` for `migrate`", argv[0]);
    if (sub == "rollback" && positional.size() == 2) {
      const std::string& n = positional[1];
      auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), s.count);
      if (ec != std::errc() || end != n.data() + n.size() || s.count < 1)
        return usage("`rollback` takes a positive whole number, got `" + n + "`", argv[0]);
    } else if (positional.size() > 1) {
      return usage("too many arguments for `migrate " + sub + "`", argv[0]);
    }
  }
  if (s.dry_run && sub != "migrate") return usage("`--dry-run` applies to `migrate` only", argv[0]);
  if (count == 0) {
    // Built without a migrations/ folder: say so rather than report an empty, "applied" set.
    std::cerr << "error: this binary holds no migrations (its project had no migrations/ folder when it was built)\n";
    return kFailed;
  }
  std::vector<Migration> files;
  for (size_t i = 0; i < count; ++i) {
    Migration m;
    bool is_migration = false;
    if (!parse_file(embedded[i].name, std::string(embedded[i].text, embedded[i].size), embedded[i].name, m,
                    is_migration, io))
      return kFailed;
    if (is_migration) files.push_back(std::move(m));
  }
  if (!sort_migrations(files, io)) return kFailed;
  const char* url = std::getenv("DATABASE_URL");
  if (!url || !*url) {
    std::cerr << "error: no database: set DATABASE_URL\n";
    return kUsage;
  }
  auto conn = pg::BlockingConnection::connect(url);
  if (!conn) {
    std::cerr << "error: cannot connect to the database: " << conn.error().to_string() << "\n";
    return kFailed;
  }
  if (sub == "rollback") return rollback(*conn, files, s, io) ? kOk : kFailed;
  if (sub == "status") {
    auto pending = status(*conn, files, io);
    if (!pending) {
      std::cerr << "error: " << pending.error().to_string() << "\n";
      return kFailed;
    }
    if (*pending == 0) std::cout << "in sync: every migration in this binary is applied\n";
    else std::cout << "pending: " << *pending << " migration(s); `migrate` applies them\n";
    return *pending == 0 ? kOk : kFailed;
  }
  return apply(*conn, files, s, io) ? kOk : kFailed;
}

}  // namespace fitz::migrate
