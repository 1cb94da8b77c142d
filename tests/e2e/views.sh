#!/usr/bin/env bash
# `fitz check` on live views (.fitzv) end to end: the spec's example views parse with no
# syntax error and `--dump=cst` prints their tree; malformed views (fail_*.fitzv) exit 1 with
# a located diagnostic, also in JSON; views the checker rejects (err_*.fitzv) exit 1 with a view
# diagnostic, the others check clean; an unreadable path or a dump views lack exit 2.
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
    err=$(cd "$views" && "$fitz" check "$name" 2>&1 >/dev/null); rc=$?
    if [[ $name == err_* ]]; then
      check "$name exits 1" $([[ $rc == 1 ]]; echo $?)
      check "$name reports a view error" $(grep -qE "$name:[0-9]+:[0-9]+: error\[E0[0-9]{3}\]" <<<"$err"; echo $?)
    else
      check "$name checks clean" $([[ $rc == 0 ]] && ! grep -q "error\[" <<<"$err"; echo $?)
    fi
  fi
done

"$fitz" check "$views/no_such_view.fitzv" >/dev/null 2>&1
check "missing view exits 2" $([[ $? == 2 ]]; echo $?)
"$fitz" check --dump=tir "$views/counter.fitzv" >/dev/null 2>&1
check "--dump=tir on a view exits 2" $([[ $? == 2 ]]; echo $?)
"$fitz" check --dump=view "$views/counter.fitzv" | grep '^  component Counter' >/dev/null
check "--dump=view prints the view IR" $?
# A project checks the views of its source folder, and a module imports a component by name.
proj=$(mktemp -d)
mkdir -p "$proj/src"
printf '[package]\nname = "liveapp"\nversion = "0.1.0"\nedition = "2026"\n\n[bin]\nmain = "src/main.fitz"\n' > "$proj/fitz.toml"
printf 'component Chat {\n  props { room: Str }\n  <template><p>{room}</p><p>{missing}</p></template>\n}\n' > "$proj/src/Chat.fitzv"
printf 'from Chat import Chat\n\nfn chat(room: Str) -> Chat {\n  return Chat { room: 5 }\n}\n' > "$proj/src/main.fitz"
err=$(cd "$proj" && "$fitz" check 2>&1); rc=$?
check "project check exits 1" $([[ $rc == 1 ]]; echo $?)
check "project check reports the view's unknown name" $(grep -qE 'Chat.fitzv:3:[0-9]+: error\[E0550\]' <<<"$err"; echo $?)
check "project check types the imported component's props" $(grep -qE 'main.fitz:4:[0-9]+: error\[' <<<"$err"; echo $?)
rm -rf "$proj"
# Garbage never crashes the parser: exit 1 (syntax errors), not a signal.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -c 20000 /dev/urandom > "$work/garbage.fitzv"
"$fitz" check "$work/garbage.fitzv" >/dev/null 2>&1
check "random bytes exit 1" $([[ $? == 1 ]]; echo $?)

# The acceptance app (tests/live/app) and examples/live-views: checked clean, and `fitz test` drives their views through
# the browserless harness (live_test); a program passing something else than a view's props to
# live_test stops at build time with a located error.
app=$here/../live/app
out=$(cd "$app" && FITZ_CACHE_DIR=$work/cache "$fitz" check 2>&1); rc=$?
check "acceptance app checks clean (rc $rc): $out" $([[ $rc == 0 && -z $out ]]; echo $?)
out=$(cd "$app" && FITZ_CACHE_DIR=$work/cache "$fitz" test 2>&1); rc=$?
check "acceptance app: fitz test (rc $rc): $out" $([[ $rc == 0 && $out == *"12 passed, 0 failed"* ]]; echo $?)
example=$here/../../examples/live-views
out=$(cd "$example" && FITZ_CACHE_DIR=$work/cache "$fitz" check 2>&1); rc=$?
check "examples/live-views checks clean (rc $rc): $out" $([[ $rc == 0 && -z $out ]]; echo $?)
out=$(cd "$example" && FITZ_CACHE_DIR=$work/cache "$fitz" test 2>&1); rc=$?
check "examples/live-views: fitz test (rc $rc): $out" $([[ $rc == 0 && $out == *"3 passed, 0 failed"* ]]; echo $?)
# Child components compile (the acceptance app's Board above), and so does a child with a timer,
# a message and a presence hook: `fitz build` compiles every program `fitz check` accepts (the
# browser suite runs children's timers, tests/unit/live/child_hooks_test.cpp their routing).
mkdir -p "$work/timer/src"
printf '[package]\nname = "timerchild"\nversion = "0.1.0"\nedition = "2026"\n\n[bin]\nmain = "src/main.fitz"\n' > "$work/timer/fitz.toml"
printf 'type Who {\n    key: Str\n    metas: List<Any>\n}\n' > "$work/timer/src/who.fitz"
printf 'from who import Who\n\ncomponent Tick {\n  props { room: Str }\n  state { n: Int = 0, last: Str = "", online: Int = 0 }\n  on every 1s { n += 1 }\n  on message "room:{room}" (m: Str) { last = m }\n  on presence "room:{room}" (who: List<Who>) { online = who.len() }\n  <template><p>{n} {last} {online}</p></template>\n}\n\ncomponent Page {\n  <template><div><Tick room="a" /></div></template>\n}\n' > "$work/timer/src/Clock.fitzv"
printf 'from Clock import Page\n\n@live("/")\nfn page() -> Page => Page {}\n' > "$work/timer/src/main.fitz"
out=$(cd "$work/timer" && FITZ_CACHE_DIR=$work/cache "$fitz" check 2>&1); rc=$?
check "a child with hooks checks clean (rc $rc): $out" $([[ $rc == 0 ]]; echo $?)
err=$(cd "$work/timer" && FITZ_CACHE_DIR=$work/cache "$fitz" build -o "$work/timer/app" 2>&1); rc=$?
check "a child with hooks builds (rc $rc): $err" $([[ $rc == 0 && -x $work/timer/app ]]; echo $?)
mkdir -p "$work/notview"
printf 'type P {\n  x: Int\n}\n\n@test\nfn t() {\n  let v = live_test(P { x: 1 })\n  v.click("#a")\n}\n' > "$work/notview/t.fitz"
err=$(FITZ_CACHE_DIR=$work/cache "$fitz" test "$work/notview/t.fitz" 2>&1); rc=$?
check "live_test of a non-view exits 1 (rc $rc): $err" $([[ $rc == 1 ]]; echo $?)
check "live_test of a non-view names the place" $(grep -q 't.fitz:7:[0-9]*: error\[E0304\]: `live_test` takes a live view' <<<"$err"; echo $?)
out=$(FITZ_CACHE_DIR=$work/cache "$fitz" check "$work/notview/t.fitz" 2>&1); rc=$?
check "fitz check reports it too (rc $rc)" $([[ $rc == 1 ]] && grep -q 'error\[E0304\]: `live_test` takes' <<<"$out"; echo $?)

echo "e2e views: $pass passed, $fail failed"
[[ $fail == 0 ]]
