// ORM calls in generated C++, from the checker's plans: the constant SQL, the parameters in
// source order, and a row decoder per struct that fills its fields column by column.
#pragma once

#include <optional>
#include <string>

#include "checker/orm_plan.h"
#include "codegen/gen.h"

namespace fitz::codegen {

// The C++ of the ORM terminal at `id`, or nullopt when the call is no ORM call.
std::optional<std::string> emit_orm_call(Gen& g, ExprId id, const CallExpr& c);

// Shared by emit_orm.cpp and emit_orm_query.cpp.
// A lambda building the struct `sid` of `table` from a DbRow (query values, emit_orm_query.cpp).
std::string orm_row_decoder(Gen& g, StructId sid, const orm::TableModel& table);
// The typed row decoder of every struct an ORM plan reads: `fzorm_row_<struct>` and its result
// formats `fzorm_fmt_<struct>`, after the struct definitions.
void emit_orm_row_decoders(Gen& g);
// The columns an `update` from a Map may set, as C++ initializers {field, column, cast}.
std::string orm_update_columns(const orm::QueryPlan& p);
// One bound parameter as a fitz::Any expression (a LIKE pattern, a field of a row, a value).
std::string orm_param_value(Gen& g, const orm::SqlParam& sp);
// A builder kept as a value (`User.where(..)` not followed by a terminal in the same chain, or
// `qb.where(..)`): a fitz::orm query value (orm_query.h).
std::string emit_orm_query_value(Gen& g, ExprId id, const checker::OrmPlan& plan);
// A terminal over a query value (`qb.all(db)`).
std::optional<std::string> emit_orm_query_terminal(Gen& g, ExprId id, const checker::OrmPlan& plan);

}  // namespace fitz::codegen
