// fitz.lock: the resolved git dependencies of a project (the exact commit and a content hash of
// each), in a small stable TOML subset that fitz prints and parses back byte for byte.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fitz::packages {

inline constexpr std::string_view kLockFileName = "fitz.lock";
inline constexpr int kLockVersion = 1;

struct LockedPackage {
  std::string name;
  // What was asked for: `git+URL?tag=T` or `git+URL?rev=R`. A requirement matches an entry when
  // it spells the same source, so editing a tag in fitz.toml makes the entry stale.
  std::string source;
  std::string rev;   // the full commit hash the source resolved to
  std::string hash;  // `sha256:<hex>` of the checked-out tree (see tree_hash.h)
  std::vector<std::string> dependencies;  // names this package requires, sorted
};

struct Lockfile {
  std::vector<LockedPackage> packages;  // sorted by name, names unique

  const LockedPackage* find(std::string_view name) const;
};

std::string git_source(std::string_view url, std::optional<std::string> const& tag,
                       std::optional<std::string> const& rev);

// Sorts packages and their dependency lists, then prints; print(parse(x)) == x for what fitz
// wrote.
std::string print_lock(Lockfile lock);

struct LockError {
  uint32_t begin = 0;  // byte offsets into the text, for a diagnostic span
  uint32_t end = 0;
  std::string message;
};

// Either the lock or the first problem in it.
struct LockParse {
  std::optional<Lockfile> lock;
  LockError error;
};
LockParse parse_lock(std::string_view text);

}  // namespace fitz::packages
