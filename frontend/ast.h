// The abstract syntax tree of one Fitz module: flat vectors of nodes addressed by typed ids.
// Lowering (lower.cpp) builds it from the tree-sitter tree; the checker reads it, never mutates it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "frontend/ids.h"
#include "frontend/source.h"

namespace fitz::frontend {

using ExprId = Id<struct ExprTag>;
using StmtId = Id<struct StmtTag>;
using PatternId = Id<struct PatternTag>;
using TypeExprId = Id<struct TypeExprTag>;
using BlockId = Id<struct BlockTag>;
using FnId = Id<struct FnTag>;
using TypeDeclId = Id<struct TypeDeclTag>;

// A name as written, pointing into the module's source text (which outlives the AST).
struct Ident {
  std::string_view text;
  Span span;
};

enum class UnaryOp : uint8_t { Neg, Not, BitNot };
enum class BinaryOp : uint8_t {
  Add, Sub, Mul, Div, Mod,
  Eq, Ne, Lt, Le, Gt, Ge,
  And, Or, Xor,
  BitAnd, BitOr, BitXor, Shl, Shr,
};
std::string_view spelling(UnaryOp op);
std::string_view spelling(BinaryOp op);

// ---- Expressions -------------------------------------------------------------------------

struct IntLit { int64_t value; };
struct FloatLit { double value; };
struct BoolLit { bool value; };
struct NullLit {};
// One piece of a string literal: literal text (escapes already decoded) or an interpolation hole.
struct StrPart {
  std::string text;          // used when hole is invalid
  ExprId hole;               // valid for `{expr}` and `{expr:spec}`
  std::string_view format_spec;  // text after the top-level `:`, empty when absent
  Span format_span;
  bool is_hole() const { return hole.valid(); }
};
struct StrLit { std::vector<StrPart> parts; bool triple_quoted = false; };
struct BytesLit { std::string bytes; };
struct NameRef { Ident name; };
struct TupleExpr { std::vector<ExprId> elems; };
struct ListExpr { std::vector<ExprId> elems; };
struct MapEntry { ExprId key; ExprId value; };
struct MapExpr { std::vector<MapEntry> entries; };
struct CompClause { PatternId pattern; ExprId iterable; };
struct ListComp { ExprId elem; std::vector<CompClause> clauses; ExprId filter; };
struct MapComp { ExprId key; ExprId value; std::vector<CompClause> clauses; ExprId filter; };
struct UnaryExpr { UnaryOp op; Span op_span; ExprId operand; };
struct BinaryExpr { BinaryOp op; Span op_span; ExprId lhs; ExprId rhs; };
// `a..b`, `a..=b`; either end may be absent only inside a slice.
struct RangeExpr { ExprId start; ExprId end; bool inclusive; Span op_span; };
struct FieldExpr { ExprId object; Ident field; };
struct TupleIndexExpr { ExprId object; uint32_t index; Span index_span; };
struct AwaitExpr { ExprId operand; Span await_span; };
struct TryExpr { ExprId operand; Span op_span; };  // postfix `?`
struct Arg { std::optional<Ident> name; ExprId value; };
struct CallExpr { ExprId callee; std::vector<Arg> args; Span args_span; };
struct IndexExpr { ExprId object; ExprId index; };
struct SliceExpr { ExprId object; ExprId start; ExprId end; bool inclusive; };
struct FieldInit { Ident name; ExprId value; };
// `Name { f: v }`. Written directly in an if/while/for/match head it is a syntax error that
// the lowering reports; the node is kept so that checking can go on.
struct StructLit { Ident type_name; std::vector<FieldInit> fields; };
// `Ok(e)` and `Err(e)` are syntax, not calls.
struct ResultExpr { bool is_ok; ExprId value; Span keyword_span; };
struct IfExpr {
  ExprId condition;
  BlockId then_block;
  BlockId else_block;  // `else if` is an else block holding one expression statement
  Span if_span;
};
struct MatchArm {
  PatternId pattern;
  ExprId guard;
  // The arm's body is always a block: `=> expr` becomes a block of one expression statement
  // (marked arrow_body) and `=> return x` a block of one return statement.
  BlockId body;
  Span span;
  bool arrow_body = false;  // written `=> expr` (or `=> return ...`), not `=> { ... }`
};
struct MatchExpr { ExprId scrutinee; std::vector<MatchArm> arms; Span match_span; };
struct LoopExpr { std::optional<Ident> label; BlockId body; Span loop_span; };
struct LambdaExpr { FnId fn; };
// Produced where the source could not be parsed; the checker gives it type Any silently.
struct ErrorExpr {};

using ExprData =
    std::variant<IntLit, FloatLit, BoolLit, NullLit, StrLit, BytesLit, NameRef, TupleExpr,
                 ListExpr, MapExpr, ListComp, MapComp, UnaryExpr, BinaryExpr, RangeExpr,
                 FieldExpr, TupleIndexExpr, AwaitExpr, TryExpr, CallExpr, IndexExpr, SliceExpr,
                 StructLit, ResultExpr, IfExpr, MatchExpr, LoopExpr, LambdaExpr, ErrorExpr>;

struct Expr {
  Span span;
  ExprData data;
};

// ---- Patterns (match arms, for variables, let destructuring) -----------------------------

struct WildcardPat {};
struct BindPat { Ident name; };
struct LiteralPat { ExprId literal; };  // Int/Float (maybe negated), Str, Bool or Null literal
struct RangePat { int64_t lo; int64_t hi; bool inclusive; };
struct ResultPat { bool is_ok; PatternId inner; };
struct TuplePat { std::vector<PatternId> elems; };
struct OrPat { std::vector<PatternId> alternatives; };
struct ErrorPat {};
using PatternData =
    std::variant<WildcardPat, BindPat, LiteralPat, RangePat, ResultPat, TuplePat, OrPat, ErrorPat>;
struct Pattern {
  Span span;
  PatternData data;
};

// ---- Type expressions ----------------------------------------------------------------------

// `Int`, `List<T>`, `geometry.Rect`: path holds every segment, the last one is the type name.
struct NamedType { std::vector<Ident> path; std::vector<TypeExprId> args; };
struct NullableType { TypeExprId inner; };
struct TupleType { std::vector<TypeExprId> elems; };
struct FnType { std::vector<TypeExprId> params; TypeExprId result; };
struct ErrorType {};
using TypeExprData = std::variant<NamedType, NullableType, TupleType, FnType, ErrorType>;
struct TypeExpr {
  Span span;
  TypeExprData data;
};

// ---- Declarations ----------------------------------------------------------------------------

struct DecoratorArg {
  std::optional<Ident> name;  // keyword argument `name=value`
  ExprId value;
};
struct Decorator {
  Ident name;  // without the `@`
  std::vector<DecoratorArg> args;
  bool has_parens = false;
  Span span;
};

struct Param {
  Ident name;
  TypeExprId type;     // invalid: unannotated (Any)
  ExprId default_value;
  bool variadic = false;
  std::vector<Decorator> decorators;  // `@flag(short="w") width: Int = 640` in a `@command`
  Span span;                          // from `...` or the name, without the decorators
};

struct FnDecl {
  std::optional<Ident> name;  // absent for lambdas
  std::vector<Param> params;
  TypeExprId return_type;     // invalid: not annotated
  BlockId body;
  bool arrow_body = false;    // `=> expr`: body is one return statement
  bool is_async = false;
  bool is_static = false;     // `static fn` inside a type
  std::vector<Decorator> decorators;
  Span span;
  Span keyword_span;          // the `fn` keyword
};

struct FieldDecl {
  Ident name;
  TypeExprId type;
  ExprId default_value;
  std::vector<Decorator> decorators;
  Span span;
};

struct TypeDecl {
  Ident name;
  std::vector<FieldDecl> fields;
  std::vector<FnId> methods;
  std::vector<Decorator> decorators;
  Span span;
};

// ---- Statements ------------------------------------------------------------------------------

// `let x = e`, `x = e`, `a.f = e`, `xs[i] = e`, `x += e`. target is a NameRef, FieldExpr or
// IndexExpr expression. compound holds the operator of `OP=`.
struct AssignStmt {
  ExprId target;
  ExprId value;
  std::optional<BinaryOp> compound;
  Span op_span;
  bool is_let = false;
};
// `x: T = e` and `let x: T = e`
struct AnnotatedAssignStmt { Ident name; TypeExprId type; ExprId value; bool is_let = false; };
// `let (a, b) = e`
struct LetPatternStmt { PatternId pattern; ExprId value; };
struct ExprStmt { ExprId expr; };
struct ReturnStmt { ExprId value; Span keyword_span; };  // value invalid: bare `return`
// `return 404 {"error": "x"}`: status is an Int literal or a name.
struct StatusReturnStmt { ExprId status; ExprId body; Span keyword_span; };
struct BreakStmt { std::optional<Ident> label; ExprId value; Span keyword_span; };
struct ContinueStmt { std::optional<Ident> label; Span keyword_span; };
struct WhileStmt { std::optional<Ident> label; ExprId condition; BlockId body; Span keyword_span; };
struct ForStmt {
  std::optional<Ident> label;
  PatternId pattern;
  ExprId iterable;
  BlockId body;
  Span keyword_span;
};
struct FnStmt { FnId fn; };
struct TypeStmt { TypeDeclId type; };
struct ImportStmt { std::vector<Ident> path; std::optional<Ident> alias; };
// `name` is the first part of a dotted name (`xml` of `xml.etree.ElementTree`), `rest` the others.
struct ImportName { Ident name; std::optional<Ident> alias; std::vector<Ident> rest; };
struct FromImportStmt { std::vector<Ident> path; std::vector<ImportName> names; };
struct ErrorStmt {};

using StmtData =
    std::variant<AssignStmt, AnnotatedAssignStmt, LetPatternStmt, ExprStmt, ReturnStmt,
                 StatusReturnStmt, BreakStmt, ContinueStmt, WhileStmt, ForStmt, FnStmt, TypeStmt,
                 ImportStmt, FromImportStmt, ErrorStmt>;
struct Stmt {
  Span span;
  StmtData data;
};

struct Block {
  std::vector<StmtId> stmts;
  Span span;
};

// ---- The module ------------------------------------------------------------------------------

struct Ast {
  FileId file;
  std::vector<StmtId> top_level;

  std::vector<Expr> exprs;
  std::vector<Stmt> stmts;
  std::vector<Pattern> patterns;
  std::vector<TypeExpr> types;
  std::vector<Block> blocks;
  std::vector<FnDecl> fns;
  std::vector<TypeDecl> type_decls;

  const Expr& get(ExprId id) const { return exprs[id.index]; }
  const Stmt& get(StmtId id) const { return stmts[id.index]; }
  const Pattern& get(PatternId id) const { return patterns[id.index]; }
  const TypeExpr& get(TypeExprId id) const { return types[id.index]; }
  const Block& get(BlockId id) const { return blocks[id.index]; }
  const FnDecl& get(FnId id) const { return fns[id.index]; }
  const TypeDecl& get(TypeDeclId id) const { return type_decls[id.index]; }

  ExprId add(Expr e) { exprs.push_back(std::move(e)); return ExprId(uint32_t(exprs.size() - 1)); }
  StmtId add(Stmt s) { stmts.push_back(std::move(s)); return StmtId(uint32_t(stmts.size() - 1)); }
  PatternId add(Pattern p) {
    patterns.push_back(std::move(p));
    return PatternId(uint32_t(patterns.size() - 1));
  }
  TypeExprId add(TypeExpr t) { types.push_back(std::move(t)); return TypeExprId(uint32_t(types.size() - 1)); }
  BlockId add(Block b) { blocks.push_back(std::move(b)); return BlockId(uint32_t(blocks.size() - 1)); }
  FnId add(FnDecl f) { fns.push_back(std::move(f)); return FnId(uint32_t(fns.size() - 1)); }
  TypeDeclId add(TypeDecl t) {
    type_decls.push_back(std::move(t));
    return TypeDeclId(uint32_t(type_decls.size() - 1));
  }
};

}  // namespace fitz::frontend
