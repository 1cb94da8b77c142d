// Format-preserving edits of fitz.toml's `[dependencies]`: one entry line added, replaced or
// removed, every other line (comments, spacing, order) left as the user wrote it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace fitz::packages {

// `name = { path = "…" }` or `name = { git = "…", tag = "…" }` (or `rev`), TOML-quoted.
std::string dependency_line(std::string_view name, const std::optional<std::string>& path,
                            const std::optional<std::string>& git, const std::optional<std::string>& tag,
                            const std::optional<std::string>& rev);

// The text with `line` as the entry for `name`: replacing an existing one-line entry in place,
// else appended after the last entry of `[dependencies]` (the table is added at the end when
// there is none).
std::string with_dependency(std::string_view text, std::string_view name, std::string_view line);

// The text without the entry for `name` (a one-line entry or a `[dependencies.name]` table);
// nullopt when there is no such entry.
std::optional<std::string> without_dependency(std::string_view text, std::string_view name);

}  // namespace fitz::packages
