// The Checker's internal state, shared by the check_*.cpp files (one per construct). Nothing
// here is part of the checker's interface: other phases read the TypedProgram only.
#pragma once

#include <fmt/format.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>

#include "checker/checker.h"

namespace fitz::checker::detail {

using namespace frontend;

// Date, DateTime and Uuid: built-in value types with a text form (check_values.cpp).
bool is_date_value(const TypeStore& types, TypeId t);

// A cookie name the runtime accepts: an RFC 7230 token (check_http.cpp; the runtime's
// fitz::http::is_cookie_name decides the same at run time).
bool is_cookie_token(std::string_view name);

// Variables known not to be null in a region: SymbolId.index -> the non-null type. Copied at
// every branch, so a map that allocates nothing while empty (the common case).
using Narrowing = llvm::DenseMap<uint32_t, TypeId>;

// Variables by name. A name read inside a function is looked for in its scope, then in each
// enclosing one and the module's names: NameInfo lets all those maps take a name hashed once
// (HashedName, through find_as) instead of hashing it again per map.
struct HashedName {
  llvm::StringRef text;
  unsigned hash;
};
struct NameInfo : llvm::DenseMapInfo<llvm::StringRef> {
  using Base = llvm::DenseMapInfo<llvm::StringRef>;
  using Base::getHashValue;
  using Base::isEqual;
  static HashedName hashed(llvm::StringRef text) { return {text, Base::getHashValue(text)}; }
  static unsigned getHashValue(const HashedName& n) { return n.hash; }
  static bool isEqual(const HashedName& a, llvm::StringRef b) { return Base::isEqual(a.text, b); }
};

// Definite assignment: which variables of one function scope are assigned on every path here.
struct FlowState {
  // Copied at every branch and join: up to 128 variables per function stay off the heap.
  llvm::SmallVector<uint64_t, 2> bits;
  bool unreachable = false;

  bool test(uint32_t slot) const {
    return unreachable || (slot / 64 < bits.size() && (bits[slot / 64] >> (slot % 64)) & 1);
  }
  void set(uint32_t slot) {
    if (bits.size() <= slot / 64) bits.resize(slot / 64 + 1);
    bits[slot / 64] |= uint64_t(1) << (slot % 64);
  }
  // The state after two paths join.
  static FlowState meet(const FlowState& a, const FlowState& b) {
    if (a.unreachable) return b;
    if (b.unreachable) return a;
    FlowState r;
    r.bits.resize(std::min(a.bits.size(), b.bits.size()));
    for (size_t i = 0; i < r.bits.size(); ++i) r.bits[i] = a.bits[i] & b.bits[i];
    return r;
  }
};

struct LoopCtx {
  std::string_view label;  // without the quote; empty when unlabelled
  bool is_loop_expr = false;
  TypeId break_type;       // LUB of `break value`s (loop expressions)
  std::vector<ExprId> break_values;
  FlowState at_break;      // meet of the states at each `break`
  bool any_break = false;
};

// One function body (or a module's top level) being checked.
struct FnScope {
  FnScope* parent = nullptr;  // enclosing scope; the module scope is the root
  bool is_module = false;
  bool is_lambda = false;
  FnId fn;
  FnInfo* info = nullptr;
  StructId owner;             // methods
  bool is_static = false;
  bool is_async = false;
  bool is_handler = false;
  bool allows_status = false;
  TypeId declared_ret;        // invalid when the return type is inferred
  TypeId inferred_ret;        // LUB of the `return`s seen so far
  std::vector<ExprId> return_values;  // for conversions once the inferred type is known
  // Names are views into the module's source text, which outlives the check. A function has
  // a few variables and a DenseMap's first allocation is 64 buckets, so both maps start inline.
  llvm::SmallDenseMap<llvm::StringRef, SymbolId, 8, NameInfo> vars;  // params and locals (globals at top level)
  llvm::SmallDenseMap<uint32_t, uint32_t, 8> slot_of;      // SymbolId.index -> DA slot
  FlowState flow;
  std::vector<LoopCtx> loops;
  std::vector<std::pair<std::string_view, SymbolId>> shadows;  // comprehension variables
  Narrowing narrowed;
};

// How diagnostics name a callee: "function `f`", "method `T.m`", "`f`" or "this function".
// Kept in parts and spelled out only when a diagnostic is reported, since almost every call
// reports none. Names are views into the AST or the built-in table (both outlive the check);
// a type or symbol is named by id because the stores holding their names may grow meanwhile.
struct CalleeName {
  CalleeName(std::string_view kind, std::string_view name = {}, StructId owner = {}, SymbolId symbol = {})
      : kind(kind), name(name), owner(owner), symbol(symbol) {}
  std::string_view kind;  // "function", "method", "field"; empty for "`f`"; the whole text when
                          // neither name nor symbol is set
  std::string_view name;
  StructId owner;         // the `T` of "method `T.m`"
  SymbolId symbol;        // names the callee instead of `name` when valid
};

// A parameter as bind_args sees it: its name views a ParamInfo or BuiltinParam, which outlive
// the binding.
struct ParamSlot {
  std::string_view name;
  bool has_default = false;
};
// Parameter lists and argument bindings: on the stack for the usual handful of parameters.
using ParamSlots = llvm::SmallVector<ParamSlot, 8>;
using ArgBinding = llvm::SmallVector<int, 8>;  // argument index -> parameter index, -1 unbound

// What a bare name resolves to.
struct Lookup {
  enum Kind { None, Var, Field, Method, Symbol };
  Lookup() = default;
  Lookup(Kind k, SymbolId s, FnScope* sc = nullptr, StructId o = StructId(), uint32_t i = 0)
      : kind(k), sym(s), scope(sc), owner(o), index(i) {}
  Kind kind = None;
  SymbolId sym;
  FnScope* scope = nullptr;  // Var: the scope that owns it
  StructId owner;            // Field, Method
  uint32_t index = 0;
};

class Checker {
 public:
  // With `reuse` (an incremental re-check), its program is moved in instead of building a new
  // type store, builtins table and builtin symbols.
  Checker(const ModuleGraph& graph, const SourceManager& sources, DiagnosticBag& out,
          const CheckOptions& options, TypedProgram* reuse = nullptr);
  TypedProgram run();

  // ---- module driver (check_module.cpp) ----
  void check_module(ModuleId id);
  void collect_top_level();
  void prescan_scope(FnScope& scope, const std::vector<StmtId>& stmts, const FnDecl* fn);
  void prescan_block(FnScope& scope, BlockId b, std::vector<std::pair<Ident, bool>>& out,
                     std::vector<std::pair<Ident, TypeExprId>>& annotated, int depth);
  void prescan_stmt(FnScope& scope, StmtId s, std::vector<std::pair<Ident, bool>>& out,
                    std::vector<std::pair<Ident, TypeExprId>>& annotated, int depth);
  void prescan_expr(FnScope& scope, ExprId e, std::vector<std::pair<Ident, bool>>& out,
                    std::vector<std::pair<Ident, TypeExprId>>& annotated, int depth);
  void prescan_pattern(PatternId p, std::vector<std::pair<Ident, bool>>& out);
  SymbolId make_var(FnScope& scope, const Ident& name, SymbolKind kind);
  void run_pass();
  void build_interface();
  void report_unused(FnScope& scope);
  bool module_ready(ModuleId id) const;

  // ---- declarations (check_decls.cpp) ----
  TypeId resolve_type(TypeExprId id);
  void declare_struct(TypeDeclId id);
  void resolve_struct(TypeDeclId id);
  void declare_fn_signature(FnId id, StructId owner, uint32_t method_index);
  FnInfo& fn_info(FnId id) { return tir_->fns[id.index]; }
  void ensure_fn_checked(FnId id);
  void check_fn_body(FnId id, FnScope* parent, TypeId expected_fn);
  void check_imports();
  SymbolId resolve_import_target(SymbolId sym);

  // ---- statements and flow (check_stmts.cpp) ----
  TypeId check_block(BlockId b, ExprId* value_expr = nullptr);
  void check_stmt(StmtId s, bool is_last, TypeId* block_value, ExprId* value_expr);
  void check_assign(const Stmt& stmt, const AssignStmt& a);
  void check_annotated(StmtId stmt, const AnnotatedAssignStmt& a);
  // `own`: the variable `name` of the current scope (invalid if none), which the caller has
  // already looked up.
  void assign_name(const Ident& name, SymbolId own, ExprId target, ExprId value, TypeId value_type, bool is_let);
  void assign_var(SymbolId sym, FnScope* owner, ExprId value, TypeId value_type, Span at);
  void check_return(const ReturnStmt& r);
  void check_status_return(const StatusReturnStmt& r);
  void check_break(const BreakStmt& b);
  void check_continue(const ContinueStmt& c);
  void check_while(const WhileStmt& w);
  void check_for(const ForStmt& f);
  TypeId iter_elem_type(ExprId iterable, TypeId t, bool tuple_pattern, const char* what);
  LoopCtx* find_loop(const std::optional<Ident>& label, Span keyword, std::string_view what);
  void mark_assigned(SymbolId sym);
  void check_decorator_args(const std::vector<Decorator>& decorators);
  void check_condition(ExprId cond, std::string_view what);
  // Variables that `cond` proves non-null when it evaluates to `when_true`.
  std::vector<std::pair<SymbolId, TypeId>> non_null_when(ExprId cond, bool when_true);
  void note_return_type(TypeId t, ExprId value, Span at);

  // ---- expressions (check_exprs.cpp) ----
  TypeId check_expr(ExprId e, TypeId expected = TypeId());
  TypeId check_expr_inner(ExprId e, const Expr& expr, TypeId expected);
  TypeId check_name(ExprId e, const NameRef& n);
  TypeId check_str(const StrLit& s);
  void check_format_spec(ExprId hole, TypeId t, std::string_view spec, Span spec_span);
  TypeId check_list(ExprId e, const ListExpr& l, TypeId expected);
  TypeId check_map(ExprId e, const MapExpr& m, TypeId expected);
  TypeId check_unary(ExprId e, const UnaryExpr& u);
  TypeId check_binary(ExprId e, const BinaryExpr& b);
  TypeId binary_result(BinaryOp op, Span op_span, ExprId lhs, TypeId l, ExprId rhs, TypeId r);
  TypeId check_range(const RangeExpr& r);
  TypeId check_field(ExprId e, const FieldExpr& f);
  TypeId check_tuple_index(ExprId e, const TupleIndexExpr& t);
  TypeId check_index(ExprId e, const IndexExpr& i);
  TypeId check_slice(ExprId e, const SliceExpr& s);
  TypeId check_await(ExprId e, const AwaitExpr& a);
  TypeId check_try(ExprId e, const TryExpr& t, TypeId expected = TypeId());
  TypeId check_if(ExprId e, const IfExpr& i, TypeId expected);
  TypeId check_loop(ExprId e, const LoopExpr& l);
  TypeId check_comprehension(ExprId e, const Expr& expr);
  TypeId check_struct_lit(ExprId e, const StructLit& s);
  TypeId check_lambda(ExprId e, const LambdaExpr& l, TypeId expected);
  TypeId member_type(ExprId e, ExprId object, TypeId obj, const Ident& field, bool for_call);
  TypeId check_member_object(ExprId object);  // the `x` of `x.f` / `x.f(...)`
  Lookup lookup(std::string_view name, bool for_assign = false);
  TypeId read_var(ExprId e, SymbolId sym, FnScope* owner, Span at);
  TypeId symbol_value_type(ExprId e, SymbolId sym, Span at);
  bool can_access_private(StructId owner) const;
  std::string null_check_hint(ExprId object) const;

  // ---- calls (check_calls.cpp) ----
  TypeId check_call(ExprId e, const CallExpr& c, TypeId expected = TypeId());
  TypeId call_user_fn(ExprId e, const CallExpr& c, CallInfo& info, const std::vector<ParamInfo>& params,
                      TypeId fn_type, const CalleeName& what, Span name_span);
  TypeId call_fn_value(ExprId e, const CallExpr& c, CallInfo& info, TypeId fn_type, const CalleeName& what,
                       Span name_span);
  TypeId call_builtin(ExprId e, const CallExpr& c, CallInfo& info, BuiltinId id, TypeId receiver,
                      ExprId receiver_expr, Span name_span, TypeId expected = TypeId());
  // The net rules of the built-in table (check_net.cpp): bodies with a wire form, literal
  // option maps, and the declared type `r.json()` decodes into.
  void check_http_body(ExprId arg, TypeId got);
  void check_http_options(ExprId arg);
  void check_smtp_options(ExprId arg);
  bool bind_json_target(const BuiltinSig& sig, TypeId expected, std::vector<TypeId>& bind, Span name_span);
  TypeId call_method(ExprId e, const CallExpr& c, const FieldExpr& f, CallInfo& info, TypeId expected = TypeId());
  void check_args_dynamic(const CallExpr& c);
  bool bind_args(const CallExpr& c, const ParamSlots& params, int variadic, const CalleeName& what, Span name_span,
                 ArgBinding& arg_param);
  std::string callee_text(const CalleeName& what) const;
  Diagnostic& arg_mismatch(ExprId arg, size_t position, const std::optional<Ident>& name, std::string_view what,
                    TypeId want, TypeId got);
  uint32_t add_call(ExprId e, CallInfo info);

  // ---- Python values (check_python.cpp) ----
  void note_python();  // the function being checked works on Python values
  void py_args(const CallExpr& c);
  TypeId py_call(ExprId e, const CallExpr& c, CallInfo& info);
  TypeId py_binary(BinaryOp op, Span op_span, ExprId lhs, TypeId l, ExprId rhs, TypeId r);
  // Reports E0701 when `t` is Py where `where` needs a known type; true if it did.
  bool py_needs_type(ExprId e, TypeId t, std::string_view where);

  // ---- patterns and match (check_match.cpp) ----
  TypeId check_match(ExprId e, const MatchExpr& m, TypeId expected);
  void bind_pattern(PatternId p, TypeId t, bool refutable_ok, std::string_view context);
  bool pattern_irrefutable(PatternId p) const;
  bool pattern_covers_null(PatternId p) const;

  // ---- decorators (check_decorators.cpp) ----
  void check_decorators_fn(const FnDecl& fn, bool is_method);
  void check_decorators_type(const TypeDecl& t);
  void check_decorators_field(const FieldDecl& f);
  bool check_decorator(const Decorator& d, int target, const FnDecl* fn);
  // A request body limit: an Int or a size string (byte_size.h), else E0541.
  void check_body_size(ExprId e, std::string_view what);
  void check_static_dirs(ExprId e);
  void check_login_path(ExprId e);
  // ---- @command functions (check_cli.cpp) ----
  void check_command(const FnDecl& fn, const Decorator& command);
  std::string command_name(const FnDecl& fn, const Decorator& command) const;
  // Whether module `id` declares routes, WebSocket endpoints, jobs or other handlers that join
  // the program because the module is imported (so `import m` alone is a use of it).
  bool registers_handlers(ModuleId id) const;

  // ---- HTTP handlers, middleware and health checks (check_http.cpp) ----
  void check_handler_binding(const FnDecl& fn, const Decorator& route, bool live = false);  // records tir_->handlers (live: live_handlers)
  bool user_type_matches(TypeId t, const std::string& user_type) const;
  HttpMethod route_method(const Decorator& route) const;
  void check_auth_provider(const FnDecl& fn, const Decorator& dec);
  void check_http_fn(FnId id);  // decorator arguments whose types are known only after checking them
  // ---- jobs (check_jobs.cpp) ----
  void check_job_fn(FnId id);  // @cron signatures, schedules and retry policies
  void check_retry_policy(const Decorator& dec);
  // ---- WebSocket endpoints (check_ws.cpp) ----
  void check_ws_fn(FnId id);  // @ws paths, parameters and middleware
  void check_spawn_arg(ExprId spawn, const CallExpr& c);  // records the target in spawn_targets
  void check_middleware_arg(ExprId arg, const FnInfo& handler);
  void check_cors_arg(const CallExpr& call, Span at);
  // Whether values of `t` have a JSON form (decode: can be read from a request body). `why`
  // names the offending part.
  bool json_type_ok(TypeId t, bool decode, std::string& why, int depth = 0);
  bool is_builtin_struct(TypeId t, std::string_view name) const;
  // ---- Date, DateTime, Uuid (check_values.cpp) ----
  // Rules of the value built-ins a signature cannot say (a literal format string).
  void check_value_builtin_args(const BuiltinEntry& entry, const CallExpr& c);
  void check_cookie_options(const BuiltinEntry& entry, const CallExpr& c);
  // `<` and friends on two values of one date type; false when `l`/`r` are not date values.
  bool date_comparison(TypeId l, TypeId r, Span op_span);

  // ---- helpers ----
  Diagnostic& error(DiagKind kind, Span span, std::string message);
  Diagnostic& warning(DiagKind kind, Span span, std::string message);
  std::string show(TypeId t) const { return types_->display(t); }
  void set_type(ExprId e, TypeId t) { tir_->expr_types[e.index] = t; }
  void set_conv(ExprId e, TypeId from, TypeId to);
  bool coerce(ExprId e, TypeId from, TypeId to);  // records the conversion; false if incompatible
  const Expr& expr(ExprId e) const { return ast_->get(e); }
  Span span_of(ExprId e) const { return ast_->get(e).span; }
  std::string_view text(Span s) const;
  std::optional<std::string> closest(std::string_view name, const std::vector<std::string_view>& candidates) const;
  std::vector<std::string_view> visible_names() const;
  Symbol& sym(SymbolId id) { return prog_.symbol(id); }
  TypeId block_type_value(BlockId b);

  // ---- state ----
  const ModuleGraph& graph_;
  const SourceManager& sources_;
  DiagnosticBag& out_;
  CheckOptions options_;
  TypedProgram prog_;
  TypeStore* types_ = nullptr;
  std::vector<std::tuple<ModuleId, std::string, Span>> commands_;  // @command names, in order
  Builtins* builtins_ = nullptr;
  std::vector<uint8_t> module_state_;  // 0 not started, 1 in progress, 2 done

  // The module being checked.
  ModuleId mod_;
  const frontend::Module* m_ = nullptr;
  const Ast* ast_ = nullptr;
  const SourceFile* file_ = nullptr;
  ModuleTir* tir_ = nullptr;
  DiagnosticBag decl_diags_;  // reported once per module (declarations, decorators)
  DiagnosticBag pass_diags_;  // reported by the current pass; only the last pass is kept
  DiagnosticBag* diags_ = nullptr;
  llvm::DenseMap<llvm::StringRef, SymbolId, NameInfo> module_names_;  // iteration order is arbitrary
  llvm::DenseMap<uint32_t, SymbolId> symbol_at_;  // declaration offset -> symbol, across passes
  std::unordered_map<uint32_t, std::vector<std::pair<Ident, TypeExprId>>> annotations_;  // scope key
  std::vector<uint8_t> read_untyped_;  // SymbolId.index -> read before it had a type
  FnScope module_scope_;
  FnScope* scope_ = nullptr;
  std::vector<uint8_t> fn_in_progress_;  // by FnId
  std::vector<FnId> top_fns_;            // top-level fns and methods, in source order
  std::vector<FnScope*> scope_stack_;
  bool unstable_ = false;
  int pass_ = 0;
  int depth_ = 0;
  bool in_decorator_ = false;
  bool member_object_ = false;  // the name being checked is the object of `.member`
  int suggestions_ = 0;
  // Top-level names assigned exactly once from an Int literal (nullopt: assigned otherwise).
  std::unordered_map<std::string_view, std::optional<int64_t>> int_constants_;
  bool any_server_ = false;
  // registers_handlers() by ModuleId: 0 not known yet, 1 no, 2 yes. The graph is fixed for a
  // checker's lifetime, so an answer never goes stale.
  mutable std::vector<uint8_t> registers_memo_;
};

constexpr int kMaxDepth = 900;

}  // namespace fitz::checker::detail
