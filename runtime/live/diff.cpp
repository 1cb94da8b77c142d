// The differ (views.md §2.3): same tag and key → recurse, otherwise replace; unkeyed children
// by position, keyed children by key with a longest increasing subsequence so that only the
// rows that really moved get a `kmove`.
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
    positional(a, b, path);
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

  void positional(const Node& a, const Node& b, Path& path) {
    size_t n = a.children.size(), m = b.children.size(), common = std::min(n, m);
    for (size_t i = 0; i < common; ++i) {
      path.push_back(PathSeg::at(uint32_t(i)));
      node(a.children[i], b.children[i], path);
      path.pop_back();
    }
    for (size_t i = common; i < m; ++i) {
      Op& op = push(OpKind::Insert, path);
      op.index = uint32_t(i);
      op.node = b.children[i];
    }
    // Descending, so each index still names the node it named in the old tree.
    for (size_t i = n; i > common; --i) {
      path.push_back(PathSeg::at(uint32_t(i - 1)));
      push(OpKind::Remove, path);
      path.pop_back();
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
