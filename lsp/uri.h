// file:// URIs <-> filesystem paths (percent-encoding, as VS Code writes them).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace fitz::lsp {

std::optional<std::filesystem::path> uri_to_path(std::string_view uri);
std::string path_to_uri(const std::filesystem::path& path);

}  // namespace fitz::lsp
