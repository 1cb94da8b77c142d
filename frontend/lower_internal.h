// Internals of lowering shared by lower*.cpp, syntax_errors.cpp and their unit tests: literal
// parsing (pure functions over token text) and the Lowerer that walks the tree-sitter tree.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"
#include "frontend/source.h"

namespace fitz::frontend::lowering {

// ---- Literals (lower_literals.cpp) ---------------------------------------------------------------

// A problem inside one literal token. Offsets are relative to the text that was passed in, so
// the caller adds the token's start to get a source span.
struct LiteralError {
  DiagKind kind;
  uint32_t begin = 0;
  uint32_t end = 0;
  std::string message;
  std::string hint;
};

// `1_000`, `007`, `0xff`, `0b1010`, `0o17`. Returns nullopt (and appends errors) when the
// text is malformed or the value does not fit in an i64.
std::optional<int64_t> parse_int_literal(std::string_view text, std::vector<LiteralError>& errors);

// `2.5`, `1e3`, `1.5E-2`, `1_000.5`. Returns nullopt (and appends errors) when malformed.
std::optional<double> parse_float_literal(std::string_view text, std::vector<LiteralError>& errors);

// Where escapes are decoded: a Str literal (interpolated `"..."` or `"""..."""`) or Bytes.
enum class StringFlavor : uint8_t { Str, Bytes };

// Decodes the escapes of one run of literal text (no quotes, no interpolation holes) and appends
// the result to `out`. For Str, a `}` that is not escaped is reported as a lone brace. Invalid
// escapes are reported with the span of the whole escape and decoded as nothing.
void decode_string_text(std::string_view text, StringFlavor flavor, std::string& out,
                        std::vector<LiteralError>& errors);

// Checks an interpolation format spec (the text after the hole's top-level `:`) against
// `[[fill]align][sign][#][0][width][,|_][.prec][type]`.
std::optional<LiteralError> check_format_spec(std::string_view spec);

// Appends `cp` as UTF-8.
void append_utf8(std::string& out, char32_t cp);

// The last token under `root` when it is a `/*` comment left open (it runs to the end of the
// text, or of the range parsed, so it is the last token); a null node otherwise. `text` is the
// whole source text.
TSNode open_block_comment_at_end(TSNode root, std::string_view text);

// True for node kinds that are whole statements.
enum class NodeKind : uint8_t;
bool is_statement_node(NodeKind k);

// True for the reserved words of Fitz (`fn`, `let`, `match`, ...), which cannot name anything.
bool is_keyword(std::string_view text);

// ---- Reading the source text around a syntax error (syntax_text.cpp) --------------------------------

// True when only blanks and a `//` comment separate `offset` from the end of its line.
bool at_line_end(std::string_view text, uint32_t offset);
// Just past the last non-blank character before `offset` (where a missing token belongs).
uint32_t back_over_blanks(std::string_view text, uint32_t offset);
// End of the text of the line holding `offset`, before a `//` comment and trailing blanks.
uint32_t line_content_end(std::string_view text, uint32_t offset);
bool line_break_between(std::string_view text, uint32_t from, uint32_t to);
// Only blanks, newlines and maybe a closing bracket or comma follow: an operand is missing.
bool at_end_of_expression(std::string_view text, uint32_t offset);
// The token that ends just before `offset`: a word or a run of up to three punctuation marks.
std::string_view token_before(std::string_view text, uint32_t offset);
// Whether a token can start with the scalar `cp`; `;`, `$`, `#`, `!`, `` ` ``, `\`, control
// characters and invalid UTF-8 cannot.
bool can_start_token(char32_t cp);
bool is_binary_operator_text(std::string_view t);

// The token that follows `offset` on the same line, read from the text (what comes after an
// ERROR node is not cheap to get from the tree).
struct NextToken {
  uint32_t begin = 0, end = 0;
  bool at_line_end = true;
  std::string_view text;
};
NextToken next_token(std::string_view text, uint32_t offset);

// ---- The grammar's vocabulary (lower.cpp) --------------------------------------------------------

// Node kinds of the tree-sitter grammar that lowering distinguishes, named after node-types.json.
// X(Enumerator, "grammar name", is_named)
#define FITZ_NODE_KINDS(X)                                              \
  X(SourceFile, "source_file", true)                                    \
  X(Block, "block", true)                                               \
  X(ExpressionStatement, "expression_statement", true)                  \
  X(LetStatement, "let_statement", true)                                \
  X(AnnotatedAssignment, "annotated_assignment", true)                  \
  X(Assignment, "assignment", true)                                     \
  X(CompoundAssignment, "compound_assignment", true)                    \
  X(ReturnStatement, "return_statement", true)                          \
  X(StatusReturn, "status_return", true)                                \
  X(BreakStatement, "break_statement", true)                            \
  X(ContinueStatement, "continue_statement", true)                      \
  X(WhileStatement, "while_statement", true)                            \
  X(ForStatement, "for_statement", true)                                \
  X(FunctionDefinition, "function_definition", true)                    \
  X(Parameters, "parameters", true)                                     \
  X(Parameter, "parameter", true)                                       \
  X(TypeDefinition, "type_definition", true)                            \
  X(TypeBody, "type_body", true)                                        \
  X(FieldDeclaration, "field_declaration", true)                        \
  X(Decorator, "decorator", true)                                       \
  X(DecoratorArguments, "decorator_arguments", true)                    \
  X(KeywordArgument, "keyword_argument", true)                          \
  X(DecoratorColonArgument, "decorator_colon_argument", true)           \
  X(ImportStatement, "import_statement", true)                          \
  X(FromImportStatement, "from_import_statement", true)                 \
  X(ModulePath, "module_path", true)                                    \
  X(ImportName, "import_name", true)                                    \
  X(DottedName, "dotted_name", true)                                    \
  X(NamedType, "named_type", true)                                      \
  X(GenericType, "generic_type", true)                                  \
  X(TypeArguments, "type_arguments", true)                              \
  X(NullableType, "nullable_type", true)                                \
  X(TupleType, "tuple_type", true)                                      \
  X(ParenthesizedType, "parenthesized_type", true)                      \
  X(FunctionType, "function_type", true)                                \
  X(FunctionTypeParameters, "function_type_parameters", true)           \
  X(BinaryExpression, "binary_expression", true)                        \
  X(RangeExpression, "range_expression", true)                          \
  X(UnaryExpression, "unary_expression", true)                          \
  X(FieldExpression, "field_expression", true)                          \
  X(MissingField, "missing_field", true)                                \
  X(TupleIndexExpression, "tuple_index_expression", true)               \
  X(AwaitExpression, "await_expression", true)                          \
  X(CallExpression, "call_expression", true)                            \
  X(Arguments, "arguments", true)                                       \
  X(NamedArgument, "named_argument", true)                              \
  X(IndexExpression, "index_expression", true)                          \
  X(SliceExpression, "slice_expression", true)                          \
  X(TryExpression, "try_expression", true)                              \
  X(StructLiteral, "struct_literal", true)                              \
  X(FieldInitializer, "field_initializer", true)                        \
  X(ParenthesizedExpression, "parenthesized_expression", true)          \
  X(Tuple, "tuple", true)                                               \
  X(List, "list", true)                                                 \
  X(Map, "map", true)                                                   \
  X(MapEntry, "map_entry", true)                                        \
  X(ListComprehension, "list_comprehension", true)                      \
  X(MapComprehension, "map_comprehension", true)                        \
  X(ForClause, "for_clause", true)                                      \
  X(IfClause, "if_clause", true)                                        \
  X(IfExpression, "if_expression", true)                                \
  X(MatchExpression, "match_expression", true)                          \
  X(MatchBody, "match_body", true)                                      \
  X(MatchArm, "match_arm", true)                                        \
  X(LoopExpression, "loop_expression", true)                            \
  X(Lambda, "lambda", true)                                             \
  X(OrPattern, "or_pattern", true)                                      \
  X(WildcardPattern, "wildcard_pattern", true)                          \
  X(NegativeLiteral, "negative_literal", true)                          \
  X(RangePattern, "range_pattern", true)                                \
  X(ResultPattern, "result_pattern", true)                              \
  X(TuplePattern, "tuple_pattern", true)                                \
  X(Identifier, "identifier", true)                                     \
  X(Label, "label", true)                                               \
  X(Integer, "integer", true)                                           \
  X(Float, "float", true)                                               \
  X(True, "true", true)                                                 \
  X(False, "false", true)                                               \
  X(Null, "null", true)                                                 \
  X(String, "string", true)                                             \
  X(Bytes, "bytes", true)                                               \
  X(StringContent, "string_content", true)                              \
  X(EscapeSequence, "escape_sequence", true)                            \
  X(Interpolation, "interpolation", true)                               \
  X(FormatSpec, "format_spec", true)                                    \
  X(Comment, "comment", true)                                           \
  X(TokPlus, "+", false)                                                \
  X(TokMinus, "-", false)                                               \
  X(TokStar, "*", false)                                                \
  X(TokSlash, "/", false)                                               \
  X(TokPercent, "%", false)                                             \
  X(TokEqEq, "==", false)                                               \
  X(TokNotEq, "!=", false)                                              \
  X(TokLt, "<", false)                                                  \
  X(TokLe, "<=", false)                                                 \
  X(TokGt, ">", false)                                                  \
  X(TokGe, ">=", false)                                                 \
  X(TokAnd, "and", false)                                               \
  X(TokOr, "or", false)                                                 \
  X(TokXor, "xor", false)                                               \
  X(TokAmp, "&", false)                                                 \
  X(TokPipe, "|", false)                                                \
  X(TokCaret, "^", false)                                               \
  X(TokShl, "<<", false)                                                \
  X(TokShr, ">>", false)                                                \
  X(TokNot, "not", false)                                               \
  X(TokTilde, "~", false)                                               \
  X(TokPlusEq, "+=", false)                                             \
  X(TokMinusEq, "-=", false)                                            \
  X(TokStarEq, "*=", false)                                             \
  X(TokSlashEq, "/=", false)                                            \
  X(TokAmpEq, "&=", false)                                              \
  X(TokPipeEq, "|=", false)                                             \
  X(TokCaretEq, "^=", false)                                            \
  X(TokShlEq, "<<=", false)                                             \
  X(TokShrEq, ">>=", false)                                             \
  X(TokDotDot, "..", false)                                             \
  X(TokDotDotEq, "..=", false)                                          \
  X(TokEllipsis, "...", false)                                          \
  X(TokQuote, "\"", false)                                              \
  X(TokTripleQuote, "\"\"\"", false)                                    \
  X(TokBytesQuote, "b\"", false)                                        \
  X(TokLBrace, "{", false)                                              \
  X(TokRBrace, "}", false)                                              \
  X(TokLParen, "(", false)                                              \
  X(TokRParen, ")", false)                                              \
  X(TokLBracket, "[", false)                                            \
  X(TokRBracket, "]", false)                                            \
  X(TokEq, "=", false)                                                  \
  X(TokColon, ":", false)                                               \
  X(TokComma, ",", false)                                               \
  X(TokDot, ".", false)                                                 \
  X(TokFatArrow, "=>", false)                                           \
  X(TokArrow, "->", false)                                              \
  X(TokQuestion, "?", false)                                            \
  X(TokAt, "@", false)                                                  \
  X(KwLet, "let", false)                                                \
  X(KwReturn, "return", false)                                          \
  X(KwBreak, "break", false)                                            \
  X(KwContinue, "continue", false)                                      \
  X(KwWhile, "while", false)                                            \
  X(KwFor, "for", false)                                                \
  X(KwIn, "in", false)                                                  \
  X(KwFn, "fn", false)                                                  \
  X(KwStatic, "static", false)                                          \
  X(KwAsync, "async", false)                                            \
  X(KwType, "type", false)                                              \
  X(KwImport, "import", false)                                          \
  X(KwFrom, "from", false)                                              \
  X(KwAs, "as", false)                                                  \
  X(KwIf, "if", false)                                                  \
  X(KwElse, "else", false)                                              \
  X(KwMatch, "match", false)                                            \
  X(KwLoop, "loop", false)                                              \
  X(KwAwait, "await", false)                                            \
  X(KwOk, "Ok", false)                                                  \
  X(KwErr, "Err", false)                                                \
  X(KwFnType, "Fn", false)

enum class NodeKind : uint8_t {
  Other,  // a symbol lowering has no use for (hidden helpers, newline tokens)
  Error,  // tree-sitter's ERROR
#define FITZ_NODE_KIND_ENUM(Name, Text, Named) Name,
  FITZ_NODE_KINDS(FITZ_NODE_KIND_ENUM)
#undef FITZ_NODE_KIND_ENUM
};

// What ts_node_is_null tells, without a call into the library for every node: a null node is
// one without a subtree.
inline bool is_null(TSNode n) { return n.id == nullptr; }

// Symbol and field ids of the Fitz language, looked up by name once per process.
struct Grammar {
  static constexpr TSSymbol kErrorSymbol = TSSymbol(-1);  // tree-sitter's builtin ERROR symbol
  std::vector<NodeKind> kinds;  // indexed by TSSymbol
  TSFieldId f_alias, f_alternative, f_arguments, f_async, f_body, f_condition, f_consequence,
      f_decorator, f_default, f_element, f_end, f_expression, f_field, f_format_spec, f_function,
      f_guard, f_index, f_iterable, f_key, f_kind, f_label, f_left, f_name, f_object, f_operand,
      f_operator, f_parameters, f_path, f_pattern, f_return_type, f_right, f_start, f_static,
      f_status, f_type, f_value, f_variadic;

  static const Grammar& get();
  NodeKind kind(TSNode n) const {
    if (is_null(n)) return NodeKind::Other;
    TSSymbol s = ts_node_symbol(n);
    if (s == kErrorSymbol) return NodeKind::Error;
    return s < kinds.size() ? kinds[s] : NodeKind::Other;
  }
};

// ---- Iterating children without quadratic sibling walks ------------------------------------------

// tree-sitter 0.20's ts_node_child(i) and ts_node_next_sibling are linear in the sibling index,
// so children are visited with a cursor; cursors are pooled per nesting level and reused.
class CursorPool {
 public:
  CursorPool() = default;
  CursorPool(const CursorPool&) = delete;
  CursorPool& operator=(const CursorPool&) = delete;
  ~CursorPool();
  TSTreeCursor* acquire(TSNode node);
  void release() { --depth_; }

 private:
  std::vector<TSTreeCursor*> cursors_;
  size_t depth_ = 0;
};

// Calls f(child, 0) for every child of `node`, in order (anonymous tokens included). Children
// are told apart by kind: ts_tree_cursor_current_field_id is not constant time in tree-sitter
// 0.20 (it grows with the length of a list), so fields are read with ts_node_child_by_field_id.
template <class F>
void for_each_child(CursorPool& pool, TSNode node, F&& f) {
  if (ts_node_child_count(node) == 0) return;
  TSTreeCursor* c = pool.acquire(node);
  if (ts_tree_cursor_goto_first_child(c)) {
    do {
      f(ts_tree_cursor_current_node(c), TSFieldId(0));
    } while (ts_tree_cursor_goto_next_sibling(c));
  }
  pool.release();
}

// ---- The lowerer (lower.cpp: statements and declarations; lower_expr.cpp: expressions,
// strings and patterns; syntax_errors.cpp: ERROR and MISSING nodes) --------------------------------

// Deeper nesting than this (brackets, blocks, operator chains) is reported and not lowered, so
// neither lowering nor any later recursive walk over the AST can exhaust the stack.
inline constexpr uint32_t kMaxNesting = 1000;

// One top-level item (a statement node of the root) of an AST lowered from a tree without
// syntax errors. Lowering appends an item's nodes to every table in one run, so each item owns a
// contiguous range of each table: [lo, hi) per table, in the order top_level, exprs, stmts,
// patterns, types, blocks, fns, type_decls.
struct ItemExtent {
  uint32_t begin = 0, end = 0;  // bytes of the item's node
  TSSymbol symbol = 0;
  uint32_t lo[8] = {}, hi[8] = {};
};

// The items of `previous`, an AST lowered without diagnostics from the tree whose root is
// `previous_root`. Every node's span lies inside its item's bytes, so the ranges are found by
// binary search and then verified; empty when they do not hold (nothing is reused then).
std::vector<ItemExtent> item_extents(const Ast& previous, TSNode previous_root);

// Moves `item` of `previous` (lowered from `previous_text`) to the end of `into`, whose text is
// `text` and file `file`, as lowering the same item text at byte `begin` of `text` would have
// built it: ids renumbered to `into`'s tables, spans and names moved (lower_reuse.cpp).
void move_item(Ast& previous, const ItemExtent& item, std::string_view previous_text, Ast& into, std::string_view text,
               FileId file, uint32_t begin);

class Lowerer {
 public:
  Lowerer(const SourceFile& source, FileId file, DiagnosticBag& diags);
  Ast run(TSNode root);
  // With the previous AST of the same file (lowered from `previous_text`, whose tree's root is
  // `previous_root`, without diagnostics), the items whose text is unchanged are moved out of
  // it instead of lowered again.
  Ast run_reusing(TSNode root, Ast& previous, std::string_view previous_text, TSNode previous_root);
  // A file parsed in pieces (piece_parse.cpp), none with a syntax error: reserve_tables() once,
  // lower_top_level() for each piece's root in order, then take() the AST.
  void reserve_tables();
  void lower_top_level(TSNode root) { lower_statements(root, ast_.top_level); }
  Ast take() { return std::move(ast_); }

  // ---- shared helpers
  Span span(TSNode n) const { return Span{file_, ts_node_start_byte(n), ts_node_end_byte(n)}; }
  Span span(uint32_t begin, uint32_t end) const { return Span{file_, begin, end}; }
  std::string_view text(TSNode n) const { return text(span(n)); }
  std::string_view text(Span sp) const;
  NodeKind kind(TSNode n) const { return g_.kind(n); }
  // The child in field `id`, or a null node.
  TSNode field(TSNode n, TSFieldId id) const { return ts_node_child_by_field_id(n, id); }
  Ident ident(TSNode n);  // reports keywords used as names
  Ident ident(Span sp);   // the same for the name at `sp`, which is not a MISSING node
  // First child token of `kind` (e.g. the `fn` keyword), or a null node.
  TSNode token(TSNode n, NodeKind kind);
  // The span of the first child token of `kind`, whose text is `word`, or `absent` when there is
  // none. They are used on nodes whose grammar begins (ends) with that token or with a label: when
  // such a node has no syntax error and its text (span `sp`) begins (ends) with `word`, that is the
  // token, and its span is read from the text instead of searched for among the children.
  Span leading_token(TSNode n, Span sp, NodeKind kind, std::string_view word, Span absent);
  Span trailing_token(TSNode n, Span sp, NodeKind kind, std::string_view word, Span absent);
  // The span of the `=` between `before` and `after`, children of `n`, or of the first child
  // token of kind `=` when the text between them is more than blanks around one `=`.
  Span equals_between(TSNode n, TSNode before, TSNode after, Span absent);
  void report_literal_errors(const std::vector<LiteralError>& errors, uint32_t base);

  // Depth guard: true when entering one more level is allowed; reports once past the limit.
  bool enter(TSNode n);
  void report_too_deep(TSNode n);
  void leave() { --depth_; }

  // ---- statements and declarations (lower.cpp)
  void lower_statements(TSNode container, std::vector<StmtId>& out);
  void lower_statement(TSNode n, std::vector<StmtId>& out);
  bool broken_statement(TSNode n);
  // The node's data goes straight into the statement: through a StmtData parameter every
  // statement would be moved twice more. (An aggregate, so not emplaced: clang before 16 has no
  // parenthesised aggregate initialisation.)
  template <class T>
  StmtId stmt(Span sp, T&& data) {
    ast_.stmts.push_back(Stmt{sp, std::forward<T>(data)});
    return StmtId(uint32_t(ast_.stmts.size() - 1));
  }
  BlockId lower_block(TSNode n);
  BlockId single_stmt_block(Span sp, StmtId s);
  FnId lower_function(TSNode n, bool in_type, bool is_lambda);
  void lower_params(TSNode params, std::vector<Param>& out);
  std::vector<Decorator> lower_decorators(TSNode n);
  TypeDeclId lower_type_definition(TSNode n);
  TypeExprId lower_type(TSNode n);
  std::optional<Ident> label_of(TSNode n);

  // ---- expressions and patterns (lower_expr.cpp)
  ExprId lower_expr(TSNode n);
  // As statements are.
  template <class T>
  ExprId expr(Span sp, T&& data) {
    ast_.exprs.push_back(Expr{sp, std::forward<T>(data)});
    return ExprId(uint32_t(ast_.exprs.size() - 1));
  }
  ExprId error_expr(Span sp) { return expr(sp, ErrorExpr{}); }
  ExprId lower_expr_or_error(TSNode n, Span fallback);
  ExprId lower_binary_chain(TSNode n);
  ExprId keyword_as_expression(TSNode n);
  // The span of the member name of a field expression spanning `sp`, when it can be read from
  // the text (see lower_expr.cpp).
  std::optional<Span> member_after_dot(Span sp) const;
  ExprId lower_string(TSNode n);
  ExprId lower_bytes(TSNode n);
  ExprId lower_call(TSNode n);
  ExprId lower_if(TSNode n);
  ExprId lower_match(TSNode n);
  ExprId lower_int(TSNode n, bool negate, Span sp);
  ExprId lower_float(TSNode n, bool negate, Span sp);
  void lower_comprehension(TSNode n, std::vector<CompClause>& clauses, ExprId& filter);
  PatternId lower_pattern(TSNode n);
  PatternId pattern(Span sp, PatternData data);
  // Reports a struct literal written directly in an if/while/for/match head.
  void check_head(TSNode head, std::string_view construct);
  // Reports a refutable pattern (literal, range, Ok/Err) used as a `for` or comprehension variable.
  void check_loop_pattern(PatternId id, std::string_view construct);

  // ---- syntax errors (syntax_errors.cpp)
  void report_syntax_errors(TSNode root);
  void check_trailing_comment(TSNode root);

  const SourceFile& source_;
  FileId file_;
  DiagnosticBag& diags_;
  const Grammar& g_;
  Ast ast_;
  CursorPool cursors_;
  std::vector<TSNode> chain_;  // the left spines of the binary chains being lowered, innermost last
  uintptr_t stack_floor_ = 0;  // lowering stops nesting before the stack pointer gets below this
  uint32_t depth_ = 0;
  uint32_t fn_nesting_ = 0;  // functions being lowered around the current node (0: top level)
  bool reported_too_deep_ = false;
  // Statements starting at or after this offset are inside an unterminated block comment.
  uint32_t comment_cutoff_ = UINT32_MAX;
};

}  // namespace fitz::frontend::lowering
