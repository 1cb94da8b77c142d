// The differ (views.md §2.3): same tag and key → recurse, otherwise replace; unkeyed children
// by their template identity (position when they have none), keyed children by key with a
// longest increasing subsequence so that only the rows that really moved get a `kmove`.
#include <algorithm>
#include <unordered_map>

#include "fitz/live/diff.h"

namespace fitz::live {

bool is_live_prop(std::string_view tag, std::string_view attr) {
  if (attr == "value") return tag == "input" || tag == "textarea" || tag == "select";
  if (attr == "checked") return tag == "input";
  if (attr == "selected") return tag == "option";
  return false;
}

namespace {

class Differ {
 public:
  explicit Differ(DiffResult& r) : r_(r) {}

  void node(const Node& a, const Node& b, Path& path) {
    if (a.kind != b.kind || a.tag != b.tag || !(a.key == b.key) || a.scope != b.scope) {
      replace(b, path);
      return;
    }
    switch (a.kind) {
      case NodeKind::Text:
        if (a.text != b.text) push(OpKind::Text, path).value = b.text;
        return;
      case NodeKind::Html:
        // Only reached for the root's children through `children`, which treats a parent of
        // raw markup as opaque; a raw node on its own is replaced whole.
        if (a.text != b.text) replace(b, path);
        return;
      case NodeKind::Element: break;
    }
    // The compiler marks a subtree static only when nothing in it is interpolated, so the
    // same position renders the same markup every time.
    if (a.is_static && b.is_static) return;
    attrs(a, b, path);
    // Raw markup may make any number of DOM nodes (or merge with a neighbouring text), so
    // child indexes past it mean nothing: a change among such children replaces the parent.
    if (a.has_raw_child() || b.has_raw_child()) {
      if (!children_equal(a, b)) replace(b, path);
      return;
    }
    if (keyed(a, b, path)) return;
    unkeyed(a, b, path);
  }

 private:
  Op& push(OpKind k, const Path& path) {
    r_.ops.emplace_back();
    Op& op = r_.ops.back();
    op.kind = k;
    op.path = path;
    return op;
  }

  void replace(const Node& b, const Path& path) {
    if (path.empty()) {  // the runtime owns the root element: only a `full` can change it
      r_.needs_full = true;
      return;
    }
    push(OpKind::Replace, path).node = b;
  }

  static bool children_equal(const Node& a, const Node& b) {
    if (a.children.size() != b.children.size()) return false;
    for (size_t i = 0; i < a.children.size(); ++i)
      if (!equivalent(a.children[i], b.children[i])) return false;
    return true;
  }

  void attrs(const Node& a, const Node& b, const Path& path) {
    // Names the serializer refuses (`on*` above all) must not reach setAttribute either.
    for (const Attr& nb : b.attrs) {
      if (!is_valid_attr_name(nb.name)) continue;
      const Attr* na = a.find_attr(nb.name);
      if (na && na->value == nb.value) continue;
      if (is_live_prop(b.tag, nb.name)) {
        Op& op = push(OpKind::Prop, path);
        op.name = nb.name;
        op.value = nb.value;
      } else {
        Op& op = push(OpKind::Attr, path);
        op.name = nb.name;
        op.value = nb.value;
      }
    }
    for (const Attr& na : a.attrs) {
      if (!is_valid_attr_name(na.name) || b.find_attr(na.name)) continue;
      if (is_live_prop(a.tag, na.name)) {
        Op& op = push(OpKind::Prop, path);
        op.name = na.name;
        op.present = false;
      } else {
        push(OpKind::RmAttr, path).name = na.name;
      }
    }
  }

  // Identity as the compiled render gives it (see Node::site). Hand-built trees have none
  // (site 0 everywhere), so for them every pair is "the same" and the walk is positional.
  static bool same_identity(const Node& a, const Node& b) {
    return a.site == b.site && a.iter == b.iter && a.key == b.key;
  }

  static uint64_t identity_hash(const Node& n) {
    uint64_t h = (uint64_t(n.site) * 0x9e3779b97f4a7c15ull) ^ (n.iter * 0xff51afd7ed558ccdull);
    // Int and Str keys hash apart although "1" == 1: a missed match only costs ops.
    if (n.key.is_int()) h ^= std::hash<int64_t>{}(n.key.as_int()) * 0xc4ceb9fe1a85ec53ull;
    if (n.key.is_str()) h ^= std::hash<std::string>{}(n.key.as_str()) * 0xc4ceb9fe1a85ec53ull;
    return h;
  }

  // Unkeyed children match by identity: the common prefix and suffix first (no allocation; a
  // render where no `{#if}` toggled and no loop changed length stops here), then the middle,
  // where an `{#if}` turning on or off is one `insert` or `remove` and the siblings after it
  // are compared with their own old selves.
  void unkeyed(const Node& a, const Node& b, Path& path) {
    const std::vector<Node>& A = a.children;
    const std::vector<Node>& B = b.children;
    size_t n = A.size(), m = B.size();
    size_t pre = 0;
    while (pre < n && pre < m && same_identity(A[pre], B[pre])) ++pre;
    size_t suf = 0;
    while (suf < n - pre && suf < m - pre && same_identity(A[n - 1 - suf], B[m - 1 - suf])) ++suf;
    for (size_t i = 0; i < pre; ++i) pair(A[i], B[i], i, path, false);
    size_t on = n - pre - suf, mn = m - pre - suf;  // the middles: A[pre, pre+on), B[pre, pre+mn)
    if (on == 0 && mn == 0) {
      for (size_t k = 0; k < suf; ++k) pair(A[n - suf + k], B[m - suf + k], m - suf + k, path, false);
      return;
    }

    // partner[j]: the old middle index that new middle j keeps, or -1.
    std::vector<long> partner(mn, -1);
    if (on && mn) match(A, B, pre, on, mn, partner);
    // Matches that would need a move are dropped (unkeyed nodes cannot be moved): the
    // survivors are one longest increasing run of old positions.
    std::vector<bool> stays = lis(partner);
    for (size_t j = 0; j < mn; ++j)
      if (!stays[j]) partner[j] = -1;

    // Between two survivors, the old and new runs left over pair up by position: a text
    // with a text (a `text` op), nodes without identity by recursion (hand-built trees), and
    // anything else is another template site (an `{:else}` branch): `replace`. What is left
    // of the longer run is removed or inserted.
    enum class Fate : uint8_t { Remove, Insert, Keep, Replace };
    std::vector<Fate> old_fate(on, Fate::Remove), new_fate(mn, Fate::Insert);
    std::vector<long> old_of(mn, -1);
    size_t i = 0, j_start = 0;  // where the current run starts on either side
    for (size_t j = 0; j <= mn; ++j) {
      if (j < mn && partner[j] < 0) continue;
      size_t i_end = j < mn ? size_t(partner[j]) : on;
      for (size_t k = 0; i + k < i_end && j_start + k < j; ++k) {
        const Node& x = A[pre + i + k];
        const Node& y = B[pre + j_start + k];
        bool recurse = (x.site == 0 && y.site == 0) || (x.kind == NodeKind::Text && y.kind == NodeKind::Text);
        old_fate[i + k] = recurse ? Fate::Keep : Fate::Replace;
        new_fate[j_start + k] = old_fate[i + k];
        old_of[j_start + k] = long(i + k);
      }
      if (j < mn) {
        old_fate[size_t(partner[j])] = Fate::Keep;
        new_fate[j] = Fate::Keep;
        old_of[j] = partner[j];
        i = size_t(partner[j]) + 1;
      }
      j_start = j + 1;
    }

    // Removals in descending old index, then insertions in ascending new index: after them
    // the list has its new length and every kept node sits at its new index.
    for (size_t k = on; k > 0; --k) {
      if (old_fate[k - 1] != Fate::Remove) continue;
      path.push_back(PathSeg::at(uint32_t(pre + k - 1)));
      push(OpKind::Remove, path);
      path.pop_back();
    }
    for (size_t j = 0; j < mn; ++j) {
      if (new_fate[j] != Fate::Insert) continue;
      Op& op = push(OpKind::Insert, path);
      op.index = uint32_t(pre + j);
      op.node = B[pre + j];
    }
    for (size_t j = 0; j < mn; ++j)
      if (new_fate[j] != Fate::Insert)
        pair(A[pre + size_t(old_of[j])], B[pre + j], pre + j, path, new_fate[j] == Fate::Replace);
    for (size_t k = 0; k < suf; ++k) pair(A[n - suf + k], B[m - suf + k], m - suf + k, path, false);
  }

  void pair(const Node& x, const Node& y, size_t index, Path& path, bool replace_it) {
    path.push_back(PathSeg::at(uint32_t(index)));
    if (replace_it)
      replace(y, path);
    else
      node(x, y, path);
    path.pop_back();
  }

  // For each new middle child with an identity, the first old middle child of the same
  // identity not taken yet (duplicates, say a slot shown twice, pair up in order).
  static void match(const std::vector<Node>& A, const std::vector<Node>& B, size_t pre, size_t on, size_t mn,
                    std::vector<long>& partner) {
    std::vector<bool> taken(on, false);
    if (on * mn <= 64) {
      for (size_t j = 0; j < mn; ++j) {
        if (B[pre + j].site == 0) continue;
        for (size_t i = 0; i < on; ++i)
          if (!taken[i] && same_identity(A[pre + i], B[pre + j])) {
            taken[i] = true;
            partner[j] = long(i);
            break;
          }
      }
      return;
    }
    std::unordered_multimap<uint64_t, size_t> by_identity;
    by_identity.reserve(on);
    for (size_t i = 0; i < on; ++i)
      if (A[pre + i].site != 0) by_identity.emplace(identity_hash(A[pre + i]), i);
    for (size_t j = 0; j < mn; ++j) {
      const Node& y = B[pre + j];
      if (y.site == 0) continue;
      auto [lo, hi] = by_identity.equal_range(identity_hash(y));
      long best = -1;
      for (auto it = lo; it != hi; ++it)
        if (!taken[it->second] && same_identity(A[pre + it->second], y) && (best < 0 || long(it->second) < best))
          best = long(it->second);
      if (best >= 0) {
        taken[size_t(best)] = true;
        partner[j] = best;
      }
    }
  }

  // True when every child is a keyed element (no allocation: most lists are not keyed).
  static bool all_keyed(const Node& n) {
    for (const Node& c : n.children)
      if (c.kind != NodeKind::Element || c.key.empty()) return false;
    return true;
  }

  bool keyed(const Node& a, const Node& b, Path& path) {
    if (b.children.empty() && a.children.empty()) return true;
    // An empty list on either side is keyed if the other one is (a loop that emptied or
    // filled); two lists need keys on both sides.
    if (!all_keyed(a) || !all_keyed(b)) return false;
    std::unordered_map<std::string, size_t> new_index, old_index;
    new_index.reserve(b.children.size());
    old_index.reserve(a.children.size());
    bool dup = false;
    for (size_t j = 0; j < b.children.size(); ++j)
      dup |= !new_index.emplace(b.children[j].key.as_string(), j).second;
    for (size_t i = 0; i < a.children.size(); ++i)
      dup |= !old_index.emplace(a.children[i].key.as_string(), i).second;
    if (dup) {
      r_.warnings.push_back("duplicate key in a keyed list under <" + b.tag +
                            ">: falling back to positional diffing");
      return false;
    }

    // 1. Removals, in descending old index; survivors get their rank among the survivors.
    std::vector<size_t> kept;            // old indexes that survive, ascending
    std::vector<long> rank(a.children.size(), -1);
    std::vector<bool> survives(a.children.size(), false);
    for (size_t i = 0; i < a.children.size(); ++i) {
      if (new_index.count(a.children[i].key.as_string())) {
        survives[i] = true;
        rank[i] = long(kept.size());
        kept.push_back(i);
      }
    }
    for (size_t i = a.children.size(); i > 0; --i)
      if (!survives[i - 1]) push(OpKind::KRemove, path).key = a.children[i - 1].key;

    // 2. The survivors in new order, by old rank; those on a longest increasing subsequence
    // stay where they are and every other one moves.
    std::vector<long> seq(b.children.size(), -1);
    for (size_t j = 0; j < b.children.size(); ++j) {
      auto it = old_index.find(b.children[j].key.as_string());
      if (it != old_index.end()) seq[j] = rank[it->second];
    }
    std::vector<bool> stays = lis(seq);

    // 3. From the end backwards, so that the `before` key is always already in its final
    // place when an op names it.
    for (size_t j = b.children.size(); j > 0; --j) {
      const Node& c = b.children[j - 1];
      if (seq[j - 1] >= 0 && stays[j - 1]) continue;
      Op& op = push(seq[j - 1] < 0 ? OpKind::KInsert : OpKind::KMove, path);
      if (op.kind == OpKind::KInsert)
        op.node = c;
      else
        op.key = c.key;
      if (j < b.children.size()) op.before = b.children[j].key;
    }

    // 4. The survivors' own changes; keyed paths do not depend on positions.
    for (size_t j = 0; j < b.children.size(); ++j) {
      if (seq[j] < 0) continue;
      const Node& old_child = a.children[kept[size_t(seq[j])]];
      path.push_back(PathSeg::keyed(b.children[j].key));
      node(old_child, b.children[j], path);
      path.pop_back();
    }
    return true;
  }

  // Marks the entries (>= 0) of one longest strictly increasing subsequence of `seq`;
  // O(n log n) patience sorting with back links.
  static std::vector<bool> lis(const std::vector<long>& seq) {
    std::vector<size_t> tails;            // index in seq of the smallest tail per length
    std::vector<long> prev(seq.size(), -1);
    for (size_t i = 0; i < seq.size(); ++i) {
      if (seq[i] < 0) continue;
      auto it = std::lower_bound(tails.begin(), tails.end(), seq[i],
                                 [&](size_t t, long v) { return seq[t] < v; });
      if (it != tails.begin()) prev[i] = long(*(it - 1));
      if (it == tails.end())
        tails.push_back(i);
      else
        *it = i;
    }
    std::vector<bool> in(seq.size(), false);
    long i = tails.empty() ? -1 : long(tails.back());
    while (i >= 0) {
      in[size_t(i)] = true;
      i = prev[size_t(i)];
    }
    return in;
  }

  DiffResult& r_;
};

}  // namespace

DiffResult diff(const Node& old_root, const Node& new_root) {
  DiffResult r;
  Differ d(r);
  Path path;
  d.node(old_root, new_root, path);
  if (r.needs_full) r.ops.clear();
  return r;
}

}  // namespace fitz::live
