#!/usr/bin/env bash
# `fitz db new|migrate|rollback|status|check` with migration files against a scratch database of
# the test Postgres (FITZ_TEST_DATABASE_URL): files generated from the @table types, applied one
# transaction each, undone by their DOWN section, destructive SQL refused without
# --allow-destructive, failed and malformed migrations leaving nothing behind. Fails when the URL
# is unset.
set -uo pipefail
fitz=$(realpath "${1:?usage: tests/pg/migrations_e2e.sh path/to/fitz}")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
schema=$(cd "$here/../e2e/orm/schema" && pwd)
if [[ -z ${FITZ_TEST_DATABASE_URL:-} ]]; then
  echo "FITZ_TEST_DATABASE_URL is not set: run scripts/pg-local.sh start and export the URL it prints" >&2
  exit 1
fi
work=$(mktemp -d)
url=${FITZ_TEST_DATABASE_URL%/*}/fitz_migrations_e2e
admin() { psql "$FITZ_TEST_DATABASE_URL" -XtAq -v ON_ERROR_STOP=1 -c "$1"; }
sql() { psql "$url" -XtAq -v ON_ERROR_STOP=1 -c "$1"; }
trap 'admin "DROP DATABASE IF EXISTS fitz_migrations_e2e WITH (FORCE)" >/dev/null 2>&1; rm -rf "$work"' EXIT
admin "DROP DATABASE IF EXISTS fitz_migrations_e2e WITH (FORCE)" && admin "CREATE DATABASE fitz_migrations_e2e" || exit 1
export DATABASE_URL=$url
fails=0
check() {
  if [[ $2 == 0 ]]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}
proj=$work/proj
mkdir -p "$proj"
cp "$schema/v1.fitz" "$proj/main.fitz"
db() { "$fitz" db "$@" "$proj/main.fitz" 2>&1; }
only_file() { ls "$proj/migrations/"*"_$1.sql" 2>/dev/null; }
columns() { sql "SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = 'accounts'"; }

out=$(db new "Bad-Name"); rc=$?
[[ $rc == 2 && $out == *"a migration name is lower-case letters, digits and \`_\`"* ]]
check "new refuses a name that is no file name (rc $rc)" $?

# new: UP brings the database to the types, DOWN undoes it.
out=$(db new create_accounts); rc=$?
f1=$(only_file create_accounts)
[[ $rc == 0 && $out == "created $proj/migrations/"*"_create_accounts.sql (2 statement(s) in UP)" && -f $f1 ]] &&
  head -2 "$f1" | grep -q '^-- Migration: create_accounts$' && sed -n 2p "$f1" | grep -Eq '^-- Created: [0-9]{4}-[0-9]{2}-[0-9]{2}T' &&
  grep -q '^CREATE TABLE "accounts" ($' "$f1" && grep -q '^-- DOWN$' "$f1" &&
  grep -q '^DROP TABLE IF EXISTS "accounts";$' "$f1" && grep -q '^DROP INDEX IF EXISTS "accounts_name_idx";$' "$f1"
check "new writes UP and DOWN from the types (rc $rc): $out $(cat "$f1" 2>/dev/null)" $?
v1=$(basename "$f1" .sql)

out=$(db check); rc=$?
[[ $rc == 1 && $out == *"pending migration $v1"* && $out == *'missing: CREATE TABLE "accounts"'* && $out == *"drifted: "* ]]
check "check before migrating: drifted, exit 1 (rc $rc): $out" $?
out=$(db status); rc=$?
[[ $rc == 1 && $out == *"pending $v1"* ]]
check "status lists the pending file (rc $rc): $out" $?
out=$(db migrate --dry-run); rc=$?
[[ $rc == 0 && $out == *"-- would apply $v1"* && -z $(sql "SELECT to_regclass('accounts')") ]]
check "migrate --dry-run changes nothing (rc $rc): $out" $?
out=$(db migrate); rc=$?
[[ $rc == 0 && $out == "applied $v1" && $(columns) == "id,email,name" ]]
check "migrate applies the file (rc $rc): $out" $?
out=$(db check); rc=$?
[[ $rc == 0 && $out == "in sync: every migration is applied and the database matches the @table types" ]]
check "check after migrating: in sync (rc $rc): $out" $?
out=$(db migrate); rc=$?
[[ $rc == 0 && $out == "nothing to migrate: every migration in $proj/migrations is applied" ]]
check "migrate twice applies nothing (rc $rc): $out" $?

# The second version of the types: a column, a schema, a table.
cp "$schema/v2.fitz" "$proj/main.fitz"
sleep 1  # a new second, so the second file sorts after the first
out=$(db new add_ledger); rc=$?
f2=$(only_file add_ledger)
v2=$(basename "$f2" .sql)
[[ $rc == 0 && -f $f2 ]] && grep -q '^ALTER TABLE "accounts" ADD COLUMN "nick" text;$' "$f2" &&
  grep -q '^CREATE SCHEMA IF NOT EXISTS "ledger";$' "$f2" && grep -q '^DROP SCHEMA IF EXISTS "ledger";$' "$f2" &&
  grep -q '^ALTER TABLE "accounts" DROP COLUMN IF EXISTS "nick";$' "$f2"
check "new after changing the types (rc $rc): $out $(cat "$f2" 2>/dev/null)" $?
out=$(db new another); rc=$?
[[ $rc == 1 && $out == *"migration $v2 is not applied yet"* && -z $(only_file another) ]]
check "new refuses to repeat a pending migration (rc $rc): $out" $?
out=$(db migrate); rc=$?
[[ $rc == 0 && $out == "applied $v2" && $(columns) == "id,email,name,nick,created_at" ]]
check "migrate applies the second file (rc $rc): $out" $?

# rollback runs DOWN; dropping columns and tables needs --allow-destructive.
out=$(db rollback); rc=$?
[[ $rc == 1 && $out == *"rolling back $v2 is destructive and was not run (pass --allow-destructive to run it)"* &&
   $out == *'DROP TABLE IF EXISTS "ledger"."entries"'* && $(columns) == "id,email,name,nick,created_at" ]]
check "rollback refuses destructive DOWN statements (rc $rc): $out" $?
out=$(db rollback --allow-destructive); rc=$?
[[ $rc == 0 && $out == "rolled back $v2" && $(columns) == "id,email,name" && -z $(sql "SELECT to_regclass('ledger.entries')") ]]
check "rollback --allow-destructive undoes the last migration (rc $rc): $out" $?
out=$(db check); rc=$?
[[ $rc == 1 && $out == *"pending migration $v2"* ]]
check "check after the rollback: the file is pending again (rc $rc): $out" $?
out=$(db migrate); rc=$?
[[ $rc == 0 && $out == "applied $v2" ]]
check "the rolled-back migration applies again (rc $rc): $out" $?

# A hand-written destructive migration is refused as a whole, then applied on request.
printf -- '-- Migration: drop_nick\n-- Created: 2099-12-31T00:00:00Z\n\n-- UP\nALTER TABLE accounts DROP COLUMN nick;\n\n-- DOWN\nALTER TABLE accounts ADD COLUMN nick text;\n' \
  >"$proj/migrations/20991231000000_drop_nick.sql"
out=$(db migrate); rc=$?
[[ $rc == 1 && $out == *"migration 20991231000000_drop_nick is destructive and was not run"* &&
   $out == *"ALTER TABLE accounts DROP COLUMN nick"* && $(columns) == "id,email,name,nick,created_at" ]]
check "migrate refuses a destructive file (rc $rc): $out" $?
out=$(db migrate --allow-destructive); rc=$?
[[ $rc == 0 && $out == "applied 20991231000000_drop_nick" && $(columns) == "id,email,name,created_at" ]]
check "migrate --allow-destructive applies it (rc $rc): $out" $?
out=$(db check); rc=$?
[[ $rc == 1 && $out == *'missing: ALTER TABLE "accounts" ADD COLUMN "nick" text;'* ]]
check "check sees the schema drift from the types (rc $rc): $out" $?
out=$(db rollback); rc=$?
[[ $rc == 0 && $out == "rolled back 20991231000000_drop_nick" && $(columns) == "id,email,name,created_at,nick" ]]
check "rollback of an additive DOWN needs no flag (rc $rc): $out" $?
rm "$proj/migrations/20991231000000_drop_nick.sql"

# A migration that fails half-way leaves neither its tables nor its tracking row.
printf -- '-- UP\nCREATE TABLE half_done (i int);\nSELECT 1 / 0;\n' >"$proj/migrations/20991231000001_fails.sql"
out=$(db migrate); rc=$?
[[ $rc == 1 && $out == *"migration 20991231000001_fails failed and was rolled back"* && $out == *"division by zero"* &&
   -z $(sql "SELECT to_regclass('half_done')") && $(sql "SELECT count(*) FROM _fitz_migrations WHERE version LIKE '%_fails'") == 0 ]]
check "a failing migration is rolled back whole (rc $rc): $out" $?
rm "$proj/migrations/20991231000001_fails.sql"
printf -- 'CREATE TABLE x (i int);\n' >"$proj/migrations/20991231000002_no_sections.sql"
out=$(db migrate); rc=$?
[[ $rc == 1 && $out == *"20991231000002_no_sections.sql: line 1: SQL before the \`-- UP\` line"* ]]
check "a malformed file is an error naming it (rc $rc): $out" $?
rm "$proj/migrations/20991231000002_no_sections.sql"
printf -- '-- UP\nCREATE TABLE no_down (i int);\n' >"$proj/migrations/20991231000003_no_down.sql"
db migrate >/dev/null
out=$(db rollback --allow-destructive); rc=$?
[[ $rc == 1 && $out == *"migration 20991231000003_no_down has no DOWN statements"* && -n $(sql "SELECT to_regclass('no_down')") ]]
check "rollback without a DOWN section is an error (rc $rc): $out" $?
sql "DROP TABLE no_down; DELETE FROM _fitz_migrations WHERE version = '20991231000003_no_down'" >/dev/null
rm "$proj/migrations/20991231000003_no_down.sql"

out=$(db rollback --count 2 --allow-destructive); rc=$?
[[ $rc == 0 && $out == "rolled back $v2"$'\n'"rolled back $v1" && -z $(sql "SELECT to_regclass('accounts')") ]]
check "rollback --count 2 undoes both migrations, newest first (rc $rc): $out" $?
out=$(db rollback); rc=$?
[[ $rc == 0 && $out == "nothing to roll back: no migration is applied" ]]
check "rollback with nothing applied (rc $rc): $out" $?

out=$(env -u DATABASE_URL "$fitz" db new blank --empty "$proj/main.fitz" 2>&1); rc=$?
f3=$(only_file blank)
[[ $rc == 0 && -f $f3 ]] && grep -q '^-- the statements that apply this migration$' "$f3"
check "new --empty writes a template without a database (rc $rc): $out" $?
out=$(env -u DATABASE_URL "$fitz" db new blank2 "$proj/main.fitz" 2>&1); rc=$?
[[ $rc == 2 && $out == "error: no database: pass --url or set DATABASE_URL (or --empty)" ]]
check "new without a database or --empty is a usage error (rc $rc): $out" $?
out=$(db rollback --count 0); rc=$?
[[ $rc == 2 && $out == *"\`--count\` needs a positive whole number, got \`0\`"* ]]
check "rollback --count 0 is a usage error (rc $rc)" $?

if ((fails)); then
  echo "$fails migration check(s) failed"
  exit 1
fi
echo "migrations end to end: all checks passed"
