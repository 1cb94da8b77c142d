// The differ case by case (views.md §2.3), each checked through the applier too, and the
// JSON form of every op.
#include <gtest/gtest.h>

#include "fitz/live/diff.h"
#include "fitz/live/html.h"

namespace fitz::live {
namespace {

Node root() { return el("div").attr("id", "fz-1"); }

// diff, then apply to a copy of `a` and check it became `b`.
DiffResult roundtrip(const Node& a, const Node& b) {
  DiffResult r = diff(a, b);
  if (!r.needs_full) {
    Node c = a;
    std::string err;
    EXPECT_TRUE(apply_ops(r.ops, c, &err)) << err;
    EXPECT_TRUE(equivalent(c, b)) << to_html(c) << "\n vs \n" << to_html(b);
  }
  return r;
}

Node counter(int n) {
  return root().child(el("p").child(text("Count: " + std::to_string(n)))).child(el("button").child(text("+")));
}

Node list(const std::vector<int>& keys) {
  Node ul = el("ul");
  for (int k : keys) ul.child(el("li").with_key(Key::integer(k)).child(text("row " + std::to_string(k))));
  return root().child(std::move(ul));
}

TEST(LiveDiff, NoChangeNoOps) {
  EXPECT_TRUE(roundtrip(counter(1), counter(1)).ops.empty());
  EXPECT_EQ(ops_to_json({}), "[]");
}

TEST(LiveDiff, CounterClickIsOneTextOp) {
  DiffResult r = roundtrip(counter(0), counter(1));
  ASSERT_EQ(r.ops.size(), 1u);
  EXPECT_EQ(ops_to_json(r.ops), R"([["text",[0,0],"Count: 1"]])");
}

TEST(LiveDiff, AttributesSetAndRemoved) {
  Node a = root().child(el("div").attr("class", "a").attr("title", "t"));
  Node b = root().child(el("div").attr("class", "b").attr("data-x", "<1>"));
  DiffResult r = roundtrip(a, b);
  EXPECT_EQ(ops_to_json(r.ops), R"([["attr",[0],"class","b"],["attr",[0],"data-x","<1>"],["rmattr",[0],"title"]])");
}

TEST(LiveDiff, LivePropertiesAreProps) {
  Node a = root().child(el("input").attr("value", "x").bool_attr("checked", true)).child(el("select").child(el("option").bool_attr("selected", false)));
  Node b = root().child(el("input").attr("value", "")).child(el("select").child(el("option").bool_attr("selected", true)));
  DiffResult r = roundtrip(a, b);
  EXPECT_EQ(ops_to_json(r.ops),
            R"([["prop",[0],"value",""],["prop",[0],"checked",null],["prop",[1,0],"selected",true]])");
  EXPECT_TRUE(is_live_prop("textarea", "value"));
  EXPECT_FALSE(is_live_prop("div", "value"));
  Op forced = r.ops[0];
  forced.force = true;
  EXPECT_EQ(ops_to_json({forced}), R"([["prop",[0],"value","",true]])");
}

TEST(LiveDiff, AttrOpsCarryFilteredUrls) {
  Node a = root().child(el("a").attr("href", "/a"));
  Node b = root().child(el("a"));
  b.children[0].attrs.push_back(Attr{"href", "javascript:alert(1)"});  // bypassing the builder
  DiffResult r = diff(a, b);
  EXPECT_EQ(ops_to_json(r.ops), R"([["attr",[0],"href","#"]])");
}

TEST(LiveDiff, InvalidAttributeNamesNeverBecomeOps) {
  Node a = root().child(el("button"));
  Node b = root().child(el("button").attr("onclick", "alert(1)").attr("data-fz-key", "x").attr("a b", "1"));
  DiffResult r = roundtrip(a, b);
  EXPECT_TRUE(r.ops.empty()) << ops_to_json(r.ops);
  EXPECT_TRUE(roundtrip(b, a).ops.empty());
}

TEST(LiveDiff, DifferentTagReplaces) {
  Node a = root().child(el("p").child(text("x")));
  Node b = root().child(el("h1").child(text("x")));
  DiffResult r = roundtrip(a, b);
  EXPECT_EQ(ops_to_json(r.ops), R"([["replace",[0],"<h1>x</h1>"]])");
}

TEST(LiveDiff, TextToElementReplaces) {
  DiffResult r = roundtrip(root().child(text("a")), root().child(el("b").child(text("a"))));
  EXPECT_EQ(ops_to_json(r.ops), R"([["replace",[0],"<b>a</b>"]])");
}

TEST(LiveDiff, PositionalInsertAndDescendingRemove) {
  Node a = root().child(el("p")).child(el("p")).child(el("p")).child(el("p"));
  Node b = root().child(el("p"));
  DiffResult r = roundtrip(a, b);
  EXPECT_EQ(ops_to_json(r.ops), R"([["remove",[3]],["remove",[2]],["remove",[1]]])");
  r = roundtrip(b, a);
  EXPECT_EQ(ops_to_json(r.ops), R"([["insert",[],1,"<p></p>"],["insert",[],2,"<p></p>"],["insert",[],3,"<p></p>"]])");
}

TEST(LiveDiff, EscapingInOps) {
  const std::string evil = R"("><img src=x onerror=alert(1)>)";
  DiffResult r = roundtrip(root().child(el("p")), root().child(el("p").child(el("i").child(text(evil)))));
  EXPECT_EQ(ops_to_json(r.ops),
            R"([["insert",[0],0,"<i>&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</i>"]])");
  r = roundtrip(root().child(text("a")), root().child(text(evil)));
  EXPECT_EQ(ops_to_json(r.ops), R"([["text",[0],"\"><img src=x onerror=alert(1)>"]])");
}

TEST(LiveDiff, MovingOneRowIsOneKmove) {
  // "move up" on row 3 (§5.5).
  DiffResult r = roundtrip(list({1, 2, 3, 4}), list({1, 3, 2, 4}));
  ASSERT_EQ(r.ops.size(), 1u);
  EXPECT_EQ(r.ops[0].kind, OpKind::KMove);
  EXPECT_EQ(ops_to_json(r.ops).substr(0, 14), R"([["kmove",[0],)");
}

TEST(LiveDiff, MovingLastToFrontIsOneKmove) {
  DiffResult r = roundtrip(list({1, 2, 3, 4, 5}), list({5, 1, 2, 3, 4}));
  EXPECT_EQ(ops_to_json(r.ops), R"([["kmove",[0],5,1]])");
  r = roundtrip(list({1, 2, 3, 4, 5}), list({2, 3, 4, 5, 1}));
  EXPECT_EQ(ops_to_json(r.ops), R"([["kmove",[0],1,null]])");
}

TEST(LiveDiff, KeyedInsertAndRemove) {
  DiffResult r = roundtrip(list({1, 2, 3}), list({1, 9, 3}));
  EXPECT_EQ(ops_to_json(r.ops),
            R"([["kremove",[0],2],["kinsert",[0],"<li data-fz-key=\"9\">row 9</li>",3]])");
  r = roundtrip(list({}), list({1, 2}));
  EXPECT_EQ(r.ops.size(), 2u);
  r = roundtrip(list({1, 2}), list({}));
  EXPECT_EQ(ops_to_json(r.ops), R"([["kremove",[0],2],["kremove",[0],1]])");
}

TEST(LiveDiff, KeyedChildChangesUseKeySegments) {
  Node a = list({1, 2});
  Node b = list({1, 2});
  b.children[0].children[1].children[0].text = "changed";
  b.children[0].children[1].attr("class", "sel");
  DiffResult r = roundtrip(a, b);
  EXPECT_EQ(ops_to_json(r.ops), R"([["attr",[0,{"k":2}],"class","sel"],["text",[0,{"k":2},0],"changed"]])");
}

TEST(LiveDiff, HugeIntKeysTravelAsStrings) {
  auto one = [](int64_t k) { return root().child(el("ul").child(el("li").with_key(Key::integer(k)))); };
  DiffResult r = roundtrip(one(INT64_MAX), one(INT64_MIN));
  EXPECT_EQ(ops_to_json(r.ops),
            R"([["kremove",[0],"9223372036854775807"],["kinsert",[0],"<li data-fz-key=\"-9223372036854775808\"></li>",null]])");
  EXPECT_EQ(ops_to_json(diff(one(1), one(2)).ops).substr(0, 18), R"([["kremove",[0],1])");
}

TEST(LiveDiff, StringKeys) {
  Node a = root().child(el("ul").child(el("li").with_key(Key::str("a"))).child(el("li").with_key(Key::str("b"))));
  Node b = root().child(el("ul").child(el("li").with_key(Key::str("b"))).child(el("li").with_key(Key::str("a"))));
  DiffResult r = roundtrip(a, b);
  ASSERT_EQ(r.ops.size(), 1u);
  EXPECT_EQ(r.ops[0].kind, OpKind::KMove);
}

TEST(LiveDiff, DuplicateKeysWarnAndFallBackToPositional) {
  Node a = root().child(el("ul").child(el("li").with_key(Key::integer(1)).child(text("a")))
                                  .child(el("li").with_key(Key::integer(1)).child(text("b"))));
  Node b = root().child(el("ul").child(el("li").with_key(Key::integer(1)).child(text("b")))
                                  .child(el("li").with_key(Key::integer(1)).child(text("a"))));
  DiffResult r = roundtrip(a, b);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("duplicate key"), std::string::npos);
  for (const Op& op : r.ops) EXPECT_EQ(op.kind, OpKind::Text);
  EXPECT_EQ(ops_to_json(r.ops), R"([["text",[0,0,0],"b"],["text",[0,1,0],"a"]])");
}

TEST(LiveDiff, MixedKeyedAndUnkeyedChildrenArePositional) {
  Node a = root().child(el("ul").child(el("li").child(text("head"))).child(el("li").with_key(Key::integer(1))));
  Node b = root().child(el("ul").child(el("li").child(text("head"))).child(el("li").with_key(Key::integer(2))));
  DiffResult r = roundtrip(a, b);
  EXPECT_EQ(ops_to_json(r.ops), R"([["replace",[0,1],"<li data-fz-key=\"2\"></li>"]])");
}

TEST(LiveDiff, StaticSubtreesAreSkipped) {
  Node a = root().child(el("nav").mark_static().child(text("menu")));
  Node b = root().child(el("nav").mark_static().child(text("not compared")));
  EXPECT_TRUE(diff(a, b).ops.empty());
  // Only when both sides are static.
  b.children[0].is_static = false;
  EXPECT_EQ(diff(a, b).ops.size(), 1u);
}

TEST(LiveDiff, RootChangeNeedsFull) {
  DiffResult r = diff(el("div").child(text("a")), el("section").child(text("b")));
  EXPECT_TRUE(r.needs_full);
  EXPECT_TRUE(r.ops.empty());
}

TEST(LiveDiff, RawHtmlMakesTheParentOpaque) {
  Node a = root().child(el("div").child(html_raw("<b>x</b>y")).child(el("p").child(text("1"))));
  Node b = root().child(el("div").child(html_raw("<b>x</b>y")).child(el("p").child(text("2"))));
  DiffResult r = roundtrip(a, b);
  EXPECT_EQ(ops_to_json(r.ops), R"([["replace",[0],"<div><b>x</b>y<p>2</p></div>"]])");
  EXPECT_TRUE(roundtrip(a, a).ops.empty());
  // At the root, only a full render can express it.
  EXPECT_TRUE(diff(root().child(html_raw("a")), root().child(html_raw("b"))).needs_full);
}

TEST(LiveDiff, ScopeChangeReplaces) {
  Node a = root().child(el("p").scope_attr("00000001"));
  Node b = root().child(el("p").scope_attr("00000002"));
  EXPECT_EQ(roundtrip(a, b).ops[0].kind, OpKind::Replace);
}

TEST(LiveDiff, ApplierRejectsBadPaths) {
  Node t = counter(0);
  Op op;
  op.kind = OpKind::Text;
  op.path = {PathSeg::at(9)};
  std::string err;
  EXPECT_FALSE(apply_ops({op}, t, &err));
  EXPECT_NE(err.find("text"), std::string::npos);
  op.path = {PathSeg::at(0)};  // an element, not a text
  EXPECT_FALSE(apply_ops({op}, t, &err));
  op.kind = OpKind::KMove;
  op.path = {};
  op.key = Key::integer(3);
  EXPECT_FALSE(apply_ops({op}, t, &err));
  op.kind = OpKind::Remove;
  EXPECT_FALSE(apply_ops({op}, t, &err));  // the root
}

}  // namespace
}  // namespace fitz::live
