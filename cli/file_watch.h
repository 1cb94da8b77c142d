// What `fitz dev` watches: a project's folders, recursively, through inotify. Folders created
// later are watched as they appear; build output, VCS and dependency folders never are.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fitz::cli {

// Folders whose changes never concern the program: build output, version control, packages
// of other ecosystems and hidden folders.
bool ignored_folder(std::string_view name);

// Files whose change means the program may be different: sources, the manifest and lock,
// Python modules and stubs, migrations, styles.
bool program_file(const std::filesystem::path& path);

class FileWatcher {
 public:
  FileWatcher() = default;
  FileWatcher(const FileWatcher&) = delete;
  FileWatcher& operator=(const FileWatcher&) = delete;
  ~FileWatcher();

  // Starts watching `root` and every folder below it. False with `error` set on failure.
  bool open(const std::filesystem::path& root, std::string& error);
  int fd() const { return fd_; }
  // Reads the events waiting on fd() and returns the program files they name (created,
  // written, moved in or out, deleted), without repeats.
  std::vector<std::filesystem::path> read_changes();

 private:
  void watch_tree(const std::filesystem::path& dir);

  int fd_ = -1;
  std::unordered_map<int, std::filesystem::path> folders_;  // watch descriptor -> folder
};

}  // namespace fitz::cli
