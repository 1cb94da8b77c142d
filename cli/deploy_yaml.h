// A small YAML writer for the manifests of `fitz deploy k8s` and `fitz deploy compose`: block
// style for maps and lists, and every string that a YAML 1.1 reader (PyYAML, which
// docker-compose uses) could take for something else written as a double-quoted JSON string.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace fitz::cli::deploy {

// One YAML document of `value` (a map or a list), ending with a newline; key order is kept.
std::string to_yaml(const nlohmann::ordered_json& value);

}  // namespace fitz::cli::deploy
