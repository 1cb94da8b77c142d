// ORM support over the typed program: table models of `@table` structs and the plan (constant
// SQL plus bound expressions) of an ORM call. The checker types and validates ORM calls with
// these; codegen, `fitz check --dump=orm` and the language server read the same plans.
#pragma once

#include <deque>
#include <optional>
#include <string>

#include "checker/tir.h"
#include "frontend/modules.h"
#include "orm/query.h"

namespace fitz::checker {

// Table models built on demand and kept for the plans that point into them.
class OrmModels {
 public:
  OrmModels(const TypedProgram& program, const frontend::ModuleGraph& graph) : program_(program), graph_(graph) {}

  // The model of a struct declared `@table`, or null. `errors` receives model problems once.
  const orm::TableModel* table(StructId id, std::vector<orm::ModelError>* errors = nullptr);
  const orm::TableModel* table_named(std::string_view type_name);
  // The plan of the ORM call at `call` in `module` (is_orm false when it is none).
  orm::PlanResult plan(ModuleId module, ExprId call);
  orm::QueryEnv env(ModuleId module);

 private:
  const TypedProgram& program_;
  const frontend::ModuleGraph& graph_;
  std::deque<std::pair<uint32_t, orm::TableModel>> tables_;
};

// The struct row type of a query value's type `Query<T>` (see check_orm.cpp), or invalid.
StructId orm_query_row(const TypeStore& types, TypeId t);

// `fitz check --dump=orm`: every ORM call of a module with its SQL and parameters.
std::string dump_orm(const TypedProgram& program, const frontend::ModuleGraph& graph, ModuleId module,
                     const frontend::SourceManager& sources);

}  // namespace fitz::checker

namespace fitz::checker::detail {
class Checker;
// `T.where(...)`, `T.all(db)`, `T.insert(db, row)` on a `@table` type: the call's type, or
// nullopt when the method is no ORM method (the caller reports it as unknown).
std::optional<TypeId> check_orm_static_call(Checker& ck, ExprId e, const frontend::CallExpr& c,
                                            const frontend::FieldExpr& f, StructId table);
// A builder or terminal method on a query value (`Query<T>`), or nullopt when `obj` is none.
std::optional<TypeId> check_orm_query_call(Checker& ck, ExprId e, const frontend::CallExpr& c,
                                           const frontend::FieldExpr& f, TypeId obj);
// Reports table-model problems of the module's `@table` types.
void check_orm_tables(Checker& ck);
}  // namespace fitz::checker::detail
