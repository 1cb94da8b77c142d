// The `fitz` command line: parses the subcommand and dispatches to one driver per command.
// Everything writes to the given streams so tests can run commands in-process.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "frontend/address_sanitizer.h"
#include "frontend/render.h"

namespace fitz::cli {

struct Io {
  std::ostream& out;
  std::ostream& err;
  bool color = false;          // diagnostics in colour (stderr is a terminal)
  bool utf16_columns = false;  // FITZ_DIAGNOSTIC_COLUMNS=utf16: columns as VS Code counts them
  // The process exits once the command returns (the `fitz` binary; not a test calling commands
  // in-process), so a command may leave its last large structures to the exit (leave_to_exit).
  bool exits_after = false;
};

// Frees `state` now, or (when the process exits right after) leaves it to the exit: freeing a
// checked program node by node is work nobody needs at that point (4.4% of the instructions of a
// 100,000-line `fitz check`). Builds with AddressSanitizer always free, so leak checking still
// sees every allocation.
template <class T>
void leave_to_exit(std::unique_ptr<T> state, const Io& io) {
  if (io.exits_after && !kBuiltWithAddressSanitizer) (void)state.release();
}

// How every command renders diagnostics as text for `io`.
inline frontend::TextRenderOptions text_options_of(const Io& io) {
  frontend::TextRenderOptions o;
  o.color = io.color;
  o.utf16_columns = io.utf16_columns;
  return o;
}

// Exit codes shared by every command.
enum ExitCode : int { kOk = 0, kUserError = 1, kUsageError = 2, kInternal = 3 };

int run(const std::vector<std::string>& args, Io io);

int cmd_check(const std::vector<std::string>& args, Io io);
int cmd_build(const std::vector<std::string>& args, Io io);
int cmd_run(const std::vector<std::string>& args, Io io);
int cmd_test(const std::vector<std::string>& args, Io io);
int cmd_lint(const std::vector<std::string>& args, Io io);
int cmd_fmt(const std::vector<std::string>& args, Io io);
int cmd_new(const std::vector<std::string>& args, Io io);
int cmd_bench(const std::vector<std::string>& args, Io io);
int cmd_openapi(const std::vector<std::string>& args, Io io);
int cmd_db(const std::vector<std::string>& args, Io io);
int cmd_deploy(const std::vector<std::string>& args, Io io);
int cmd_dev(const std::vector<std::string>& args, Io io);
int cmd_repl(const std::vector<std::string>& args, Io io);
int cmd_debug(const std::vector<std::string>& args, Io io);
int cmd_add(const std::vector<std::string>& args, Io io);
int cmd_remove(const std::vector<std::string>& args, Io io);
int cmd_update(const std::vector<std::string>& args, Io io);

}  // namespace fitz::cli
