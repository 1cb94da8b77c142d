// Block-style YAML from JSON values (deploy_yaml.h). JSON's double-quoted strings are valid YAML
// double-quoted scalars, so anything not plainly safe is written with the JSON encoder.
#include "cli/deploy_yaml.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace fitz::cli::deploy {

namespace {

using Json = nlohmann::ordered_json;

// Plain (unquoted) only when no YAML reader can see a number, a boolean, a null, a comment, a
// mapping or an alias in it: a letter first, then letters, digits and `_./-`, and not one of
// YAML 1.1's boolean or null words.
bool plain_safe(std::string_view s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '/' && c != '-') return false;
  std::string lower(s);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  static constexpr std::string_view kReserved[] = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"};
  return std::find(std::begin(kReserved), std::end(kReserved), lower) == std::end(kReserved);
}

std::string scalar(const Json& v) {
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    return plain_safe(s) ? s : Json(s).dump();
  }
  if (v.is_object()) return "{}";  // only empty containers are written inline
  if (v.is_array()) return "[]";
  return v.dump();
}

bool inline_value(const Json& v) { return !v.is_structured() || v.empty(); }

void render(const Json& v, size_t indent, std::string& out);

// A list item: `- ` then the item, whose first line takes the place of the dash's indentation.
void render_item(const Json& item, size_t indent, std::string& out) {
  if (inline_value(item)) {
    out.append(indent, ' ').append("- ").append(scalar(item)).append("\n");
    return;
  }
  std::string nested;
  render(item, indent + 2, nested);
  nested.replace(indent, 2, "- ");
  out += nested;
}

void render(const Json& v, size_t indent, std::string& out) {
  if (v.is_array()) {
    for (const Json& item : v) render_item(item, indent, out);
    return;
  }
  for (const auto& [key, value] : v.items()) {
    out.append(indent, ' ').append(plain_safe(key) ? key : Json(key).dump()).append(":");
    if (inline_value(value)) {
      out.append(" ").append(scalar(value)).append("\n");
    } else {
      out.append("\n");
      render(value, indent + 2, out);
    }
  }
}

}  // namespace

std::string to_yaml(const Json& value) {
  if (inline_value(value)) return scalar(value) + "\n";
  std::string out;
  render(value, 0, out);
  return out;
}

}  // namespace fitz::cli::deploy
