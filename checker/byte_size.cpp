// Sizes in decorators: see byte_size.h.
#include "checker/byte_size.h"

#include <cctype>

#include "frontend/decorator_args.h"

namespace fitz::checker {

std::optional<int64_t> parse_byte_size(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && text[i] == ' ') ++i;
  size_t digits = i;
  uint64_t n = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    if (n > (uint64_t(1) << 40)) return std::nullopt;
    n = n * 10 + uint64_t(text[i] - '0');
  }
  if (i == digits) return std::nullopt;
  while (i < text.size() && text[i] == ' ') ++i;
  std::string unit;
  for (; i < text.size() && text[i] != ' '; ++i) unit += char(std::tolower(static_cast<unsigned char>(text[i])));
  while (i < text.size() && text[i] == ' ') ++i;
  if (i != text.size()) return std::nullopt;
  static constexpr struct { std::string_view name; uint64_t bytes; } kUnits[] = {
      {"", 1}, {"b", 1}, {"kb", 1000}, {"mb", 1000 * 1000}, {"gb", 1000 * 1000 * 1000},
      {"kib", 1024}, {"mib", 1024 * 1024}, {"gib", 1024 * 1024 * 1024}};
  for (const auto& u : kUnits)
    if (unit == u.name) {
      uint64_t bytes = n * u.bytes;
      if (n == 0 || bytes / u.bytes != n || bytes > (uint64_t(1) << 40)) return std::nullopt;
      return int64_t(bytes);
    }
  return std::nullopt;
}

std::optional<int64_t> byte_size_arg(const frontend::Ast& ast, frontend::ExprId e) {
  if (!e.valid()) return std::nullopt;
  if (auto* n = std::get_if<frontend::IntLit>(&ast.get(e).data)) {
    if (n->value <= 0 || n->value > (int64_t(1) << 40)) return std::nullopt;
    return n->value;
  }
  if (std::optional<std::string> s = frontend::plain_string_literal(ast, e)) return parse_byte_size(*s);
  return std::nullopt;
}

}  // namespace fitz::checker
