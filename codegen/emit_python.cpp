// Python interop in the generated program: a FromPy per user type (a mapping's keys are the
// field names; defaults fill missing fields; unknown keys and wrong types fail with the field
// path), the start-up imports of `from python import`, and operators on `Py` values.
#include <fmt/format.h>

#include "codegen/cpp_literal.h"
#include "codegen/gen.h"

namespace fitz::codegen {

void Gen::emit_python_codecs() {
  std::vector<StructId> structs;
  for (uint32_t i = 0; i < types_.struct_count(); ++i)
    if (!types_.struct_info(StructId(i)).builtin && !types_.struct_info(StructId(i)).name.empty()) structs.push_back(StructId(i));
  line("namespace fitz::py {");
  for (StructId sid : structs) {
    std::string t = "fitz::Ref<" + struct_name(sid) + ">";
    line(fmt::format("template <> struct FromPy<{}> {{ static bool get(const Object& o, {}* out, Path& path); }};", t, t));
  }
  for (StructId sid : structs) {
    const auto& info = types_.struct_info(sid);
    std::string name = struct_name(sid);
    std::string t = "fitz::Ref<" + name + ">";
    line(fmt::format("bool FromPy<{}>::get(const Object& o, {}* out, Path& path) {{", t, t));
    ++indent_;
    line("std::vector<std::pair<fitz::Str, Object>> items;");
    line(fmt::format("if (!mapping_items(o, &items, fitz::Str::lit(\"{}\"), path)) return false;", info.name));
    line(fmt::format("auto v = fitz::make<{}>();", name));
    size_t n = info.fields.size();
    if (n > 0) {
      std::string names;
      for (const auto& f : info.fields) names += (names.empty() ? "" : ", ") + fmt::format("\"{}\"", f.name);
      line(fmt::format("static const char* const kFields[] = {{{}}};", names));
      line(fmt::format("bool seen[{}] = {{}};", n));
    }
    line("for (auto& [k, x] : items) {");
    ++indent_;
    line(n > 0 ? fmt::format("int i = field_index(k, kFields, {});", n) : "int i = -1;");
    line("if (i < 0) return path.fail_unknown(k);");
    line("path.key(k);");
    line("bool ok = false;");
    line("switch (i) {");
    for (size_t i = 0; i < n; ++i) {
      const auto& f = info.fields[i];
      line(fmt::format("  case {}: ok = FromPy<{}>::get(x, &v->fld_{}, path); break;", i, cpp_type(f.type), f.name));
    }
    line("}");
    line("if (!ok) return false;");
    line("path.pop();");
    if (n > 0) line("seen[i] = true;");
    --indent_;
    line("}");
    for (size_t i = 0; i < n; ++i) {
      const auto& f = info.fields[i];
      TypeKind fk = types_.kind(f.type);
      std::string missing;
      if (f.has_default)
        missing = fmt::format("v->fld_{} = {}::dflt_{}();", f.name, name, f.name);
      else if (fk == TypeKind::Nullable || fk == TypeKind::Null || fk == TypeKind::Py || fk == TypeKind::Any)
        continue;  // absent means null (None)
      else
        missing = fmt::format("return path.fail_missing(\"{}\");", f.name);
      line(fmt::format("if (!seen[{}]) {}", i, missing));
    }
    line("*out = v;");
    line("return true;");
    --indent_;
    line("}");
  }
  line("}  // namespace fitz::py");
  if (has_http()) {
    // A handler that returns a Py without a declared type sends the JSON of its value.
    line("namespace fitz::http {");
    line("template <> struct JsonEncode<fitz::py::Object> {");
    line("  static void write(JsonWriter& w, const fitz::py::Object& v) {");
    line("    JsonEncode<fitz::Any>::write(w, fitz::py::from_py<fitz::Any>(v));");
    line("  }");
    line("};");
    line("}  // namespace fitz::http");
  }
  line("");
}

void Gen::emit_python_imports(Span stmt) {
  // Project folders come first on Python's path: `python/` beside fitz.toml (or the entry file),
  // then the folders of `[python] path`, all relative to the project.
  std::string paths = "\"python\"";
  if (graph_.manifest)
    for (const std::string& p : graph_.manifest->python_path) paths += ", " + cpp_quoted(p);
  line("fitz::py::configure({" + paths + "});");
  for (const checker::PythonImport& pi : tir_->python_imports) {
    if (pi.span.begin < stmt.begin || pi.span.end > stmt.end) continue;
    line(fmt::format("{} = fitz::py::import_module(\"{}\", {});", sym_ref(pi.symbol), pi.module, pos(pi.span)));
  }
}

std::string Gen::py_binary(BinaryOp op, const std::string& a, const std::string& b, Span at) {
  const char* kind = nullptr;
  bool cmp = false;
  switch (op) {
    case BinaryOp::Add: kind = "BinOp::Add"; break;
    case BinaryOp::Sub: kind = "BinOp::Sub"; break;
    case BinaryOp::Mul: kind = "BinOp::Mul"; break;
    case BinaryOp::Div: kind = "BinOp::Div"; break;
    case BinaryOp::Mod: kind = "BinOp::Mod"; break;
    case BinaryOp::Eq: kind = "CmpOp::Eq"; cmp = true; break;
    case BinaryOp::Ne: kind = "CmpOp::Ne"; cmp = true; break;
    case BinaryOp::Lt: kind = "CmpOp::Lt"; cmp = true; break;
    case BinaryOp::Le: kind = "CmpOp::Le"; cmp = true; break;
    case BinaryOp::Gt: kind = "CmpOp::Gt"; cmp = true; break;
    case BinaryOp::Ge: kind = "CmpOp::Ge"; cmp = true; break;
    default:
      result_.unsupported.push_back("an operator on a Python value");
      return "fitz::py::Object()";
  }
  return fmt::format("fitz::py::{}(fitz::py::{}, {}, {}, {})", cmp ? "compare" : "binary", kind, a, b, pos(at));
}

}  // namespace fitz::codegen
