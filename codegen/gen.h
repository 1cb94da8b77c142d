// The generator's internal state, shared by the emit_*.cpp files: program-wide naming, the
// module and function being emitted, and the text being written.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "checker/tir.h"
#include "codegen/codegen.h"
#include "frontend/ast.h"

namespace fitz::codegen {

using namespace fitz::frontend;
using checker::CallInfo;
using checker::CallKind;
using checker::ConvKind;
using checker::FnInfo;
using checker::ModuleTir;
using checker::Ref;
using checker::RefKind;
using checker::StructId;
using checker::Symbol;
using checker::SymbolId;
using checker::SymbolKind;
using checker::TypeId;
using checker::TypeKind;

class Gen {
 public:
  Gen(const checker::TypedProgram& program, const ModuleGraph& graph, const SourceManager& sources,
      const GenOptions& options);
  GenResult run();

  // ---- types (emit_types.cpp)
  std::string cpp_type(TypeId t);
  std::string struct_name(StructId id);  // fully qualified C++ name of a user struct
  bool is_user_struct(TypeId t) const;

  // ---- names
  std::string ns(ModuleId m) const { return "fz" + std::to_string(m.index); }
  std::string sym_ref(SymbolId id);  // an expression naming the symbol's storage
  std::string local_name(SymbolId id) const;
  std::string fn_name(const FnInfo& f) const;

  // ---- declarations (emit_decls.cpp)
  void emit_struct_decls();
  void emit_struct_defs();
  void emit_fn_protos();
  void emit_fn_defs();
  void emit_globals();
  void emit_inits();
  void emit_main();
  bool emit_cli_main();  // `@command` programs (emit_cli.cpp); false when there are none
  bool declares_tests(ModuleId m) const;
  // `http`: the hm_ version a request runs; `html`: its handler answers text/html.
  void emit_fn(FnId id, const std::string& qualified_name, bool is_lambda_body, bool http = false, bool html = false);
  std::string fn_signature(FnId id, const std::string& name, bool with_param_names);
  std::string default_arg(const FnInfo& callee_info, ModuleId module, FnId fn, uint32_t param);

  // ---- HTTP services (emit_http.cpp, emit_json.cpp)
  // Routes, middleware, the server and health checks come from the service model
  // (prog_.service); collect_http lists the functions emitted a second time as hm_*.
  struct HttpFnRef {
    ModuleId module;
    FnId fn;
    bool html = false;  // a route handler answered as text/html (checker::Route::returns_html)
  };
  void collect_http();
  void add_http_fn(HttpFnRef h);  // once per function, in the order first added
  static uint64_t http_fn_key(ModuleId m, FnId f) { return uint64_t(m.index) << 32 | f.index; }

  // ---- jobs (emit_jobs.cpp): read from prog_.service.cron / .background
  void collect_jobs();
  std::string job_value(ModuleId m, ExprId e);  // a decorator argument of module m as Any (invalid: null)
  void emit_job_decls();   // BackgroundJob descriptors
  bool emit_jobs_main();   // main() with a JobRunner; false without @cron jobs
  std::string spawn_call(ExprId id, const CallExpr& c);
  bool has_http() const { return !prog_.service.routes.empty() || !ws_routes_.empty() || has_live(); }
  bool has_live() const { return options_.views && (!prog_.service.live.empty() || has_embeds()) && !options_.test_mode; }
  // Any `live_embed` call in a handler (checker: ModuleTir::live_embeds).
  bool has_embeds() const {
    for (const ModuleTir& m : prog_.modules)
      if (!m.live_embeds.empty()) return true;
    return false;
  }
  // A long-running service (routes or cron jobs): its main() also answers `migrate`.
  bool is_service() const { return has_http() || !prog_.service.cron.empty(); }
  // ---- `APP migrate` (emit_migrations.cpp): emits the embedded migration files and returns
  // the statement that opens main() with the `migrate` dispatch.
  std::string emit_migrate_entry();
  bool http_mode_fn(ModuleId m, FnId f) const;  // emitted a second time as a handler/middleware
  // A route handler's plain twin (f_*) is emitted only when something can call it: Fitz code
  // names it, or the service model runs it other than as a route (collect_called_fns).
  bool plain_twin_needed(ModuleId m, FnId f) const;
  void collect_called_fns();
  void emit_http_prelude();
  void emit_http_fns();       // hm_* versions of handlers and middleware (answers, not values)
  void emit_http_wrappers();  // per route: bind, call, respond; per middleware: adapt
  void emit_http_serve();     // the App: config, routes, middleware, CORS, health, OpenAPI
  void emit_builtin_structs();
  void emit_json_codecs();    // JsonDecode per boundary type, JsonEncode for @hidden fields

  // ---- Python interop (emit_python.cpp)
  void emit_python_codecs();  // FromPy per user type; JSON for a Py a handler returns
  void emit_python_imports(Span stmt);  // the imports of one `from python import` statement
  std::string py_binary(BinaryOp op, const std::string& a, const std::string& b, Span at);
  std::string http_fn_signature(FnId id, const std::string& name);
  bool embeds_request(FnId id) const;
  // `Html`, `Html?` or `Result<Html, E>`: a handler answering with it sends a text/html page.
  std::string status_return(const StatusReturnStmt& s, Span at);
  std::optional<std::string> literal_str_fields(ExprId body);

  // ---- built-in modules as the object of `m.member` (emit_modules.cpp)
  std::string builtin_value_ref(const std::string& name, Span at);
  // ---- observability and flags (emit_observe.cpp)
  std::optional<std::string> builtin_module_of(ExprId object);  // `log`, `flags`, `db`, ...
  std::optional<std::string> observe_call(ExprId id, const CallExpr& c);  // log.* and flags.*
  std::string flag_defaults();           // `[flags]` of fitz.toml: " fitz::flags_init({...});"
  void emit_observe_scopes(FnId id);     // @trace / @metric scopes at the top of a body
  std::string route_flag_check(const checker::Route& r);  // `@flag("x")`: 404 while off
  std::string traced_call(const Symbol& callee, const std::string& call);  // async @trace callees
  // A body of type Map<Str, Any> or Any also accepts multipart/form-data (emit_multipart.cpp).
  std::string multipart_body(TypeId t, const std::string& json_code);
  // An around middleware that is async or takes `next: Fn() -> Future<Response>`.
  void emit_async_around(const FnInfo& info, const std::string& id, const std::string& callee,
                         const std::string& req_arg);

  // ---- live views (emit_views.cpp, emit_live.cpp)
  // Each `.fitzv` component becomes a class implementing fitz::live::View; the functions of its
  // generated module (`__fz_<C>_*`) become its methods, with the props, state, derived values,
  // `ctx` and `payload` their bodies open with bound to members (`view_binds_`).
  void collect_views();
  bool is_view_fn(ModuleId m, const FnInfo& f) const;
  bool is_view_prelude(StructId id) const;  // `ctx`'s types (FitzViewCtx, FitzViewPresence)
  void emit_view_ctx_method(FnId fn, const std::string& name);  // ctx.publish, .redirect, .presence.track
  bool is_view_emits(StructId id) const;  // a component's `emit` type (FitzViewEmits_<Name>)
  void emit_view_emit_method(FnId fn, const std::string& name);  // `emit name(args)`: to the parent
  void emit_view_decls();    // the classes (before the functions, which may mount them in tests)
  void emit_views();         // their methods and the registry (fz_register_views)
  std::vector<TypeId> live_json_types() const;  // props and hook messages: decoded from JSON
  std::string live_test_call(const CallExpr& c, Span at);   // `live_test(Counter {...})` (emit_views.cpp)
  std::string live_embed_call(const CallExpr& c, Span at);  // `live_embed(Counter {...})` in a handler (emit_live.cpp)
  // The component whose props `builtin(...)`'s argument is; else the call is noted as not
  // compiled and the result is invalid (emit_views.cpp).
  StructId view_props_arg(const CallExpr& c, Span at, std::string_view builtin);
  void emit_live_wrappers(); // per `@live` page: bind, call, render the root inside the layout
  void emit_live_serve();    // inside fitz_serve: the live endpoints and the pages
  void for_loop(const ForStmt& s, const std::function<void()>& body);  // `for` over any iterable
  // One element of a loop over an iterable (open_loop): its C++ variable, its type, and whether
  // the pattern binds it as a map entry (bind_loop_elem).
  struct LoopElem {
    std::string var;
    TypeId type;
    bool map_entry = false;
  };
  LoopElem open_loop(ExprId iterable, PatternId pattern);
  void bind_loop_elem(PatternId pattern, const LoopElem& e);
  std::string view_where(frontend::FileId file, uint32_t offset) const;  // "path:line:col"
  std::unordered_set<uint32_t> view_modules_;                 // generated view modules
  uint32_t view_sites_ = 0;  // template sites numbered so far: one program-wide series, so a
                             // slot's nodes never share a number with the child's own
  std::unordered_map<uint32_t, std::string> view_binds_;      // symbol -> the member it names

  // ---- WebSockets (emit_ws.cpp)
  // `@ws("/path")` endpoints of the service model (empty in test builds: nothing is served).
  using WsRoute = checker::WsEndpoint;
  void collect_ws();
  bool has_ws() const { return !ws_routes_.empty(); }
  void emit_ws_prelude();
  void emit_ws_serve();  // inside fitz_serve, after the App's routes
  // WsConn methods and ws_broadcast; nullopt for any other call.
  std::optional<std::string> ws_call(ExprId id, const CallExpr& c, const CallInfo& ci);

  // ---- outbound clients (emit_net.cpp)
  // `r.json()` decoded into the type the checker resolved; nullopt for any other call.
  std::optional<std::string> net_call(ExprId id, const CallExpr& c, const CallInfo& ci);
  // The types `r.json()` calls decode into, for emit_json_codecs.
  std::vector<TypeId> json_targets() const;

  // ---- statements (emit_stmts.cpp)
  void block(BlockId id);
  void stmt(StmtId id);
  void assign_to(ExprId target, const std::string& value);
  void bind_pattern(PatternId p, const std::string& value, TypeId value_type);
  bool pair_pattern(PatternId p) const;  // a two-element tuple pattern
  void bind_map_entry(PatternId p, const std::string& entry, TypeId pair_type);  // `(k, v)` from a MapEntry
  void declare_fn_locals(const FnInfo& info);
  bool is_view_placeholder(ExprId value) const;  // `__fz_any()`: a view body's bound local
  std::string return_stmt(const std::string& value);

  // ---- expressions (emit_exprs.cpp, emit_calls.cpp, emit_match.cpp)
  std::string expr(ExprId id);      // with the checker's conversion applied
  std::string expr_raw(ExprId id);  // as the expression's own type
  std::string expr_as(ExprId id, TypeId want);  // expr(id), then converted to `want`
  std::string convert(const std::string& code, TypeId from, const checker::Conversion& conv, Span at);
  std::string convert_to(const std::string& code, TypeId from, TypeId to, Span at);
  // The value of a Task: co_await in an async function, block_on elsewhere (top level).
  std::string await_task(const std::string& task, Span at);
  std::string call(ExprId id, const CallExpr& c);
  std::string str_lit(const StrLit& s, Span span);
  std::string match_expr(ExprId id, const MatchExpr& m, bool as_value);
  std::string pattern_test(PatternId p, const std::string& value, TypeId value_type);
  std::string if_expr(ExprId id, const IfExpr& e, bool as_value);
  std::string loop_expr(ExprId id, const LoopExpr& e, bool as_value);
  std::string lambda(ExprId id, const LambdaExpr& l);
  std::string block_value(BlockId b, TypeId want, const std::string& result_var);
  std::string pos(Span s);  // a fitz::SourcePos literal

  // ---- evaluation order and statement-level lowering (emit_order.cpp)
  // How an expression may be reordered against its siblings: a constant has no effects and
  // reads nothing that can change; a simple one only reads; anything else may have effects.
  enum class Cls { Const, Simple, Complex };
  Cls classify(ExprId id);
  // One operand of an operation whose operands Fitz evaluates left to right.
  struct Child {
    std::function<std::string()> gen;
    ExprId id;  // for classification; invalid means "may have effects"
  };
  static Child child_of(Gen* g, ExprId id) { return Child{[g, id] { return g->expr(id); }, id}; }
  // The operands' code, in order. C++ leaves the order of function arguments unspecified (GCC
  // goes right to left), so operands that could observe each other's effects are evaluated
  // into temporaries first, left to right. Statements an operand needs before it (see
  // `lowering`) are emitted here in order too.
  std::vector<std::string> sequence(const std::vector<Child>& children);
  std::vector<std::string> sequence_exprs(const std::vector<ExprId>& ids);
  // The arguments of a call to user function `fn` of `module`, in parameter order (defaults and
  // variadics filled), after the `head` operands; `head_code` receives the head's code.
  std::string user_call_args(const CallExpr& c, const CallInfo& ci, ModuleId module, FnId fn, std::vector<Child> head,
                             std::vector<std::string>* head_code);
  // Inside an async fn, GCC 12 cannot compile `co_await`/`co_return` inside a statement
  // expression, so control flow used as a value (if, match, loop, comprehensions, struct
  // literals, `?`) is lowered to statements written before the current one, and the
  // expression becomes the temporary holding the result.
  bool lowering() const { return fn_ && fn_->is_async; }
  std::string tmp(const char* base) { return std::string("_") + base + std::to_string(tmp_++); }

  // ---- output
  // From here on the text is of kind `k` (codegen.h: UnitPart); a Piece starts a new part even
  // after another Piece, since each may go to a different translation unit.
  void part(UnitPart::Kind k);
  // Writes `text` after the first line (the banner): includes known only once the body is written.
  void insert_after_banner(const std::string& text);
  void line(const std::string& text);
  void line_directive(Span s);
  void generated_lines();  // debug builds: what follows is glue, not any .fitz line
  void line_directive_at(Span s, uint32_t offset);  // the line holding `offset` of s's file
  std::string take_block_text(const std::function<void()>& body);

  const checker::TypedProgram& prog_;
  const ModuleGraph& graph_;
  const SourceManager& sources_;
  GenOptions options_;
  checker::TypeStore& types_;
  GenResult result_;
  // A row decoder reads a jsonb column: <fitz/orm_json.h> is included and the HTTP runtime (its
  // JSON reader) linked.
  bool orm_json_ = false;
  // The program uses `http`: <fitz/http_client.h> is included and libfitz_net linked.
  bool net_ = false;

  // The module and function being emitted.
  ModuleId mod_;
  const Ast* ast_ = nullptr;
  const ModuleTir* tir_ = nullptr;
  // Emits in module `m`'s context (its AST and typed tables) until it goes out of scope, then
  // restores the previous one: a default argument or a command belongs to the module declaring it.
  class ModuleContext {
   public:
    ModuleContext(Gen& g, ModuleId m) : g_(g), mod_(g.mod_), ast_(g.ast_), tir_(g.tir_) {
      g.mod_ = m;
      g.ast_ = &g.graph_.get(m).ast;
      g.tir_ = &g.prog_.modules[m.index];
    }
    ~ModuleContext() {
      g_.mod_ = mod_;
      g_.ast_ = ast_;
      g_.tir_ = tir_;
    }
    ModuleContext(const ModuleContext&) = delete;
    ModuleContext& operator=(const ModuleContext&) = delete;

   private:
    Gen& g_;
    ModuleId mod_;
    const Ast* ast_;
    const ModuleTir* tir_;
  };
  struct FnCtx {
    const FnInfo* info = nullptr;
    FnId fn;  // the function emit_fn is writing (unset for a live page's or a view's code)
    bool is_async = false;
    TypeId ret;
    bool in_method = false;
    bool top_level = false;
    bool http = false;  // handler or middleware: returns become fzh::Out answers
    bool html = false;  // ... answered as `text/html` (checker::Route::returns_html)
    std::unordered_set<uint32_t> declared;  // symbols with a C++ declaration in this function
  };
  FnCtx* fn_ = nullptr;

  struct LoopCtx {
    std::optional<std::string_view> label;
    std::string break_label, continue_label;  // goto targets for labelled jumps
    std::string result_var;                   // `loop` used as a value
    TypeId result_type;
  };
  std::vector<LoopCtx> loops_;
  LoopCtx* loop_target(const std::optional<Ident>& label);
  void close_loop_body();  // `}` of the body, continue label, `}` of the loop, break label

  std::vector<HttpFnRef> http_fns_;  // handlers and middleware functions (hm_* versions)
  std::unordered_set<uint64_t> http_fn_keys_;  // http_fns_, by http_fn_key
  std::unordered_set<uint32_t> called_fns_;  // function symbols something other than a route runs
  std::vector<WsRoute> ws_routes_;
  // The @server placeholder (prog_.service.server), for emit_ws.cpp until it reads the model.
  const FnDecl* server_ = nullptr;
  ModuleId server_module_;
  std::unordered_set<uint32_t> boxed_;  // symbols captured by a closure: held in a shared cell
  std::unordered_map<std::string, uint32_t> file_ids_;
  std::string out_;
  std::vector<UnitPart> parts_;  // where out_ may be cut into translation units
  int indent_ = 0;
  int tmp_ = 0;
};

}  // namespace fitz::codegen
