// ORM support over the typed program: table models of `@table` structs and the plan (constant
// SQL plus bound expressions) of an ORM call. The checker types and validates ORM calls with
// these; codegen, `fitz check --dump=orm` and the language server read the same plans.
#pragma once

#include <deque>
#include <optional>
#include <string>

#include "checker/orm_plan.h"
#include "checker/tir.h"
#include "frontend/modules.h"
#include "orm/query.h"

namespace fitz::checker {

// Table models built on demand and kept for the plans that point into them.
class OrmModels {
 public:
  using Store = std::deque<std::pair<uint32_t, orm::TableModel>>;
  // Models go to `store` when given (plans kept in the TIR point into it), else to this object.
  OrmModels(const TypedProgram& program, const frontend::ModuleGraph& graph, Store* store = nullptr)
      : program_(program), graph_(graph), tables_(store ? *store : own_) {}

  // The model of a struct declared `@table`, or null. `errors` receives model problems once.
  const orm::TableModel* table(StructId id, std::vector<orm::ModelError>* errors = nullptr);
  const orm::TableModel* table_named(std::string_view type_name);
  // The plan of the ORM call at `call` in `module` (is_orm false when it is none).
  orm::PlanResult plan(ModuleId module, ExprId call);
  orm::QueryEnv env(ModuleId module);
  // The struct whose model `t` is (one built here), or invalid.
  StructId struct_of(const orm::TableModel* t) const;

 private:
  const TypedProgram& program_;
  const frontend::ModuleGraph& graph_;
  Store own_;
  Store& tables_;
};

// The typed plan of an ORM call planned as `r` in `module` (r.plan set), with the row decoder
// of every struct it reads added to `plans.decoders`. `models` must build into `plans.tables`.
OrmPlan typed_orm_plan(const TypedProgram& program, ModuleId module, const orm::PlanResult& r, OrmModels& models,
                       OrmPlans& plans);

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
