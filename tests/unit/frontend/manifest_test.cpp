// Unit tests of fitz.toml support: the TOML subset (values, tables, error positions), the
// Manifest model's rules (names, bins, dependencies, flags) and the upward manifest search.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "frontend/manifest.h"

namespace fitz::frontend {
namespace {

struct Parsed {
  SourceManager sources;
  DiagnosticBag diags;
  std::optional<Manifest> manifest;

  // "E0111 3:8 message" for each diagnostic, in order.
  std::vector<std::string> lines() const {
    std::vector<std::string> out;
    for (auto const& d : diags.sorted()) {
      std::string where = "-";
      if (auto const* f = sources.find(d.span.file)) {
        LineCol lc = f->line_col(d.span.begin);
        where = std::to_string(lc.line) + ":" + std::to_string(lc.col);
      }
      out.push_back(std::string(diag_code(d.kind)) + " " + where + " " + d.message);
    }
    return out;
  }
  std::string first() const {
    auto l = lines();
    return l.empty() ? "" : l[0];
  }
  std::string first_hint() const { return diags.empty() ? "" : diags.begin()->hint; }
};

std::unique_ptr<Parsed> parse(std::string text) {
  auto p = std::make_unique<Parsed>();
  FileId id = p->sources.add("fitz.toml", std::move(text));
  p->manifest = parse_manifest(p->sources.file(id), p->diags);
  return p;
}

constexpr std::string_view kPackage =
    "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2026\"\n";

std::unique_ptr<Parsed> with_package(std::string_view rest) {
  return parse(std::string(kPackage) + std::string(rest));
}

TEST(Manifest, FullManifest) {
  auto p = parse(R"(# The project.
[package]
name = "shop-api"
version = "1.2.3"
edition = "2026"  # the only edition
authors = [
  "Ada <ada@example.com>",   # trailing comma and comments allowed
  'Linus',
]
description = """
An API for a \
    shop.\u00e9"""
license = 'MIT OR Apache-2.0'

[bin]
main = "src/main.fitz"

[lib]
entry = "src/lib.fitz"

[dependencies]
"util" = { path = "../util" }
jwt_extra = { git = "https://example.com/jwt.git", tag = "v1.0.0" }
orm-ext = { git = "https://example.com/orm.git", rev = "0123abc" }

[dependencies.local]
path = "vendor/local"

[flags]
beta = true
metrics = false
)");
  ASSERT_TRUE(p->manifest.has_value()) << testing::PrintToString(p->lines());
  EXPECT_TRUE(p->diags.empty()) << testing::PrintToString(p->lines());
  Manifest const& m = *p->manifest;
  EXPECT_EQ(m.name, "shop-api");
  EXPECT_EQ(m.version, "1.2.3");
  EXPECT_EQ(m.edition, "2026");
  EXPECT_EQ(m.authors, (std::vector<std::string>{"Ada <ada@example.com>", "Linus"}));
  EXPECT_EQ(m.description, "An API for a shop.é");
  EXPECT_EQ(m.license, "MIT OR Apache-2.0");
  ASSERT_EQ(m.bins.size(), 1u);
  EXPECT_EQ(m.bins[0].name, "shop-api");  // a single [bin] is named after the package
  EXPECT_EQ(m.bins[0].main, "src/main.fitz");
  EXPECT_EQ(m.lib_entry, "src/lib.fitz");
  ASSERT_EQ(m.dependencies.size(), 4u);
  EXPECT_EQ(m.dependencies[0].name, "util");
  EXPECT_FALSE(m.dependencies[0].is_git());
  EXPECT_EQ(m.dependencies[0].path, "../util");
  EXPECT_FALSE(m.dependencies[0].git.has_value());
  EXPECT_TRUE(m.dependencies[1].is_git());
  EXPECT_FALSE(m.dependencies[1].path.has_value());
  EXPECT_EQ(m.dependencies[1].git, "https://example.com/jwt.git");
  EXPECT_EQ(m.dependencies[1].tag, "v1.0.0");
  EXPECT_FALSE(m.dependencies[1].rev.has_value());
  EXPECT_EQ(m.dependencies[2].rev, "0123abc");
  EXPECT_EQ(m.dependencies[3].name, "local");
  EXPECT_EQ(m.dependencies[3].path, "vendor/local");
  EXPECT_EQ(m.flags, (std::vector<std::pair<std::string, bool>>{{"beta", true}, {"metrics", false}}));

  // Spans point into the file.
  auto const& file = p->sources.file(m.file);
  EXPECT_EQ(file.slice(m.dependencies[1].span), "jwt_extra");
  EXPECT_EQ(file.slice(m.dependencies[0].source_span), "\"../util\"");
  EXPECT_EQ(file.line_col(m.bins[0].span.begin), (LineCol{16, 8}));
}

TEST(Manifest, ArrayOfBinsAndCrlf) {
  auto p = parse(
      "[package]\r\nname = \"app\"\r\nversion = \"0.1.0\"\r\nedition = \"2026\"\r\n\r\n"
      "[[bin]]\r\nname = \"server\"\r\nmain = \"src/server.fitz\"\r\n"
      "[[bin]]\r\nname = \"worker\"\r\nmain = \"src/worker.fitz\"\r\ntarget = \"native\"\r\n");
  ASSERT_TRUE(p->manifest.has_value()) << testing::PrintToString(p->lines());
  ASSERT_EQ(p->manifest->bins.size(), 2u);
  EXPECT_EQ(p->manifest->bins[0].name, "server");
  EXPECT_EQ(p->manifest->bins[1].main, "src/worker.fitz");
}

TEST(Manifest, PackageNameRule) {
  EXPECT_TRUE(is_valid_package_name("a"));
  EXPECT_TRUE(is_valid_package_name("my_app-2"));
  EXPECT_TRUE(is_valid_package_name(std::string(64, 'a')));
  EXPECT_FALSE(is_valid_package_name(std::string(65, 'a')));
  EXPECT_FALSE(is_valid_package_name(""));
  EXPECT_FALSE(is_valid_package_name("App"));
  EXPECT_FALSE(is_valid_package_name("1app"));
  EXPECT_FALSE(is_valid_package_name("_app"));
  EXPECT_FALSE(is_valid_package_name("-app"));
  EXPECT_FALSE(is_valid_package_name("my.app"));
  EXPECT_FALSE(is_valid_package_name("my app"));
  EXPECT_FALSE(is_valid_package_name("café"));
}

TEST(Manifest, InvalidPackageNamePointsAtTheValue) {
  auto p = parse("[package]\nname = \"My App\"\nversion = \"1\"\nedition = \"2026\"\n");
  EXPECT_FALSE(p->manifest.has_value());
  EXPECT_EQ(p->first(), "E0112 2:8 invalid package name `My App`");
  EXPECT_NE(p->first_hint().find("lower-case letter"), std::string::npos);
}

TEST(Manifest, MissingPackageAndFields) {
  EXPECT_EQ(parse("[bin]\nmain = \"a.fitz\"\n")->first(), "E0114 1:1 missing `[package]` table");
  auto p = parse("[package]\nname = \"app\"\n");
  EXPECT_EQ(p->lines(),
            (std::vector<std::string>{"E0114 1:2 missing `version`, `edition` in `[package]`"}));
}

TEST(Manifest, WrongTypesAndEdition) {
  auto p = parse("[package]\nname = \"app\"\nversion = 1\nedition = \"2024\"\nauthors = [\"a\", 2]\n");
  EXPECT_EQ(p->lines(),
            (std::vector<std::string>{"E0114 3:11 `package.version` must be a string, found an integer",
                                      "E0114 4:11 unsupported edition `2024`",
                                      "E0114 5:17 `package.authors` must hold strings, found an integer"}));
}

TEST(Manifest, UnknownKeysWarnButDoNotFail) {
  auto p = with_package("homepage = \"x\"\n[dependecies]\nfoo = { path = \"../foo\" }\n");
  ASSERT_TRUE(p->manifest.has_value());
  EXPECT_EQ(p->diags.warning_count(), 2u);
  EXPECT_EQ(p->lines(),
            (std::vector<std::string>{"W0100 5:1 unknown key `homepage` in `[package]`; it is ignored",
                                      "W0100 6:2 unknown table or key `dependecies` in fitz.toml; it is ignored"}));
}

TEST(Manifest, VersionStringDependencyIsRefusedWithAHint) {
  auto p = with_package("[dependencies]\nhttp = \"1.0.0\"\n");
  EXPECT_FALSE(p->manifest.has_value());
  EXPECT_EQ(p->first(),
            "E0113 6:8 dependency `http` is a version string, but fitz has no package registry");
  EXPECT_NE(p->first_hint().find("http = { path = \"../http\" }"), std::string::npos) << p->first_hint();
}

TEST(Manifest, DependencyFormsThatAreRefused) {
  auto branch = with_package("[dependencies]\nx = { git = \"u\", branch = \"main\" }\n");
  EXPECT_EQ(branch->lines(),
            (std::vector<std::string>{
                "E0113 6:18 `branch` is not supported: a branch moves, so builds would not be reproducible"}));
  EXPECT_EQ(with_package("[dependencies]\nx = { git = \"u\" }\n")->first(),
            "E0113 6:1 git dependency `x` needs a `tag` or a `rev`");
  EXPECT_EQ(with_package("[dependencies]\nx = { git = \"u\", tag = \"a\", rev = \"b\" }\n")->first(),
            "E0113 6:29 git dependency `x` has both `tag` and `rev`");
  EXPECT_EQ(with_package("[dependencies]\nx = { path = \"p\", git = \"u\", tag = \"t\" }\n")->first(),
            "E0113 6:19 dependency `x` has both `path` and `git`");
  EXPECT_EQ(with_package("[dependencies]\nx = { path = \"p\", tag = \"t\" }\n")->first(),
            "E0113 6:19 `tag` only applies to git dependencies");
  EXPECT_EQ(with_package("[dependencies]\nx = {}\n")->first(),
            "E0113 6:1 dependency `x` needs `path` or `git`");
  EXPECT_EQ(with_package("[dependencies]\nx = { version = \"1\" }\n")->first(),
            "E0113 6:7 `version` is not supported: fitz has no package registry");
  EXPECT_EQ(with_package("[dependencies]\nx = 3\n")->first(),
            "E0113 6:5 dependency `x` must be a table, found an integer");
  EXPECT_EQ(with_package("[dependencies]\nBad = { path = \"p\" }\n")->first(),
            "E0112 6:1 invalid dependency name `Bad`");
}

TEST(Manifest, BinRules) {
  EXPECT_EQ(with_package("[bin]\nname = \"x\"\n")->first(), "E0114 5:2 missing `main` in `[bin]`");
  EXPECT_EQ(with_package("[[bin]]\nmain = \"a.fitz\"\n")->first(),
            "E0114 5:3 missing `name` in `[[bin]]`");
  EXPECT_EQ(with_package("[[bin]]\ntarget = \"native\"\n")->lines(),
            (std::vector<std::string>{"E0114 5:3 missing `name`, `main` in `[[bin]]`"}));
  EXPECT_EQ(with_package("[[bin]]\nname = \"a\"\nmain = \"a.fitz\"\n[[bin]]\nname = \"a\"\nmain = \"b.fitz\"\n")
                ->first(),
            "E0114 10:8 two binaries are named `a`");
  auto wasm = with_package("[bin]\nmain = \"a.fitz\"\ntarget = \"wasm-client\"\n");
  EXPECT_EQ(wasm->first(), "E0114 7:10 bin target `wasm-client` is not supported");
  EXPECT_EQ(with_package("[bin]\nmain = \"a.fitz\"\ntarget = \"arm\"\n")->first(),
            "E0114 7:10 unknown bin target `arm`");
  EXPECT_EQ(parse("bin = 3\n" + std::string(kPackage))->first(),
            "E0114 1:7 `bin` must be a table or `[[bin]]` entries, found an integer");
}

TEST(Manifest, LibAndFlags) {
  EXPECT_EQ(with_package("[lib]\n")->first(), "E0114 5:2 missing `entry` in `[lib]`");
  EXPECT_EQ(with_package("[flags]\nbeta = \"yes\"\n")->first(),
            "E0114 6:8 flag `beta` must be `true` or `false`, found a string");
}

// ---- TOML syntax: every error carries its line and column ----------------------------------------

std::string syntax_error(std::string_view rest) {
  auto p = with_package(rest);
  EXPECT_FALSE(p->manifest.has_value()) << rest;
  EXPECT_EQ(p->diags.size(), 1u) << testing::PrintToString(p->lines());
  return p->first();
}

TEST(Toml, ErrorPositions) {
  EXPECT_EQ(syntax_error("license = \n"), "E0111 5:11 expected a value (a string, integer, boolean, "
                                          "array or inline table), found end of line");
  EXPECT_EQ(syntax_error("license \"MIT\"\n"), "E0111 5:9 expected `=` after the key `license`, found `\"`");
  EXPECT_EQ(syntax_error("license = \"MIT\n"), "E0111 5:11 unterminated string");
  EXPECT_EQ(syntax_error("license = \"\"\"MIT\n"), "E0111 5:11 unterminated multi-line string");
  EXPECT_EQ(syntax_error("license = \"a\\qb\"\n"), "E0111 5:13 invalid escape `\\q` in string");
  EXPECT_EQ(syntax_error("license = \"\\u12\"\n"), "E0111 5:12 `\\u` needs 4 hexadecimal digits");
  EXPECT_EQ(syntax_error("license = \"\\uD800\"\n"), "E0111 5:12 escape is not a Unicode scalar value");
  EXPECT_EQ(syntax_error("license = \"MIT\" x\n"), "E0111 5:17 expected a new line, found `x`");
  EXPECT_EQ(syntax_error("license = MIT\n"), "E0111 5:11 expected a value, found `MIT`");
  EXPECT_EQ(syntax_error("[flags\n"), "E0111 5:7 expected `]`, found end of line");
  EXPECT_EQ(syntax_error("[[bin]\n"), "E0111 5:6 expected `]]`, found `]`");
  EXPECT_EQ(syntax_error("= 1\n"), "E0111 5:1 expected a key, found `=`");
  EXPECT_EQ(syntax_error("authors = [\"a\" \"b\"]\n"),
            "E0111 5:16 expected `,` or `]` in the array, found `\"`");
  EXPECT_EQ(syntax_error("authors = [\"a\",\n"), "E0111 5:11 expected `]` to close this array");
  EXPECT_EQ(syntax_error("x = { a = 1, }\n"), "E0111 5:12 trailing comma in an inline table");
  EXPECT_EQ(syntax_error("x = { a = 1\n"),
            "E0111 5:12 expected `,` or `}` in the inline table (inline tables fit on one line), "
            "found end of line");
  EXPECT_EQ(syntax_error("license = \"a\tb\x01\"\n"),
            "E0111 5:15 control character U+0001 is not allowed here");
  EXPECT_EQ(syntax_error("license = \"caf\xE9\"\n"), "E0111 5:15 invalid UTF-8 in fitz.toml");
  EXPECT_EQ(syntax_error("\"\"\"k\"\"\" = 1\n"), "E0111 5:1 a key cannot be a multi-line string");
}

TEST(Toml, ErrorColumnsCountCharactersNotBytes) {
  EXPECT_EQ(syntax_error("description = \"é€😀\" ?\n"), "E0111 5:21 expected a new line, found `?`");
}

TEST(Toml, BareWordValueSuggestsQuotes) {
  auto p = with_package("license = MIT\n");
  EXPECT_EQ(p->first_hint(), "strings are written in quotes: \"MIT\"");
}

TEST(Toml, Numbers) {
  EXPECT_EQ(syntax_error("x = 1__0\n"), "E0111 5:6 `_` in a number must be between two digits");
  EXPECT_EQ(syntax_error("x = 1_\n"), "E0111 5:6 `_` in a number must be between two digits");
  EXPECT_EQ(syntax_error("x = 01\n"), "E0111 5:5 leading zeros are not allowed in an integer");
  EXPECT_EQ(syntax_error("x = 1.5\n"), "E0111 5:5 floating-point values are not supported in fitz.toml");
  EXPECT_EQ(syntax_error("x = 1e3\n"), "E0111 5:5 floating-point values are not supported in fitz.toml");
  EXPECT_EQ(syntax_error("x = inf\n"), "E0111 5:5 floating-point values are not supported in fitz.toml");
  EXPECT_EQ(syntax_error("x = 1979-05-27\n"), "E0111 5:5 dates and times are not supported in fitz.toml");
  EXPECT_EQ(syntax_error("x = 0x1F\n"), "E0111 5:5 only decimal integers are supported in fitz.toml");
  EXPECT_EQ(syntax_error("x = 9223372036854775808\n"), "E0111 5:5 integer does not fit in 64 bits");
  EXPECT_EQ(syntax_error("x = 12abc\n"), "E0111 5:7 expected the end of the number, found `a`");
  // The extremes parse (and then warn as unknown keys).
  auto p = with_package("x = -9223372036854775808\ny = +9_223_372_036_854_775_807\n");
  EXPECT_TRUE(p->manifest.has_value()) << testing::PrintToString(p->lines());
}

TEST(Toml, DuplicateKeysAndTables) {
  auto dup = with_package("license = \"a\"\nlicense = \"b\"\n");
  EXPECT_EQ(dup->first(), "E0111 6:1 duplicate key `license`");
  ASSERT_EQ(dup->diags.begin()->labels.size(), 1u);
  EXPECT_EQ(dup->sources.file(FileId{0}).line_col(dup->diags.begin()->labels[0].span.begin),
            (LineCol{5, 1}));
  EXPECT_EQ(syntax_error("name = \"again\"\n"), "E0111 5:1 duplicate key `name`");
  EXPECT_EQ(syntax_error("[package]\n"), "E0111 5:1 `package` is already defined");
  EXPECT_EQ(syntax_error("[flags]\n[[flags]]\n"), "E0111 6:1 `flags` is already defined");
  EXPECT_EQ(parse("dependencies = { a = { path = \"x\" } }\n[dependencies.b]\n")->first(),
            "E0111 2:2 `dependencies` is already defined as a table");
  EXPECT_EQ(syntax_error("a = 1\na.b = 2\n"), "E0111 6:1 `a` is already defined as an integer");
}

TEST(Toml, DottedKeysAndImplicitTables) {
  auto p = parse(
      "package.name = \"app\"\npackage.version = \"1\"\npackage.edition = \"2026\"\n"
      "[dependencies.util]\npath = \"../util\"\n[dependencies]\nother.path = \"../other\"\n");
  ASSERT_TRUE(p->manifest.has_value()) << testing::PrintToString(p->lines());
  ASSERT_EQ(p->manifest->dependencies.size(), 2u);
  EXPECT_EQ(p->manifest->dependencies[1].path, "../other");
}

TEST(Toml, StringForms) {
  auto p = with_package(
      "description = \"tab\\tquote\\\" back\\\\ \\U0001F600\"\n"
      "license = '''\nraw \\n ''it''\n'''\n");
  ASSERT_TRUE(p->manifest.has_value()) << testing::PrintToString(p->lines());
  EXPECT_EQ(p->manifest->description, "tab\tquote\" back\\ 😀");
  EXPECT_EQ(p->manifest->license, "raw \\n ''it''\n");
  auto q = with_package("description = \"\"\"a\"\"\"\"\nlicense = ''\n");
  ASSERT_TRUE(q->manifest.has_value()) << testing::PrintToString(q->lines());
  EXPECT_EQ(q->manifest->description, "a\"");
  EXPECT_EQ(q->manifest->license, "");
}

TEST(Toml, EmptyAndCommentOnlyFilesReportOnlyTheMissingPackage) {
  EXPECT_EQ(parse("")->lines(), (std::vector<std::string>{"E0114 1:1 missing `[package]` table"}));
  EXPECT_EQ(parse("# nothing\n\n  # here\n")->lines(),
            (std::vector<std::string>{"E0114 1:1 missing `[package]` table"}));
}

TEST(Toml, MutatedInputsNeverCrashAndFailWithAnError) {
  std::string const base = std::string(kPackage) +
                           "authors = [\"a\", 'b']\ndescription = \"\"\"x\\\n y\"\"\"\n"
                           "[[bin]]\nname = \"s\"\nmain = \"m.fitz\"\n"
                           "[dependencies]\nu = { path = \"../u\" }\n[flags]\nb = true\n";
  ASSERT_TRUE(parse(base)->manifest.has_value()) << testing::PrintToString(parse(base)->lines());
  std::mt19937 rng(7);
  std::string const alphabet = "[]{}=,.\"'\\#\n\r\t _-aZ09+\xC3\xA9\xFF";
  for (int round = 0; round < 2000; ++round) {
    std::string text = base;
    int const edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      std::size_t const at = rng() % text.size();
      char const c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0: text[at] = c; break;
        case 1: text.erase(at, 1); break;
        default: text.insert(at, 1, c);
      }
    }
    auto p = parse(text);
    if (!p->manifest) {
      ASSERT_TRUE(p->diags.has_errors()) << text;
    }
    for (auto const& d : p->diags) {
      ASSERT_LE(d.span.begin, d.span.end) << text;
      ASSERT_LE(d.span.end, text.size()) << text;
    }
  }
}

// ---- finding and loading ----------------------------------------------------------------------------

class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("fitz_manifest_test_" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
    path_ = std::filesystem::canonical(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::filesystem::path const& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(FindManifest, WalksUpToTheNearestManifest) {
  TempDir dir;
  auto const root = dir.path() / "project";
  auto const nested = root / "src" / "api" / "v1";
  std::filesystem::create_directories(nested);
  std::ofstream(root / "fitz.toml") << kPackage;
  EXPECT_EQ(find_manifest(nested), root / "fitz.toml");
  EXPECT_EQ(find_manifest(root), root / "fitz.toml");
  EXPECT_EQ(find_manifest(nested.string() + "/"), root / "fitz.toml");
  std::ofstream(nested / "main.fitz") << "print(1)\n";
  EXPECT_EQ(find_manifest(nested / "main.fitz"), root / "fitz.toml");  // a file starts at its dir

  // A nearer manifest wins.
  std::ofstream(root / "src" / "fitz.toml") << kPackage;
  EXPECT_EQ(find_manifest(nested), root / "src" / "fitz.toml");

  // A directory named fitz.toml is not a manifest.
  std::filesystem::create_directories(nested / "fitz.toml");
  EXPECT_EQ(find_manifest(nested), root / "src" / "fitz.toml");
}

TEST(FindManifest, RelativeStartAndNoManifest) {
  TempDir dir;
  auto const nested = dir.path() / "a" / "b";
  std::filesystem::create_directories(nested);
  EXPECT_FALSE(find_manifest(nested).has_value());
  std::ofstream(dir.path() / "a" / "fitz.toml") << kPackage;
  auto const cwd = std::filesystem::current_path();
  std::filesystem::current_path(nested);
  auto found = find_manifest(".");
  std::filesystem::current_path(cwd);
  ASSERT_TRUE(found.has_value());
  EXPECT_TRUE(found->is_absolute());
  EXPECT_EQ(*found, dir.path() / "a" / "fitz.toml");
}

TEST(LoadManifest, ReadsParsesAndReportsUnreadableFiles) {
  TempDir dir;
  SourceManager sources;
  DiagnosticBag diags;
  std::ofstream(dir.path() / "fitz.toml") << kPackage << "[bin]\nmain = \"src/main.fitz\"\n";
  auto m = load_manifest(sources, dir.path() / "fitz.toml", diags);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(sources.file(m->file).path(), (dir.path() / "fitz.toml").string());
  EXPECT_EQ(m->bins[0].main, "src/main.fitz");

  auto missing = load_manifest(sources, dir.path() / "nope" / "fitz.toml", diags);
  EXPECT_FALSE(missing.has_value());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.begin()->kind, DiagKind::ManifestUnreadable);
  EXPECT_FALSE(diags.begin()->span.file.valid());
  EXPECT_NE(diags.begin()->message.find("no such file or directory"), std::string::npos);
}

}  // namespace
}  // namespace fitz::frontend
