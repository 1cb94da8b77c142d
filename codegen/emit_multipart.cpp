// multipart/form-data bodies: a handler whose body parameter is `Map<Str, Any>` (or untyped)
// receives text parts as Str and file parts as `File` when the request is multipart, and
// JSON otherwise. `Map<Str, Str>` bodies read text parts through Binder::body_form.
#include <fmt/format.h>

#include "codegen/gen.h"

namespace fitz::codegen {

std::string Gen::multipart_body(TypeId t, const std::string& json_code) {
  if (types_.kind(t) == TypeKind::Any)
    return fmt::format("(b.is_multipart() ? fitz::to_any(b.body_multipart()) : {})", json_code);
  if (types_.kind(t) == TypeKind::Map && types_.key(t) == types_.str() && types_.kind(types_.value(t)) == TypeKind::Any)
    return fmt::format("(b.is_multipart() ? b.body_multipart() : {})", json_code);
  return json_code;
}

}  // namespace fitz::codegen
