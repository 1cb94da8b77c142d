// A view's frame sequence: full on join, patches with consecutive revisions, nothing for a
// render that changed nothing, full when the diff cannot express a change.
#include <gtest/gtest.h>

#include "fitz/live/view_state.h"

namespace fitz::live {
namespace {

Node counter_view(int n) {
  return el("div").attr("id", "fz-1").child(el("p").child(text(std::string("Count: ").append(std::to_string(n)))));
}

TEST(LiveViewState, JoinThenClicks) {
  ViewState v("fz-1");
  EXPECT_FALSE(v.has_baseline());
  EXPECT_EQ(v.full(counter_view(0)), R"({"t":"full","v":"fz-1","rev":1,"html":"<p>Count: 0</p>"})");
  EXPECT_EQ(v.update(counter_view(1)), R"({"t":"patch","v":"fz-1","rev":2,"ops":[["text",[0,0],"Count: 1"]]})");
  EXPECT_EQ(v.update(counter_view(1)), "");  // no ops: no frame, same revision
  EXPECT_EQ(v.rev(), 2u);
  EXPECT_EQ(v.update(counter_view(2)), R"({"t":"patch","v":"fz-1","rev":3,"ops":[["text",[0,0],"Count: 2"]]})");
  // resync: a full at the next revision, and patches continue from it.
  EXPECT_EQ(v.full(counter_view(2)).substr(0, 33), R"({"t":"full","v":"fz-1","rev":4,"h)");
  EXPECT_NE(v.update(counter_view(3)).find(R"("rev":5)"), std::string::npos);
}

TEST(LiveViewState, UpdateWithoutBaselineIsFull) {
  ViewState v("fz-2");
  EXPECT_EQ(v.update(counter_view(0)).substr(0, 14), R"({"t":"full","v)");
}

TEST(LiveViewState, InexpressibleChangeIsFull) {
  ViewState v("fz-1");
  v.full(el("div").child(html_raw("<b>a</b>")));
  std::string f = v.update(el("div").child(html_raw("<b>b</b>")));
  EXPECT_EQ(f, R"({"t":"full","v":"fz-1","rev":2,"html":"<b>b</b>"})");
}

TEST(LiveViewState, DuplicateKeyWarningsReachTheCaller) {
  ViewState v("fz-1");
  auto list = [](const char* second) {
    return el("div").child(el("ul").child(el("li").with_key(Key::integer(1))).child(el("li").with_key(Key::integer(1)).child(text(second))));
  };
  v.full(list("a"));
  std::vector<std::string> warnings;
  EXPECT_NE(v.update(list("b"), &warnings), "");
  EXPECT_EQ(warnings.size(), 1u);
}

}  // namespace
}  // namespace fitz::live
