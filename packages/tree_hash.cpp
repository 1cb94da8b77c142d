// SHA-256 of a directory tree through OpenSSL's EVP interface.
#include "packages/tree_hash.h"

#include <algorithm>
#include <fstream>
#include <memory>
#include <vector>

#include <fmt/format.h>
#include <openssl/evp.h>

namespace fitz::packages {

namespace fs = std::filesystem;

namespace {

struct DigestDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};

void feed_field(EVP_MD_CTX* ctx, std::string_view bytes) {
  std::string length = fmt::format("{}:", bytes.size());
  EVP_DigestUpdate(ctx, length.data(), length.size());
  EVP_DigestUpdate(ctx, bytes.data(), bytes.size());
}

}  // namespace

std::optional<std::string> tree_hash(const fs::path& dir) {
  std::error_code ec;
  std::vector<std::pair<std::string, fs::path>> files;  // relative generic path, absolute path
  fs::recursive_directory_iterator it(dir, ec), end;
  if (ec) return std::nullopt;
  for (; it != end; it.increment(ec)) {
    if (ec) return std::nullopt;
    const fs::path& p = it->path();
    if (p.filename() == ".git") {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink(ec) || it->is_regular_file(ec)) files.emplace_back(p.lexically_relative(dir).generic_string(), p);
  }
  std::sort(files.begin(), files.end());
  std::unique_ptr<EVP_MD_CTX, DigestDeleter> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) return std::nullopt;
  for (const auto& [rel, abs] : files) {
    feed_field(ctx.get(), rel);
    if (fs::is_symlink(abs, ec)) {
      feed_field(ctx.get(), "link");
      feed_field(ctx.get(), fs::read_symlink(abs, ec).generic_string());
      if (ec) return std::nullopt;
      continue;
    }
    std::ifstream in(abs, std::ios::binary);
    if (!in) return std::nullopt;
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    feed_field(ctx.get(), "file");
    feed_field(ctx.get(), bytes);
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest, &size) != 1) return std::nullopt;
  std::string out = "sha256:";
  for (unsigned int i = 0; i < size; ++i) out += fmt::format("{:02x}", digest[i]);
  return out;
}

}  // namespace fitz::packages
