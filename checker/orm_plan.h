// The query plans of ORM calls as the checker decided them, kept in the typed program (one
// side table per module, by the call's ExprId): the constant SQL, each bound parameter with its
// Fitz type and the Postgres type it travels as, and the row decoder of every struct a plan
// reads. Codegen, `fitz check --dump=orm` and the language server read these; none re-plans.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "checker/types.h"
#include "frontend/ast.h"
#include "orm/query.h"

namespace fitz::checker {

// How a parameter's value crosses the wire. Str travels as text with its type left to the
// server, because the column it meets decides it (text, but also timestamptz, uuid, numeric).
enum class OrmWire : uint8_t {
  Int8,       // binary int8
  Float8,     // binary float8
  Bool,       // binary bool
  Text,       // text, type inferred by the server
  Int8Array,  // text int8[]
  TextArray,  // text text[]
  Dynamic,    // another type (Map as jsonb, Date, DateTime, Uuid, ...): the db module's rules
};
std::string_view orm_wire_name(OrmWire w);
uint32_t orm_wire_oid(OrmWire w);
// The wire form of a value of Fitz type `t` (a `T?` travels as T, or NULL).
OrmWire orm_wire_of(const TypeStore& types, TypeId t);

// One bound parameter, in `$n` order.
struct OrmParam {
  frontend::ExprId expr;  // the value (Field forms: the row whose field is bound)
  orm::ParamForm form = orm::ParamForm::Value;
  std::string field;      // Field, FieldOfEach, KeysOfRows: the field read from `expr`
  TypeId type;            // the Fitz type of what is bound
  OrmWire wire = OrmWire::Dynamic;
};

// One column of a row read into a struct field, by its index in the SELECT list.
struct OrmColumnRead {
  enum Reader : uint8_t { Value, DateTime, Json };
  uint32_t column = 0;
  uint32_t field = 0;  // index in the struct's fields
  std::string name;    // the column's name (for errors)
  Reader reader = Value;
  bool binary = false;  // requested in binary format (Int, Float, Bool fields)
};

// How a row of a table becomes its struct: every column read by index, every other field from
// its default. One per struct, shared by all plans reading it.
struct OrmRowDecoder {
  StructId row;
  std::vector<OrmColumnRead> columns;   // in SELECT-list order
  std::vector<uint32_t> defaulted;      // fields that are no column, filled from their defaults
};

struct OrmPreload {
  StructId child;        // the struct of the related rows
  TypeId key_type;       // the parent's key field type
};

struct OrmPlan {
  // False when the call is an ORM call the planner refused (the checker reported `error`);
  // nothing else is set then.
  bool compiled = true;
  std::string error;
  bool builder = false;   // a builder step kept as a query value
  orm::QueryPlan query;   // SQL, terminal, fragments; its table pointers point into OrmPlans::tables
  StructId row;           // the struct of the table's rows
  std::vector<OrmParam> params;              // of query.params
  std::vector<OrmParam> params_without_key;  // of query.params_without_key
  std::vector<std::vector<OrmParam>> fragment_params;  // per query.fragments
  std::vector<OrmPreload> preloads;          // per query.preloads
};

struct OrmPlans {
  // The table models the plans point into (built once per pass, kept with the plans).
  std::deque<std::pair<uint32_t, orm::TableModel>> tables;
  std::unordered_map<uint32_t, OrmPlan> by_call;  // by ExprId index
  std::map<uint32_t, OrmRowDecoder> decoders;     // by StructId index

  const OrmPlan* plan_of(frontend::ExprId e) const {
    auto it = by_call.find(e.index);
    return it == by_call.end() ? nullptr : &it->second;
  }
  const OrmRowDecoder* decoder_of(StructId s) const {
    auto it = decoders.find(s.index);
    return it == decoders.end() ? nullptr : &it->second;
  }
};

}  // namespace fitz::checker
