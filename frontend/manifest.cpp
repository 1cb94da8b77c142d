// fitz.toml support: a strict parser for the TOML subset manifests use (into a small value tree
// with spans), then validation of that tree into a Manifest, reporting problems as diagnostics.
#include "frontend/manifest.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace fitz::frontend {

namespace {

// ---- The TOML value tree ------------------------------------------------------------------------

struct TomlEntry;

// How a table came to exist; TOML's rules on redefining tables depend on it.
enum class TableOrigin : uint8_t { Implicit, Header, Dotted, Inline, ArrayElement };

struct TomlValue {
  enum class Kind : uint8_t { String, Integer, Boolean, Array, Table };
  Kind kind = Kind::Table;
  Span span;  // the value's text; for a table from a header, the header's key
  std::string string;
  int64_t integer = 0;
  bool boolean = false;
  std::vector<TomlValue> items;    // Array
  std::vector<TomlEntry> entries;  // Table, in file order
  TableOrigin origin = TableOrigin::Implicit;
  bool array_of_tables = false;  // an Array created by `[[…]]`

  TomlEntry* find(std::string_view key);
  TomlEntry const* find(std::string_view key) const {
    return const_cast<TomlValue*>(this)->find(key);
  }
};

struct TomlEntry {
  std::string key;
  Span key_span;
  TomlValue value;
};

TomlEntry* TomlValue::find(std::string_view key) {
  for (auto& e : entries) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

std::string_view kind_name(TomlValue const& v) {
  constexpr std::string_view kNames[] = {"a string", "an integer", "a boolean", "an array",
                                         "a table"};
  return kNames[static_cast<int>(v.kind)];
}

struct KeyPart {
  std::string name;
  Span span;
};

std::string dotted(std::vector<KeyPart> const& parts, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) out += (i ? "." : "") + parts[i].name;
  return out;
}

bool is_bare_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int digit_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// ---- The parser ---------------------------------------------------------------------------------

// Stops at the first syntax error: a manifest is short, and errors after a broken line are
// rarely meaningful.
class TomlParser {
 public:
  TomlParser(SourceFile const& file, DiagnosticBag& diags)
      : file_(file), text_(file.text()), diags_(diags) {}

 private:
  char peek(int ahead = 0) const {
    uint32_t const at = pos_ + ahead;
    return at < text_.size() ? text_[at] : '\0';
  }
  bool eof() const { return pos_ >= text_.size(); }
  bool at_newline() const { return peek() == '\n' || (peek() == '\r' && peek(1) == '\n'); }
  Span span(uint32_t b, uint32_t e) const { return {file_.id(), b, e}; }
  Diagnostic& error_at(uint32_t b, uint32_t e, std::string message) {
    return diags_.error(DiagKind::ManifestSyntax, span(b, e), std::move(message));
  }
  bool fail(uint32_t b, uint32_t e, std::string message) {
    error_at(b, e, std::move(message));
    return false;
  }

  // "expected X, found Y" at the cursor, naming what is there in the user's terms.
  bool fail_here(std::string_view expected) {
    char32_t cp;
    uint32_t const len = eof() || at_newline() ? 0 : decode_utf8(text_, pos_, cp);
    std::string found = eof()      ? "end of file"
                        : len == 0 ? "end of line"
                                   : fmt::format("`{}`", text_.substr(pos_, len));
    if (len != 0 && (cp < 0x20 || cp == 0x7F || (len == 1 && cp == 0xFFFD))) {
      found = fmt::format("byte 0x{:02X}", static_cast<unsigned char>(text_[pos_]));
    }
    return fail(pos_, pos_ + len, fmt::format("expected {}, found {}", expected, found));
  }

  void skip_ws() {
    while (peek() == ' ' || peek() == '\t') ++pos_;
  }

  // Checks one character of string or comment text: TOML text is valid UTF-8 without control
  // characters other than tab (and newlines where `multiline`).
  bool check_text_char(uint32_t at, bool multiline, uint32_t& len) {
    char32_t cp;
    len = decode_utf8(text_, at, cp);
    if (len == 1 && cp == 0xFFFD) return fail(at, at + 1, "invalid UTF-8 in fitz.toml");
    if (multiline &&
        (cp == '\n' || (cp == '\r' && at + 1 < text_.size() && text_[at + 1] == '\n'))) {
      return true;
    }
    if ((cp < 0x20 && cp != '\t') || cp == 0x7F) {
      return fail(
          at, at + 1,
          fmt::format("control character U+{:04X} is not allowed here", static_cast<uint32_t>(cp)));
    }
    return true;
  }

  bool skip_comment() {
    if (peek() != '#') return true;
    while (!eof() && !at_newline()) {
      uint32_t len;
      if (!check_text_char(pos_, false, len)) return false;
      pos_ += len;
    }
    return true;
  }

  // Whitespace, comments and line breaks: between statements and inside arrays.
  bool skip_blank() {
    for (;;) {
      skip_ws();
      if (!skip_comment()) return false;
      if (!at_newline()) return true;
      pos_ += peek() == '\r' ? 2 : 1;
    }
  }

  bool end_line() {
    skip_ws();
    if (!skip_comment()) return false;
    if (eof()) return true;
    if (!at_newline()) return fail_here("a new line");
    pos_ += peek() == '\r' ? 2 : 1;
    return true;
  }

 public:
  bool parse(TomlValue& root) {
    root = TomlValue{};
    root.origin = TableOrigin::Header;
    TomlValue* current = &root;
    for (;;) {
      if (!skip_blank()) return false;
      if (eof()) return true;
      if (peek() == '[') {
        if (!parse_header(root, current)) return false;
      } else {
        std::vector<KeyPart> key;
        if (!parse_key(key)) return false;
        skip_ws();
        if (peek() != '=')
          return fail_here(fmt::format("`=` after the key `{}`", dotted(key, key.size())));
        ++pos_;
        skip_ws();
        TomlValue value;
        if (!parse_value(value) || !insert(*current, key, std::move(value))) return false;
      }
      if (!end_line()) return false;
    }
  }

 private:
  bool parse_key(std::vector<KeyPart>& parts) {
    for (;;) {
      skip_ws();
      KeyPart part;
      uint32_t const start = pos_;
      if (peek() == '"' || peek() == '\'') {
        if (peek(1) == peek() && peek(2) == peek())
          return fail(pos_, pos_ + 3, "a key cannot be a multi-line string");
        if (!parse_string(part.name)) return false;
      } else {
        while (is_bare_key_char(peek())) ++pos_;
        if (pos_ == start) return fail_here("a key");
        part.name = std::string(text_.substr(start, pos_ - start));
      }
      part.span = span(start, pos_);
      parts.push_back(std::move(part));
      skip_ws();
      if (peek() != '.') return true;
      ++pos_;
    }
  }

  bool parse_value(TomlValue& out) {
    uint32_t const start = pos_;
    char const c = peek();
    bool ok;
    if (c == '"' || c == '\'') {
      out.kind = TomlValue::Kind::String;
      ok = parse_string(out.string);
    } else if (c == '[') {
      ok = parse_array(out);
    } else if (c == '{') {
      ok = parse_inline_table(out);
    } else if (is_digit(c) || c == '+' || c == '-') {
      ok = parse_number(out);
    } else {
      while (is_bare_key_char(peek())) ++pos_;
      std::string_view const word = text_.substr(start, pos_ - start);
      if (word == "true" || word == "false") {
        out.kind = TomlValue::Kind::Boolean;
        out.boolean = word == "true";
        ok = true;
      } else if (word == "inf" || word == "nan") {
        ok = fail(start, pos_, "floating-point values are not supported in fitz.toml");
      } else if (!word.empty()) {
        error_at(start, pos_, fmt::format("expected a value, found `{}`", word))
            .with_hint(fmt::format("strings are written in quotes: \"{}\"", word));
        ok = false;
      } else {
        ok = fail_here("a value (a string, integer, boolean, array or inline table)");
      }
    }
    out.span = span(start, pos_);
    return ok;
  }

  // Basic ("…", with escapes) and literal ('…', verbatim) strings, each single- or multi-line.
  bool parse_string(std::string& out) {
    uint32_t const open = pos_;
    char const quote = peek();
    bool const multiline = peek(1) == quote && peek(2) == quote;
    pos_ += multiline ? 3 : 1;
    if (multiline && at_newline()) pos_ += peek() == '\r' ? 2 : 1;  // trimmed, as TOML says
    for (;;) {
      if (eof() || (!multiline && at_newline())) {
        return fail(open, pos_,
                    multiline ? "unterminated multi-line string" : "unterminated string");
      }
      if (peek() == quote) {
        uint32_t run = 1;
        while (multiline && peek(run) == quote) ++run;
        if (multiline && run < 3) {
          out.append(run, quote);
          pos_ += run;
          continue;
        }
        // Up to two quotes may sit right before the closing three.
        if (run > 5)
          return fail(pos_, pos_ + run, "too many quotes at the end of a multi-line string");
        out.append(multiline ? run - 3 : 0, quote);
        pos_ += run;
        return true;
      }
      if (quote == '"' && peek() == '\\') {
        if (!parse_escape(out, multiline)) return false;
        continue;
      }
      uint32_t len;
      if (!check_text_char(pos_, multiline, len)) return false;
      if (peek() == '\r') {  // a CRLF inside a multi-line string reads as LF
        out += '\n';
        pos_ += 2;
        continue;
      }
      out.append(text_.substr(pos_, len));
      pos_ += len;
    }
  }

  bool parse_escape(std::string& out, bool multiline) {
    uint32_t const esc = pos_;
    char const e = peek(1);
    pos_ += 2;
    switch (e) {
      case 'b': out += '\b'; return true;
      case 't': out += '\t'; return true;
      case 'n': out += '\n'; return true;
      case 'f': out += '\f'; return true;
      case 'r': out += '\r'; return true;
      case '"': out += '"'; return true;
      case '\\': out += '\\'; return true;
      case 'u':
      case 'U': {
        uint32_t const digits = e == 'u' ? 4 : 8;
        char32_t cp = 0;
        for (uint32_t i = 0; i < digits; ++i, ++pos_) {
          int const v = digit_value(peek());
          if (v < 0)
            return fail(esc, pos_, fmt::format("`\\{}` needs {} hexadecimal digits", e, digits));
          cp = cp * 16 + static_cast<char32_t>(v);
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
          return fail(esc, pos_, "escape is not a Unicode scalar value");
        }
        append_utf8(out, cp);
        return true;
      }
      default: break;
    }
    if (multiline) {
      // A backslash ending a line trims the line break and the whitespace after it.
      uint32_t p = esc + 1;
      while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t')) ++p;
      if (p < text_.size() && (text_[p] == '\n' || text_[p] == '\r')) {
        pos_ = p;
        while (!eof() && (peek() == ' ' || peek() == '\t' || at_newline()))
          pos_ += peek() == '\r' ? 2 : 1;
        return true;
      }
    }
    char32_t cp;
    uint32_t const len = esc + 1 < text_.size() ? decode_utf8(text_, esc + 1, cp) : 0;
    return fail(esc, esc + 1 + len,
                fmt::format("invalid escape `\\{}` in string", text_.substr(esc + 1, len)));
  }

  // Decimal integers only: fitz.toml needs no other bases, floats or dates, and saying so beats
  // a confusing error later.
  bool parse_number(TomlValue& out) {
    uint32_t const start = pos_;
    out.kind = TomlValue::Kind::Integer;
    bool const negative = peek() == '-';
    if (peek() == '+' || peek() == '-') ++pos_;
    uint32_t const digits = pos_;
    uint64_t magnitude = 0;
    bool overflow = false;
    for (; is_digit(peek()) || peek() == '_'; ++pos_) {
      if (peek() != '_') {
        overflow |= __builtin_mul_overflow(magnitude, uint64_t{10}, &magnitude) ||
                    __builtin_add_overflow(magnitude, uint64_t(peek() - '0'), &magnitude);
      } else if (pos_ == digits || !is_digit(text_[pos_ - 1]) || !is_digit(peek(1))) {
        return fail(pos_, pos_ + 1, "`_` in a number must be between two digits");
      }
    }
    if (pos_ == digits) return fail_here("digits");
    char const next = peek();
    if (next == '.' || next == 'e' || next == 'E') {
      return fail(start, pos_ + 1, "floating-point values are not supported in fitz.toml");
    }
    if (next == '-' || next == ':') {
      return fail(start, pos_ + 1, "dates and times are not supported in fitz.toml");
    }
    if (pos_ == digits + 1 && peek(-1) == '0' && (next == 'x' || next == 'o' || next == 'b')) {
      return fail(start, pos_ + 1, "only decimal integers are supported in fitz.toml");
    }
    if (is_bare_key_char(next)) return fail_here("the end of the number");
    if (text_[digits] == '0' && pos_ - digits > 1) {
      return fail(start, pos_, "leading zeros are not allowed in an integer");
    }
    uint64_t const limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    if (overflow || magnitude > limit) return fail(start, pos_, "integer does not fit in 64 bits");
    out.integer = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    return true;
  }

  bool parse_array(TomlValue& out) {
    out.kind = TomlValue::Kind::Array;
    uint32_t const open = pos_++;
    for (;;) {
      if (!skip_blank()) return false;
      if (peek() == ']') break;
      if (eof()) return fail(open, open + 1, "expected `]` to close this array");
      TomlValue item;
      if (!parse_value(item)) return false;
      out.items.push_back(std::move(item));
      if (!skip_blank()) return false;
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != ']') return fail_here("`,` or `]` in the array");
      break;
    }
    ++pos_;
    return true;
  }

  bool parse_inline_table(TomlValue& out) {
    out.kind = TomlValue::Kind::Table;
    out.origin = TableOrigin::Inline;
    ++pos_;
    skip_ws();
    if (peek() == '}') {
      ++pos_;
      return true;
    }
    for (;;) {
      std::vector<KeyPart> key;
      if (!parse_key(key)) return false;
      if (peek() != '=')
        return fail_here(fmt::format("`=` after the key `{}`", dotted(key, key.size())));
      ++pos_;
      skip_ws();
      TomlValue value;
      if (!parse_value(value) || !insert(out, key, std::move(value))) return false;
      skip_ws();
      if (peek() == '}') {
        ++pos_;
        return true;
      }
      if (peek() != ',')
        return fail_here("`,` or `}` in the inline table (inline tables fit on one line)");
      uint32_t const comma = pos_++;
      skip_ws();
      if (peek() == '}') return fail(comma, comma + 1, "trailing comma in an inline table");
    }
  }

  // Walks all but the last part of `key` from `table`, creating missing tables. A header may pass
  // through any table it did not get from an inline table and into the last `[[…]]` element; a
  // dotted key only through tables that dotted keys created. Null after reporting a conflict.
  TomlValue* descend(TomlValue& table, std::vector<KeyPart> const& key, bool header) {
    TomlValue* target = &table;
    for (size_t i = 0; i + 1 < key.size(); ++i) {
      TomlEntry* e = target->find(key[i].name);
      if (e == nullptr) {
        TomlValue t;
        t.origin = header ? TableOrigin::Implicit : TableOrigin::Dotted;
        t.span = key[i].span;
        target->entries.push_back({key[i].name, key[i].span, std::move(t)});
        target = &target->entries.back().value;
      } else if (e->value.kind == TomlValue::Kind::Table &&
                 (header ? e->value.origin != TableOrigin::Inline
                         : e->value.origin == TableOrigin::Dotted)) {
        target = &e->value;
      } else if (header && e->value.array_of_tables) {
        target = &e->value.items.back();
      } else {
        error_at(
            key[i].span.begin, key[i].span.end,
            fmt::format("`{}` is already defined as {}", dotted(key, i + 1), kind_name(e->value)))
            .with_label(e->key_span, "first defined here");
        return nullptr;
      }
    }
    return target;
  }

  bool insert(TomlValue& table, std::vector<KeyPart> const& key, TomlValue value) {
    TomlValue* target = descend(table, key, false);
    if (target == nullptr) return false;
    KeyPart const& last = key.back();
    if (TomlEntry* e = target->find(last.name)) {
      error_at(last.span.begin, last.span.end,
               fmt::format("duplicate key `{}`", dotted(key, key.size())))
          .with_label(e->key_span, "first defined here");
      return false;
    }
    target->entries.push_back({last.name, last.span, std::move(value)});
    return true;
  }

  bool parse_header(TomlValue& root, TomlValue*& current) {
    uint32_t const open = pos_;
    bool const array = peek(1) == '[';
    pos_ += array ? 2 : 1;
    std::vector<KeyPart> key;
    if (!parse_key(key)) return false;
    if (peek() != ']' || (array && peek(1) != ']')) return fail_here(array ? "`]]`" : "`]`");
    pos_ += array ? 2 : 1;
    TomlValue* table = descend(root, key, true);
    if (table == nullptr) return false;
    KeyPart const& last = key.back();
    TomlEntry* e = table->find(last.name);
    TomlValue fresh;
    fresh.span = last.span;
    fresh.origin = array ? TableOrigin::ArrayElement : TableOrigin::Header;
    if (e == nullptr) {
      TomlValue value;
      if (array) {
        value.kind = TomlValue::Kind::Array;
        value.array_of_tables = true;
        value.span = last.span;
        value.items.push_back(std::move(fresh));
      } else {
        value = std::move(fresh);
      }
      table->entries.push_back({last.name, last.span, std::move(value)});
      e = &table->entries.back();
      current = array ? &e->value.items.back() : &e->value;
      return true;
    }
    if (array && e->value.array_of_tables) {
      e->value.items.push_back(std::move(fresh));
      current = &e->value.items.back();
      return true;
    }
    if (!array && e->value.kind == TomlValue::Kind::Table &&
        e->value.origin == TableOrigin::Implicit) {
      e->value.origin = TableOrigin::Header;
      e->value.span = last.span;
      current = &e->value;
      return true;
    }
    error_at(open, pos_, fmt::format("`{}` is already defined", dotted(key, key.size())))
        .with_label(e->key_span, fmt::format("first defined here as {}", kind_name(e->value)));
    return false;
  }

  SourceFile const& file_;
  std::string_view text_;
  DiagnosticBag& diags_;
  uint32_t pos_ = 0;
};

// ---- From the value tree to a Manifest ----------------------------------------------------------

class ManifestBuilder {
 public:
  explicit ManifestBuilder(DiagnosticBag& diags) : diags_(diags) {}
  bool build(TomlValue const& root, Manifest& out);

 private:
  using Kind = TomlValue::Kind;

  Diagnostic& error(DiagKind kind, Span span, std::string message) {
    ok_ = false;
    return diags_.error(kind, span, std::move(message));
  }
  void unknown(TomlEntry const& e, std::string_view where) {
    diags_.warning(DiagKind::ManifestUnknownKey, e.key_span,
                   fmt::format("unknown key `{}` in {}; it is ignored", e.key, where));
  }
  bool expect(TomlEntry const& e, Kind kind, std::string_view what, std::string_view name) {
    if (e.value.kind == kind) return true;
    error(DiagKind::ManifestInvalidField, e.value.span,
          fmt::format("`{}` must be {}, found {}", name, what, kind_name(e.value)));
    return false;
  }
  std::optional<std::string> string_of(TomlEntry const& e, std::string_view name) {
    if (!expect(e, Kind::String, "a string", name)) return std::nullopt;
    return e.value.string;
  }
  // One report listing every absent key: the bag keeps one diagnostic per kind and span.
  void missing(TomlValue const& table, std::vector<std::string_view> const& keys,
               std::string_view where) {
    if (keys.empty()) return;
    error(DiagKind::ManifestInvalidField, table.span,
          fmt::format("missing `{}` in {}", fmt::join(keys, "`, `"), where));
  }


  void read_package(TomlEntry const& e, Manifest& m);
  void read_bins(TomlEntry const& e, Manifest& m);
  void read_bin(TomlValue const& t, bool single, Manifest& m);
  void read_lib(TomlEntry const& e, Manifest& m);
  void read_dependency(TomlEntry const& e, Manifest& m);
  void read_flags(TomlEntry const& e, Manifest& m);
  void read_python(TomlEntry const& e, Manifest& m);
  void read_lint(TomlEntry const& e, Manifest& m);

  DiagnosticBag& diags_;
  bool ok_ = true;
};

bool ManifestBuilder::build(TomlValue const& root, Manifest& m) {
  // [package] first: a single [bin] takes its name from the package.
  auto const package = std::find_if(root.entries.begin(), root.entries.end(),
                                    [](TomlEntry const& e) { return e.key == "package"; });
  if (package == root.entries.end()) {
    error(DiagKind::ManifestInvalidField, Span{m.file, 0, 0}, "missing `[package]` table")
        .with_hint("start fitz.toml with `[package]` and its `name`, `version` and `edition`");
  } else {
    read_package(*package, m);
  }
  for (auto const& e : root.entries) {
    if (e.key == "package") continue;
    if (e.key == "bin") {
      read_bins(e, m);
    } else if (e.key == "lib") {
      read_lib(e, m);
    } else if (e.key == "dependencies") {
      if (!expect(e, Kind::Table, "a table", "dependencies")) continue;
      for (auto const& dep : e.value.entries) read_dependency(dep, m);
    } else if (e.key == "flags") {
      read_flags(e, m);
    } else if (e.key == "python") {
      read_python(e, m);
    } else if (e.key == "lint") {
      read_lint(e, m);
    } else {
      diags_.warning(DiagKind::ManifestUnknownKey, e.key_span,
                     fmt::format("unknown table or key `{}` in fitz.toml; it is ignored", e.key));
    }
  }
  return ok_;
}

void ManifestBuilder::read_package(TomlEntry const& e, Manifest& m) {
  if (!expect(e, Kind::Table, "a table", "package")) return;
  std::pair<std::string_view, std::string*> const strings[] = {{"name", &m.name},
                                                               {"version", &m.version},
                                                               {"edition", &m.edition},
                                                               {"description", &m.description},
                                                               {"license", &m.license}};
  for (auto const& f : e.value.entries) {
    std::string const name = "package." + f.key;
    auto const* field = std::find_if(std::begin(strings), std::end(strings),
                                     [&](auto const& s) { return s.first == f.key; });
    if (field != std::end(strings)) {
      if (auto v = string_of(f, name)) *field->second = *v;
    } else if (f.key == "authors") {
      if (!expect(f, Kind::Array, "an array of strings", name)) continue;
      for (auto const& item : f.value.items) {
        if (item.kind == Kind::String) {
          m.authors.push_back(item.string);
        } else {
          error(DiagKind::ManifestInvalidField, item.span,
                fmt::format("`{}` must hold strings, found {}", name, kind_name(item)));
        }
      }
    } else {
      unknown(f, "`[package]`");
    }
  }
  std::vector<std::string_view> absent;
  for (std::string_view required : {"name", "version", "edition"}) {
    if (e.value.find(required) == nullptr) absent.push_back(required);
  }
  missing(e.value, absent, "`[package]`");
  TomlEntry const* name = e.value.find("name");
  if (name && name->value.kind == Kind::String && !is_valid_package_name(m.name)) {
    error(DiagKind::InvalidPackageName, name->value.span,
          fmt::format("invalid package name `{}`", m.name))
        .with_hint(
            "a package name starts with a lower-case letter, continues with `a-z`, `0-9`, "
            "`_` or `-` and has at most 64 characters");
  }
  TomlEntry const* edition = e.value.find("edition");
  if (edition && edition->value.kind == Kind::String && m.edition != kCurrentEdition) {
    error(DiagKind::ManifestInvalidField, edition->value.span,
          fmt::format("unsupported edition `{}`", m.edition))
        .with_hint(fmt::format("the current edition is \"{}\"", kCurrentEdition));
  }
}

void ManifestBuilder::read_bins(TomlEntry const& e, Manifest& m) {
  if (e.value.kind == Kind::Table) {
    read_bin(e.value, true, m);
  } else if (e.value.kind == Kind::Array) {
    for (auto const& item : e.value.items) {
      if (item.kind == Kind::Table) {
        read_bin(item, false, m);
      } else {
        error(DiagKind::ManifestInvalidField, item.span,
              fmt::format("each `bin` must be a table, found {}", kind_name(item)));
      }
    }
  } else {
    error(DiagKind::ManifestInvalidField, e.value.span,
          fmt::format("`bin` must be a table or `[[bin]]` entries, found {}", kind_name(e.value)));
  }
  for (size_t i = 0; i < m.bins.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (m.bins[i].name == m.bins[j].name) {
        error(DiagKind::ManifestInvalidField, m.bins[i].span,
              fmt::format("two binaries are named `{}`", m.bins[i].name))
            .with_label(m.bins[j].span, "the other one");
        break;
      }
    }
  }
}

void ManifestBuilder::read_bin(TomlValue const& t, bool single, Manifest& m) {
  std::string_view const where = single ? "`[bin]`" : "`[[bin]]`";
  BinTarget bin;
  bin.name = m.name;
  bool has_name = false, has_main = false;
  for (auto const& f : t.entries) {
    if (f.key == "name") {
      has_name = true;
      if (auto v = string_of(f, "bin.name")) {
        bin.name = *v;
        if (!is_valid_package_name(*v)) {
          error(DiagKind::InvalidPackageName, f.value.span,
                fmt::format("invalid binary name `{}`", *v))
              .with_hint("binary names follow the package-name rules: `^[a-z][a-z0-9_-]{0,63}$`");
        }
      }
    } else if (f.key == "main") {
      has_main = true;
      bin.span = f.value.span;
      if (auto v = string_of(f, "bin.main")) bin.main = *v;
    } else if (f.key == "target") {
      auto v = string_of(f, "bin.target");
      if (v && *v != "native") {
        bool const known = *v == "wasm-client" || *v == "ssr";
        error(DiagKind::ManifestInvalidField, f.value.span,
              known ? fmt::format("bin target `{}` is not supported", *v)
                    : fmt::format("unknown bin target `{}`", *v))
            .with_hint("the supported target is \"native\" (the default)");
      }
    } else {
      unknown(f, where);
    }
  }
  std::vector<std::string_view> absent;
  if (!single && !has_name) absent.push_back("name");
  if (!has_main) absent.push_back("main");
  missing(t, absent, where);
  if (has_main) m.bins.push_back(std::move(bin));
}

void ManifestBuilder::read_lib(TomlEntry const& e, Manifest& m) {
  if (!expect(e, Kind::Table, "a table", "lib")) return;
  for (auto const& f : e.value.entries) {
    if (f.key == "entry") {
      if (auto v = string_of(f, "lib.entry")) m.lib_entry = *v;
    } else {
      unknown(f, "`[lib]`");
    }
  }
  if (!m.lib_entry) missing(e.value, {"entry"}, "`[lib]`");
}

void ManifestBuilder::read_dependency(TomlEntry const& e, Manifest& m) {
  if (!is_valid_package_name(e.key)) {
    error(DiagKind::InvalidPackageName, e.key_span,
          fmt::format("invalid dependency name `{}`", e.key))
        .with_hint("dependency names follow the package-name rules: `^[a-z][a-z0-9_-]{0,63}$`");
  }
  std::string const example_hint = fmt::format(
      "write `{0} = {{ path = \"../{0}\" }}` or `{0} = {{ git = \"https://…\", tag = \"v1.0.0\" "
      "}}`",
      e.key);
  if (e.value.kind != Kind::Table) {
    error(DiagKind::UnsupportedDependency, e.value.span,
          e.value.kind == Kind::String
              ? fmt::format("dependency `{}` is a version string, but fitz has no package registry",
                            e.key)
              : fmt::format("dependency `{}` must be a table, found {}", e.key, kind_name(e.value)))
        .with_hint(example_hint);
    return;
  }
  Dependency dep;
  dep.name = e.key;
  dep.span = e.key_span;
  TomlEntry const *path = nullptr, *git = nullptr, *tag = nullptr, *rev = nullptr;
  bool refused = false;
  for (auto const& f : e.value.entries) {
    std::string const name = fmt::format("dependencies.{}.{}", e.key, f.key);
    if (f.key == "path" || f.key == "git" || f.key == "tag" || f.key == "rev") {
      if (!string_of(f, name)) continue;
      (f.key == "path" ? path : f.key == "git" ? git : f.key == "tag" ? tag : rev) = &f;
    } else if (f.key == "branch") {
      refused = true;
      error(DiagKind::UnsupportedDependency, f.key_span,
            "`branch` is not supported: a branch moves, so builds would not be reproducible")
          .with_hint("pin the dependency with `tag = \"…\"` or `rev = \"<commit>\"`");
    } else if (f.key == "version") {
      refused = true;
      error(DiagKind::UnsupportedDependency, f.key_span,
            "`version` is not supported: fitz has no package registry")
          .with_hint(example_hint);
    } else {
      unknown(f, fmt::format("dependency `{}`", e.key));
    }
  }
  auto refuse = [&](Span span, std::string message) {
    refused = true;
    error(DiagKind::UnsupportedDependency, span, std::move(message)).with_hint(example_hint);
  };
  if (path && git) {
    refuse(git->key_span, fmt::format("dependency `{}` has both `path` and `git`", e.key));
  } else if (!path && !git) {
    if (!refused) refuse(e.key_span, fmt::format("dependency `{}` needs `path` or `git`", e.key));
  } else if (path) {
    if (tag || rev) {
      TomlEntry const* extra = tag ? tag : rev;
      refuse(extra->key_span, fmt::format("`{}` only applies to git dependencies", extra->key));
    }
    dep.path = path->value.string;
    dep.source_span = path->value.span;
  } else {
    if (tag && rev) {
      refuse(rev->key_span, fmt::format("git dependency `{}` has both `tag` and `rev`", e.key));
    } else if (!tag && !rev && !refused) {
      refuse(e.key_span, fmt::format("git dependency `{}` needs a `tag` or a `rev`", e.key));
    }
    dep.git = git->value.string;
    dep.source_span = git->value.span;
    if (tag) dep.tag = tag->value.string;
    if (rev) dep.rev = rev->value.string;
  }
  if (!refused) m.dependencies.push_back(std::move(dep));
}

void ManifestBuilder::read_flags(TomlEntry const& e, Manifest& m) {
  if (!expect(e, Kind::Table, "a table", "flags")) return;
  for (auto const& f : e.value.entries) {
    if (f.value.kind == Kind::Boolean) {
      m.flags.emplace_back(f.key, f.value.boolean);
    } else {
      error(
          DiagKind::ManifestInvalidField, f.value.span,
          fmt::format("flag `{}` must be `true` or `false`, found {}", f.key, kind_name(f.value)));
    }
  }
}

void ManifestBuilder::read_python(TomlEntry const& e, Manifest& m) {
  if (!expect(e, Kind::Table, "a table", "python")) return;
  for (auto const& f : e.value.entries) {
    if (f.key != "path") {
      unknown(f, "`[python]`");
      continue;
    }
    if (!expect(f, Kind::Array, "an array of strings", "python.path")) continue;
    for (auto const& item : f.value.items) {
      if (item.kind == Kind::String)
        m.python_path.push_back(item.string);
      else
        error(DiagKind::ManifestInvalidField, item.span,
              fmt::format("`python.path` must hold strings, found {}", kind_name(item)));
    }
  }
}

void ManifestBuilder::read_lint(TomlEntry const& e, Manifest& m) {
  if (!expect(e, Kind::Table, "a table", "lint")) return;
  for (auto const& f : e.value.entries) {
    if (f.key != "deny" && f.key != "allow") {
      unknown(f, "`[lint]`");
      continue;
    }
    std::string const name = "lint." + f.key;
    if (!expect(f, Kind::Array, "an array of lint names", name)) continue;
    for (auto const& item : f.value.items) {
      if (item.kind == Kind::String)
        (f.key == "deny" ? m.lint_deny : m.lint_allow).push_back(item.string);
      else
        error(DiagKind::ManifestInvalidField, item.span,
              fmt::format("`{}` must hold strings, found {}", name, kind_name(item)));
    }
  }
}

}  // namespace

bool is_valid_package_name(std::string_view name) {
  if (name.empty() || name.size() > 64 || !(name[0] >= 'a' && name[0] <= 'z')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_' || c == '-';
  });
}

std::optional<Manifest> parse_manifest(SourceFile const& file, DiagnosticBag& diagnostics) {
  TomlValue root;
  if (!TomlParser(file, diagnostics).parse(root)) return std::nullopt;
  Manifest manifest;
  manifest.file = file.id();
  if (!ManifestBuilder(diagnostics).build(root, manifest)) return std::nullopt;
  return manifest;
}

std::optional<Manifest> load_manifest(SourceManager& sources, std::filesystem::path const& path,
                                      DiagnosticBag& diagnostics) {
  llvm::Expected<FileId> id = sources.read_file(path);
  if (!id) {
    diagnostics.error(DiagKind::ManifestUnreadable, Span{},
                      fmt::format("cannot read `{}`: {}", path.string(), llvm::toString(id.takeError())));
    return std::nullopt;
  }
  return parse_manifest(sources.file(*id), diagnostics);
}

std::optional<std::filesystem::path> find_manifest(std::filesystem::path const& start_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = fs::absolute(start_dir, ec);
  if (ec) return std::nullopt;
  dir = dir.lexically_normal();
  if (!dir.has_filename() && dir != dir.root_path()) dir = dir.parent_path();  // trailing '/'
  if (fs::is_regular_file(dir, ec)) dir = dir.parent_path();
  for (;;) {
    fs::path candidate = dir / kManifestFileName;
    if (fs::is_regular_file(candidate, ec)) return candidate;
    fs::path parent = dir.parent_path();
    if (parent.empty() || parent == dir) return std::nullopt;
    dir = std::move(parent);
  }
}

}  // namespace fitz::frontend
