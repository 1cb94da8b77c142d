// ORM queries kept as values: a builder that no terminal ends in the same expression becomes a
// fitz::orm query value (runtime/include/fitz/orm_query.h) holding each step's constant SQL
// fragment and its bound values; a terminal over such a value passes the constant head of its
// statement, and the runtime joins the two. Fully written chains never come here: they stay one
// constant statement (emit_orm.cpp).
#include <fmt/format.h>

#include "codegen/cpp_literal.h"
#include "codegen/emit_orm.h"

namespace fitz::codegen {

namespace {

std::string query_name(const orm::QueryPlan& p) { return cpp_quoted("Query<" + p.table->type_name + ">"); }

// The fragments as a braced list of fitz::orm::Fragment, their values taken from `code`
// starting at `next` (advanced past them).
std::string fragment_list(const orm::QueryPlan& p, const std::vector<std::string>& code, size_t& next) {
  std::string out;
  for (const orm::Fragment& f : p.fragments) {
    std::string values;
    for (size_t i = 0; i < f.params.size(); ++i) values += (i ? ", " : "") + code[next++];
    out += fmt::format("{}fitz::orm::Fragment{{{}, {}, fitz::List<fitz::Any>{{{}}}}}", out.empty() ? "" : ", ",
                       static_cast<int>(f.kind), cpp_quoted(f.sql), values);
  }
  return "{" + out + "}";
}

void push_fragment_params(Gen& g, const orm::QueryPlan& p, std::vector<Gen::Child>& children) {
  for (const orm::Fragment& f : p.fragments)
    for (const orm::SqlParam& sp : f.params)
      children.push_back(Gen::Child{[&g, sp] { return orm_param_value(g, sp); }, sp.expr});
}

}  // namespace

std::string emit_orm_query_value(Gen& g, ExprId id, const checker::OrmPlan& plan) {
  const orm::QueryPlan& p = plan.query;
  if (!p.preloads.empty() || !p.group_keys.empty()) {
    g.result_.unsupported.push_back(
        "`group_by` or `preload` in a query kept as a value (write the chain up to its terminal in one expression)");
    return "fitz::Any()";
  }
  std::vector<Gen::Child> children;
  if (p.dynamic) children.push_back(Gen::child_of(&g, p.root));
  push_fragment_params(g, p, children);
  std::vector<std::string> code = g.sequence(children);
  size_t next = p.dynamic ? 1 : 0;
  std::string frags = fragment_list(p, code, next);
  return fmt::format("fitz::orm::extend({}, {}, {}, {})", p.dynamic ? code[0] : "fitz::Any()", query_name(p), frags,
                     g.pos(g.ast_->get(id).span));
}

std::optional<std::string> emit_orm_query_terminal(Gen& g, ExprId id, const checker::OrmPlan& plan) {
  const orm::QueryPlan& p = plan.query;
  StructId sid = plan.row;
  if (!sid.valid()) return std::nullopt;
  std::string pos = g.pos(g.ast_->get(id).span);
  std::vector<Gen::Child> children;
  children.push_back(Gen::child_of(&g, p.root));
  push_fragment_params(g, p, children);
  for (const orm::SqlParam& sp : p.params)
    children.push_back(Gen::Child{[&g, sp] { return orm_param_value(g, sp); }, sp.expr});
  children.push_back(Gen::child_of(&g, p.db_arg));
  if (p.update_map.valid()) children.push_back(Gen::child_of(&g, p.update_map));
  std::vector<std::string> code = g.sequence(children);
  size_t next = 1;
  std::string query = p.fragments.empty()
                          ? code[0]
                          : fmt::format("fitz::orm::extend({}, {}, {}, {})", code[0], query_name(p),
                                        fragment_list(p, code, next), pos);
  std::string head_params;
  for (size_t i = 0; i < p.params.size(); ++i) head_params += (i ? ", " : "") + code[next++];
  head_params = "fitz::List<fitz::Any>{" + head_params + "}";
  const std::string& db = code[next];
  std::string row_cpp = fmt::format("fitz::Ref<{}>", g.struct_name(sid));
  std::string head = cpp_quoted(p.sql);
  std::string what = cpp_quoted(orm::terminal_name(p.terminal));
  switch (p.terminal) {
    case orm::Terminal::All:
      return fmt::format("fitz::orm::query_all<{}>({}, {}, {}, {}, {})", row_cpp, db, query, head,
                         orm_row_decoder(g, sid, *p.table), pos);
    case orm::Terminal::First:
      return fmt::format("fitz::orm::query_first<{}>({}, {}, {}, {}, {})", row_cpp, db, query, head,
                         orm_row_decoder(g, sid, *p.table), pos);
    case orm::Terminal::Count: return fmt::format("fitz::orm::query_count({}, {}, {}, {})", db, query, head, pos);
    case orm::Terminal::Sum:
    case orm::Terminal::Avg:
    case orm::Terminal::Min:
    case orm::Terminal::Max:
      return fmt::format("fitz::orm::query_aggregate({}, {}, {}, {}, {}, {})", db, query, head, head_params, what, pos);
    case orm::Terminal::Update:
      if (p.update_map.valid()) {
        std::string cols = orm_update_columns(p);
        return fmt::format("fitz::orm::query_update_map({}, {}, {}, {}, {{{}}}, {})", db, query,
                           cpp_quoted(p.update_prefix), code.back(), cols, pos);
      }
      [[fallthrough]];
    case orm::Terminal::Delete:
    case orm::Terminal::MergeJsonb:
      return fmt::format("fitz::orm::query_exec({}, {}, {}, {}, {}, {})", db, query, head, head_params, what, pos);
    default: break;
  }
  g.result_.unsupported.push_back("this ORM call on a query value");
  return "fitz::Any()";
}

}  // namespace fitz::codegen
