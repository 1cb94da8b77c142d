#include "cli/file_watch.h"

#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace fitz::cli {

namespace fs = std::filesystem;

bool ignored_folder(std::string_view name) {
  if (name.empty() || name[0] == '.') return true;  // .git, .fitz, .venv, editors' folders
  for (std::string_view n : {"build", "target", "dist", "node_modules", "__pycache__"})
    if (name == n) return true;
  return false;
}

bool program_file(const fs::path& path) {
  std::string name = path.filename().string();
  if (name.empty() || name[0] == '.') return false;  // editors' swap and backup files
  if (name == "fitz.toml" || name == "fitz.lock") return true;
  std::string ext = path.extension().string();
  for (std::string_view e : {".fitz", ".fitzv", ".css", ".py", ".pyi", ".sql"})
    if (ext == e) return true;
  return false;
}

FileWatcher::~FileWatcher() {
  if (fd_ >= 0) close(fd_);
}

bool FileWatcher::open(const fs::path& root, std::string& error) {
  fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd_ < 0) {
    error = std::string("cannot watch files: ") + std::strerror(errno);
    return false;
  }
  watch_tree(root);
  if (folders_.empty()) {
    error = "cannot watch " + root.string() + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

void FileWatcher::watch_tree(const fs::path& dir) {
  // Editors save by writing in place (CLOSE_WRITE) or by renaming a new file over the old one
  // (MOVED_TO); both count, as do deletions and new folders.
  constexpr uint32_t kMask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE;
  int wd = inotify_add_watch(fd_, dir.c_str(), kMask);
  if (wd < 0) return;
  folders_[wd] = dir;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec) && !ignored_folder(it->path().filename().string()))
      watch_tree(it->path());
  }
}

std::vector<fs::path> FileWatcher::read_changes() {
  std::vector<fs::path> changed;
  alignas(inotify_event) char buf[16 * 1024];
  for (;;) {
    ssize_t n = read(fd_, buf, sizeof buf);
    if (n <= 0) break;
    for (char* p = buf; p < buf + n;) {
      auto* ev = reinterpret_cast<inotify_event*>(p);
      p += sizeof(inotify_event) + ev->len;
      auto folder = folders_.find(ev->wd);
      if (ev->mask & IN_IGNORED) {
        if (folder != folders_.end()) folders_.erase(folder);
        continue;
      }
      if (folder == folders_.end() || ev->len == 0) continue;
      fs::path path = folder->second / ev->name;
      if (ev->mask & IN_ISDIR) {
        if ((ev->mask & (IN_CREATE | IN_MOVED_TO)) && !ignored_folder(ev->name)) {
          watch_tree(path);
          // Files written into the folder before its watch existed are changes too.
          std::error_code ec;
          for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
            if (it->is_regular_file(ec) && program_file(it->path())) changed.push_back(it->path());
        }
        continue;
      }
      if (ev->mask & IN_CREATE) continue;  // an empty new file: its CLOSE_WRITE follows
      if (program_file(path)) changed.push_back(path);
    }
  }
  std::sort(changed.begin(), changed.end());
  changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
  return changed;
}

}  // namespace fitz::cli
