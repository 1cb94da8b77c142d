#!/usr/bin/env bash
# `APP migrate` of a built service: the project's migration files travel inside the binary and
# run with the engine `fitz db` uses (same output, same `_fitz_migrations` record), so the
# binary and `fitz db` can take turns. Status, apply, rollback (destructive DOWN refused without
# --allow-destructive), a failing migration with the Postgres error and nothing recorded, a
# binary without migrations, usage errors, and the service still serving. The database is a
# scratch one beside FITZ_TEST_DATABASE_URL, else beside scripts/pg-local.sh's.
set -uo pipefail
fitz=$(realpath "${1:?usage: tests/e2e/app_migrate.sh path/to/fitz}")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
suite=app-migrate
source "$here/service_lib.sh"

server=${FITZ_TEST_DATABASE_URL:-}
if [[ -z $server ]]; then server=$(bash "$root/scripts/pg-local.sh" start) || exit 1; fi
url=${server%/*}/fitz_app_migrate_e2e
admin() { psql "$server" -XtAq -v ON_ERROR_STOP=1 -c "$1"; }
sql() { psql "$url" -XtAq -v ON_ERROR_STOP=1 -c "$1"; }
trap 'admin "DROP DATABASE IF EXISTS fitz_app_migrate_e2e WITH (FORCE)" >/dev/null 2>&1; cleanup' EXIT
admin "DROP DATABASE IF EXISTS fitz_app_migrate_e2e WITH (FORCE)" 2>/dev/null && admin "CREATE DATABASE fitz_app_migrate_e2e" || exit 1
export DATABASE_URL=$url

proj=$work/shelf
cp -r "$here/app_migrate" "$proj"
"$fitz" build "$proj" -o "$work/shelf-bin" >"$work/build.log" 2>&1
check "the service builds: $(cat "$work/build.log")" $?
app=$work/shelf-bin
# The files are inside the binary: moving the project away must not matter.
mv "$proj/migrations" "$work/migrations-moved"
v1=20261201090000_create_shelves v2=20261201100000_create_books
table() { sql "SELECT coalesce(to_regclass('$1')::text, '')"; }
recorded() { sql "SELECT string_agg(version, ',' ORDER BY version) FROM _fitz_migrations"; }

out=$("$app" migrate status 2>&1); rc=$?
[[ $rc == 1 && $out == *"pending $v1"*"pending $v2"* && $out == *"pending: 2 migration(s)"* ]]
check "status before migrating lists both as pending, exit 1 (rc $rc): $out" $?

out=$("$app" migrate 2>&1); rc=$?
[[ $rc == 0 && $out == "applied $v1"$'\n'"applied $v2" && $(table books) == books && $(table shelves) == shelves &&
   $(sql "SELECT count(*) FROM shelves") == 1 && $(recorded) == "$v1,$v2" ]]
check "migrate applies both in order and records them (rc $rc): $out" $?

out=$("$app" migrate status 2>&1); rc=$?
[[ $rc == 0 && $out == *"applied $v1 at "*"applied $v2 at "* && $out == *"in sync: every migration in this binary is applied"* ]]
check "status after migrating: in sync, exit 0 (rc $rc): $out" $?

out=$("$app" migrate 2>&1); rc=$?
[[ $rc == 0 && $out == "nothing to migrate: every migration in this binary is applied" ]]
check "a second migrate has nothing to do (rc $rc): $out" $?

out=$("$app" migrate rollback 2>&1); rc=$?
[[ $rc == 1 && $out == *"rolling back $v2 is destructive and was not run"* && $(table books) == books ]]
check "rollback refuses a destructive DOWN without --allow-destructive (rc $rc): $out" $?

out=$("$app" migrate rollback --allow-destructive 2>&1); rc=$?
[[ $rc == 0 && $out == "rolled back $v2" && -z $(table books) && $(table shelves) == shelves && $(recorded) == "$v1" ]]
check "rollback undoes the last migration and forgets it (rc $rc): $out" $?

# fitz db reads the same record: it sees the binary's work and continues it.
mv "$work/migrations-moved" "$proj/migrations"
out=$("$fitz" db status "$proj" 2>&1); rc=$?
[[ $out == *"applied $v1 at "* && $out == *"pending $v2"* ]]
check "fitz db status sees what the binary applied (rc $rc): $out" $?
out=$("$fitz" db migrate "$proj" 2>&1); rc=$?
[[ $rc == 0 && $out == "applied $v2" && $(table books) == books ]]
check "fitz db migrate applies the rest (rc $rc): $out" $?
out=$("$app" migrate status 2>&1); rc=$?
[[ $rc == 0 && $out == *"in sync"* ]]
check "the binary sees what fitz db applied (rc $rc): $out" $?
out=$("$app" migrate rollback 2 --allow-destructive 2>&1); rc=$?
[[ $rc == 0 && $out == "rolled back $v2"$'\n'"rolled back $v1" && -z $(table shelves) && -z $(recorded) ]]
check "rollback 2 undoes both, newest first (rc $rc): $out" $?

# A failing migration: the Postgres error, exit 1, neither its changes nor its row behind.
broken=$work/broken
cp -r "$here/app_migrate" "$broken"
printf -- '-- UP\nCREATE TABLE "half" ("id" int);\nINSERT INTO "nowhere" VALUES (1);\n\n-- DOWN\nDROP TABLE IF EXISTS "half";\n' \
  >"$broken/migrations/20261201110000_broken.sql"
"$fitz" build "$broken" -o "$work/broken-bin" >"$work/build.log" 2>&1
check "the broken service builds: $(cat "$work/build.log")" $?
out=$("$work/broken-bin" migrate 2>&1); rc=$?
[[ $rc == 1 && $out == *"applied $v2"* && $out == *"migration 20261201110000_broken failed and was rolled back"* &&
   $out == *'relation "nowhere" does not exist'* && -z $(table half) && $(recorded) == "$v1,$v2" ]]
check "a failing migration reports the Postgres error and leaves nothing (rc $rc): $out" $?

# No database, an unreachable one, usage errors.
out=$(DATABASE_URL= "$app" migrate 2>&1); rc=$?
[[ $rc == 2 && $out == *"no database: set DATABASE_URL"* ]]
check "migrate without DATABASE_URL is a usage error (rc $rc): $out" $?
out=$(DATABASE_URL=postgres://postgres@127.0.0.1:1/x "$app" migrate 2>&1); rc=$?
[[ $rc == 1 && $out == *"cannot connect to the database"* ]]
check "an unreachable database fails with exit 1 (rc $rc): $out" $?
out=$("$app" migrate sideways 2>&1); rc=$?
[[ $rc == 2 && $out == *"unknown subcommand \`sideways\`"* ]]
check "an unknown subcommand is a usage error (rc $rc): $out" $?
out=$("$app" migrate rollback zero 2>&1); rc=$?
[[ $rc == 2 && $out == *"positive whole number"* ]]
check "rollback takes a count (rc $rc): $out" $?

# A service built without migrations says so.
bare=$work/bare
cp -r "$here/app_migrate" "$bare"
rm -r "$bare/migrations"
"$fitz" build "$bare" -o "$work/bare-bin" >"$work/build.log" 2>&1
check "the service without migrations builds: $(cat "$work/build.log")" $?
out=$("$work/bare-bin" migrate 2>&1); rc=$?
[[ $rc == 1 && $out == *"this binary holds no migrations"* ]]
check "a binary without migrations says so, exit 1 (rc $rc): $out" $?

# `migrate` is only an argument: the binary still serves.
start shelf "$app"
req GET /ping
expect "the service serves" 200 '{"ok":true}'
stop shelf

echo "app-migrate: $pass passed, $fail failed"
[[ $fail == 0 ]]
