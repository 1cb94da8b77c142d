// How `fitz run` runs the program it built: in a process group of its own, with INT, TERM and
// HUP forwarded to that group, so stopping `fitz run` stops the service and frees its port.
#pragma once

#include <string>
#include <vector>

namespace fitz::cli {

// Runs argv[0] with argv, waits for it and returns its exit status, or 128+N when it died of
// signal N (as shells report it). Whatever is left of its process group is killed on return.
int run_forwarding_signals(const std::vector<std::string>& argv);

}  // namespace fitz::cli
