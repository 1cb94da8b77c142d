// DirectoryListings must list what a fresh walk lists, reuse a directory's listing only while
// the directory is unchanged, and never trust one read in the same timestamp tick as a change.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "frontend/dir_listings.h"
#include "frontend/project.h"

namespace fitz::frontend {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "print(1)\n";
}

// Lets the directories' times grow older than the granularity the listings allow for (their
// change times cannot be set back, and a listing looks at both).
void settle() { ::usleep(250'000); }

std::vector<fs::path> listed(DirectoryListings& l, const fs::path& dir, std::string_view ext = ".fitz") {
  std::vector<fs::path> out;
  l.files_under(dir, ext, out);  // in path order, as fitz_files_under sorts
  return out;
}

class DirListingsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root = fs::temp_directory_path() / ("fitz-dir-listings-" + std::to_string(::getpid()));
    fs::remove_all(root);
    write(root / "a.fitz");
    write(root / "sub" / "b.fitz");
    write(root / "sub" / "view.fitzv");
    write(root / "sub" / "deep" / "c.fitz");
    write(root / "build" / "out.fitz");
    write(root / ".hidden" / "h.fitz");
    fs::create_directory_symlink(root / "sub", root / "linked");
    fs::create_symlink(root / "a.fitz", root / "alias.fitz");
    settle();
  }
  void TearDown() override { fs::remove_all(root); }
  fs::path root;
};

TEST_F(DirListingsTest, ListsWhatAFreshWalkLists) {
  DirectoryListings l;
  EXPECT_EQ(listed(l, root), fitz_files_under(root));
  EXPECT_EQ(listed(l, root, ".fitzv"), fitz_files_under(root, ".fitzv"));
  EXPECT_EQ(listed(l, root), (std::vector<fs::path>{root / "a.fitz", root / "alias.fitz", root / "sub" / "b.fitz",
                                                    root / "sub" / "deep" / "c.fitz"}));
  EXPECT_TRUE(listed(l, root / "missing").empty());
}

TEST_F(DirListingsTest, ReusesUnchangedDirectoriesAndSeesChanges) {
  DirectoryListings l;
  listed(l, root);
  size_t reads = l.reads();
  EXPECT_EQ(reads, 3u);  // root, sub, sub/deep: the skipped ones are never read
  listed(l, root);
  listed(l, root, ".fitzv");
  EXPECT_EQ(l.reads(), reads);

  // A file created in a subdirectory changes that directory's time only.
  write(root / "sub" / "deep" / "new.fitz");
  auto files = listed(l, root);
  EXPECT_NE(std::find(files.begin(), files.end(), root / "sub" / "deep" / "new.fitz"), files.end());
  EXPECT_EQ(l.reads(), reads + 1);
  EXPECT_EQ(files, fitz_files_under(root));

  // Just changed: its time cannot tell a change in the same tick apart, so it is read again
  // until it is older.
  listed(l, root);
  EXPECT_EQ(l.reads(), reads + 2);
  settle();
  listed(l, root);
  listed(l, root);
  EXPECT_EQ(l.reads(), reads + 3);

  // Deleted, and a directory replaced by another of the same name.
  fs::remove(root / "sub" / "b.fitz");
  settle();
  EXPECT_EQ(listed(l, root), fitz_files_under(root));
  fs::remove_all(root / "sub" / "deep");
  write(root / "sub" / "deep" / "other.fitz");
  settle();
  EXPECT_EQ(listed(l, root), fitz_files_under(root));
}

}  // namespace
}  // namespace fitz::frontend
