// Unkeyed children matched by their template identity (views.md §2.3; Node::site / iter):
// an `{#if}` toggling or an unkeyed loop growing in front of siblings touches only what
// appeared or went, and the siblings after it get no ops. The trees are built the way the
// compiled render builds them: every node carries the number of the template site that made
// it, and nodes inside unkeyed loops their iteration.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "fitz/live/diff.h"
#include "fitz/live/html.h"

namespace fitz::live {
namespace {

// diff, then apply to a copy of `a` and check it became `b`.
DiffResult converges(const Node& a, const Node& b) {
  DiffResult r = diff(a, b);
  EXPECT_FALSE(r.needs_full);
  Node c = a;
  std::string err;
  EXPECT_TRUE(apply_ops(r.ops, c, &err)) << err << "\n" << ops_to_json(r.ops);
  EXPECT_TRUE(equivalent(c, b)) << to_html(c) << "\n vs \n" << to_html(b) << "\n" << ops_to_json(r.ops);
  return r;
}

// Sites 0 everywhere: what the same markup gives without identities.
Node without_identity(Node n) {
  n.site = 0;
  n.iter = 0;
  for (Node& c : n.children) c = without_identity(std::move(c));
  return n;
}

// <div data-fz-c="1">{#if show}<p>Hello</p>{/if}Count: {n}<input value={v}><button>+</button></div>
Node counter_page(bool show, int n, const std::string& v = "typed") {
  Node root = el("div", 1).attr("data-fz-c", "1");
  if (show) root.child(el("p", 2).mark_static().child(text("Hello", 3)));
  root.child(text("Count: " + std::to_string(n), 4));
  root.child(el("input", 5).attr("value", v));
  root.child(el("button", 6).mark_static().child(text("+", 7)));
  return el("div").attr("id", "fz-1").child(std::move(root));
}

TEST(LiveDiffIdentity, IfTurningOnBeforeSiblingsIsOneInsert) {
  DiffResult r = converges(counter_page(false, 1), counter_page(true, 1));
  EXPECT_EQ(ops_to_json(r.ops), R"([["insert",[0],0,"<p>Hello</p>"]])");
  // Without identities every later sibling is compared with the wrong old node.
  EXPECT_GT(diff(without_identity(counter_page(false, 1)), without_identity(counter_page(true, 1))).ops.size(), 1u);
}

TEST(LiveDiffIdentity, IfTurningOffIsOneRemove) {
  DiffResult r = converges(counter_page(true, 1), counter_page(false, 1));
  EXPECT_EQ(ops_to_json(r.ops), R"([["remove",[0,0]]])");
}

TEST(LiveDiffIdentity, ToggleAndChangeTogether) {
  DiffResult r = converges(counter_page(false, 1), counter_page(true, 2));
  EXPECT_EQ(ops_to_json(r.ops), R"([["insert",[0],0,"<p>Hello</p>"],["text",[0,1],"Count: 2"]])");
  r = converges(counter_page(true, 2), counter_page(false, 3, "x"));
  EXPECT_EQ(ops_to_json(r.ops), R"([["remove",[0,0]],["text",[0,0],"Count: 3"],["prop",[0,1],"value","x"]])");
}

// A static subtree at a shifted position is another site: never skipped as if unchanged.
TEST(LiveDiffIdentity, StaticSiblingsOfTheSameTagStayApart) {
  auto page = [](bool a) {
    Node root = el("div", 1);
    if (a) root.child(el("p", 2).mark_static().child(text("A", 3)));
    root.child(el("p", 4).mark_static().child(text("B", 5)));
    return el("div").child(std::move(root));
  };
  EXPECT_EQ(ops_to_json(converges(page(false), page(true)).ops), R"([["insert",[0],0,"<p>A</p>"]])");
  EXPECT_EQ(ops_to_json(converges(page(true), page(false)).ops), R"([["remove",[0,0]]])");
}

// {#if a}<h2>A</h2>{#if b}<p>B</p>{/if}{/if}<input>
TEST(LiveDiffIdentity, NestedIfs) {
  auto page = [](bool a, bool b) {
    Node root = el("div", 1);
    if (a) {
      root.child(el("h2", 2).child(text("A", 3)));
      if (b) root.child(el("p", 4).child(text("B", 5)));
    }
    root.child(el("input", 6));
    return el("div").child(std::move(root));
  };
  EXPECT_EQ(ops_to_json(converges(page(true, false), page(true, true)).ops), R"([["insert",[0],1,"<p>B</p>"]])");
  EXPECT_EQ(ops_to_json(converges(page(true, true), page(true, false)).ops), R"([["remove",[0,1]]])");
  EXPECT_EQ(ops_to_json(converges(page(false, true), page(true, true)).ops),
            R"([["insert",[0],0,"<h2>A</h2>"],["insert",[0],1,"<p>B</p>"]])");
  EXPECT_EQ(ops_to_json(converges(page(true, true), page(false, false)).ops), R"([["remove",[0,1]],["remove",[0,0]]])");
}

// <ul>{#for x in xs}{#if x.flag}<b>!</b>{/if}<li>{x.name}</li>{/for}</ul><input>
TEST(LiveDiffIdentity, IfInsideAnUnkeyedLoop) {
  auto page = [](const std::vector<bool>& flags) {
    Node ul = el("ul", 1);
    for (size_t i = 0; i < flags.size(); ++i) {
      uint64_t it = iteration(0, int64_t(i) + 1);
      if (flags[i]) ul.child(el("b", 2, it).child(text("!", 3, it)));
      ul.child(el("li", 4, it).child(text("row " + std::to_string(i), 5, it)));
    }
    return el("div").child(std::move(ul)).child(el("input", 6));
  };
  EXPECT_EQ(ops_to_json(converges(page({false, false, false}), page({false, true, false})).ops),
            R"([["insert",[0],1,"<b>!</b>"]])");
  EXPECT_EQ(ops_to_json(converges(page({true, true, true}), page({true, false, true})).ops), R"([["remove",[0,2]]])");
  // The loop growing at its end and an if turning on in its first row.
  EXPECT_EQ(ops_to_json(converges(page({false, false}), page({true, false, false})).ops),
            R"([["insert",[0],0,"<b>!</b>"],["insert",[0],3,"<li>row 2</li>"]])");
}

// {#for}{#for}<i>{/for}{/for}: the iterations of both loops tell the siblings apart.
TEST(LiveDiffIdentity, NestedUnkeyedLoops) {
  auto page = [](const std::vector<int>& rows) {
    Node p = el("p", 1);
    for (size_t i = 0; i < rows.size(); ++i) {
      uint64_t outer = iteration(0, int64_t(i) + 1);
      for (int k = 0; k < rows[i]; ++k) {
        uint64_t it = iteration(outer, k + 1);
        p.child(el("i", 2, it).child(text(std::to_string(i) + "." + std::to_string(k), 3, it)));
      }
    }
    return el("div").child(std::move(p));
  };
  EXPECT_EQ(ops_to_json(converges(page({2, 2}), page({3, 2})).ops), R"([["insert",[0],2,"<i>0.2</i>"]])");
  EXPECT_EQ(ops_to_json(converges(page({2, 2}), page({1, 2})).ops), R"([["remove",[0,1]]])");
}

// {#if edit}<input value={a}>{:else}<span>{a}</span>{/if}<button>: another branch is another
// node, even with the same tag.
TEST(LiveDiffIdentity, ElseSwitchingBranchesReplaces) {
  auto page = [](bool edit, const std::string& tag) {
    Node root = el("div", 1);
    if (edit)
      root.child(el("input", 2).attr("value", "a"));
    else
      root.child(el(tag, 3).child(text("a", 4)));
    root.child(el("button", 5).child(text("ok", 6)));
    return el("div").child(std::move(root));
  };
  EXPECT_EQ(ops_to_json(converges(page(true, "span"), page(false, "span")).ops), R"([["replace",[0,0],"<span>a</span>"]])");
  EXPECT_EQ(ops_to_json(converges(page(false, "input"), page(true, "input")).ops), R"([["replace",[0,0],"<input value=\"a\">"]])");
}

// Texts merge across `{#if}` boundaries (the DOM has one text node): the merged node keeps
// the first piece's identity, and two texts left over between the same neighbours are one
// `text` op whatever their sites.
TEST(LiveDiffIdentity, TextsMergedAcrossIfs) {
  auto page = [](bool a, int n, bool tail) {
    Node root = el("div", 1);
    if (a) root.child(text("Hi ", 2));
    root.child(text("Count: " + std::to_string(n), 3));
    root.child(el("input", 4));
    if (tail) root.child(text("!", 5));
    return el("div").child(std::move(root));
  };
  EXPECT_EQ(page(true, 1, false).children[0].children.size(), 2u);
  EXPECT_EQ(ops_to_json(converges(page(false, 1, false), page(true, 1, false)).ops), R"([["text",[0,0],"Hi Count: 1"]])");
  EXPECT_EQ(ops_to_json(converges(page(true, 1, false), page(false, 2, false)).ops), R"([["text",[0,0],"Count: 2"]])");
  EXPECT_EQ(ops_to_json(converges(page(true, 1, false), page(true, 1, true)).ops), R"([["insert",[0],2,"!"]])");
}

// A keyed loop next to other nodes is not a keyed list, but its rows still match by key.
TEST(LiveDiffIdentity, KeyedRowsAmongSiblings) {
  auto page = [](const std::vector<int>& ids) {
    Node ul = el("ul", 1).child(el("li", 2).child(text("head", 3)));
    for (int id : ids) ul.child(el("li", 4).with_key(Key::integer(id)).child(text("row " + std::to_string(id), 5)));
    return el("div").child(std::move(ul));
  };
  EXPECT_EQ(ops_to_json(converges(page({1, 2, 3}), page({1, 3})).ops), R"([["remove",[0,2]]])");
  EXPECT_EQ(ops_to_json(converges(page({1, 3}), page({1, 2, 3})).ops),
            R"([["insert",[0],2,"<li data-fz-key=\"2\">row 2</li>"]])");
  // A moved row cannot move without a keyed parent: it is removed and inserted again.
  DiffResult r = converges(page({1, 2, 3}), page({3, 1, 2}));
  EXPECT_EQ(r.ops.size(), 2u) << ops_to_json(r.ops);
}

// Duplicate identities (a slot shown twice) pair up in order; nothing is lost.
TEST(LiveDiffIdentity, DuplicateIdentitiesStillConverge) {
  auto page = [](int copies, bool head) {
    Node root = el("div", 1);
    if (head) root.child(el("h1", 2));
    for (int i = 0; i < copies; ++i) root.child(el("em", 3).child(text("slot", 4)));
    return el("div").child(std::move(root));
  };
  EXPECT_EQ(ops_to_json(converges(page(2, false), page(2, true)).ops), R"([["insert",[0],0,"<h1></h1>"]])");
  converges(page(3, true), page(1, false));
  converges(page(0, true), page(2, false));
}

// ---- Random templates (elements, texts, ifs with else, unkeyed and keyed loops, nested)
// rendered twice with different data: the ops always turn the first render into the second.
struct Tpl {
  enum Kind { El, Txt, If, For, KeyedFor } kind = El;
  uint32_t site = 0;
  std::string tag;
  int var = 0;
  bool dynamic = false;
  std::vector<Tpl> kids, els;
};

struct TplData {
  std::vector<bool> cond = std::vector<bool>(6);
  std::vector<int> count = std::vector<int>(6);
  std::vector<int> value = std::vector<int>(6);
  std::vector<std::vector<int>> ids = std::vector<std::vector<int>>(6);
};

class TplGen {
 public:
  explicit TplGen(uint32_t seed) : rng_(seed) {}
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  std::vector<Tpl> list(int depth) {
    std::vector<Tpl> out;
    for (int i = 0, k = pick(4); i < k; ++i) out.push_back(one(depth));
    return out;
  }

  Tpl one(int depth) {
    static const char* kTags[] = {"div", "p", "span", "input", "b"};
    Tpl t;
    t.site = ++site_;
    t.var = pick(6);
    t.dynamic = pick(2) == 0;
    int k = depth <= 0 ? pick(2) : pick(5);
    t.kind = Tpl::Kind(k);
    if (t.kind == Tpl::El) {
      t.tag = kTags[pick(5)];
      if (t.tag != "input") t.kids = list(depth - 1);
    } else if (t.kind != Tpl::Txt) {
      t.kids = list(depth - 1);
      if (t.kind == Tpl::If && pick(2)) t.els = list(depth - 1);
    }
    return t;
  }

  TplData data() {
    TplData d;
    for (int i = 0; i < 6; ++i) {
      d.cond[size_t(i)] = pick(2);
      d.count[size_t(i)] = pick(4);
      d.value[size_t(i)] = pick(3);
      for (int id = 0; id < 5; ++id)
        if (pick(2)) d.ids[size_t(i)].push_back(id);
      std::shuffle(d.ids[size_t(i)].begin(), d.ids[size_t(i)].end(), rng_);
    }
    return d;
  }

  // A few of the values changed, the way one event changes a view's state.
  TplData change(TplData d) {
    for (int i = 0, k = 1 + pick(2); i < k; ++i) {
      size_t v = size_t(pick(6));
      switch (pick(4)) {
        case 0: d.cond[v] = !d.cond[v]; break;
        case 1: d.count[v] = pick(4); break;
        case 2: d.value[v] = pick(3); break;
        default:
          if (!d.ids[v].empty()) d.ids[v].erase(d.ids[v].begin() + pick(int(d.ids[v].size())));
          else d.ids[v].push_back(pick(5));
      }
    }
    return d;
  }

 private:
  std::mt19937 rng_;
  uint32_t site_ = 0;
};

bool has_dynamic(const std::vector<Tpl>& ts) {
  for (const Tpl& t : ts)
    if (t.kind != Tpl::El || t.dynamic || has_dynamic(t.kids)) return true;
  return false;
}

// What the compiled render does (codegen/emit_views.cpp), on the template model.
void render_tpl(const std::vector<Tpl>& ts, const TplData& d, uint64_t iter, Node& parent) {
  for (const Tpl& t : ts) {
    size_t v = size_t(t.var);
    switch (t.kind) {
      case Tpl::El: {
        Node e = el(t.tag, t.site, iter);
        if (t.dynamic) e.attr(t.tag == "input" ? "value" : "class", "c" + std::to_string(d.value[v]));
        render_tpl(t.kids, d, iter, e);
        if (!has_dynamic({t})) e.mark_static();
        parent.child(std::move(e));
        break;
      }
      case Tpl::Txt:
        parent.child(text(t.dynamic ? "t" + std::to_string(d.value[v]) : "s", t.site, iter));
        break;
      case Tpl::If: render_tpl(d.cond[v] ? t.kids : t.els, d, iter, parent); break;
      case Tpl::For:
        for (int i = 0; i < d.count[v]; ++i) render_tpl(t.kids, d, iteration(iter, i + 1), parent);
        break;
      case Tpl::KeyedFor:
        for (int id : d.ids[v]) {
          Node item = el("template");
          render_tpl(t.kids, d, iter, item);
          for (Node& c : item.children) parent.child(std::move(c.with_key(Key::integer(id))));
        }
        break;
    }
  }
}

TEST(LiveDiffIdentity, RandomTemplatesConverge) {
  size_t with_ops = 0;
  for (uint32_t seed = 1; seed <= 4000; ++seed) {
    TplGen g(seed);
    std::vector<Tpl> tpl = g.list(3);
    tpl.push_back(g.one(2));
    TplData d1 = g.data();
    TplData d2 = g.change(d1);
    Node a = el("div", 1000), b = el("div", 1000);
    render_tpl(tpl, d1, 0, a);
    render_tpl(tpl, d2, 0, b);
    Node ra = el("div").child(std::move(a)), rb = el("div").child(std::move(b));
    DiffResult r = diff(ra, rb);
    ASSERT_FALSE(r.needs_full) << seed;
    Node c = ra;
    std::string err;
    ASSERT_TRUE(apply_ops(r.ops, c, &err)) << "seed " << seed << ": " << err << "\n" << ops_to_json(r.ops);
    ASSERT_TRUE(equivalent(c, rb)) << "seed " << seed << "\n" << to_html(ra) << "\n" << to_html(rb) << "\n"
                                   << to_html(c) << "\n" << ops_to_json(r.ops);
    EXPECT_TRUE(diff(rb, rb).ops.empty()) << seed;
    with_ops += !r.ops.empty();
  }
  EXPECT_GT(with_ops, 500u);  // the data changes reach the page often enough to mean something
}

// Growing or shrinking one unkeyed loop of n rows in front of siblings: as many inserts or
// removes as rows changed, and no op for anything else.
TEST(LiveDiffIdentity, UnkeyedLoopGrowingBeforeSiblings) {
  auto page = [](int n) {
    Node root = el("div", 1);
    for (int i = 0; i < n; ++i) root.child(el("li", 2, iteration(0, i + 1)).child(text("x", 3, iteration(0, i + 1))));
    root.child(el("input", 4)).child(el("p", 5).child(text("tail", 6)));
    return el("div").child(std::move(root));
  };
  for (int n = 0; n < 40; n += 7)
    for (int m = 0; m < 40; m += 5) {
      DiffResult r = converges(page(n), page(m));
      EXPECT_EQ(r.ops.size(), size_t(std::abs(n - m))) << n << " -> " << m << ": " << ops_to_json(r.ops);
    }
}

}  // namespace
}  // namespace fitz::live
