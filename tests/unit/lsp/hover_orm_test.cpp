// Hover on the ORM, on annotated sources: a `@table` type shows its CREATE TABLE, the method
// names of a query chain show the SQL the chain compiles to (what `fitz check --dump=orm` says).
#include "tests/unit/lsp/annotated.h"

namespace fitz::lsp {
namespace {

using test_support::Fixture;

constexpr std::string_view kModels =
    "@table(\"users\") type Us^er {\n"
    "    @primary id: Int = 0\n"
    "    @unique email: Str = \"\"\n"
    "    age: Int = 0\n"
    "    @has_many(\"Post\", via=\"user_id\") posts: List<Post> = []\n"
    "}\n"
    "@table(\"posts\") type Post {\n"
    "    @primary id: Int = 0\n"
    "    @belongs_to(\"User\") user_id: Int = 0\n"
    "    title: Str = \"\"\n"
    "}\n"
    "type Plain {\n"
    "    x: Int\n"
    "}\n";

std::string hover_text(Fixture& f, uint32_t offset) {
  auto h = hover(f.a(), f.module(), offset);
  return h ? h->markdown : "<none>";
}

TEST(HoverOrm, TableTypeShowsCreateTable) {
  Fixture f;
  const auto& a = f.file("main.fitz", std::string(kModels) +
                                          "let p = Pl^ain { x: 1 }\n"
                                          "let q = Po^st { title: \"t\" }\n"
                                          "print(p.x, q.title)\n");
  f.analyse("main.fitz");
  std::string user = hover_text(f, a.point(0));
  EXPECT_NE(user.find("```sql\nCREATE TABLE \"users\" (\n  \"id\" bigserial"), std::string::npos) << user;
  EXPECT_NE(user.find("\"email\" text NOT NULL UNIQUE"), std::string::npos) << user;
  EXPECT_EQ(user.find("\"posts\" "), std::string::npos) << "a has_many field is no column: " << user;
  std::string post = hover_text(f, a.point(2));
  EXPECT_NE(post.find("CREATE TABLE \"posts\""), std::string::npos) << post;
  EXPECT_NE(post.find("REFERENCES \"users\""), std::string::npos) << post;
  std::string plain = hover_text(f, a.point(1));
  EXPECT_NE(plain.find("type Plain"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("CREATE TABLE"), std::string::npos) << plain;
}

TEST(HoverOrm, QueryChainShowsItsSql) {
  Fixture f;
  const auto& a = f.file("main.fitz", std::string(kModels) +
                                          "async fn reads(db: DbConn, id: Int, min: Int) -> Int {\n"
                                          "    let _one = User.wh^ere(fn(u) => u.id == id).fi^rst(db).await\n"
                                          "    let _n = User.where(fn(u) => u.age >= min).order_by(fn(u) => -u.age)\n"
                                          "        .lim^it(10).cou^nt(db).await\n"
                                          "    let _s = \"a\".up^per()\n"
                                          "    return 0\n"
                                          "}\n");
  f.analyse("main.fitz");
  ASSERT_TRUE(f.a().diagnostics.empty()) << f.a().diagnostics.front().message;
  const std::string first_sql =
      "SELECT \"id\", \"email\", \"age\" FROM \"users\" WHERE (\"id\" = $1) LIMIT 1";
  // On a builder step and on the terminal: the SQL of the whole chain.
  std::string where = hover_text(f, a.point(1));
  EXPECT_NE(where.find("```sql\n" + first_sql + "\n```"), std::string::npos) << where;
  EXPECT_NE(where.find("`$1` = `id`"), std::string::npos) << where;
  std::string first = hover_text(f, a.point(2));
  EXPECT_NE(first.find(first_sql), std::string::npos) << first;
  std::string count = hover_text(f, a.point(4));
  EXPECT_NE(count.find("SELECT COUNT(*) FROM (SELECT 1 FROM \"users\" WHERE (\"age\" >= $1) ORDER BY \"age\" DESC "
                       "LIMIT 10) AS \"q\""),
            std::string::npos)
      << count;
  EXPECT_NE(count.find("`$1` = `min`"), std::string::npos) << count;
  EXPECT_EQ(hover_text(f, a.point(3)), count);
  // Not an ORM call: no SQL.
  EXPECT_EQ(hover_text(f, a.point(5)).find("```sql"), std::string::npos);
}

}  // namespace
}  // namespace fitz::lsp
