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

#include "checker/checker.h"
#include "cli/driver.h"
#include "frontend/project.h"
#include "openapi/internal.h"
#include "openapi/openapi.h"
#include "tests/support/source_dir.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path testdata() { return fs::path(fitz_test_source_dir()) / "tests" / "testdata" / "openapi"; }

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
  if (!doc.contains("servers") || doc["servers"].empty()) p.push_back("no servers");
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
      // What Redocly's recommended ruleset requires of every operation.
      if (op.value("summary", "").empty()) p.push_back(where + ": no summary");
      if (!op.contains("security")) p.push_back(where + ": no security (an empty list for a public route)");
      if (!op.value("responses", json::object()).contains("default")) p.push_back(where + ": no default response");
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
  // Folders (several modules, a project with its manifest) are entered by their main.fitz.
  for (auto& e : fs::directory_iterator(testdata()))
    if (e.is_directory() && fs::exists(e.path() / "main.fitz")) files.push_back(e.path() / "main.fitz");
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

// The document of one source text, checked or not: codegen and the language server may ask for
// documents of programs with errors, so the generator must never crash on them.
struct Generated {
  std::string text;
  size_t errors = 0;
};

Generated generate_text(const std::string& source, const fitz::openapi::Options& options = {}) {
  fs::path dir = fs::temp_directory_path() / ("fitz_openapi_src_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path file = dir / "svc.fitz";
  std::ofstream(file, std::ios::binary) << source;
  fitz::frontend::SourceManager sources;
  fitz::frontend::DiagnosticBag diags;
  fitz::frontend::LoadRequest req;
  req.target = file;
  fitz::frontend::LoadResult loaded = fitz::frontend::load_program(req, sources, diags);
  fitz::checker::TypedProgram program = fitz::checker::check_program(loaded.graph, sources, diags);
  Generated g{fitz::openapi::generate(program, loaded.graph, sources, options), diags.error_count()};
  fs::remove_all(dir);
  return g;
}

json schema_of(const json& doc, const std::string& name) { return doc["components"]["schemas"][name]; }

TEST(OpenApi, TypeMapping) {
  Generated g = generate_text(R"(type Shape {
    pair: (Int, Str)
    data: Bytes
    maybe: List<Int?>
    outcome: Result<Int, Str>
    when: Any
    nested: Map<Str, List<Float>>
}
type Error {
    code: Int
}
@post("/shapes")
fn add(s: Shape) -> Error => Error { code: 1 }
)");
  json doc = json::parse(g.text);
  json shape = schema_of(doc, "Shape")["properties"];
  EXPECT_EQ(shape["pair"], json::parse(R"({"type":"array","prefixItems":[{"type":"integer","format":"int64"},
      {"type":"string"}],"minItems":2,"maxItems":2})"));
  EXPECT_EQ(shape["data"]["contentEncoding"], "base64");
  EXPECT_EQ(shape["maybe"]["items"]["type"], json::parse(R"(["integer","null"])"));
  EXPECT_EQ(shape["outcome"]["oneOf"][0]["required"], json::parse(R"(["Ok"])"));
  EXPECT_EQ(shape["when"], json::object());
  EXPECT_EQ(shape["nested"]["additionalProperties"]["items"]["type"], "number");
  // The user's own `Error` keeps its name; the error body schema steps aside.
  EXPECT_EQ(schema_of(doc, "Error")["required"], json::parse(R"(["code"])"));
  EXPECT_EQ(doc["paths"]["/shapes"]["post"]["responses"]["400"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/HttpError");
  EXPECT_TRUE(problems(doc).empty());
}

TEST(OpenApi, TitleAndCompactOutput) {
  fitz::openapi::Options options;
  options.title = "Shop";
  options.indent = 0;
  Generated g = generate_text("@get(\"/a\")\nfn a() -> Int => 1\n", options);
  EXPECT_EQ(g.text.find('\n'), std::string::npos);
  EXPECT_EQ(json::parse(g.text)["info"]["title"], "Shop");
}

TEST(OpenApi, CommentsBecomeDescriptions) {
  Generated g = generate_text(R"(// A point.
// On a plane.
type P {
    // Across.
    x: Int
    y: Int  // Up.
    z: Int
}

// Where.
// Returns the origin.
@get("/p")
fn origin() -> P => P { x: 0, y: 0, z: 0 }
)");
  json doc = json::parse(g.text);
  EXPECT_EQ(schema_of(doc, "P")["description"], "A point.\nOn a plane.");
  EXPECT_EQ(schema_of(doc, "P")["properties"]["x"]["description"], "Across.");
  EXPECT_EQ(schema_of(doc, "P")["properties"]["y"]["description"], "Up.");
  EXPECT_FALSE(schema_of(doc, "P")["properties"]["z"].contains("description"));
  json op = doc["paths"]["/p"]["get"];
  EXPECT_EQ(op["summary"], "Where.");
  EXPECT_EQ(op["description"], "Returns the origin.");
}

TEST(OpenApi, InvalidUtf8InCommentsIsReplaced) {
  Generated g = generate_text("// caf\xe9\n@get(\"/a\")\nfn a() -> Int => 1\n");
  json doc = json::parse(g.text);  // valid UTF-8, or parse would throw
  EXPECT_NE(doc["paths"]["/a"]["get"]["summary"].get<std::string>().find("caf"), std::string::npos);
}

TEST(OpenApi, AuthUserIsNotTheBody) {
  // Generated even though the checker may object: the user parameter of a protected route is
  // bound by the auth provider, not read from the request.
  Generated g = generate_text(R"(type User {
    id: Int
}
@auth_provider
fn who(headers: Map<Str, Str>) -> Result<User> => Ok(User { id: 1 })
@post("/notes")
@authenticated
fn add_note(user: User, text: Map<Str, Str>) -> Int => user.id
)");
  json op = json::parse(g.text)["paths"]["/notes"]["post"];
  EXPECT_EQ(op["requestBody"]["content"]["application/json"]["schema"]["additionalProperties"]["type"], "string");
  EXPECT_EQ(op["security"], json::parse(R"([{"bearerAuth": []}])"));
  EXPECT_TRUE(op["responses"].contains("401"));
  EXPECT_FALSE(op["responses"].contains("403"));
}

TEST(OpenApi, ServerFromServerSettings) {
  const std::string route = "@get(\"/a\")\nfn a() -> Int => 1\n";
  auto servers = [](const Generated& g) { return json::parse(g.text)["servers"]; };
  // No `@server`: the runtime's default address.
  EXPECT_EQ(servers(generate_text(route))[0]["url"], "http://127.0.0.1:3000");
  Generated literal = generate_text(route + "@server(9090, \"10.0.0.5\")\nfn main() => 0\n");
  EXPECT_EQ(literal.errors, 0u);
  EXPECT_EQ(servers(literal)[0]["url"], "http://10.0.0.5:9090");
  // A wildcard address is reached as localhost; IPv6 hosts are bracketed.
  EXPECT_EQ(servers(generate_text(route + "@server(port=8000, host=\"0.0.0.0\")\nfn main() => 0\n"))[0]["url"],
            "http://localhost:8000");
  EXPECT_EQ(servers(generate_text(route + "@server(8000, \"::1\")\nfn main() => 0\n"))[0]["url"], "http://[::1]:8000");
  // A computed port is a server variable with the default.
  Generated computed = generate_text(route + "let P = 7000\n@server(port=P)\nfn main() => 0\n");
  json server = servers(computed)[0];
  EXPECT_EQ(server["url"], "http://127.0.0.1:{port}");
  EXPECT_EQ(server["variables"]["port"]["default"], "3000");
}

TEST(OpenApi, SummariesSecurityAndResponsesOfEveryOperation) {
  Generated g = generate_text(R"(type Row {
    id: Int
}
// Reads a row.
@get("/rows/{id}")
async fn read_row(id: Int) -> Result<Row> {
    let conn = db.connect("postgres://127.0.0.1/app").await?
    return Ok(Row { id: id })
}
@get("/ping")
fn ping_twice() -> Str => "pong"
)");
  ASSERT_EQ(g.errors, 0u) << g.text;
  json doc = json::parse(g.text);
  json read = doc["paths"]["/rows/{id}"]["get"];
  EXPECT_EQ(read["summary"], "Reads a row.");
  EXPECT_EQ(read["security"], json::array());
  EXPECT_TRUE(read["responses"].contains("503"));  // it uses the database
  EXPECT_EQ(read["responses"]["default"]["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/Error");
  json ping = doc["paths"]["/ping"]["get"];
  EXPECT_EQ(ping["summary"], "Ping twice");  // no comment: the name
  EXPECT_FALSE(ping["responses"].contains("503"));
  EXPECT_FALSE(ping["responses"].contains("400"));  // nothing to decode
  EXPECT_TRUE(ping["responses"].contains("default"));
  EXPECT_FALSE(doc["info"].contains("license"));  // no manifest
}

TEST(OpenApi, LicenseFromTheManifest) {
  CliRun r = run_in(testdata() / "project", {"openapi", "main.fitz"});
  ASSERT_EQ(r.rc, 0) << r.err;
  json info = json::parse(r.out)["info"];
  EXPECT_EQ(info["license"], json::parse(R"({"name": "Apache-2.0", "identifier": "Apache-2.0"})"));
  EXPECT_EQ(info["description"], "Stock levels of a warehouse.");
}

TEST(OpenApi, LicenseIdentifierOnlyForSpdxExpressions) {
  using fitz::openapi::detail::license_of;
  EXPECT_EQ(license_of("MIT").value("identifier", ""), "MIT");
  EXPECT_EQ(license_of("MIT OR Apache-2.0").value("identifier", ""), "MIT OR Apache-2.0");
  EXPECT_EQ(license_of("(GPL-2.0-only WITH Classpath-exception-2.0)").value("identifier", ""),
            "(GPL-2.0-only WITH Classpath-exception-2.0)");
  EXPECT_FALSE(license_of("see LICENSE file").contains("identifier"));
  EXPECT_FALSE(license_of("Proprietary, all rights reserved").contains("identifier"));
  EXPECT_EQ(license_of("see LICENSE file")["name"], "see LICENSE file");
}

// Every test source of the repository, most of them with errors: the generator still returns a
// parseable document.
TEST(OpenApi, NeverCrashesOnBrokenPrograms) {
  size_t n = 0;
  for (const char* suite : {"check", "syntax", "ast", "tir", "modules"}) {
    fs::path dir = fs::path(fitz_test_source_dir()) / "tests" / "testdata" / suite;
    if (!fs::is_directory(dir)) continue;
    for (auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() != ".fitz") continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      Generated g = generate_text(text.str());
      EXPECT_TRUE(json::accept(g.text)) << e.path();
      ++n;
    }
  }
  EXPECT_GT(n, 50u);
}

}  // namespace
