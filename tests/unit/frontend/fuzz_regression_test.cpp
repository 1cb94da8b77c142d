// Pathological inputs through parse + lower (+ dump and, for small inputs, rendering) in the
// normal test build: none may crash, hang or overflow the stack, and broken ones must say so.
// The libFuzzer target in tests/fuzz/ explores further; inputs it finds belong here.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "frontend/lower.h"
#include "frontend/render.h"

namespace fitz::frontend {
namespace {

// Generous: the point is "finishes", not a benchmark (CI machines are shared and slow).
constexpr double kBudgetSeconds = 10.0;

struct Outcome {
  size_t diagnostics = 0;
  double seconds = 0;
};

Outcome run(const std::string& name, std::string text) {
  auto t0 = std::chrono::steady_clock::now();
  SourceManager sources;
  FileId id = sources.add(name + ".fitz", std::move(text));
  const SourceFile& source = sources.file(id);
  DiagnosticBag diags;
  Ast ast = parse_module(source, id, diags);
  std::string dump = dump_ast(ast, source);
  EXPECT_FALSE(dump.empty());
  if (source.size() < 100000) {
    for (const Diagnostic& d : diags) EXPECT_FALSE(render_text(d, sources).empty());
  }
  Outcome o;
  o.diagnostics = diags.size();
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[pathological] %-28s %9zu bytes  %6.3f s  %zu diagnostics\n", name.c_str(), size_t(source.size()),
              o.seconds, o.diagnostics);
  EXPECT_LT(o.seconds, kBudgetSeconds) << name;
  return o;
}

std::string repeat(std::string_view s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

TEST(Pathological, EmptyAndBlankFiles) {
  EXPECT_EQ(run("empty", "").diagnostics, 0u);
  EXPECT_EQ(run("newlines", std::string(100000, '\n')).diagnostics, 0u);
  EXPECT_EQ(run("comments", repeat("// line\n/* block */\n", 10000)).diagnostics, 0u);
  EXPECT_EQ(run("bom_only", "\xEF\xBB\xBF").diagnostics, 0u);
}

TEST(Pathological, InvalidUtf8AndNulBytes) {
  EXPECT_GT(run("invalid_utf8", "let x = \"\xFF\xFE\"\nlet \xC3\x28 = 1\nprint(\xE2\x82)\n\xF0\x9F\x98\n").diagnostics, 0u);
  EXPECT_GT(run("nul_bytes", std::string("let a = 1\0\nprint(a\0)\n\"\0\"\n\0\0\0", 28)).diagnostics, 0u);
  std::string all_bytes;
  for (int i = 0; i < 256; ++i) all_bytes += char(i);
  run("every_byte", repeat(all_bytes, 64));
}

TEST(Pathological, TenMegabyteSingleLines) {
  run("long_identifier", std::string(10'000'000, 'a'));
  run("long_string", "let s = \"" + std::string(10'000'000, 'x') + "\"\n");
  EXPECT_GT(run("long_unterminated_string", "let s = \"" + std::string(10'000'000, 'x')).diagnostics, 0u);
  std::string garbage;
  garbage.reserve(10'000'000);
  uint32_t state = 12345;
  const char kChars[] = "(){}[];:,.+-*/$#!@";
  for (size_t i = 0; i < 10'000'000; ++i) {
    state = state * 1103515245u + 12345u;
    garbage += kChars[(state >> 16) % (sizeof kChars - 1)];
  }
  EXPECT_GT(run("long_garbage", std::move(garbage)).diagnostics, 0u);
}

TEST(Pathological, DeepNesting) {
  for (char open : {'(', '[', '{'}) {
    char close = open == '(' ? ')' : open == '[' ? ']' : '}';
    std::string name(1, open);
    EXPECT_GT(run("nested_closed_" + name, "let x = " + std::string(10000, open) + "1" + std::string(10000, close) + "\n")
                  .diagnostics,
              0u);
    EXPECT_GT(run("nested_open_" + name, std::string(10000, open)).diagnostics, 0u);
  }
  EXPECT_GT(run("nested_blocks", "fn f() {\n" + repeat("if x {\n", 10000) + repeat("}\n", 10000) + "}\n").diagnostics,
            0u);
  EXPECT_GT(run("unary_chain", "let x = " + std::string(100000, '-') + "1\n").diagnostics, 0u);
  EXPECT_GT(run("method_chain", "x" + repeat(".f()", 100000) + "\n").diagnostics, 0u);
  EXPECT_GT(run("else_if_chain", "if a { 1 }" + repeat(" else if a { 1 }", 5000) + "\n").diagnostics, 0u);
}

TEST(Pathological, LongOperatorChains) {
  EXPECT_EQ(run("sum_100k_one_line", "let x = a" + repeat(" + a", 100000) + "\n").diagnostics, 1u);
  EXPECT_EQ(run("sum_100k_lines", "let x = a +\n" + repeat("a +\n", 100000) + "a\n").diagnostics, 1u);
  EXPECT_EQ(run("sum_900", "let x = a" + repeat(" + a", 900) + "\n").diagnostics, 0u);
}

TEST(Pathological, UnterminatedAtEndOfFile) {
  EXPECT_EQ(run("open_string", "let s = \"abc").diagnostics, 1u);
  EXPECT_EQ(run("open_triple_string", "let s = \"\"\"abc\n" + repeat("line\n", 1000)).diagnostics, 1u);
  EXPECT_EQ(run("open_comment", "let a = 1\n/* " + repeat("x\n", 1000)).diagnostics, 1u);
  EXPECT_EQ(run("open_interpolation", "print(\"{a").diagnostics, 1u);
  EXPECT_GT(run("open_escape", "print(\"\\").diagnostics, 0u);
}

TEST(Pathological, ErrorRuns) {
  EXPECT_GT(run("semicolons", "let a = 1" + std::string(2000, ';') + "\n").diagnostics, 0u);
  EXPECT_GT(run("semicolon_lines", repeat("let a = 1;\n", 10000)).diagnostics, 0u);
  EXPECT_GT(run("stray_lines", repeat("let a = $ 1\n", 10000)).diagnostics, 0u);
  EXPECT_GT(run("closers", std::string(10000, ')') + std::string(10000, '}')).diagnostics, 0u);
}

}  // namespace
}  // namespace fitz::frontend
