// `APP migrate`: a service carries its project's migration files as (name, text) pairs and
// main() hands `migrate ...` to the runtime's engine (fitz/migrate.h) before any top-level code
// runs, so migrating never starts the server, the cron jobs or the program's own setup.
#include <fmt/format.h>

#include "codegen/cpp_literal.h"
#include "codegen/gen.h"

namespace fitz::codegen {

std::string Gen::emit_migrate_entry() {
  const std::vector<EmbeddedMigration>& files = options_.migrations;
  if (!files.empty()) {
    line("static const fitz::migrate::EmbeddedFile fitz_migrations[] = {");
    for (const EmbeddedMigration& m : files)
      line(fmt::format("  {{{}, {}, {}}},", cpp_quoted(m.name), cpp_quoted(m.text), m.text.size()));
    line("};");
  }
  return fmt::format(" if (fitz::migrate::is_command(argc, argv)) return fitz::migrate::run_command(argc, argv, {}, {});",
                     files.empty() ? "nullptr" : "fitz_migrations", files.size());
}

}  // namespace fitz::codegen
