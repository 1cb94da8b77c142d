// LiveConnection without sockets (views.md §2.2, §2.6, §2.7): frames in, frames out. Join and
// its refusals, events routed through the instance table, rollback of a failing handler,
// resync, leave, heartbeats, the rate and size caps; the Origin check; the GET render.
#include <gtest/gtest.h>

#include <regex>
#include <stdexcept>

#include "../../live/server/test_views.h"
#include "fitz/live/connection.h"
#include "client_frames.h"

namespace fitz::live {
namespace {

constexpr int64_t kNowMs = 1'800'000'000'000;

// A view that counts its hooks, to check mount and unmount calls.
struct Hooks {
  int mounted_connected = 0;
  int mounted_plain = 0;
  int unmounted = 0;
};
class Hooked final : public View {
 public:
  explicit Hooked(Hooks* h) : h_(h) {}
  void mount(bool connected) override { (connected ? h_->mounted_connected : h_->mounted_plain)++; }
  void unmount() override { h_->unmounted++; }
  Node render(const RenderContext& ctx) const override {
    return el("p").attr("data-fz-c", std::to_string(ctx.component)).child(text("hooked"));
  }
  std::optional<EventError> handle_event(std::string_view, const Payload&) override { return std::nullopt; }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<Hooked>(*this); }

 private:
  Hooks* h_;
};

// Throws where told to: from a handler ("boom"), from render once `count` reaches 2, or from
// mount when its props say so.
class Fragile final : public View {
 public:
  explicit Fragile(bool throw_on_mount) : throw_on_mount_(throw_on_mount) {}
  void mount(bool) override {
    if (throw_on_mount_) throw std::runtime_error("mount failed");
  }
  Node render(const RenderContext& ctx) const override {
    if (count_ == 2) throw std::runtime_error("render failed");
    return el("p").attr("data-fz-c", std::to_string(ctx.component)).child(text("n=" + std::to_string(count_)));
  }
  std::optional<EventError> handle_event(std::string_view name, const Payload&) override {
    count_++;
    if (name == "boom") throw std::runtime_error("handler threw");
    return std::nullopt;
  }
  std::unique_ptr<View> snapshot() const override { return std::make_unique<Fragile>(*this); }

 private:
  bool throw_on_mount_;
  int count_ = 0;
};

class LiveConnectionTest : public ::testing::Test {
 protected:
  LiveConnectionTest() : key_(TokenKey::derive("connection test secret")) {
    views_.add("Counter", [](std::string_view, std::string*) { return std::make_unique<testing::Counter>(); });
    views_.add("Hooked", [this](std::string_view, std::string*) { return std::make_unique<Hooked>(&hooks_); });
    views_.add("Fragile", [](std::string_view props, std::string*) {
      return std::make_unique<Fragile>(props.find("mountfail") != std::string_view::npos);
    });
    views_.add("Picky", [](std::string_view props, std::string* error) -> std::unique_ptr<View> {
      *error = "bad props " + std::string(props);
      return nullptr;
    });
  }
  std::string token(std::string view, std::string uid = "", int64_t ttl = 3600) const {
    return testing::token_for(key_, std::move(view), kNowMs, "{}", std::move(uid), ttl);
  }
  static std::string join(std::string_view tok, std::string_view v = "fz-1") { return testing::join_frame(tok, v); }
  static std::string ev(int64_t ref, int64_t c, std::string_view e, std::string_view v = "fz-1") {
    return testing::ev_frame(ref, c, e, "{}", v);
  }
  static int64_t component_of(const std::string& full) {
    int64_t c = testing::first_component(full);
    EXPECT_NE(c, 0) << full;
    return c;
  }

  ViewRegistry views_;
  TokenKey key_;
  Hooks hooks_;
};

TEST_F(LiveConnectionTest, JoinAnswersFullAndClicksPatchThenAck) {
  LiveConnection conn(views_, key_, {});
  ConnectionOutput out = conn.on_frame(join(token("Counter")), kNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_EQ(out.close_code, 0);
  EXPECT_NE(out.frames[0].find(R"({"t":"full","v":"fz-1","rev":1,"html":)"), std::string::npos);
  EXPECT_NE(out.frames[0].find("Count: 0"), std::string::npos);
  int64_t c = component_of(out.frames[0]);
  ASSERT_GT(c, 0);

  out = conn.on_frame(ev(7, c, "inc"), kNowMs);
  ASSERT_EQ(out.frames.size(), 2u);
  EXPECT_EQ(out.frames[0], R"({"t":"patch","v":"fz-1","rev":2,"ops":[["text",[0,0,0],"Count: 1"]]})");
  EXPECT_EQ(out.frames[1], R"({"t":"ack","ref":7})");
}

TEST_F(LiveConnectionTest, BadTokensClose1008) {
  for (std::string tok : {std::string("1.AAAA"), std::string("garbage"), token("Counter").substr(0, 30)}) {
    LiveConnection conn(views_, key_, {});
    ConnectionOutput out = conn.on_frame(join(tok), kNowMs);
    EXPECT_TRUE(out.frames.empty()) << tok;
    EXPECT_EQ(out.close_code, kClosePolicy) << tok;
  }
  // Another key's token is forged.
  LiveConnection conn(views_, key_, {});
  std::string forged = testing::token_for(TokenKey::derive("another"), "Counter", kNowMs, "{}", "", 60);
  EXPECT_EQ(conn.on_frame(join(forged), kNowMs).close_code, kClosePolicy);
}

TEST_F(LiveConnectionTest, ExpiredTokenAsksForReload) {
  LiveConnection conn(views_, key_, {});
  ConnectionOutput out = conn.on_frame(join(token("Counter", "", 10)), kNowMs + 11'000);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_EQ(out.frames[0], R"({"t":"reload"})");
  EXPECT_EQ(conn.mounted(), 0u);
}

TEST_F(LiveConnectionTest, PageOfAnotherBuildAsksForReload) {
  ConnectionOptions rebuilt;
  rebuilt.build_id = "b2";
  auto with_build = [](std::string frame, std::string_view build) {
    return frame.substr(0, frame.size() - 1) + R"(,"b":")" + std::string(build) + R"("})";
  };
  // Even a token this build's key cannot open: the page is stale, not forged.
  LiveConnection conn(views_, TokenKey::derive("the rebuilt server's key"), rebuilt);
  ConnectionOutput out = conn.on_frame(with_build(join(token("Counter")), "b1"), kNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_EQ(out.frames[0], R"({"t":"reload"})");
  EXPECT_EQ(out.close_code, 0);
  EXPECT_EQ(conn.mounted(), 0u);

  // The same build joins; a client that names no build is not asked.
  LiveConnection same(views_, key_, rebuilt);
  EXPECT_NE(same.on_frame(with_build(join(token("Counter")), "b2"), kNowMs).frames.at(0).find(R"("t":"full")"),
            std::string::npos);
  LiveConnection unnamed(views_, key_, rebuilt);
  EXPECT_NE(unnamed.on_frame(join(token("Counter")), kNowMs).frames.at(0).find(R"("t":"full")"), std::string::npos);
  // A build id is a short name, like a view id.
  LiveConnection odd(views_, key_, rebuilt);
  out = odd.on_frame(with_build(join(token("Counter")), "<b>"), kNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_NE(out.frames[0].find(R"("t":"error")"), std::string::npos);
  EXPECT_NE(out.frames[0].find("expected a build id"), std::string::npos) << out.frames[0];
  EXPECT_EQ(odd.mounted(), 0u);
}

TEST_F(LiveConnectionTest, GetRenderNamesItsBuild) {
  RootRender r;
  r.view = "Counter";
  r.now_unix = kNowMs / 1000;
  r.build_id = "b7";
  std::string error;
  EXPECT_NE(render_root_html(views_, key_, r, &error).find(R"(data-fz-build="b7")"), std::string::npos) << error;
  r.build_id.clear();
  EXPECT_EQ(render_root_html(views_, key_, r, &error).find("data-fz-build"), std::string::npos) << error;
}

TEST_F(LiveConnectionTest, TokenUidMustEqualTheCookieUser) {
  ConnectionOptions bob;
  bob.user = "bob";
  LiveConnection as_bob(views_, key_, bob);
  EXPECT_EQ(as_bob.on_frame(join(token("Counter", "alice")), kNowMs).close_code, kClosePolicy);
  LiveConnection bob_ok(views_, key_, bob);
  EXPECT_EQ(bob_ok.on_frame(join(token("Counter", "bob")), kNowMs).close_code, 0);
  ConnectionOptions anonymous;
  anonymous.user = "";
  LiveConnection anon(views_, key_, anonymous);
  EXPECT_EQ(anon.on_frame(join(token("Counter", "alice")), kNowMs).close_code, kClosePolicy);
  // No resolver: tokens are not matched to a user.
  LiveConnection any(views_, key_, {});
  EXPECT_EQ(any.on_frame(join(token("Counter", "alice")), kNowMs).close_code, 0);
}

TEST_F(LiveConnectionTest, UnknownViewOrBadPropsIsAMountError) {
  LiveConnection conn(views_, key_, {});
  ConnectionOutput out = conn.on_frame(join(token("Nope")), kNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_NE(out.frames[0].find(R"("code":"mount")"), std::string::npos);
  out = conn.on_frame(join(token("Picky")), kNowMs);
  EXPECT_NE(out.frames[0].find("bad props {}"), std::string::npos);
  EXPECT_EQ(out.close_code, 0);
}

TEST_F(LiveConnectionTest, ForgedEventsChangeNothing) {
  LiveConnection a(views_, key_, {});
  LiveConnection b(views_, key_, {});
  int64_t ca = component_of(a.on_frame(join(token("Counter")), kNowMs).frames.at(0));
  // Another root on the same connection, and another connection's numbers.
  int64_t ca2 = component_of(a.on_frame(join(token("Counter"), "fz-2"), kNowMs).frames.at(0));
  int64_t cb = component_of(b.on_frame(join(token("Counter")), kNowMs).frames.at(0));
  EXPECT_NE(ca, ca2);

  for (int64_t c : {int64_t(0), ca2, ca + 1000, cb + 1000}) {
    ConnectionOutput out = a.on_frame(ev(1, c, "inc"), kNowMs);
    ASSERT_EQ(out.frames.size(), 1u) << c;
    EXPECT_NE(out.frames[0].find(R"("code":"component")"), std::string::npos) << c;
    EXPECT_EQ(out.close_code, 0);
  }
  // Out of range for a number at all: refused by the frame parser.
  for (int64_t c : {int64_t(-1), int64_t(1) << 40}) {
    ConnectionOutput out = a.on_frame(ev(1, c, "inc"), kNowMs);
    ASSERT_EQ(out.frames.size(), 1u) << c;
    EXPECT_NE(out.frames[0].find(R"("t":"error")"), std::string::npos) << c;
    EXPECT_EQ(out.close_code, 0);
  }
  for (const char* hook : {"mount", "unmount", "every", "message", "presence"}) {
    ConnectionOutput out = a.on_frame(ev(2, ca, hook), kNowMs);
    ASSERT_EQ(out.frames.size(), 1u) << hook;
    // The parser hands back no half-filled frame, so the answer names no view or ref: only a
    // forged frame gets here (no template can render a hook as a handler).
    EXPECT_EQ(out.frames[0].find(R"({"t":"error","v":"","ref":0,"code":"event")"), 0u) << out.frames[0];
  }
  ConnectionOutput out = a.on_frame(ev(3, ca, "nope"), kNowMs);
  EXPECT_NE(out.frames.at(0).find(R"("code":"event")"), std::string::npos);
  out = a.on_frame(ev(4, ca, "inc", "fz-9"), kNowMs);
  EXPECT_NE(out.frames.at(0).find(R"("code":"view")"), std::string::npos);
  out = a.on_frame("{not json", kNowMs);
  EXPECT_NE(out.frames.at(0).find(R"("code":"frame")"), std::string::npos);

  // Nothing above changed the count.
  out = a.on_frame(ev(5, ca, "inc"), kNowMs);
  EXPECT_NE(out.frames.at(0).find("Count: 1"), std::string::npos);
}

TEST_F(LiveConnectionTest, FailingHandlerRollsBack) {
  LiveConnection conn(views_, key_, {});
  int64_t c = component_of(conn.on_frame(join(token("Counter")), kNowMs).frames.at(0));
  ConnectionOutput out = conn.on_frame(ev(1, c, "fail"), kNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_EQ(out.frames[0], R"({"t":"error","v":"fz-1","ref":1,"code":"handler","msg":"fail: always fails"})");
  out = conn.on_frame(ev(2, c, "inc"), kNowMs);
  EXPECT_NE(out.frames.at(0).find(R"("Count: 1")"), std::string::npos);  // not 101
}

TEST_F(LiveConnectionTest, ThrowingHandlerRollsBackAndRenderCrashRemounts) {
  LiveConnection conn(views_, key_, {});
  int64_t c = component_of(conn.on_frame(join(token("Fragile")), kNowMs).frames.at(0));
  ConnectionOutput out = conn.on_frame(ev(1, c, "boom"), kNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_EQ(out.frames[0], R"({"t":"error","v":"fz-1","ref":1,"code":"handler","msg":"handler threw"})");
  out = conn.on_frame(ev(2, c, "inc"), kNowMs);  // n=1: the throw's increment was rolled back
  EXPECT_NE(out.frames.at(0).find(R"("n=1")"), std::string::npos) << out.frames[0];
  // n=2 makes render throw: the instance is remounted fresh and sent as a full, then the ack.
  out = conn.on_frame(ev(3, c, "inc"), kNowMs);
  ASSERT_EQ(out.frames.size(), 2u);
  EXPECT_NE(out.frames[0].find(R"({"t":"full","v":"fz-1","rev":1,)"), std::string::npos) << out.frames[0];
  EXPECT_NE(out.frames[0].find("n=0"), std::string::npos);
  EXPECT_EQ(out.frames[1], R"({"t":"ack","ref":3})");
  EXPECT_EQ(conn.mounted(), 1u);
  // The old instance's number is gone; the new one works.
  EXPECT_NE(conn.on_frame(ev(4, c, "inc"), kNowMs).frames.at(0).find(R"("code":"component")"), std::string::npos);
  int64_t c2 = component_of(out.frames[0]);
  EXPECT_NE(conn.on_frame(ev(5, c2, "inc"), kNowMs).frames.at(0).find("n=1"), std::string::npos);
}

TEST_F(LiveConnectionTest, ThrowingMountIsAMountError) {
  LiveConnection conn(views_, key_, {});
  std::string tok = testing::token_for(key_, "Fragile", kNowMs, R"({"mountfail":true})", "", 60);
  ConnectionOutput out = conn.on_frame(join(tok), kNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_EQ(out.frames[0], R"({"t":"error","v":"fz-1","ref":0,"code":"mount","msg":"mount failed"})");
  EXPECT_EQ(out.close_code, 0);
  EXPECT_EQ(conn.mounted(), 0u);
}

TEST_F(LiveConnectionTest, ProdErrorsCarryNoMessage) {
  ConnectionOptions prod;
  prod.dev = false;
  LiveConnection conn(views_, key_, prod);
  int64_t c = component_of(conn.on_frame(join(token("Counter")), kNowMs).frames.at(0));
  EXPECT_EQ(conn.on_frame(ev(1, c, "fail"), kNowMs).frames.at(0),
            R"({"t":"error","v":"fz-1","ref":1,"code":"handler"})");
}

TEST_F(LiveConnectionTest, ResyncLeaveAndHeartbeat) {
  LiveConnection conn(views_, key_, {});
  EXPECT_EQ(conn.on_frame(R"({"t":"hb"})", kNowMs).frames, std::vector<std::string>{R"({"t":"hb"})"});
  int64_t c = component_of(conn.on_frame(join(token("Counter")), kNowMs).frames.at(0));
  conn.on_frame(ev(1, c, "inc"), kNowMs);
  ConnectionOutput out = conn.on_frame(R"({"t":"resync","v":"fz-1"})", kNowMs);
  ASSERT_EQ(out.frames.size(), 1u);
  EXPECT_NE(out.frames[0].find(R"({"t":"full","v":"fz-1","rev":3,)"), std::string::npos);
  EXPECT_NE(out.frames[0].find("Count: 1"), std::string::npos);
  EXPECT_TRUE(conn.on_frame(R"({"t":"leave","v":"fz-1"})", kNowMs).frames.empty());
  EXPECT_EQ(conn.mounted(), 0u);
  EXPECT_NE(conn.on_frame(ev(2, c, "inc"), kNowMs).frames.at(0).find(R"("code":"view")"), std::string::npos);
}

TEST_F(LiveConnectionTest, MountAndUnmountHooks) {
  {
    LiveConnection conn(views_, key_, {});
    conn.on_frame(join(token("Hooked")), kNowMs);
    EXPECT_EQ(hooks_.mounted_connected, 1);
    conn.on_frame(join(token("Hooked")), kNowMs);  // a rejoin is a fresh mount
    EXPECT_EQ(hooks_.mounted_connected, 2);
    EXPECT_EQ(hooks_.unmounted, 1);
  }  // the socket goes away
  EXPECT_EQ(hooks_.unmounted, 2);
  std::string error;
  RootRender r;
  r.view = "Hooked";
  EXPECT_FALSE(render_root_html(views_, key_, r, &error).empty());
  EXPECT_EQ(hooks_.mounted_plain, 1);
  EXPECT_EQ(hooks_.unmounted, 2);  // never after the plain GET render
}

TEST_F(LiveConnectionTest, RateAndSizeCaps) {
  ConnectionOptions opts;
  opts.max_events_per_sec = 10;
  opts.event_burst = 5;
  LiveConnection conn(views_, key_, opts);
  int64_t c = component_of(conn.on_frame(join(token("Counter")), kNowMs).frames.at(0));
  uint16_t closed = 0;
  for (int i = 0; i < 20 && closed == 0; i++) closed = conn.on_frame(ev(i + 1, c, "inc"), kNowMs).close_code;
  EXPECT_EQ(closed, kClosePolicy);

  LiveConnection big(views_, key_, {});
  EXPECT_EQ(big.on_frame(std::string(kMaxFrameBytes + 1, ' '), kNowMs).close_code, kCloseTooBig);
}

TEST_F(LiveConnectionTest, GetRenderWrapsTheRootWithAToken) {
  RootRender r;
  r.view = "Counter";
  r.uid = "alice";
  r.now_unix = kNowMs / 1000;
  std::string error;
  std::string html = render_root_html(views_, key_, r, &error);
  std::smatch m;
  ASSERT_TRUE(std::regex_match(html, m, std::regex(R"re(<div id="fz-1" data-fz-view="Counter" data-fz-token="([^"]+)"><div data-fz-c="0"><p id="count">Count: 0</p>.*</div></div>)re")))
      << html;
  TokenResult t = open_token(m[1].str(), key_, r.now_unix);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t.claims.view, "Counter");
  EXPECT_EQ(t.claims.uid, "alice");
  EXPECT_EQ(t.claims.exp, r.now_unix + r.ttl_secs);
  r.view = "Nope";
  EXPECT_EQ(render_root_html(views_, key_, r, &error), "");
  EXPECT_EQ(error, "unknown view Nope");
}

TEST(LiveOrigin, HostOrAllowlist) {
  std::vector<std::string> none;
  EXPECT_TRUE(origin_allowed("http://127.0.0.1:8080", "127.0.0.1:8080", none));
  EXPECT_TRUE(origin_allowed("https://Example.com", "example.com", none));
  EXPECT_FALSE(origin_allowed("http://evil.com", "example.com", none));
  EXPECT_FALSE(origin_allowed("http://example.com:81", "example.com", none));
  EXPECT_FALSE(origin_allowed("http://example.com.evil.com", "example.com", none));
  EXPECT_FALSE(origin_allowed("http://example.com/", "example.com", none));
  EXPECT_FALSE(origin_allowed("http://user@example.com", "example.com", none));
  EXPECT_FALSE(origin_allowed("ftp://example.com", "example.com", none));
  EXPECT_FALSE(origin_allowed("", "example.com", none));
  EXPECT_FALSE(origin_allowed("null", "example.com", none));
  EXPECT_FALSE(origin_allowed("http://example.com", "", none));
  std::vector<std::string> allow{"https://app.example.com"};
  EXPECT_TRUE(origin_allowed("https://app.example.com", "api.example.com", allow));
  EXPECT_FALSE(origin_allowed("http://app.example.com", "api.example.com", allow));
}

}  // namespace
}  // namespace fitz::live
