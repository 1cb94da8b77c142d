// `.fitzv` views through the in-process server: opening one publishes its diagnostics, edits
// re-check it, an edit of a module it imports re-checks it, modules importing a component
// resolve it, and hover answers on the view.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "lsp/protocol.h"
#include "lsp/server.h"
#include "lsp/uri.h"

namespace fitz::lsp {
namespace {

namespace fs = std::filesystem;

std::vector<json> view_server_frames(const std::string& s) {
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

struct ViewServer {
  fs::path dir;
  std::istringstream in;
  std::ostringstream out;
  Transport transport{in, out};
  Server server{transport, ServerOptions{}};
  int next_id = 1;
  size_t seen = 0;

  ViewServer() {
    static int counter = 0;
    dir = fs::temp_directory_path() / ("fitz-lsp-views-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(dir);
    fs::create_directories(dir / "src");
    write("fitz.toml", "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2026\"\n\n[bin]\nmain = \"src/main.fitz\"\n");
    request("initialize", json::object());
    notify("initialized", json::object());
  }
  ~ViewServer() { fs::remove_all(dir); }
  void write(const std::string& rel, const std::string& text) { std::ofstream(dir / rel, std::ios::trunc) << text; }
  std::string uri(const std::string& rel) const { return path_to_uri(fs::weakly_canonical(dir / rel)); }
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
    for (const json& r : view_server_frames(out.str()))
      if (r.contains("id") && r["id"] == m.id && !r.contains("method")) return r;
    return nullptr;
  }
  std::map<std::string, json> published() {
    std::vector<json> all = view_server_frames(out.str());
    std::map<std::string, json> by;
    for (size_t i = seen; i < all.size(); ++i)
      if (all[i].value("method", "") == "textDocument/publishDiagnostics") by[all[i]["params"]["uri"]] = all[i]["params"];
    seen = all.size();
    return by;
  }
  void open(const std::string& rel, const std::string& text) {
    notify("textDocument/didOpen", {{"textDocument", {{"uri", uri(rel)}, {"languageId", "fitzv"}, {"version", 1}, {"text", text}}}});
  }
  void replace_all(const std::string& rel, int version, const std::string& text) {
    notify("textDocument/didChange", {{"textDocument", {{"uri", uri(rel)}, {"version", version}}},
                                      {"contentChanges", json::array({{{"text", text}}})}});
  }
};

const char* kShelfView = "from model import Item\ncomponent Shelf {\n  props { title: Str = \"\" }\n  state { items: List<Item> = [] }\n"
                    "  <template><p>{title}: {items.len()}</p></template>\n}\n";
const char* kShelfModel = "type Item {\n  name: Str\n}\n";
const char* kShelfMain = "from Shelf import Shelf\n@live(\"/\")\nfn home() -> Shelf => Shelf { title: \"t\" }\n";

TEST(ViewServer, OpenEditAndDependants) {
  ViewServer s;
  s.write("src/Shelf.fitzv", kShelfView);
  s.write("src/model.fitz", kShelfModel);
  s.write("src/main.fitz", kShelfMain);
  std::string broken = std::string(kShelfView).replace(std::string(kShelfView).find("{title}"), 7, "{titel}");
  s.open("src/Shelf.fitzv", broken);
  s.server.flush();
  auto pub = s.published();
  ASSERT_TRUE(pub.count(s.uri("src/Shelf.fitzv")));
  json diags = pub[s.uri("src/Shelf.fitzv")]["diagnostics"];
  ASSERT_EQ(diags.size(), 1u) << diags.dump();
  EXPECT_EQ(diags[0]["code"], "E0550") << diags.dump();
  EXPECT_EQ(diags[0]["range"]["start"]["line"], 4);
  if (pub.count(s.uri("src/main.fitz"))) {
    EXPECT_TRUE(pub[s.uri("src/main.fitz")]["diagnostics"].empty()) << "the module importing the component resolves it";
  }

  json hover = s.request("textDocument/hover", {{"textDocument", {{"uri", s.uri("src/Shelf.fitzv")}}},
                                                {"position", {{"line", 4}, {"character", 27}}}});
  ASSERT_TRUE(hover.contains("result")) << hover.dump();
  std::string md = hover["result"]["contents"]["value"];
  EXPECT_NE(md.find("state field of `Shelf`"), std::string::npos) << md;

  s.replace_all("src/Shelf.fitzv", 2, kShelfView);
  s.server.flush();
  pub = s.published();
  ASSERT_TRUE(pub.count(s.uri("src/Shelf.fitzv")));
  EXPECT_TRUE(pub[s.uri("src/Shelf.fitzv")]["diagnostics"].empty()) << pub[s.uri("src/Shelf.fitzv")].dump();

  // The module the view imports changes: the view is checked again.
  s.open("src/model.fitz", kShelfModel);
  s.replace_all("src/model.fitz", 2, "type Thing {\n  name: Str\n}\n");
  s.server.flush();
  pub = s.published();
  ASSERT_TRUE(pub.count(s.uri("src/Shelf.fitzv")));
  EXPECT_FALSE(pub[s.uri("src/Shelf.fitzv")]["diagnostics"].empty());
}

// A view belongs to its project's unit, also while the project's check stops after the module
// the user is editing (the view IR is built once the check is complete).
TEST(ViewServer, AViewIsPartOfItsProjectWhileAModuleIsEdited) {
  ViewServer s;
  s.write("src/Shelf.fitzv", kShelfView);
  s.write("src/model.fitz", kShelfModel);
  s.write("src/main.fitz", kShelfMain);
  s.open("src/model.fitz", kShelfModel);
  fs::path model = fs::weakly_canonical(s.dir / "src/model.fitz");
  Unit& project = s.server.workspace().unit_for(model);
  s.server.workspace().mark_changed(model);
  s.server.workspace().refresh(project, &model);
  ASSERT_TRUE(project.pending) << "the check stops after the edited module, which the view imports";
  Unit& view = s.server.workspace().unit_for(fs::weakly_canonical(s.dir / "src/Shelf.fitzv"));
  EXPECT_TRUE(view.project);
  EXPECT_EQ(&view, &project);
}

}  // namespace
}  // namespace fitz::lsp
