// Unit tests of lowering: desugarings, spans, the checks that belong to the syntax, syntax
// error messages with their positions, nesting limits and the AST dump.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frontend/lower.h"

namespace fitz::frontend {
namespace {

struct Lowered {
  std::unique_ptr<SourceFile> source;
  DiagnosticBag diags;
  Ast ast;
};

std::unique_ptr<Lowered> lower(std::string text) {
  auto l = std::make_unique<Lowered>();
  l->source = std::make_unique<SourceFile>(FileId{0}, "test.fitz", std::move(text));
  l->ast = parse_module(*l->source, FileId{0}, l->diags);
  return l;
}

// "L:C CODE message" for every diagnostic, in source order.
std::vector<std::string> diagnostics(const Lowered& l) {
  std::vector<std::string> out;
  for (const Diagnostic& d : l.diags.sorted()) {
    LineCol lc = l.source->line_col(d.span.begin);
    out.push_back(std::to_string(lc.line) + ":" + std::to_string(lc.col) + " " + std::string(diag_code(d.kind)) +
                  " " + d.message);
  }
  return out;
}

std::vector<std::string> diagnostics(std::string text) { return diagnostics(*lower(std::move(text))); }

const Stmt& top(const Lowered& l, size_t i) { return l.ast.get(l.ast.top_level.at(i)); }

template <class T>
const T& expr_as(const Lowered& l, ExprId id) {
  const T* p = std::get_if<T>(&l.ast.get(id).data);
  EXPECT_NE(p, nullptr) << "unexpected expression kind " << l.ast.get(id).data.index();
  static T dummy{};
  return p ? *p : dummy;
}

std::string_view text_of(const Lowered& l, Span s) { return l.source->slice(s); }

TEST(Lower, EmptyAndCommentOnlyFiles) {
  for (const char* text : {"", "\n\n\n", "// just a comment\n/* and a block */\n", "\xEF\xBB\xBF"}) {
    auto l = lower(text);
    EXPECT_TRUE(l->ast.top_level.empty()) << text;
    EXPECT_TRUE(diagnostics(*l).empty()) << text;
  }
}

TEST(Lower, LetAndAssignmentForms) {
  auto l = lower("let x = 1\nx = 2\ny: Int = 3\nlet z: Str = \"s\"\nx += 4\nlet (a, _) = (1, 2)\n");
  ASSERT_EQ(l->ast.top_level.size(), 6u);
  const auto& let = std::get<AssignStmt>(top(*l, 0).data);
  EXPECT_TRUE(let.is_let);
  EXPECT_EQ(expr_as<NameRef>(*l, let.target).name.text, "x");
  EXPECT_EQ(text_of(*l, let.op_span), "=");
  EXPECT_FALSE(std::get<AssignStmt>(top(*l, 1).data).is_let);
  const auto& ann = std::get<AnnotatedAssignStmt>(top(*l, 2).data);
  EXPECT_FALSE(ann.is_let);
  EXPECT_EQ(ann.name.text, "y");
  EXPECT_TRUE(std::get<AnnotatedAssignStmt>(top(*l, 3).data).is_let);
  // Compound assignment keeps the operator and does not duplicate the target.
  const auto& compound = std::get<AssignStmt>(top(*l, 4).data);
  ASSERT_TRUE(compound.compound.has_value());
  EXPECT_EQ(*compound.compound, BinaryOp::Add);
  EXPECT_EQ(text_of(*l, compound.op_span), "+=");
  EXPECT_EQ(expr_as<IntLit>(*l, compound.value).value, 4);
  const auto& pat = std::get<LetPatternStmt>(top(*l, 5).data);
  EXPECT_EQ(std::get<TuplePat>(l->ast.get(pat.pattern).data).elems.size(), 2u);
  EXPECT_TRUE(diagnostics(*l).empty());
}

TEST(Lower, ArrowFunctionBodyIsAReturnBlock) {
  auto l = lower("fn double(n: Int) -> Int => n * 2\n");
  const FnDecl& fn = l->ast.get(std::get<FnStmt>(top(*l, 0).data).fn);
  EXPECT_TRUE(fn.arrow_body);
  EXPECT_EQ(fn.name->text, "double");
  EXPECT_EQ(text_of(*l, fn.keyword_span), "fn");
  const Block& body = l->ast.get(fn.body);
  ASSERT_EQ(body.stmts.size(), 1u);
  const auto& ret = std::get<ReturnStmt>(l->ast.get(body.stmts[0]).data);
  EXPECT_EQ(expr_as<BinaryExpr>(*l, ret.value).op, BinaryOp::Mul);
}

TEST(Lower, ElseIfNestsInAnElseBlock) {
  auto l = lower("let v = if a { 1 } else if b { 2 } else { 3 }\n");
  const auto& let = std::get<AssignStmt>(top(*l, 0).data);
  const auto& outer = expr_as<IfExpr>(*l, let.value);
  EXPECT_EQ(text_of(*l, outer.if_span), "if");
  const Block& els = l->ast.get(outer.else_block);
  ASSERT_EQ(els.stmts.size(), 1u);
  const auto& inner_stmt = std::get<ExprStmt>(l->ast.get(els.stmts[0]).data);
  const auto& inner = expr_as<IfExpr>(*l, inner_stmt.expr);
  EXPECT_TRUE(inner.else_block.valid());
}

TEST(Lower, MatchArmsAreBlocks) {
  auto l = lower("fn f(x) {\n  match x {\n    1 => \"one\"\n    2 => { \"two\" }\n    _ => return 3\n  }\n}\n");
  const FnDecl& fn = l->ast.get(std::get<FnStmt>(top(*l, 0).data).fn);
  const auto& m = expr_as<MatchExpr>(*l, std::get<ExprStmt>(l->ast.get(l->ast.get(fn.body).stmts[0]).data).expr);
  ASSERT_EQ(m.arms.size(), 3u);
  EXPECT_EQ(text_of(*l, m.match_span), "match");
  EXPECT_TRUE(m.arms[0].arrow_body);
  EXPECT_FALSE(m.arms[1].arrow_body);
  EXPECT_TRUE(m.arms[2].arrow_body);
  const Block& first = l->ast.get(m.arms[0].body);
  ASSERT_EQ(first.stmts.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<ExprStmt>(l->ast.get(first.stmts[0]).data));
  const Block& third = l->ast.get(m.arms[2].body);
  ASSERT_EQ(third.stmts.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<ReturnStmt>(l->ast.get(third.stmts[0]).data));
}

TEST(Lower, NegativeLiteralPatterns) {
  auto l = lower("match t {\n  -1 => 0\n  -40..0 => 1\n  -0.5 => 2\n  -9223372036854775808 => 3\n  _ => 4\n}\n");
  const auto& m = expr_as<MatchExpr>(*l, std::get<ExprStmt>(top(*l, 0).data).expr);
  ASSERT_EQ(m.arms.size(), 5u);
  const auto& lit = std::get<LiteralPat>(l->ast.get(m.arms[0].pattern).data);
  EXPECT_EQ(expr_as<IntLit>(*l, lit.literal).value, -1);
  const auto& range = std::get<RangePat>(l->ast.get(m.arms[1].pattern).data);
  EXPECT_EQ(range.lo, -40);
  EXPECT_EQ(range.hi, 0);
  EXPECT_FALSE(range.inclusive);
  const auto& flt = std::get<LiteralPat>(l->ast.get(m.arms[2].pattern).data);
  EXPECT_EQ(expr_as<FloatLit>(*l, flt.literal).value, -0.5);
  const auto& min = std::get<LiteralPat>(l->ast.get(m.arms[3].pattern).data);
  EXPECT_EQ(expr_as<IntLit>(*l, min.literal).value, INT64_MIN);
  EXPECT_TRUE(diagnostics(*l).empty());
}

TEST(Lower, OkAndErrAreResultExpressions) {
  auto l = lower("let a = Ok(1)\nlet b = Err(\"no\")\n");
  const auto& ok = expr_as<ResultExpr>(*l, std::get<AssignStmt>(top(*l, 0).data).value);
  EXPECT_TRUE(ok.is_ok);
  EXPECT_EQ(text_of(*l, ok.keyword_span), "Ok");
  const auto& err = expr_as<ResultExpr>(*l, std::get<AssignStmt>(top(*l, 1).data).value);
  EXPECT_FALSE(err.is_ok);
  EXPECT_TRUE(diagnostics(*l).empty());
}

TEST(Lower, LabelsCallsAndDecorators) {
  auto l = lower("'outer: for i in xs {\n  break 'outer\n}\n@server(8080, docs=false)\nfn main() => f(1, x: 2)\n");
  const auto& f = std::get<ForStmt>(top(*l, 0).data);
  ASSERT_TRUE(f.label.has_value());
  EXPECT_EQ(f.label->text, "outer");
  const FnDecl& fn = l->ast.get(std::get<FnStmt>(top(*l, 1).data).fn);
  ASSERT_EQ(fn.decorators.size(), 1u);
  const Decorator& d = fn.decorators[0];
  EXPECT_EQ(d.name.text, "server");
  EXPECT_TRUE(d.has_parens);
  ASSERT_EQ(d.args.size(), 2u);
  EXPECT_FALSE(d.args[0].name.has_value());
  EXPECT_EQ(d.args[1].name->text, "docs");
  const auto& ret = std::get<ReturnStmt>(l->ast.get(l->ast.get(fn.body).stmts[0]).data);
  const auto& call = expr_as<CallExpr>(*l, ret.value);
  ASSERT_EQ(call.args.size(), 2u);
  EXPECT_EQ(call.args[1].name->text, "x");
  EXPECT_EQ(text_of(*l, call.args_span), "(1, x: 2)");
}

TEST(Lower, StringPartsAndFormatSpecs) {
  auto l = lower("let s = \"a{x}b{y:>8.2f}\\n\"\n");
  const auto& s = expr_as<StrLit>(*l, std::get<AssignStmt>(top(*l, 0).data).value);
  ASSERT_EQ(s.parts.size(), 5u);
  EXPECT_EQ(s.parts[0].text, "a");
  EXPECT_TRUE(s.parts[1].is_hole());
  EXPECT_EQ(s.parts[3].format_spec, ">8.2f");
  EXPECT_EQ(text_of(*l, s.parts[3].format_span), ">8.2f");
  EXPECT_EQ(s.parts[4].text, "\n");
}

TEST(Lower, StatusReturnAndImports) {
  auto l = lower("import a.b as c\nfrom m import x, y as z\nfn h() {\n  return 404 {\"error\": \"x\"}\n}\n");
  const auto& imp = std::get<ImportStmt>(top(*l, 0).data);
  ASSERT_EQ(imp.path.size(), 2u);
  EXPECT_EQ(imp.alias->text, "c");
  const auto& from = std::get<FromImportStmt>(top(*l, 1).data);
  ASSERT_EQ(from.names.size(), 2u);
  EXPECT_EQ(from.names[1].alias->text, "z");
  const FnDecl& fn = l->ast.get(std::get<FnStmt>(top(*l, 2).data).fn);
  const auto& sr = std::get<StatusReturnStmt>(l->ast.get(l->ast.get(fn.body).stmts[0]).data);
  EXPECT_EQ(expr_as<IntLit>(*l, sr.status).value, 404);
  EXPECT_TRUE(diagnostics(*l).empty());
}

// ---- Syntax errors: message, kind and exact position ----------------------------------------------

TEST(SyntaxErrors, Semicolon) {
  auto l = lower("let a = 1; let b = 2\n");
  EXPECT_EQ(diagnostics(*l), std::vector<std::string>{"1:10 E0008 unexpected character `;`"});
  const Diagnostic& d = *l->diags.begin();
  EXPECT_EQ(d.hint, "statements end at a newline; there is no `;`");
  // Both statements survive around the ErrorStmt that stands for the `;`.
  ASSERT_EQ(l->ast.top_level.size(), 3u);
  EXPECT_TRUE(std::holds_alternative<AssignStmt>(top(*l, 0).data));
  EXPECT_TRUE(std::holds_alternative<ErrorStmt>(top(*l, 1).data));
  EXPECT_TRUE(std::holds_alternative<AssignStmt>(top(*l, 2).data));
}

TEST(SyntaxErrors, StructLiteralInConditionPointsAtTheTypeName) {
  EXPECT_EQ(diagnostics("if Point { x: 0 } == p {\n}\n"),
            std::vector<std::string>{
                "1:4 E0024 struct literals are not allowed directly in an `if` condition; wrap it in parentheses"});
  EXPECT_EQ(diagnostics("while Point { x: 0 }.ok {\n}\n").at(0).substr(0, 9), "1:7 E0024");
  EXPECT_EQ(diagnostics("for p in P { a: 1 } {\n}\n").at(0).substr(0, 10), "1:10 E0024");
  EXPECT_TRUE(diagnostics("if (Point { x: 0 }) == p {\n}\n").empty());
  EXPECT_TRUE(diagnostics("if f(Point { x: 0 }) {\n}\n").empty());
}

TEST(SyntaxErrors, DecoratorColonHasHintAndFix) {
  auto l = lower("@server(port: 8080)\nfn main() => 0\n");
  ASSERT_EQ(l->diags.size(), 1u);
  const Diagnostic& d = *l->diags.begin();
  EXPECT_EQ(d.kind, DiagKind::DecoratorColonArgument);
  EXPECT_EQ(l->source->line_col(d.span.begin), (LineCol{1, 13}));
  EXPECT_EQ(d.hint, "write `port=8080`");
  ASSERT_EQ(d.fixes.size(), 1u);
  EXPECT_EQ(text_of(*l, d.fixes[0].span), ": ");
  EXPECT_EQ(d.fixes[0].replacement, "=");
}

TEST(SyntaxErrors, MissingOperandPointsJustPastTheLine) {
  EXPECT_EQ(diagnostics("let t = 1 +\n"), std::vector<std::string>{"1:12 E0023 expected an expression after `+`"});
  EXPECT_EQ(diagnostics("fn f() {\n  let x = 2 *\n}\n"),
            std::vector<std::string>{"2:14 E0023 expected an expression after `*`"});
  EXPECT_EQ(diagnostics("let y = (1 -)\n"), std::vector<std::string>{"1:13 E0023 expected an expression after `-`"});
}

TEST(SyntaxErrors, UnclosedBlockNamesTheOpenerAndLabelsIt) {
  auto l = lower("fn f() {\n  print(1)\n");
  ASSERT_EQ(l->diags.size(), 1u);
  const Diagnostic& d = *l->diags.begin();
  EXPECT_EQ(d.kind, DiagKind::UnclosedDelimiter);
  EXPECT_EQ(d.message, "expected `}` to close the block opened at 1:8");
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(l->source->line_col(d.labels[0].span.begin), (LineCol{1, 8}));
}

TEST(SyntaxErrors, UnclosedArgumentList) {
  EXPECT_EQ(diagnostics("print(1, 2\n"),
            std::vector<std::string>{"1:11 E0021 expected `)` to close the argument list opened at 1:6"});
}

TEST(SyntaxErrors, ThreeErrorsThreeDiagnostics) {
  auto d = diagnostics("let a = 1;\nlet b = (2 +)\nlet c = \"open\nprint(a)\n");
  ASSERT_EQ(d.size(), 3u) << testing::PrintToString(d);
  EXPECT_EQ(d[0].substr(0, 9), "1:10 E000");
  EXPECT_EQ(d[1].substr(0, 10), "2:13 E0023");
  EXPECT_EQ(d[2].substr(0, 9), "3:9 E0002");
}

TEST(SyntaxErrors, LexicalErrors) {
  EXPECT_EQ(diagnostics("let a = 1\nlet b = a $ 2\n"), std::vector<std::string>{"2:11 E0001 unexpected character `$`"});
  EXPECT_EQ(diagnostics("let s = \"abc\nlet t = 1\n").at(0), "1:9 E0002 unterminated string");
  EXPECT_EQ(diagnostics("let a = 1\n/* open\nlet b = 2\n"),
            std::vector<std::string>{"2:1 E0003 unterminated block comment"});
  EXPECT_EQ(diagnostics("let s = \"x\\qy\"\n"), std::vector<std::string>{"1:11 E0004 unknown escape sequence `\\q`"});
  EXPECT_EQ(diagnostics("let n = 1__0\n").at(0).substr(0, 10), "1:10 E0005");
  EXPECT_EQ(diagnostics("let n = 99999999999999999999\n").at(0).substr(0, 9), "1:9 E0006");
  EXPECT_EQ(diagnostics("let b = b\"\\u{41}\"\n").at(0).substr(0, 10), "1:11 E0007");
  EXPECT_EQ(diagnostics("let v = \"\xFF\"\nlet w = \xFF\n").size(), 1u);
}

TEST(SyntaxErrors, StringHoles) {
  EXPECT_EQ(diagnostics("print(\"a {} b\")\n").at(0), "1:10 E0026 empty interpolation `{}` in a string");
  EXPECT_EQ(diagnostics("print(\"a } b\")\n").at(0), "1:10 E0027 unmatched `}` in a string");
  EXPECT_EQ(diagnostics("print(\"a {x\")\n").at(0).substr(0, 10), "1:10 E0028");
  EXPECT_EQ(diagnostics("print(\"{x:.2q}\")\n").at(0).substr(0, 10), "1:13 E0029");
}

TEST(SyntaxErrors, ChecksOfTheSyntax) {
  EXPECT_EQ(diagnostics("let r = 1..2..3\n").at(0), "1:13 E0030 range operators cannot be chained");
  EXPECT_EQ(diagnostics("let r = Ok(1, 2)\n").at(0).substr(0, 9), "1:9 E0031");
  EXPECT_EQ(diagnostics("match x {\n  1 | n => n\n}\n").at(0), "2:7 E0032 an or-pattern cannot bind `n`");
  EXPECT_TRUE(diagnostics("match x {\n  Ok(_) | Err(_) => 0\n  1 | 2 => 1\n}\n").empty());
  EXPECT_EQ(diagnostics("fn f(a = 1, b) {}\n").at(0).substr(0, 10), "1:13 E0033");
  EXPECT_TRUE(diagnostics("fn f(a, b = 1, ...rest) {}\n").empty());
  EXPECT_EQ(diagnostics("fn f(...a, b) {}\n").at(0).substr(0, 9), "1:6 E0034");
  EXPECT_EQ(diagnostics("fn f(a, a) {}\n").at(0), "1:9 E0035 parameter `a` is declared twice");
  EXPECT_EQ(diagnostics("@server(8080, docs=true, docs=false)\nfn m() => 0\n").at(0).substr(0, 10), "1:26 E0036");
  EXPECT_EQ(diagnostics("f(a: 1, 2)\n").at(0).substr(0, 9), "1:9 E0037");
  EXPECT_EQ(diagnostics("fn h() {\n  return 700 {}\n}\n").at(0), "2:10 E0038 status code 700 is outside 100..599");
  EXPECT_EQ(diagnostics("f() = 1\n").at(0), "1:1 E0040 cannot assign to a call");
  EXPECT_EQ(diagnostics("let fn = 1\n").at(0), "1:5 E0041 expected a name, found keyword `fn`");
  EXPECT_EQ(diagnostics("static fn f() {}\n").at(0).substr(0, 9), "1:1 E0042");
  EXPECT_EQ(diagnostics("match x {\n  1.5..2.5 => 0\n}\n").at(0).substr(0, 9), "2:3 E0043");
}

TEST(SyntaxErrors, OneDiagnosticPerBrokenStatement) {
  // Error recovery produces several ERROR/MISSING nodes here; the user sees one message each.
  EXPECT_EQ(diagnostics("let x = [1, 2\nlet y = 3\n").size(), 1u);
  EXPECT_EQ(diagnostics("if x == 1 print(x)\n").size(), 1u);
  EXPECT_EQ(diagnostics("match x {\n  1 \"a\"\n  _ => 2\n}\n"),
            std::vector<std::string>{"2:5 E0020 expected `=>` after the match pattern, found a string"});
}

// ---- Limits ---------------------------------------------------------------------------------------------

TEST(Limits, DeepNestingIsReportedOnce) {
  std::string parens = "let x = " + std::string(10000, '(') + "1" + std::string(10000, ')') + "\n";
  auto d = diagnostics(parens);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].find("E0039 expression nested too deeply"), std::string::npos);
  std::string chain = "let x = a";
  for (int i = 0; i < 100000; ++i) chain += " + a";
  chain += "\n";
  d = diagnostics(chain);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].find("E0039"), std::string::npos);
  // Below the limit nothing is reported and the chain is left-deep.
  std::string ok = "let x = a";
  for (int i = 0; i < 500; ++i) ok += " + a";
  EXPECT_TRUE(diagnostics(ok + "\n").empty());
}

TEST(Dump, IsDeterministicAndShowsPositions) {
  auto l = lower("let total = 1 + 2\n");
  std::string a = dump_ast(l->ast, *l->source);
  std::string b = dump_ast(l->ast, *l->source);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a,
            "Module\n"
            "  Let @1:1\n"
            "    target: Name total @1:5\n"
            "    value: Binary + @1:13\n"
            "      Int 1 @1:13\n"
            "      Int 2 @1:17\n");
}

}  // namespace
}  // namespace fitz::frontend
