// JSON schemas of checker types, and components/schemas for the user types a document refers to.
// Schemas describe what the generated JSON encoder writes and the decoder accepts: fields in
// declaration order, `@hidden` fields absent, unknown keys rejected.
#include <algorithm>
#include <unordered_map>

#include "openapi/internal.h"

namespace fitz::openapi::detail {

using checker::TypeKind;

namespace {

std::string sanitize(std::string name) {
  for (char& c : name)
    if (!isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  return name;
}

Json string_format(const char* format) { return Json{{"type", "string"}, {"format", format}}; }

}  // namespace

Json nullable(Json schema) {
  if (schema.empty()) return schema;  // any value, null included
  auto type = schema.find("type");
  if (type != schema.end() && type->is_string() && !schema.contains("$ref")) {
    *type = Json::array({*type, "null"});
    return schema;
  }
  return Json{{"anyOf", Json::array({std::move(schema), Json{{"type", "null"}}})}};
}

Schemas::Schemas(const checker::TypedProgram& program, const frontend::ModuleGraph& graph,
                 const frontend::SourceManager& sources)
    : program_(program), graph_(graph), sources_(sources) {
  // Component names are the type names; types that share a name across modules are qualified
  // with their module so every $ref names exactly one schema.
  const checker::TypeStore& types = *program.types;
  std::unordered_map<std::string, int> count;
  for (uint32_t i = 0; i < types.struct_count(); ++i) {
    const checker::StructInfo& info = types.struct_info(StructId(i));
    if (!info.builtin) ++count[info.name];
  }
  for (uint32_t i = 0; i < types.struct_count(); ++i) {
    const checker::StructInfo& info = types.struct_info(StructId(i));
    if (info.builtin) continue;
    std::string name = info.name;
    if (count[name] > 1 && info.module.valid() && info.module.index < graph.modules.size())
      name = graph.get(info.module).name + "." + name;
    names_[i] = sanitize(name);
  }
}

std::string Schemas::component_name(StructId id) {
  if (std::find(referenced_.begin(), referenced_.end(), id) == referenced_.end()) referenced_.push_back(id);
  return names_[id.index];
}

Json Schemas::error_ref() {
  if (error_name_.empty()) {
    error_name_ = "Error";
    for (const auto& [id, name] : names_)
      if (name == error_name_) error_name_ = "HttpError";
  }
  return Json{{"$ref", "#/components/schemas/" + error_name_}};
}

Json Schemas::of_type(TypeId t) {
  const checker::TypeStore& types = *program_.types;
  if (!t.valid()) return Json::object();
  switch (types.kind(t)) {
    case TypeKind::Error:
    case TypeKind::Never:
    case TypeKind::Any:
    case TypeKind::Py:  // a Python value sent as it converts at run time: any JSON
    case TypeKind::Range:
    case TypeKind::Fn:
    case TypeKind::Module:
    case TypeKind::Var:
      return Json::object();
    case TypeKind::Null:
      return Json{{"type", "null"}};
    case TypeKind::Int:
      return Json{{"type", "integer"}, {"format", "int64"}};
    case TypeKind::Float:
      return Json{{"type", "number"}, {"format", "double"}};
    case TypeKind::Bool:
      return Json{{"type", "boolean"}};
    case TypeKind::Str:
      return Json{{"type", "string"}};
    case TypeKind::Bytes:
      return Json{{"type", "string"}, {"contentEncoding", "base64"}};
    case TypeKind::List:
      return Json{{"type", "array"}, {"items", of_type(types.elem(t))}};
    case TypeKind::Map:
      return Json{{"type", "object"}, {"additionalProperties", of_type(types.value(t))}};
    case TypeKind::Tuple: {
      Json items = Json::array();
      for (TypeId e : types.args(t)) items.push_back(of_type(e));
      size_t n = items.size();
      return Json{{"type", "array"}, {"prefixItems", std::move(items)}, {"minItems", n}, {"maxItems", n}};
    }
    case TypeKind::Nullable:
      return nullable(of_type(types.inner(t)));
    case TypeKind::Future:
      return of_type(types.args(t)[0]);
    case TypeKind::Result: {
      // A Result inside a value is written as {"Ok": v} or {"Err": e}.
      auto side = [&](const char* key, TypeId v) {
        return Json{{"type", "object"},
                    {"properties", Json{{key, of_type(v)}}},
                    {"required", Json::array({key})},
                    {"additionalProperties", false}};
      };
      return Json{{"oneOf", Json::array({side("Ok", types.ok(t)), side("Err", types.err(t))})}};
    }
    case TypeKind::Struct: {
      StructId id = types.struct_of(t);
      const checker::StructInfo& info = types.struct_info(id);
      if (!info.builtin) return Json{{"$ref", "#/components/schemas/" + component_name(id)}};
      if (info.name == "Date") return string_format("date");
      if (info.name == "DateTime") return string_format("date-time");
      if (info.name == "Uuid") return string_format("uuid");
      if (info.fields.empty() || info.name == "Response") return Json::object();
      return struct_schema(id);  // Request, File, ...: small, written inline
    }
  }
  return Json::object();
}

Json Schemas::of_expr(ModuleId module, ExprId e) {
  const frontend::Ast& ast = graph_.get(module).ast;
  if (auto* map = std::get_if<frontend::MapExpr>(&ast.get(e).data)) {
    Json props = Json::object();
    Json required = Json::array();
    bool plain_keys = true;
    for (const frontend::MapEntry& entry : map->entries) {
      std::optional<Json> key = literal_value(ast, entry.key);
      if (!key || !key->is_string()) {
        plain_keys = false;
        break;
      }
      std::string k = key->get<std::string>();
      if (!props.contains(k)) required.push_back(k);
      props[k] = of_expr(module, entry.value);
    }
    if (plain_keys) {
      Json s{{"type", "object"}};
      if (!props.empty()) {
        s["properties"] = std::move(props);
        s["required"] = std::move(required);
      }
      return s;
    }
  }
  if (module.index >= program_.modules.size()) return Json::object();
  const checker::ModuleTir& tir = program_.modules[module.index];
  if (e.index >= tir.expr_types.size()) return Json::object();
  return of_type(tir.type_of(e));
}

Json Schemas::struct_schema(StructId id) {
  // Field facts (`@hidden`, relations, `@example`, doc comments) are the checker's (FieldInfo).
  const checker::StructInfo& info = program_.types->struct_info(id);
  const frontend::Ast* ast =
      !info.builtin && info.module.valid() && info.module.index < graph_.modules.size() ? &graph_.get(info.module).ast
                                                                                          : nullptr;
  Json s{{"type", "object"}};
  if (!info.doc.empty()) s["description"] = info.doc;
  Json props = Json::object();
  Json required = Json::array();
  for (const checker::FieldInfo& f : info.fields) {
    if (f.hidden) continue;
    Json p = of_type(f.type);
    if (!f.doc.empty()) p["description"] = f.doc;
    if (ast && f.has_default && f.default_value.valid())
      if (std::optional<Json> v = literal_value(*ast, f.default_value)) p["default"] = *v;
    if (ast && f.example.valid())
      if (std::optional<Json> v = literal_value(*ast, f.example)) p["examples"] = Json::array({*v});
    props[f.name] = std::move(p);
    bool is_nullable = program_.types->kind(f.type) == TypeKind::Nullable ||
                       program_.types->kind(f.type) == TypeKind::Null;
    // Relation fields are written only when preloaded.
    if (!f.has_default && !is_nullable && !f.relation) required.push_back(f.name);
  }
  s["properties"] = std::move(props);
  if (!required.empty()) s["required"] = std::move(required);
  s["additionalProperties"] = false;
  return s;
}

Json Schemas::components() {
  std::map<std::string, Json> sorted;
  // struct_schema may reference more types: walk until no new ones appear.
  for (size_t i = 0; i < referenced_.size(); ++i) {
    StructId id = referenced_[i];
    Json s = struct_schema(id);
    sorted[names_[id.index]] = std::move(s);
  }
  if (!error_name_.empty())
    sorted[error_name_] = Json{{"type", "object"},
                               {"description", "The body of every error response: what went wrong, for people."},
                               {"properties", Json{{"error", Json{{"type", "string"}}}}},
                               {"required", Json::array({"error"})}};
  Json out = Json::object();
  for (auto& [name, s] : sorted) out[name] = std::move(s);
  return out;
}

}  // namespace fitz::openapi::detail
