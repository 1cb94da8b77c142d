// libFuzzer target for `fitz fmt`. Oracle, for every input without syntax errors: the
// formatter's own check passes (same AST, same comments), formatting the result again changes
// nothing, and the AST dump without positions (ast_fingerprint) of the output equals the
// input's. Inputs with syntax errors must be refused with a diagnostic.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "format/format.h"

namespace {

[[noreturn]] void fail(const char* what, const std::string& a, const std::string& b) {
  std::fprintf(stderr, "format oracle: %s\n--- first:\n%s\n--- second:\n%s\n", what, a.c_str(), b.c_str());
  __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fitz;
  std::string text(reinterpret_cast<const char*>(data), size);
  frontend::SourceFile file(frontend::FileId{0}, "fuzz.fitz", text);
  frontend::DiagnosticBag diags;
  std::string internal;
  auto out = format::format_source(file, diags, {}, &internal);
  if (!internal.empty()) fail(("the formatter's check failed: " + internal).c_str(), text, format::format_unchecked(text));
  if (!out) {
    if (!diags.has_errors()) fail("refused without a diagnostic", text, "");
    return 0;
  }
  // format_source has checked the output's AST and comments already. Deep nesting makes the
  // output quadratic in the input (every level indents: 2 KB of brackets become 3.6 MB), and
  // three more sanitized parses of megabytes of indentation take longer than libFuzzer's
  // timeout without finding anything a smaller input would not.
  if (out->size() > (size_t{1} << 20)) return 0;
  auto again = format::format_text(*out);
  if (!again) fail("the formatted text does not format", *out, format::format_unchecked(*out));
  if (*again != *out) fail("not idempotent", *out, *again);
  std::string before = format::ast_fingerprint(text);
  std::string after = format::ast_fingerprint(*out);
  if (before != after) fail("the AST changed", before, after);
  return 0;
}
