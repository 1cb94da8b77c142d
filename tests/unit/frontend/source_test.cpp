// Unit tests of SourceFile and SourceManager: line tables, scalar columns over multi-byte and
// invalid UTF-8, UTF-16 conversion for the language server, and reading files from disk.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "frontend/source.h"

namespace fitz::frontend {
namespace {

SourceFile make(std::string text) { return SourceFile(FileId{0}, "t.fitz", std::move(text)); }

TEST(SourceFile, LineTableAndLineText) {
  auto f = make("ab\ncd\r\n\nlast");
  EXPECT_EQ(f.line_count(), 4u);
  EXPECT_EQ(f.line_text(1), "ab");
  EXPECT_EQ(f.line_text(2), "cd");  // the \r of CRLF belongs to the terminator
  EXPECT_EQ(f.line_text(3), "");
  EXPECT_EQ(f.line_text(4), "last");
  EXPECT_EQ(f.line_text(0), "");
  EXPECT_EQ(f.line_text(5), "");
  EXPECT_EQ(f.line_start(2), 3u);
  EXPECT_EQ(f.line_start(4), 8u);
}

TEST(SourceFile, TrailingNewlineStartsAnEmptyLastLine) {
  auto f = make("x\n");
  EXPECT_EQ(f.line_count(), 2u);
  EXPECT_EQ(f.line_col(2), (LineCol{2, 1}));
}

TEST(SourceFile, EmptyFile) {
  auto f = make("");
  EXPECT_EQ(f.line_count(), 1u);
  EXPECT_EQ(f.line_col(0), (LineCol{1, 1}));
  EXPECT_EQ(f.line_col(10), (LineCol{1, 1}));
  EXPECT_EQ(f.offset_of({3, 3}), 0u);
  EXPECT_EQ(f.utf16_col(0), 0u);
  EXPECT_EQ(f.offset_of_utf16(0, 5), 0u);
}

TEST(SourceFile, LoneCarriageReturnIsAnOrdinaryCharacter) {
  auto f = make("a\rb\nc");
  EXPECT_EQ(f.line_count(), 2u);
  EXPECT_EQ(f.line_text(1), "a\rb");
  EXPECT_EQ(f.line_col(2), (LineCol{1, 3}));
}

TEST(SourceFile, ColumnsCountScalarsNotBytes) {
  // "é" is 2 bytes, "€" 3, "😀" 4.
  auto f = make("let é = \"€😀x\"\nπ");
  EXPECT_EQ(f.line_col(0), (LineCol{1, 1}));
  EXPECT_EQ(f.line_col(4), (LineCol{1, 5}));   // é
  EXPECT_EQ(f.line_col(6), (LineCol{1, 6}));   // the space after é
  std::string_view text = f.text();
  uint32_t const x = static_cast<uint32_t>(text.find('x'));
  EXPECT_EQ(f.line_col(x), (LineCol{1, 12}));  // l e t _ é _ = _ " € 😀 x
  uint32_t const pi = static_cast<uint32_t>(text.find("π"));
  EXPECT_EQ(f.line_col(pi), (LineCol{2, 1}));
  EXPECT_EQ(f.line_col(f.size()), (LineCol{2, 2}));
}

TEST(SourceFile, OffsetInsideAMultiByteCharacterMapsToThatCharacter) {
  auto f = make("a😀b");
  EXPECT_EQ(f.line_col(1), (LineCol{1, 2}));
  EXPECT_EQ(f.line_col(2), (LineCol{1, 2}));
  EXPECT_EQ(f.line_col(4), (LineCol{1, 2}));
  EXPECT_EQ(f.line_col(5), (LineCol{1, 3}));
}

TEST(SourceFile, OffsetOfIsTheInverseOfLineCol) {
  auto f = make("héllo\nwörld 😀!\n\tx");
  for (uint32_t off = 0; off <= f.size(); ++off) {
    LineCol lc = f.line_col(off);
    uint32_t back = f.offset_of(lc);
    // Offsets inside a character come back as the character's start.
    EXPECT_LE(back, off);
    EXPECT_EQ(f.line_col(back), lc) << off;
  }
}

TEST(SourceFile, OffsetOfClampsColumnsAndLines) {
  auto f = make("ab\r\ncd");
  EXPECT_EQ(f.offset_of({1, 99}), 2u);  // end of "ab", before the CRLF
  EXPECT_EQ(f.offset_of({2, 3}), 6u);
  EXPECT_EQ(f.offset_of({9, 1}), 6u);
  EXPECT_EQ(f.offset_of({0, 0}), 0u);
}

TEST(SourceFile, InvalidUtf8CountsOneColumnPerByte) {
  // \xFF and \xC0 can never appear in UTF-8; \xE2\x82 is a truncated 3-byte sequence; \xED\xA0\x80
  // encodes a surrogate; \xF0\x82\x82\xAC is an overlong encoding.
  auto f = make(std::string("\xFF\xC0" "a" "\xE2\x82" "b" "\xED\xA0\x80" "c" "\xF0\x82\x82\xAC" "d"));
  std::string_view t = f.text();
  EXPECT_EQ(f.line_col(static_cast<uint32_t>(t.find('a'))).col, 3u);
  EXPECT_EQ(f.line_col(static_cast<uint32_t>(t.find('b'))).col, 6u);
  EXPECT_EQ(f.line_col(static_cast<uint32_t>(t.find('c'))).col, 10u);
  EXPECT_EQ(f.line_col(static_cast<uint32_t>(t.find('d'))).col, 15u);
  EXPECT_EQ(f.utf16_col(static_cast<uint32_t>(t.find('d'))), 14u);
}

TEST(SourceFile, NulBytesAreOrdinaryCharacters) {
  std::string text("a\0b\n\0", 5);
  auto f = make(text);
  EXPECT_EQ(f.size(), 5u);
  EXPECT_EQ(f.line_count(), 2u);
  EXPECT_EQ(f.line_col(2), (LineCol{1, 3}));
  EXPECT_EQ(f.line_text(1), std::string_view("a\0b", 3));
  EXPECT_EQ(f.line_col(5), (LineCol{2, 2}));
}

TEST(SourceFile, Utf16ColumnsCountSurrogatePairsAsTwo) {
  auto f = make("x = \"😀é\" + 𝔸\n");
  std::string_view t = f.text();
  uint32_t const e_acute = static_cast<uint32_t>(t.find("é"));
  uint32_t const close = static_cast<uint32_t>(t.find('"', 5));
  uint32_t const double_struck = static_cast<uint32_t>(t.find("𝔸"));
  EXPECT_EQ(f.utf16_col(e_acute), 7u);  // x _ = _ " 😀(2)
  EXPECT_EQ(f.utf16_col(close), 8u);
  EXPECT_EQ(f.utf16_col(double_struck), 12u);
  EXPECT_EQ(f.utf16_col(double_struck + 4), 14u);
  EXPECT_EQ(f.line_col(double_struck).col, 12u);  // scalars, for comparison
}

TEST(SourceFile, OffsetOfUtf16RoundTripsAndSnapsInsideSurrogatePairs) {
  auto f = make("a😀b\n𝔸");
  EXPECT_EQ(f.offset_of_utf16(0, 0), 0u);
  EXPECT_EQ(f.offset_of_utf16(0, 1), 1u);
  EXPECT_EQ(f.offset_of_utf16(0, 2), 1u);  // between the surrogates: start of 😀
  EXPECT_EQ(f.offset_of_utf16(0, 3), 5u);
  EXPECT_EQ(f.offset_of_utf16(0, 4), 6u);
  EXPECT_EQ(f.offset_of_utf16(0, 99), 6u);  // clamps to the end of the line
  EXPECT_EQ(f.offset_of_utf16(1, 2), 11u);
  EXPECT_EQ(f.offset_of_utf16(7, 0), f.size());
  for (uint32_t off : {0u, 1u, 5u, 6u, 7u, 11u}) {
    uint32_t const line0 = f.line_col(off).line - 1;
    EXPECT_EQ(f.offset_of_utf16(line0, f.utf16_col(off)), off) << off;
  }
}

TEST(SourceFile, RandomBytesNeverBreakTheConversions) {
  std::mt19937 rng(1234);
  for (int round = 0; round < 200; ++round) {
    std::string text;
    int const n = static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) text += static_cast<char>(rng() % 256);
    auto f = make(text);
    for (uint32_t off = 0; off <= f.size(); ++off) {
      LineCol const lc = f.line_col(off);
      ASSERT_GE(lc.line, 1u);
      ASSERT_LE(lc.line, f.line_count());
      uint32_t const back = f.offset_of(lc);
      ASSERT_LE(back, off);
      uint32_t const u16 = f.offset_of_utf16(lc.line - 1, f.utf16_col(off));
      ASSERT_EQ(u16, back);
    }
  }
}

TEST(SourceFile, Slice) {
  auto f = make("hello world");
  EXPECT_EQ(f.slice({FileId{0}, 6, 11}), "world");
  EXPECT_EQ(f.slice({FileId{0}, 6, 99}), "world");
  EXPECT_EQ(f.slice({FileId{0}, 99, 100}), "");
}

TEST(DecodeUtf8, AcceptsBoundariesAndRejectsMalformedSequences) {
  char32_t cp;
  EXPECT_EQ(decode_utf8("\x7F", 0, cp), 1u);
  EXPECT_EQ(decode_utf8("\xC2\x80", 0, cp), 2u);
  EXPECT_EQ(cp, 0x80u);
  EXPECT_EQ(decode_utf8("\xEF\xBF\xBD", 0, cp), 3u);
  EXPECT_EQ(cp, 0xFFFDu);
  EXPECT_EQ(decode_utf8("\xF4\x8F\xBF\xBF", 0, cp), 4u);
  EXPECT_EQ(cp, 0x10FFFFu);
  EXPECT_EQ(decode_utf8("\xF4\x90\x80\x80", 0, cp), 1u);  // above U+10FFFF
  EXPECT_EQ(decode_utf8("\xE0\x80\xAF", 0, cp), 1u);      // overlong
  EXPECT_EQ(decode_utf8("\xC1\xBF", 0, cp), 1u);          // overlong
  EXPECT_EQ(decode_utf8("\x80", 0, cp), 1u);              // stray continuation
  EXPECT_EQ(cp, 0xFFFDu);
  EXPECT_EQ(decode_utf8("\xE2\x82", 0, cp), 1u);          // truncated at the end
}

TEST(AppendUtf8, EncodesEveryLength) {
  std::string out;
  for (char32_t cp : {U'a', U'é', U'€', U'😀'}) append_utf8(out, cp);
  EXPECT_EQ(out, "aé€😀");
}

TEST(SourceManager, AddAndFind) {
  SourceManager sm;
  FileId a = sm.add("a.fitz", "x");
  FileId b = sm.add("b.fitz", "y");
  EXPECT_NE(a, b);
  EXPECT_EQ(sm.size(), 2u);
  EXPECT_EQ(sm.file(b).text(), "y");
  EXPECT_EQ(sm.file(a).path(), "a.fitz");
  EXPECT_EQ(sm.find(FileId{}), nullptr);
  EXPECT_EQ(sm.find(FileId{7}), nullptr);
  EXPECT_EQ(sm.find_by_path("b.fitz"), b);
  EXPECT_FALSE(sm.find_by_path("c.fitz").has_value());
  // References survive later additions.
  SourceFile const& first = sm.file(a);
  for (int i = 0; i < 100; ++i) sm.add("f" + std::to_string(i), "z");
  EXPECT_EQ(first.text(), "x");
}

class TempDir {
 public:
  TempDir() {
    auto base = std::filesystem::temp_directory_path();
    std::random_device rd;
    path_ = base / ("fitz_source_test_" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::filesystem::path const& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(SourceManager, ReadFileDropsTheByteOrderMark) {
  TempDir dir;
  auto p = dir.path() / "main.fitz";
  std::ofstream(p, std::ios::binary) << "\xEF\xBB\xBFlet x = 1\n";
  SourceManager sm;
  llvm::Expected<FileId> id = sm.read_file(p);
  ASSERT_TRUE(static_cast<bool>(id)) << llvm::toString(id.takeError());
  EXPECT_EQ(sm.file(*id).text(), "let x = 1\n");
  EXPECT_EQ(sm.file(*id).path(), p.string());
}

TEST(SourceManager, ReadFileKeepsBinaryContent) {
  TempDir dir;
  auto p = dir.path() / "bin.fitz";
  std::string content("a\0\xFF\r\n", 5);
  std::ofstream(p, std::ios::binary) << content;
  SourceManager sm;
  llvm::Expected<FileId> id = sm.read_file(p);
  ASSERT_TRUE(static_cast<bool>(id)) << llvm::toString(id.takeError());
  EXPECT_EQ(sm.file(*id).text(), content);
}

TEST(SourceManager, ReadFileReadsLargeFilesWhole) {
  // Past a few pages the file is mapped rather than read: the text must still be all of it.
  TempDir dir;
  auto p = dir.path() / "big.fitz";
  std::string content;
  for (int i = 0; content.size() < (1u << 20); ++i) content += "let x" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  std::ofstream(p, std::ios::binary) << content;
  SourceManager sm;
  llvm::Expected<FileId> id = sm.read_file(p);
  ASSERT_TRUE(static_cast<bool>(id)) << llvm::toString(id.takeError());
  EXPECT_EQ(sm.file(*id).text(), content);
  EXPECT_EQ(sm.file(*id).line_count(), static_cast<uint32_t>(std::count(content.begin(), content.end(), '\n') + 1));
}

TEST(SourceManager, ReadFileReportsMissingFilesAndDirectories) {
  TempDir dir;
  SourceManager sm;
  auto reason = [](llvm::Expected<FileId> id) { return id ? std::string() : llvm::toString(id.takeError()); };
  EXPECT_EQ(reason(sm.read_file(dir.path() / "missing.fitz")), "no such file or directory");
  EXPECT_EQ(reason(sm.read_file(dir.path())), "is a directory");
  EXPECT_EQ(sm.size(), 0u);
}

}  // namespace
}  // namespace fitz::frontend
