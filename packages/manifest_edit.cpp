// Line-based editing: a fitz.toml that parses has its `[dependencies]` entries one per line
// (inline tables cannot span lines), so finding an entry is finding the line whose key is the
// name inside that table. Callers re-parse the result before writing it.
#include "packages/manifest_edit.h"
#include "packages/toml_string.h"

#include <vector>

#include <fmt/format.h>

namespace fitz::packages {

namespace {

struct Line {
  size_t begin;  // offset of the first character
  size_t end;    // offset just past the line break (or the end of the text)
  std::string_view text;  // without the line break
};

std::vector<Line> lines_of(std::string_view text) {
  std::vector<Line> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t stop = nl == std::string_view::npos ? text.size() : nl;
    std::string_view t = text.substr(pos, stop - pos);
    if (!t.empty() && t.back() == '\r') t.remove_suffix(1);
    out.push_back({pos, nl == std::string_view::npos ? text.size() : nl + 1, t});
    pos = out.back().end;
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The table a header line opens (`[a.b]` → "a.b", `[[a]]` → "a"), spaces and quotes removed;
// nullopt for other lines.
std::optional<std::string> header_of(std::string_view line) {
  line = trim(line);
  if (!line.starts_with("[")) return std::nullopt;
  size_t close = line.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  std::string name;
  for (char c : line.substr(0, close))
    if (c != '[' && c != ' ' && c != '\t' && c != '"' && c != '\'') name += c;
  return name;
}

// The key of a `key = value` line, quotes removed; empty for other lines.
std::string key_of(std::string_view line) {
  line = trim(line);
  if (line.empty() || line.front() == '#') return "";
  if (line.front() == '"' || line.front() == '\'') {
    size_t close = line.find(line.front(), 1);
    return close == std::string_view::npos ? "" : std::string(line.substr(1, close - 1));
  }
  size_t stop = 0;
  while (stop < line.size() && line[stop] != '=' && line[stop] != ' ' && line[stop] != '\t' && line[stop] != '.') ++stop;
  return std::string(line.substr(0, stop));
}


struct Table {
  size_t header;  // index of its header line
  size_t end;     // index past its last line
};

std::optional<Table> find_table(const std::vector<Line>& lines, std::string_view name) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (header_of(lines[i].text) != name) continue;
    size_t j = i + 1;
    while (j < lines.size() && !header_of(lines[j].text)) ++j;
    return Table{i, j};
  }
  return std::nullopt;
}

}  // namespace

std::string dependency_line(std::string_view name, const std::optional<std::string>& path,
                            const std::optional<std::string>& git, const std::optional<std::string>& tag,
                            const std::optional<std::string>& rev) {
  if (path) return fmt::format("{} = {{ path = {} }}", name, toml_string(*path));
  std::string line = fmt::format("{} = {{ git = {}", name, toml_string(git.value_or("")));
  if (tag) line += fmt::format(", tag = {}", toml_string(*tag));
  if (rev) line += fmt::format(", rev = {}", toml_string(*rev));
  return line + " }";
}

std::string with_dependency(std::string_view text, std::string_view name, std::string_view line) {
  std::vector<Line> lines = lines_of(text);
  std::string eol = text.find("\r\n") != std::string_view::npos ? "\r\n" : "\n";
  std::optional<Table> table = find_table(lines, "dependencies");
  std::string out(text);
  if (!table) {
    if (!out.empty() && out.back() != '\n') out += eol;
    if (!out.empty()) out += eol;
    return out + "[dependencies]" + eol + std::string(line) + eol;
  }
  size_t last = table->header;
  for (size_t i = table->header + 1; i < table->end; ++i) {
    if (key_of(lines[i].text) == name) {
      std::string_view indent = lines[i].text.substr(0, lines[i].text.find_first_not_of(" \t"));
      return out.replace(lines[i].begin, lines[i].text.size(), std::string(indent) + std::string(line));
    }
    if (!trim(lines[i].text).empty()) last = i;
  }
  size_t at = lines[last].end;
  std::string insert = std::string(line) + eol;
  if (at == out.size() && !out.empty() && out.back() != '\n') insert = eol + insert;
  return out.insert(at, insert);
}

std::optional<std::string> without_dependency(std::string_view text, std::string_view name) {
  std::vector<Line> lines = lines_of(text);
  std::string out(text);
  if (std::optional<Table> table = find_table(lines, "dependencies")) {
    for (size_t i = table->header + 1; i < table->end; ++i)
      if (key_of(lines[i].text) == name) return out.erase(lines[i].begin, lines[i].end - lines[i].begin);
  }
  if (std::optional<Table> own = find_table(lines, fmt::format("dependencies.{}", name))) {
    size_t end = own->end == lines.size() ? out.size() : lines[own->end].begin;
    return out.erase(lines[own->header].begin, end - lines[own->header].begin);
  }
  return std::nullopt;
}

}  // namespace fitz::packages
