// Randomised edit streams through the in-process server: thousands of incremental edits
// (inserts, deletes, cutting whole regions and pasting them back elsewhere, non-ASCII text),
// with requests in between on whatever state the text is in. The server must never fail, its
// incrementally parsed tree must equal a fresh parse, and its final diagnostics must equal a
// fresh check of the final text.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "frontend/source.h"
#include "lsp/protocol.h"
#include "lsp/server.h"
#include "lsp/uri.h"

namespace fitz::lsp {
namespace {

constexpr const char* kSeed = R"(// An inventory.
type Item {
    name: Str
    qty: Int = 1
    price: Float
    fn cost() -> Float => price * qty
}

fn total(items: List<Item>) -> Float {
    let sum = 0.0
    for it in items {
        sum = sum + it.cost()
    }
    return sum
}

fn label(n: Int) -> Str => match n {
    0 => "empty"
    1 => "one item"
    _ => "{n} items — ok"
}

let cart = [Item { name: "tea", price: 3.5, qty: 2 }, Item { name: "café 😀", price: 4.25 }]
print("{label(len(cart))}, total {total(cart):.2f}")
)";

const char* kSnippets[] = {
    "x", " ", "\n", "let y = 1\n", "}", "{", "(", ")", "fn g(a: Int) -> Int => a\n", "\"", "é", "😀",
    "match y {\n    _ => 0\n}\n", "cart.", "total(", ", ", "type Z {\n    v: Int\n}\n", "// note\n", "+ 1",
    "if true { print(1) } else { print(2) }\n", "Item { name: \"n\", price: 1.0 }", "return ", "@get(\"/\")\n",
};

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
  // Every message the server wrote so far.
  std::vector<json> messages() const {
    std::vector<json> all;
    std::string s = out.str();
    size_t pos = 0;
    while ((pos = s.find("Content-Length: ", pos)) != std::string::npos) {
      size_t len = std::stoul(s.substr(pos + 16));
      size_t body = s.find("\r\n\r\n", pos) + 4;
      all.push_back(json::parse(s.substr(body, len)));
      pos = body + len;
    }
    return all;
  }
};

frontend::LspPosition pos_of(const std::string& text, uint32_t offset) {
  frontend::SourceFile f(frontend::FileId{}, "", text);
  return position_of(f, offset);
}

// Moves an offset to the start of the UTF-8 character it is in (edits never split one).
uint32_t char_start(const std::string& text, uint32_t off) {
  while (off > 0 && off < text.size() && (static_cast<unsigned char>(text[off]) & 0xC0) == 0x80) --off;
  return off;
}

void run_stream(unsigned seed, int edits) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("fitz-lsp-stream-" + std::to_string(::getpid()) + "-" + std::to_string(seed));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::path file = dir / "main.fitz";
  std::ofstream(file) << kSeed;
  std::string uri = path_to_uri(fs::weakly_canonical(file));

  Harness h;
  h.request("initialize", json::object());
  h.notify("initialized", json::object());
  std::string text = kSeed;
  h.notify("textDocument/didOpen", {{"textDocument", {{"uri", uri}, {"languageId", "fitz"}, {"version", 1}, {"text", text}}}});

  std::mt19937 rng(seed);
  auto pick = [&](uint32_t n) { return n == 0 ? 0u : uint32_t(rng() % n); };
  std::string clipboard;
  for (int i = 0; i < edits; ++i) {
    uint32_t a = char_start(text, pick(uint32_t(text.size()) + 1));
    uint32_t b = char_start(text, std::min<uint32_t>(uint32_t(text.size()), a + pick(12)));
    std::string insert;
    switch (pick(6)) {
      case 0: b = a; insert = kSnippets[pick(std::size(kSnippets))]; break;  // insert
      case 1: break;                                                          // delete
      case 2: {                                                               // cut whole lines
        uint32_t ls = a;
        while (ls > 0 && text[ls - 1] != '\n') --ls;
        uint32_t le = a;
        for (int k = 0, n = 1 + pick(6); k < n && le < text.size(); ++k) {
          while (le < text.size() && text[le] != '\n') ++le;
          if (le < text.size()) ++le;
        }
        a = ls;
        b = le;
        clipboard = text.substr(a, b - a);
        break;
      }
      case 3: b = a; insert = clipboard; break;  // paste the last cut region
      case 4: insert = kSnippets[pick(std::size(kSnippets))]; break;  // replace
      default: b = a; insert = kSnippets[pick(std::size(kSnippets))]; break;
    }
    if (b < a) std::swap(a, b);
    json change{{"range", {{"start", to_json(pos_of(text, a))}, {"end", to_json(pos_of(text, b))}}}, {"text", insert}};
    text.replace(a, b - a, insert);
    h.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", i + 2}}}, {"contentChanges", json::array({change})}});

    if (i % 97 == 0) {
      Document* d = h.server.workspace().find(uri);
      ASSERT_NE(d, nullptr);
      ASSERT_EQ(d->text(), text) << "after edit " << i;
      ASSERT_EQ(frontend::cst_sexp(d->tree()), frontend::cst_sexp(frontend::parse_text(text))) << "after edit " << i;
      if (const char* dump = std::getenv("FITZ_LSP_STREAM_DUMP")) std::ofstream(dump, std::ios::trunc) << text;
      h.server.flush();
      // Requests on whatever the text is now.
      uint32_t p = char_start(text, pick(uint32_t(text.size()) + 1));
      json at{{"textDocument", {{"uri", uri}}}, {"position", to_json(pos_of(text, p))}};
      for (const char* m : {"textDocument/hover", "textDocument/completion", "textDocument/definition",
                            "textDocument/references", "textDocument/documentHighlight", "textDocument/signatureHelp",
                            "textDocument/prepareRename"})
        h.request(m, at);
      json doc{{"textDocument", {{"uri", uri}}}};
      for (const char* m : {"textDocument/documentSymbol", "textDocument/foldingRange", "textDocument/semanticTokens/full"})
        h.request(m, doc);
      h.request("textDocument/inlayHint", {{"textDocument", {{"uri", uri}}},
                                           {"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", to_json(pos_of(text, uint32_t(text.size())))}}}});
      h.request("textDocument/codeAction", {{"textDocument", {{"uri", uri}}},
                                            {"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", to_json(pos_of(text, uint32_t(text.size())))}}},
                                            {"context", {{"diagnostics", json::array()}}}});
    }
  }
  h.server.flush();

  // No request was answered with an internal error.
  json last;
  for (const json& m : h.messages()) {
    if (m.contains("error")) {
      EXPECT_NE(m["error"]["code"], int(ErrorCode::InternalError)) << m.dump();
    }
    if (m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri) last = m["params"];
  }
  ASSERT_FALSE(last.is_null());
  EXPECT_EQ(last["version"], edits + 1);

  // A fresh check of the final text, as `fitz check` would do it.
  std::ofstream(file, std::ios::trunc) << text;
  auto fresh = analyze(file, dir, frontend::disk_reader());
  json expected = json::array();
  for (const auto& d : fresh->diagnostics)
    if (d.span.file.valid() && fresh->path_of(d.span.file) == fs::weakly_canonical(file)) expected.push_back(diagnostic_to_json(*fresh, d));
  EXPECT_EQ(last["diagnostics"], expected) << "final text:\n" << text;
  fs::remove_all(dir);
}

TEST(EditStream, RandomEditsSeed1) { run_stream(1, 1500); }
TEST(EditStream, RandomEditsSeed2) { run_stream(2, 1500); }
// This stream once reached a text on which the frontend's syntax-error reporter crashed.
TEST(EditStream, RandomEditsSeed3) { run_stream(3, 1000); }

}  // namespace
}  // namespace fitz::lsp
