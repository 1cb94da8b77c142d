// Entry point of the `fitz` binary: hands argv to the driver.
#include <malloc.h>
#include <unistd.h>

#include <iostream>
#include <string_view>

#include "cli/driver.h"

int main(int argc, char** argv) {
  // glibc grows a thread's heap one page-aligned step at a time, each an mprotect call: a
  // 100,000-line check made ~2,600 of them (and ~1,000 brk calls on the main heap) while its
  // parsing threads built syntax trees. Asking for 64 MiB of headroom per growth takes one call
  // per heap instead (HEAP_MAX of a thread's arena is 64 MiB on 64-bit). Pages not touched are
  // not resident, so memory use is unchanged. Setting it stops glibc from raising the mmap
  // threshold as large blocks are freed, so the threshold is set where that would end (32 MiB):
  // large tables stay on the heap instead of costing an mmap and munmap each.
  mallopt(M_TOP_PAD, 64 << 20);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  bool color = isatty(STDERR_FILENO) && !getenv("NO_COLOR");
  const char* columns = getenv("FITZ_DIAGNOSTIC_COLUMNS");
  bool utf16 = columns && std::string_view(columns) == "utf16";
  int rc = fitz::cli::run(args, {std::cout, std::cerr, color, utf16, /*exits_after=*/true});
  std::cout.flush();
  return rc;
}
