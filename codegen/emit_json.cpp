// JSON at the HTTP boundary: a JsonDecode per user type a request body can hold (fields in
// any order, defaults and nullables filled, unknown and duplicate keys rejected, errors with the
// field path), and a JsonEncode for types with @hidden fields (the runtime's default encoder
// writes every field in declaration order).
#include <fmt/format.h>

#include <algorithm>

#include "codegen/gen.h"

namespace fitz::codegen {

void Gen::emit_json_codecs() {
  // User types reachable from a body parameter, in discovery order.
  std::vector<StructId> decoded;
  std::function<void(TypeId, int)> visit = [&](TypeId t, int depth) {
    if (depth > 64) return;
    switch (types_.kind(t)) {
      case TypeKind::List:
      case TypeKind::Nullable:
      case TypeKind::Map:
        for (TypeId a : types_.args(t)) visit(a, depth + 1);
        return;
      case TypeKind::Struct: {
        StructId sid = types_.struct_of(t);
        const auto& info = types_.struct_info(sid);
        if (info.builtin || std::find(decoded.begin(), decoded.end(), sid) != decoded.end()) return;
        decoded.push_back(sid);
        for (const auto& f : info.fields) visit(f.type, depth + 1);
        return;
      }
      default:
        return;
    }
  };
  for (const checker::Route& r : prog_.service.routes)
    for (const auto& p : prog_.modules[r.handler.module.index].fns[r.handler.fn.index].params) visit(p.type, 0);
  for (const WsRoute& r : ws_routes_) visit(r.in, 0);  // WebSocket messages decode the same way
  for (TypeId t : json_targets()) visit(t, 0);          // `let q: Quote = r.json()?`
  for (TypeId t : live_json_types()) visit(t, 0);       // live views' props (join tokens) and messages

  line("namespace fitz::http {");
  for (StructId sid : decoded) {
    std::string t = "fitz::Ref<" + struct_name(sid) + ">";
    line(fmt::format("template <> struct JsonDecode<{}> {{ static bool read(JsonReader& r, {}* out); }};", t, t));
  }
  // @hidden fields are never written.
  std::vector<StructId> hidden_types;
  for (uint32_t i = 0; i < types_.struct_count(); ++i) {
    const auto& info = types_.struct_info(StructId(i));
    if (info.builtin) continue;
    bool any = std::any_of(info.fields.begin(), info.fields.end(), [](const auto& f) { return f.hidden; });
    if (!any) continue;
    hidden_types.push_back(StructId(i));
    std::string t = "fitz::Ref<" + struct_name(StructId(i)) + ">";
    line(fmt::format("template <> struct JsonEncode<{}> {{ static void write(JsonWriter& w, const {}& v); }};", t, t));
  }
  for (StructId sid : hidden_types) {
    const auto& info = types_.struct_info(sid);
    std::string t = "fitz::Ref<" + struct_name(sid) + ">";
    part(UnitPart::Kind::Piece);
    line(fmt::format("void JsonEncode<{}>::write(JsonWriter& w, const {}& v) {{", t, t));
    line("  if (!v) { w.null(); return; }");
    line("  w.begin_object();");
    for (const auto& f : info.fields) {
      if (f.hidden) continue;
      line(fmt::format("  w.key(\"{}\");", f.name));
      line(fmt::format("  JsonEncode<{}>::write(w, v->fld_{});", cpp_type(f.type), f.name));
    }
    line("  w.end_object();");
    line("}");
  }
  for (StructId sid : decoded) {
    const auto& info = types_.struct_info(sid);
    std::string name = struct_name(sid);
    std::string t = "fitz::Ref<" + name + ">";
    std::vector<size_t> read;  // fields read from JSON (not @hidden)
    for (size_t i = 0; i < info.fields.size(); ++i)
      if (!info.fields[i].hidden) read.push_back(i);
    part(UnitPart::Kind::Piece);
    line(fmt::format("bool JsonDecode<{}>::read(JsonReader& r, {}* out) {{", t, t));
    ++indent_;
    line(fmt::format("auto o = fitz::make<{}>();", name));
    if (read.empty()) {
      line("if (!r.begin_object() || !read_fields(r, nullptr, 0, nullptr, [](size_t) { return false; })) return false;");
    } else {
      std::string names;
      for (size_t i : read) names += (names.empty() ? "" : ", ") + fmt::format("Text(\"{}\")", info.fields[i].name);
      line(fmt::format("static const Text kFields[] = {{{}}};", names));
      // One bit per field read, in as many words as the type needs.
      line(fmt::format("uint64_t seen[{}] = {{}};", (read.size() + 63) / 64));
      line(fmt::format("if (!r.begin_object() || !read_fields(r, kFields, {}, seen, [&](size_t i) {{", read.size()));
      line("  switch (i) {");
      for (size_t k = 0; k < read.size(); ++k)
        line(fmt::format("    {}: return r.read(&o->fld_{});", k + 1 == read.size() ? "default" : fmt::format("case {}", k),
                         info.fields[read[k]].name));
      line("  }");
      line("})) return false;");
      for (size_t k = 0; k < read.size(); ++k) {
        const auto& f = info.fields[read[k]];
        TypeKind fk = types_.kind(f.type);
        std::string missing;
        if (f.has_default)
          missing = fmt::format("o->fld_{} = {}::dflt_{}();", f.name, name, f.name);
        else if (fk == TypeKind::Nullable || fk == TypeKind::Any || fk == TypeKind::Null)
          continue;  // absent means null
        else
          missing = fmt::format("{{ r.fail_missing(\"{}\"); return false; }}", f.name);
        line(fmt::format("if (!(seen[{}] & (uint64_t(1) << {}))) {}", k / 64, k % 64, missing));
      }
    }
    // Hidden fields keep their defaults.
    for (size_t i = 0; i < info.fields.size(); ++i) {
      const auto& f = info.fields[i];
      if (std::find(read.begin(), read.end(), i) != read.end() || !f.has_default) continue;
      line(fmt::format("o->fld_{} = {}::dflt_{}();", f.name, name, f.name));
    }
    line("*out = o;");
    line("return true;");
    --indent_;
    line("}");
  }
  part(UnitPart::Kind::Shared);
  line("}  // namespace fitz::http");
  line("");
}

}  // namespace fitz::codegen
