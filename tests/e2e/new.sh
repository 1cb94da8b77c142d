#!/usr/bin/env bash
# End-to-end checks of `fitz new`: every template creates a project that `fitz check` and
# `fitz fmt --check` accept; the default one also runs (`fitz run`) and passes its tests
# (`fitz test`), the cli and api-python ones pass theirs, and api-python serves through
# SQLAlchemy when FITZ_TEST_DATABASE_URL is set. Bad names and existing directories exit 2.
# Then `fitz fmt` on a created project: --check lists files and changes nothing, a plain run
# rewrites them, files with syntax errors are reported and left alone, `-` filters stdin.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
suite=new
source "$here/service_lib.sh"
cd "$work" || exit 1

for template in default api api-postgres api-python cli liveviews; do
  name=app_${template//-/_}
  if [[ $template == default ]]; then args=(); else args=(--template "$template"); fi
  out=$("$fitz" new "$name" "${args[@]}" 2>&1); rc=$?
  [[ $rc == 0 && $out == *"created"* ]]; check "fitz new $template (rc $rc): $out" $?
  for f in fitz.toml src/main.fitz src/lib.fitz .gitignore README.md; do
    [[ -s $name/$f ]]; check "$template: $f exists" $?
  done
  ls "$name"/tests/*.fitz >/dev/null 2>&1; check "$template: a test file exists" $?
  grep -q "name = \"$name\"" "$name/fitz.toml"; check "$template: fitz.toml names the package" $?
  grep -q "^from $name import" "$name"/tests/*.fitz; check "$template: the test imports the package" $?
  for cmd in "fitz run" "fitz test" "fitz check" "fitz fmt"; do
    grep -q "$cmd" "$name/README.md"; check "$template: README mentions $cmd" $?
  done
  out=$(cd "$name" && "$fitz" check 2>&1); rc=$?
  [[ $rc == 0 ]]; check "$template: fitz check (rc $rc): $out" $?
  out=$(cd "$name" && "$fitz" fmt --check 2>&1); rc=$?
  [[ $rc == 0 ]]; check "$template: fitz fmt --check (rc $rc): $out" $?
done

# The projects' programs, compiled and run. FITZ_E2E_NEW_PROGRAMS=0 leaves them out: the
# sanitized lane (scripts/sanitize-tests.sh) runs the rest of this suite against its `fitz`, and
# compiling these services against the instrumented runtime would add minutes without reaching
# runtime code its other suites do not.
if [[ ${FITZ_E2E_NEW_PROGRAMS:-1} != 0 ]]; then
  # The default program runs and its tests pass.
  out=$(cd app_default && "$fitz" run 2>&1); rc=$?
  [[ $rc == 0 && $out == *"Hello, world!"* ]]; check "default: fitz run (rc $rc): $out" $?
  out=$(cd app_default && "$fitz" test 2>&1); rc=$?
  [[ $rc == 0 && $out == *"2 passed, 0 failed"* ]]; check "default: fitz test (rc $rc): $out" $?
  # The command-line tool's logic is tested the same way.
  out=$(cd app_cli && "$fitz" test 2>&1); rc=$?
  [[ $rc == 0 && $out == *"2 passed, 0 failed"* ]]; check "cli: fitz test (rc $rc): $out" $?
  # ... and it runs as its README says, arguments included.
  out=$(cd app_cli && "$fitz" run -- hello --times 3 --sep ", " 2>&1); rc=$?
  [[ $rc == 0 && $out == "hello, hello, hello" ]]; check "cli: fitz run -- hello --times 3 --sep ', ' (rc $rc): $out" $?
  out=$(cd app_cli && "$fitz" run -- --help 2>&1); rc=$?
  [[ $rc == 0 && $out == *"--times <INT>"* ]]; check "cli: fitz run -- --help (rc $rc): $out" $?

  # The api-python project: its tests call into python/notes_store.py, and with a database it
  # serves notes stored by SQLAlchemy (`fitz run`, PORT overriding the template's 3000).
  out=$(cd app_api_python && "$fitz" test 2>&1); rc=$?
  [[ $rc == 0 && $out == *"3 passed, 0 failed"* ]]; check "api-python: fitz test (rc $rc): $out" $?
  if [[ -n ${FITZ_TEST_DATABASE_URL:-} ]]; then
    (cd app_api_python && exec env DATABASE_URL="$FITZ_TEST_DATABASE_URL" PORT=0 "$fitz" run >"$work/py.out" 2>"$work/py.err") &
    py_pid=$!
    py_port=$(listening_port "$py_pid" "$work/py.err" 120)  # the first run compiles
    [[ -n $py_port ]]; check "api-python: fitz run serves: $(head -c 800 "$work/py.err") $(head -c 300 "$work/py.out")" $?
    created=$(curl -s -w ' %{http_code}' -H 'Content-Type: application/json' -d '{"text": "buy milk"}' "http://127.0.0.1:$py_port/notes")
    [[ $created == '{"id":'*',"text":"buy milk"} 201' ]]; check "api-python: POST /notes stores through SQLAlchemy: $created" $?
    id=$(sed 's/.*"id":\([0-9]*\).*/\1/' <<<"$created")
    got=$(curl -s -w ' %{http_code}' "http://127.0.0.1:$py_port/notes/$id")
    [[ $got == "{\"id\":$id,\"text\":\"buy milk\"} 200" ]]; check "api-python: GET /notes/$id reads it back: $got" $?
    blank=$(curl -s -w ' %{http_code}' -H 'Content-Type: application/json' -d '{"text": "  "}' "http://127.0.0.1:$py_port/notes")
    [[ $blank == *' 400' ]]; check "api-python: a blank note is a 400: $blank" $?
    kill -TERM "$py_pid" 2>/dev/null
    wait "$py_pid"
    grep -q "notes table ready" "$work/py.out"; check "api-python: the table was prepared at start: $(head -c 300 "$work/py.out")" $?
  fi

  # The liveviews project: `fitz run` serves the counter page rendered on the server (the view's
  # SSR, its scoped style and the client script), and the client script itself.
  out=$(cd app_liveviews && "$fitz" test 2>&1); rc=$?
  [[ $rc == 0 && $out == *"1 passed, 0 failed"* ]]; check "liveviews: fitz test (rc $rc): $out" $?
  [[ -s app_liveviews/src/Counter.fitzv ]]; check "liveviews: src/Counter.fitzv exists" $?
  (cd app_liveviews && exec env PORT=0 FITZ_SECRET_KEY=e2e "$fitz" run >"$work/lv.out" 2>"$work/lv.err") &
  lv_pid=$!
  lv_port=$(listening_port "$lv_pid" "$work/lv.err" 120)
  [[ -n $lv_port ]]; check "liveviews: fitz run serves: $(head -c 800 "$work/lv.err")" $?
  page=$(curl -s "http://127.0.0.1:$lv_port/")
  [[ $page == *'<h1 data-s-'*'>0 clicks</h1>'* && $page == *'data-fz-view="Counter"'* && $page == *'/_fitz/live.js?v='* ]]
  check "liveviews: GET / renders the counter: $(head -c 600 <<<"$page")" $?
  js=$(curl -s -o /dev/null -w '%{http_code} %{content_type}' "http://127.0.0.1:$lv_port/_fitz/live.js")
  [[ $js == "200 "*javascript* ]]; check "liveviews: /_fitz/live.js is served: $js" $?
  kill -TERM "$lv_pid" 2>/dev/null
  wait "$lv_pid"
fi

# Refusals: an existing directory, invalid names, an unknown template, no name.
"$fitz" new app_default >/dev/null 2>"$work/err"; rc=$?
[[ $rc == 2 ]] && grep -q "already exists" "$work/err"; check "existing directory exits 2 (rc $rc)" $?
for bad in 1app App my.app "a b" "$(printf 'a%.0s' {1..65})"; do
  "$fitz" new "$bad" >/dev/null 2>"$work/err"; rc=$?
  [[ $rc == 2 && ! -e $bad ]] && grep -q "not a valid package name" "$work/err"
  check "bad name '$bad' exits 2 (rc $rc)" $?
done
"$fitz" new fine --template nope >/dev/null 2>&1; rc=$?
[[ $rc == 2 && ! -e fine ]]; check "unknown template exits 2 (rc $rc)" $?
"$fitz" new >/dev/null 2>&1; rc=$?
[[ $rc == 2 ]]; check "missing NAME exits 2 (rc $rc)" $?

# fitz fmt on the default project.
cd app_default || exit 1
printf 'fn  twice(x:Int)->Int=>x*2\nlet  y=twice( 3 )\n' >src/extra.fitz
cp src/extra.fitz "$work/extra.orig"
out=$("$fitz" fmt --check 2>/dev/null); rc=$?
[[ $rc == 1 && $out == "src/extra.fitz" ]] && cmp -s src/extra.fitz "$work/extra.orig"
check "fmt --check lists the file, exits 1 and changes nothing (rc $rc): $out" $?
"$fitz" fmt >/dev/null 2>&1; rc=$?
[[ $rc == 0 && $(cat src/extra.fitz) == $'fn twice(x: Int) -> Int => x * 2\n\nlet y = twice(3)' ]]
check "fmt rewrites the file (rc $rc): $(cat src/extra.fitz)" $?
"$fitz" fmt --check >/dev/null 2>&1; rc=$?
[[ $rc == 0 ]]; check "fmt --check after fmt exits 0 (rc $rc)" $?
printf 'let a = 1; let b = 2\n' >src/broken.fitz
"$fitz" fmt src/broken.fitz >/dev/null 2>"$work/err"; rc=$?
[[ $rc == 1 && $(cat src/broken.fitz) == "let a = 1; let b = 2" ]] && grep -q "E0008" "$work/err"
check "fmt refuses a file with syntax errors and leaves it (rc $rc)" $?
rm src/broken.fitz
out=$(printf 'print( 1 )' | "$fitz" fmt -); rc=$?
[[ $rc == 0 && $out == "print(1)" ]]; check "fmt - formats stdin (rc $rc): $out" $?
cd "$work" || exit 1

echo "e2e new: $pass passed, $fail failed"
((fail == 0))
