// Printing and parsing fitz.lock. The parser accepts exactly the shapes the printer writes
// (comments, `version`, `[[package]]` tables of string and string-array fields), so a lock
// edited into something else is reported instead of half-understood.
#include "packages/lockfile.h"
#include "packages/toml_string.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace fitz::packages {

namespace {


class LockParser {
 public:
  explicit LockParser(std::string_view text) : text_(text) {}

  LockParse parse() {
    LockParse out;
    Lockfile lock;
    bool have_version = false;
    LockedPackage* current = nullptr;
    std::vector<std::string> seen_keys;
    while (pos_ < text_.size()) {
      skip_spaces();
      if (at_line_end()) {
        next_line();
        continue;
      }
      line_start_ = pos_;
      if (text_.substr(pos_).starts_with("[[package]]")) {
        if (current && !complete(*current, out.error)) return out;
        pos_ += 11;
        lock.packages.emplace_back();
        current = &lock.packages.back();
        seen_keys.clear();
      } else {
        std::string key = bare_key();
        if (key.empty()) return fail(out, "expected a key, `[[package]]` or a comment");
        skip_spaces();
        if (peek() != '=') return fail(out, fmt::format("expected `=` after `{}`", key));
        ++pos_;
        skip_spaces();
        if (std::find(seen_keys.begin(), seen_keys.end(), key) != seen_keys.end())
          return fail(out, fmt::format("`{}` appears twice", key));
        seen_keys.push_back(key);
        if (!current) {
          if (key != "version") return fail(out, fmt::format("unknown key `{}` before the first `[[package]]`", key));
          uint32_t digits = pos_;
          while (peek() >= '0' && peek() <= '9') ++pos_;
          if (text_.substr(digits, pos_ - digits) != std::to_string(kLockVersion))
            return fail(out, fmt::format("unsupported lock version (this fitz writes version {})", kLockVersion));
          have_version = true;
        } else if (key == "dependencies") {
          if (!string_array(current->dependencies, out)) return out;
        } else {
          std::string* field = key == "name" ? &current->name
                               : key == "source" ? &current->source
                               : key == "rev" ? &current->rev
                               : key == "hash" ? &current->hash
                                               : nullptr;
          if (!field) return fail(out, fmt::format("unknown key `{}` in `[[package]]`", key));
          if (!string(*field, out)) return out;
        }
      }
      skip_spaces();
      if (!at_line_end()) return fail(out, "expected the end of the line");
      next_line();
    }
    line_start_ = static_cast<uint32_t>(text_.size());
    if (current && !complete(*current, out.error)) return out;
    if (!have_version) return fail(out, "missing `version`");
    for (size_t i = 1; i < lock.packages.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (lock.packages[i].name == lock.packages[j].name)
          return fail(out, fmt::format("package `{}` is locked twice", lock.packages[i].name));
    out.lock = std::move(lock);
    return out;
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_spaces() {
    while (peek() == ' ' || peek() == '\t') ++pos_;
    if (peek() == '#')
      while (pos_ < text_.size() && peek() != '\n') ++pos_;
  }
  bool at_line_end() const { return pos_ >= text_.size() || peek() == '\n' || peek() == '\r'; }
  void next_line() {
    while (pos_ < text_.size() && peek() != '\n') ++pos_;
    if (pos_ < text_.size()) ++pos_;
  }
  LockParse& fail(LockParse& out, std::string message) {
    uint32_t end = line_start_;
    while (end < text_.size() && text_[end] != '\n' && text_[end] != '\r') ++end;
    out.error = {line_start_, end, std::move(message)};
    out.lock.reset();
    return out;
  }
  std::string bare_key() {
    uint32_t start = pos_;
    while ((peek() >= 'a' && peek() <= 'z') || peek() == '-' || peek() == '_') ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  bool string(std::string& out_value, LockParse& out) {
    if (peek() != '"') return fail(out, "expected a string in double quotes"), false;
    ++pos_;
    std::string value;
    for (;;) {
      if (at_line_end()) return fail(out, "unterminated string"), false;
      char c = text_[pos_++];
      if (c == '"') break;
      if (c == '\\') {
        char e = peek();
        if (e != '"' && e != '\\' && e != 'n') return fail(out, "invalid escape in string"), false;
        ++pos_;
        value += e == 'n' ? '\n' : e;
        continue;
      }
      value += c;
    }
    out_value = std::move(value);
    return true;
  }
  bool string_array(std::vector<std::string>& items, LockParse& out) {
    if (peek() != '[') return fail(out, "expected an array of strings"), false;
    ++pos_;
    skip_spaces();
    while (peek() != ']') {
      std::string item;
      if (!string(item, out)) return false;
      items.push_back(std::move(item));
      skip_spaces();
      if (peek() == ',') {
        ++pos_;
        skip_spaces();
      } else if (peek() != ']') {
        return fail(out, "expected `,` or `]` in the array"), false;
      }
    }
    ++pos_;
    return true;
  }
  bool complete(const LockedPackage& p, LockError& error) {
    std::vector<std::string_view> missing;
    if (p.name.empty()) missing.push_back("name");
    if (p.source.empty()) missing.push_back("source");
    if (p.rev.empty()) missing.push_back("rev");
    if (p.hash.empty()) missing.push_back("hash");
    if (missing.empty()) return true;
    uint32_t end = line_start_;
    while (end < text_.size() && text_[end] != '\n') ++end;
    error = {line_start_, end,
             fmt::format("a `[[package]]` before this line lacks `{}`", fmt::join(missing, "`, `"))};
    return false;
  }

  std::string_view text_;
  uint32_t pos_ = 0;
  uint32_t line_start_ = 0;
};

}  // namespace

const LockedPackage* Lockfile::find(std::string_view name) const {
  for (const auto& p : packages)
    if (p.name == name) return &p;
  return nullptr;
}

std::string git_source(std::string_view url, std::optional<std::string> const& tag,
                       std::optional<std::string> const& rev) {
  if (tag) return fmt::format("git+{}?tag={}", url, *tag);
  return fmt::format("git+{}?rev={}", url, rev.value_or(""));
}

std::string print_lock(Lockfile lock) {
  std::sort(lock.packages.begin(), lock.packages.end(),
            [](const LockedPackage& a, const LockedPackage& b) { return a.name < b.name; });
  std::string out =
      "# Written by fitz from fitz.toml: the exact revision and content hash of every git\n"
      "# dependency. Commit it; `fitz update` moves it forward.\n";
  out += fmt::format("version = {}\n", kLockVersion);
  for (LockedPackage& p : lock.packages) {
    std::sort(p.dependencies.begin(), p.dependencies.end());
    std::vector<std::string> deps;
    for (const auto& d : p.dependencies) deps.push_back(toml_string(d));
    out += fmt::format("\n[[package]]\nname = {}\nsource = {}\nrev = {}\nhash = {}\ndependencies = [{}]\n",
                       toml_string(p.name), toml_string(p.source), toml_string(p.rev), toml_string(p.hash), fmt::join(deps, ", "));
  }
  return out;
}

LockParse parse_lock(std::string_view text) { return LockParser(text).parse(); }

}  // namespace fitz::packages
