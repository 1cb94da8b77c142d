// Where a program's migration files are: `fitz db` reads them there and `fitz build` embeds
// them in a service for `APP migrate`, so both must agree.
#pragma once

#include <filesystem>
#include <string>

namespace fitz::cli {

// migrations/ of the project (beside fitz.toml); outside a project, beside the target (a
// directory, or the folder of a .fitz file), else of the current directory.
std::filesystem::path migrations_dir_of(const std::filesystem::path& project_root, const std::string& target);

}  // namespace fitz::cli
