// Str: storage modes, char-based length/indexing/slicing with multi-byte UTF-8, and methods.
#include <gtest/gtest.h>

#include <string>

#include "fitz/runtime.h"

using namespace fitz::literals;
using fitz::List;
using fitz::Str;

namespace {
std::string s(const Str& x) { return x.as<std::string>(); }
std::string shown(const auto& v) { return fitz::to_str(v).template as<std::string>(); }
}  // namespace

TEST(Str, StorageModes) {
  Str empty;
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_STREQ(empty.c_str(), "");
  Str small("hello");  // inline
  Str fifteen("123456789012345");
  Str big("this string is longer than fifteen bytes");
  Str lit = "a literal"_s;
  EXPECT_EQ(s(small), "hello");
  EXPECT_EQ(fifteen.size(), 15u);
  EXPECT_STREQ(fifteen.c_str(), "123456789012345");
  EXPECT_EQ(s(big), "this string is longer than fifteen bytes");
  EXPECT_EQ(s(lit), "a literal");
  Str copy = big;  // shared block
  EXPECT_EQ(copy.data(), big.data());
  Str moved = std::move(copy);
  EXPECT_TRUE(copy.empty());
  EXPECT_EQ(moved, big);
  copy = moved;
  Str& self = copy;
  copy = self;  // self-assignment keeps the value
  EXPECT_EQ(copy, big);
  EXPECT_EQ(Str::from(std::string("std")), "std"_s);
  EXPECT_EQ(sizeof(Str), 16u);
}

// Found by the HTTP request fuzzer (a query key without a value): an empty Buf has no storage,
// so taking it copied zero bytes from a null pointer, undefined behaviour under UBSan.
TEST(Str, FromEmptyBufferAndNullPointer) {
  fitz::Buf b;
  Str taken = b.take();
  EXPECT_EQ(taken.size(), 0u);
  EXPECT_STREQ(taken.c_str(), "");
  Str none(nullptr, 0);
  EXPECT_EQ(none, Str(""));
}

// Found by the HTTP request fuzzer (an empty Content-Type lower-cased): reserving nothing in a
// buffer without storage computed an offset from a null pointer.
TEST(Str, ReserveNothingInEmptyBuffer) {
  fitz::Buf b;
  char* p = b.reserve_tail(0);
  EXPECT_NE(p, nullptr);
  b.commit(0);
  EXPECT_EQ(b.take(), Str(""));
}

TEST(Str, CharLengthIndexingAndSlicing) {
  // strings_escapes.out: len("héllo") == 5, word[1] == "é", word[-1] == "o"
  Str word("h\xc3\xa9llo");
  EXPECT_EQ(word.len(), 5);
  EXPECT_EQ(fitz::len(word), 5);
  EXPECT_EQ(s(word.at(1)), "\xc3\xa9");
  EXPECT_EQ(s(word.at(-1)), "o");
  EXPECT_EQ(s(word.slice(1, 3, false)), "\xc3\xa9l");
  Str emoji("caf\xc3\xa9 \xf0\x9f\x98\x80!");
  EXPECT_EQ(emoji.len(), 7);
  EXPECT_EQ(s(emoji.at(5)), "\xf0\x9f\x98\x80");
  EXPECT_EQ(s(emoji.at(-2)), "\xf0\x9f\x98\x80");
  // slicing.out
  Str motto = "keep it simple"_s;
  EXPECT_EQ(s(motto.slice(0, 4, false)), "keep");
  EXPECT_EQ(s(motto.slice(-6, fitz::detail::slice_end, false)), "simple");
  EXPECT_EQ(s(motto.slice(5, 6, true)), "it");
  EXPECT_EQ(s(motto.slice(0, fitz::detail::slice_end, false)), "keep it simple");
  EXPECT_EQ(shown(motto.at(0)) + " " + shown(motto.at(-1)), "k e");
  EXPECT_EQ(s(motto.slice(10, 99, false)), "mple");
  EXPECT_EQ(s(motto.slice(50, 99, false)), "");
  EXPECT_EQ(s(motto.slice(4, 1, false)), "");
  fitz::Panic p;
  EXPECT_TRUE(fitz::catch_panic([&] { word.at(5, {"s.fitz", 1, 1}); }, &p));
  EXPECT_EQ(p.message, "index 5 out of range for string of length 5"_s);
  EXPECT_TRUE(fitz::catch_panic([&] { word.at(-6); }, &p));
}

TEST(Str, StrMethodsOut) {
  Str padded = "  Fitz Roy  "_s;
  EXPECT_EQ(s(padded.trim()), "Fitz Roy");
  EXPECT_EQ(s(padded.trim_start()), "Fitz Roy  ");
  EXPECT_EQ(s(padded.trim_end()), "  Fitz Roy");
  Str t = "Fitz Roy"_s;
  EXPECT_EQ(s(t.upper()) + " " + s(t.lower()), "FITZ ROY fitz roy");
  EXPECT_TRUE(t.contains("Roy"_s));
  EXPECT_TRUE(t.starts_with("Fi"_s));
  EXPECT_FALSE(t.ends_with("x"_s));
  EXPECT_EQ(shown("a,b,,c"_s.split(","_s)), "[\"a\", \"b\", \"\", \"c\"]");
  EXPECT_EQ(shown("abc"_s.split(""_s)), "[\"a\", \"b\", \"c\"]");
  EXPECT_EQ(shown("abc"_s.chars()), "[\"a\", \"b\", \"c\"]");
  EXPECT_EQ(s("one two"_s.replace("o"_s, "0"_s)), "0ne tw0");
  EXPECT_EQ(s("ab"_s.repeat(3)), "ababab");
  EXPECT_EQ(s("hi"_s.repeat_with(3, "-"_s)), "hi-hi-hi");
  EXPECT_EQ(s("7"_s.pad_start(3, "0"_s)), "007");
  EXPECT_EQ(s("7"_s.pad_end(3, "."_s)), "7..");
  EXPECT_EQ(s("mid"_s.center(7, "*"_s)), "**mid**");
  EXPECT_EQ(s("hello"_s.left(2)) + " " + s("hello"_s.right(3)), "he llo");
  EXPECT_EQ(s("hello world"_s.title()), "Hello World");
  EXPECT_EQ(s("MiXeD"_s.swap_case()), "mIxEd");
  EXPECT_EQ(shown("line1\nline2"_s.lines()), "[\"line1\", \"line2\"]");
  EXPECT_TRUE("12"_s.is_digit());
  EXPECT_TRUE("ab"_s.is_alpha());
  EXPECT_TRUE(""_s.is_empty());
  EXPECT_FALSE("x"_s.is_empty());
  EXPECT_EQ(shown("banana"_s.find("an"_s)), "Ok(1)");
  EXPECT_EQ(shown("banana"_s.last_index_of("an"_s)), "Ok(3)");
  EXPECT_EQ(shown("key=value"_s.split_at(3)), "(\"key\", \"=value\")");
  EXPECT_EQ(s("abc"_s + "def"_s), "abcdef");
  EXPECT_TRUE("abc"_s < "abd"_s);
}

TEST(Str, MoreMethods) {
  EXPECT_EQ(s("h\xc3\xa9llo wORLD"_s.upper()), "H\xc3\x89LLO WORLD");
  EXPECT_EQ(s("\xc3\x89T\xc3\x89"_s.lower()), "\xc3\xa9t\xc3\xa9");
  EXPECT_EQ(s("stra\xc3\x9f" "e"_s.upper()), "STRASSE");
  EXPECT_EQ(s("\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82"_s.upper()), "\xd0\x9f\xd0\xa0\xd0\x98\xd0\x92\xd0\x95\xd0\xa2");
  EXPECT_EQ(s("hola mundo de fitz"_s.title()), "Hola Mundo De Fitz");
  EXPECT_EQ(s("Hola Mundo"_s.swap_case()), "hOLA mUNDO");
  EXPECT_FALSE("hola123"_s.is_alpha());
  EXPECT_FALSE(""_s.is_alpha());
  EXPECT_TRUE("\xc3\xb1" "and" "\xc3\xba"_s.is_alpha());
  EXPECT_FALSE("12a"_s.is_digit());
  EXPECT_TRUE("3.14"_s.is_numeric());
  EXPECT_TRUE("-42"_s.is_numeric());
  EXPECT_TRUE("1e5"_s.is_numeric());
  EXPECT_FALSE("3.14.5"_s.is_numeric());
  EXPECT_FALSE("."_s.is_numeric());
  EXPECT_FALSE(""_s.is_numeric());
  EXPECT_EQ(shown("caf\xc3\xa9 latte"_s.find("latte"_s)), "Ok(5)");
  EXPECT_EQ(shown("hola"_s.index_of("nope"_s)), "Err(\"not found\")");
  EXPECT_EQ(s("hola mundo"_s.center(20, "-"_s)), "-----hola mundo-----");
  EXPECT_EQ(s("Reporte"_s.center(30, "="_s)), "===========Reporte============");
  EXPECT_EQ(s("ab"_s.left(99)), "ab");
  EXPECT_EQ(s(""_s.left(5)), "");
  EXPECT_EQ(s("42"_s.pad_start(5, "0"_s)), "00042");
  EXPECT_EQ(s("x"_s.pad_start(6, "ab"_s)), "ababax");
  EXPECT_EQ(s("hola, mundo"_s.pad_start(5, "*"_s)), "hola, mundo");
  EXPECT_EQ(s("abc"_s.replace(""_s, "-"_s)), "-a-b-c-");
  EXPECT_EQ(s("aaa"_s.replace("a"_s, "bb"_s)), "bbbbbb");
  EXPECT_EQ(shown("a\r\nb\n"_s.lines()), "[\"a\", \"b\"]");
  EXPECT_EQ(shown(""_s.split(","_s)), "[\"\"]");
  EXPECT_EQ(shown("  a  b "_s.split_whitespace()), "[\"a\", \"b\"]");
  EXPECT_EQ(s(", "_s.join(List<Str>{"a"_s, "b"_s})), "a, b");
  EXPECT_EQ(s(" \t\xc2\xa0x\xe3\x80\x80"_s.trim()), "x");
  EXPECT_EQ(shown("h\xc3\xa9llo"_s.split_at(2)), "(\"h\xc3\xa9\", \"llo\")");
  EXPECT_EQ(shown("abc"_s.split_at(-1)), "(\"\", \"abc\")");
  EXPECT_EQ(s("ab"_s.repeat(0)), "");
  EXPECT_EQ(fitz::concat({"a"_s, "bc"_s, Str("d")}), "abcd"_s);
}

TEST(Str, HashAndCompare) {
  EXPECT_EQ("abc"_s.hash(), Str("abc").hash());
  EXPECT_NE("abc"_s.hash(), "abd"_s.hash());
  EXPECT_LT("a"_s.compare("b"_s), 0);
  EXPECT_LT("ab"_s.compare("abc"_s), 0);
  EXPECT_EQ("abc"_s.compare(Str("abc")), 0);
  EXPECT_TRUE("\xc3\xa9"_s > "z"_s);  // byte order is code point order
}

TEST(Bytes, Basics) {
  fitz::Bytes b = fitz::bytes("hola"_s);
  EXPECT_EQ(b.len(), 4);
  EXPECT_FALSE(b.is_empty());
  EXPECT_EQ(b.at(0), 'h');
  EXPECT_EQ(shown(b.to_str()), "Ok(\"hola\")");
  fitz::Bytes bad("\xff\xfe", 2);
  EXPECT_EQ(shown(bad.to_str()), "Err(\"invalid UTF-8 at byte 0\")");
  EXPECT_TRUE(fitz::eq(b, fitz::Bytes::lit("hola")));
  EXPECT_EQ(fitz::len(b), 4);
}
