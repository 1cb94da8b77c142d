// ORM calls in generated C++: the planned constant SQL, the parameters converted to values in
// source order, and a row decoder that fills the table's struct column by column.
#pragma once

#include <optional>
#include <string>

#include "codegen/gen.h"

namespace fitz::codegen {

// The C++ of the ORM terminal at `id`, or nullopt when the call is no ORM call.
std::optional<std::string> emit_orm_call(Gen& g, ExprId id, const CallExpr& c);

}  // namespace fitz::codegen
