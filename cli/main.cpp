// Entry point of the `fitz` binary: hands argv to the driver.
#include <unistd.h>

#include <iostream>
#include <string_view>

#include "cli/driver.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  bool color = isatty(STDERR_FILENO) && !getenv("NO_COLOR");
  const char* columns = getenv("FITZ_DIAGNOSTIC_COLUMNS");
  bool utf16 = columns && std::string_view(columns) == "utf16";
  int rc = fitz::cli::run(args, {std::cout, std::cerr, color, utf16, /*exits_after=*/true});
  std::cout.flush();
  return rc;
}
