#!/usr/bin/env bash
# `fitz lint` end to end: exit status (0 with warnings, 1 when a denied lint fires, 2 on an
# unknown lint), --deny/--allow, `[lint]` of fitz.toml, and the JSON and GitHub formats.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
check() {  # name, condition-result
  if [[ $2 == 0 ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED e2e lint: $1"; fi
}

mkdir -p "$work/proj/src"
cat >"$work/proj/fitz.toml" <<'TOML'
[package]
name = "linted"
version = "0.1.0"
edition = "2026"
TOML
cat >"$work/proj/src/main.fitz" <<'FITZ'
fn save(name: Str, verbose: Bool) -> Result<Int> {
    return Ok(name.len())
}

fn run() {
    save("a", true)
}

run()
FITZ
cp "$work/proj/src/main.fitz" "$work/loose.fitz"
printf 'fn add(a: Int, b: Int) -> Int {\n    return a + b\n}\nprint(add(1, 2))\n' >"$work/clean.fitz"

# Warnings only: exit 0, each warning names its lint, the summary counts them.
out=$(cd "$work" && "$fitz" lint loose.fitz 2>&1); rc=$?
[[ $rc == 0 && $out == *"warning[W1000]: unused parameter \`verbose\` [unused_parameter]"* &&
   $out == *"warning[W1005]"*"[unchecked_result]"* && $out == *"2 warnings"* ]]
check "warnings exit 0 (rc $rc): $out" $?

# A clean file: nothing but the summary line, exit 0.
out=$(cd "$work" && "$fitz" lint clean.fitz 2>&1); rc=$?
[[ $rc == 0 && $out != *warning* ]]; check "clean file (rc $rc): $out" $?

# Several files at once.
out=$(cd "$work" && "$fitz" lint clean.fitz loose.fitz 2>&1); rc=$?
[[ $rc == 0 && $out == *"loose.fitz:1:"* ]]; check "several files (rc $rc): $out" $?

# --deny: the lint is an error and the exit status 1; the other stays a warning.
out=$(cd "$work" && "$fitz" lint loose.fitz --deny unchecked_result 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[W1005]"* && $out == *"warning[W1000]"* ]]
check "--deny makes the lint an error (rc $rc): $out" $?
out=$(cd "$work" && "$fitz" lint loose.fitz --deny=unused_parameter --allow unchecked_result 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[W1000]"* && $out != *W1005* ]]
check "--deny=LINT and --allow (rc $rc): $out" $?

# An unknown lint is a usage error.
out=$(cd "$work" && "$fitz" lint loose.fitz --deny no_such_lint 2>&1); rc=$?
[[ $rc == 2 && $out == *"unknown lint \`no_such_lint\`"* ]]; check "unknown lint (rc $rc): $out" $?

# fitz.toml [lint]: deny and allow for the project; --allow on the command line lifts a deny.
out=$(cd "$work/proj" && "$fitz" lint 2>&1); rc=$?
[[ $rc == 0 && $out == *W1000* && $out == *W1005* ]]; check "project without [lint] (rc $rc): $out" $?
printf '\n[lint]\ndeny = ["unchecked_result"]\nallow = ["unused_parameter"]\n' >>"$work/proj/fitz.toml"
out=$(cd "$work/proj" && "$fitz" lint 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[W1005]"* && $out != *W1000* ]]; check "fitz.toml [lint] (rc $rc): $out" $?
out=$(cd "$work/proj" && "$fitz" lint --allow unchecked_result 2>&1); rc=$?
[[ $rc == 0 && $out != *W1005* ]]; check "--allow lifts a deny of fitz.toml (rc $rc): $out" $?
sed -i 's/"unused_parameter"/"unused_parameters"/' "$work/proj/fitz.toml"
out=$(cd "$work/proj" && "$fitz" lint 2>&1); rc=$?
[[ $rc == 2 && $out == *"unknown lint \`unused_parameters\`"*"fitz.toml"* ]]; check "unknown lint in fitz.toml (rc $rc): $out" $?

# JSON Lines on stdout: one object per finding with its code and fix-it.
out=$(cd "$work" && "$fitz" lint loose.fitz --format=json 2>/dev/null); rc=$?
python3 - "$out" <<'PY'
import json, sys
rows = [json.loads(l) for l in sys.argv[1].splitlines() if l.strip()]
codes = sorted(r["code"] for r in rows)
assert codes == ["W1000", "W1005"], codes
param = next(r for r in rows if r["code"] == "W1000")
assert param["severity"] == "warning", param
assert param["fixes"] and param["fixes"][0]["replacement"] == "_", param
result = next(r for r in rows if r["code"] == "W1005")
assert result["fixes"][0]["replacement"] == "let _ = ", result
PY
check "json format (rc $rc): $out" $?

# GitHub annotations: a ::warning (or ::error when denied) with the code as title.
out=$(cd "$work" && "$fitz" lint loose.fitz --format=github --deny unused_parameter 2>/dev/null); rc=$?
[[ $rc == 1 && $out == *"::error file=loose.fitz,line=1"*"title=W1000::"* && $out == *"::warning file=loose.fitz,line=6"*"title=W1005::"* ]]
check "github format (rc $rc): $out" $?

# Errors of the program are reported and fail, and no lint runs on a broken program.
printf 'fn f(x: Int) -> Int {\n    return "no"\n}\n' >"$work/broken.fitz"
out=$(cd "$work" && "$fitz" lint broken.fitz 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[E"* && $out != *W1000* ]]; check "program errors (rc $rc): $out" $?

# `// @allow(lint)` on the line or the line above drops that finding only (even when denied).
cat >"$work/allowed.fitz" <<'FITZ'
// @allow(unused_parameter)
fn save(name: Str, verbose: Bool) -> Result<Int> {
    return Ok(name.len())
}

fn keep(a: Int, b: Int) -> Int {  // @allow(unchecked_result, unused_parameter)
    return a
}

fn other(c: Int) -> Int {
    return 1
}

print(keep(1, 2) + other(3))
print(save("a", true))
FITZ
out=$(cd "$work" && "$fitz" lint allowed.fitz --deny unused_parameter 2>&1); rc=$?
[[ $rc == 1 && $out != *"\`verbose\`"* && $out != *"\`b\`"* && $out == *"unused parameter \`c\`"* ]]
check "@allow comments (rc $rc): $out" $?

# --fix applies the fix-its (an unused parameter gets a `_` prefix, an unchecked Result a
# `let _ = `), the program still checks, and only what has no fix-it is left.
cp "$work/loose.fitz" "$work/fixme.fitz"
out=$(cd "$work" && "$fitz" lint fixme.fitz --fix 2>&1); rc=$?
[[ $rc == 0 && $out == *"fixed 2 warnings"* ]]
check "--fix reports what it fixed (rc $rc): $out" $?
grep -q "_verbose: Bool" "$work/fixme.fitz"; check "--fix renamed the unused parameter: $(cat "$work/fixme.fitz")" $?
grep -q 'let _ = save("a", true)' "$work/fixme.fitz"; check "--fix discards the unchecked result explicitly: $(cat "$work/fixme.fitz")" $?
out=$(cd "$work" && "$fitz" lint fixme.fitz 2>&1); rc=$?
[[ $rc == 0 && $out != *"warning["* ]]; check "the fixed file lints clean (rc $rc): $out" $?
(cd "$work" && "$fitz" check fixme.fitz >/dev/null 2>&1); check "the fixed file checks" $?

# A project with .fitzv views lints as `fitz check` sees it: its views are found, and what the
# lints would say of the code generated for them stays out of the report.
out=$(cd "$here/../live/app" && "$fitz" lint 2>&1); rc=$?
[[ $rc == 0 && -z $out ]]; check "a live-views project lints clean (rc $rc): $out" $?
mkdir -p "$work/views"
cp "$here/../testdata/check/fail_live_embed/main.fitz" "$work/views/"
out=$(cd "$work/views" && "$fitz" lint main.fitz 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[E0304]"* ]]; check "view checks run under lint too (rc $rc): $out" $?

echo "e2e lint: $pass passed, $fail failed"
[[ $fail == 0 ]]
