// Which route handlers can reach the database, for the service model's Route::uses_database
// (OpenAPI documents their 503: the runtime answers "database unavailable" errors with it). A
// function reaches it when its body calls the `db` module or a connection's methods, runs an ORM
// query, or names a function (called or passed as a value) that does, in any module.
#include <algorithm>

#include "checker/orm_plan.h"
#include "checker/service_build.h"

namespace fitz::checker::detail {

namespace {

using namespace frontend;

// A built-in method that talks to the server: `db.connect`, a connection's methods, and the
// helpers that take a connection (`auth.blacklist(conn, ...)`). Reading a DbRow does not.
bool touches_database(const BuiltinEntry& e) {
  return e.receiver == "Db" || e.receiver == "DbConn" || e.signature.find("DbConn") != std::string_view::npos;
}

}  // namespace

DatabaseUse::DatabaseUse(const TypedProgram& program, const ModuleGraph& graph) : program_(program), graph_(graph) {}

bool DatabaseUse::reaches(const std::vector<FnRef>& roots) {
  std::vector<FnRef> todo = roots;
  std::vector<FnRef> seen;
  while (!todo.empty()) {
    FnRef f = todo.back();
    todo.pop_back();
    if (std::find(seen.begin(), seen.end(), f) != seen.end()) continue;
    seen.push_back(f);
    const Facts& facts = facts_of(f);
    if (facts.direct) return true;
    todo.insert(todo.end(), facts.callees.begin(), facts.callees.end());
  }
  return false;
}

std::optional<FnRef> DatabaseUse::function_of(SymbolId sid) const {
  auto known = [&](SymbolId s) { return s.valid() && s.index < program_.symbols.size(); };
  for (int hops = 0; hops < 64 && known(sid) && program_.symbol(sid).kind == SymbolKind::Import; ++hops)
    sid = program_.symbol(sid).target;
  if (!known(sid)) return std::nullopt;
  const Symbol& s = program_.symbol(sid);
  if (s.kind != SymbolKind::Function || !s.fn.valid()) return std::nullopt;
  return FnRef{s.module, s.fn};
}

const DatabaseUse::Facts& DatabaseUse::facts_of(FnRef f) {
  auto key = std::make_pair(f.module.index, f.fn.index);
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  Facts& facts = memo_[key];
  if (!f.module.valid() || f.module.index >= program_.modules.size() || f.module.index >= graph_.modules.size())
    return facts;
  const Ast& ast = graph_.get(f.module).ast;
  const ModuleTir& tir = program_.modules[f.module.index];
  if (!f.fn.valid() || f.fn.index >= ast.fns.size()) return facts;
  const FnDecl& decl = ast.get(f.fn);
  Span body = decl.body.valid() && decl.body.index < ast.blocks.size() ? ast.get(decl.body).span : decl.span;
  const std::vector<BuiltinEntry>& entries = builtin_entries();
  // Expressions are stored per module, not per function: the body's are those inside its span
  // (lambdas and nested functions included, which run on its behalf).
  for (uint32_t i = 0; i < ast.exprs.size(); ++i) {
    const Expr& e = ast.exprs[i];
    if (e.span.file != body.file || e.span.begin < body.begin || e.span.end > body.end) continue;
    ExprId id(i);
    if (tir.orm && tir.orm->plan_of(id)) facts.direct = true;
    if (i < tir.refs.size()) {
      const Ref& r = tir.refs[i];
      if ((r.kind == RefKind::Symbol || r.kind == RefKind::ModuleMember) && r.id < program_.symbols.size()) {
        SymbolId sid(r.id);
        const Symbol& s = program_.symbol(sid);
        if (s.kind == SymbolKind::BuiltinValue && s.builtin_value < builtin_values().size() &&
            builtin_values()[s.builtin_value].name == "db")
          facts.direct = true;
        if (std::optional<FnRef> callee = function_of(sid)) facts.callees.push_back(*callee);
      }
    }
    if (i < tir.call_index.size() && tir.call_index[i] < tir.calls.size()) {
      const CallInfo& c = tir.calls[tir.call_index[i]];
      if ((c.kind == CallKind::BuiltinMethod || c.kind == CallKind::Builtin) && c.builtin.valid() &&
          c.builtin.index < entries.size() && touches_database(entries[c.builtin.index]))
        facts.direct = true;
      if ((c.kind == CallKind::Method || c.kind == CallKind::StaticMethod) && c.struct_id.valid()) {
        const StructInfo& owner = program_.types->struct_info(c.struct_id);
        if (!owner.builtin && c.index < owner.methods.size() && owner.methods[c.index].fn.valid())
          facts.callees.push_back(FnRef{owner.module, owner.methods[c.index].fn});
      }
    }
    if (facts.direct) break;
  }
  return facts;
}

}  // namespace fitz::checker::detail
