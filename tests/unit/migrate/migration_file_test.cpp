// Migration files: names, sections, the text `fitz db new` writes, and the lexical scan that
// decides which statements need --allow-destructive.
#include <gtest/gtest.h>

#include "migrate/migration_file.h"

namespace fitz::migrate {
namespace {

TEST(MigrationFile, NamesAndVersions) {
  EXPECT_TRUE(valid_migration_name("add_users2"));
  EXPECT_FALSE(valid_migration_name(""));
  EXPECT_FALSE(valid_migration_name("2users"));
  EXPECT_FALSE(valid_migration_name("Add"));
  EXPECT_FALSE(valid_migration_name("a-b"));
  EXPECT_FALSE(valid_migration_name("../x"));
  EXPECT_EQ(migration_version("20261130120000_add_users.sql"), "20261130120000_add_users");
  EXPECT_EQ(migration_version("20261130120000_add_users.txt"), std::nullopt);
  EXPECT_EQ(migration_version("2026113012000_add.sql"), std::nullopt);
  EXPECT_EQ(migration_version("20261130120000-add.sql"), std::nullopt);
  EXPECT_EQ(migration_version("20261130120000_.sql"), std::nullopt);
}

TEST(MigrationFile, ParsesSections) {
  std::string error;
  auto m = parse_migration("20261130120000_add", "-- Migration: add\n-- Created: x\n\n-- UP\nCREATE TABLE a (i int);\n"
                                                 "-- a comment\n--   down\nDROP TABLE a;\n",
                           &error);
  ASSERT_TRUE(m) << error;
  EXPECT_EQ(m->name, "add");
  EXPECT_EQ(m->up, "CREATE TABLE a (i int);\n-- a comment\n");
  EXPECT_EQ(m->down, "DROP TABLE a;\n");
  auto up_only = parse_migration("v", "-- UP\nSELECT 1;", &error);
  ASSERT_TRUE(up_only) << error;
  EXPECT_EQ(up_only->up, "SELECT 1;\n");
  EXPECT_EQ(up_only->down, "");
}

TEST(MigrationFile, MalformedFilesAreErrors) {
  std::string error;
  EXPECT_FALSE(parse_migration("v", "CREATE TABLE a (i int);\n", &error));
  EXPECT_EQ(error, "line 1: SQL before the `-- UP` line");
  EXPECT_FALSE(parse_migration("v", "-- Migration: x\n", &error));
  EXPECT_EQ(error, "no `-- UP` line");
  EXPECT_FALSE(parse_migration("v", "-- UP\n-- UP\n", &error));
  EXPECT_EQ(error, "line 2: a second `-- UP` section");
  EXPECT_FALSE(parse_migration("v", "-- DOWN\n-- UP\n", &error));
  EXPECT_EQ(error, "line 1: `-- DOWN` before `-- UP`");
}

TEST(MigrationFile, RenderedFilesParseBack) {
  std::string text = render_migration("add", "2026-11-30T12:00:00Z", {"CREATE TABLE \"a\" (\n  \"i\" bigint\n)", "-- a note"},
                                      {"DROP TABLE IF EXISTS \"a\""});
  EXPECT_EQ(text,
            "-- Migration: add\n-- Created: 2026-11-30T12:00:00Z\n\n-- UP\nCREATE TABLE \"a\" (\n  \"i\" bigint\n);\n"
            "-- a note\n\n-- DOWN\nDROP TABLE IF EXISTS \"a\";\n");
  std::string error;
  auto m = parse_migration("20261130120000_add", text, &error);
  ASSERT_TRUE(m) << error;
  EXPECT_EQ(m->down, "DROP TABLE IF EXISTS \"a\";\n");
  std::string empty = render_migration("e", "t", {}, {});
  auto e = parse_migration("20261130120000_e", empty, &error);
  ASSERT_TRUE(e) << error;
  EXPECT_TRUE(destructive_statements(e->up).empty());
}

TEST(MigrationFile, DestructiveStatements) {
  auto d = destructive_statements(
      "CREATE TABLE a (i int);\n"
      "DROP   TABLE a;\n"
      "alter table b drop column c;\n"
      "ALTER TABLE b DROP c;\n"
      "ALTER TABLE b ALTER COLUMN c TYPE int;\n"
      "ALTER TABLE b ALTER c SET DATA TYPE int;\n"
      "TRUNCATE b;\n"
      "DELETE FROM b WHERE true;\n"
      "DROP SCHEMA s CASCADE;\n");
  ASSERT_EQ(d.size(), 8u);
  EXPECT_EQ(d[0], "DROP TABLE a");
  EXPECT_EQ(d[1], "alter table b drop column c");
  EXPECT_EQ(d[7], "DROP SCHEMA s CASCADE");
}

TEST(MigrationFile, HarmlessStatementsAndQuotedTextAreNotDestructive) {
  auto d = destructive_statements(
      "-- DROP TABLE a;\n"
      "/* TRUNCATE a; */\n"
      "INSERT INTO notes (t) VALUES ('DROP TABLE a; DELETE FROM b');\n"
      "INSERT INTO notes (t) VALUES (E'it\\'s; DROP TABLE a');\n"
      "CREATE FUNCTION f() RETURNS void AS $body$ DELETE FROM b; $body$ LANGUAGE sql;\n"
      "ALTER TABLE \"drop\" ADD COLUMN type text;\n"
      "ALTER TABLE b ALTER COLUMN c DROP NOT NULL;\n"
      "ALTER TABLE b ALTER COLUMN c DROP DEFAULT;\n"
      "ALTER TABLE b DROP CONSTRAINT b_c_key;\n"
      "DROP INDEX IF EXISTS b_c_idx;\n"
      "CREATE TYPE mood AS ENUM ('a');\n");
  EXPECT_TRUE(d.empty()) << d[0];
}

}  // namespace
}  // namespace fitz::migrate
