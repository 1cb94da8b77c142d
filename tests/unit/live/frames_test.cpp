// Client frames: every type parsed, and the strict rejections (size, JSON, types, unknown and
// missing fields, hooks as events); server frames byte for byte.
#include <gtest/gtest.h>

#include <random>

#include "fitz/live/frames.h"

namespace fitz::live {
namespace {

FrameError err(std::string_view s) { return parse_client_frame(s).error; }

TEST(LiveFrames, Join) {
  FrameResult r = parse_client_frame(R"({"t":"join","v":"fz-1","tok":"1.abc","rev":3})");
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.frame.kind, ClientFrameKind::Join);
  EXPECT_EQ(r.frame.view, "fz-1");
  EXPECT_EQ(r.frame.token, "1.abc");
  EXPECT_EQ(r.frame.rev, 3);
  r = parse_client_frame(R"( {"tok":"x","v":"fz-2","t":"join"} )");
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.frame.rev, 0);
}

TEST(LiveFrames, Event) {
  FrameResult r = parse_client_frame(R"({"t":"ev","v":"fz-1","ref":12,"c":17,"e":"remove","p":{"id":"3","text":"hi <b>x</b>"}})");
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.frame.kind, ClientFrameKind::Event);
  EXPECT_EQ(r.frame.ref, 12);
  EXPECT_EQ(r.frame.component, 17);
  EXPECT_EQ(r.frame.event, "remove");
  ASSERT_EQ(r.frame.payload.size(), 2u);
  EXPECT_EQ(r.frame.payload[1].first, "text");
  EXPECT_EQ(r.frame.payload[1].second, "hi <b>x</b>");
  EXPECT_TRUE(parse_client_frame(R"({"t":"ev","v":"fz-1","ref":0,"c":1,"e":"inc"})").ok());
}

TEST(LiveFrames, ResyncLeaveHeartbeat) {
  EXPECT_EQ(parse_client_frame(R"({"t":"resync","v":"fz-1"})").frame.kind, ClientFrameKind::Resync);
  EXPECT_EQ(parse_client_frame(R"({"t":"leave","v":"fz-1"})").frame.kind, ClientFrameKind::Leave);
  FrameResult hb = parse_client_frame(R"({"t":"hb"})");
  ASSERT_TRUE(hb.ok());
  EXPECT_EQ(hb.frame.kind, ClientFrameKind::Heartbeat);
}

TEST(LiveFrames, TooBig) {
  std::string big = R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":"x","p":{"a":")" + std::string(kMaxFrameBytes, 'a') + "\"}}";
  EXPECT_EQ(err(big), FrameError::TooBig);
  std::string fits = R"({"t":"join","v":"fz-1","tok":")" + std::string(kMaxFrameBytes - 40, 'a') + "\"}";
  EXPECT_TRUE(parse_client_frame(fits).ok()) << parse_client_frame(fits).message;
}

TEST(LiveFrames, NotJson) {
  for (const char* s : {"", " ", "{", "{\"t\":\"hb\"", "{\"t\":\"hb\",}", "{'t':'hb'}", "{\"t\":\"hb\"} x", "nul",
                        "{\"t\":\"hb\"}{\"t\":\"hb\"}", "\xff", "{\"t\":\"h\xc3\"}"})
    EXPECT_EQ(err(s), FrameError::NotJson) << s;
}

TEST(LiveFrames, NotObject) {
  for (const char* s : {"[]", "\"hb\"", "1", "null", "true", "[{\"t\":\"hb\"}]"}) EXPECT_EQ(err(s), FrameError::NotObject) << s;
}

TEST(LiveFrames, UnknownType) {
  for (const char* s : {R"({})", R"({"v":"fz-1"})", R"({"t":"mount"})", R"({"t":"JOIN"})", R"({"t":1})",
                        R"({"t":null})", R"({"t":"full","v":"fz-1","rev":1,"html":""})", R"({"t":"patch"})"})
    EXPECT_EQ(err(s), FrameError::UnknownType) << s;
}

TEST(LiveFrames, MissingFields) {
  for (const char* s : {R"({"t":"join","v":"fz-1"})", R"({"t":"join","tok":"x"})", R"({"t":"ev","v":"fz-1","c":1,"e":"x"})",
                        R"({"t":"ev","v":"fz-1","ref":1,"e":"x"})", R"({"t":"ev","v":"fz-1","ref":1,"c":1})",
                        R"({"t":"resync"})", R"({"t":"leave"})"})
    EXPECT_EQ(err(s), FrameError::MissingField) << s;
}

TEST(LiveFrames, UnknownFields) {
  for (const char* s : {R"({"t":"hb","x":1})", R"({"t":"hb","v":"fz-1"})", R"({"t":"resync","v":"fz-1","tok":"x"})",
                        R"({"t":"join","v":"fz-1","tok":"x","p":{}})", R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":"x","rev":1})",
                        R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":"x","__proto__":{}})"})
    EXPECT_EQ(err(s), FrameError::UnknownField) << s;
}

TEST(LiveFrames, BadFields) {
  for (const char* s : {
           R"({"t":"join","v":"fz-1","tok":""})", R"({"t":"join","v":"","tok":"x"})", R"({"t":"join","v":1,"tok":"x"})",
           R"({"t":"join","v":"fz 1","tok":"x"})", R"({"t":"join","v":"<img>","tok":"x"})", R"({"t":"join","v":"fz-1","tok":"x","rev":-1})",
           R"({"t":"join","v":"fz-1","tok":"x","rev":1.5})", R"({"t":"join","v":"fz-1","tok":"x","rev":"1"})",
           R"({"t":"join","v":"fz-1","tok":"x","rev":1e400})", R"({"t":"join","v":"fz-1","tok":"x","rev":99999999999999999999})",
           R"({"t":"ev","v":"fz-1","ref":1,"c":4294967296,"e":"x"})", R"({"t":"ev","v":"fz-1","ref":1,"c":-1,"e":"x"})",
           R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":"x","p":[]})", R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":"x","p":{"a":1}})",
           R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":"x","p":{"a":{"b":"c"}}})", R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":"x","p":{"a":"1","a":"2"}})",
           R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":"x","p":{"":"1"}})", R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":"a.b"})",
           R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":""})", R"({"t":"ev","v":"fz-1","ref":1,"c":null,"e":"x"})",
           R"({"t":"hb","t":"hb"})"})
    EXPECT_EQ(err(s), FrameError::BadField) << s;
}

TEST(LiveFrames, BindIsTheOneBuiltInEvent) {
  FrameResult r = parse_client_frame(R"({"t":"ev","v":"fz-1","ref":2,"c":1,"e":"fz:bind","p":{"field":"step","value":"5"}})");
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.frame.event, "fz:bind");
  for (const char* s : {R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":"fz:other"})", R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":"x:bind"})"})
    EXPECT_EQ(err(s), FrameError::BadField) << s;
}

TEST(LiveFrames, TooManyPayloadKeys) {
  std::string s = R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":"x","p":{)";
  for (size_t i = 0; i <= kMaxPayloadKeys; ++i) {
    if (i) s.push_back(',');
    s.append("\"k").append(std::to_string(i)).append("\":\"v\"");
  }
  s += "}}";
  EXPECT_EQ(err(s), FrameError::BadField);
}

TEST(LiveFrames, HooksCannotBeDispatched) {
  for (const char* hook : {"mount", "unmount", "every", "message", "presence"}) {
    std::string s = std::string(R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":")") + hook + "\"}";
    FrameResult r = parse_client_frame(s);
    EXPECT_EQ(r.error, FrameError::ReservedEvent) << hook;
    EXPECT_TRUE(r.frame.event.empty());  // a failed parse hands back nothing half-filled
  }
  EXPECT_TRUE(is_reserved_event("mount"));
  EXPECT_FALSE(is_reserved_event("mounted"));
}

TEST(LiveFrames, DeepNestingIsRefused) {
  std::string s = R"({"t":"ev","v":"fz-1","ref":1,"c":1,"e":"x","p":{"a":)" + std::string(10000, '[') + std::string(10000, ']') + "}}";
  EXPECT_FALSE(parse_client_frame(s).ok());
}

TEST(LiveFrames, RandomBytesNeverThrow) {
  std::mt19937 rng(11);
  const std::string seed = R"({"t":"ev","v":"fz-1","ref":12,"c":17,"e":"remove","p":{"id":"3"}})";
  for (int i = 0; i < 20000; ++i) {
    std::string s = seed;
    for (int k = 0, n = 1 + int(rng() % 4); k < n; ++k) {
      size_t at = rng() % s.size();
      switch (rng() % 3) {
        case 0: s[at] = char(rng()); break;
        case 1: s.erase(at, 1 + rng() % 3); break;
        default: s.insert(at, 1, "{}[]\":,0a\\"[rng() % 10]); break;
      }
      if (s.empty()) s.push_back('{');
    }
    FrameResult r = parse_client_frame(s);
    if (r.ok()) EXPECT_FALSE(r.frame.view.empty() && r.frame.kind != ClientFrameKind::Heartbeat);
    else EXPECT_FALSE(r.message.empty()) << s;
  }
}

TEST(LiveFrames, ErrorNames) {
  EXPECT_STREQ(frame_error_name(FrameError::TooBig), "too big");
  EXPECT_STREQ(frame_error_name(FrameError::ReservedEvent), "reserved event");
}

TEST(LiveFrames, ServerFrames) {
  EXPECT_EQ(full_frame("fz-1", 1, "<p>\"x\"</p>"), R"({"t":"full","v":"fz-1","rev":1,"html":"<p>\"x\"</p>"})");
  EXPECT_EQ(patch_frame("fz-1", 2, R"([["text",[0],"a"]])"), R"({"t":"patch","v":"fz-1","rev":2,"ops":[["text",[0],"a"]]})");
  EXPECT_EQ(ack_frame(12), R"({"t":"ack","ref":12})");
  EXPECT_EQ(redirect_frame("/welcome"), R"({"t":"redirect","to":"/welcome"})");
  EXPECT_EQ(reload_frame(), R"({"t":"reload"})");
  EXPECT_EQ(error_frame("fz-1", 3, "handler", ""), R"({"t":"error","v":"fz-1","ref":3,"code":"handler"})");
  EXPECT_EQ(error_frame("fz-1", 3, "handler", "boom at Counter.inc"),
            R"({"t":"error","v":"fz-1","ref":3,"code":"handler","msg":"boom at Counter.inc"})");
  EXPECT_EQ(hb_frame(), R"({"t":"hb"})");
  EXPECT_EQ(kClosePolicy, 1008);
  EXPECT_EQ(kCloseTooBig, 1009);
  EXPECT_EQ(kCloseServerFault, 1011);
}

TEST(LiveFrames, ServerFramesEscapeControlCharacters) {
  std::string f = full_frame("fz-1", 1, std::string("a\nb\x01</script>", 13));
  EXPECT_EQ(f.find('\n'), std::string::npos);
  EXPECT_EQ(f.find('\x01'), std::string::npos);
}

}  // namespace
}  // namespace fitz::live
