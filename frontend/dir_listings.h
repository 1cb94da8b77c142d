// Directory listings kept across loads: the language server looks for a project's modules
// before every analysis, and reading each directory again (open, getdents, close) costs more
// than asking whether it changed (one stat). Creating, deleting or renaming an entry changes
// its directory's modification time, so a listing is reused while its directory's identity
// (device, inode) and times are what they were when it was read.
//
// Timestamps are coarse (a kernel tick, whole seconds on some file systems): a change made in
// the same tick as the read could leave the time unchanged. A listing is therefore only reused
// when its directory's times were older than the read by more than that granularity; a
// directory changed just before it was read is read again next time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fitz::frontend {

// What every walk for modules (fitz_files_under, DirectoryListings) skips: hidden directories,
// build outputs and dependency folders.
bool skipped_directory(std::string_view name);
// A file name's extension as std::filesystem::path::extension() gives it (from the last dot,
// none for a name that only starts with one), without building a path.
std::string_view extension_of(std::string_view name);

class DirectoryListings {
 public:
  // The files below `dir` whose name ends in `extension`, as fitz_files_under lists them
  // (sorted, appended to `out`): hidden directories and build outputs are skipped, symlinked directories are
  // not followed.
  void files_under(const std::filesystem::path& dir, std::string_view extension, std::vector<std::filesystem::path>& out);
  void clear();
  size_t reads() const { return reads_; }  // directories read (not reused), for tests

 private:
  struct Stamp {
    uint64_t dev = 0, ino = 0;
    int64_t mtime_ns = 0, ctime_ns = 0;
    bool operator==(const Stamp&) const = default;
  };
  enum class Kind : uint8_t { File, Directory, Other };  // Other: a symlink or unknown, looked at each time
  struct Entry {
    std::string name;
    Kind kind;
  };
  struct Listing {
    Stamp stamp;
    bool reusable = false;
    std::vector<Entry> entries;
  };
  const Listing* listing(const std::filesystem::path& dir);
  void walk(const std::filesystem::path& dir, std::string_view extension, std::vector<std::filesystem::path>& out);

  std::mutex mutex_;
  std::unordered_map<std::string, Listing> listings_;  // by the directory's path as walked
  size_t reads_ = 0;
};

}  // namespace fitz::frontend
