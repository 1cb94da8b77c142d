// Entry point of the `fitz` binary: hands argv to the driver.
#include <unistd.h>

#include <iostream>

#include "cli/driver.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  bool color = isatty(STDERR_FILENO) && !getenv("NO_COLOR");
  int rc = fitz::cli::run(args, {std::cout, std::cerr, color});
  std::cout.flush();
  return rc;
}
