#include "cli/repl_carry.h"

#include <cmath>

#include <fmt/format.h>

namespace fitz::cli::repl {

using checker::TypeId;
using checker::TypeKind;
using checker::TypeStore;

std::string str_literal(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '{': out += "\\{"; break;
      case '}': out += "\\}"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7f) out += fmt::format("\\u{{{:x}}}", c);
        else out += char(c);
    }
  }
  return out + "\"";
}

std::string why_not_kept(TypeId t, const TypeStore& types) {
  switch (types.kind(t)) {
    case TypeKind::Null:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Bool:
    case TypeKind::Str:
      return "";
    case TypeKind::Nullable:
      return why_not_kept(types.inner(t), types);
    case TypeKind::List:
      return why_not_kept(types.elem(t), types);
    case TypeKind::Map: {
      TypeKind k = types.kind(types.key(t));
      if (k != TypeKind::Str && k != TypeKind::Int) return "its keys are not `Str` or `Int`";
      return why_not_kept(types.value(t), types);
    }
    case TypeKind::Tuple:
      for (TypeId e : types.args(t))
        if (auto why = why_not_kept(e, types); !why.empty()) return why;
      return "";
    case TypeKind::Struct: {
      const checker::StructInfo& s = types.struct_info(types.struct_of(t));
      if (s.builtin) return fmt::format("`{}` has no literal form", s.name);
      for (const auto& f : s.fields) {
        if (f.is_private) return fmt::format("`{}` has private fields", s.name);
        if (auto why = why_not_kept(f.type, types); !why.empty()) return why;
      }
      return "";
    }
    default:
      return fmt::format("a `{}` has no literal form", types.display(t));
  }
}

std::optional<std::string> literal_of(const nlohmann::json& v, TypeId t, const TypeStore& types) {
  switch (types.kind(t)) {
    case TypeKind::Null:
      if (v.is_null()) return "null";
      return std::nullopt;
    case TypeKind::Int:
      if (v.is_number_integer()) return v.dump();
      return std::nullopt;
    case TypeKind::Float: {
      if (!v.is_number()) return std::nullopt;
      double d = v.get<double>();
      if (!std::isfinite(d)) return std::nullopt;
      std::string s = fmt::format("{}", d);  // the shortest text that reads back as d
      if (s.find_first_of(".eE") == std::string::npos) s += ".0";
      return s;
    }
    case TypeKind::Bool:
      if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
      return std::nullopt;
    case TypeKind::Str:
      if (v.is_string()) return str_literal(v.get<std::string>());
      return std::nullopt;
    case TypeKind::Nullable:
      if (v.is_null()) return "null";
      return literal_of(v, types.inner(t), types);
    case TypeKind::List: {
      if (!v.is_array()) return std::nullopt;
      std::string out = "[";
      for (size_t i = 0; i < v.size(); ++i) {
        auto e = literal_of(v[i], types.elem(t), types);
        if (!e) return std::nullopt;
        out += (i ? ", " : "") + *e;
      }
      return out + "]";
    }
    case TypeKind::Map: {
      if (!v.is_object()) return std::nullopt;
      bool int_keys = types.kind(types.key(t)) == TypeKind::Int;
      std::string out = "{";
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        std::string key = str_literal(it.key());
        if (int_keys) {
          size_t used = 0;
          try {
            (void)std::stoll(it.key(), &used);
          } catch (...) {
            return std::nullopt;
          }
          if (used != it.key().size()) return std::nullopt;
          key = it.key();
        }
        auto e = literal_of(it.value(), types.value(t), types);
        if (!e) return std::nullopt;
        out += (first ? "" : ", ") + key + ": " + *e;
        first = false;
      }
      return out + "}";
    }
    case TypeKind::Tuple: {
      auto elems = types.args(t);
      if (!v.is_array() || v.size() != elems.size()) return std::nullopt;
      std::string out = "(";
      for (size_t i = 0; i < elems.size(); ++i) {
        auto e = literal_of(v[i], elems[i], types);
        if (!e) return std::nullopt;
        out += (i ? ", " : "") + *e;
      }
      return out + (elems.size() == 1 ? ",)" : ")");
    }
    case TypeKind::Struct: {
      const checker::StructInfo& s = types.struct_info(types.struct_of(t));
      if (s.builtin || !v.is_object()) return std::nullopt;
      std::string out = s.name + " {";
      bool first = true;
      for (const auto& f : s.fields) {
        auto it = v.find(f.name);
        if (it == v.end()) return std::nullopt;  // an `@hidden` field: its value never came back
        auto e = literal_of(*it, f.type, types);
        if (!e) return std::nullopt;
        out += (first ? " " : ", ") + f.name + ": " + *e;
        first = false;
      }
      return out + (first ? "}" : " }");
    }
    default:
      return std::nullopt;
  }
}

}  // namespace fitz::cli::repl
