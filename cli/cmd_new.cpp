// `fitz new`: scaffolds a project.
#include <ostream>

#include "cli/driver.h"

namespace fitz::cli {

int cmd_new(const std::vector<std::string>&, Io io) {
  io.err << "error: `fitz new` is not available in this version yet\n";
  return kUsageError;
}

}  // namespace fitz::cli
