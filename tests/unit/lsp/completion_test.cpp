// Completion contexts: members by receiver type, decorators, imports, scope, keywords.
#include <set>

#include "lsp/python_members.h"
#include "tests/unit/lsp/annotated.h"

namespace fitz::lsp {
namespace {

using test_support::Fixture;

std::set<std::string> labels(const std::vector<CompletionItem>& items) {
  std::set<std::string> s;
  for (const auto& i : items) s.insert(i.label);
  return s;
}

std::set<std::string> complete(Fixture& f, const std::string& name, size_t point = 0) {
  return labels(completion(f.a(), f.module(), f.ann(name).text, f.ann(name).point(point)));
}

TEST(Completion, FieldsAndMethodsOfUserType) {
  Fixture f;
  f.file("main.fitz",
         "type Acc {\n    owner: Str\n    _secret: Int = 0\n    fn balance() -> Int => _secret\n    static fn open() -> Acc => Acc { owner: \"x\" }\n}\n"
         "let a = Acc { owner: \"me\" }\nprint(a.^)\nprint(Acc.^)\n");
  f.analyse("main.fitz");
  auto m = complete(f, "main.fitz", 0);
  EXPECT_TRUE(m.count("owner") && m.count("balance"));
  EXPECT_FALSE(m.count("_secret")) << "private outside the type";
  EXPECT_FALSE(m.count("open")) << "static methods are called on the type";
  auto s = complete(f, "main.fitz", 1);
  EXPECT_TRUE(s.count("open"));
}

TEST(Completion, BuiltinMethodsByReceiver) {
  Fixture f;
  f.file("main.fitz", "let xs = [1, 2]\nlet n = xs.ma^\nlet s = \"a\"\nprint(s.^)\n");
  f.analyse("main.fitz");
  auto l = complete(f, "main.fitz", 0);
  EXPECT_TRUE(l.count("map"));
  EXPECT_FALSE(l.count("len") && !l.count("map"));
  auto s = complete(f, "main.fitz", 1);
  EXPECT_TRUE(s.count("upper") && s.count("split"));
}

TEST(Completion, ModuleMembersAndFromImport) {
  Fixture f;
  f.file("util.fitz", "fn twice(n: Int) -> Int => n * 2\nlet RATE = 3\n");
  f.file("main.fitz", "import util\nfrom util import ^\nprint(util.^)\n");
  f.analyse("main.fitz");
  auto from = complete(f, "main.fitz", 0);
  EXPECT_TRUE(from.count("twice") && from.count("RATE"));
  auto mem = complete(f, "main.fitz", 1);
  EXPECT_TRUE(mem.count("twice") && mem.count("RATE"));
}

TEST(Completion, StandardLibraryModulesAndValues) {
  Fixture f;
  f.file("main.fitz",
         "print(http.^)\nprint(smtp.^)\nprint(sql.^)\nlet at = DateTime.now()\nprint(at.^)\nprint(Uuid.^)\n"
         "print(rand.^)\nprint(fs.^)\nprint(num.^)\n@ev^\nfn tick() {}\n");
  f.analyse("main.fitz");
  auto http = complete(f, "main.fitz", 0);
  EXPECT_TRUE(http.count("get") && http.count("post") && http.count("request"));
  EXPECT_TRUE(complete(f, "main.fitz", 1).count("send"));
  auto sql = complete(f, "main.fitz", 2);
  EXPECT_TRUE(sql.count("now") && sql.count("raw"));
  auto at = complete(f, "main.fitz", 3);
  EXPECT_TRUE(at.count("in_tz") && at.count("to_local") && at.count("add_days") && at.count("diff_seconds"));
  auto uuid = complete(f, "main.fitz", 4);
  EXPECT_TRUE(uuid.count("v4") && uuid.count("v7") && uuid.count("parse"));
  EXPECT_FALSE(complete(f, "main.fitz", 5).empty());
  EXPECT_FALSE(complete(f, "main.fitz", 6).empty());
  EXPECT_FALSE(complete(f, "main.fitz", 7).empty());
  EXPECT_TRUE(complete(f, "main.fitz", 8).count("every"));
}

TEST(Completion, PythonModuleMembersFromTheInterpreter) {
  Fixture f;
  f.file("python/shapes.py",
         "import math\nSIDES = 4\n\ndef area(w, h=1):\n    \"\"\"The area of a w by h rectangle.\"\"\"\n    return w * h\n\n"
         "class Box:\n    pass\n\ndef _hidden():\n    pass\n");
  f.file("main.fitz", "from python import shapes\nfrom python import json as pj\nprint(shapes.^)\nprint(pj.du^)\n");
  f.analyse("main.fitz");
  PythonMembers python;
  auto items = completion(f.a(), f.module(), f.ann("main.fitz").text, f.ann("main.fitz").point(0), &python);
  auto names = labels(items);
  EXPECT_TRUE(names.count("area") && names.count("Box") && names.count("SIDES") && names.count("math"));
  EXPECT_FALSE(names.count("_hidden")) << "private names stay out";
  auto area = std::find_if(items.begin(), items.end(), [](const CompletionItem& i) { return i.label == "area"; });
  ASSERT_NE(area, items.end());
  EXPECT_EQ(area->detail, "area(w, h=1) (Python function)");
  EXPECT_EQ(area->doc, "The area of a w by h rectangle.");
  // An aliased standard-library module, filtered by the typed prefix.
  auto json = labels(completion(f.a(), f.module(), f.ann("main.fitz").text, f.ann("main.fitz").point(1), &python));
  EXPECT_TRUE(json.count("dumps") && json.count("dump"));
  EXPECT_FALSE(json.count("loads"));
  // A module that cannot be imported lists nothing (and does not hang).
  PythonMembers missing("python3", std::chrono::milliseconds(2000));
  EXPECT_TRUE(missing.members("no_such_module_here", {}).empty());
}

TEST(Completion, ImportPaths) {
  Fixture f;
  f.file("shapes/circle.fitz", "let R = 1\n");
  f.file("util.fitz", "let A = 1\n");
  f.file("main.fitz", "import u^\nimport shapes.^\n");
  f.analyse("main.fitz");
  EXPECT_TRUE(complete(f, "main.fitz", 0).count("util"));
  EXPECT_TRUE(complete(f, "main.fitz", 1).count("circle"));
}

TEST(Completion, DecoratorsAreSnippets) {
  Fixture f;
  f.file("main.fitz", "@g^\nfn handler() {}\n");
  f.analyse("main.fitz");
  auto items = completion(f.a(), f.module(), f.ann("main.fitz").text, f.ann("main.fitz").point());
  ASSERT_FALSE(items.empty());
  auto it = std::find_if(items.begin(), items.end(), [](const CompletionItem& i) { return i.label == "get"; });
  ASSERT_NE(it, items.end());
  EXPECT_TRUE(it->snippet);
  EXPECT_NE(it->insert_text.find("${1"), std::string::npos);
}

TEST(Completion, ParameterDecoratorsInsideAParameterList) {
  Fixture f;
  f.file("main.fitz", "@command\nfn resize(path: Str, @^ width: Int = 640, size: List<Int> = [1, (2)], @f^) {}\n@^\n");
  f.analyse("main.fitz");
  auto at = [&](size_t i) {
    return labels(completion(f.a(), f.module(), f.ann("main.fitz").text, f.ann("main.fitz").point(i)));
  };
  EXPECT_EQ(at(0), (std::set<std::string>{"flag", "arg"}));
  EXPECT_EQ(at(1), (std::set<std::string>{"flag"}));
  EXPECT_TRUE(at(2).count("get"));  // top level: the function decorators
}

TEST(Completion, RouteHandlerParametersTakeCookie) {
  Fixture f;
  f.file("main.fitz", "@get(\"/prefs\")\n@authenticated\nfn prefs(@^ theme: Str?) -> Str => \"x\"\n");
  f.analyse("main.fitz");
  auto got = labels(completion(f.a(), f.module(), f.ann("main.fitz").text, f.ann("main.fitz").point(0)));
  EXPECT_EQ(got, (std::set<std::string>{"cookie"}));
}

TEST(Completion, ScopeLocalsParamsGlobalsKeywords) {
  Fixture f;
  f.file("main.fitz",
         "let top = 1\nfn f(param: Int) -> Int {\n    let local = 2\n    return ^\n}\nfn g() -> Int {\n    let other = 3\n    return other\n}\n");
  f.analyse("main.fitz");
  auto s = complete(f, "main.fitz");
  EXPECT_TRUE(s.count("top") && s.count("param") && s.count("local") && s.count("f") && s.count("g"));
  EXPECT_FALSE(s.count("other")) << "locals of another function";
  EXPECT_TRUE(s.count("print") && s.count("while") && s.count("Int"));
}

TEST(Completion, FieldsInsideMethods) {
  Fixture f;
  f.file("main.fitz", "type C {\n    count: Int\n    fn next() -> Int => co^\n}\n");
  f.analyse("main.fitz");
  EXPECT_TRUE(complete(f, "main.fitz").count("count"));
}

TEST(Completion, HalfTypedReceiver) {
  Fixture f;
  f.file("main.fitz", "fn f() {\n    let name = \"x\"\n    let n = name.^\n    print(n)\n}\n");
  f.analyse("main.fitz");
  auto s = complete(f, "main.fitz");
  EXPECT_TRUE(s.count("upper")) << "the receiver is typed from the symbol when the member is missing";
}

}  // namespace
}  // namespace fitz::lsp
