// Migration file text: parsing the `-- UP` / `-- DOWN` sections, writing new files, and spotting
// destructive statements. The scan is lexical on purpose: it only has to find keywords outside
// comments, literals and quoted identifiers, not to understand the SQL.
#include "migrate/migration_file.h"

#include <cctype>

namespace fitz::migrate {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u) c = char(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

// `-- UP` / `-- down` (any case, any spacing after the dashes), or nullopt.
std::optional<std::string> section_marker(std::string_view line) {
  line = trim(line);
  if (!line.starts_with("--")) return std::nullopt;
  std::string word = upper(trim(line.substr(2)));
  if (word == "UP" || word == "DOWN") return word;
  return std::nullopt;
}

struct Statement {
  std::string text;                 // the statement with comments removed, whitespace collapsed
  std::vector<std::string> words;   // upper-cased bare words; quoted identifiers as `"`
};

// Splits SQL into statements at `;`, skipping comments, 'strings', E'strings', "identifiers"
// and $tag$ bodies.
std::vector<Statement> split_statements(std::string_view sql) {
  std::vector<Statement> out(1);
  auto add_char = [&](char c) {
    std::string& t = out.back().text;
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!t.empty() && t.back() != ' ') t += ' ';
    } else {
      t += c;
    }
  };
  size_t i = 0, n = sql.size();
  while (i < n) {
    char c = sql[i];
    if (c == '-' && i + 1 < n && sql[i + 1] == '-') {
      while (i < n && sql[i] != '\n') ++i;
      add_char(' ');
    } else if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
      size_t end = sql.find("*/", i + 2);
      i = end == std::string_view::npos ? n : end + 2;
      add_char(' ');
    } else if (c == '\'' || c == '"') {
      size_t j = i + 1;
      bool backslash = c == '\'' && i > 0 && (sql[i - 1] == 'E' || sql[i - 1] == 'e');
      while (j < n) {
        if (backslash && sql[j] == '\\') { j += 2; continue; }
        if (sql[j] == c) {
          if (j + 1 < n && sql[j + 1] == c) { j += 2; continue; }
          break;
        }
        ++j;
      }
      for (size_t k = i; k < j + 1 && k < n; ++k) add_char(sql[k]);
      if (c == '"') out.back().words.push_back("\"");
      i = j + 1;
    } else if (c == '$' && (i == 0 || !std::isalnum(static_cast<unsigned char>(sql[i - 1])))) {
      size_t j = i + 1;
      while (j < n && (std::isalnum(static_cast<unsigned char>(sql[j])) || sql[j] == '_')) ++j;
      if (j < n && sql[j] == '$' && (j == i + 1 || !std::isdigit(static_cast<unsigned char>(sql[i + 1])))) {
        std::string_view tag = sql.substr(i, j - i + 1);
        size_t end = sql.find(tag, j + 1);
        size_t stop = end == std::string_view::npos ? n : end + tag.size();
        for (size_t k = i; k < stop; ++k) add_char(sql[k]);
        i = stop;
      } else {
        add_char(c);
        ++i;
      }
    } else if (c == ';') {
      out.emplace_back();
      ++i;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < n && (std::isalnum(static_cast<unsigned char>(sql[j])) || sql[j] == '_' || sql[j] == '$')) ++j;
      for (size_t k = i; k < j; ++k) add_char(sql[k]);
      out.back().words.push_back(upper(sql.substr(i, j - i)));
      i = j;
    } else {
      add_char(c);
      ++i;
    }
  }
  std::vector<Statement> kept;
  for (Statement& s : out) {
    s.text = std::string(trim(s.text));
    if (!s.words.empty()) kept.push_back(std::move(s));
  }
  return kept;
}

bool destructive(const std::vector<std::string>& w) {
  auto at = [&](size_t i) -> std::string_view { return i < w.size() ? std::string_view(w[i]) : std::string_view(); };
  bool alter_table = at(0) == "ALTER" && at(1) == "TABLE";
  for (size_t i = 0; i < w.size(); ++i) {
    std::string_view t = w[i];
    if (t == "TRUNCATE" || (t == "DELETE" && at(i + 1) == "FROM")) return true;
    if (t == "DROP") {
      std::string_view next = at(i + 1);
      if (next == "TABLE" || next == "COLUMN" || next == "SCHEMA" || next == "DATABASE" || next == "VIEW" ||
          next == "TYPE" || next == "MATERIALIZED" || next == "SEQUENCE")
        return true;
      // ALTER TABLE t DROP c: COLUMN is optional.
      if (alter_table && i > 0 && at(i - 1) != "SET" && next != "CONSTRAINT" && next != "DEFAULT" && next != "NOT" &&
          next != "IDENTITY" && next != "EXPRESSION")
        return true;
    }
    // ALTER [COLUMN] c [SET DATA] TYPE t: a type change may lose data.
    if (alter_table && t == "TYPE" && i >= 2 &&
        (at(i - 1) == "DATA" || at(i - 2) == "ALTER" || (i >= 3 && at(i - 3) == "ALTER" && at(i - 2) == "COLUMN")))
      return true;
  }
  return false;
}

}  // namespace

bool valid_migration_name(std::string_view name) {
  if (name.empty() || name.size() > 100 || !std::islower(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::islower(static_cast<unsigned char>(c)) && !std::isdigit(static_cast<unsigned char>(c)) && c != '_')
      return false;
  return true;
}

std::optional<std::string> migration_version(std::string_view file_name) {
  if (!file_name.ends_with(".sql")) return std::nullopt;
  std::string_view stem = file_name.substr(0, file_name.size() - 4);
  if (stem.size() < 16 || stem[14] != '_') return std::nullopt;
  for (size_t i = 0; i < 14; ++i)
    if (!std::isdigit(static_cast<unsigned char>(stem[i]))) return std::nullopt;
  if (!valid_migration_name(stem.substr(15))) return std::nullopt;
  return std::string(stem);
}

std::optional<MigrationFile> parse_migration(std::string_view version, std::string_view text, std::string* error) {
  MigrationFile m;
  m.version = std::string(version);
  m.name = version.size() > 15 ? std::string(version.substr(15)) : std::string(version);
  std::string section;
  bool seen_up = false, seen_down = false;
  size_t line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (auto marker = section_marker(line)) {
      bool& seen = *marker == "UP" ? seen_up : seen_down;
      if (seen) {
        if (error) *error = "line " + std::to_string(line_no) + ": a second `-- " + *marker + "` section";
        return std::nullopt;
      }
      if (*marker == "DOWN" && !seen_up) {
        if (error) *error = "line " + std::to_string(line_no) + ": `-- DOWN` before `-- UP`";
        return std::nullopt;
      }
      seen = true;
      section = *marker;
      continue;
    }
    if (section.empty()) {
      std::string_view t = trim(line);
      if (!t.empty() && !t.starts_with("--")) {
        if (error) *error = "line " + std::to_string(line_no) + ": SQL before the `-- UP` line";
        return std::nullopt;
      }
      continue;
    }
    std::string& into = section == "UP" ? m.up : m.down;
    into.append(line);
    into += '\n';
  }
  if (!seen_up) {
    if (error) *error = "no `-- UP` line";
    return std::nullopt;
  }
  return m;
}

std::string render_migration(std::string_view name, std::string_view created, const std::vector<std::string>& up,
                             const std::vector<std::string>& down) {
  std::string s = "-- Migration: " + std::string(name) + "\n-- Created: " + std::string(created) + "\n\n-- UP\n";
  if (up.empty()) s += "-- the statements that apply this migration\n";
  // Notes come in as `-- ` lines and stay comments.
  for (const std::string& st : up) s += st + (st.starts_with("--") ? "\n" : ";\n");
  s += "\n-- DOWN\n";
  if (down.empty()) s += "-- the statements that undo it (`fitz db rollback`)\n";
  for (const std::string& st : down) s += st + ";\n";
  return s;
}

std::vector<std::string> destructive_statements(std::string_view sql) {
  std::vector<std::string> out;
  for (const Statement& s : split_statements(sql)) {
    if (!destructive(s.words)) continue;
    std::string t = s.text;
    if (t.size() > 100) t = t.substr(0, 97) + "...";
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace fitz::migrate
