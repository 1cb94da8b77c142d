#!/usr/bin/env bash
# End-to-end checks of `@command` programs: argument parsing (positionals, flags, short forms,
# `--no-x`, `--x=v`, variadic rest, `--`), generated help (exit 0), usage errors (exit 2, before
# any of the program runs), exit codes from Int and Result commands, `fitz run -- ARGS`.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export FITZ_CACHE_DIR=$work/cache
pass=0 fail=0
check() {  # name, condition-result
  if [[ $2 == 0 ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED e2e command: $1"; fi
}
cp "$here/command/"*.fitz "$work/"
"$fitz" build "$work/tool.fitz" -o "$work/tool" >"$work/build.log" 2>&1; check "build tool.fitz: $(head -c 2000 "$work/build.log")" $?
"$fitz" build "$work/single.fitz" -o "$work/single" >"$work/build.log" 2>&1; check "build single.fitz: $(head -c 2000 "$work/build.log")" $?
tool=$work/tool

expect() {  # name, expected exit code, expected stdout, args...
  local name=$1 code=$2 want=$3
  shift 3
  out=$("$tool" "$@" 2>"$work/err"); rc=$?
  [[ $rc == "$code" && $out == "$want" ]]
  check "$name: exit $rc (want $code), stdout [$out] (want [$want]), stderr [$(head -c 300 "$work/err")]" $?
}
expect_err() {  # name, expected exit code, text expected in stderr, args...
  local name=$1 code=$2 want=$3
  shift 3
  out=$("$tool" "$@" 2>"$work/err"); rc=$?
  [[ $rc == "$code" && -z $out ]] && grep -qF -- "$want" "$work/err"
  check "$name: exit $rc (want $code), stdout [$out], stderr [$(head -c 300 "$work/err")] should contain [$want]" $?
}

expect "positional + defaults" 0 "hello ada" greet ada
expect "long flag with value" 0 "hello ada hello ada" greet ada --times 2
expect "--flag=value" 0 "hello ada,hello ada" greet ada --times=2 --sep=,
expect "short flag from @arg" 0 "hello ada hello ada hello ada" greet -n 3 ada
expect "attached short value" 0 "hello ada hello ada" greet ada -n2
expect "auto short flag" 0 "HELLO ada" greet ada -l
expect "bool flag" 0 "HELLO ada" greet --loud ada
expect "bool flag =false" 0 "hello ada" greet --loud=false ada
expect "-- ends options" 0 "hello --loud" greet -- --loud
expect "variadic rest" 0 "60.0" sum 10 20 30
expect "variadic empty" 0 "0.0" sum
expect "negative numbers are values" 0 "-5.0" sum -- -5
expect "float flag" 0 "30.0" sum --scale 0.5 20 40
expect "Int result is the exit code" 3 "101.0" sum 100 1
expect "async Result command ok" 0 "ok 5 color=true" check 5
expect "--no-flag negates a true Bool" 0 "ok 5 color=false" check 5 --no-color
expect "nullable flag given" 0 "ok 5 color=true" check 5 --limit 10
out=$("$tool" check 50 --limit 10 2>"$work/err"); rc=$?
[[ $rc == 1 && -z $out ]] && grep -q "^error: value 50 exceeds the limit 10" "$work/err"
check "Err result exits 1 with the message on stderr: exit $rc [$(cat "$work/err")]" $?

# Help: generated, exit 0, on stdout.
out=$("$tool" --help); rc=$?
[[ $rc == 0 && $out == *"commands:"* && $out == *"greet"*"Greets someone"* && $out == *"sum"*"Adds numbers"* ]]
check "global help: $out" $?
out=$("$tool" greet --help); rc=$?
[[ $rc == 0 && $out == *"Greets someone"* && $out == *"usage: tool greet <name> [options]"* && $out == *"<name>"*"who to greet"* &&
   $out == *"-n, --times <INT>"*"how many times (default: 1)"* && $out == *"-l, --loud"* && $out == *"-h, --help"* ]]
check "command help: $out" $?
out=$("$tool" check --help)
[[ $out == *"--no-color"* && $out == *"--limit <INT>"* ]]; check "help shows --no-x for a true Bool: $out" $?

# Parameter decorators: the short form and help of `@flag(...)`, the help of `@arg(...)`.
expect "parameter @flag short form" 0 "cat.png 100 keep=false" resize -W 100 cat.png
expect "parameter @flag long form" 0 "cat.png 320 keep=true" resize cat.png --width=320 --keep
out=$("$tool" resize --help); rc=$?
[[ $rc == 0 && $out == *"Resizes an image"* && $out == *"<path>"*"the image to resize"* &&
   $out == *"-W, --width <INT>"*"width in pixels (default: 640)"* && $out == *"--keep"*"keep the aspect ratio"* ]]
check "help from parameter decorators: $out" $?
# Every help text starts in one column, help's own line included.
[[ $out == *$'\n  -W, --width <INT>     width in pixels'* && $out == *$'\n  -h, --help            print this help'* ]]
check "help texts aligned: $out" $?

# Usage errors: exit 2, nothing of the program runs, a message naming the problem.
expect_err "no command" 2 "commands:"
expect_err "unknown command" 2 "unknown command \`frobnicate\`" frobnicate
expect_err "missing positional" 2 "missing argument <name>" greet
expect_err "unknown option" 2 "unknown option \`--bogus\`" greet ada --bogus
expect_err "bad Int" 2 "invalid value 'many' for --times: expected INT" greet ada --times many
expect_err "bad Int positional" 2 "invalid value 'x' for <value>: expected INT" check x
expect_err "bad variadic value" 2 "invalid value 'ten' for <xs>: expected INT" sum 1 ten
expect_err "extra positional" 2 "unexpected argument 'bob'" greet ada bob
expect_err "flag without value" 2 "--times needs a value" greet ada --times

# One command: no command name.
out=$("$work/single" notes.txt --verbose); rc=$?
[[ $rc == 0 && $out == "path=notes.txt verbose=true" ]]; check "single command: exit $rc [$out]" $?
out=$("$work/single" --help); rc=$?
[[ $rc == 0 && $out == *"usage: single <path> [options]"* ]]; check "single command help: [$out]" $?

# fitz run passes the arguments through.
out=$("$fitz" run "$work/tool.fitz" -- greet run --times 2 2>&1); rc=$?
[[ $rc == 0 && $out == "hello run hello run" ]]; check "fitz run -- ARGS: exit $rc [$out]" $?

echo "command e2e: $pass passed, $fail failed"
[[ $fail == 0 ]]
