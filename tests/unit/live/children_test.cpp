// Child components (views.md §1.4 "Children", §1.5) with hand-written views, through the
// connection as a socket drives them: a child's number routes an event to it, its state lasts
// while its identity does, `emit` runs the parent's bound handler, a vanished child unmounts
// (deepest first), a failing child handler rolls the whole root back, slot content carries the
// parent's number, and the plain GET render numbers children 0 and never unmounts.
#include <gtest/gtest.h>

#include <regex>
#include <stdexcept>

#include "fitz/live/children.h"
#include "fitz/live/connection.h"
#include "fitz/live/html.h"
#include "client_frames.h"

namespace fitz::live {
namespace {

constexpr int64_t kChildNowMs = 1'800'000'000'000;

struct Log {
  std::vector<std::string> lines;
};

class Kid final : public View {
 public:
  Kid(std::string label, Log* log) : label(std::move(label)), log_(log) {}
  void mount(bool connected) override { log_->lines.push_back("mount " + label + (connected ? " live" : " plain")); }
  void unmount() override { log_->lines.push_back("unmount " + label); }
  Node render(const RenderContext& rc) const override {
    Node d = el("div").attr("data-fz-c", std::to_string(rc.component)).attr("id", "kid-" + label);
    d.child(el("span").child(text(label + "=" + std::to_string(n))));
    if (const auto* s = find_slot(rc, "")) {
      for (const Node& c : *s) d.child(c);
    } else {
      d.child(el("i").child(text("fallback")));
    }
    return d;
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload&) override {
    if (name == "inc") n++;
    else if (name == "pick") env.emitted.push_back({"picked", {{"n", std::to_string(n)}}});
    else if (name == "shout") env.emitted.push_back({"unbound", {}});
    else if (name == "boom") {
      n += 100;
      throw std::runtime_error("kid handler threw");
    } else return EventError{"event", "unknown event"};
    return std::nullopt;
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<Kid>(*this); }

  std::string label;
  int n = 0;

 private:
  Log* log_;
};

// Renders `shown` kids, keyed by index; the first gets slot content.
class Parent final : public View {
 public:
  explicit Parent(Log* log) : log_(log) {}
  void unmount() override {
    kids_.unmount_all();
    log_->lines.push_back("unmount parent");
  }
  Node render(const RenderContext& rc) const override {
    auto* self = const_cast<Parent*>(this);
    self->kids_.begin();
    Node root = el("section").attr("data-fz-c", std::to_string(rc.component));
    root.child(el("p").attr("id", "picked").child(text(picked)));
    for (int i = 0; i < shown; ++i) {
      std::string label = "k" + std::to_string(i);
      Slots slots;
      if (i == 0) {
        Node content = el("template");
        content.child(el("b").attr("id", "slot").child(text("from the parent")));
        slots[""] = slot_content(std::move(content), rc.component);
      }
      root.child(self->kids_.render(
          rc, env, 0, Key::integer(i), [&] { return std::make_unique<Kid>(label, log_); },
          [&](View& v) { static_cast<Kid&>(v).label = label; },
          {ChildBinding{"picked", "on_picked", {{"from", label}}}}, slots));
    }
    self->kids_.end(rc);
    return root;
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload& p) override {
    if (name == "less") shown--;
    else if (name == "on_picked") {
      picked.clear();
      for (const auto& [k, v] : p) picked += k + ":" + v + " ";
    } else return EventError{"event", "unknown event"};
    return std::nullopt;
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<Parent>(*this); }
  ChildTable* children() override { return &kids_; }

  int shown = 2;
  std::string picked = "-";

 private:
  Log* log_;
  ChildTable kids_;
};

class ChildrenTest : public ::testing::Test {
 protected:
  ChildrenTest() : key_(TokenKey::derive("children test secret")) {
    views_.add("Parent", [this](std::string_view, std::string*) { return std::make_unique<Parent>(&log_); });
  }
  std::string join() const { return testing::join_frame(testing::token_for(key_, "Parent", kChildNowMs)); }
  static std::string ev(int64_t ref, int64_t c, std::string_view e) { return testing::ev_frame(ref, c, e); }
  static int64_t number_of(const std::string& frame, const std::string& id) {
    return testing::component_with_id(frame, id);
  }
  // The full HTML of the root after a resync.
  std::string full(LiveConnection& conn) {
    ConnectionOutput out = conn.on_frame(testing::resync_frame(), kChildNowMs);
    return out.frames.empty() ? "" : out.frames[0];
  }

  ViewRegistry views_;
  TokenKey key_;
  Log log_;
};

TEST_F(ChildrenTest, EachChildHasItsOwnNumberAndState) {
  LiveConnection conn(views_, key_, {});
  std::string f = conn.on_frame(join(), kChildNowMs).frames.at(0);
  int64_t k0 = number_of(f, "kid-k0"), k1 = number_of(f, "kid-k1");
  ASSERT_GT(k0, 1);
  ASSERT_GT(k1, 1);
  EXPECT_NE(k0, k1);
  EXPECT_EQ(log_.lines, (std::vector<std::string>{"mount k0 live", "mount k1 live"}));
  ConnectionOutput out = conn.on_frame(ev(1, k1, "inc"), kChildNowMs);
  ASSERT_EQ(out.frames.size(), 2u);
  EXPECT_NE(out.frames[0].find("k1=1"), std::string::npos) << out.frames[0];
  conn.on_frame(ev(2, k1, "inc"), kChildNowMs);
  f = full(conn);
  EXPECT_NE(f.find("k0=0"), std::string::npos) << f;
  EXPECT_NE(f.find("k1=2"), std::string::npos) << f;
  // Same identity, same number, across renders.
  EXPECT_EQ(number_of(f, "kid-k0"), k0);
  EXPECT_EQ(number_of(f, "kid-k1"), k1);
}

TEST_F(ChildrenTest, SlotContentCarriesTheParentsNumber) {
  LiveConnection conn(views_, key_, {});
  std::string f = conn.on_frame(join(), kChildNowMs).frames.at(0);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(f, m, std::regex(R"(<section data-fz-c=\\"(\d+)\\")")));
  std::string root = m[1];
  EXPECT_NE(f.find(R"(<b id=\"slot\" data-fz-c=\")" + root + R"(\">)"), std::string::npos) << f;
  // The second kid got no content: its fallback.
  EXPECT_NE(f.find("k1=0</span><i>fallback</i>"), std::string::npos) << f;
}

TEST_F(ChildrenTest, EmitRunsTheParentsBoundHandler) {
  LiveConnection conn(views_, key_, {});
  std::string f = conn.on_frame(join(), kChildNowMs).frames.at(0);
  int64_t k1 = number_of(f, "kid-k1");
  conn.on_frame(ev(1, k1, "inc"), kChildNowMs);
  ConnectionOutput out = conn.on_frame(ev(2, k1, "pick"), kChildNowMs);
  ASSERT_EQ(out.frames.size(), 2u);
  // The emitted payload, then the binding's render-time arguments.
  EXPECT_NE(out.frames[0].find("n:1 from:k1 "), std::string::npos) << out.frames[0];
  // An event nobody listens to is dropped, without error.
  out = conn.on_frame(ev(3, k1, "shout"), kChildNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_EQ(out.frames[0], R"({"t":"ack","ref":3})");
}

TEST_F(ChildrenTest, AFailingChildHandlerRollsBackAndLaterClicksWork) {
  LiveConnection conn(views_, key_, {});
  std::string f = conn.on_frame(join(), kChildNowMs).frames.at(0);
  int64_t k0 = number_of(f, "kid-k0");
  conn.on_frame(ev(1, k0, "inc"), kChildNowMs);
  ConnectionOutput out = conn.on_frame(ev(2, k0, "boom"), kChildNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_NE(out.frames[0].find(R"("t":"error")"), std::string::npos);
  EXPECT_NE(full(conn).find("k0=1<"), std::string::npos);
  out = conn.on_frame(ev(3, k0, "inc"), kChildNowMs);
  EXPECT_NE(out.frames.at(0).find("k0=2"), std::string::npos) << out.frames[0];
}

TEST_F(ChildrenTest, AVanishedChildUnmountsAndItsNumberNoLongerResolves) {
  LiveConnection conn(views_, key_, {});
  std::string f = conn.on_frame(join(), kChildNowMs).frames.at(0);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(f, m, std::regex(R"(<section data-fz-c=\\"(\d+)\\")")));
  int64_t root = std::stoll(m[1]);
  int64_t k1 = number_of(f, "kid-k1");
  log_.lines.clear();
  conn.on_frame(ev(1, root, "less"), kChildNowMs);
  EXPECT_EQ(log_.lines, (std::vector<std::string>{"unmount k1"}));
  ConnectionOutput out = conn.on_frame(ev(2, k1, "inc"), kChildNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_NE(out.frames[0].find(R"("code":"component")"), std::string::npos) << out.frames[0];
  // Leaving unmounts the children before the parent.
  log_.lines.clear();
  conn.on_frame(R"({"t":"leave","v":"fz-1"})", kChildNowMs);
  EXPECT_EQ(log_.lines, (std::vector<std::string>{"unmount k0", "unmount parent"}));
}

TEST_F(ChildrenTest, TheGetRenderNumbersChildrenZeroAndNeverUnmounts) {
  RootRender r;
  r.view = "Parent";
  std::string error;
  std::string html = render_root_html(views_, key_, r, &error);
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_NE(html.find(R"(<div data-fz-c="0" id="kid-k0">)"), std::string::npos) << html;
  EXPECT_EQ(log_.lines, (std::vector<std::string>{"mount k0 plain", "mount k1 plain"}));
}

TEST(ChildTable, ACopyHoldsSnapshotsOfTheChildren) {
  Log log;
  ChildTable t;
  RenderContext rc{1, true};
  ViewEnv env;
  t.begin();
  t.render(rc, env, 3, Key(), [&] { return std::make_unique<Kid>("x", &log); }, [](View&) {}, {}, {});
  t.end(rc);
  ChildTable copy = t;
  static_cast<Kid&>(*t.entries().begin()->second.view).n = 5;
  EXPECT_EQ(static_cast<Kid&>(*copy.entries().begin()->second.view).n, 0);
}

}  // namespace
}  // namespace fitz::live
