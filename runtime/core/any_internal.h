// Helpers shared by the Any implementation files (not part of the public runtime API).
#pragma once

#include "fitz/runtime.h"

namespace fitz::detail {

// A tuple built at run time (results of dynamic method calls such as enumerate or entries).
struct DynTupleBox final : AnyObj {
  std::vector<Any> items;
  ObjKind kind() const override { return ObjKind::Tuple; }
  const void* type_id() const override { return detail::type_id<DynTupleBox>(); }
  void show(Buf& b, bool q) const override;
  void type_name(Buf& b) const override;
  bool equals(const AnyObj& o) const override { return list_equals(*this, o); }
  uint64_t hash() const override { return list_hash(*this); }
  int64_t len() const override { return int64_t(items.size()); }
  Any get(int64_t i, SourcePos) const override { return items[size_t(i)]; }
};

[[noreturn]] void op_error(const char* op, const Any& a, const Any* b, SourcePos pos);
bool is_num(const Any& a);
double num(const Any& a);
int64_t norm(const Any& recv, const Any& index, int64_t len, SourcePos pos, const char* what);
// Whether a dynamic method's name `a` is `b` (the module boxes dispatch on it).
inline bool is(const char* a, const char* b) { return __builtin_strcmp(a, b) == 0; }

}  // namespace fitz::detail
