// Percent-decoding and encoding of file URIs.
#include "lsp/uri.h"

namespace fitz::lsp {

namespace {

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::filesystem::path> uri_to_path(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (uri.size() < kScheme.size()) return std::nullopt;
  for (size_t i = 0; i < kScheme.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(uri[i])) != kScheme[i]) return std::nullopt;
  std::string_view rest = uri.substr(kScheme.size());
  size_t slash = rest.find('/');  // skip the authority (usually empty or "localhost")
  if (slash == std::string_view::npos) return std::nullopt;
  rest = rest.substr(slash);
  std::string out;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() + 0 && hex(rest[i + 1]) >= 0 && hex(rest[i + 2]) >= 0) {
      out += char(hex(rest[i + 1]) * 16 + hex(rest[i + 2]));
      i += 2;
    } else if (rest[i] == '?' || rest[i] == '#') {
      break;
    } else {
      out += rest[i];
    }
  }
  return std::filesystem::path(out);
}

std::string path_to_uri(const std::filesystem::path& path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string s = path.generic_string();
  std::string out = "file://";
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      out += char(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace fitz::lsp
