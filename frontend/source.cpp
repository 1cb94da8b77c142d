// Line tables and UTF-8/UTF-16 position conversion for SourceFile, plus file loading.
// Everything here tolerates arbitrary bytes: sources are never rejected for bad encoding.
#include "frontend/source.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cstring>
#include <system_error>

#include <llvm/Support/MemoryBuffer.h>

namespace fitz::frontend {

namespace {

bool is_cont(unsigned char b) { return (b & 0xC0) == 0x80; }

bool in(unsigned char b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; }

}  // namespace

uint32_t decode_utf8(std::string_view text, uint32_t pos, char32_t& cp) {
  auto const n = text.size() - pos;
  auto byte = [&](uint32_t i) { return static_cast<unsigned char>(text[pos + i]); };
  unsigned char const b0 = byte(0);
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  }
  cp = 0xFFFD;
  // Second-byte ranges per the Unicode well-formedness table; they exclude overlong encodings,
  // surrogates and code points above U+10FFFF.
  if (in(b0, 0xC2, 0xDF)) {
    if (n >= 2 && is_cont(byte(1))) {
      cp = (char32_t(b0 & 0x1F) << 6) | (byte(1) & 0x3F);
      return 2;
    }
    return 1;
  }
  unsigned lo = 0x80, hi = 0xBF;
  uint32_t len = 0;
  if (b0 == 0xE0) {
    lo = 0xA0, len = 3;
  } else if (in(b0, 0xE1, 0xEC) || in(b0, 0xEE, 0xEF)) {
    len = 3;
  } else if (b0 == 0xED) {
    hi = 0x9F, len = 3;
  } else if (b0 == 0xF0) {
    lo = 0x90, len = 4;
  } else if (in(b0, 0xF1, 0xF3)) {
    len = 4;
  } else if (b0 == 0xF4) {
    hi = 0x8F, len = 4;
  } else {
    return 1;
  }
  if (n < len || !in(byte(1), lo, hi)) return 1;
  for (uint32_t i = 2; i < len; ++i) {
    if (!is_cont(byte(i))) return 1;
  }
  char32_t value = len == 3 ? (b0 & 0x0F) : (b0 & 0x07);
  for (uint32_t i = 1; i < len; ++i) value = (value << 6) | (byte(i) & 0x3F);
  cp = value;
  return len;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

SourceFile::SourceFile(FileId id, std::string path, std::string text)
    : id_(id), path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  // memchr rather than a loop over bytes: the language server adds the edited file again on
  // every keystroke.
  const char* begin = text_.data();
  const char* end = begin + text_.size();
  for (const char* p = begin; p < end;) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
    if (!nl) break;
    line_starts_.push_back(static_cast<uint32_t>(nl - begin) + 1);
    p = nl + 1;
  }
}

std::string_view SourceFile::slice(Span span) const {
  uint32_t const b = std::min(span.begin, size());
  uint32_t const e = std::clamp(span.end, b, size());
  return std::string_view(text_).substr(b, e - b);
}

uint32_t SourceFile::line_index(uint32_t byte_offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), byte_offset);
  return static_cast<uint32_t>(it - line_starts_.begin()) - 1;
}

uint32_t SourceFile::line_content_end(uint32_t index) const {
  if (index + 1 >= line_starts_.size()) return size();
  uint32_t end = line_starts_[index + 1] - 1;  // the '\n'
  if (end > line_starts_[index] && text_[end - 1] == '\r') --end;
  return end;
}

uint32_t SourceFile::line_start(uint32_t line) const {
  if (line == 0) return 0;
  if (line > line_count()) return size();
  return line_starts_[line - 1];
}

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line == 0 || line > line_count()) return {};
  uint32_t const start = line_starts_[line - 1];
  return std::string_view(text_).substr(start, line_content_end(line - 1) - start);
}

LineCol SourceFile::line_col(uint32_t byte_offset) const {
  uint32_t const offset = std::min(byte_offset, size());
  uint32_t const index = line_index(offset);
  uint32_t pos = line_starts_[index];
  uint32_t col = 1;
  char32_t cp;
  while (pos < offset) {
    uint32_t const len = decode_utf8(text_, pos, cp);
    if (pos + len > offset) break;
    pos += len;
    ++col;
  }
  return {index + 1, col};
}

uint32_t SourceFile::offset_of(LineCol lc) const {
  uint32_t const line = std::max<uint32_t>(lc.line, 1);
  if (line > line_count()) return size();
  uint32_t pos = line_starts_[line - 1];
  uint32_t const end = line_content_end(line - 1);
  char32_t cp;
  for (uint32_t col = 1; col < lc.col && pos < end; ++col) pos += decode_utf8(text_, pos, cp);
  return pos;
}

uint32_t SourceFile::utf16_col(uint32_t byte_offset) const {
  uint32_t const offset = std::min(byte_offset, size());
  uint32_t pos = line_starts_[line_index(offset)];
  uint32_t units = 0;
  char32_t cp;
  while (pos < offset) {
    uint32_t const len = decode_utf8(text_, pos, cp);
    if (pos + len > offset) break;
    pos += len;
    units += cp > 0xFFFF ? 2 : 1;
  }
  return units;
}

uint32_t SourceFile::offset_of_utf16(uint32_t line0, uint32_t character16) const {
  if (line0 >= line_count()) return size();
  uint32_t pos = line_starts_[line0];
  uint32_t const end = line_content_end(line0);
  uint32_t units = 0;
  char32_t cp;
  while (pos < end) {
    uint32_t const len = decode_utf8(text_, pos, cp);
    uint32_t const width = cp > 0xFFFF ? 2 : 1;
    if (units + width > character16) break;
    units += width;
    pos += len;
  }
  return pos;
}

FileId SourceManager::add(std::string path, std::string text) {
  FileId const id{static_cast<uint32_t>(files_.size())};
  files_.push_back(std::make_unique<SourceFile>(id, std::move(path), std::move(text)));
  return id;
}

FileId SourceManager::adopt(std::unique_ptr<SourceFile> file) {
  file->id_ = FileId{static_cast<uint32_t>(files_.size())};
  files_.push_back(std::move(file));
  return files_.back()->id_;
}

SourceFile const& SourceManager::file(FileId id) const {
  assert(id.valid() && id.value < files_.size());
  return *files_[id.value];
}

SourceFile const* SourceManager::find(FileId id) const {
  if (!id.valid() || id.value >= files_.size()) return nullptr;
  return files_[id.value].get();
}

void SourceManager::release(FileId id) {
  if (!id.valid() || id.value >= files_.size() || files_[id.value]->size() == 0) return;
  auto& f = files_[id.value];
  f = std::make_unique<SourceFile>(id, f->path(), std::string());
  ++released_;
}

std::optional<FileId> SourceManager::find_by_path(std::string_view path) const {
  for (auto it = files_.rbegin(); it != files_.rend(); ++it) {
    if ((*it)->path() == path) return (*it)->id();
  }
  return std::nullopt;
}

namespace {

// "No such file or directory" -> "no such file or directory": reasons follow our message style.
std::string lower_first(std::string msg) {
  if (!msg.empty()) msg[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(msg[0])));
  return msg;
}

}  // namespace

llvm::Expected<std::string> read_source_text(std::filesystem::path const& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return llvm::createStringError(std::make_error_code(std::errc::is_a_directory), "is a directory");
  // Not null-terminated and not volatile: large files are mapped rather than read, and the text
  // is copied once, into the string the SourceFile keeps.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path.string(), /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) return llvm::createStringError(buffer.getError(), lower_first(buffer.getError().message()));
  llvm::StringRef bytes = (*buffer)->getBuffer();
  if (bytes.size() >= std::numeric_limits<uint32_t>::max())
    return llvm::createStringError(std::make_error_code(std::errc::file_too_large), "file is too large (4 GiB or more)");
  return std::string(bytes.data(), bytes.size());
}

llvm::Expected<FileId> SourceManager::read_file(std::filesystem::path const& path) {
  llvm::Expected<std::string> text = read_source_text(path);
  if (!text) return text.takeError();
  if (text->starts_with("\xEF\xBB\xBF")) text->erase(0, 3);
  return add(path.string(), std::move(*text));
}

}  // namespace fitz::frontend
