// The per-connection instance table and the event rate limiter. Numbers are handed out per
// connection and never reused, so a number seen on one socket means nothing on another, and
// a stale number from an old render resolves to nothing rather than to a newer instance.
#include <algorithm>

#include "fitz/live/instances.h"

namespace fitz::live {

uint32_t InstanceTable::intern(std::string identity, uint32_t parent, uint32_t root, uint32_t depth) {
  auto it = by_identity_.find(identity);
  if (it != by_identity_.end()) {
    by_number_[it->second].seen = generation_;
    return it->second;
  }
  if (by_number_.size() >= max_ || next_ == 0) return 0;
  uint32_t c = next_++;
  by_identity_.emplace(identity, c);
  by_number_.emplace(c, Entry{std::move(identity), parent, root == 0 ? c : root, depth, generation_});
  return c;
}

uint32_t InstanceTable::root(std::string_view root_id) {
  // '/' and '#' separate the parts of a child identity; a root id holds neither (frames.cpp
  // allows only letters, digits, '-' and '_'), so root identities never collide with children.
  return intern(std::string(root_id), 0, 0, 0);
}

uint32_t InstanceTable::child(uint32_t parent, uint32_t position, const Key& loop_key) {
  auto p = by_number_.find(parent);
  if (p == by_number_.end()) return 0;
  std::string id = p->second.identity;
  id += '/';
  id += std::to_string(position);
  if (!loop_key.empty()) {
    // The kind is part of the identity: an Int key 7 and a Str key "7" are different rows.
    id += loop_key.is_int() ? "#i:" : "#s:";
    id += loop_key.as_string();
  }
  return intern(std::move(id), parent, p->second.root, p->second.depth + 1);
}

void InstanceTable::begin_render(uint32_t root) {
  ++generation_;
  auto it = by_number_.find(root);
  if (it != by_number_.end()) it->second.seen = generation_;
}

std::vector<uint32_t> InstanceTable::sweep(uint32_t root, bool everything) {
  std::vector<std::pair<uint32_t, uint32_t>> gone;  // (depth, number)
  for (const auto& [c, e] : by_number_)
    if (e.root == root && (everything || (c != root && e.seen != generation_))) gone.emplace_back(e.depth, c);
  // Deepest first: children unmount before their parents, the root last.
  std::sort(gone.begin(), gone.end(), [](auto a, auto b) { return a.first != b.first ? a.first > b.first : a.second > b.second; });
  std::vector<uint32_t> out;
  out.reserve(gone.size());
  for (auto [depth, c] : gone) {
    by_identity_.erase(by_number_[c].identity);
    by_number_.erase(c);
    out.push_back(c);
  }
  return out;
}

std::vector<uint32_t> InstanceTable::end_render(uint32_t root) { return sweep(root, false); }

std::vector<uint32_t> InstanceTable::drop_root(uint32_t root) {
  if (!by_number_.count(root)) return {};
  return sweep(root, true);
}

std::optional<std::string> InstanceTable::identity(uint32_t c) const {
  auto it = by_number_.find(c);
  if (it == by_number_.end()) return std::nullopt;
  return it->second.identity;
}

std::optional<uint32_t> InstanceTable::root_of(uint32_t c) const {
  auto it = by_number_.find(c);
  if (it == by_number_.end()) return std::nullopt;
  return it->second.root;
}

bool RateLimiter::allow(int64_t now_ms) {
  if (last_ms_ >= 0 && now_ms > last_ms_) tokens_ = std::min(burst_, tokens_ + double(now_ms - last_ms_) * rate_ / 1000.0);
  if (last_ms_ < 0 || now_ms > last_ms_) last_ms_ = now_ms;
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

}  // namespace fitz::live
