// Mapping generated C++ names back to Fitz names (see debug_names.h for the scheme).
#include "cli/debug_names.h"

#include <cctype>
#include <vector>

namespace fitz::cli {

namespace {

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Position of the `fzN::` that opens a generated name, or npos.
size_t module_prefix(std::string_view s, size_t& after) {
  for (size_t i = s.find("fz"); i != std::string_view::npos; i = s.find("fz", i + 1)) {
    if (i > 0 && is_ident_char(s[i - 1])) continue;
    size_t j = i + 2;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    if (j == i + 2 || s.substr(j, 2) != "::") continue;
    after = j + 2;
    return i;
  }
  return std::string_view::npos;
}

std::string_view ident_at(std::string_view s, size_t pos) {
  size_t end = pos;
  while (end < s.size() && is_ident_char(s[end])) ++end;
  return s.substr(pos, end - pos);
}

// Template arguments of "Name<A, B<C, D>>" split at depth 0 (the text between the outer <>).
std::vector<std::string_view> template_args(std::string_view inner) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < inner.size(); ++i) {
    char c = inner[i];
    if (c == '<' || c == '(') ++depth;
    else if (c == '>' || c == ')') --depth;
    else if (c == ',' && depth == 0) {
      out.push_back(trim(inner.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(trim(inner.substr(start)));
  return out;
}

}  // namespace

std::string fitz_function_name(std::string_view cpp) {
  size_t after = 0;
  if (module_prefix(cpp, after) == std::string_view::npos) return std::string(cpp);
  std::string_view rest = cpp.substr(after);
  std::string owner;
  if (rest.starts_with("T_")) {
    std::string_view type = ident_at(rest, 2);
    if (rest.substr(2 + type.size(), 2) != "::") return std::string(cpp);
    owner = std::string(type) + ".";
    rest.remove_prefix(2 + type.size() + 2);
  }
  std::string name;
  for (std::string_view prefix : {"hm_", "f_", "mth_"}) {
    if (rest.starts_with(prefix)) {
      name = owner + std::string(ident_at(rest, prefix.size()));
      rest.remove_prefix(prefix.size() + name.size() - owner.size());
      break;
    }
  }
  if (name.empty()) {
    if (owner.empty() && rest.starts_with("init()")) return "<top level>";
    return std::string(cpp);
  }
  if (rest.find("{lambda") != std::string_view::npos) name += ".<closure>";
  return name;
}

std::string fitz_local_name(std::string_view cpp) {
  size_t us = cpp.rfind('_');
  if (us == std::string_view::npos || us == 0 || us + 1 == cpp.size()) return std::string(cpp);
  for (size_t i = us + 1; i < cpp.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(cpp[i]))) return std::string(cpp);
  for (size_t i = 0; i < us; ++i)
    if (!is_ident_char(cpp[i])) return std::string(cpp);
  return std::string(cpp.substr(0, us));
}

std::string fitz_type_name(std::string_view cpp) {
  std::string_view t = trim(cpp);
  if (t.starts_with("const ")) t = trim(t.substr(6));
  while (!t.empty() && (t.back() == '&' || t.back() == '*')) t = trim(t.substr(0, t.size() - 1));
  if (t.ends_with(" const")) t = trim(t.substr(0, t.size() - 6));
  if (t == "long" || t == "long int" || t == "int64_t" || t == "fitz::Int") return "Int";
  if (t == "double" || t == "fitz::Float") return "Float";
  if (t == "bool" || t == "fitz::Bool") return "Bool";
  size_t open = t.find('<');
  if (open == std::string_view::npos || t.back() != '>') {
    if (t.starts_with("fitz::") && t.size() > 6 && ident_at(t, 6).size() == t.size() - 6) return std::string(t.substr(6));
    return std::string(t);
  }
  std::string_view head = t.substr(0, open);
  std::vector<std::string_view> args = template_args(t.substr(open + 1, t.size() - open - 2));
  auto joined = [&](size_t from) {
    std::string s;
    for (size_t i = from; i < args.size(); ++i) s += (i > from ? ", " : "") + fitz_type_name(args[i]);
    return s;
  };
  if (head == "fitz::Nullable" && args.size() == 1) return fitz_type_name(args[0]) + "?";
  if (head == "fitz::Ref" && args.size() == 1) {
    size_t after = 0;
    std::string_view inner = args[0];
    if (module_prefix(inner, after) == 0 && inner.substr(after).starts_with("T_")) return std::string(inner.substr(after + 2));
    return std::string(t);
  }
  if (head == "std::tuple") return "(" + joined(0) + ")";
  if (head == "fitz::List" || head == "fitz::Map" || head == "fitz::Result" || head == "fitz::Task")
    return std::string(head.substr(6)) + "<" + joined(0) + ">";
  return std::string(t);
}

}  // namespace fitz::cli
