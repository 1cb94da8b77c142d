// Unit tests of fitz.lock: printing is stable (sorted, byte-identical after a round trip) and
// the parser rejects what fitz would never write, with the position of the problem.
#include <gtest/gtest.h>

#include "packages/lockfile.h"

namespace fitz::packages {
namespace {

Lockfile sample() {
  Lockfile lock;
  lock.packages.push_back({"text", "git+file:///repos/text?tag=v2", std::string(40, 'b'), "sha256:" + std::string(64, '2'),
                           {"util", "core"}});
  lock.packages.push_back({"core", "git+file:///repos/core?rev=abc123", std::string(40, 'a'),
                           "sha256:" + std::string(64, '1'), {}});
  return lock;
}

TEST(Lockfile, PrintsSortedAndStable) {
  std::string text = print_lock(sample());
  EXPECT_LT(text.find("name = \"core\""), text.find("name = \"text\""));
  EXPECT_NE(text.find("dependencies = [\"core\", \"util\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("source = \"git+file:///repos/core?rev=abc123\""), std::string::npos) << text;
  EXPECT_NE(text.find("version = 1\n"), std::string::npos);
}

TEST(Lockfile, RoundTripsByteForByte) {
  std::string text = print_lock(sample());
  LockParse parsed = parse_lock(text);
  ASSERT_TRUE(parsed.lock) << parsed.error.message;
  ASSERT_EQ(parsed.lock->packages.size(), 2u);
  EXPECT_EQ(parsed.lock->packages[0].name, "core");
  EXPECT_EQ(parsed.lock->packages[1].dependencies, (std::vector<std::string>{"core", "util"}));
  EXPECT_EQ(print_lock(*parsed.lock), text);
}

TEST(Lockfile, EmptyLockRoundTrips) {
  std::string text = print_lock({});
  LockParse parsed = parse_lock(text);
  ASSERT_TRUE(parsed.lock);
  EXPECT_TRUE(parsed.lock->packages.empty());
  EXPECT_EQ(print_lock(*parsed.lock), text);
}

TEST(Lockfile, QuotesAndBackslashesSurvive) {
  Lockfile lock;
  lock.packages.push_back({"odd", "git+file:///a \"b\"\\c?tag=v1", std::string(40, 'c'), "sha256:00", {}});
  LockParse parsed = parse_lock(print_lock(lock));
  ASSERT_TRUE(parsed.lock) << parsed.error.message;
  EXPECT_EQ(parsed.lock->packages[0].source, "git+file:///a \"b\"\\c?tag=v1");
}

TEST(Lockfile, FindsByName) {
  Lockfile lock = sample();
  ASSERT_NE(lock.find("core"), nullptr);
  EXPECT_EQ(lock.find("core")->rev, std::string(40, 'a'));
  EXPECT_EQ(lock.find("absent"), nullptr);
}

TEST(Lockfile, GitSourceSpellsTheRequest) {
  EXPECT_EQ(git_source("file:///r", std::string("v1"), std::nullopt), "git+file:///r?tag=v1");
  EXPECT_EQ(git_source("file:///r", std::nullopt, std::string("abc")), "git+file:///r?rev=abc");
}

struct BadLock {
  const char* text;
  const char* message;  // a part of the error
  const char* at;       // the text the error span starts at
};

TEST(Lockfile, RejectsWhatFitzDoesNotWrite) {
  const BadLock cases[] = {
      {"name = \"x\"\n", "unknown key `name` before the first `[[package]]`", "name"},
      {"version = 2\n", "unsupported lock version", "version"},
      {"[[package]]\nname = \"x\"\n", "lacks `source`, `rev`, `hash`", ""},
      {"version = 1\n[[package]]\nname = \"x\"\ncolour = \"red\"\n", "unknown key `colour`", "colour"},
      {"version = 1\n[[package]]\nname = \"x\n", "unterminated string", "name"},
      {"version = 1\n[[package]]\nname = x\n", "expected a string", "name"},
      {"version = 1\n[[package]]\nname = \"x\"\nname = \"y\"\n", "`name` appears twice", "name = \"y\""},
      {"version = 1\n[[package]]\nname = \"x\"\nsource = \"s\"\nrev = \"r\"\nhash = \"h\"\ndependencies = [\"a\" \"b\"]\n",
       "expected `,` or `]`", "dependencies"},
      {"version = 1\n[[package]]\nname = \"x\"\nsource = \"s\"\nrev = \"r\"\nhash = \"h\"\n"
       "[[package]]\nname = \"x\"\nsource = \"s\"\nrev = \"r\"\nhash = \"h\"\n",
       "package `x` is locked twice", ""},
      {"# only a comment\n", "missing `version`", ""},
      {"version = 1 trailing\n", "expected the end of the line", "version"},
  };
  for (const BadLock& c : cases) {
    LockParse parsed = parse_lock(c.text);
    EXPECT_FALSE(parsed.lock) << c.text;
    EXPECT_NE(parsed.error.message.find(c.message), std::string::npos) << c.text << " -> " << parsed.error.message;
    std::string_view text(c.text);
    ASSERT_LE(parsed.error.begin, text.size()) << c.text;
    EXPECT_TRUE(text.substr(parsed.error.begin).starts_with(c.at)) << c.text << " -> at " << parsed.error.begin;
  }
}

}  // namespace
}  // namespace fitz::packages
