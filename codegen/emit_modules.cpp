// Built-in modules in generated programs: the runtime object behind `db`, `jwt`, `DateTime`,
// ... when a call goes through it (`fitz::any_method(fitz::db_module(), "connect", ...)`). The
// checker lets a module name stand only before `.member`; `log` and `flags` calls never get
// here (emit_observe.cpp writes them as direct runtime calls).
#include <fmt/format.h>

#include <algorithm>

#include "codegen/gen.h"

namespace fitz::codegen {

std::string Gen::builtin_value_ref(const std::string& name, Span at) {
  if (name == "db") return "fitz::db_module()";  // fitz/db.h
  if (name == "jwt" || name == "hash" || name == "auth") {  // fitz/auth.h
    result_.auth = true;
    return fmt::format("fitz::auth::{}_module()", name);
  }
  if (name == "DateTime") return "fitz::datetime_module()";  // fitz/clock.h
  if (name == "Uuid") return "fitz::uuid_module()";
  if (name == "log" || name == "flags" || !at.file.valid()) {
    result_.unsupported.push_back(fmt::format("a reference to the built-in module `{}`", name));
    return "fitz::Any()";
  }
  // Modules the checker knows (spec'd, typed Any) with no runtime yet: the build stops with a
  // located error rather than producing a program whose calls would all fail.
  const SourceFile& file = sources_.file(at.file);
  LineCol lc = file.line_col(at.begin);
  std::string msg = fmt::format("{}:{}:{}: error: the built-in module `{}` is checked but not compiled by this version of fitz yet",
                                file.path(), lc.line, lc.col, name);
  if (std::find(result_.not_compiled.begin(), result_.not_compiled.end(), msg) == result_.not_compiled.end())
    result_.not_compiled.push_back(std::move(msg));
  return "fitz::Any()";
}

}  // namespace fitz::codegen
