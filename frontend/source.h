// Source files, their line tables and byte-offset spans: the position vocabulary every phase
// shares. Diagnostics, the AST and the language server all speak in `Span`s over these files.
#pragma once

#include <compare>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <llvm/Support/Error.h>

namespace fitz::frontend {

// A typed index into a SourceManager. The default value is "no file", used by diagnostics that
// have no location (e.g. an unreadable manifest).
struct FileId {
  static constexpr uint32_t kInvalid = std::numeric_limits<uint32_t>::max();
  uint32_t value = kInvalid;

  constexpr bool valid() const { return value != kInvalid; }
  friend constexpr auto operator<=>(FileId, FileId) = default;
};

// 1-based line and column; the column counts Unicode scalar values (an invalid UTF-8 byte counts
// as one), which is what users and the conformance corpus see.
struct LineCol {
  uint32_t line = 1;
  uint32_t col = 1;
  friend constexpr auto operator<=>(LineCol, LineCol) = default;
};

// Half-open byte range [begin, end) in one file.
struct Span {
  FileId file;
  uint32_t begin = 0;
  uint32_t end = 0;

  constexpr uint32_t size() const { return end - begin; }
  constexpr bool empty() const { return end == begin; }
  friend constexpr auto operator<=>(Span const&, Span const&) = default;
};

// Length in bytes of the UTF-8 sequence starting at `text[pos]`, or 1 when the bytes there are
// not a well-formed sequence (overlong forms, surrogates and values above U+10FFFF included).
// `cp` receives the decoded scalar, or U+FFFD for an invalid byte.
uint32_t decode_utf8(std::string_view text, uint32_t pos, char32_t& cp);
void append_utf8(std::string& out, char32_t cp);  // `cp` must be a Unicode scalar value

// The bytes of a file as they are on disk (no byte-order mark dropped), read in one piece. Fails
// for a directory ("is a directory", errc::is_a_directory) and at 4 GiB; other failures carry
// the system's error code.
llvm::Expected<std::string> read_source_text(std::filesystem::path const& path);

class SourceFile {
 public:
  SourceFile(FileId id, std::string path, std::string text);

  FileId id() const { return id_; }
  std::string const& path() const { return path_; }
  std::string_view text() const { return text_; }
  uint32_t size() const { return static_cast<uint32_t>(text_.size()); }
  std::string_view slice(Span span) const;

  // Lines are separated by `\n` only (like the lexer); a `\r` before the `\n` belongs to the
  // terminator and is excluded from `line_text`. A lone `\r` is an ordinary character.
  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }
  uint32_t line_start(uint32_t line) const;  // 1-based line; clamps
  std::string_view line_text(uint32_t line) const;  // 1-based; empty past the end

  // Offsets past the end clamp to the end; an offset inside a multi-byte character maps to that
  // character's column.
  LineCol line_col(uint32_t byte_offset) const;
  // Inverse of line_col. Columns past the end of the line clamp to the end of its text (before
  // the terminator); lines past the end clamp to the end of the file.
  uint32_t offset_of(LineCol pos) const;

  // The language server's positions: 0-based line, 0-based column in UTF-16 code units (a
  // scalar above U+FFFF counts 2, an invalid byte counts 1 as its U+FFFD replacement would).
  uint32_t utf16_col(uint32_t byte_offset) const;
  // A character that falls inside a surrogate pair maps to the start of that scalar.
  uint32_t offset_of_utf16(uint32_t line0, uint32_t character16) const;

 private:
  uint32_t line_index(uint32_t byte_offset) const;  // 0-based
  uint32_t line_content_end(uint32_t line_index) const;

  friend class SourceManager;  // adopt() gives a file made ahead its id

  FileId id_;
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
};

// Owns every loaded file. Files never move once added, so `SourceFile const&` stays valid for
// the manager's lifetime. Not thread-safe; the language server serialises access to it.
class SourceManager {
 public:
  SourceManager() = default;
  SourceManager(SourceManager const&) = delete;
  SourceManager& operator=(SourceManager const&) = delete;
  SourceManager(SourceManager&&) = default;
  SourceManager& operator=(SourceManager&&) = default;

  FileId add(std::string path, std::string text);
  // Adds a file made before its id was known, with a provisional one (read and lowered on
  // another thread while files are still being added): it takes the next id, as add() would
  // give. The caller moves the spans it made with the provisional id (frontend::refile).
  FileId adopt(std::unique_ptr<SourceFile> file);
  // `id` must come from this manager; use find() when that is not certain.
  SourceFile const& file(FileId id) const;
  SourceFile const* find(FileId id) const;  // null for an invalid or foreign id
  std::optional<FileId> find_by_path(std::string_view path) const;  // the latest added
  uint32_t size() const { return static_cast<uint32_t>(files_.size()); }
  // Frees the text and line table of a file nobody reads any more (a long-lived manager adds a
  // file per new content). The id stays valid and reads as an empty file, so a stray span into
  // it clamps instead of dangling.
  void release(FileId id);
  uint32_t released() const { return released_; }

  // Reads a file from disk and adds it (always a new FileId; callers that cache by path use
  // find_by_path). A leading UTF-8 byte-order mark is dropped so columns match what editors
  // show. A failure's message is a lower-case reason ("no such file or directory").
  llvm::Expected<FileId> read_file(std::filesystem::path const& path);

 private:
  std::vector<std::unique_ptr<SourceFile>> files_;
  uint32_t released_ = 0;
};

}  // namespace fitz::frontend
