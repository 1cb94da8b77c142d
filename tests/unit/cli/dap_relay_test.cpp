// The launch requests and adapter answers `fitz debug --dap` rewrites.
#include "cli/dap_relay.h"

#include <gtest/gtest.h>

namespace fitz::cli {
namespace {

using json = nlohmann::json;

DebugBuild fake_build(std::vector<std::string>& built) {
  return [&built](const std::string& target, std::string&) {
    built.push_back(target);
    return "/cache/debug/" + target + ".bin";
  };
}

TEST(DapRelay, LaunchOfAFitzFileBuildsItAndLoadsTheFormatters) {
  std::vector<std::string> built;
  json req = {{"type", "request"}, {"command", "launch"}, {"seq", 2},
              {"arguments", {{"program", "app.fitz"}, {"initCommands", {"settings set a b"}}}}};
  std::string error;
  ASSERT_TRUE(prepare_launch(req, "/share/fitz_lldb.py", fake_build(built), error)) << error;
  EXPECT_EQ(built, std::vector<std::string>{"app.fitz"});
  EXPECT_EQ(req["arguments"]["program"], "/cache/debug/app.fitz.bin");
  EXPECT_EQ(req["arguments"]["initCommands"],
            json::array({"command script import \"/share/fitz_lldb.py\"", "settings set a b"}));
}

TEST(DapRelay, LaunchOfABinaryIsNotRebuilt) {
  std::vector<std::string> built;
  json req = {{"arguments", {{"program", "/bin/true"}, {"env", {{"PORT", "8080"}, {"N", 3}}}}}};
  std::string error;
  ASSERT_TRUE(prepare_launch(req, "f.py", fake_build(built), error));
  EXPECT_TRUE(built.empty());
  EXPECT_EQ(req["arguments"]["program"], "/bin/true");
  EXPECT_EQ(req["arguments"]["env"], json::array({"N=3", "PORT=8080"}));
}

TEST(DapRelay, LaunchFailures) {
  std::string error;
  std::vector<std::string> built;
  json no_program = {{"arguments", json::object()}};
  EXPECT_FALSE(prepare_launch(no_program, "f.py", fake_build(built), error));
  EXPECT_TRUE(built.empty());
  EXPECT_NE(error.find("\"program\""), std::string::npos);
  json not_object = {{"arguments", 5}};
  EXPECT_FALSE(prepare_launch(not_object, "f.py", [](const std::string&, std::string&) { return std::string(); }, error));
  json broken = {{"arguments", {{"program", "bad.fitz"}}}};
  DebugBuild failing = [](const std::string&, std::string& message) {
    message = "bad.fitz:1:1: error[E0301]: boom";
    return std::string();
  };
  EXPECT_FALSE(prepare_launch(broken, "f.py", failing, error));
  EXPECT_EQ(error, "bad.fitz:1:1: error[E0301]: boom");
}

TEST(DapRelay, StackFramesAndVariablesReadAsFitz) {
  json frames = json::parse(R"J({"type":"response","command":"stackTrace","success":true,"body":{"stackFrames":[
    {"id":1,"name":"fz0::hm_greet(fitz::Str)","line":23},{"id":2,"name":"main","line":9},{"id":3}]}})J");
  rewrite_adapter_message(frames);
  EXPECT_EQ(frames["body"]["stackFrames"][0]["name"], "greet");
  EXPECT_EQ(frames["body"]["stackFrames"][1]["name"], "main");
  EXPECT_FALSE(frames["body"]["stackFrames"][2].contains("name"));

  json vars = json::parse(R"J({"type":"response","command":"variables","success":true,"body":{"variables":[
    {"name":"scores_14","value":" [1, 2, 3]","type":"fitz::List<long>","variablesReference":5},
    {"name":"count_12","value":"42","type":"int64_t"}, 7]}})J");
  rewrite_adapter_message(vars);
  EXPECT_EQ(vars["body"]["variables"][0]["name"], "scores");
  EXPECT_EQ(vars["body"]["variables"][0]["value"], "[1, 2, 3]");
  EXPECT_EQ(vars["body"]["variables"][0]["type"], "List<Int>");
  EXPECT_EQ(vars["body"]["variables"][1]["type"], "Int");
  EXPECT_EQ(vars["body"]["variables"][2], 7);
}

TEST(DapRelay, OtherMessagesPassUnchanged) {
  for (const char* text : {R"J({"type":"event","event":"stopped","body":{"reason":"breakpoint"}})J",
                           R"J({"type":"response","command":"variables","success":false,"message":"x"})J",
                           R"J({"type":"response","command":"stackTrace","body":{"stackFrames":3}})J",
                           "[1, 2]", "\"text\""}) {
    json before = json::parse(text), after = before;
    rewrite_adapter_message(after);
    EXPECT_EQ(before, after) << text;
  }
}

}  // namespace
}  // namespace fitz::cli
