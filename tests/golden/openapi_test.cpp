// Structural checks of `fitz openapi` output over tests/testdata/openapi: every $ref resolves,
// path templates and path parameters agree, operation ids are unique, response keys are status
// codes; output is deterministic and `-o` writes the same text. The goldens pin the content.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

#include "cli/driver.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path testdata() { return fs::path(FITZ_SOURCE_DIR) / "tests" / "testdata" / "openapi"; }

struct CliRun {
  int rc;
  std::string out, err;
};

CliRun run_in(const fs::path& dir, std::vector<std::string> args) {
  fs::path old = fs::current_path();
  fs::current_path(dir);
  std::ostringstream out, err;
  int rc = fitz::cli::run(args, {out, err, false});
  fs::current_path(old);
  return {rc, out.str(), err.str()};
}

// Every problem found in a document, one line each; empty when it is well formed.
std::vector<std::string> problems(const json& doc) {
  std::vector<std::string> p;
  if (doc.value("openapi", "") != "3.1.0") p.push_back("openapi is not 3.1.0");
  if (!doc.contains("info") || !doc["info"].contains("title") || !doc["info"].contains("version"))
    p.push_back("info needs title and version");
  std::function<void(const json&, const std::string&)> walk = [&](const json& j, const std::string& at) {
    if (j.is_object()) {
      if (j.contains("$ref")) {
        std::string ref = j["$ref"].get<std::string>();
        if (ref.rfind("#/", 0) != 0 || !doc.contains(json::json_pointer(ref.substr(1))))
          p.push_back(at + ": $ref " + ref + " does not resolve");
      }
      for (auto& [k, v] : j.items()) walk(v, at + "/" + k);
    } else if (j.is_array()) {
      for (size_t i = 0; i < j.size(); ++i) walk(j[i], at + "/" + std::to_string(i));
    }
  };
  walk(doc, "");
  static const std::regex name_re("^[a-zA-Z0-9._-]+$"), status_re("^[1-5][0-9][0-9]$");
  if (doc.contains("components") && doc["components"].contains("schemas"))
    for (auto& [name, s] : doc["components"]["schemas"].items())
      if (!std::regex_match(name, name_re)) p.push_back("component name " + name);
  std::set<std::string> ids;
  const json paths = doc.value("paths", json::object());
  for (auto& [path, item] : paths.items()) {
    std::set<std::string> in_template;
    static const std::regex param_re("\\{([^}]*)\\}");
    for (std::sregex_iterator it(path.begin(), path.end(), param_re), end; it != end; ++it)
      in_template.insert((*it)[1]);
    for (auto& [method, op] : item.items()) {
      std::string where = method + " " + path;
      std::string id = op.value("operationId", "");
      if (id.empty() || !ids.insert(id).second) p.push_back(where + ": missing or repeated operationId " + id);
      std::set<std::string> declared;
      const json params = op.value("parameters", json::array());
      for (const json& prm : params) {
        if (prm.value("in", "") != "path") continue;
        declared.insert(prm.value("name", ""));
        if (!prm.value("required", false)) p.push_back(where + ": path parameter not required");
      }
      if (declared != in_template) p.push_back(where + ": path parameters differ from the template");
      if (!op.contains("responses") || op["responses"].empty()) p.push_back(where + ": no responses");
      const json responses = op.value("responses", json::object());
      for (auto& [status, r] : responses.items()) {
        if (status != "default" && !std::regex_match(status, status_re)) p.push_back(where + ": status " + status);
        if (!r.contains("description")) p.push_back(where + ": response " + status + " has no description");
      }
    }
  }
  return p;
}

std::vector<fs::path> documents() {
  std::vector<fs::path> files;
  for (auto& e : fs::directory_iterator(testdata()))
    if (e.path().extension() == ".fitz" && e.path().filename().string().rfind("fail_", 0) != 0)
      files.push_back(e.path());
  if (fs::exists(testdata() / "modules" / "main.fitz")) files.push_back(testdata() / "modules" / "main.fitz");
  std::sort(files.begin(), files.end());
  return files;
}

TEST(OpenApi, DocumentsAreWellFormed) {
  std::vector<fs::path> files = documents();
  ASSERT_GE(files.size(), 3u);
  for (const fs::path& f : files) {
    CliRun r = run_in(f.parent_path(), {"openapi", f.filename().string()});
    ASSERT_EQ(r.rc, 0) << f << "\n" << r.err;
    json doc = json::parse(r.out);
    for (const std::string& problem : problems(doc)) ADD_FAILURE() << f << ": " << problem;
    // Deterministic: a second run prints the same bytes.
    EXPECT_EQ(run_in(f.parent_path(), {"openapi", f.filename().string()}).out, r.out) << f;
  }
}

TEST(OpenApi, CheckerCatchesBrokenDocuments) {
  json doc = json::parse(R"({"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "paths": {"/a/{id}": {"get": {"operationId": "a", "parameters": [{"name": "other", "in": "path", "required": true}],
      "responses": {"2000": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Missing"}}}}}}},
      "/b": {"get": {"operationId": "a", "responses": {}}}}})");
  std::vector<std::string> p = problems(doc);
  auto has = [&](const std::string& needle) {
    return std::any_of(p.begin(), p.end(), [&](const std::string& s) { return s.find(needle) != std::string::npos; });
  };
  EXPECT_TRUE(has("does not resolve"));
  EXPECT_TRUE(has("path parameters differ"));
  EXPECT_TRUE(has("status 2000"));
  EXPECT_TRUE(has("has no description"));
  EXPECT_TRUE(has("repeated operationId"));
  EXPECT_TRUE(has("no responses"));
}

TEST(OpenApi, OutputFileMatchesStdout) {
  fs::path out = fs::temp_directory_path() / ("fitz_openapi_test_" + std::to_string(::getpid()) + ".json");
  CliRun printed = run_in(testdata(), {"openapi", "crud.fitz"});
  CliRun written = run_in(testdata(), {"openapi", "crud.fitz", "-o", out.string()});
  ASSERT_EQ(written.rc, 0) << written.err;
  EXPECT_TRUE(written.out.empty());
  std::ifstream in(out, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), printed.out);
  fs::remove(out);
}

TEST(OpenApi, UsageAndIoErrors) {
  EXPECT_EQ(run_in(testdata(), {"openapi", "no_such_file.fitz"}).rc, 2);
  EXPECT_EQ(run_in(testdata(), {"openapi", "--bogus"}).rc, 2);
  EXPECT_EQ(run_in(testdata(), {"openapi", "crud.fitz", "-o"}).rc, 2);
  EXPECT_EQ(run_in(testdata(), {"openapi", "crud.fitz", "-o", "/nonexistent-dir/x.json"}).rc, 2);
  EXPECT_EQ(run_in(testdata(), {"openapi", "fail_type_error.fitz"}).rc, 1);
  CliRun help = run_in(testdata(), {"openapi", "--help"});
  EXPECT_EQ(help.rc, 0);
  EXPECT_NE(help.out.find("usage: fitz openapi"), std::string::npos);
}

}  // namespace
