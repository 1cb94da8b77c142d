// Cloning, fetching and checking out through `git`. Every step writes into a temporary
// sibling and renames it into place, so an interrupted run never leaves a half-made entry that
// a later run would trust.
#include "packages/git_cache.h"

#include <unistd.h>

#include <fmt/format.h>

#include "codegen/toolchain.h"

namespace fitz::packages {

namespace fs = std::filesystem;

namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  size_t start = 0;
  while (start < s.size() && (s[start] == '\n' || s[start] == ' ')) ++start;
  return s.substr(start);
}

bool is_commit_hash(const std::string& s) {
  if (s.size() != 40 && s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::string describe(const std::optional<std::string>& tag, const std::optional<std::string>& rev) {
  return tag ? fmt::format("tag `{}`", *tag) : fmt::format("rev `{}`", rev.value_or(""));
}

fs::path temp_sibling(const fs::path& final_path) {
  return final_path.parent_path() / fmt::format(".{}.tmp{}", final_path.filename().string(), getpid());
}

}  // namespace

GitCache::GitCache(fs::path root, bool offline) : root_(std::move(root)), offline_(offline) {}

fs::path GitCache::db_dir(const std::string& url) const { return root_ / "db" / codegen::content_hash(url); }

fs::path GitCache::checkout_dir(const std::string& url, const std::string& commit) const {
  return root_ / "checkouts" / codegen::content_hash(url) / commit;
}

bool GitCache::ensure_db(const std::string& url, GitError& error) {
  fs::path db = db_dir(url);
  std::error_code ec;
  if (fs::exists(db / "HEAD", ec)) return true;
  if (offline_) {
    error = {GitFailure::Offline, fmt::format("`{}` has never been fetched into the cache", url)};
    return false;
  }
  fs::create_directories(db.parent_path(), ec);
  fs::path tmp = temp_sibling(db);
  fs::remove_all(tmp, ec);
  std::string output;
  if (codegen::run_capture({"git", "clone", "--bare", "--quiet", "--", url, tmp.string()}, output) != 0) {
    fs::remove_all(tmp, ec);
    error = {GitFailure::Fetch, fmt::format("cannot clone `{}`: {}", url, trimmed(output))};
    return false;
  }
  fs::rename(tmp, db, ec);
  if (ec) fs::remove_all(tmp, ec);  // another run got there first; its clone is as good
  fetched_.insert(url);
  return true;
}

bool GitCache::fetch(const std::string& url, GitError& error) {
  if (fetched_.count(url)) return true;
  if (offline_) {
    error = {GitFailure::Offline, fmt::format("`{}` would have to be fetched again", url)};
    return false;
  }
  std::string output;
  int rc = codegen::run_capture({"git", "--git-dir=" + db_dir(url).string(), "fetch", "--quiet", "--force", "--tags",
                                 "--", url, "+refs/heads/*:refs/heads/*"},
                                output);
  if (rc != 0) {
    error = {GitFailure::Fetch, fmt::format("cannot fetch `{}`: {}", url, trimmed(output))};
    return false;
  }
  fetched_.insert(url);
  return true;
}

std::optional<std::string> GitCache::rev_parse(const std::string& url, const std::string& spec) const {
  std::string output;
  if (codegen::run_capture({"git", "--git-dir=" + db_dir(url).string(), "rev-parse", "--verify", "--quiet",
                            "--end-of-options", spec + "^{commit}"},
                           output) != 0)
    return std::nullopt;
  std::string commit = trimmed(output);
  if (!is_commit_hash(commit)) return std::nullopt;
  return commit;
}

std::optional<std::string> GitCache::resolve(const std::string& url, const std::optional<std::string>& tag,
                                             const std::optional<std::string>& rev, bool refresh,
                                             GitError& error) {
  if (!ensure_db(url, error)) return std::nullopt;
  if (refresh && !fetch(url, error)) return std::nullopt;
  std::string spec = tag ? "refs/tags/" + *tag : rev.value_or("");
  if (spec.empty() || spec.starts_with("-")) {
    error = {GitFailure::RefNotFound, fmt::format("{} is not a revision", describe(tag, rev))};
    return std::nullopt;
  }
  if (auto commit = rev_parse(url, spec)) return commit;
  if (!fetched_.count(url) && !offline_) {
    if (!fetch(url, error)) return std::nullopt;
    if (auto commit = rev_parse(url, spec)) return commit;
  }
  if (offline_ && !fetched_.count(url)) {
    error = {GitFailure::Offline, fmt::format("the cached copy of `{}` has no {}", url, describe(tag, rev))};
    return std::nullopt;
  }
  error = {GitFailure::RefNotFound, fmt::format("`{}` has no {}", url, describe(tag, rev))};
  return std::nullopt;
}

std::optional<fs::path> GitCache::checkout(const std::string& url, const std::string& commit, GitError& error) {
  fs::path dir = checkout_dir(url, commit);
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return dir;
  if (!ensure_db(url, error)) return std::nullopt;
  if (!rev_parse(url, commit) && !fetch(url, error)) return std::nullopt;
  fs::create_directories(dir.parent_path(), ec);
  fs::path tmp = temp_sibling(dir);
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  // A private index keeps the shared bare repository untouched by the checkout.
  fs::path index = tmp.string() + ".index";
  std::string output;
  int rc = codegen::run_capture({"env", "GIT_INDEX_FILE=" + index.string(), "git", "--git-dir=" + db_dir(url).string(),
                                 "--work-tree=" + tmp.string(), "checkout", "--quiet", "-f", commit, "--", "."},
                                output);
  fs::remove(index, ec);
  if (rc != 0) {
    fs::remove_all(tmp, ec);
    error = {GitFailure::Fetch, fmt::format("cannot check out {} of `{}`: {}", commit, url, trimmed(output))};
    return std::nullopt;
  }
  fs::rename(tmp, dir, ec);
  if (ec) fs::remove_all(tmp, ec);
  return dir;
}

void GitCache::forget_checkouts(const std::string& url) {
  std::error_code ec;
  fs::remove_all(root_ / "checkouts" / codegen::content_hash(url), ec);
}

}  // namespace fitz::packages
