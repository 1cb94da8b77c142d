// The formatter's rules one at a time: each test formats a small input and compares with the
// exact expected text (which must itself be stable under formatting).
#include <gtest/gtest.h>

#include <string>

#include "format/format.h"

namespace fitz::format {
namespace {

void check(const std::string& input, const std::string& expected) {
  auto out = format_text(input);
  ASSERT_TRUE(out.has_value()) << "refused:\n" << input << "\nunchecked:\n" << format_unchecked(input);
  EXPECT_EQ(*out, expected) << "input:\n" << input;
  EXPECT_EQ(format_text(expected).value_or("<refused>"), expected) << "expected text is not stable";
}

// ---- spacing and statements ----------------------------------------------------------------

TEST(FormatRules, SpacesOperatorsAndIndentsFourSpaces) {
  check("let x=1+2*3\nif x>2{\nprint( x )\n}\n", "let x = 1 + 2 * 3\nif x > 2 {\n    print(x)\n}\n");
}

TEST(FormatRules, KeepsPrefixAndRangeOperatorsTight) {
  check("let a = - x\nlet b = not  done\nlet r = 0 .. 10\nlet s = xs[ 1 ..= 2 ]\n",
        "let a = -x\nlet b = not done\nlet r = 0..10\nlet s = xs[1..=2]\n");
}

TEST(FormatRules, EmptyFileStaysEmpty) { check("", ""); }

TEST(FormatRules, EndsWithOneNewline) { check("print(1)", "print(1)\n"); }

TEST(FormatRules, CrlfBecomesLf) { check("let a = 1\r\n\r\nlet b = 2\r\n", "let a = 1\n\nlet b = 2\n"); }

TEST(FormatRules, RefusesSyntaxErrors) {
  EXPECT_FALSE(format_text("let a = 1; let b = 2\n").has_value());
  EXPECT_FALSE(format_text("fn f( {\n").has_value());
}

// ---- blank lines ---------------------------------------------------------------------------

TEST(FormatRules, AtMostOneBlankLine) {
  check("let a = 1\n\n\n\nlet b = 2\n", "let a = 1\n\nlet b = 2\n");
}

TEST(FormatRules, NoBlankLinesAtBlockEdges) {
  check("fn f() {\n\n    let a = 1\n\n}\n", "fn f() {\n    let a = 1\n}\n");
}

TEST(FormatRules, BlankLineAroundTopLevelFunctionsAndTypes) {
  check("let a = 1\nfn f() => 1\nfn g() => 2\ntype T {\n    x: Int\n}\nlet b = 2\n",
        "let a = 1\n\nfn f() => 1\n\nfn g() => 2\n\ntype T {\n    x: Int\n}\n\nlet b = 2\n");
}

TEST(FormatRules, CommentStaysAttachedToTheFunctionBelow) {
  check("let a = 1\n// Doubles.\nfn f(x) => x * 2\n", "let a = 1\n\n// Doubles.\nfn f(x) => x * 2\n");
}

TEST(FormatRules, NoForcedBlankLinesInsideBlocks) {
  check("fn f() {\n    fn g() => 1\n    return g()\n}\n", "fn f() {\n    fn g() => 1\n    return g()\n}\n");
}

// ---- comments ------------------------------------------------------------------------------

TEST(FormatRules, LineCommentGetsASpace) { check("//x\nlet a = 1 //y\n", "// x\nlet a = 1  // y\n"); }

TEST(FormatRules, TrailingCommentsTwoSpacesAway) {
  check("let a = 1      // one\nlet b = 2// two\n", "let a = 1  // one\nlet b = 2  // two\n");
}

TEST(FormatRules, BlockCommentsRaw) {
  check("/*  keep   this\n      as is */\nlet a = 1 /* inline */ + 2\n",
        "/*  keep   this\n      as is */\nlet a = 1 /* inline */ + 2\n");
}

TEST(FormatRules, CommentBeforeClosingBrace) {
  check("fn f() {\n    let a = 1\n      // last words\n}\n", "fn f() {\n    let a = 1\n    // last words\n}\n");
  check("fn f() {\n// only a comment\n}\n", "fn f() {\n    // only a comment\n}\n");
}

TEST(FormatRules, CommentAtEndOfFile) {
  check("let a = 1\n\n\n// the end\n", "let a = 1\n\n// the end\n");
  check("// only\n", "// only\n");
}

TEST(FormatRules, CommentsInsideArguments) {
  check("f(a, // first\n  b)\n", "f(\n    a,  // first\n    b,\n)\n");
  check("f(\n    // about a\n    a, b)\n", "f(\n    // about a\n    a,\n    b,\n)\n");
}

TEST(FormatRules, CommentAfterLastElementStaysOutsideTheComma) {
  check("let xs = [\n    1,\n    2 // two\n]\n", "let xs = [\n    1,\n    2,  // two\n]\n");
}

TEST(FormatRules, CommentInsideAChain) {
  check("let ys = xs\n    // evens\n    .filter(fn(x) => x % 2 == 0)\n    .map(fn(x) => x)\n",
        "let ys = xs\n    // evens\n    .filter(fn(x) => x % 2 == 0)\n    .map(fn(x) => x)\n");
}

TEST(FormatRules, CommentAfterABinaryOperator) {
  check("let t = a +  // why\n    b\n", "let t = a +  // why\n    b\n");
}

TEST(FormatRules, CommentsInTypesAndMatches) {
  check("type P {\n    x: Int // the x\n    // about y\n    y: Int\n}\n",
        "type P {\n    x: Int  // the x\n    // about y\n    y: Int\n}\n");
  check("let m = match a {\n    1 => \"one\", // first\n    _ => \"other\"\n}\n",
        "let m = match a {\n    1 => \"one\"  // first\n    _ => \"other\"\n}\n");
}

// ---- wrapping ------------------------------------------------------------------------------

TEST(FormatRules, ShortCallsStayOnOneLineWithoutTrailingComma) {
  check("print(\n    1,\n    2,\n)\n", "print(1, 2)\n");
}

TEST(FormatRules, LongArgumentsOnePerLineWithTrailingComma) {
  check("print(first_argument_value, second_argument_value, third_argument_value, fourth_argument_value_is_here_now)\n",
        "print(\n    first_argument_value,\n    second_argument_value,\n    third_argument_value,\n"
        "    fourth_argument_value_is_here_now,\n)\n");
}

TEST(FormatRules, WrapsAtOneHundredColumns) {
  std::string fits = "print(\"" + std::string(88, 'a') + "\", 1)\n";  // 100 columns
  ASSERT_EQ(fits.size(), 101u);
  check(fits, fits);
  std::string over = "print(\"" + std::string(89, 'a') + "\", 1)\n";
  check(over, "print(\n    \"" + std::string(89, 'a') + "\",\n    1,\n)\n");
}

TEST(FormatRules, LongChainBreaksBeforeEachDot) {
  check("let r = users.filter(fn(u) => u.active and u.age > 18).map(fn(u) => u.name.upper()).sorted().take(10)\n",
        "let r = users\n    .filter(fn(u) => u.active and u.age > 18)\n    .map(fn(u) => u.name.upper())\n"
        "    .sorted()\n    .take(10)\n");
}

TEST(FormatRules, ShortChainStaysFlat) {
  check("print(words\n    .map(fn(w) => w.upper())\n    .len())\n", "print(words.map(fn(w) => w.upper()).len())\n");
}

TEST(FormatRules, LongListAndMapWrap) {
  check("let m = {\"host\": \"localhost\", \"port\": 8080, \"debug\": true, \"name\": \"a-very-long-service-name-indeed\", \"n\": 30}\n",
        "let m = {\n    \"host\": \"localhost\",\n    \"port\": 8080,\n    \"debug\": true,\n"
        "    \"name\": \"a-very-long-service-name-indeed\",\n    \"n\": 30,\n}\n");
  check("let xs = [first_element_value, second_element_value, third_element_value, fourth_element_value_that_is_long]\n",
        "let xs = [\n    first_element_value,\n    second_element_value,\n    third_element_value,\n"
        "    fourth_element_value_that_is_long,\n]\n");
}

TEST(FormatRules, UserMultiLineLiteralsStayMultiLine) {
  check("let xs = [\n    1, 2]\n", "let xs = [\n    1,\n    2,\n]\n");
  check("let p = Point {\n    x: 1, y: 2 }\n", "let p = Point {\n    x: 1,\n    y: 2,\n}\n");
  check("let xs = [1, 2,]\n", "let xs = [1, 2]\n");
}

TEST(FormatRules, LastLambdaArgumentHugsTheCall) {
  check("app.get(\"/x\", fn(req) {\n    return 1\n})\n", "app.get(\"/x\", fn(req) {\n    return 1\n})\n");
  check("print(xs.map(fn(x) {\nreturn x * 2\n}))\n", "print(xs.map(fn(x) {\n    return x * 2\n}))\n");
}

TEST(FormatRules, LongConditionBreaksAfterOperators) {
  check("if user_is_authenticated and user_has_permission(resource, \"write\") and not resource.is_locked_for_writing() {\n    go()\n}\n",
        "if user_is_authenticated and\n    user_has_permission(resource, \"write\") and\n    not resource.is_locked_for_writing() {\n"
        "    go()\n}\n");
}

TEST(FormatRules, LongParametersOnePerLine) {
  check("fn handler(request: Request, database: DbConn, settings: Map<Str, Str>, verbose: Bool) -> Response {}\n",
        "fn handler(\n    request: Request,\n    database: DbConn,\n    settings: Map<Str, Str>,\n    verbose: Bool,\n"
        ") -> Response {}\n");
}

TEST(FormatRules, LongFromImportGetsParentheses) {
  check("from models.accounts import User, Account, Session, Permission, Role, Group, Membership, Invitation\n",
        "from models.accounts import User, Account, Session, Permission, Role, Group, Membership, Invitation\n");
  check("from models.accounts import User, Account, Session, Permission, Role, Group, Membership, InvitationCodes\n",
        "from models.accounts import (\n    User,\n    Account,\n    Session,\n    Permission,\n    Role,\n    Group,\n"
        "    Membership,\n    InvitationCodes,\n)\n");
  check("from m import (a,\n    b)\n", "from m import a, b\n");
}

// ---- forms kept as written -----------------------------------------------------------------

TEST(FormatRules, ArrowBodiesStayArrows) {
  check("fn f(x: Int) -> Int => x * 2\nlet g = fn(x) => x + 1\n", "fn f(x: Int) -> Int => x * 2\n\nlet g = fn(x) => x + 1\n");
}

TEST(FormatRules, OneLineBlocksStayWhenTheyFit) {
  check("let x = if a { 1 } else { 2 }\n", "let x = if a { 1 } else { 2 }\n");
  check("if a {\n    return 1\n}\n", "if a {\n    return 1\n}\n");
}

TEST(FormatRules, TypesOneFieldPerLine) {
  check("type P { x: Int, y: Int = 0 }\n", "type P {\n    x: Int\n    y: Int = 0\n}\n");
}

TEST(FormatRules, DecoratorsOnTheirOwnLines) {
  check("@get(\"/x\") @auth(roles = [\"admin\"]) fn h() => 1\n", "@get(\"/x\")\n@auth(roles=[\"admin\"])\nfn h() => 1\n");
}

TEST(FormatRules, ParameterDecoratorsStayOnTheParameter) {
  check("@command\nfn resize(@arg( help = \"img\" ) path: Str,@flag(short=\"w\")  width: Int=640) {}\n",
        "@command\nfn resize(@arg(help=\"img\") path: Str, @flag(short=\"w\") width: Int = 640) {}\n");
}

TEST(FormatRules, CjkAndHangulIdentifiers) {
  check("let 名前=\"x\"\nfn 더하기(가:Int,나:Int)=>가+나\n", "let 名前 = \"x\"\n\nfn 더하기(가: Int, 나: Int) => 가 + 나\n");
}

TEST(FormatRules, StringsAndInterpolationsUntouched) {
  check("let s = \"{ a+b }  x\"\nlet t = \"\"\"\n  raw\n    text\"\"\"\n",
        "let s = \"{ a+b }  x\"\nlet t = \"\"\"\n  raw\n    text\"\"\"\n");
}

TEST(FormatRules, SingleElementTupleKeepsItsComma) { check("let t = ( 1, )\nlet u = ()\n", "let t = (1,)\nlet u = ()\n"); }

}  // namespace
}  // namespace fitz::format
