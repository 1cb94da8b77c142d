// The git dependency cache outside any project: bare clones in <cache>/git/db/<url-key> and
// one checkout per commit in <cache>/git/checkouts/<url-key>/<commit>, driven through the
// `git` binary. Offline, nothing here touches the network: it uses what the cache holds.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>

namespace fitz::packages {

enum class GitFailure { Fetch, RefNotFound, Offline };

struct GitError {
  GitFailure kind = GitFailure::Fetch;
  std::string message;
};

class GitCache {
 public:
  // `root` is the cache's `git` folder.
  GitCache(std::filesystem::path root, bool offline);

  // The full commit hash `tag` (or `rev`) names in the repository at `url`. Clones the
  // repository when the cache has none and fetches once when it lacks the name; `refresh`
  // fetches first (a tag may have moved), which `fitz update` asks for.
  std::optional<std::string> resolve(const std::string& url, const std::optional<std::string>& tag,
                                     const std::optional<std::string>& rev, bool refresh, GitError& error);

  // The directory holding the tree of `commit`, checked out on first use.
  std::optional<std::filesystem::path> checkout(const std::string& url, const std::string& commit,
                                                GitError& error);

  // Drops every cached checkout of `url` (they are made again from the repository).
  void forget_checkouts(const std::string& url);

  std::filesystem::path checkout_dir(const std::string& url, const std::string& commit) const;
  bool offline() const { return offline_; }

 private:
  std::filesystem::path db_dir(const std::string& url) const;
  bool ensure_db(const std::string& url, GitError& error);
  bool fetch(const std::string& url, GitError& error);
  std::optional<std::string> rev_parse(const std::string& url, const std::string& spec) const;

  std::filesystem::path root_;
  bool offline_;
  std::set<std::string> fetched_;  // URLs fetched or cloned by this run: at most once each
};

}  // namespace fitz::packages
