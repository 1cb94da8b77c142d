// Per-connection state of live views (views.md §1.5, §2.4, §2.6): the instance table that maps
// the opaque numbers in `data-fz-c` to component identities, the per-view revision counter and
// the event rate limiter. One of each per socket (or per view); nothing is shared or global.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "fitz/live/node.h"

namespace fitz::live {

// An instance's identity: its parent's identity, its static position in the parent's
// template and its loop key (the index when the loop is unkeyed), rendered as one string,
// e.g. "fz-1/3#k:a7/0". Equal identity on the next render means the same instance.
class InstanceTable {
 public:
  // Past this many live instances `child` returns 0 (a render that creates more is a bug
  // or an attack; the caller crashes the view).
  explicit InstanceTable(size_t max_instances = 10000) : max_(max_instances) {}

  // The root instance of a live root ("fz-1"), created on first use. 0 when the table is full.
  uint32_t root(std::string_view root_id);
  // The child of `parent` at `position`, with `loop_key` (empty outside loops). Marks it seen
  // in the current render of its root. 0 when the parent is unknown or the table is full.
  uint32_t child(uint32_t parent, uint32_t position, const Key& loop_key = {});

  // A render of the root `root` starts: instances under it not seen again (through `child`)
  // before `end_render` vanish.
  void begin_render(uint32_t root);
  // Returns the numbers of the vanished instances, deepest first (their `on unmount` order),
  // and forgets them. Their numbers are never handed out again on this connection.
  std::vector<uint32_t> end_render(uint32_t root);
  // Forgets a whole root (leave, socket closed); returns every number under it, root last.
  std::vector<uint32_t> drop_root(uint32_t root);

  // Resolves a number the client sent. Only numbers of this table resolve.
  bool contains(uint32_t c) const { return by_number_.count(c) != 0; }
  std::optional<std::string> identity(uint32_t c) const;
  std::optional<uint32_t> root_of(uint32_t c) const;
  size_t size() const { return by_number_.size(); }

 private:
  struct Entry {
    std::string identity;
    uint32_t parent = 0;  // 0 for a root
    uint32_t root = 0;
    uint32_t depth = 0;
    uint64_t seen = 0;    // the render generation it was last seen in
  };
  uint32_t intern(std::string identity, uint32_t parent, uint32_t root, uint32_t depth);
  std::vector<uint32_t> sweep(uint32_t root, bool everything);

  size_t max_;
  uint32_t next_ = 1;        // numbers start at 1 and are never reused
  uint64_t generation_ = 0;  // bumped by begin_render
  std::unordered_map<std::string, uint32_t> by_identity_;
  std::unordered_map<uint32_t, Entry> by_number_;
};

// The revision of one view (§2.4): +1 per frame sent; `full` and `patch` carry it.
class Revision {
 public:
  uint64_t current() const { return rev_; }
  uint64_t next() { return ++rev_; }

 private:
  uint64_t rev_ = 0;
};

// Events per socket (§2.6): a token bucket refilled at `rate` per second holding at most
// `burst`. A sustained rate above `rate` empties it and `allow` turns false: the caller closes
// the socket with 1008. Time comes in as a parameter so tests need no clock.
class RateLimiter {
 public:
  explicit RateLimiter(double rate_per_sec = 50, double burst = 100)
      : rate_(rate_per_sec), burst_(burst), tokens_(burst) {}
  bool allow(int64_t now_ms);

 private:
  double rate_;
  double burst_;
  double tokens_;
  int64_t last_ms_ = -1;
};

}  // namespace fitz::live
