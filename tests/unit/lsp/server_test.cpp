// The server's scheduling and bookkeeping through the in-process server: cancellation, files
// changed on disk (with and without watched-file events), diagnostics of unopened project
// files, publishing only what changed, the bound on the shared SourceManager, the slow-request
// trace, quick fixes and semantic-token deltas.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/source.h"
#include "lsp/protocol.h"
#include "lsp/server.h"
#include "lsp/uri.h"

namespace fitz::lsp {
namespace {

namespace fs = std::filesystem;

std::vector<json> parse_frames(const std::string& s) {
  std::vector<json> all;
  size_t pos = 0;
  while ((pos = s.find("Content-Length: ", pos)) != std::string::npos) {
    size_t len = std::stoul(s.substr(pos + 16));
    size_t body = s.find("\r\n\r\n", pos) + 4;
    all.push_back(json::parse(s.substr(body, len)));
    pos = body + len;
  }
  return all;
}

json note(const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

struct Project {
  fs::path dir;
  Project() {
    static int counter = 0;
    dir = fs::temp_directory_path() / ("fitz-lsp-server-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(dir);
    fs::create_directories(dir / "src");
    write("fitz.toml", "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2026\"\n\n[bin]\nmain = \"src/main.fitz\"\n");
  }
  ~Project() { fs::remove_all(dir); }
  void write(const std::string& rel, const std::string& text) {
    std::ofstream(dir / rel, std::ios::trunc) << text;
  }
  // Old enough that the server trusts the file's stamp (files written within the timestamp
  // granularity are read again every time).
  void age(const std::string& rel, int seconds_ago) {
    fs::last_write_time(dir / rel, fs::file_time_type::clock::now() - std::chrono::seconds(seconds_ago));
  }
  std::string uri(const std::string& rel) const { return path_to_uri(fs::weakly_canonical(dir / rel)); }
};

struct Harness {
  std::istringstream in;
  std::ostringstream out;
  std::ostringstream log;
  Transport transport{in, out};
  Server server;
  int next_id = 1;
  size_t seen = 0;  // messages already returned by fresh()

  explicit Harness(ServerOptions options = {}, bool debug_log = true)
      : server(transport, with_log(options, debug_log)) {
    request("initialize", json::object());
    notify("initialized", json::object());
  }
  ServerOptions with_log(ServerOptions o, bool debug_log) {
    o.log = &log;
    if (debug_log) o.log_level = LogLevel::Debug;
    return o;
  }
  void notify(const std::string& method, json params) {
    Message m;
    m.kind = Message::Kind::Notification;
    m.method = method;
    m.params = std::move(params);
    server.handle(m);
  }
  json request(const std::string& method, json params) {
    Message m;
    m.kind = Message::Kind::Request;
    m.id = next_id++;
    m.method = method;
    m.params = std::move(params);
    server.handle(m);
    for (const json& r : parse_frames(out.str()))
      if (r.contains("id") && r["id"] == m.id && !r.contains("method")) return r;
    return nullptr;
  }
  // Messages written since the last call.
  std::vector<json> fresh() {
    std::vector<json> all = parse_frames(out.str());
    std::vector<json> tail(all.begin() + long(std::min(seen, all.size())), all.end());
    seen = all.size();
    return tail;
  }
  // The publishDiagnostics messages since the last fresh(), by URI (the last one of each).
  std::map<std::string, json> published() {
    std::map<std::string, json> by;
    for (const json& m : fresh())
      if (m.value("method", "") == "textDocument/publishDiagnostics") by[m["params"]["uri"]] = m["params"];
    return by;
  }
  void open(const std::string& uri, const std::string& text, int version = 1) {
    notify("textDocument/didOpen", {{"textDocument", {{"uri", uri}, {"languageId", "fitz"}, {"version", version}, {"text", text}}}});
  }
  void replace_line(const std::string& uri, int version, int line, int from, int to, const std::string& text) {
    json change{{"range", {{"start", {{"line", line}, {"character", from}}}, {"end", {{"line", line}, {"character", to}}}}},
                {"text", text}};
    notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", version}}}, {"contentChanges", json::array({change})}});
  }
  // A body edit of kMain: `double(n)` <-> `double((n))` on line 3, by the parity of `version`.
  void toggle(const std::string& uri, int version) {
    if (version % 2 == 0) replace_line(uri, version, 2, 19, 20, "(n)");
    else replace_line(uri, version, 2, 19, 22, "n");
  }
};

const char* kMain = "from util import double\nfn run(n: Int) -> Int {\n    let x = double(n)\n    return x\n}\nprint(run(2))\n";
const char* kUtil = "fn double(n: Int) -> Int => n * 2\n";

TEST(Server, CancelledRequestIsAnsweredWithRequestCancelled) {
  // Through the real loop: the reader thread records the cancellation as it reads it, before
  // the request it cancels is handled.
  std::string input;
  auto send = [&](const json& j) { input += frame(j.dump()); };
  send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", json::object()}});
  send(note("initialized", json::object()));
  send(note("$/cancelRequest", {{"id", 7}}));
  send({{"jsonrpc", "2.0"}, {"id", 7}, {"method", "workspace/symbol"}, {"params", {{"query", "x"}}}});
  send({{"jsonrpc", "2.0"}, {"id", 8}, {"method", "workspace/symbol"}, {"params", {{"query", "x"}}}});
  send({{"jsonrpc", "2.0"}, {"id", 9}, {"method", "shutdown"}});
  send(note("exit", nullptr));
  // The detached reader thread may still be in its last read (the end of the input) when run()
  // returns, so what it reads through outlives the test: never freed, and held by statics so
  // that LeakSanitizer sees it reachable rather than leaked.
  static std::istringstream* in;
  static std::ostringstream* out;
  static Transport* t;
  in = new std::istringstream(input);
  out = new std::ostringstream;
  t = new Transport(*in, *out);
  Server s(*t, ServerOptions{});
  EXPECT_EQ(s.run(), 0);
  std::map<int, json> answers;
  for (const json& m : parse_frames(out->str()))
    if (m.contains("id") && m["id"].is_number()) answers[m["id"].get<int>()] = m;
  ASSERT_TRUE(answers.count(7));
  ASSERT_TRUE(answers[7].contains("error")) << answers[7].dump();
  EXPECT_EQ(answers[7]["error"]["code"], int(ErrorCode::RequestCancelled));
  ASSERT_TRUE(answers.count(8));
  EXPECT_TRUE(answers[8].contains("result")) << answers[8].dump();
}

TEST(Server, UnopenedModulesArePublishedAndWatchedFileEventsPickUpDiskChanges) {
  Project p;
  p.write("src/main.fitz", kMain);
  p.write("src/util.fitz", "fn double(n: Int) -> Int => n * \"2\"\n");  // a type error in a file never opened
  Harness h;
  h.open(p.uri("src/main.fitz"), kMain);
  h.server.flush();
  auto pub = h.published();
  ASSERT_TRUE(pub.count(p.uri("src/util.fitz")));
  EXPECT_EQ(pub[p.uri("src/util.fitz")]["diagnostics"].size(), 1u) << pub[p.uri("src/util.fitz")].dump();
  ASSERT_TRUE(pub.count(p.uri("src/main.fitz")));
  EXPECT_TRUE(pub[p.uri("src/main.fitz")]["diagnostics"].empty());

  // Fixed on disk (by another tool): the event makes the server read it again and clear it.
  p.write("src/util.fitz", kUtil);
  h.notify("workspace/didChangeWatchedFiles", {{"changes", json::array({{{"uri", p.uri("src/util.fitz")}, {"type", 2}}})}});
  h.server.flush();
  pub = h.published();
  ASSERT_TRUE(pub.count(p.uri("src/util.fitz")));
  EXPECT_TRUE(pub[p.uri("src/util.fitz")]["diagnostics"].empty());
  EXPECT_FALSE(pub.count(p.uri("src/main.fitz"))) << "unchanged diagnostics are not sent again";
}

TEST(Server, UnchangedFilesAreNotReadAgainButChangedOnesAre) {
  Project p;
  p.write("src/main.fitz", kMain);
  p.write("src/util.fitz", kUtil);
  p.age("src/util.fitz", 60);
  p.age("fitz.toml", 60);
  Harness h;
  std::string uri = p.uri("src/main.fitz");
  h.open(uri, kMain);
  h.server.flush();
  uint64_t reads = h.server.workspace().disk_reads();
  // Body edits: the unopened, unchanged util.fitz is not read (only the manifest is).
  for (int v = 2; v < 6; ++v) {
    h.toggle(uri, v);
    h.server.flush();
  }
  uint64_t per_edit = (h.server.workspace().disk_reads() - reads) / 4;
  EXPECT_LE(per_edit, 1u) << "reads per analysis";
  // Changed on disk without any event (the client does not watch files): its stamp differs, so
  // the next analysis reads it.
  p.write("src/util.fitz", "fn double(n: Int) -> Str => n * 2\n");
  p.age("src/util.fitz", 30);
  h.published();
  h.toggle(uri, 6);
  h.server.flush();
  auto pub = h.published();
  ASSERT_TRUE(pub.count(p.uri("src/util.fitz")));
  EXPECT_FALSE(pub[p.uri("src/util.fitz")]["diagnostics"].empty()) << "the new content was checked";
}

TEST(Server, BodyEditsRepublishOnlyTheEditedFileAndKeepMemoryBounded) {
  Project p;
  p.write("src/main.fitz", kMain);
  p.write("src/util.fitz", "fn double(n: Int) -> Int {\n    let unused = 1\n    return n * 2\n}\n");
  Harness h;
  std::string uri = p.uri("src/main.fitz");
  h.open(uri, kMain);
  h.server.flush();
  auto first = h.published();
  ASSERT_TRUE(first.count(p.uri("src/util.fitz")));  // its warning
  for (int v = 2; v < 400; ++v) {
    h.toggle(uri, v);
    h.server.flush();
    auto pub = h.published();
    EXPECT_FALSE(pub.count(p.uri("src/util.fitz"))) << "edit " << v;
    ASSERT_TRUE(pub.count(uri)) << "edit " << v;
    EXPECT_EQ(pub[uri]["version"], v);
  }
  // Every edit added a file to the shared SourceManager; the ones nothing uses were freed, and
  // the manager was never replaced (that would re-parse and fully re-check everything).
  const frontend::SourceManager* sm = h.server.workspace().sources();
  ASSERT_NE(sm, nullptr);
  EXPECT_GT(sm->size(), 400u);
  EXPECT_LE(sm->size() - sm->released(), 8u);
  EXPECT_EQ(h.server.workspace().sources_generation(), 1u);
  // Still right: a fresh check of the final text agrees.
  auto a = h.server.workspace().analysis_for(fs::weakly_canonical(p.dir / "src/main.fitz"));
  ASSERT_TRUE(a);
  EXPECT_FALSE(a->full_check);
}

TEST(Server, OpeningAFilePublishesItBeforeTheRestOfTheProjectIsChecked) {
  Project p;
  p.write("src/main.fitz", kMain);
  p.write("src/util.fitz", "fn double(n: Int) -> Int => n * \"2\"\n");
  p.write("src/zlate.fitz", "fn later() -> Int => \"x\"\n");  // after main in the init order
  Harness h;
  h.open(p.uri("src/util.fitz"), "fn double(n: Int) -> Int => n * \"2\"\n");
  auto pub = h.published();
  ASSERT_TRUE(pub.count(p.uri("src/util.fitz"))) << "published while opening";
  EXPECT_EQ(pub[p.uri("src/util.fitz")]["diagnostics"].size(), 1u);
  EXPECT_EQ(pub[p.uri("src/util.fitz")]["version"], 1);
  EXPECT_FALSE(pub.count(p.uri("src/zlate.fitz"))) << "not checked yet";
  // A request needs the whole program: the rest is checked first.
  json symbols = h.request("workspace/symbol", {{"query", "later"}});
  ASSERT_TRUE(symbols.contains("result"));
  EXPECT_EQ(symbols["result"].size(), 1u) << symbols.dump();
  h.server.flush();
  pub = h.published();
  ASSERT_TRUE(pub.count(p.uri("src/zlate.fitz")));
  EXPECT_EQ(pub[p.uri("src/zlate.fitz")]["diagnostics"].size(), 1u);
  EXPECT_FALSE(pub.count(p.uri("src/util.fitz"))) << "what was published first was already final";
}

TEST(Server, SlowRequestsAreTraced) {
  Project p;
  p.write("src/main.fitz", kMain);
  p.write("src/util.fitz", kUtil);
  ServerOptions o;
  o.slow_request_ms = 0;  // every request counts as slow
  Harness h(o);
  h.open(p.uri("src/main.fitz"), kMain);
  h.request("textDocument/hover", {{"textDocument", {{"uri", p.uri("src/main.fitz")}}}, {"position", {{"line", 2}, {"character", 9}}}});
  EXPECT_NE(h.log.str().find("slow request textDocument/hover"), std::string::npos) << h.log.str();
  ServerOptions never;
  never.slow_request_ms = 1e12;
  Harness quiet(never);
  quiet.open(p.uri("src/main.fitz"), kMain);
  quiet.request("textDocument/hover", {{"textDocument", {{"uri", p.uri("src/main.fitz")}}}, {"position", {{"line", 2}, {"character", 9}}}});
  EXPECT_EQ(quiet.log.str().find("slow request textDocument/hover"), std::string::npos) << quiet.log.str();
}

// Editors show stderr as errors: by default it gets warnings and errors only, and information
// (a slow request) goes to the client as window/logMessage instead.
TEST(Server, DefaultLogKeepsStderrForWarnings) {
  Project p;
  p.write("src/main.fitz", kMain);
  p.write("src/util.fitz", kUtil);
  ServerOptions o;
  o.slow_request_ms = 0;
  Harness h(o, /*debug_log=*/false);
  h.open(p.uri("src/main.fitz"), kMain);
  h.fresh();
  h.request("textDocument/hover", {{"textDocument", {{"uri", p.uri("src/main.fitz")}}}, {"position", {{"line", 2}, {"character", 9}}}});
  EXPECT_EQ(h.log.str(), "");
  bool told = false;
  for (const json& m : h.fresh())
    if (m.value("method", "") == "window/logMessage" && m["params"]["type"] == 3 &&
        m["params"]["message"].get<std::string>().starts_with("slow request textDocument/hover"))
      told = true;
  EXPECT_TRUE(told);
}

TEST(Server, QuickFixCodeAction) {
  Project p;
  std::string text = "fn greet(name: Str) -> Str => \"hi {name}\"\nprint(gret(\"x\"))\n";
  p.write("src/main.fitz", text);
  Harness h;
  std::string uri = p.uri("src/main.fitz");
  h.open(uri, text);
  h.server.flush();
  auto pub = h.published();
  ASSERT_EQ(pub[uri]["diagnostics"].size(), 1u);
  json r = h.request("textDocument/codeAction",
                     {{"textDocument", {{"uri", uri}}},
                      {"range", {{"start", {{"line", 1}, {"character", 7}}}, {"end", {{"line", 1}, {"character", 7}}}}},
                      {"context", {{"diagnostics", pub[uri]["diagnostics"]}}}});
  ASSERT_TRUE(r.contains("result")) << r.dump();
  ASSERT_EQ(r["result"].size(), 1u) << r.dump();
  const json& act = r["result"][0];
  EXPECT_EQ(act["kind"], "quickfix");
  const json& edits = act["edit"]["changes"][uri];
  ASSERT_EQ(edits.size(), 1u) << act.dump();
  EXPECT_EQ(edits[0]["newText"], "greet");
  EXPECT_EQ(edits[0]["range"]["start"], json({{"line", 1}, {"character", 6}}));
  EXPECT_EQ(edits[0]["range"]["end"], json({{"line", 1}, {"character", 10}}));
}

TEST(Server, SemanticTokensDeltaAppliesToTheNewTokens) {
  Project p;
  p.write("src/main.fitz", kMain);
  p.write("src/util.fitz", kUtil);
  Harness h;
  std::string uri = p.uri("src/main.fitz");
  h.open(uri, kMain);
  json full = h.request("textDocument/semanticTokens/full", {{"textDocument", {{"uri", uri}}}});
  ASSERT_TRUE(full["result"].contains("resultId"));
  std::vector<uint32_t> data = full["result"]["data"].get<std::vector<uint32_t>>();
  h.replace_line(uri, 2, 2, 8, 9, "total");  // let x -> let total
  h.replace_line(uri, 3, 3, 11, 12, "total");
  json delta = h.request("textDocument/semanticTokens/full/delta",
                         {{"textDocument", {{"uri", uri}}}, {"previousResultId", full["result"]["resultId"]}});
  ASSERT_TRUE(delta["result"].contains("edits")) << delta.dump();
  for (auto it = delta["result"]["edits"].rbegin(); it != delta["result"]["edits"].rend(); ++it) {
    uint32_t start = (*it)["start"], count = (*it)["deleteCount"];
    std::vector<uint32_t> ins = it->value("data", std::vector<uint32_t>{});
    ASSERT_LE(start + count, data.size());
    data.erase(data.begin() + start, data.begin() + start + count);
    data.insert(data.begin() + start, ins.begin(), ins.end());
  }
  json fresh = h.request("textDocument/semanticTokens/full", {{"textDocument", {{"uri", uri}}}});
  EXPECT_EQ(data, fresh["result"]["data"].get<std::vector<uint32_t>>());
  // An unknown previous result gets the full tokens.
  json unknown = h.request("textDocument/semanticTokens/full/delta",
                           {{"textDocument", {{"uri", uri}}}, {"previousResultId", "nope"}});
  EXPECT_TRUE(unknown["result"].contains("data")) << unknown.dump();
}

}  // namespace
}  // namespace fitz::lsp
