// The module driver: collects a module's top-level names, pre-scans each scope for the variables
// it assigns, and runs checking passes until variable types (LUB of their assignments) settle.
#include <algorithm>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallVector.h>

#include "checker/check_internal.h"
#include "checker/orm_plan.h"
#include "checker/check_orm.h"
#include "checker/service_build.h"
#include "checker/decorators.h"

namespace fitz::checker {

namespace detail {

namespace {

// Calls f(ExprId) for each direct sub-expression that belongs to the same scope (lambda bodies
// and comprehensions open their own scopes and are skipped; blocks are handled by the caller).
template <class F>
void for_each_operand(const Expr& e, F&& f) {
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, StrLit>) {
          for (const auto& p : d.parts)
            if (p.is_hole()) f(p.hole);
        } else if constexpr (std::is_same_v<T, TupleExpr> || std::is_same_v<T, ListExpr>) {
          for (ExprId x : d.elems) f(x);
        } else if constexpr (std::is_same_v<T, MapExpr>) {
          for (const auto& en : d.entries) { f(en.key); f(en.value); }
        } else if constexpr (std::is_same_v<T, UnaryExpr>) {
          f(d.operand);
        } else if constexpr (std::is_same_v<T, BinaryExpr>) {
          f(d.lhs); f(d.rhs);
        } else if constexpr (std::is_same_v<T, RangeExpr>) {
          if (d.start.valid()) f(d.start);
          if (d.end.valid()) f(d.end);
        } else if constexpr (std::is_same_v<T, FieldExpr> || std::is_same_v<T, TupleIndexExpr>) {
          f(d.object);
        } else if constexpr (std::is_same_v<T, AwaitExpr> || std::is_same_v<T, TryExpr>) {
          f(d.operand);
        } else if constexpr (std::is_same_v<T, CallExpr>) {
          f(d.callee);
          for (const auto& a : d.args) f(a.value);
        } else if constexpr (std::is_same_v<T, IndexExpr>) {
          f(d.object); f(d.index);
        } else if constexpr (std::is_same_v<T, SliceExpr>) {
          f(d.object);
          if (d.start.valid()) f(d.start);
          if (d.end.valid()) f(d.end);
        } else if constexpr (std::is_same_v<T, StructLit>) {
          for (const auto& fi : d.fields) f(fi.value);
        } else if constexpr (std::is_same_v<T, ResultExpr>) {
          f(d.value);
        }
      },
      e.data);
}

}  // namespace

Checker::Checker(const ModuleGraph& graph, const SourceManager& sources, DiagnosticBag& out,
                 const CheckOptions& options, TypedProgram* reuse)
    : graph_(graph), sources_(sources), out_(out), options_(options),
      prog_(reuse ? std::move(*reuse) : TypedProgram()) {
  types_ = prog_.types.get();
  builtins_ = prog_.builtins.get();
  prog_.modules.resize(graph.modules.size());
  module_state_.assign(graph.modules.size(), 0);
  for (uint32_t i = 0; i < graph.modules.size(); ++i) {
    prog_.modules[i].module = ModuleId(i);
    types_->set_module_name(ModuleId(i), graph.modules[i].name);
  }
  if (reuse) return;  // it has its builtin symbols
  // One symbol per built-in function and value, shared by every module.
  for (uint32_t i = 0; i < builtins_->size(); ++i) {
    const BuiltinEntry& e = builtins_->entry(BuiltinId(i));
    if (!e.receiver.empty()) continue;
    Symbol s;
    s.kind = SymbolKind::Builtin;
    s.name = std::string(e.name);
    s.builtin = BuiltinId(i);
    s.type = types_->any();
    std::string name = s.name;
    prog_.builtin_symbols.emplace(name, prog_.add_symbol(std::move(s)));
  }
  for (uint32_t i = 0; i < builtin_values().size(); ++i) {
    Symbol s;
    s.kind = SymbolKind::BuiltinValue;
    s.name = std::string(builtin_values()[i].name);
    s.builtin_value = i;
    s.type = builtins_->value_type(i);
    std::string name = s.name;
    prog_.builtin_symbols.emplace(name, prog_.add_symbol(std::move(s)));
  }
}

TypedProgram Checker::run() {
  for (ModuleId id : graph_.init_order) check_module(id);
  // Modules outside the init order (never the case for a well-formed graph) still get tables.
  for (uint32_t i = 0; i < graph_.modules.size(); ++i)
    if (module_state_[i] == 0) check_module(ModuleId(i));
  return std::move(prog_);
}

bool Checker::module_ready(ModuleId id) const { return id.valid() && module_state_[id.index] == 2; }

bool Checker::registers_handlers(ModuleId id) const {
  // The decorators whose functions join the program wherever their module is imported (codegen
  // collects them from every module). `@command` is not one: only the entry module's count.
  // A module that only imports such modules (`api` importing `routes.users`) brings them too.
  using K = DecoratorKind;
  static constexpr DecoratorKind kRegistering[] = {K::Get, K::Post,    K::Put,    K::Patch,  K::Delete,      K::Ws,
                                                   K::Cron, K::Every, K::Healthz, K::Readyz, K::Server, K::AuthProvider};
  // Memoised per module: in a chain of imports every `import` would otherwise walk the whole
  // chain below it again (quadratic in the number of modules).
  enum : uint8_t { kUnknown, kNo, kYes };
  if (!id.valid() || id.index >= graph_.modules.size()) return false;
  if (registers_memo_.size() < graph_.modules.size()) registers_memo_.resize(graph_.modules.size(), kUnknown);
  if (registers_memo_[id.index] != kUnknown) return registers_memo_[id.index] == kYes;
  llvm::SmallVector<ModuleId, 16> todo{id};
  llvm::SmallDenseSet<uint32_t, 16> seen;
  while (!todo.empty()) {
    ModuleId m = todo.pop_back_val();
    if (!m.valid() || m.index >= graph_.modules.size() || !seen.insert(m.index).second) continue;
    if (registers_memo_[m.index] == kNo) continue;  // nothing it reaches registers
    bool registers = registers_memo_[m.index] == kYes;
    const Ast& ast = graph_.get(m).ast;
    for (StmtId s : ast.top_level) {
      if (registers) break;
      auto* f = std::get_if<FnStmt>(&ast.get(s).data);
      if (!f) continue;
      for (const Decorator& d : ast.get(f->fn).decorators)
        if (auto k = decorator_kind(d, kOnFn);
            k && std::find(std::begin(kRegistering), std::end(kRegistering), *k) != std::end(kRegistering))
          registers = true;
    }
    if (registers) {
      registers_memo_[m.index] = kYes;
      registers_memo_[id.index] = kYes;
      return true;
    }
    for (const ResolvedImport& ri : graph_.get(m).imports) todo.push_back(ri.target);
  }
  // The walk reached everything every visited module reaches, and none of it registers.
  for (uint32_t m : seen) registers_memo_[m] = kNo;
  return false;
}

Diagnostic& Checker::error(DiagKind kind, Span span, std::string message) {
  return diags_->error(kind, span, std::move(message));
}

Diagnostic& Checker::warning(DiagKind kind, Span span, std::string message) {
  return diags_->warning(kind, span, std::move(message));
}

std::string_view Checker::text(Span s) const { return file_->slice(s); }

SymbolId Checker::make_var(FnScope& scope, const Ident& name, SymbolKind kind) {
  auto [it, fresh] = symbol_at_.try_emplace(name.span.begin, SymbolId());
  if (fresh) {
    Symbol s;
    s.kind = kind;
    s.name = std::string(name.text);
    s.module = mod_;
    s.span = name.span;
    s.fn = scope.fn;
    it->second = prog_.add_symbol(std::move(s));
    read_untyped_.resize(prog_.symbols.size(), 0);
  }
  SymbolId id = it->second;
  scope.vars.try_emplace(name.text, id);
  scope.slot_of.try_emplace(id.index, static_cast<uint32_t>(scope.slot_of.size()));
  if (scope.is_module)
    tir_->globals.push_back(id);
  else if (scope.info)
    scope.info->locals.push_back(id);
  return id;
}

void Checker::check_module(ModuleId id) {
  module_state_[id.index] = 1;
  mod_ = id;
  m_ = &graph_.get(id);
  ast_ = &m_->ast;
  file_ = sources_.find(m_->file);
  tir_ = &prog_.modules[id.index];
  module_names_.clear();
  symbol_at_.clear();
  top_fns_.clear();
  decl_diags_.clear();
  diags_ = &decl_diags_;
  tir_->type_exprs.assign(ast_->types.size(), TypeId());
  tir_->fns.assign(ast_->fns.size(), FnInfo{});
  tir_->handlers.clear();
  tir_->type_decls.assign(ast_->type_decls.size(), StructId());
  fn_in_progress_.assign(ast_->fns.size(), 0);

  if (!file_) {  // nothing to check without source text
    module_state_[id.index] = 2;
    return;
  }
  collect_top_level();
  check_orm_tables(*this);

  // Passes: a variable's type is the LUB of everything assigned to it, which may only be known
  // after its first reads. A pass that widens a variable after using it is repeated with the
  // widened types as the starting point; the last pass's diagnostics are the ones reported.
  constexpr int kMaxPasses = 4;
  for (pass_ = 1; pass_ <= kMaxPasses; ++pass_) {
    run_pass();
    if (!unstable_) break;
  }
  out_.append(decl_diags_);
  out_.append(pass_diags_);
  diags_ = &out_;
  if (options_.warnings) {
    for (SymbolId s : tir_->top_level) {
      const Symbol& sy = prog_.symbol(s);
      // An import that did not resolve was already reported; "unused" would only repeat it.
      bool resolved = sy.kind == SymbolKind::Module ? sy.target_module.valid() : sy.target.valid();
      // `import routes` for a module's routes (or WebSocket endpoints, cron jobs...): importing
      // it is what puts them in the program, so the import is used.
      bool registers = sy.kind == SymbolKind::Module && resolved && registers_handlers(sy.target_module);
      if ((sy.kind == SymbolKind::Module || sy.kind == SymbolKind::Import) && !sy.used &&
          !sy.name.starts_with("_") && resolved && !registers)
        out_.warning(DiagKind::UnusedImport, sy.span, fmt::format("unused import `{}`", sy.name))
            .with_hint("remove the import, or use the name");
    }
  }
  build_interface();
  tir_->checked = true;
  module_state_[id.index] = 2;
}

void Checker::run_pass() {
  pass_diags_.clear();
  diags_ = &pass_diags_;
  unstable_ = false;
  suggestions_ = 0;
  size_t n = ast_->exprs.size();
  tir_->expr_types.assign(n, types_->error());
  tir_->conversions.assign(n, Conversion{});
  tir_->refs.assign(n, Ref{});
  tir_->call_index.assign(n, UINT32_MAX);
  tir_->calls.clear();
  tir_->spawn_targets.clear();
  tir_->live_tests.clear();
  tir_->live_embeds.clear();
  tir_->annotated_symbols.assign(ast_->stmts.size(), SymbolId());
  tir_->pattern_symbols.assign(ast_->patterns.size(), SymbolId());
  tir_->pattern_types.assign(ast_->patterns.size(), types_->error());
  tir_->globals.clear();
  for (const PythonImport& pi : tir_->python_imports) tir_->globals.push_back(pi.symbol);
  tir_->orm = std::make_shared<OrmPlans>();
  for (size_t i = 0; i < tir_->fns.size(); ++i) {
    FnInfo& f = tir_->fns[i];
    f.checked = false;
    f.locals.clear();
    f.captures.clear();
    f.uses_python = false;
    if (f.return_inferred) f.return_type = TypeId();
  }
  std::fill(fn_in_progress_.begin(), fn_in_progress_.end(), 0);
  std::fill(read_untyped_.begin(), read_untyped_.end(), 0);

  module_scope_ = FnScope();  // not `{}`: DenseMap's default constructor is explicit (clang rejects it)
  module_scope_.is_module = true;
  module_scope_.is_async = true;  // `.await` works at top level
  prescan_scope(module_scope_, ast_->top_level, nullptr);
  scope_ = &module_scope_;
  depth_ = 0;
  for (size_t i = 0; i < ast_->top_level.size(); ++i) check_stmt(ast_->top_level[i], false, nullptr, nullptr);
  for (FnId f : top_fns_) ensure_fn_checked(f);
}

// ---- pre-scan: which names does a scope assign? --------------------------------------------------

void Checker::prescan_pattern(PatternId p, std::vector<std::pair<Ident, bool>>& out) {
  if (!p.valid()) return;
  const Pattern& pat = ast_->get(p);
  if (auto* b = std::get_if<BindPat>(&pat.data)) {
    if (b->name.text != "_") out.push_back({b->name, true});
  } else if (auto* r = std::get_if<ResultPat>(&pat.data)) {
    prescan_pattern(r->inner, out);
  } else if (auto* t = std::get_if<TuplePat>(&pat.data)) {
    for (PatternId x : t->elems) prescan_pattern(x, out);
  } else if (auto* o = std::get_if<OrPat>(&pat.data)) {
    for (PatternId x : o->alternatives) prescan_pattern(x, out);
  }
}

void Checker::prescan_expr(FnScope& scope, ExprId e, std::vector<std::pair<Ident, bool>>& out,
                           std::vector<std::pair<Ident, TypeExprId>>& annotated, int depth) {
  if (!e.valid() || depth > kMaxDepth) return;
  const Expr& ex = ast_->get(e);
  if (auto* i = std::get_if<IfExpr>(&ex.data)) {
    prescan_expr(scope, i->condition, out, annotated, depth + 1);
    prescan_block(scope, i->then_block, out, annotated, depth + 1);
    prescan_block(scope, i->else_block, out, annotated, depth + 1);
    return;
  }
  if (auto* m = std::get_if<MatchExpr>(&ex.data)) {
    prescan_expr(scope, m->scrutinee, out, annotated, depth + 1);
    for (const MatchArm& arm : m->arms) {
      prescan_pattern(arm.pattern, out);
      prescan_expr(scope, arm.guard, out, annotated, depth + 1);
      prescan_block(scope, arm.body, out, annotated, depth + 1);
    }
    return;
  }
  if (auto* l = std::get_if<LoopExpr>(&ex.data)) {
    prescan_block(scope, l->body, out, annotated, depth + 1);
    return;
  }
  // A comprehension's own variables are bound while it is checked, but a `match` inside it
  // binds its arms' names in the enclosing function like a `match` anywhere else does.
  auto comp = [&](const std::vector<CompClause>& clauses, ExprId filter, std::initializer_list<ExprId> results) {
    for (const CompClause& c : clauses) prescan_expr(scope, c.iterable, out, annotated, depth + 1);
    prescan_expr(scope, filter, out, annotated, depth + 1);
    for (ExprId r : results) prescan_expr(scope, r, out, annotated, depth + 1);
  };
  if (auto* l = std::get_if<ListComp>(&ex.data)) return comp(l->clauses, l->filter, {l->elem});
  if (auto* m = std::get_if<MapComp>(&ex.data)) return comp(m->clauses, m->filter, {m->key, m->value});
  for_each_operand(ex, [&](ExprId c) { prescan_expr(scope, c, out, annotated, depth + 1); });
}

void Checker::prescan_block(FnScope& scope, BlockId b, std::vector<std::pair<Ident, bool>>& out,
                            std::vector<std::pair<Ident, TypeExprId>>& annotated, int depth) {
  if (!b.valid() || depth > kMaxDepth) return;
  for (StmtId s : ast_->get(b).stmts) prescan_stmt(scope, s, out, annotated, depth + 1);
}

void Checker::prescan_stmt(FnScope& scope, StmtId s, std::vector<std::pair<Ident, bool>>& out,
                           std::vector<std::pair<Ident, TypeExprId>>& annotated, int depth) {
  const Stmt& st = ast_->get(s);
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, AssignStmt>) {
          if (d.target.valid()) {
            const Expr& t = ast_->get(d.target);
            if (auto* n = std::get_if<NameRef>(&t.data)) {
              if (n->name.text != "_") out.push_back({n->name, d.is_let});
            } else {
              prescan_expr(scope, d.target, out, annotated, depth + 1);
            }
          }
          prescan_expr(scope, d.value, out, annotated, depth + 1);
        } else if constexpr (std::is_same_v<T, AnnotatedAssignStmt>) {
          out.push_back({d.name, true});
          annotated.push_back({d.name, d.type});
          prescan_expr(scope, d.value, out, annotated, depth + 1);
        } else if constexpr (std::is_same_v<T, LetPatternStmt>) {
          prescan_pattern(d.pattern, out);
          prescan_expr(scope, d.value, out, annotated, depth + 1);
        } else if constexpr (std::is_same_v<T, ExprStmt>) {
          prescan_expr(scope, d.expr, out, annotated, depth + 1);
        } else if constexpr (std::is_same_v<T, ReturnStmt>) {
          prescan_expr(scope, d.value, out, annotated, depth + 1);
        } else if constexpr (std::is_same_v<T, StatusReturnStmt>) {
          // `return 200 match x { m => ... }` binds `m` like any other match.
          prescan_expr(scope, d.status, out, annotated, depth + 1);
          prescan_expr(scope, d.body, out, annotated, depth + 1);
        } else if constexpr (std::is_same_v<T, BreakStmt>) {
          prescan_expr(scope, d.value, out, annotated, depth + 1);
        } else if constexpr (std::is_same_v<T, WhileStmt>) {
          prescan_expr(scope, d.condition, out, annotated, depth + 1);
          prescan_block(scope, d.body, out, annotated, depth + 1);
        } else if constexpr (std::is_same_v<T, ForStmt>) {
          prescan_pattern(d.pattern, out);
          prescan_expr(scope, d.iterable, out, annotated, depth + 1);
          prescan_block(scope, d.body, out, annotated, depth + 1);
        } else if constexpr (std::is_same_v<T, FnStmt>) {
          const FnDecl& f = ast_->get(d.fn);
          // Top-level named functions are module symbols, not variables.
          if (f.name && !(scope.is_module && tir_->fns[d.fn.index].symbol.valid())) out.push_back({*f.name, true});
        }
      },
      st.data);
}

void Checker::prescan_scope(FnScope& scope, const std::vector<StmtId>& stmts, const FnDecl* fn) {
  std::vector<std::pair<Ident, bool>> found;
  std::vector<std::pair<Ident, TypeExprId>> annotated;
  for (StmtId s : stmts) prescan_stmt(scope, s, found, annotated, 0);

  // First occurrence decides the declaration site; any `let` makes the name local. Most scopes
  // assign a handful of names, so the index of first occurrences stays on the stack.
  llvm::SmallDenseMap<llvm::StringRef, size_t, 16> first;
  first.reserve(found.size());
  std::vector<std::pair<Ident, bool>> names;
  names.reserve(found.size());
  for (auto& [id, is_let] : found) {
    auto [it, fresh] = first.try_emplace(id.text, names.size());
    if (fresh)
      names.push_back({id, is_let});
    else
      names[it->second].second |= is_let;
  }
  // Sized once for every name the scope may declare, instead of growing (and rehashing) as
  // make_var adds them.
  scope.vars.reserve(scope.vars.size() + names.size());
  scope.slot_of.reserve(scope.slot_of.size() + names.size());
  for (auto& [id, is_let] : names) {
    if (scope.vars.count(id.text)) continue;  // a parameter
    if (scope.is_module) {
      auto it = module_names_.find(id.text);
      if (it != module_names_.end() && prog_.symbol(it->second).kind != SymbolKind::Global) continue;
      SymbolId s = make_var(scope, id, SymbolKind::Global);
      if (it == module_names_.end()) {
        module_names_.try_emplace(id.text, s);
        tir_->top_level.push_back(s);
      }
      continue;
    }
    if (!is_let) {
      // A plain assignment to a variable of an enclosing scope (or a field, in a method)
      // assigns that variable; otherwise it declares a local.
      FnScope* saved = scope_;
      scope_ = scope.parent;
      Lookup l = scope.parent ? lookup(id.text, true) : Lookup{};
      scope_ = saved;
      bool outer = l.kind == Lookup::Var || l.kind == Lookup::Field;
      if (!outer && !scope.is_static && scope.owner.valid()) {
        const StructInfo& si = types_->struct_info(scope.owner);
        outer = si.field(id.text) != nullptr;
      }
      if (outer) continue;
    }
    make_var(scope, id, SymbolKind::Local);
  }
  for (auto& [id, texpr] : annotated) {
    auto it = scope.vars.find(id.text);
    if (it == scope.vars.end()) continue;
    Symbol& s = prog_.symbol(it->second);
    TypeId t = resolve_type(texpr);
    if (!s.annotated) {
      s.annotated = true;
      s.type = t;
    }
  }
  (void)fn;
}

// ---- interface summaries ----------------------------------------------------------------------------

void Checker::build_interface() {
  ModuleInterface& iface = tir_->interface;
  iface.exports.clear();
  iface.by_name.clear();
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::string_view s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= 0xff;
    h *= 1099511628211ull;
  };
  for (SymbolId sid : tir_->top_level) {
    const Symbol& s = prog_.symbol(sid);
    ModuleInterface::Export ex;
    ex.name = s.name;
    ex.symbol = sid;
    switch (s.kind) {
      case SymbolKind::Function: ex.type = show(tir_->fns[s.fn.index].type); break;
      case SymbolKind::Type: {
        const StructInfo& si = types_->struct_info(s.struct_id);
        ex.type = "type {";
        for (const FieldInfo& f : si.fields)
          ex.type += " " + f.name + ": " + show(f.type) + (f.has_default ? " = _" : "") + ",";
        for (const MethodInfo& m : si.methods)
          ex.type += std::string(m.is_static ? " static" : "") + " fn " + m.name + ": " + show(m.type) + ",";
        ex.type += " }";
        break;
      }
      case SymbolKind::Module: ex.type = "module " + (s.target_module.valid() ? graph_.get(s.target_module).path.string() : "?"); break;
      case SymbolKind::Import: {
        SymbolId t = resolve_import_target(sid);
        ex.type = t.valid() ? "import " + show(prog_.symbol(t).type.valid() ? prog_.symbol(t).type : types_->any()) : "import ?";
        break;
      }
      default: ex.type = show(s.type.valid() ? s.type : types_->any()); break;
    }
    mix(ex.name);
    mix(ex.type);
    iface.by_name.emplace(ex.name, sid);
    iface.exports.push_back(std::move(ex));
  }
  iface.hash = h;
}

}  // namespace detail

namespace {

// The store and built-in table of an empty program, made once per process and only copied.
struct PristineProgramTables {
  TypeStore types;
  std::unique_ptr<Builtins> builtins = std::make_unique<Builtins>(types);
};

}  // namespace

TypedProgram::TypedProgram() {
  // Interning the built-in table (hundreds of signatures parsed into types) is most of what an
  // empty program costs, and the language server starts one per analysis: copying a store and
  // table made once gives exactly what building them again would.
  static const PristineProgramTables pristine;
  types = std::make_unique<TypeStore>(pristine.types);
  builtins = std::make_unique<Builtins>(*pristine.builtins, *types);
}

TypedProgram check_program(const frontend::ModuleGraph& graph, const frontend::SourceManager& sources,
                           frontend::DiagnosticBag& diags, const CheckOptions& options) {
  detail::Checker c(graph, sources, diags, options);
  TypedProgram program = c.run();
  ServiceBuild b{program, graph, sources, diags};
  build_service_model(b);
  return program;
}

}  // namespace fitz::checker
