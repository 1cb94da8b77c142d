#!/usr/bin/env bash
# `fitz db` with migration files against a scratch database of the test Postgres
# (FITZ_TEST_DATABASE_URL): files generated from the @table types, applied one transaction each,
# undone by their DOWN section, destructive SQL refused without --allow-destructive, failed and
# malformed migrations leaving nothing behind; history, migrate --sql through psql then stamp,
# squash, inspect (text and JSON), diff --out, .fitz data migrations, and clear errors for bad
# input. Fails when the URL
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

# history, migrate --sql run through psql, then stamp: a schema applied by hand gets recorded.
out=$(db history); rc=$?
[[ $rc == 0 && $out == *"pending"*"$v1"* && $out == *"pending"*"$v2"* && $out == *"0 applied, 2 pending" ]]
check "history with nothing applied lists the pending files (rc $rc): $out" $?
out=$(db migrate --sql); rc=$?
[[ $rc == 0 && $out == *"-- $v1"$'\n'"BEGIN;"* && $out == *'CREATE TABLE "accounts"'* && $out == *"COMMIT;" &&
   -z $(sql "SELECT to_regclass('accounts')") && $(sql "SELECT count(*) FROM _fitz_migrations") == 0 ]]
check "migrate --sql prints the script and changes nothing (rc $rc): $out" $?
"$fitz" db migrate --sql "$proj/main.fitz" 2>/dev/null | psql "$url" -XqAt -v ON_ERROR_STOP=1 >"$work/psql.log" 2>&1
[[ $? == 0 && $(columns) == "id,email,name,nick,created_at" && -n $(sql "SELECT to_regclass('ledger.entries')") ]]
check "the --sql script runs in psql: $(cat "$work/psql.log")" $?
out=$(db check); rc=$?
[[ $rc == 1 && $out == *"pending migration $v1"* ]]
check "a schema applied by hand is not recorded yet (rc $rc): $out" $?
out=$(db stamp --all); rc=$?
[[ $rc == 0 && $out == "stamped $v1 (recorded as applied, not run)"$'\n'"stamped $v2 (recorded as applied, not run)" ]]
check "stamp --all records the pending files without running them (rc $rc): $out" $?
out=$(db check); rc=$?
[[ $rc == 0 ]]
check "check after stamping: in sync (rc $rc): $out" $?
out=$(db history); rc=$?
[[ $rc == 0 && $(grep -Ec "^applied [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z  ($v1|$v2)$" <<<"$out") == 2 &&
   $out == *"2 applied, 0 pending" ]]
check "history shows when each was applied (rc $rc): $out" $?
out=$(db stamp create_accounts); rc=$?
[[ $rc == 0 && $out == "already recorded as applied: $v1" ]]
check "stamp by name of an applied migration changes nothing (rc $rc): $out" $?
out=$(db stamp 20000101000000_nope); rc=$?
[[ $rc == 1 && $out == *"no migration \`20000101000000_nope\` in $proj/migrations; the migrations are:"* && $out == *"  $v1"* ]]
check "stamp of an unknown version names the known ones (rc $rc): $out" $?
out=$("$fitz" db stamp 2>&1); rc=$?
[[ $rc == 2 && $out == *"\`fitz db stamp\` needs a migration version, or --all"* ]]
check "stamp without a version is a usage error (rc $rc)" $?

# diff --out writes what diff prints.
sql "ALTER TABLE accounts DROP COLUMN nick" >/dev/null
out=$(db diff --out "$work/diff.sql"); rc=$?
[[ $rc == 0 && $out == "wrote $work/diff.sql (1 statement(s))" && "$(cat "$work/diff.sql")" == "$(db diff)" ]] &&
  grep -q '^ALTER TABLE "accounts" ADD COLUMN "nick" text;$' "$work/diff.sql"
check "diff --out writes the DDL to a file (rc $rc): $out $(cat "$work/diff.sql")" $?
sql "ALTER TABLE accounts ADD COLUMN nick text" >/dev/null

# inspect: the live schema, names as parameters, stable JSON.
sql "CREATE TABLE \"we\"\"ird\" (\"co,l\" int DEFAULT 7, id int PRIMARY KEY)" >/dev/null
ins() { (cd "$work" && "$fitz" db inspect "$@" 2>&1); }
out=$(ins --table accounts); rc=$?
[[ $rc == 0 && $out == "table public.accounts"$'\n'* && $out == *"  primary key (id)"* &&
   $out == *"  index accounts_name_idx (name)"* && $out == *"  unique index accounts_email_key (email)"* ]] &&
  grep -Eq "^  id +bigint +not null  default nextval\('accounts_id_seq'::regclass\)$" <<<"$out" &&
  grep -Eq '^  nick +text +null$' <<<"$out"
check "inspect --table shows columns, keys and indexes (rc $rc): $out" $?
out=$(ins --schema ledger); rc=$?
[[ $rc == 0 && $out == *"table ledger.entries"* &&
   $out == *"  foreign key entries_account_id_fkey (account_id) references public.accounts (id) on delete cascade"* ]]
check "inspect --schema shows foreign keys (rc $rc): $out" $?
ins --all-schemas --json >"$work/a.json"; rc=$?
ins --all-schemas --json >"$work/b.json"
python3 - "$work/a.json" >"$work/json.log" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
names = [(t["schema"], t["name"]) for t in doc["tables"]]
assert names == sorted(names), names
assert ("ledger", "entries") in names and ("public", "accounts") in names, names
acc = next(t for t in doc["tables"] if t["name"] == "accounts")
assert [c["name"] for c in acc["columns"]] == ["id", "email", "name", "created_at", "nick"], acc["columns"]
assert acc["primary_key"] == ["id"], acc
assert [i["name"] for i in acc["indexes"]] == ["accounts_email_key", "accounts_name_idx", "accounts_pkey"], acc
weird = next(t for t in doc["tables"] if t["name"] == 'we"ird')
assert weird["columns"][0] == {"name": "co,l", "type": "integer", "nullable": True, "default": "7"}, weird
ent = next(t for t in doc["tables"] if t["name"] == "entries")
assert ent["foreign_keys"][0]["references"] == {"schema": "public", "table": "accounts", "columns": ["id"]}, ent
assert ent["foreign_keys"][0]["on_delete"] == "cascade", ent
PY
[[ $rc == 0 && $? == 0 ]] && cmp -s "$work/a.json" "$work/b.json"
check "inspect --all-schemas --json is sorted and stable (rc $rc): $(cat "$work/json.log")" $?
out=$(ins --table 'we"ird' --json); rc=$?
[[ $rc == 0 && $out == *'"name": "we\"ird"'* && $out == *'"name": "co,l"'* ]]
check "inspect --table takes any name as a value (rc $rc): $out" $?
out=$(ins --table nope); rc=$?
[[ $rc == 1 && $out == "error: no table \`nope\` in schema public" ]]
check "inspect of an unknown table (rc $rc): $out" $?
out=$(ins --schema nope); rc=$?
[[ $rc == 1 && $out == "error: no schema \`nope\` in the database" ]]
check "inspect of an unknown schema (rc $rc): $out" $?
sql "DROP TABLE \"we\"\"ird\"" >/dev/null

# squash: an applied range becomes one applied migration; a partly applied range is refused.
out=$(db squash "$v1" "$v2"); rc=$?
vs=${v2:0:14}_squashed
fs=$proj/migrations/$vs.sql
[[ $rc == 0 && $out == "squashed 2 migrations ($v1 .. $v2) into $fs"$'\n'"recorded $vs as applied in their place" &&
   -f $fs && ! -f $f1 && ! -f $f2 && $(sql "SELECT string_agg(version, ',') FROM _fitz_migrations") == "$vs" ]] &&
  grep -q "^-- Squashed: $v1, $v2$" "$fs" && grep -q "^-- $v1$" "$fs"
check "squash of an applied range (rc $rc): $out $(cat "$fs" 2>/dev/null)" $?
out=$(db check); rc=$?
[[ $rc == 0 ]]
check "check after squashing: in sync (rc $rc): $out" $?
out=$(db rollback --allow-destructive); rc=$?
[[ $rc == 0 && $out == "rolled back $vs" && -z $(sql "SELECT to_regclass('accounts')") && -z $(sql "SELECT to_regclass('ledger.entries')") ]]
check "the squashed DOWN undoes both, newest first (rc $rc): $out" $?
out=$(db migrate); rc=$?
[[ $rc == 0 && $out == "applied $vs" && $(columns) == "id,email,name,nick,created_at" ]]
check "the squashed UP applies both (rc $rc): $out" $?
printf -- '-- UP\nCREATE TABLE extra1 (i int);\n-- DOWN\nDROP TABLE extra1;\n' >"$proj/migrations/20991231000010_extra1.sql"
printf -- '-- UP\nCREATE TABLE extra2 (i int)\n-- DOWN\nDROP TABLE extra2\n' >"$proj/migrations/20991231000011_extra2.sql"
out=$(db squash "$vs" extra1); rc=$?
[[ $rc == 1 && $out == *"cannot squash a range that is only partly applied"* && $out == *"applied $vs"* &&
   $out == *"pending 20991231000010_extra1"* && -f $fs ]]
check "squash refuses a partly applied range (rc $rc): $out" $?
out=$(db squash extra2 extra1); rc=$?
[[ $rc == 2 && $out == *"takes the older migration first"* ]]
check "squash with the range reversed is a usage error (rc $rc): $out" $?
out=$(db squash 20991231000010 20991231000011); rc=$?
[[ $rc == 0 && $out == "squashed 2 migrations (20991231000010_extra1 .. 20991231000011_extra2) into $proj/migrations/20991231000011_squashed.sql" &&
   ! -f $proj/migrations/20991231000010_extra1.sql && -z $(sql "SELECT to_regclass('extra1')") ]]
check "squash of pending files only rewrites the files (rc $rc): $out" $?
out=$(db migrate); rc=$?
[[ $rc == 0 && -n $(sql "SELECT to_regclass('extra1')") && -n $(sql "SELECT to_regclass('extra2')") ]]
check "the squashed pending files apply, statements without ';' kept apart (rc $rc): $out" $?
out=$(db rollback --allow-destructive); rc=$?
[[ $rc == 0 && -z $(sql "SELECT to_regclass('extra1')") && -z $(sql "SELECT to_regclass('extra2')") ]]
check "and roll back (rc $rc): $out" $?
rm "$proj/migrations/20991231000011_squashed.sql"

# Data migrations: a .fitz file's `migrate` runs in order with the SQL files, in one transaction
# with its tracking row; `rollback` undoes it; a failing one leaves nothing behind.
cat >"$proj/migrations/20991231000020_fill.fitz" <<'FITZ'
async fn migrate(db: DbConn) -> Result<Null> {
    let rows = db.query("SELECT count(*) AS n FROM accounts").await?
    let before = rows[0].get_int("n")?
    db.exec("INSERT INTO accounts (email, name) VALUES ($1, $2)", ["data@example.com", "had {before} before"]).await?
    return Ok(null)
}

async fn rollback(db: DbConn) -> Result<Null> {
    db.exec("DELETE FROM accounts WHERE email = $1", ["data@example.com"]).await?
    return Ok(null)
}
FITZ
printf -- "-- UP\nUPDATE accounts SET nick = 'after' WHERE email = 'data@example.com';\n-- DOWN\nUPDATE accounts SET nick = NULL;\n" \
  >"$proj/migrations/20991231000021_after.sql"
out=$(db migrate); rc=$?
[[ $rc == 0 && $out == *"applied 20991231000020_fill"$'\n'"applied 20991231000021_after" &&
   $(sql "SELECT name || ' ' || nick FROM accounts WHERE email = 'data@example.com'") == "had 0 before after" &&
   -z $(ls -A "$proj/migrations" | grep '^\.') ]]
check "a data migration runs in order with the SQL files (rc $rc): $out" $?
out=$(db status); rc=$?
[[ $rc == 0 && $out == *"applied 20991231000020_fill at "* ]]
check "status lists the data migration as applied (rc $rc): $out" $?
out=$(db rollback --count 2); rc=$?
[[ $rc == 0 && $out == "rolled back 20991231000021_after"$'\n'"rolled back 20991231000020_fill" &&
   $(sql "SELECT count(*) FROM accounts") == 0 && $(sql "SELECT count(*) FROM _fitz_migrations WHERE version LIKE '2099%'") == 0 ]]
check "rollback runs the data migration's rollback (rc $rc): $out" $?
rm "$proj/migrations/20991231000021_after.sql"
cat >"$proj/migrations/20991231000022_bad.fitz" <<'FITZ'
async fn migrate(db: DbConn) -> Result<Null> {
    db.exec("INSERT INTO accounts (email, name) VALUES ('bad@example.com', 'bad')").await?
    return Err("the data does not fit")
}
FITZ
out=$(db migrate); rc=$?
[[ $rc == 1 && $out == *"applied 20991231000020_fill"* && $out == *"the data does not fit"* &&
   $out == *"data migration 20991231000022_bad"*"failed and was rolled back"* &&
   $(sql "SELECT count(*) FROM accounts WHERE email = 'bad@example.com'") == 0 &&
   $(sql "SELECT string_agg(version, ',') FROM _fitz_migrations WHERE version LIKE '2099%'") == 20991231000020_fill ]]
check "a data migration returning Err leaves neither rows nor its record (rc $rc): $out" $?
rm "$proj/migrations/20991231000022_bad.fitz"
printf 'async fn migrate(db: DbConn) -> Result<Null> {\n    return Ok(1 + "x")\n}\n' >"$proj/migrations/20991231000023_typo.fitz"
out=$(db migrate); rc=$?
[[ $rc == 1 && $out == *"error"* && $out == *"data migration 20991231000023_typo"*"failed"* && -z $(ls -A "$proj/migrations" | grep '^\.') ]]
check "a data migration with a type error is reported and not run (rc $rc): $out" $?
rm "$proj/migrations/20991231000023_typo.fitz"
sed -i '/^async fn rollback/,$d' "$proj/migrations/20991231000020_fill.fitz"
out=$(db rollback); rc=$?
[[ $rc == 1 && $out == *"data migration 20991231000020_fill defines no \`async fn rollback(db: DbConn)\`"* ]]
check "rollback of a data migration without rollback is an error (rc $rc): $out" $?
out=$(db migrate --sql); rc=$?
[[ $rc == 0 ]]
check "migrate --sql with nothing pending (rc $rc): $out" $?
sql "DELETE FROM _fitz_migrations WHERE version = '20991231000020_fill'; DELETE FROM accounts" >/dev/null
out=$(db migrate --sql); rc=$?
[[ $rc == 1 && $out == *"is a data migration"*"which has no SQL to print"* ]]
check "migrate --sql refuses a pending data migration (rc $rc): $out" $?
rm "$proj/migrations/20991231000020_fill.fitz"

# Bad input: options that do not apply, bad URLs, a missing database; passwords never shown.
out=$(db status --json); rc=$?
[[ $rc == 2 && $out == *"\`--json\` does not apply to \`fitz db status\`"* ]]
check "an option of another subcommand is a usage error (rc $rc)" $?
out=$(db migrate --sql --dry-run); rc=$?
[[ $rc == 2 && $out == *"alternatives"* ]]
check "--sql with --dry-run is a usage error (rc $rc)" $?
out=$(db status --url "postgres://u:secret-pw@127.0.0.1:notaport/x"); rc=$?
[[ $rc == 2 && $out == 'error: invalid database URL: invalid port "notaport"' ]]
check "a malformed URL is a usage error (rc $rc): $out" $?
out=$(db history --url "${url%/*}/fitz_no_such_db_m"); rc=$?
[[ $rc == 1 && $out == *"cannot connect to the database: FATAL: database \"fitz_no_such_db_m\" does not exist"* && $out != *"at "*".cpp"* ]]
check "a missing database is a clear error (rc $rc): $out" $?
out=$(db status --url "postgres://u:secret-pw@127.0.0.1:1/x"); rc=$?
[[ $rc == 1 && $out == *"cannot connect to the database"* && $out != *secret-pw* ]]
check "an unreachable server is a clear error without the password (rc $rc): $out" $?
out=$(db frobnicate); rc=$?
[[ $rc == 2 && $out == *"unknown subcommand \`frobnicate\`"* ]]
check "an unknown subcommand is a usage error (rc $rc)" $?
out=$(db rollback --count 2 --allow-destructive); rc=$?
[[ $rc == 0 && $out == "rolled back $vs" && -z $(sql "SELECT to_regclass('accounts')") ]]
check "back to an empty database (rc $rc): $out" $?

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
