// The migrations/ folder of a program (see migrations_dir.h).
#include "cli/migrations_dir.h"

namespace fitz::cli {

std::filesystem::path migrations_dir_of(const std::filesystem::path& project_root, const std::string& target) {
  if (!project_root.empty()) return project_root / "migrations";
  std::error_code ec;
  if (!target.empty() && std::filesystem::is_directory(target, ec)) return std::filesystem::path(target) / "migrations";
  if (!target.empty()) return std::filesystem::path(target).parent_path() / "migrations";
  return "migrations";
}

}  // namespace fitz::cli
