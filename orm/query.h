// ORM queries compiled to constant SQL: `.where` closures translated to SQL with `$n`
// parameters, and query-builder chains (`T.where(..).order_by(..).all(db)`) planned into one
// SQL string plus the ordered expressions bound to its parameters. User values only ever
// travel as parameters; the SQL text holds identifiers, operators and program constants.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/ast.h"
#include "orm/model.h"

namespace fitz::orm {

// The checked type of an expression, as far as translation cares.
enum class ValueClass : uint8_t { Unknown, Int, Float, Str, Bool, Null, List, Map, Other };

// How the runtime turns a parameter's value into what is bound.
enum class ParamForm : uint8_t {
  Value,         // the expression's value
  LikeContains,  // a Str with LIKE wildcards escaped, wrapped as %v%
  LikePrefix,    // v%
  LikeSuffix,    // %v
  Field,         // `expr.<field>` of the row being inserted
  FieldOfEach,   // the list of `<field>` over every row of a List (bulk insert)
  KeysOfRows,    // the parent rows' key column `<field>` (preload), as an array
};

struct SqlParam {
  frontend::ExprId expr;
  ParamForm form = ParamForm::Value;
  std::string field;  // Field, FieldOfEach, KeysOfRows
};

enum class OrmErrorCode : uint8_t {
  Untranslatable,  // a closure form with no SQL translation
  UnknownColumn,   // a field that is not a column of the table
  TypeMismatch,    // a column compared with a value of another type
  UnfilteredWrite, // update/delete without a `.where`
  BadQuery,        // a chain the ORM cannot compile (order of calls, arguments)
  UnknownRelation, // preload of a name that is no relation
};

struct OrmError {
  OrmErrorCode code = OrmErrorCode::BadQuery;
  frontend::Span span;
  std::string message;
  std::string hint;
};

// What the translator needs to know beyond the AST.
struct QueryEnv {
  const frontend::Ast* ast = nullptr;
  // The table model when `name_ref` names a `@table` type, else null.
  std::function<const TableModel*(frontend::ExprId name_ref)> table_of_root;
  // A table model by type name (relation targets), or null.
  std::function<const TableModel*(std::string_view type_name)> table_named;
  std::function<ValueClass(frontend::ExprId)> class_of;
  // The table model when the expression is a row of a `@table` type (navigation), else null.
  std::function<const TableModel*(frontend::ExprId)> table_of_value;
  // The row's table model when the expression is a query value (`Query<T>`, e.g. a variable
  // holding `User.where(..)`), else null.
  std::function<const TableModel*(frontend::ExprId)> table_of_query;
};

// Translates the body of a one-parameter lambda into a SQL expression against `table`.
// Parameters are appended to `params`, numbered after those already there.
struct Translated {
  std::string sql;
  bool descending = false;  // order keys: a top-level unary minus
  std::optional<OrmError> error;
};
// The single expression of a `fn(x) => expr` (or `fn(x) { return expr }`) lambda, or invalid.
frontend::ExprId closure_body(const frontend::Ast& ast, const frontend::FnDecl& fn);
Translated translate_closure(const QueryEnv& env, const TableModel& table, frontend::ExprId lambda,
                             std::vector<SqlParam>& params, bool order_key = false);

enum class Terminal : uint8_t {
  All, First, Count, Update, Delete, Sum, Avg, Min, Max, Insert, BulkInsert, MergeJsonb,
};
std::string_view terminal_name(Terminal t);

struct Preload {
  std::string field;           // the virtual field filled
  const TableModel* target = nullptr;
  std::string key_field;       // the parent's key field whose values are bound
  std::string fk_field;        // the child's field that points at the parent
  bool many = true;            // has_many (List) or has_one (T?)
  // The parent of a `@belongs_to` column, through its struct-typed sibling field: `key_field`
  // is then the row's FK field and `fk_field` the parent's primary key.
  bool parent = false;
  std::string sql;             // SELECT .. WHERE "fk" = ANY($1)
};

// Navigation from a row: `user.posts(db)` (has_many: the children), `user.profile(db)` (has_one:
// the child or null), `post.user_id(db)` or `post.user(db)` (belongs_to: the parent, through
// its FK column or a struct-typed sibling field naming the parent type).
struct Navigation {
  const Relation* relation = nullptr;
  std::string target;  // the related type's name
};
std::optional<Navigation> find_navigation(const TableModel& owner, std::string_view method);

// One step of a query kept as a value (`let qb = User.where(..)`, `qb = qb.order_by(..)`): its
// SQL numbered from $1 on its own. The runtime (fitz::orm::Query) joins the steps, renumbering
// each fragment's placeholders after those before it; values still only travel as parameters.
struct Fragment {
  enum Kind : uint8_t { Where, Order, Limit, Offset };
  Kind kind = Where;
  std::string sql;               // Where/Order; empty for Limit/Offset (bound as one parameter)
  std::vector<SqlParam> params;
};
// How the runtime assembles a terminal over a query value: the head and what may follow.
enum class Shape : uint8_t {
  Select,     // head WHERE .. ORDER BY .. LIMIT .. OFFSET ..
  First,      // the same with LIMIT 1
  Count,      // head is the table: COUNT(*), through a subquery when ordered or paged
  Aggregate,  // head WHERE ..; ordering or paging is an error
  Write,      // head WHERE ..; no `where` at all, ordering or paging is an error
};

struct QueryPlan {
  const TableModel* table = nullptr;
  Terminal terminal = Terminal::All;
  bool grouped = false;       // rows are Map<Str, Any> (group column and the aggregate)
  std::string sql;
  std::vector<SqlParam> params;
  // insert with a single Int primary key: the variant used when the key is 0 (database serial).
  std::string sql_without_key;
  std::vector<SqlParam> params_without_key;
  std::string key_field;      // the Int primary key field tested for 0
  frontend::ExprId db_arg;
  frontend::ExprId row_arg;   // insert, bulk_insert
  std::vector<Preload> preloads;
  std::vector<std::string> group_keys;  // grouped: result map keys in column order
  // `update(db, changes)` with a Map variable: the SET list is chosen at run time from the map's
  // keys, among these columns only (a key is a field or a column name), and `sql` holds what
  // follows it (the WHERE clause, parameters $1..$n). Identifiers still come from the program.
  struct UpdateColumn {
    std::string field, column, cast;  // column: quoted; cast: e.g. `::text[]`
  };
  frontend::ExprId update_map;
  std::string update_prefix;  // UPDATE "t" SET
  std::vector<UpdateColumn> update_columns;
  bool maybe = false;  // has_one navigation: no row is null, not an Err
  // A query value extended (`qb.where(..)`, `qb.all(db)`): `root` is the value, `fragments` the
  // steps after it. For a terminal, `sql` and `params` are the head (numbered first) and
  // `shape` says how the runtime completes it. A builder plan (PlanResult::builder) always
  // lists its steps as fragments, starting from `root` or from an empty query.
  bool dynamic = false;
  frontend::ExprId root;
  std::vector<Fragment> fragments;
  Shape shape = Shape::Select;
};

// What `plan_query` found at an expression.
struct PlanResult {
  bool is_orm = false;  // the call is an ORM terminal (or a builder step when `builder`)
  bool builder = false; // a builder step (where, order_by, ...) without a terminal
  std::optional<QueryPlan> plan;
  std::optional<OrmError> error;
};

bool is_builder_method(std::string_view name);
bool is_terminal_method(std::string_view name);
// The whole chain ending at `call` (a CallExpr whose callee is `<chain>.<method>`).
PlanResult plan_query(const QueryEnv& env, frontend::ExprId call);

// The SQL of `sql.now()` or `sql.raw("fragment")` (a plain string literal: the checker refuses
// anything else, E0722), for `.update` map values and `.where` operands; nullopt for any other
// expression. Constant SQL from the program text, never a user value.
std::optional<std::string> sql_constant(const frontend::Ast& ast, frontend::ExprId e);

// The SELECT list of a table: `"c1","c2",..` in column order.
std::string column_list(const TableModel& t);

}  // namespace fitz::orm
