// The node builder's normalization (text merging, empty texts) and the URL and attribute-name
// policies shared by the serializer and the differ.
#include <gtest/gtest.h>

#include "fitz/live/node.h"

namespace fitz::live {
namespace {

TEST(LiveNode, BuilderChainsOnTemporaries) {
  Node n = el("DIV").attr("class", "a").bool_attr("hidden", true).bool_attr("disabled", false).child(text("x"));
  EXPECT_EQ(n.tag, "div");
  ASSERT_EQ(n.attrs.size(), 2u);
  EXPECT_EQ(n.attrs[1], (Attr{"hidden", ""}));
  ASSERT_EQ(n.children.size(), 1u);
  EXPECT_EQ(n.children[0].text, "x");
}

TEST(LiveNode, AttrReplacesSameName) {
  Node n = el("a").attr("class", "x").attr("class", "y");
  ASSERT_EQ(n.attrs.size(), 1u);
  EXPECT_EQ(n.attrs[0].value, "y");
  n.bool_attr("class", false);
  EXPECT_TRUE(n.attrs.empty());
}

TEST(LiveNode, AdjacentTextsMergeAndEmptyTextsVanish) {
  // The browser's parser makes one text node of "a" "b" and none of "", so the tree does too.
  Node n = el("p").child(text("a")).child(text("")).child(text("b")).child(el("br")).child(text(""));
  ASSERT_EQ(n.children.size(), 2u);
  EXPECT_EQ(n.children[0].text, "ab");
  EXPECT_EQ(n.children[1].tag, "br");
}

TEST(LiveNode, ChildrenFromAppendsLoopOutput) {
  std::vector<Node> rows;
  for (int i = 0; i < 3; ++i) rows.push_back(el("li").with_key(Key::integer(i)));
  Node ul = el("ul").children_from(std::move(rows));
  ASSERT_EQ(ul.children.size(), 3u);
  EXPECT_EQ(ul.children[2].key.as_int(), 2);
}

TEST(LiveNode, KeysCompareByWireForm) {
  EXPECT_EQ(Key::integer(7), Key::str("7"));
  EXPECT_FALSE(Key::integer(7) == Key());
  EXPECT_EQ(Key(), Key());
  EXPECT_EQ(Key::integer(-3).as_string(), "-3");
  EXPECT_TRUE(Key().empty());
}

TEST(LiveNode, SafeUrls) {
  for (const char* u : {"https://example.com/x", "http://a", "HTTPS://A", "mailto:a@b.c", "tel:+123", "/path",
                        "path/x", "?q=1&r=2", "#frag", "", "//cdn.example.com/x.js", "./a:b", "a/b:c"})
    EXPECT_TRUE(is_safe_url(u)) << u;
}

TEST(LiveNode, UnsafeUrls) {
  for (const char* u :
       {"javascript:alert(1)", "JavaScript:alert(1)", "JAVASCRIPT:alert(1)", " javascript:alert(1)",
        "\x01javascript:alert(1)", "java\tscript:alert(1)", "java\nscript:alert(1)", "java\rscript:alert(1)",
        "\n\tjavascript:alert(1)", "javascript&#58;alert(1)", "javascript&colon;alert(1)", "&#106;avascript:alert(1)",
        "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "file:///etc/passwd",
        "java\\script:x", "blob:https://a/b", "x:y", "ftp://a"})
    EXPECT_FALSE(is_safe_url(u)) << u;
  EXPECT_FALSE(is_safe_url(std::string("jav\0ascript:alert(1)", 20)));
}

TEST(LiveNode, UrlAttributesAreFilteredByTheBuilder) {
  for (const char* name : {"href", "src", "action", "formaction", "poster", "HREF"}) {
    Node n = el("a").attr(name, "javascript:alert(1)");
    EXPECT_EQ(n.attrs[0].value, "#") << name;
  }
  EXPECT_EQ(el("a").attr("title", "javascript:alert(1)").attrs[0].value, "javascript:alert(1)");
  EXPECT_EQ(el("a").attr("href", "/ok?a=1&b=2").attrs[0].value, "/ok?a=1&b=2");
}

TEST(LiveNode, AttributeNames) {
  for (const char* ok : {"class", "data-x", "aria-label", "xlink:href", "data-s-1a2b3c4d", "_x", "data-fz-c"})
    EXPECT_TRUE(is_valid_attr_name(ok)) << ok;
  for (const char* bad : {"", "onclick", "onerror", "on", "a b", "a\"b", "a>b", "a=b", "Class", "1a", "data-fz-key",
                          "a/b", "-x"})
    EXPECT_FALSE(is_valid_attr_name(bad)) << bad;
}

TEST(LiveNode, EquivalenceIgnoresAttributeOrderAndStatic) {
  Node a = el("div").attr("a", "1").attr("b", "2");
  Node b = el("div").attr("b", "2").attr("a", "1").mark_static();
  EXPECT_TRUE(equivalent(a, b));
  EXPECT_FALSE(a == b);
  b.attrs[0].value = "3";
  EXPECT_FALSE(equivalent(a, b));
  EXPECT_FALSE(equivalent(el("div").with_key(Key::integer(1)), el("div")));
  EXPECT_FALSE(equivalent(text("a"), html_raw("a")));
}

}  // namespace
}  // namespace fitz::live
