// Every built-in module and function name, written where a value is expected: the checker must
// refuse it (E0212) or the generator must express it. A program `fitz check` accepts never
// reaches the generator's internal-error path ("cannot express ...").
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "checker/builtins.h"
#include "codegen/codegen.h"
#include "tests/support/checked_files.h"


namespace {

struct Outcome {
  size_t errors = 0;
  bool not_a_value = false;       // an E0212 among the errors
  bool not_compiled_module = false;  // an E0214 among the errors
  std::vector<std::string> ice;   // the generator's "cannot express" list
  size_t not_compiled = 0;
  bool generated = false;
};

Outcome build(const std::string& text) {
  auto c = fitz::test_support::check_files({{"main.fitz", text}});
  Outcome out;
  out.errors = c->diags.error_count();
  for (const auto& d : c->diags)
    out.not_a_value |= d.kind == fitz::frontend::DiagKind::NotAValue,
    out.not_compiled_module |= d.kind == fitz::frontend::DiagKind::ModuleNotCompiled;
  if (!c->diags.has_errors()) {
    auto gen = fitz::codegen::generate_cpp(c->program, c->loaded.graph, c->sources);
    out.ice = gen.unsupported;
    out.not_compiled = gen.not_compiled.size();
    out.generated = true;
  }
  return out;
}

// The places a value can appear, each with `$` standing for the name.
const std::vector<std::string> kValueForms = {
    "let v = $\nprint(v)\n",
    "fn take(x: Any) => x\nprint(take($))\n",
    "print($)\n",
    "let xs = [$]\nprint(xs)\n",
    "let m = {\"k\": $}\nprint(m)\n",
    "fn give() -> Any {\n    return $\n}\nprint(give())\n",
    "let f = fn() => $\nprint(f())\n",
    "let s = \"{$}\"\nprint(s)\n",
    "print($ == null)\n",
};

std::string fill(const std::string& form, std::string_view name) {
  std::string s;
  for (char c : form) {
    if (c == '$') s += name;
    else s += c;
  }
  return s;
}

std::string join(const std::vector<std::string>& xs) {
  std::string s;
  for (const auto& x : xs) s += (s.empty() ? "" : "; ") + x;
  return s;
}

TEST(BuiltinNames, ModulesAsValuesAreRefusedByTheChecker) {
  for (const auto& v : fitz::checker::builtin_values()) {
    for (const auto& form : kValueForms) {
      std::string text = fill(form, v.name);
      Outcome o = build(text);
      EXPECT_TRUE(o.not_a_value) << text;
      EXPECT_TRUE(o.ice.empty()) << text << join(o.ice);
    }
  }
}

TEST(BuiltinNames, FunctionsAsValuesAreRefusedByTheChecker) {
  for (const auto& e : fitz::checker::builtin_entries()) {
    if (!e.receiver.empty()) continue;
    for (const auto& form : kValueForms) {
      std::string text = fill(form, e.name);
      Outcome o = build(text);
      EXPECT_TRUE(o.not_a_value) << text;
      EXPECT_TRUE(o.ice.empty()) << text << join(o.ice);
    }
  }
}

TEST(BuiltinNames, ModuleMembersCheckOrCompileButNeverReachTheInternalError) {
  // Members the table types, members it does not (modules typed Any), wrong arities.
  const std::vector<std::string> forms = {
      "print($.v4())\n", "print($.now())\n", "print($.connect(\"postgres://x\"))\n", "print($.member)\n",
      "print($.get(\"http://x\"))\n", "$.info(\"m\", k: 1)\n", "print($.list())\n", "print($.is_enabled(\"x\"))\n",
  };
  for (const auto& v : fitz::checker::builtin_values()) {
    for (const auto& form : forms) {
      std::string text = fill(form, v.name);
      Outcome o = build(text);
      EXPECT_TRUE(o.ice.empty()) << text << join(o.ice);
      if (o.generated) {
        EXPECT_FALSE(o.not_a_value) << text;
      }
    }
  }
}

TEST(BuiltinNames, UncompiledModulesAreACheckerError) {
  // The editor shows it (E0214): the build never starts on a program whose calls would all fail.
  for (const auto& v : fitz::checker::builtin_values()) {
    Outcome o = build("let r = " + std::string(v.name) + ".get(\"http://localhost\")\nprint(r)\n");
    EXPECT_EQ(o.not_compiled_module, !v.compiled) << v.name;
    if (!v.compiled) {
      EXPECT_FALSE(o.generated) << v.name;
    }
    EXPECT_EQ(o.not_compiled, 0u) << v.name;
  }
}

TEST(BuiltinNames, LogAndFlagsCallsAreTyped) {
  Outcome ok = build("log.info(\"saved\", id: 3, who: \"a\")\nlet on: Bool = flags.is_enabled(\"x\")\nprint(on)\n");
  EXPECT_EQ(ok.errors, 0u);
  ASSERT_TRUE(ok.generated);
  EXPECT_TRUE(ok.ice.empty()) << join(ok.ice);
  EXPECT_GT(build("log.verbose(\"x\")\n").errors, 0u);
  EXPECT_GT(build("log.info()\n").errors, 0u);
  EXPECT_GT(build("print(flags.is_enabled(3))\n").errors, 0u);
  EXPECT_GT(build("let n: Int = flags.is_enabled(\"x\")\n").errors, 0u);
}

}  // namespace
