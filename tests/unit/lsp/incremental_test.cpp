// Edits across modules through the in-process server, with parses cached between analyses:
// after an edit that changes a module's interface, a dependent gains or loses an error, and
// every module's published diagnostics equal a fresh check of the current texts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "lsp/analysis.h"
#include "lsp/features/features.h"
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

// A module of many items, edited inside one of them through ranged changes (the editor's way):
// the server lowers only that item again and moves the others out of the previous AST. After
// every edit the diagnostics and the hover at every name equal a fresh analysis of the text, so
// a node, span or name left pointing at the old text shows up here.
constexpr const char* kItems = R"(type Item {
    name: Str
    qty: Int = 1
    fn label() -> Str => "{name} x{qty}"
}

fn make(name: Str, qty: Int) -> Item {
    return Item { name: name, qty: qty }
}

fn work(count: Int, text: Str) -> Int {
    let acc = 0
    for i in 0..count {
        acc = acc + i
    }
    let item = make(text, acc)
    return acc + item.qty
}

fn other(n: Int) -> Str => make("o", n).label()

print(other(work(3, "w")))
)";

TEST_F(Incremental, EditingOneItemEqualsAFreshAnalysis) {
  std::string text = kItems;
  texts_["items.fitz"] = text;
  std::ofstream(dir_ / "items.fitz") << text;
  h_.notify("textDocument/didOpen",
            {{"textDocument", {{"uri", uri("items.fitz")}, {"languageId", "fitz"}, {"version", 1}, {"text", text}}}});
  h_.server.flush();
  auto pos = [&](size_t offset) {
    frontend::SourceFile f(frontend::FileId{0}, "t", text);
    return json{{"line", f.line_col(uint32_t(offset)).line - 1}, {"character", f.utf16_col(uint32_t(offset))}};
  };
  // Each edit: find `anchor` (after the previous edits), replace `cut` bytes after it by `insert`.
  struct Edit {
    const char* anchor;
    size_t cut;
    const char* insert;
  };
  const Edit edits[] = {
      {"acc = acc + i", 0, "let twice = i * 2\n        "},  // inside `work`: later items move down
      {"let twice = i * 2", 17, "let twice = i * \"2\""},    // a type error inside `work`
      {"i * \"2\"", 7, "i * 2"},                              // and fixed again
      {"fn other", 0, "fn extra() -> Int => 1\n\n"},         // a new item between two others
      {"qty: Int = 1", 12, "qty: Int = 2"},                   // the type: an interface change
      {"fn extra() -> Int => 1\n\n", 24, ""},                // the new item removed again
      {"return acc + item.qty", 21, "return acc + item.nope"},  // an unknown field
  };
  int version = 1;
  for (const Edit& e : edits) {
    size_t at = text.find(e.anchor);
    ASSERT_NE(at, std::string::npos) << e.anchor;
    json change{{"range", {{"start", pos(at)}, {"end", pos(at + e.cut)}}}, {"text", e.insert}};
    text.replace(at, e.cut, e.insert);
    texts_["items.fitz"] = text;
    h_.notify("textDocument/didChange", {{"textDocument", {{"uri", uri("items.fitz")}, {"version", ++version}}},
                                        {"contentChanges", json::array({change})}});
    h_.server.flush();
    SCOPED_TRACE(std::string("after editing at `") + e.anchor + "`");
    EXPECT_EQ(h_.last_diagnostics(uri("items.fitz")), fresh("items.fitz"));

    fs::path file = fs::weakly_canonical(dir_ / "items.fitz");
    auto served = h_.server.workspace().analysis_for(file);
    auto scratch = analyze(file, dir_, frontend::disk_reader());
    ModuleId sm = served->module_at(file), fm = scratch->module_at(file);
    ASSERT_TRUE(sm.valid() && fm.valid());
    size_t names = 0;
    for (uint32_t off = 0; off < text.size(); ++off) {
      if (!std::isalpha(static_cast<unsigned char>(text[off])) || (off > 0 && std::isalnum(static_cast<unsigned char>(text[off - 1]))))
        continue;
      auto a = hover(*served, sm, off), b = hover(*scratch, fm, off);
      ASSERT_EQ(a.has_value(), b.has_value()) << "at " << off;
      if (!a) continue;
      ++names;
      EXPECT_EQ(a->markdown, b->markdown) << "at " << off;
      EXPECT_EQ(std::pair(a->span.begin, a->span.end), std::pair(b->span.begin, b->span.end)) << "at " << off;
    }
    EXPECT_GT(names, 20u);
  }
}

}  // namespace
}  // namespace fitz::lsp
