// Edits across modules through the in-process server, with parses cached between analyses:
// after an edit that changes a module's interface, a dependent gains or loses an error, and
// every module's published diagnostics equal a fresh check of the current texts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "lsp/analysis.h"
#include "lsp/protocol.h"
#include "lsp/server.h"
#include "lsp/uri.h"

namespace fitz::lsp {
namespace {

namespace fs = std::filesystem;

struct Harness {
  std::istringstream in;
  std::ostringstream out;
  Transport transport{in, out};
  Server server{transport, ServerOptions{}};
  int next_id = 1;

  void notify(const std::string& method, json params) {
    Message m;
    m.kind = Message::Kind::Notification;
    m.method = method;
    m.params = std::move(params);
    server.handle(m);
  }
  void request(const std::string& method, json params) {
    Message m;
    m.kind = Message::Kind::Request;
    m.id = next_id++;
    m.method = method;
    m.params = std::move(params);
    server.handle(m);
  }
  // The latest diagnostics published for `uri`.
  json last_diagnostics(const std::string& uri) const {
    json last;
    std::string s = out.str();
    size_t pos = 0;
    while ((pos = s.find("Content-Length: ", pos)) != std::string::npos) {
      size_t len = std::stoul(s.substr(pos + 16));
      size_t body = s.find("\r\n\r\n", pos) + 4;
      json m = json::parse(s.substr(body, len));
      if (m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
        last = m["params"]["diagnostics"];
      pos = body + len;
    }
    return last;
  }
};

constexpr const char* kLibInt = "fn f(a: Int) -> Int => a + 1\n\nfn g() -> Int {\n    return 2\n}\n";
constexpr const char* kLibBody = "fn f(a: Int) -> Int => a * 7\n\nfn g() -> Int {\n    let z = 3\n    return z\n}\n";
constexpr const char* kLibStr = "fn f(a: Int) -> Str => \"s\"\n\nfn g() -> Int {\n    return 2\n}\n";
constexpr const char* kLibGone = "fn g() -> Int {\n    return 2\n}\n";
constexpr const char* kMain = "import lib\n\nfn use_it() -> Int {\n    return lib.f(1) + lib.g()\n}\n\nprint(use_it())\n";

class Incremental : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fitz-lsp-incremental-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    texts_["lib.fitz"] = kLibInt;
    texts_["main.fitz"] = kMain;
    for (const auto& [name, text] : texts_) std::ofstream(dir_ / name) << text;
    h_.request("initialize", json::object());
    h_.notify("initialized", json::object());
    for (const auto& [name, text] : texts_)
      h_.notify("textDocument/didOpen", {{"textDocument", {{"uri", uri(name)}, {"languageId", "fitz"}, {"version", 1}, {"text", text}}}});
    h_.server.flush();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string uri(const std::string& name) const { return path_to_uri(fs::weakly_canonical(dir_ / name)); }

  void set_lib(const std::string& text) {
    texts_["lib.fitz"] = text;
    h_.notify("textDocument/didChange", {{"textDocument", {{"uri", uri("lib.fitz")}, {"version", ++version_}}},
                                        {"contentChanges", json::array({{{"text", text}}})}});
    h_.server.flush();
  }

  // A fresh check of `name` with the current texts on disk, as `fitz check` would do it.
  json fresh(const std::string& name) {
    for (const auto& [n, text] : texts_) std::ofstream(dir_ / n, std::ios::trunc) << text;
    fs::path file = dir_ / name;
    auto a = analyze(file, dir_, frontend::disk_reader());
    json expected = json::array();
    for (const auto& d : a->diagnostics)
      if (d.span.file.valid() && a->path_of(d.span.file) == fs::weakly_canonical(file))
        expected.push_back(diagnostic_to_json(*a, d));
    return expected;
  }

  static size_t errors(const json& diags) {
    size_t n = 0;
    for (const auto& d : diags) n += d.value("severity", 0) == 1;
    return n;
  }

  fs::path dir_;
  std::map<std::string, std::string> texts_;
  Harness h_;
  int version_ = 1;
};

TEST_F(Incremental, InterfaceChangeGivesAndTakesADependentsError) {
  json clean = h_.last_diagnostics(uri("main.fitz"));
  ASSERT_TRUE(clean.is_array());
  EXPECT_EQ(clean, fresh("main.fitz"));
  EXPECT_EQ(errors(clean), 0u) << clean.dump();

  set_lib(kLibBody);  // body-only edits: same interface
  EXPECT_EQ(h_.last_diagnostics(uri("main.fitz")), fresh("main.fitz"));
  EXPECT_EQ(h_.last_diagnostics(uri("lib.fitz")), fresh("lib.fitz"));
  EXPECT_EQ(errors(h_.last_diagnostics(uri("main.fitz"))), 0u);

  set_lib(kLibStr);  // f now returns Str: main gains an error
  json broken = h_.last_diagnostics(uri("main.fitz"));
  EXPECT_EQ(broken, fresh("main.fitz"));
  EXPECT_GT(errors(broken), 0u) << broken.dump();

  set_lib(kLibInt);  // back: main loses it
  json fixed = h_.last_diagnostics(uri("main.fitz"));
  EXPECT_EQ(fixed, fresh("main.fitz"));
  EXPECT_EQ(errors(fixed), 0u) << fixed.dump();

  set_lib(kLibGone);  // f removed: main gains a different error
  json gone = h_.last_diagnostics(uri("main.fitz"));
  EXPECT_EQ(gone, fresh("main.fitz"));
  EXPECT_GT(errors(gone), 0u) << gone.dump();

  set_lib(kLibInt);
  EXPECT_EQ(h_.last_diagnostics(uri("main.fitz")), fresh("main.fitz"));
  EXPECT_EQ(errors(h_.last_diagnostics(uri("main.fitz"))), 0u);
  EXPECT_EQ(h_.last_diagnostics(uri("lib.fitz")), fresh("lib.fitz"));
}

// Many analyses with changing content: the shared SourceManager is replaced once it holds too
// many stale files, and diagnostics stay equal to a fresh check throughout.
TEST_F(Incremental, ManyEditsStayEqualToAFreshCheck) {
  for (int i = 0; i < 300; ++i) {
    std::string lib = (i % 3 == 2 ? std::string(kLibStr) : std::string(kLibInt)) + "// edit " + std::to_string(i) + "\n";
    set_lib(lib);
    if (i % 50 == 49 || i % 3 == 2) {
      EXPECT_EQ(h_.last_diagnostics(uri("main.fitz")), fresh("main.fitz")) << i;
    }
  }
}

}  // namespace
}  // namespace fitz::lsp
