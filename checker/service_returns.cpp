// The statuses a handler can send: walks its body for `return STATUS body`, plain returns and
// `Err(X { status: N })`, and decides whether control can reach the end of the body. Feeds the
// service model's Route::statuses (service_http.cpp), which OpenAPI reads.
#include "checker/service_returns.h"

namespace fitz::checker::detail {

namespace {

using namespace frontend;

class Walker {
 public:
  Walker(const Ast& ast, Returns& out) : ast_(ast), out_(out) {}

  void block(BlockId b) {
    if (!b.valid() || b.index >= ast_.blocks.size()) return;
    for (StmtId s : ast_.get(b).stmts) stmt(s);
  }

  // Does every path through the block end in a return?
  bool ends(BlockId b) const {
    if (!b.valid() || b.index >= ast_.blocks.size()) return false;
    const Block& block = ast_.get(b);
    if (block.stmts.empty()) return false;
    const StmtData& last = ast_.get(block.stmts.back()).data;
    if (std::holds_alternative<ReturnStmt>(last) || std::holds_alternative<StatusReturnStmt>(last)) return true;
    auto* es = std::get_if<ExprStmt>(&last);
    if (!es) return false;
    const ExprData& e = ast_.get(es->expr).data;
    if (auto* i = std::get_if<IfExpr>(&e)) return ends(i->then_block) && ends(i->else_block);
    if (auto* m = std::get_if<MatchExpr>(&e)) {
      if (m->arms.empty()) return false;
      for (const MatchArm& arm : m->arms)
        if (!ends(arm.body)) return false;
      return true;
    }
    return false;
  }

 private:
  void stmt(StmtId id) {
    const StmtData& s = ast_.get(id).data;
    if (auto* a = std::get_if<AssignStmt>(&s)) {
      expr(a->target);
      expr(a->value);
    } else if (auto* a = std::get_if<AnnotatedAssignStmt>(&s)) {
      expr(a->value);
    } else if (auto* l = std::get_if<LetPatternStmt>(&s)) {
      expr(l->value);
    } else if (auto* e = std::get_if<ExprStmt>(&s)) {
      expr(e->expr);
    } else if (auto* r = std::get_if<ReturnStmt>(&s)) {
      out_.plain = true;
      if (r->value.valid()) out_.values.push_back(r->value);
      expr(r->value);
    } else if (auto* r = std::get_if<StatusReturnStmt>(&s)) {
      if (std::optional<int64_t> n = int_constant(ast_, r->status)) out_.statuses.emplace_back(*n, r->body);
      expr(r->body);
    } else if (auto* b = std::get_if<BreakStmt>(&s)) {
      expr(b->value);
    } else if (auto* w = std::get_if<WhileStmt>(&s)) {
      expr(w->condition);
      block(w->body);
    } else if (auto* f = std::get_if<ForStmt>(&s)) {
      expr(f->iterable);
      block(f->body);
    }
  }

  void expr(ExprId id) {
    if (!id.valid() || id.index >= ast_.exprs.size()) return;
    const ExprData& e = ast_.get(id).data;
    if (auto* s = std::get_if<StrLit>(&e)) {
      for (const StrPart& p : s->parts) expr(p.hole);
    } else if (auto* t = std::get_if<TupleExpr>(&e)) {
      for (ExprId x : t->elems) expr(x);
    } else if (auto* l = std::get_if<ListExpr>(&e)) {
      for (ExprId x : l->elems) expr(x);
    } else if (auto* m = std::get_if<MapExpr>(&e)) {
      for (const MapEntry& entry : m->entries) {
        expr(entry.key);
        expr(entry.value);
      }
    } else if (auto* c = std::get_if<ListComp>(&e)) {
      expr(c->elem);
      for (const CompClause& cl : c->clauses) expr(cl.iterable);
      expr(c->filter);
    } else if (auto* c = std::get_if<MapComp>(&e)) {
      expr(c->key);
      expr(c->value);
      for (const CompClause& cl : c->clauses) expr(cl.iterable);
      expr(c->filter);
    } else if (auto* u = std::get_if<UnaryExpr>(&e)) {
      expr(u->operand);
    } else if (auto* b = std::get_if<BinaryExpr>(&e)) {
      expr(b->lhs);
      expr(b->rhs);
    } else if (auto* r = std::get_if<RangeExpr>(&e)) {
      expr(r->start);
      expr(r->end);
    } else if (auto* f = std::get_if<FieldExpr>(&e)) {
      expr(f->object);
    } else if (auto* t = std::get_if<TupleIndexExpr>(&e)) {
      expr(t->object);
    } else if (auto* a = std::get_if<AwaitExpr>(&e)) {
      expr(a->operand);
    } else if (auto* t = std::get_if<TryExpr>(&e)) {
      expr(t->operand);
    } else if (auto* c = std::get_if<CallExpr>(&e)) {
      expr(c->callee);
      for (const Arg& a : c->args) expr(a.value);
    } else if (auto* i = std::get_if<IndexExpr>(&e)) {
      expr(i->object);
      expr(i->index);
    } else if (auto* s = std::get_if<SliceExpr>(&e)) {
      expr(s->object);
      expr(s->start);
      expr(s->end);
    } else if (auto* s = std::get_if<StructLit>(&e)) {
      for (const FieldInit& f : s->fields) expr(f.value);
    } else if (auto* r = std::get_if<ResultExpr>(&e)) {
      if (!r->is_ok) err_status(r->value);
      expr(r->value);
    } else if (auto* i = std::get_if<IfExpr>(&e)) {
      expr(i->condition);
      block(i->then_block);
      block(i->else_block);
    } else if (auto* m = std::get_if<MatchExpr>(&e)) {
      expr(m->scrutinee);
      for (const MatchArm& arm : m->arms) {
        expr(arm.guard);
        block(arm.body);
      }
    } else if (auto* l = std::get_if<LoopExpr>(&e)) {
      block(l->body);
    }
  }

  // `Err(X { status: 404, ... })` is sent with that status and all of X as the body.
  void err_status(ExprId value) {
    if (!value.valid() || value.index >= ast_.exprs.size()) return;
    auto* lit = std::get_if<StructLit>(&ast_.get(value).data);
    if (!lit) return;
    for (const FieldInit& f : lit->fields)
      if (f.name.text == "status")
        if (std::optional<int64_t> n = int_constant(ast_, f.value)) out_.statuses.emplace_back(*n, value);
  }

  const Ast& ast_;
  Returns& out_;
};

}  // namespace

std::optional<int64_t> int_constant(const frontend::Ast& ast, frontend::ExprId e) {
  if (!e.valid() || e.index >= ast.exprs.size()) return std::nullopt;
  const frontend::ExprData& data = ast.get(e).data;
  if (auto* i = std::get_if<frontend::IntLit>(&data)) return i->value;
  auto* name = std::get_if<frontend::NameRef>(&data);
  if (!name) return std::nullopt;
  // A top-level `let NAME = 404` (or `NAME: Int = 404`): the first binding is the constant.
  for (frontend::StmtId sid : ast.top_level) {
    const frontend::StmtData& s = ast.get(sid).data;
    if (auto* a = std::get_if<frontend::AssignStmt>(&s)) {
      if (a->compound) continue;
      auto* target = std::get_if<frontend::NameRef>(&ast.get(a->target).data);
      if (!target || target->name.text != name->name.text) continue;
      if (auto* lit = std::get_if<frontend::IntLit>(&ast.get(a->value).data)) return lit->value;
      return std::nullopt;
    }
    if (auto* a = std::get_if<frontend::AnnotatedAssignStmt>(&s)) {
      if (a->name.text != name->name.text) continue;
      if (auto* lit = std::get_if<frontend::IntLit>(&ast.get(a->value).data)) return lit->value;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

Returns collect_returns(const frontend::Ast& ast, const frontend::FnDecl& fn) {
  Returns out;
  Walker w(ast, out);
  w.block(fn.body);
  if (!w.ends(fn.body)) out.plain = true;
  return out;
}

}  // namespace fitz::checker::detail
