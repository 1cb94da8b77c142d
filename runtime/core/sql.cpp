// `sql`: the values of `sql.now()` and `sql.raw("...")` when a program holds one outside an ORM
// update map literal (where the query planner inlines the SQL at compile time). They cannot be
// sent as parameters or serialised; they print as `<sql-expr ...>`.
#include <string>

#include "fitz/runtime.h"

namespace fitz {

namespace {

using detail::AnyObj;
using detail::ObjKind;

class SqlExprBox final : public AnyObj {
 public:
  explicit SqlExprBox(Str sql) : sql_(std::move(sql)) {}
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<SqlExprBox>(); }
  void type_name(Buf& b) const override { b.lit("SqlExpr"); }
  void show(Buf& b, bool) const override {
    b.lit("<sql-expr ");
    b.append(sql_.data(), sql_.size());
    b.push('>');
  }

 private:
  Str sql_;
};

class SqlModule final : public AnyObj {
 public:
  ObjKind kind() const override { return ObjKind::Struct; }
  const void* type_id() const override { return detail::type_id<SqlModule>(); }
  void type_name(Buf& b) const override { b.lit("SqlModule"); }
  void show(Buf& b, bool) const override { b.lit("<sql>"); }
  bool call_method(const char* name, const Any* args, size_t n, SourcePos pos, Any* out) override {
    if (__builtin_strcmp(name, "now") == 0 && n == 0) return *out = Any(new SqlExprBox(Str::lit("NOW()"))), true;
    if (__builtin_strcmp(name, "raw") == 0 && n == 1) return *out = Any(new SqlExprBox(from_any<Str>(args[0], pos))), true;
    return false;
  }
};

}  // namespace

Any sql_module() {
  thread_local Any module(new SqlModule());
  return module;
}

}  // namespace fitz
