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

[[ $fails == 0 ]]
