// The content hash fitz.lock records for a git dependency: SHA-256 over the checked-out tree,
// so a cached checkout that was changed after it was locked is noticed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace fitz::packages {

// `sha256:<64 hex>` over every regular file below `dir` (sorted by relative path, `.git`
// skipped): its path, size and bytes, each length-prefixed so no two trees share a stream.
// Symbolic links count by their target text. nullopt when a file cannot be read.
std::optional<std::string> tree_hash(const std::filesystem::path& dir);

}  // namespace fitz::packages
