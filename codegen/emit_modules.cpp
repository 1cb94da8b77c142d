// Built-in modules in generated programs: the runtime object behind `db`, `jwt`, `DateTime`,
// ... when a call goes through it (`fitz::any_method(fitz::db_module(), "connect", ...)`). The
// checker lets a module name stand only before `.member`; `log` and `flags` calls never get
// here (emit_observe.cpp writes them as direct runtime calls).
#include <fmt/format.h>

#include "codegen/gen.h"

namespace fitz::codegen {

std::string Gen::builtin_value_ref(const std::string& name, Span at) {
  if (name == "db") return "fitz::db_module()";  // fitz/db.h
  if (name == "jwt" || name == "hash" || name == "auth") {  // fitz/auth.h
    result_.auth = true;
    return fmt::format("fitz::auth::{}_module()", name);
  }
  if (name == "Date") return "fitz::date_module()";  // fitz/date.h
  if (name == "DateTime") return "fitz::datetime_module()";
  if (name == "Uuid") return "fitz::uuid_module()";
  if (name == "http") {  // fitz/http_client.h
    net_ = true;
    return "fitz::http_module()";
  }
  if (name == "smtp") {  // fitz/smtp.h
    net_ = true;
    return "fitz::smtp_module()";
  }
  if (name == "rand" || name == "fs" || name == "num" || name == "sql") return fmt::format("fitz::{}_module()", name);  // fitz/stdlib_values.h
  // `log` and `flags` calls are direct runtime calls, and modules without a runtime
  // (BuiltinValue::compiled) are a checker error (E0214): neither reaches here.
  (void)at;
  result_.unsupported.push_back(fmt::format("a reference to the built-in module `{}`", name));
  return "fitz::Any()";
}

}  // namespace fitz::codegen
