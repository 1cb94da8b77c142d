// The in-memory revocation set (`auth.blacklist` without a database): one process's view of
// revoked token ids, kept until the tokens would have expired anyway.
#include "fitz/auth.h"

namespace fitz::auth {

void RevocationSet::revoke(const Str& jti, int64_t expires_at) {
  int64_t now = unix_now();
  std::lock_guard<std::mutex> lock(mu_);
  if (expires_at < now) return;  // an expired token is rejected by its `exp` already
  auto& until = until_[std::string(jti.data(), jti.size())];
  if (expires_at > until) until = expires_at;
  // Amortised sweep: a set that only grows would keep every id ever revoked.
  if (until_.size() >= sweep_at_) {
    for (auto it = until_.begin(); it != until_.end();)
      it = it->second < now ? until_.erase(it) : std::next(it);
    sweep_at_ = std::max<size_t>(64, until_.size() * 2);
  }
}

bool RevocationSet::is_revoked(const Str& jti, int64_t now) const {
  if (!now) now = unix_now();
  std::lock_guard<std::mutex> lock(mu_);
  auto it = until_.find(std::string(jti.data(), jti.size()));
  return it != until_.end() && it->second >= now;
}

size_t RevocationSet::cleanup(int64_t now) {
  if (!now) now = unix_now();
  std::lock_guard<std::mutex> lock(mu_);
  size_t before = until_.size();
  for (auto it = until_.begin(); it != until_.end();)
    it = it->second < now ? until_.erase(it) : std::next(it);
  return before - until_.size();
}

size_t RevocationSet::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return until_.size();
}

}  // namespace fitz::auth
