#!/usr/bin/env bash
# `make demo` end to end (what a newcomer runs first): the hello example, then the HTTP +
# Postgres service with its tour of requests, each answered with the expected status.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(realpath "${1:-$root/build}")
out=$(FITZ_DEMO_TOUR_ONLY=1 bash "$root/scripts/demo.sh" "$build" </dev/null 2>&1)
status=$?
fail=0
expect() {
  if ! grep -qF -- "$1" <<<"$out"; then
    echo "demo: expected to see: $1"
    fail=1
  fi
}
[[ $status -eq 0 ]] || { echo "demo exited with $status"; fail=1; }
expect "main.fitz: no errors"
expect "exit status: 1"
expect '"name":"Ada"'
expect "[201]"
expect "is already registered\"}  [409]"
expect "field 'email': expected Str, found Int\"}  [400]"
expect "path param 'id': expected Int, received 'not-a-number'\"}  [400]"
expect "{\"error\":\"no user 999999999\"}  [404]"
if ((fail)); then
  echo "---- demo output ----"
  echo "$out"
  exit 1
fi
echo "demo: ok"
