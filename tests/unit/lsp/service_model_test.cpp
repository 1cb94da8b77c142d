// The service model in the editor: after every analysis, full or incremental, the program's
// service model (checker/service_model.h) and its diagnostics equal a fresh `fitz check` of the
// same texts, including what only the model's build sees (a second `@auth_provider` in another
// module, a guard without one).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "checker/service_dump.h"
#include "lsp/analysis.h"
#include "lsp/protocol.h"
#include "lsp/uri.h"
#include "lsp/workspace.h"
#include "tests/unit/lsp/project_fixture.h"

namespace fitz::lsp {
namespace {

namespace fs = std::filesystem;

const std::map<std::string, std::string> kServiceProject = {
    {"auth.fitz",
     "type User {\n    id: Int\n    role: Str\n}\n\n@auth_provider\nfn current_user(headers: Map<Str, Str>) -> "
     "Result<User> {\n    return Err(\"no user\")\n}\n"},
    {"notes.fitz",
     "from auth import User\n\n// Lists notes.\n@get(\"/notes?limit={limit}\")\nfn list_notes(limit: Int = 10) -> "
     "List<Str> {\n    let n = limit\n    return []\n}\n\n@delete(\"/notes/{id}\")\n@admin\nfn drop(id: Int, user: "
     "User) -> Int => id\n"},
    {"other.fitz", "fn helper() -> Int => 1\n"},
    {"main.fitz", "import notes\nimport other\n\n@server(port=8080)\nfn main() => other.helper()\n"},
};

class ServiceModelEdits : public test_support::ProjectFixture {
 protected:
  ServiceModelEdits() : ProjectFixture("services", kServiceProject) {}

  static std::string dump(const Analysis& a) { return checker::dump_services(a.program, a.graph, a.sources); }
  // The current analysis's model and diagnostics against a fresh check; returns the model dump.
  std::string expect_fresh(const std::string& when) {
    auto a = ws_.analysis_for(path("main.fitz"));
    auto fresh = analyze(root_, root_, ws_.reader());
    EXPECT_FALSE(fresh->fatal);
    EXPECT_EQ(dump(*a), dump(*fresh)) << when;
    EXPECT_EQ(diagnostic_lines(*a), diagnostic_lines(*fresh)) << when;
    return dump(*a);
  }

};

TEST_F(ServiceModelEdits, ModelFollowsEdits) {
  std::string first = expect_fresh("first");
  EXPECT_NE(first.find("route GET /notes?limit={limit} -> notes.list_notes"), std::string::npos) << first;
  EXPECT_NE(first.find("param user: user User"), std::string::npos) << first;
  EXPECT_NE(first.find("auth auth.current_user user=User roles=user_field"), std::string::npos) << first;

  // A body edit re-checks one module; the model is rebuilt all the same.
  replace("notes.fitz", "let n = limit", "let n = limit + 1");
  EXPECT_EQ(expect_fresh("body edit"), first);

  // A new route and a changed doc comment.
  replace("notes.fitz", "// Lists notes.", "// Lists the notes.");
  replace("other.fitz", "fn helper() -> Int => 1\n",
          "fn helper() -> Int => 1\n\n@post(\"/ping\")\nfn ping(body: Map<Str, Str>) -> Int => 1\n");
  std::string edited = expect_fresh("new route");
  EXPECT_NE(edited.find("route POST /ping -> other.ping"), std::string::npos) << edited;
  EXPECT_NE(edited.find("param body: form Map<Str, Str>"), std::string::npos) << edited;
  EXPECT_NE(edited.find("doc \"Lists the notes.\""), std::string::npos) << edited;
}

TEST_F(ServiceModelEdits, CrossModuleProblemsAfterEdits) {
  expect_fresh("first");
  // A second provider in another module: only the model's build sees both.
  replace("other.fitz", "fn helper() -> Int => 1\n",
          "fn helper() -> Int => 1\n\n@auth_provider\nfn second(headers: Map<Str, Str>) -> Result<Int> {\n    return "
          "Err(\"no\")\n}\n");
  expect_fresh("second provider");
  auto a = ws_.analysis_for(path("main.fitz"));
  bool duplicate = false;
  for (const auto& d : a->diagnostics) duplicate |= d.kind == frontend::DiagKind::DuplicateAuthProvider;
  EXPECT_TRUE(duplicate);
  // Without any provider, the guarded route is reported at its guard.
  replace("other.fitz", "@auth_provider\nfn second", "fn second");
  replace("auth.fitz", "@auth_provider\n", "");
  expect_fresh("no provider");
  a = ws_.analysis_for(path("main.fitz"));
  bool unguarded = false;
  for (const auto& d : a->diagnostics) unguarded |= d.kind == frontend::DiagKind::GuardWithoutProvider;
  EXPECT_TRUE(unguarded);
}

// The session keeps the model while the modules it was built from are unchanged: `tools` feeds
// it not and no module that does imports it, `helpers` is imported by the routes' module.
const std::map<std::string, std::string> kKeptProject = {
    {"helpers.fitz", "async fn count() -> Result<Int> {\n    return Ok(1)\n}\n"},
    {"notes.fitz", "import helpers\n\n@get(\"/notes\")\nasync fn list_notes() -> Result<Int> {\n    return "
                   "helpers.count().await\n}\n"},
    {"tools.fitz", "fn tool() -> Int {\n    let t = 1\n    return t\n}\n"},
    {"main.fitz", "import notes\n\n@server(port=8080)\nfn main() => 1\n"},
};

class ServiceModelKept : public test_support::ProjectFixture {
 protected:
  ServiceModelKept() : ProjectFixture("services_kept", kKeptProject) {}

  std::string expect_fresh(const std::string& when) {
    auto a = ws_.analysis_for(path("main.fitz"));
    auto fresh = analyze(root_, root_, ws_.reader());
    EXPECT_FALSE(fresh->fatal);
    std::string model = checker::dump_services(a->program, a->graph, a->sources);
    EXPECT_EQ(model, checker::dump_services(fresh->program, fresh->graph, fresh->sources)) << when;
    EXPECT_EQ(diagnostic_lines(*a), diagnostic_lines(*fresh)) << when;
    return model;
  }
};

TEST_F(ServiceModelKept, ModelFollowsModulesItWasNotBuiltFrom) {
  std::string first = expect_fresh("first");
  EXPECT_NE(first.find("route GET /notes -> notes.list_notes"), std::string::npos) << first;
  EXPECT_EQ(first.find("uses_database"), std::string::npos) << first;

  // Nothing the model reads: kept as it is.
  replace("tools.fitz", "let t = 1", "let t = 2");
  EXPECT_EQ(expect_fresh("body edit of a module outside the model"), first);

  // The same module gains a route: it feeds the model now, which must show it.
  replace("tools.fitz", "fn tool()", "@get(\"/tool\")\nfn tool()");
  std::string routed = expect_fresh("new route in a module outside the model");
  EXPECT_NE(routed.find("route GET /tool -> tools.tool"), std::string::npos) << routed;

  // A helper a route calls starts using the database; the route's module is not checked again
  // (the helper's interface is the same), yet its route now reaches the database.
  replace("helpers.fitz", "return Ok(1)", "let conn = db.connect(\"postgres://127.0.0.1/app\").await?\n    return conn.exec(\"SELECT 1\").await");
  std::string database = expect_fresh("a helper's body reaches the database");
  EXPECT_NE(database.find("uses_database"), std::string::npos) << database;
}

// Two modules outside the model, after main in the init order (roots load in name order).
const std::map<std::string, std::string> kAbandonProject = {
    {"main.fitz", "@server(port=8080)\nfn main() => 1\n"},
    {"tools.fitz", "fn tool() -> Int {\n    let t = 1\n    return t\n}\n"},
    {"zlast.fitz", "fn last() -> Int {\n    let z = 1\n    return z\n}\n"},
};

class ServiceModelAbandoned : public test_support::ProjectFixture {
 protected:
  ServiceModelAbandoned() : ProjectFixture("services_abandoned", kAbandonProject) {}
};

// A module gains a route in a check that is abandoned after it (a newer edit of a later module
// comes first); the next check reuses that module as the abandoned one left it, and must still
// build the model again.
TEST_F(ServiceModelAbandoned, RouteCheckedByAnAbandonedCheckReachesTheModel) {
  {
    // Not held on to: an analysis still in use makes the next check a full one.
    auto first = ws_.analysis_for(path("main.fitz"));
    EXPECT_EQ(checker::dump_services(first->program, first->graph, first->sources).find("/tool"), std::string::npos);
  }
  replace("tools.fitz", "fn tool()", "@get(\"/tool\")\nfn tool()");
  Unit& u = ws_.unit_for(path("tools.fitz"));
  ASSERT_TRUE(u.pending) << "zlast comes after tools in the init order";
  replace("zlast.fitz", "let z = 1", "let z = 2");
  auto a = ws_.analysis_for(path("main.fitz"));
  EXPECT_EQ(std::count(a->rechecked.begin(), a->rechecked.end(), a->module_at(path("tools.fitz"))), 0)
      << "tools is reused as the abandoned check left it";
  std::string model = checker::dump_services(a->program, a->graph, a->sources);
  EXPECT_NE(model.find("route GET /tool -> tools.tool"), std::string::npos) << model;
  auto fresh = analyze(root_, root_, ws_.reader());
  EXPECT_EQ(model, checker::dump_services(fresh->program, fresh->graph, fresh->sources));
}

}  // namespace
}  // namespace fitz::lsp
