#!/usr/bin/env bash
# `fitz check` on live views (.fitzv) end to end: the spec's example views parse with no
# syntax error and `--dump=cst` prints their tree; malformed views (fail_*.fitzv) exit 1 with
# a located diagnostic, also in JSON; an unreadable path or a dump views lack exit 2.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
views=$here/../testdata/views
pass=0 fail=0
check() {  # name, condition-result
  if [[ $2 == 0 ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED e2e views: $1"; fi
}

for f in "$views"/*.fitzv; do
  name=$(basename "$f")
  if [[ $name == fail_* ]]; then
    err=$("$fitz" check "$f" 2>&1 >/dev/null); rc=$?
    check "$name exits 1" $([[ $rc == 1 ]]; echo $?)
    check "$name reports a located error" $(grep -qE "$name:[0-9]+:[0-9]+: error\[E00[0-9][0-9]\]" <<<"$err"; echo $?)
    json=$("$fitz" check --format=json "$f" 2>/dev/null)
    check "$name JSON diagnostic" $(grep -q '"severity":"error"' <<<"$json"; echo $?)
  else
    out=$("$fitz" check --dump=cst "$f" 2>&1); rc=$?
    check "$name exits 0" $([[ $rc == 0 ]]; echo $?)
    check "$name dumps a component" $(grep -q '^(source_file .*(component name: (identifier)' <<<"$out"; echo $?)
    check "$name has no ERROR or MISSING" $(! grep -qE '\((ERROR|MISSING)' <<<"$out"; echo $?)
  fi
done

"$fitz" check "$views/no_such_view.fitzv" >/dev/null 2>&1
check "missing view exits 2" $([[ $? == 2 ]]; echo $?)
"$fitz" check --dump=tir "$views/counter.fitzv" >/dev/null 2>&1
check "--dump=tir on a view exits 2" $([[ $? == 2 ]]; echo $?)
# Garbage never crashes the parser: exit 1 (syntax errors), not a signal.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -c 20000 /dev/urandom > "$work/garbage.fitzv"
"$fitz" check "$work/garbage.fitzv" >/dev/null 2>&1
check "random bytes exit 1" $([[ $? == 1 ]]; echo $?)

echo "e2e views: $pass passed, $fail failed"
[[ $fail == 0 ]]
