#include "frontend/dir_listings.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <ctime>

namespace fitz::frontend {

namespace fs = std::filesystem;

namespace {

int64_t ns_of(const struct timespec& t) { return int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

}  // namespace

bool skipped_directory(std::string_view name) {
  return name.starts_with(".") || name == "build" || name == "node_modules" || name == "target";
}

std::string_view extension_of(std::string_view name) {
  size_t dot = name.rfind('.');
  return dot == std::string_view::npos || dot == 0 ? std::string_view() : name.substr(dot);
}

void DirectoryListings::clear() {
  std::lock_guard lock(mutex_);
  listings_.clear();
}

void DirectoryListings::files_under(const fs::path& dir, std::string_view extension, std::vector<fs::path>& out) {
  std::lock_guard lock(mutex_);
  walk(dir, extension, out);
}

const DirectoryListings::Listing* DirectoryListings::listing(const fs::path& dir) {
  const std::string& key = dir.native();
  struct timespec now {};
  clock_gettime(CLOCK_REALTIME, &now);
  struct stat st {};
  if (::stat(key.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    listings_.erase(key);
    return nullptr;
  }
  Stamp stamp{uint64_t(st.st_dev), uint64_t(st.st_ino), ns_of(st.st_mtim), ns_of(st.st_ctim)};
  auto found = listings_.find(key);
  if (found != listings_.end() && found->second.reusable && found->second.stamp == stamp) return &found->second;

  DIR* d = ::opendir(key.c_str());
  if (!d) {  // permission denied, or gone since the stat: as if empty, and asked again next time
    listings_.erase(key);
    return nullptr;
  }
  ++reads_;
  Listing l;
  l.stamp = stamp;
  // A later change gets a time no older than the clock's now minus one tick of the file
  // system's clock; only a directory last changed before that can tell such a change apart.
  // Whole-second times (no nanoseconds) suggest a file system with a granularity of seconds.
  bool whole_seconds = st.st_mtim.tv_nsec == 0 && st.st_ctim.tv_nsec == 0;
  int64_t margin = whole_seconds ? int64_t(3'000'000'000) : int64_t(100'000'000);
  l.reusable = std::max(stamp.mtime_ns, stamp.ctime_ns) < ns_of(now) - margin;
  while (const struct dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    Kind kind = Kind::Other;
    unsigned char type = e->d_type;
    if (type == DT_UNKNOWN) {  // file systems without d_type: what lstat says
      struct stat est {};
      std::string child = key + "/" + std::string(name);
      if (::lstat(child.c_str(), &est) == 0)
        type = S_ISDIR(est.st_mode) ? DT_DIR : S_ISREG(est.st_mode) ? DT_REG : DT_LNK;
    }
    if (type == DT_DIR) kind = Kind::Directory;
    else if (type == DT_REG) kind = Kind::File;
    l.entries.push_back({std::string(name), kind});
  }
  ::closedir(d);
  // In name order, the walk lists in path order (as std::filesystem::path compares) and
  // fitz_files_under need not sort.
  std::sort(l.entries.begin(), l.entries.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return &(listings_[key] = std::move(l));
}

void DirectoryListings::walk(const fs::path& dir, std::string_view extension, std::vector<fs::path>& out) {
  const Listing* l = listing(dir);
  if (!l) return;
  // Node-based map: `l` stays valid while the walk below adds the listings of subdirectories.
  for (const Entry& e : l->entries) {
    if (e.kind == Kind::Directory) {
      if (!skipped_directory(e.name)) walk(dir / e.name, extension, out);
      continue;
    }
    // Checked on the name first: most entries are not wanted, and a path costs allocations.
    if (extension_of(e.name) != extension) continue;
    fs::path p = dir / e.name;
    // A symlink may point anywhere and change without its directory changing: looked at each
    // time. A symlinked directory is not followed (nor was it before this cache).
    std::error_code ec;
    if (e.kind == Kind::Other && fs::is_directory(p, ec)) continue;
    out.push_back(std::move(p));
  }
}

}  // namespace fitz::frontend
