// ORM calls in generated C++: the planned constant SQL, the parameters converted to values in
// source order, and a row decoder that fills the table's struct column by column.
#pragma once

#include <optional>
#include <string>

#include "checker/check_orm.h"
#include "codegen/gen.h"

namespace fitz::codegen {

// The C++ of the ORM terminal at `id`, or nullopt when the call is no ORM call.
std::optional<std::string> emit_orm_call(Gen& g, ExprId id, const CallExpr& c);

// Shared by emit_orm.cpp and emit_orm_query.cpp.
// A lambda building the struct `sid` of `table` from a DbRow.
std::string orm_row_decoder(Gen& g, StructId sid, const orm::TableModel& table);
StructId orm_struct_of_table(Gen& g, checker::OrmModels& models, std::string_view type_name);
// The columns an `update` from a Map may set, as C++ initializers {field, column, cast}.
std::string orm_update_columns(const orm::QueryPlan& p);
// One bound parameter as a fitz::Any expression (a LIKE pattern, a field of a row, a value).
std::string orm_param_value(Gen& g, const orm::SqlParam& sp);
// A builder kept as a value (`User.where(..)` not followed by a terminal in the same chain, or
// `qb.where(..)`): a fitz::orm query value (orm_query.h).
std::string emit_orm_query_value(Gen& g, ExprId id, const orm::QueryPlan& p);
// A terminal over a query value (`qb.all(db)`).
std::optional<std::string> emit_orm_query_terminal(Gen& g, ExprId id, const orm::QueryPlan& p,
                                                   checker::OrmModels& models);

}  // namespace fitz::codegen
