// DDL from table models: CREATE TABLE with keys, uniques, defaults and foreign keys; the diff
// against a live schema adds tables, columns and indexes and reports what it leaves alone.
#include <gtest/gtest.h>

#include "frontend/lower.h"
#include "orm/ddl.h"

namespace fitz::orm {
namespace {

using namespace frontend;

constexpr std::string_view kSource = R"fitz(
@table("users") type User {
    @primary id: Int = 0
    @unique email: Str = ""
    @index nick: Str? = null
    @db_default("NOW()") created_at: Str = ""
}
@table("app.posts") @index(["user_id", "title"], unique=true) type Post {
    @primary id: Int = 0
    @belongs_to("User", on_delete="cascade") user_id: Int = 0
    title: Str = ""
    tags: List<Str> = []
}
)fitz";

struct Models {
  Models() {
    FileId f = sources.add("t.fitz", std::string(kSource));
    ast = parse_module(sources.file(f), f, diags);
    auto kind = [&](TypeExprId id, bool& nullable) {
      const TypeExpr* t = &ast.get(id);
      if (auto* n = std::get_if<NullableType>(&t->data)) {
        nullable = true;
        t = &ast.get(n->inner);
      }
      std::string_view name = std::get<NamedType>(t->data).path.back().text;
      FieldShape s;
      s.kind = name == "Int" ? FieldShape::Int : name == "Str" ? FieldShape::Str : FieldShape::List;
      if (s.kind == FieldShape::List) s.elem = FieldShape::Str;
      return s;
    };
    for (const TypeDecl& d : ast.type_decls) {
      std::vector<FieldShape> shapes;
      for (const FieldDecl& fd : d.fields) {
        bool nullable = false;
        FieldShape s = kind(fd.type, nullable);
        s.nullable = nullable;
        shapes.push_back(s);
      }
      tables.push_back(build_table(ast, d, shapes, errors));
    }
  }
  std::vector<const TableModel*> all() const { return {&tables[0], &tables[1]}; }

  SourceManager sources;
  DiagnosticBag diags;
  Ast ast;
  std::vector<TableModel> tables;
  std::vector<ModelError> errors;
};

TEST(OrmDdl, CreateTables) {
  Models m;
  ASSERT_TRUE(m.errors.empty());
  SchemaDiff d = diff_schema(m.all(), LiveSchema{{}, {"public"}, {}});
  ASSERT_EQ(d.statements.size(), 5u);
  EXPECT_EQ(d.statements[0],
            "CREATE TABLE \"users\" (\n  \"id\" bigserial,\n  \"email\" text NOT NULL UNIQUE,\n  \"nick\" text,\n"
            "  \"created_at\" text NOT NULL DEFAULT NOW(),\n  PRIMARY KEY (\"id\")\n)");
  EXPECT_EQ(d.statements[1], "CREATE INDEX IF NOT EXISTS \"users_nick_idx\" ON \"users\" (\"nick\")");
  EXPECT_EQ(d.statements[2], "CREATE SCHEMA IF NOT EXISTS \"app\"");
  EXPECT_EQ(d.statements[3],
            "CREATE TABLE \"app\".\"posts\" (\n  \"id\" bigserial,\n  \"user_id\" bigint NOT NULL,\n  \"title\" text NOT NULL,\n"
            "  \"tags\" text[] NOT NULL,\n  PRIMARY KEY (\"id\"),\n"
            "  FOREIGN KEY (\"user_id\") REFERENCES \"users\" (\"id\") ON DELETE CASCADE\n)");
  EXPECT_EQ(d.statements[4],
            "CREATE UNIQUE INDEX IF NOT EXISTS \"posts_user_id_title_key\" ON \"app\".\"posts\" (\"user_id\", \"title\")");
  EXPECT_TRUE(d.notes.empty());
}

TEST(OrmDdl, AddsMissingColumnsAndIndexesOnlyAndReportsTheRest) {
  Models m;
  LiveSchema live;
  live.schemas = {"public", "app"};
  live.tables.push_back({"public", "users", {{"id", "bigint", false}, {"email", "text", true}, {"legacy", "text", true}}});
  live.tables.push_back({"app", "posts", {{"id", "bigint", false}, {"user_id", "bigint", false}, {"title", "text", false},
                                          {"tags", "ARRAY", false}}});
  live.indexes = {"users_nick_idx", "posts_user_id_title_key"};
  SchemaDiff d = diff_schema(m.all(), live);
  ASSERT_EQ(d.statements.size(), 2u);
  EXPECT_EQ(d.statements[0], "ALTER TABLE \"users\" ADD COLUMN \"nick\" text");
  EXPECT_EQ(d.statements[1], "ALTER TABLE \"users\" ADD COLUMN \"created_at\" text NOT NULL DEFAULT NOW()");
  ASSERT_EQ(d.notes.size(), 2u);
  EXPECT_NE(d.notes[0].find("email is nullable in the database"), std::string::npos) << d.notes[0];
  EXPECT_NE(d.notes[1].find("users.legacy is not in `User`"), std::string::npos) << d.notes[1];
  // The undo statements run in reverse order; the dropped column is offered, not applied.
  ASSERT_EQ(d.down.size(), 2u);
  EXPECT_EQ(d.down[0], "ALTER TABLE \"users\" DROP COLUMN IF EXISTS \"created_at\"");
  EXPECT_EQ(d.down[1], "ALTER TABLE \"users\" DROP COLUMN IF EXISTS \"nick\"");
  ASSERT_EQ(d.destructive.size(), 1u);
  EXPECT_EQ(d.destructive[0], "ALTER TABLE \"users\" DROP COLUMN \"legacy\"");
}

TEST(OrmDdl, DownUndoesCreatedTablesSchemasAndIndexes) {
  Models m;
  SchemaDiff d = diff_schema(m.all(), LiveSchema{{}, {"public"}, {}});
  ASSERT_EQ(d.down.size(), 5u);
  EXPECT_EQ(d.down[0], "DROP INDEX IF EXISTS \"app\".\"posts_user_id_title_key\"");
  EXPECT_EQ(d.down[1], "DROP TABLE IF EXISTS \"app\".\"posts\"");
  EXPECT_EQ(d.down[2], "DROP SCHEMA IF EXISTS \"app\"");
  EXPECT_EQ(d.down[3], "DROP INDEX IF EXISTS \"users_nick_idx\"");
  EXPECT_EQ(d.down[4], "DROP TABLE IF EXISTS \"users\"");
  EXPECT_TRUE(d.destructive.empty());
}

TEST(OrmDdl, InSyncMeansNothingToDo) {
  Models m;
  LiveSchema live;
  live.schemas = {"public", "app"};
  live.tables.push_back({"public", "users", {{"id", "bigint", false}, {"email", "text", false}, {"nick", "text", true},
                                             {"created_at", "text", false}}});
  live.tables.push_back({"app", "posts", {{"id", "bigint", false}, {"user_id", "bigint", false}, {"title", "text", false},
                                          {"tags", "ARRAY", false}}});
  live.indexes = {"users_nick_idx", "posts_user_id_title_key"};
  SchemaDiff d = diff_schema(m.all(), live);
  EXPECT_TRUE(d.statements.empty());
  EXPECT_TRUE(d.notes.empty());
}

}  // namespace
}  // namespace fitz::orm
