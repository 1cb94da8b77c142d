// The decorator registry (checker/decorators.def) against its readers: the checker accepts
// exactly the registry's decorators at their places, with their arguments; completion after `@`
// offers every decorator valid at the place; hover shows the registry's doc line.
#include <set>

#include "checker/decorators.h"
#include "tests/unit/lsp/annotated.h"

namespace fitz::lsp {
namespace {

using checker::DecoratorSpec;
using test_support::Fixture;

constexpr checker::DecoratorPlace kPlaces[] = {checker::kOnFn, checker::kOnType, checker::kOnField, checker::kOnParam};

// `@name(...)` with the fewest positional arguments of the entry and every keyword argument, each
// a literal of its registry type.
std::string use_of(const DecoratorSpec& d) {
  std::vector<std::string> args;
  for (int i = 0; i < d.min_pos; ++i)
    args.push_back(i == 0 && d.first == checker::DecoratorFirst::Path ? "\"/p\"" : "\"a\"");
  for (const auto& a : d.args) {
    std::string v = a.type == checker::DecoratorArgType::Int    ? "10"
                    : a.type == checker::DecoratorArgType::Bool ? "true"
                    : a.type == checker::DecoratorArgType::Map  ? "{\"max\": 1}"
                                                                : "\"a\"";
    args.push_back(std::string(a.name) + "=" + v);
  }
  std::string s = "@" + std::string(d.name);
  if (args.empty()) return s;
  s += "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  return s + ")";
}

// A program with `deco` (a full `@name(...)`) at `place`.
std::string program_with(const std::string& deco, checker::DecoratorPlace place) {
  switch (place) {
    case checker::kOnFn: return deco + "\nfn f() {}\n";
    case checker::kOnType: return deco + "\ntype T {\n    id: Int = 0\n}\n";
    case checker::kOnField: return "type T {\n    " + deco + " id: Int = 0\n}\n";
    case checker::kOnParam: return "@command\nfn f(" + deco + " x: Int = 1) {}\n";
  }
  return "";
}

std::set<frontend::DiagKind> decorator_diagnostics(const std::string& src) {
  Fixture f;
  f.file("main.fitz", src);
  f.analyse("main.fitz");
  std::set<frontend::DiagKind> kinds;
  for (const frontend::Diagnostic* d : diagnostics_for(f.a(), f.path("main.fitz")))
    if (d->kind == frontend::DiagKind::UnknownDecorator || d->kind == frontend::DiagKind::DecoratorPlacement ||
        d->kind == frontend::DiagKind::DecoratorArguments)
      kinds.insert(d->kind);
  return kinds;
}

TEST(DecoratorRegistry, OneEntryPerNameAndPlaceInKindOrder) {
  auto specs = checker::decorator_specs();
  ASSERT_FALSE(specs.empty());
  for (size_t i = 0; i < specs.size(); ++i) {
    EXPECT_EQ(static_cast<size_t>(specs[i].kind), i);
    EXPECT_FALSE(specs[i].doc.empty()) << specs[i].name;
    EXPECT_TRUE(specs[i].snippet.starts_with(specs[i].name)) << specs[i].name;
    for (size_t j = i + 1; j < specs.size(); ++j)
      if (specs[i].name == specs[j].name) EXPECT_EQ(specs[i].places & specs[j].places, 0u) << specs[i].name;
  }
}

TEST(DecoratorRegistry, CheckerAcceptsEveryEntryAtItsPlaces) {
  for (const DecoratorSpec& d : checker::decorator_specs())
    for (auto place : kPlaces)
      if (d.places & place) {
        std::string src = program_with(use_of(d), place);
        EXPECT_EQ(decorator_diagnostics(src), std::set<frontend::DiagKind>{}) << src;
      }
}

TEST(DecoratorRegistry, CheckerRejectsEveryOtherNameAndPlace) {
  for (const char* name : {"route", "gett", "flags", "tables", "deprecated"}) {
    std::string src = program_with("@" + std::string(name), checker::kOnFn);
    EXPECT_EQ(decorator_diagnostics(src), std::set<frontend::DiagKind>{frontend::DiagKind::UnknownDecorator}) << src;
  }
  for (const DecoratorSpec& d : checker::decorator_specs())
    for (auto place : kPlaces)
      if (!(checker::decorator_places(d.name) & place)) {
        std::string src = program_with(use_of(d), place);
        EXPECT_TRUE(decorator_diagnostics(src).count(frontend::DiagKind::DecoratorPlacement)) << src;
      }
}

TEST(DecoratorRegistry, CheckerReadsArgumentNamesAndTypes) {
  EXPECT_EQ(decorator_diagnostics("@server(port=\"80\")\nfn main() => 0\n"),
            std::set<frontend::DiagKind>{frontend::DiagKind::DecoratorArguments});
  EXPECT_EQ(decorator_diagnostics("@cron(\"0 * * * *\", catch_up=1)\nfn tick() {}\n"),
            std::set<frontend::DiagKind>{frontend::DiagKind::DecoratorArguments});
  EXPECT_EQ(decorator_diagnostics("@cron(\"0 * * * *\", retry=\"x\")\nfn tick() {}\n"),
            std::set<frontend::DiagKind>{frontend::DiagKind::DecoratorArguments});
  EXPECT_EQ(decorator_diagnostics("@trace(nmae=\"x\")\nfn f() {}\n"),
            std::set<frontend::DiagKind>{frontend::DiagKind::DecoratorArguments});
  EXPECT_EQ(decorator_diagnostics("@bench(anything=1)\nfn f() {}\n"), std::set<frontend::DiagKind>{});
  // A required keyword argument (REQ_ARG) is reported once when missing.
  Fixture f;
  f.file("main.fitz", "@get(\"/x\")\n@header\nfn g(x_user: Str?) -> Str? => x_user\n");
  f.analyse("main.fitz");
  size_t needs = 0;
  for (const frontend::Diagnostic* d : diagnostics_for(f.a(), f.path("main.fitz")))
    needs += d->message.find("`@header` needs `name=`") != std::string::npos;
  EXPECT_EQ(needs, 1u);
}

std::set<std::string> registry_names(unsigned places) {
  std::set<std::string> s;
  for (const DecoratorSpec& d : checker::decorator_specs())
    if (d.places & places) s.insert(std::string(d.name));
  return s;
}

TEST(DecoratorRegistry, CompletionOffersEveryDecoratorValidAtThePlace) {
  Fixture f;
  const auto& a = f.file("main.fitz",
                         "@^\nfn f(@^ x: Int = 1) {}\ntype T {\n    @^ id: Int = 0\n    tags: List<Int> = [1, 2]\n    @^\n}\n"
                         "type Box<T> {\n    @^ item: T\n}\n");
  f.analyse("main.fitz");
  auto at = [&](size_t i) {
    std::set<std::string> s;
    for (const auto& item : completion(f.a(), f.module(), a.text, a.point(i))) {
      EXPECT_TRUE(item.snippet) << item.label;
      s.insert(item.label);
    }
    return s;
  };
  EXPECT_EQ(at(0), registry_names(checker::kOnFn | checker::kOnType));
  EXPECT_EQ(at(1), registry_names(checker::kOnParam));
  EXPECT_EQ(at(2), registry_names(checker::kOnField));
  EXPECT_EQ(at(3), registry_names(checker::kOnField));
  EXPECT_EQ(at(4), registry_names(checker::kOnField));
}

TEST(DecoratorRegistry, HoverShowsTheEntry) {
  Fixture f;
  const auto& a = f.file("main.fitz",
                         "@g^et(\"/x\")\nfn f() -> Int => 1\n@command\nfn c(@fl^ag(short=\"w\") w: Int = 1) {}\n"
                         "@^table(\"t\")\ntype T {\n    @pri^mary id: Int = 0\n}\n");
  f.analyse("main.fitz");
  auto text = [&](size_t i) {
    auto h = hover(f.a(), f.module(), a.point(i));
    return h ? h->markdown : std::string("<none>");
  };
  EXPECT_NE(text(0).find(checker::decorator_spec(checker::DecoratorKind::Get).doc), std::string::npos) << text(0);
  EXPECT_NE(text(1).find(checker::decorator_spec(checker::DecoratorKind::FlagParam).doc), std::string::npos) << text(1);
  EXPECT_NE(text(1).find("short="), std::string::npos) << text(1);
  EXPECT_NE(text(2).find(checker::decorator_spec(checker::DecoratorKind::Table).doc), std::string::npos) << text(2);
  EXPECT_NE(text(3).find(checker::decorator_spec(checker::DecoratorKind::Primary).doc), std::string::npos) << text(3);
}

}  // namespace
}  // namespace fitz::lsp
