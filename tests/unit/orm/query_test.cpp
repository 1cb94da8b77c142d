// The SQL that ORM chains compile to, straight from the orm library: table models built from
// parsed `@table` types, closures translated with `$n` parameters, errors at sub-expressions.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>

#include "frontend/lower.h"
#include "orm/query.h"

namespace fitz::orm {
namespace {

using namespace frontend;

constexpr std::string_view kModels = R"fitz(
@table("users") type User {
    @primary id: Int = 0
    @column(name="full_name") name: Str = ""
    @unique email: Str = ""
    age: Int = 0
    active: Bool = true
    nick: Str? = null
    tags: List<Str> = []
    meta: Map<Str, Any> = {}
    @db_default("NOW()") created_at: Str = ""
    @has_many("Post", via="user_id") posts: List<Post> = []
}
@table("app.posts") type Post {
    @primary id: Int = 0
    @belongs_to("User", on_delete="cascade") user_id: Int = 0
    title: Str = ""
    score: Float = 0.0
    user: User? = null
}
@table("profiles") type Profile {
    @primary id: Int = 0
    @belongs_to("User") owner_id: Int = 0
    bio: Str = ""
}
@table("accounts") type Account {
    @primary id: Int = 0
    @has_one("Profile", via="owner_id") profile: Profile? = null
}
)fitz";

// Field shapes read from the annotations, standing in for the checker's resolved types.
FieldShape shape_of(const Ast& ast, TypeExprId id) {
  FieldShape s;
  const TypeExpr& t = ast.get(id);
  if (auto* n = std::get_if<NullableType>(&t.data)) {
    s = shape_of(ast, n->inner);
    s.nullable = true;
    return s;
  }
  auto* n = std::get_if<NamedType>(&t.data);
  std::string_view name = n->path.back().text;
  static const std::map<std::string_view, FieldShape::Kind> kinds = {
      {"Int", FieldShape::Int}, {"Float", FieldShape::Float}, {"Str", FieldShape::Str}, {"Bool", FieldShape::Bool},
      {"Date", FieldShape::Date}, {"DateTime", FieldShape::DateTime}, {"Map", FieldShape::Map}, {"List", FieldShape::List}};
  auto it = kinds.find(name);
  s.kind = it == kinds.end() ? FieldShape::Struct : it->second;
  if (s.kind == FieldShape::Struct) s.struct_name = std::string(name);
  if (s.kind == FieldShape::List) s.elem = shape_of(ast, n->args[0]).kind;
  return s;
}

struct Fixture {
  explicit Fixture(std::string body) {
    FileId f = sources.add("t.fitz", std::string(kModels) + body);
    ast = parse_module(sources.file(f), f, diags);
    for (const TypeDecl& d : ast.type_decls) {
      std::vector<FieldShape> shapes;
      for (const FieldDecl& fd : d.fields) shapes.push_back(shape_of(ast, fd.type));
      tables.push_back(build_table(ast, d, shapes, model_errors));
    }
    env.ast = &ast;
    env.table_of_root = [this](ExprId e) -> const TableModel* {
      return table_named(std::get<NameRef>(ast.get(e).data).name.text);
    };
    env.table_named = [this](std::string_view n) { return table_named(n); };
    // Stand-ins for the checker's types: `u_*` names a User row, `p_*` a Post row, `a_*` an
    // Account row, `q_*` a query value over User.
    auto row_named = [this](ExprId e, std::string_view prefix) {
      auto* n = std::get_if<NameRef>(&ast.get(e).data);
      return n && n->name.text.starts_with(prefix);
    };
    env.table_of_value = [this, row_named](ExprId e) -> const TableModel* {
      if (row_named(e, "u_")) return table_named("User");
      if (row_named(e, "p_")) return table_named("Post");
      if (row_named(e, "a_")) return table_named("Account");
      return nullptr;
    };
    env.table_of_query = [this, row_named](ExprId e) -> const TableModel* {
      return row_named(e, "q_") ? table_named("User") : nullptr;
    };
    env.class_of = [this](ExprId e) {
      const Expr& x = ast.get(e);
      if (std::holds_alternative<IntLit>(x.data)) return ValueClass::Int;
      if (std::holds_alternative<StrLit>(x.data)) return ValueClass::Str;
      if (auto* n = std::get_if<NameRef>(&x.data)) {
        if (n->name.text.starts_with("s_")) return ValueClass::Str;
        if (n->name.text.starts_with("i_")) return ValueClass::Int;
      }
      return ValueClass::Unknown;
    };
  }
  const TableModel* table_named(std::string_view n) const {
    for (const TableModel& t : tables)
      if (t.type_name == n) return &t;
    return nullptr;
  }
  // The plan of the last top-level expression statement.
  PlanResult plan() {
    ExprId e;
    for (StmtId s : ast.top_level)
      if (auto* x = std::get_if<ExprStmt>(&ast.get(s).data)) e = x->expr;
    return plan_query(env, e);
  }
  std::string text(Span s) const { return std::string(sources.file(FileId{0}).text().substr(s.begin, s.size())); }

  SourceManager sources;
  DiagnosticBag diags;
  Ast ast;
  std::vector<TableModel> tables;
  std::vector<ModelError> model_errors;
  QueryEnv env;
};

std::string sql(std::string body) {
  Fixture f(std::move(body));
  PlanResult r = f.plan();
  EXPECT_TRUE(r.is_orm);
  if (r.error) return "error: " + r.error->message;
  return r.plan ? r.plan->sql : "no plan";
}

TEST(OrmModel, ColumnsRenamesRelationsAndIndexes) {
  Fixture f("");
  ASSERT_TRUE(f.model_errors.empty());
  const TableModel& u = f.tables[0];
  EXPECT_EQ(u.qualified_name(), "\"users\"");
  EXPECT_EQ(column_list(u),
            "\"id\", \"full_name\", \"email\", \"age\", \"active\", \"nick\", \"tags\", \"meta\", \"created_at\"");
  EXPECT_EQ(u.column_of_field("name")->name, "full_name");
  EXPECT_TRUE(u.column_of_field("email")->unique);
  EXPECT_TRUE(u.column_of_field("nick")->nullable);
  EXPECT_EQ(u.column_of_field("tags")->type, ColumnType::TextArray);
  EXPECT_EQ(u.column_of_field("meta")->type, ColumnType::Jsonb);
  EXPECT_EQ(u.column_of_field("created_at")->default_sql, "NOW()");
  EXPECT_EQ(u.column_of_field("posts"), nullptr);
  ASSERT_NE(u.relation_of_field("posts"), nullptr);
  EXPECT_EQ(u.relation_of_field("posts")->key, "user_id");
  const TableModel& p = f.tables[1];
  EXPECT_EQ(p.qualified_name(), "\"app\".\"posts\"");
  EXPECT_EQ(p.column_of_field("user"), nullptr);  // the preloadable parent is not a column
  EXPECT_EQ(p.relation_of_field("user_id")->on_delete, "cascade");
}

TEST(OrmQuery, AllFirstCount) {
  EXPECT_EQ(sql("User.all(db)\n"),
            "SELECT \"id\", \"full_name\", \"email\", \"age\", \"active\", \"nick\", \"tags\", \"meta\", \"created_at\" FROM \"users\"");
  EXPECT_EQ(sql("Post.where(fn(p) => p.id == i_id).first(db)\n"),
            "SELECT \"id\", \"user_id\", \"title\", \"score\" FROM \"app\".\"posts\" WHERE (\"id\" = $1) LIMIT 1");
  EXPECT_EQ(sql("Post.count(db)\n"), "SELECT COUNT(*) FROM \"app\".\"posts\"");
  EXPECT_EQ(sql("Post.where(fn(p) => p.score > 1.5).limit(3).count(db)\n"),
            "SELECT COUNT(*) FROM (SELECT 1 FROM \"app\".\"posts\" WHERE (\"score\" > $1) LIMIT 3) AS \"q\"");
}

TEST(OrmQuery, WhereOrderLimitOffsetNumberParametersInTextOrder) {
  Fixture f("Post.where(fn(p) => p.title == s_t and p.score >= 2).where(fn(p) => not (p.user_id == i_u))"
            ".order_by(fn(p) => -p.score).order_by(fn(p) => p.id).limit(n).offset(10).all(db)\n");
  PlanResult r = f.plan();
  ASSERT_TRUE(r.plan) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.plan->sql,
            "SELECT \"id\", \"user_id\", \"title\", \"score\" FROM \"app\".\"posts\" WHERE ((\"title\" = $1) AND "
            "(\"score\" >= $2)) AND (NOT (\"user_id\" = $3)) ORDER BY \"score\" DESC, \"id\" LIMIT $4 OFFSET 10");
  ASSERT_EQ(r.plan->params.size(), 4u);
  EXPECT_EQ(f.text(f.ast.get(r.plan->params[0].expr).span), "s_t");
  EXPECT_EQ(f.text(f.ast.get(r.plan->params[1].expr).span), "2");
  EXPECT_EQ(f.text(f.ast.get(r.plan->params[2].expr).span), "i_u");
  EXPECT_EQ(f.text(f.ast.get(r.plan->params[3].expr).span), "n");
}

TEST(OrmQuery, ClosureForms) {
  auto where = [](std::string cond) {
    std::string s = sql("User.where(fn(u) => " + cond + ").count(db)\n");
    const std::string head = "SELECT COUNT(*) FROM \"users\" WHERE ";
    return s.starts_with(head) ? s.substr(head.size()) : s;
  };
  EXPECT_EQ(where("u.active"), "\"active\"");
  EXPECT_EQ(where("u.nick == null"), "(\"nick\" IS NULL)");
  EXPECT_EQ(where("u.nick != null"), "(\"nick\" IS NOT NULL)");
  EXPECT_EQ(where("u.nick.is_null()"), "(\"nick\" IS NULL)");
  EXPECT_EQ(where("u.age.is_in([1, 2, i_x])"), "(\"age\" IN ($1,$2,$3))");
  EXPECT_EQ(where("u.age.is_in([])"), "FALSE");
  EXPECT_EQ(where("u.age.is_in(ids)"), "(\"age\" = ANY($1))");
  EXPECT_EQ(where("u.name.starts_with(s_p)"), "(\"full_name\" LIKE $1)");
  EXPECT_EQ(where("u.email.contains(\"%\")"), "(\"email\" LIKE $1)");
  EXPECT_EQ(where("u.email.ilike(\"a%\")"), "(\"email\" ILIKE $1)");
  EXPECT_EQ(where("u.age.between(18, i_max)"), "(\"age\" BETWEEN $1 AND $2)");
  EXPECT_EQ(where("u.age + 1 > i_x * 2 or u.age % 2 == 0"), "(((\"age\" + $1) > ($2 * $3)) OR ((\"age\" % $4) = $5))");
  EXPECT_EQ(where("u.tags.has(s_t)"), "($1 = ANY(\"tags\"))");
  EXPECT_EQ(where("u.tags.contains_all(wanted)"), "(\"tags\" @> $1::text[])");
  EXPECT_EQ(where("u.meta.has_key(\"k\")"), "(\"meta\" ? $1)");
  EXPECT_EQ(where("u.meta.contains_json(m)"), "(\"meta\" @> $1::jsonb)");
  EXPECT_EQ(where("u.meta.get(\"plan\") == s_p"), "((\"meta\"->>$1) = $2)");
  EXPECT_EQ(where("u.name.matches(q)"), "(to_tsvector(\"full_name\") @@ to_tsquery($1))");
  EXPECT_EQ(where("u.id == filter.user.id"), "(\"id\" = $1)");
  EXPECT_EQ(where("true"), "TRUE");
  // Str `+` concatenates (`||`), with bound values typed text; Int `+` stays arithmetic.
  EXPECT_EQ(where("u.name == s_a + s_b"), "(\"full_name\" = ($1::text || $2::text))");
  EXPECT_EQ(where("u.name + \"!\" == s_a"), "((\"full_name\" || $1::text) = $2)");
  EXPECT_EQ(where("u.name == s_a + u.email + s_b"), "(\"full_name\" = (($1::text || \"email\") || $2::text))");
  EXPECT_EQ(where("u.age == i_a + i_b"), "(\"age\" = ($1 + $2))");
}

TEST(OrmQuery, LikePatternsAreParametersWithAnEscapingForm) {
  Fixture f("User.where(fn(u) => u.name.starts_with(s_p) or u.email.ends_with(\"@x.org\")).all(db)\n");
  PlanResult r = f.plan();
  ASSERT_TRUE(r.plan);
  ASSERT_EQ(r.plan->params.size(), 2u);
  EXPECT_EQ(r.plan->params[0].form, ParamForm::LikePrefix);
  EXPECT_EQ(r.plan->params[1].form, ParamForm::LikeSuffix);
}

TEST(OrmQuery, InjectionStringsNeverReachTheSqlText) {
  std::string s = sql("User.where(fn(u) => u.email == \"x' OR '1'='1\").all(db)\n");
  EXPECT_EQ(s.find("OR '1'"), std::string::npos);
  EXPECT_NE(s.find("(\"email\" = $1)"), std::string::npos);
}

TEST(OrmQuery, UpdateDeleteAndTheirGuard) {
  EXPECT_EQ(sql("User.where(fn(u) => u.id == i_id).update(db, {\"name\": s_n, \"tags\": t})\n"),
            "UPDATE \"users\" SET \"full_name\" = $1, \"tags\" = $2::text[] WHERE (\"id\" = $3)");
  EXPECT_EQ(sql("User.where(fn(_) => true).delete(db)\n"), "DELETE FROM \"users\" WHERE TRUE");
  Fixture f("User.order_by(fn(u) => u.id).delete(db)\n");
  PlanResult r = f.plan();
  ASSERT_TRUE(r.error);
  Fixture g("User.delete(db)\n");
  r = g.plan();
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->code, OrmErrorCode::UnfilteredWrite);
  EXPECT_EQ(g.text(r.error->span), "delete");
  EXPECT_EQ(sql("User.where(fn(u) => u.id == 1).update(db, {\"nope\": 1})\n"), "error: table `users` has no column `nope`");
}

TEST(OrmQuery, InsertHasAVariantWithoutTheSerialKey) {
  Fixture f("Post.insert(db, p)\n");
  PlanResult r = f.plan();
  ASSERT_TRUE(r.plan);
  EXPECT_EQ(r.plan->sql, "INSERT INTO \"app\".\"posts\" (\"id\", \"user_id\", \"title\", \"score\") VALUES ($1, $2, $3, $4) "
                         "RETURNING \"id\", \"user_id\", \"title\", \"score\"");
  EXPECT_EQ(r.plan->sql_without_key, "INSERT INTO \"app\".\"posts\" (\"user_id\", \"title\", \"score\") VALUES ($1, $2, $3) "
                                     "RETURNING \"id\", \"user_id\", \"title\", \"score\"");
  EXPECT_EQ(r.plan->key_field, "id");
  EXPECT_EQ(r.plan->params[1].form, ParamForm::Field);
  EXPECT_EQ(r.plan->params[1].field, "user_id");
  // @db_default columns are left out; arrays and jsonb are cast.
  std::string u = sql("User.insert(db, u)\n");
  EXPECT_NE(u.find("($1, $2, $3, $4, $5, $6, $7::text[], $8::jsonb)"), std::string::npos) << u;
  EXPECT_EQ(sql("Post.bulk_insert(rows, db)\n"),
            "INSERT INTO \"app\".\"posts\" (\"user_id\", \"title\", \"score\") SELECT * FROM unnest($1::int8[], $2::text[], "
            "$3::float8[])");
}

TEST(OrmQuery, AggregatesAndGroupBy) {
  EXPECT_EQ(sql("Post.where(fn(p) => p.user_id == i_u).avg(fn(p) => p.score, db)\n"),
            "SELECT AVG(\"score\")::float8 AS \"avg\" FROM \"app\".\"posts\" WHERE (\"user_id\" = $1)");
  EXPECT_EQ(sql("Post.group_by(fn(p) => p.user_id).count(db)\n"),
            "SELECT \"user_id\", COUNT(*) AS \"count\" FROM \"app\".\"posts\" GROUP BY \"user_id\"");
  EXPECT_EQ(sql("Post.group_by(fn(p) => p.user_id).sum(fn(p) => p.score, db)\n"),
            "SELECT \"user_id\", SUM(\"score\")::float8 AS \"sum\" FROM \"app\".\"posts\" GROUP BY \"user_id\"");
}

TEST(OrmQuery, Preload) {
  Fixture f("User.where(fn(u) => u.active).preload(\"posts\").all(db)\n");
  PlanResult r = f.plan();
  ASSERT_TRUE(r.plan) << (r.error ? r.error->message : "");
  ASSERT_EQ(r.plan->preloads.size(), 1u);
  EXPECT_EQ(r.plan->preloads[0].sql,
            "SELECT \"id\", \"user_id\", \"title\", \"score\" FROM \"app\".\"posts\" WHERE \"user_id\" = ANY($1::int8[])");
  EXPECT_EQ(sql("User.preload(\"friends\").all(db)\n"), "error: `User` has no relation `friends`");
}

TEST(OrmQuery, UntranslatableFormsPointAtTheSubExpression) {
  auto err = [](std::string cond, std::string want_span, OrmErrorCode code) {
    Fixture f("User.where(fn(u) => " + cond + ").all(db)\n");
    PlanResult r = f.plan();
    ASSERT_TRUE(r.error) << cond;
    EXPECT_EQ(r.error->code, code) << cond;
    EXPECT_EQ(f.text(r.error->span), want_span) << r.error->message;
  };
  err("u.age > helper(1)", "helper(1)", OrmErrorCode::Untranslatable);
  err("u.name == \"a{x}\"", "\"a{x}\"", OrmErrorCode::Untranslatable);
  err("u == other", "u", OrmErrorCode::Untranslatable);
  err("u.active and (if x { true } else { false })", "if x { true } else { false }", OrmErrorCode::Untranslatable);
  err("u.posts == p", "posts", OrmErrorCode::UnknownColumn);
  err("u.age == s_name", "u.age == s_name", OrmErrorCode::TypeMismatch);
  err("u.name.to_upper() == s_n", "to_upper", OrmErrorCode::Untranslatable);
  err("u.age ^ 2 == 0", "^", OrmErrorCode::Untranslatable);
}

constexpr std::string_view kPostCols = "\"id\", \"user_id\", \"title\", \"score\"";
constexpr std::string_view kUserCols =
    "\"id\", \"full_name\", \"email\", \"age\", \"active\", \"nick\", \"tags\", \"meta\", \"created_at\"";

TEST(OrmQuery, NavigationLoadsChildrenChildAndParent) {
  EXPECT_EQ(sql("u_ana.posts(db)\n"), fmt::format("SELECT {} FROM \"app\".\"posts\" WHERE \"user_id\" = $1", kPostCols));
  EXPECT_EQ(sql("p_x.user_id(db)\n"), fmt::format("SELECT {} FROM \"users\" WHERE \"id\" = $1 LIMIT 1", kUserCols));
  // The struct-typed sibling of the FK column names the same parent.
  EXPECT_EQ(sql("p_x.user(db)\n"), fmt::format("SELECT {} FROM \"users\" WHERE \"id\" = $1 LIMIT 1", kUserCols));
  Fixture f("a_acc.profile(db)\n");
  PlanResult r = f.plan();
  ASSERT_TRUE(r.plan) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.plan->sql, "SELECT \"id\", \"owner_id\", \"bio\" FROM \"profiles\" WHERE \"owner_id\" = $1 LIMIT 1");
  EXPECT_TRUE(r.plan->maybe);
  ASSERT_EQ(r.plan->params.size(), 1u);
  EXPECT_EQ(r.plan->params[0].form, ParamForm::Field);
  EXPECT_EQ(r.plan->params[0].field, "id");
  EXPECT_EQ(f.text(f.ast.get(r.plan->params[0].expr).span), "a_acc");
  Fixture g("p_x.user_id(db)\n");
  EXPECT_EQ(g.plan().plan->params[0].field, "user_id");
}

TEST(OrmQuery, NavigationBuilderStartsAChainFilteredOnTheForeignKey) {
  Fixture f("u_ana.posts().where(fn(p) => p.score > 1.5).order_by(fn(p) => -p.id).limit(3).all(db)\n");
  PlanResult r = f.plan();
  ASSERT_TRUE(r.plan) << (r.error ? r.error->message : "");
  EXPECT_FALSE(r.plan->dynamic);
  EXPECT_EQ(r.plan->sql, fmt::format("SELECT {} FROM \"app\".\"posts\" WHERE (\"user_id\" = $1) AND (\"score\" > $2) "
                                     "ORDER BY \"id\" DESC LIMIT 3",
                                     kPostCols));
  EXPECT_EQ(r.plan->params[0].form, ParamForm::Field);
  // The navigation filter counts as a `where` for writes.
  EXPECT_EQ(sql("u_ana.posts().delete(db)\n"), "DELETE FROM \"app\".\"posts\" WHERE (\"user_id\" = $1)");
  EXPECT_EQ(sql("p_x.user_id()\n"), "error: `user_id` loads the parent row: it takes the database connection");
  EXPECT_EQ(sql("u_ana.posts(db).all(db)\n"), "error: `posts(db)` runs the query; write `posts()` to extend it");
  EXPECT_EQ(sql("u_ana.posts().insert(db, p)\n"), "error: `insert` is called on the table, not on a query");
  Fixture b("u_ana.posts()\n");
  PlanResult br = b.plan();
  ASSERT_TRUE(br.plan && br.builder);
  ASSERT_EQ(br.plan->fragments.size(), 1u);
  EXPECT_EQ(br.plan->fragments[0].sql, "(\"user_id\" = $1)");
}

TEST(OrmQuery, QueryValuesPlanEachStepAsAFragmentNumberedFromOne) {
  Fixture b("User.where(fn(u) => u.active).where(fn(u) => u.age > i_a and u.name == s_n).order_by(fn(u) => -u.age)"
            ".offset(i_o)\n");
  PlanResult br = b.plan();
  ASSERT_TRUE(br.plan && br.builder) << (br.error ? br.error->message : "");
  EXPECT_FALSE(br.plan->dynamic);
  ASSERT_EQ(br.plan->fragments.size(), 4u);
  EXPECT_EQ(br.plan->fragments[0].sql, "\"active\"");
  EXPECT_EQ(br.plan->fragments[1].sql, "((\"age\" > $1) AND (\"full_name\" = $2))");
  EXPECT_EQ(br.plan->fragments[1].params.size(), 2u);
  EXPECT_EQ(br.plan->fragments[2].sql, "\"age\" DESC");
  EXPECT_EQ(br.plan->fragments[3].kind, Fragment::Offset);
  EXPECT_EQ(b.text(b.ast.get(br.plan->fragments[3].params[0].expr).span), "i_o");

  Fixture f("q_users.where(fn(u) => u.age > i_a).limit(5).all(db)\n");
  PlanResult r = f.plan();
  ASSERT_TRUE(r.plan) << (r.error ? r.error->message : "");
  EXPECT_TRUE(r.plan->dynamic);
  EXPECT_EQ(f.text(f.ast.get(r.plan->root).span), "q_users");
  EXPECT_EQ(r.plan->shape, Shape::Select);
  EXPECT_EQ(r.plan->sql, fmt::format("SELECT {} FROM \"users\"", kUserCols));
  ASSERT_EQ(r.plan->fragments.size(), 2u);
  EXPECT_EQ(r.plan->fragments[0].sql, "(\"age\" > $1)");
  EXPECT_EQ(r.plan->fragments[1].kind, Fragment::Limit);

  // Heads of the other terminals: their own parameters come first.
  Fixture u("q_users.update(db, {\"age\": i_a})\n");
  ASSERT_TRUE(u.plan().plan);
  EXPECT_EQ(u.plan().plan->sql, "UPDATE \"users\" SET \"age\" = $1");
  EXPECT_EQ(u.plan().plan->shape, Shape::Write);
  EXPECT_EQ(sql("q_users.count(db)\n"), "\"users\"");
  EXPECT_EQ(sql("q_users.delete(db)\n"), "DELETE FROM \"users\"");
  EXPECT_EQ(sql("q_users.sum(fn(u) => u.age * i_k, db)\n"), "SELECT SUM((\"age\" * $1))::float8 AS \"sum\" FROM \"users\"");
  EXPECT_EQ(sql("q_users.group_by(fn(u) => u.age).count(db)\n"),
            "error: `group_by` needs the whole query in one expression, from the table to its terminal");
  EXPECT_EQ(sql("q_users.insert(db, u)\n"), "error: `insert` is called on the table, not on a query");
}

TEST(OrmQuery, MergeJsonbJsonPathsAndRank) {
  EXPECT_EQ(sql("User.where(fn(u) => u.id == i_id).merge_jsonb(db, \"meta\", patch)\n"),
            "UPDATE \"users\" SET \"meta\" = \"meta\" || $1::jsonb WHERE (\"id\" = $2)");
  EXPECT_EQ(sql("User.merge_jsonb(db, \"meta\", patch)\n"), "error: `merge_jsonb` without `where` would change every row of `users`");
  EXPECT_EQ(sql("User.where(fn(u) => true).merge_jsonb(db, \"name\", patch)\n"), "error: table `users` has no Map column `name`");
  EXPECT_EQ(sql("User.where(fn(u) => u.meta.path_text([\"a\", \"b\"]) == s_x and u.meta.path_int(keys) > 2 and "
                "u.meta.has_path([\"c\"])).count(db)\n"),
            "SELECT COUNT(*) FROM \"users\" WHERE ((((\"meta\" #>> $1::text[]) = $2) AND (((\"meta\" #>> $3::text[])::bigint) > $4)) "
            "AND ((\"meta\" #> $5::text[]) IS NOT NULL))");
  EXPECT_EQ(sql("User.order_by(fn(u) => -u.name.rank(s_q)).all(db)\n"),
            fmt::format("SELECT {} FROM \"users\" ORDER BY ts_rank(to_tsvector(\"full_name\"), to_tsquery($1)) DESC", kUserCols));
  EXPECT_EQ(sql("User.where(fn(u) => u.meta.path_text(helper()) == s_x).all(db)\n"),
            "error: this `path_text` argument (a list of keys) cannot be translated to SQL");
  EXPECT_EQ(sql("User.where(fn(u) => u.age.rank(s_q) > 0).all(db)\n"),
            "error: the method `rank` on column `age` (Int) cannot be translated to SQL");
}

TEST(OrmQuery, NotAnOrmChain) {
  Fixture f("items.where(fn(x) => x > 1).all(db)\n");
  EXPECT_FALSE(f.plan().is_orm);
  Fixture g("User.make().all(db)\n");
  EXPECT_FALSE(g.plan().is_orm);
}

}  // namespace
}  // namespace fitz::orm
