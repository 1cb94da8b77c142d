// `APP migrate`: a built service carries its project's migration files (embedded by codegen as
// name and text) and applies them with the same engine as `fitz db migrate` (runtime/migrate).
// Boost-free; generated programs call `is_command` first thing in main.
#pragma once

#include <cstddef>

namespace fitz::migrate {

struct EmbeddedFile {
  const char* name;  // the file name in migrations/: YYYYMMDDHHMMSS_<name>.sql (or .fitz)
  const char* text;
  size_t size;
};

// argv[1] is `migrate`.
bool is_command(int argc, char** argv);

// `APP migrate [status | rollback [N]] [--allow-destructive] [--dry-run]` against DATABASE_URL.
// Exit codes: 0 done (status: nothing pending), 1 failed (or status: something pending),
// 2 usage.
int run_command(int argc, char** argv, const EmbeddedFile* files, size_t count);

}  // namespace fitz::migrate
