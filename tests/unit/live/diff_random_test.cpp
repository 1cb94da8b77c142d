// Property tests of the differ: for many random pairs of trees (nested elements, texts,
// attributes, keyed lists shuffled, grown and shrunk), applying diff(a, b) to a gives b, and
// keyed reorders cost no more moves than the rows off a longest increasing subsequence.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "fitz/http/json.h"
#include "fitz/live/diff.h"
#include "fitz/live/html.h"

namespace fitz::live {
namespace {

// prefix + n, written so that GCC 12's -Wrestrict false positive on `"x" + std::string` stays quiet.
std::string named(const char* prefix, int n) {
  std::string s(prefix);
  s += std::to_string(n);
  return s;
}

class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool coin(int percent) { return pick(100) < percent; }

  Node element(int depth) {
    static const char* kTags[] = {"div", "p", "span", "ul", "li", "input", "option", "b"};
    Node n = el(kTags[pick(8)]);
    static const char* kAttrs[] = {"class", "title", "value", "checked", "selected", "data-x", "href"};
    for (int i = 0, k = pick(3); i < k; ++i) n.attr(kAttrs[pick(7)], coin(30) ? "" : named("v", pick(3)));
    if (depth <= 0 || is_void_element(n.tag)) return n;
    if (coin(25)) {
      n.children_from(keyed_rows(pick(8), depth - 1));
      return n;
    }
    for (int i = 0, k = pick(4); i < k; ++i) {
      if (coin(35))
        n.child(text(named("t", pick(4))));
      else
        n.child(element(depth - 1));
    }
    return n;
  }

  std::vector<Node> keyed_rows(int count, int depth) {
    std::vector<int> ids(20);
    for (int i = 0; i < 20; ++i) ids[i] = i;
    std::shuffle(ids.begin(), ids.end(), rng_);
    std::vector<Node> rows;
    for (int i = 0; i < count; ++i) rows.push_back(row(ids[i], depth));
    return rows;
  }

  Node row(int id, int depth) {
    Node r = coin(50) ? el("li") : el("tr");
    r.with_key(coin(50) ? Key::integer(id) : Key::str(named("k", id)));
    r.child(text(named("row ", id) + (coin(20) ? "!" : "")));
    if (depth > 0 && coin(30)) r.child(element(depth - 1));
    return r;
  }

  // A random edit of `n` in place: the kind of change a handler makes between two renders.
  void mutate(Node& n, int depth) {
    if (n.kind != NodeKind::Element) {
      if (coin(50)) n.text += "x";
      return;
    }
    int what = pick(10);
    if (what == 0 && !n.attrs.empty()) n.attrs.erase(n.attrs.begin() + pick(int(n.attrs.size())));
    if (what == 1) n.attr("class", named("m", pick(3)));
    if (what == 2) n.bool_attr("checked", coin(50));
    if (keyed(n) && !n.children.empty()) {
      shuffle_keyed(n, depth);
    } else if (what == 3) {
      n.child(coin(50) ? element(depth) : text("new"));
    } else if (what == 4 && !n.children.empty()) {
      n.children.erase(n.children.begin() + pick(int(n.children.size())));
      normalize(n);
    } else if (what == 5 && !n.children.empty()) {
      n.children[size_t(pick(int(n.children.size())))] = element(depth);
      normalize(n);
    }
    for (Node& c : n.children)
      if (coin(40)) mutate(c, depth - 1);
  }

  static bool keyed(const Node& n) {
    for (const Node& c : n.children)
      if (c.key.empty()) return false;
    return !n.children.empty();
  }

  void shuffle_keyed(Node& n, int depth) {
    int how = pick(4);
    if (how == 0) {
      std::shuffle(n.children.begin(), n.children.end(), rng_);
    } else if (how == 1 && n.children.size() > 1) {  // move one row
      size_t from = size_t(pick(int(n.children.size()))), to = size_t(pick(int(n.children.size())));
      Node r = std::move(n.children[from]);
      n.children.erase(n.children.begin() + long(from));
      n.children.insert(n.children.begin() + long(to), std::move(r));
    } else if (how == 2) {
      n.children.erase(n.children.begin() + pick(int(n.children.size())));
    } else {
      std::set<std::string> used;
      for (const Node& c : n.children) used.insert(c.key.as_string());
      int id = 100 + pick(50);
      if (!used.count(std::to_string(id)) && !used.count(named("k", id)))
        n.children.insert(n.children.begin() + pick(int(n.children.size()) + 1), row(id, depth));
    }
  }

  // Re-applies the builder's text merging after raw edits of a child list.
  static void normalize(Node& n) {
    std::vector<Node> cs = std::move(n.children);
    n.children.clear();
    n.children_from(std::move(cs));
  }

  std::mt19937 rng_;
};

size_t count_kind(const std::vector<Op>& ops, OpKind k) {
  return size_t(std::count_if(ops.begin(), ops.end(), [&](const Op& o) { return o.kind == k; }));
}

TEST(LiveDiffRandom, ApplyOfDiffGivesTheNewTree) {
  int compared = 0;
  for (uint32_t seed = 1; seed <= 3000; ++seed) {
    Gen g(seed);
    Node a = el("div").attr("id", "fz-1");
    for (int i = 0, k = 1 + g.pick(4); i < k; ++i) a.child(g.element(3));
    Node b = a;
    g.mutate(b, 3);
    DiffResult r = diff(a, b);
    ASSERT_FALSE(r.needs_full) << seed;
    Node c = a;
    std::string err;
    ASSERT_TRUE(apply_ops(r.ops, c, &err)) << "seed " << seed << ": " << err << "\n" << ops_to_json(r.ops);
    ASSERT_TRUE(equivalent(c, b)) << "seed " << seed << "\n" << to_html(a) << "\n" << to_html(b) << "\n"
                                  << to_html(c) << "\n" << ops_to_json(r.ops);
    EXPECT_TRUE(diff(b, b).ops.empty());
    std::string json = ops_to_json(r.ops);
    http::JsonReader reader(json.data(), json.size());
    ASSERT_TRUE(reader.skip_value() && reader.finish()) << json;
    ++compared;
  }
  EXPECT_EQ(compared, 3000);
}

TEST(LiveDiffRandom, UnrelatedTreesStillConverge) {
  for (uint32_t seed = 1; seed <= 1500; ++seed) {
    Gen g(seed * 7919);
    Node a = el("div"), b = el("div");
    for (int i = 0, k = g.pick(5); i < k; ++i) a.child(g.element(3));
    for (int i = 0, k = g.pick(5); i < k; ++i) b.child(g.element(3));
    DiffResult r = diff(a, b);
    Node c = a;
    std::string err;
    ASSERT_TRUE(apply_ops(r.ops, c, &err)) << seed << ": " << err;
    ASSERT_TRUE(equivalent(c, b)) << seed;
  }
}

// Keyed permutations: the ops are moves only, and no more than n - LIS of them.
TEST(LiveDiffRandom, KeyedShufflesUseFewMoves) {
  for (uint32_t seed = 1; seed <= 2000; ++seed) {
    std::mt19937 rng(seed);
    int n = 1 + int(rng() % 60);
    std::vector<int> order(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) order[size_t(i)] = i;
    Node a = el("div").child(el("ul"));
    for (int i : order) a.children[0].child(el("li").with_key(Key::integer(i)).child(text(std::to_string(i))));
    Node b = el("div").child(el("ul"));
    if (seed % 2) {
      std::shuffle(order.begin(), order.end(), rng);
    } else {  // one row moved: exactly one kmove, or none when it stayed put
      int from = int(rng() % unsigned(n)), to = int(rng() % unsigned(n));
      int v = order[size_t(from)];
      order.erase(order.begin() + from);
      order.insert(order.begin() + to, v);
    }
    for (int i : order) b.children[0].child(el("li").with_key(Key::integer(i)).child(text(std::to_string(i))));
    // The longest increasing subsequence of the new order (old positions are the values).
    std::vector<int> tails;
    for (int v : order) {
      auto it = std::lower_bound(tails.begin(), tails.end(), v);
      if (it == tails.end()) tails.push_back(v); else *it = v;
    }
    DiffResult r = diff(a, b);
    EXPECT_EQ(r.ops.size(), count_kind(r.ops, OpKind::KMove)) << seed;
    EXPECT_EQ(r.ops.size(), size_t(n) - tails.size()) << seed;
    if (seed % 2 == 0) {
      EXPECT_LE(r.ops.size(), 1u) << seed;
    }
    Node c = a;
    ASSERT_TRUE(apply_ops(r.ops, c));
    ASSERT_TRUE(equivalent(c, b)) << seed;
  }
}

// Growing and shrinking keyed lists: one kinsert per new row, one kremove per gone row.
TEST(LiveDiffRandom, KeyedInsertsAndRemovesAreCountedExactly) {
  for (uint32_t seed = 1; seed <= 1000; ++seed) {
    std::mt19937 rng(seed);
    std::vector<int> before, after;
    for (int i = 0; i < 40; ++i) {
      if (rng() % 3) before.push_back(i);
      if (rng() % 3) after.push_back(i);
    }
    auto build = [](const std::vector<int>& ks) {
      Node ul = el("ul");
      for (int k : ks) ul.child(el("li").with_key(Key::str(named("r", k))));
      return el("div").child(std::move(ul));
    };
    Node a = build(before), b = build(after);
    DiffResult r = diff(a, b);
    std::set<int> sa(before.begin(), before.end()), sb(after.begin(), after.end());
    size_t gone = 0, added = 0;
    for (int k : before) gone += sb.count(k) == 0;
    for (int k : after) added += sa.count(k) == 0;
    EXPECT_EQ(count_kind(r.ops, OpKind::KRemove), gone);
    EXPECT_EQ(count_kind(r.ops, OpKind::KInsert), added);
    EXPECT_EQ(count_kind(r.ops, OpKind::KMove), 0u) << seed;  // order is kept: nothing moves
    Node c = a;
    ASSERT_TRUE(apply_ops(r.ops, c));
    ASSERT_TRUE(equivalent(c, b));
  }
}

}  // namespace
}  // namespace fitz::live
