// The serializer: escaping everywhere except Html nodes, double-quoted attributes, void
// elements, URL filtering, and the adversarial strings of views.md §5.8.
#include <gtest/gtest.h>

#include "fitz/live/html.h"

namespace fitz::live {
namespace {

TEST(LiveHtml, EscapesTheFiveCharacters) {
  std::string out;
  escape_html(R"(a&b<c>d"e'f)", out);
  EXPECT_EQ(out, "a&amp;b&lt;c&gt;d&quot;e&#39;f");
  out.clear();
  escape_html("plain", out);
  EXPECT_EQ(out, "plain");
}

TEST(LiveHtml, CounterMarkup) {
  Node n = el("div").attr("id", "fz-1").child(el("p").child(text("Count: 3"))).child(el("button").child(text("+")));
  EXPECT_EQ(to_html(n), R"(<div id="fz-1"><p>Count: 3</p><button>+</button></div>)");
  EXPECT_EQ(inner_html(n), R"(<p>Count: 3</p><button>+</button>)");
}

TEST(LiveHtml, XssInTextIsLiteral) {
  const std::string evil = R"("><img src=x onerror=alert(1)>)";
  EXPECT_EQ(to_html(el("p").child(text(evil))), "<p>&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</p>");
  EXPECT_EQ(to_html(el("p").child(text("hi <b>x</b>"))), "<p>hi &lt;b&gt;x&lt;/b&gt;</p>");
  EXPECT_EQ(to_html(el("p").child(text("</p><script>alert(1)</script>"))),
            "<p>&lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>");
}

TEST(LiveHtml, XssInAttributeIsLiteral) {
  const std::string evil = R"("><img src=x onerror=alert(1)>)";
  EXPECT_EQ(to_html(el("input").attr("value", evil)),
            R"(<input value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">)");
  EXPECT_EQ(to_html(el("div").attr("title", "' onmouseover='x")), R"(<div title="&#39; onmouseover=&#39;x"></div>)");
}

TEST(LiveHtml, JavascriptUrlsBecomeHash) {
  EXPECT_EQ(to_html(el("a").attr("href", "javascript:alert(1)").child(text("x"))), R"(<a href="#">x</a>)");
  // Even when a tree was built without the builder (the serializer filters again).
  Node n = el("img");
  n.attrs.push_back(Attr{"src", " JaVaScRiPt:alert(1)"});
  EXPECT_EQ(to_html(n), R"(<img src="#">)");
  Node f = el("form");
  f.attrs.push_back(Attr{"action", "java\tscript:alert(1)"});
  EXPECT_EQ(to_html(f), R"(<form action="#"></form>)");
  EXPECT_EQ(to_html(el("a").attr("href", "https://x.test/?a=1&b=\"2\"")), R"(<a href="https://x.test/?a=1&amp;b=&quot;2&quot;"></a>)");
}

TEST(LiveHtml, BooleanAttributesAreEmptyAndQuoted) {
  EXPECT_EQ(to_html(el("button").bool_attr("disabled", true)), R"(<button disabled=""></button>)");
  EXPECT_EQ(to_html(el("button").bool_attr("disabled", false)), "<button></button>");
}

TEST(LiveHtml, VoidElementsHaveNoClosingTag) {
  EXPECT_EQ(to_html(el("br")), "<br>");
  EXPECT_EQ(to_html(el("input").attr("type", "text")), R"(<input type="text">)");
  // Children of a void element cannot exist in the DOM; they are not written.
  EXPECT_EQ(to_html(el("img").child(text("x"))), "<img>");
  EXPECT_TRUE(is_void_element("hr"));
  EXPECT_FALSE(is_void_element("div"));
}

TEST(LiveHtml, RawHtmlOnlyForHtmlNodes) {
  EXPECT_EQ(to_html(el("div").child(html_raw("<b>bold</b>"))), "<div><b>bold</b></div>");
  EXPECT_EQ(to_html(el("div").child(text("<b>bold</b>"))), "<div>&lt;b&gt;bold&lt;/b&gt;</div>");
}

TEST(LiveHtml, KeysAndScopes) {
  EXPECT_EQ(to_html(el("li").with_key(Key::integer(7)).scope_attr("1a2b3c4d").attr("class", "row")),
            R"(<li data-fz-key="7" data-s-1a2b3c4d="" class="row"></li>)");
  EXPECT_EQ(to_html(el("li").with_key(Key::str("a\"b"))), R"(<li data-fz-key="a&quot;b"></li>)");
  // A scope that is not hex is never spliced into an attribute name.
  EXPECT_EQ(to_html(el("p").scope_attr("x\" onload=\"y")), "<p></p>");
}

TEST(LiveHtml, InvalidNamesAreDropped) {
  Node n = el("div");
  n.attrs.push_back(Attr{"onclick", "alert(1)"});
  n.attrs.push_back(Attr{"a\" onload=\"x", "1"});
  n.attrs.push_back(Attr{"data-fz-key", "forged"});
  n.attrs.push_back(Attr{"ok", "1"});
  EXPECT_EQ(to_html(n), R"(<div ok="1"></div>)");
  Node bad = el("div");
  bad.tag = "script";  // valid characters: written (codegen never emits <script>; §1.4 compile error)
  EXPECT_EQ(to_html(bad), "<script></script>");
  bad.tag = "img src=x onerror=alert(1)";
  EXPECT_EQ(to_html(bad), "<span></span>");
}

TEST(LiveHtml, NestedTree) {
  Node t = el("table").child(el("tbody").child(el("tr").child(el("td").child(text("1 < 2")))));
  EXPECT_EQ(to_html(t), "<table><tbody><tr><td>1 &lt; 2</td></tr></tbody></table>");
}

}  // namespace
}  // namespace fitz::live
