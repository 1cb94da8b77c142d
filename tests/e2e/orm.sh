#!/usr/bin/env bash
# ORM queries end to end through `fitz run` against a real Postgres (FITZ_TEST_DATABASE_URL, from
# scripts/pg-local.sh): the program's output, and the statements FITZ_DB_LOG shows carry user
# values only as $n parameters. Fails when the URL is unset.
set -uo pipefail
fitz=$(realpath "${1:?usage: tests/e2e/orm.sh path/to/fitz}")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/orm" && pwd)
if [[ -z ${FITZ_TEST_DATABASE_URL:-} ]]; then
  echo "FITZ_TEST_DATABASE_URL is not set: run scripts/pg-local.sh start and export the URL it prints" >&2
  exit 1
fi
export DATABASE_URL=$FITZ_TEST_DATABASE_URL
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
check() {
  if [[ $2 == 0 ]]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

out=$(FITZ_DB_LOG=1 "$fitz" run "$here/users.fitz" 2>"$work/log"); rc=$?
[[ $rc == 0 ]] && diff -u "$here/users.out" <(printf '%s\n' "$out") >"$work/diff"
status=$?
check "users.fitz output (rc $rc) $(cat "$work/diff") $(grep -v '^\[fitz-db' "$work/log")" $status

# The injection string was bound, never written into a statement.
grep -q '^\[fitz-db .*\] SELECT "id", "full_name", "age", "active", "nick" FROM "orm_e2e_users" WHERE ("full_name" = \$1) LIMIT 1$' "$work/log" &&
  ! grep -q "DROP TABLE orm_e2e_users; --" "$work/log"
status=$?
check "statements carry values as parameters: $(grep -c '^\[fitz-db' "$work/log") logged" $status

# Preload: the parents, then one batched query for all their children.
out=$(FITZ_DB_LOG=1 "$fitz" run "$here/posts.fitz" 2>"$work/log"); rc=$?
[[ $rc == 0 ]] && diff -u "$here/posts.out" <(printf '%s\n' "$out") >"$work/diff" &&
  [[ $(grep -c '\] SELECT .* FROM "orm_e2e_posts"' "$work/log") == 1 ]] &&
  grep -q '\] SELECT "id", "author_id", "title" FROM "orm_e2e_posts" WHERE "author_id" = ANY(\$1::int8\[\])$' "$work/log"
status=$?
[[ $status == 0 ]] || cat "$work/log"
check "posts.fitz preload: one batched query for the children (rc $rc) $(cat "$work/diff")" $status

# Navigation: one constant statement per call, the row's key or FK bound as $1.
out=$(FITZ_DB_LOG=1 "$fitz" run "$here/navigation.fitz" 2>"$work/log"); rc=$?
[[ $rc == 0 ]] && diff -u "$here/navigation.out" <(printf '%s\n' "$out") >"$work/diff" &&
  grep -q '\] SELECT "id", "author_id", "title", "year" FROM "orm_e2e_nav_books" WHERE "author_id" = \$1$' "$work/log" &&
  grep -q '\] SELECT "id", "author_id", "text" FROM "orm_e2e_nav_bios" WHERE "author_id" = \$1 LIMIT 1$' "$work/log" &&
  grep -q '\] SELECT "id", "name" FROM "orm_e2e_nav_authors" WHERE "id" = \$1 LIMIT 1$' "$work/log" &&
  grep -q '\] SELECT "id", "author_id", "title", "year" FROM "orm_e2e_nav_books" WHERE ("author_id" = \$1) AND ("year" >= \$2) ORDER BY "year" DESC$' "$work/log"
status=$?
[[ $status == 0 ]] || cat "$work/log"
check "navigation.fitz: children, child or null, parent, queries from a row (rc $rc) $(cat "$work/diff")" $status

# Queries kept in variables: the fragments joined and renumbered; values stay parameters.
out=$(FITZ_DB_LOG=1 "$fitz" run "$here/query_values.fitz" 2>"$work/log"); rc=$?
[[ $rc == 0 ]] && diff -u "$here/query_values.out" <(printf '%s\n' "$out") >"$work/diff" &&
  grep -q '\] SELECT "id", "name", "age", "active" FROM "orm_e2e_qv_users" WHERE "active" AND ("name" LIKE \$1) AND ("age" >= \$2) ORDER BY "name"$' "$work/log" &&
  grep -q '\] SELECT "id", "name", "age", "active" FROM "orm_e2e_qv_users" ORDER BY "id" LIMIT \$1 OFFSET \$2$' "$work/log" &&
  grep -q '\] UPDATE "orm_e2e_qv_users" SET "active" = \$1 WHERE ("age" >= \$2) AND "active"$' "$work/log" &&
  ! grep -q "'1'='1" "$work/log" && ! grep -q '\] DELETE FROM "orm_e2e_qv_users" ORDER' "$work/log"
status=$?
[[ $status == 0 ]] || cat "$work/log"
check "query_values.fitz: queries kept in variables (rc $rc) $(cat "$work/diff")" $status

# bulk_insert: 2500 rows in three statements of one array per column; jsonb forms and rank.
out=$(FITZ_DB_LOG=1 "$fitz" run "$here/bulk_json.fitz" 2>"$work/log"); rc=$?
[[ $rc == 0 ]] && diff -u "$here/bulk_json.out" <(printf '%s\n' "$out") >"$work/diff" &&
  [[ $(grep -c '\] INSERT INTO "orm_e2e_bulk_docs" ("title", "score", "even", "note") SELECT \* FROM unnest(\$1::text\[\], \$2::float8\[\], \$3::bool\[\], \$4::text\[\])$' "$work/log") == 3 ]] &&
  grep -q '\] UPDATE "orm_e2e_bulk_settings" SET "meta" = "meta" || \$1::jsonb WHERE ("name" = \$2)$' "$work/log" &&
  ! grep -q "x'); --" "$work/log"
status=$?
[[ $status == 0 ]] || cat "$work/log"
check "bulk_json.fitz: bulk_insert in batches, merge_jsonb, jsonb paths, rank (rc $rc) $(cat "$work/diff")" $status

# Map (jsonb) and List fields read back into the struct by insert RETURNING, first and all.
out=$("$fitz" run "$here/jsonb_read.fitz" 2>&1); rc=$?
[[ $rc == 0 ]] && diff -u "$here/jsonb_read.out" <(printf '%s\n' "$out") >"$work/diff"
status=$?
check "jsonb_read.fitz: jsonb and array fields decoded into the struct (rc $rc) $(cat "$work/diff")" $status

# DateTime fields: sent as timestamptz parameters, read back as DateTime values.
out=$(FITZ_DB_LOG=1 "$fitz" run "$here/datetime_read.fitz" 2>"$work/log"); rc=$?
[[ $rc == 0 ]] && diff -u "$here/datetime_read.out" <(printf '%s\n' "$out") >"$work/diff" &&
  grep -q '\] SELECT "id", "name", "at", "seen", "created" FROM "orm_e2e_events" WHERE ("at" < \$1)' "$work/log"
status=$?
[[ $status == 0 ]] || cat "$work/log"
check "datetime_read.fitz: DateTime fields written and read back (rc $rc) $(cat "$work/diff")" $status

# Preload before `.first` (the LIMIT 1 row, then its children), and the parents of a
# @belongs_to column through its struct-typed sibling: one batched query by the rows' FKs.
out=$(FITZ_DB_LOG=1 "$fitz" run "$here/preload_more.fitz" 2>"$work/log"); rc=$?
[[ $rc == 0 ]] && diff -u "$here/preload_more.out" <(printf '%s\n' "$out") >"$work/diff" &&
  grep -q '\] SELECT "id", "name" FROM "orm_e2e_pm_authors" ORDER BY "id" LIMIT 1$' "$work/log" &&
  [[ $(grep -c '\] SELECT "id", "name" FROM "orm_e2e_pm_authors" WHERE "id" = ANY(\$1::int8\[\])$' "$work/log") == 3 ]]
status=$?
[[ $status == 0 ]] || cat "$work/log"
check "preload_more.fitz: preload with first, preload of a belongs_to parent (rc $rc) $(cat "$work/diff")" $status

# The typed boundary: parameters bound from their static types, rows decoded by column index
# (an integer and a real column read into Int and Float fields), preload matched by key over
# 31 parents (one query per relation), `count` after a `preload` (no related query).
out=$(FITZ_DB_LOG=1 "$fitz" run "$here/typed_boundary.fitz" 2>"$work/log"); rc=$?
[[ $rc == 0 ]] && diff -u "$here/typed_boundary.out" <(printf '%s\n' "$out") >"$work/diff" &&
  grep -q '\] SELECT COUNT(\*) FROM "orm_e2e_tb_people" WHERE "active"$' "$work/log" &&
  [[ $(grep -c '\] SELECT .* FROM "orm_e2e_tb_pets" WHERE "owner_id" = ANY' "$work/log") == 1 ]] &&
  [[ $(grep -c '\] SELECT .* FROM "orm_e2e_tb_badges" WHERE "owner_id" = ANY' "$work/log") == 1 ]] &&
  ! grep -q "DROP TABLE orm_e2e_tb_people; --" "$work/log"
status=$?
[[ $status == 0 ]] || cat "$work/log"
check "typed_boundary.fitz: typed parameters, decoders by index, preload by key, count after preload (rc $rc) $(cat "$work/diff")" $status

# fitz db on a scratch database: diff, migrate, status across two versions of the types.
schema=$here/schema
admin() { FITZ_ORM_E2E_ACTION=$1 "$fitz" run "$schema/admin.fitz" 2>&1; }
out=$(admin create)
check "scratch database created: $out" $([[ $out == ok ]]; echo $?)
url=${FITZ_TEST_DATABASE_URL%/*}/fitz_orm_e2e
out=$("$fitz" db diff "$schema/v1.fitz" --url "$url" 2>&1); rc=$?
[[ $rc == 0 && $out == *'CREATE TABLE "accounts" ('* && $out == *'"email" text NOT NULL UNIQUE'* &&
   $out == *'CREATE INDEX IF NOT EXISTS "accounts_name_idx" ON "accounts" ("name");'* ]]
check "db diff prints CREATE TABLE and CREATE INDEX (rc $rc): $out" $?
out=$("$fitz" db status "$schema/v1.fitz" --url "$url" 2>&1); rc=$?
[[ $rc == 1 && $out == "pending: 2 statement(s); \`fitz db diff\` shows them" ]]
check "db status before migrating: pending, exit 1 (rc $rc): $out" $?
out=$("$fitz" db migrate "$schema/v1.fitz" --url "$url" 2>&1); rc=$?
[[ $rc == 0 && $out == *"applied 2 statement(s) as migration "* ]]
check "db migrate v1 (rc $rc): $out" $?
out=$("$fitz" db status "$schema/v1.fitz" --url "$url" 2>&1); rc=$?
[[ $rc == 0 && $(grep -c '^applied ' <<<"$out") == 1 && $out == *"in sync: the database matches the @table types" ]]
check "db status after v1: one migration, in sync (rc $rc): $out" $?
out=$("$fitz" db migrate "$schema/v2.fitz" --url "$url" 2>&1); rc=$?
[[ $rc == 0 && $out == *'ALTER TABLE "accounts" ADD COLUMN "nick" text;'* &&
   $out == *'ALTER TABLE "accounts" ADD COLUMN "created_at" text NOT NULL DEFAULT now();'* &&
   $out == *'CREATE SCHEMA IF NOT EXISTS "ledger";'* &&
   $out == *'FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE CASCADE'* ]]
check "db migrate v2 adds columns, a schema and a table (rc $rc): $out" $?
out=$("$fitz" db diff "$schema/v2.fitz" --url "$url" 2>&1); rc=$?
[[ $rc == 0 && $out == "-- the database matches the @table types" ]]
check "db diff after migrating (rc $rc): $out" $?
out=$("$fitz" db diff "$schema/v1.fitz" --url "$url" 2>&1); rc=$?
[[ $rc == 0 && $out == *"-- column accounts.nick is not in \`Account\`; dropping it is destructive (left alone)"* ]]
check "db diff never drops a column (rc $rc): $out" $?
out=$("$fitz" db diff "$schema/v1.fitz" --url "$url" --allow-destructive 2>&1); rc=$?
[[ $rc == 0 && $out == *'ALTER TABLE "accounts" DROP COLUMN "nick";'* ]]
check "db diff --allow-destructive prints the DROP COLUMN (rc $rc): $out" $?
# Without migration files, rollback undoes the last diff migration with the statements recorded for it.
out=$("$fitz" db rollback "$schema/v2.fitz" --url "$url" --allow-destructive 2>&1); rc=$?
[[ $rc == 0 && $out == "rolled back "*"_schema"* ]]
check "db rollback undoes the v2 diff migration (rc $rc): $out" $?
out=$("$fitz" db check "$schema/v1.fitz" --url "$url" 2>&1); rc=$?
[[ $rc == 0 && $out == "in sync: every migration is applied and the database matches the @table types" ]]
check "db check: back at v1 (rc $rc): $out" $?
out=$("$fitz" db check "$schema/v2.fitz" --url "$url" 2>&1); rc=$?
[[ $rc == 1 && $out == *'missing: ALTER TABLE "accounts" ADD COLUMN "nick" text;'* ]]
check "db check against v2: drifted, exit 1 (rc $rc): $out" $?
out=$(env -u DATABASE_URL "$fitz" db migrate "$schema/v2.fitz" 2>&1); rc=$?
[[ $rc == 2 && $out == "error: no database: pass --url or set DATABASE_URL" ]]
check "db migrate without a database is a usage error (rc $rc)" $?
out=$("$fitz" db migrate "$schema/v2.fitz" --url "postgres://postgres@127.0.0.1:1/x" 2>&1); rc=$?
[[ $rc == 1 && $out == "error: cannot connect to the database: "* ]]
check "db migrate against no server: a clear error (rc $rc): $out" $?
# on_delete= on @has_many/@has_one becomes the child's FK action (decision 12).
out=$("$fitz" db diff "$schema/on_delete.fitz" --url "$url" 2>&1); rc=$?
[[ $rc == 0 && $out == *'FOREIGN KEY ("team_id") REFERENCES "od_teams" ("id") ON DELETE SET NULL'* &&
   $out == *'FOREIGN KEY ("team_id") REFERENCES "od_teams" ("id") ON DELETE RESTRICT'* ]]
check "db diff: on_delete= of @has_many/@has_one on the child's foreign key (rc $rc): $out" $?
admin drop >/dev/null

[[ $fails == 0 ]]
