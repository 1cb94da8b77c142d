#!/usr/bin/env bash
# `fitz dev`: serves the program, and on each change checks, rebuilds and swaps in the new
# build without refusing a connection; while the code has errors the previous build keeps
# serving; new folders are watched; a program that is not a service is run again on change;
# Ctrl+C (or SIGTERM) stops it all and frees the port.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
suite=dev
source "$here/service_lib.sh"

app=$work/app
mkdir -p "$app"
write_version() {  # VERSION: the service's source, answering VERSION on /version
  cat >"$app/main.fitz" <<FITZ
@get("/version")
fn version() -> Str {
    return "$1"
}
FITZ
}
write_version v1

# count_line TEXT: how many times `fitz dev` printed TEXT.
count_line() { grep -c -F "$1" "$work/dev.err"; }
# wait_count TEXT N: waits (up to 60 s, a rebuild included) until TEXT was printed N times.
wait_count() {
  for _ in $(seq 600); do
    [[ $(count_line "$1") -ge $2 ]] && return 0
    sleep 0.1
  done
  return 1
}

FITZ_HTTP_THREADS=2 "$fitz" dev "$app/main.fitz" --port 0 >"$work/dev.out" 2>"$work/dev.err" &
dev=$!
pids+=("$dev")
wait_count "fitz dev: serving on http://127.0.0.1:" 1
check "fitz dev builds and serves: $(tail -c 800 "$work/dev.err")" $?
port=$(grep -o 'serving on http://127.0.0.1:[0-9]*' "$work/dev.err" | head -1 | sed 's/.*://')
[[ $(curl -s "http://127.0.0.1:$port/version") == '"v1"' ]]; check "the first build answers v1" $?

python3 "$here/dev/load.py" "$port" "$work/stop-load" >"$work/load.json" &
load=$!
pids+=("$load")
sleep 0.5

# An edit saved by renaming a new file over the old one (sed -i, vim): the new build takes over.
sed -i 's/"v1"/"v2"/' "$app/main.fitz"
wait_count "fitz dev: serving the new build on" 1
check "an edit is rebuilt and served: $(tail -c 800 "$work/dev.err")" $?
[[ $(curl -s "http://127.0.0.1:$port/version") == '"v2"' ]]; check "the new build answers v2" $?

# A type error: diagnostics as `fitz check` prints them, and v2 keeps serving.
cat >"$app/main.fitz" <<'FITZ'
@get("/version")
fn version() -> Str {
    return 3
}
FITZ
wait_count "the program has errors; the previous build keeps running" 1
check "a type error is reported and the previous build kept: $(tail -c 800 "$work/dev.err")" $?
grep -q 'error\[E' "$work/dev.err"; check "the diagnostic is printed with its code" $?
grep -q 'main.fitz:3:' "$work/dev.err"; check "the diagnostic names the file and line" $?
[[ $(curl -s "http://127.0.0.1:$port/version") == '"v2"' ]]; check "v2 still serves while the code has errors" $?

# A module in a folder created after `fitz dev` started: the folder is watched too.
mkdir -p "$app/lib"
cat >"$app/lib/names.fitz" <<'FITZ'
fn current() -> Str {
    return "v3"
}
FITZ
cat >"$app/main.fitz" <<'FITZ'
import lib.names

@get("/version")
fn version() -> Str {
    return names.current()
}
FITZ
wait_count "fitz dev: serving the new build on" 2
check "the fixed program is served: $(tail -c 800 "$work/dev.err")" $?
[[ $(curl -s "http://127.0.0.1:$port/version") == '"v3"' ]]; check "the new build answers v3" $?
sed -i 's/"v3"/"v4"/' "$app/lib/names.fitz"
wait_count "fitz dev: serving the new build on" 3
check "a change in the new folder is rebuilt: $(tail -c 800 "$work/dev.err")" $?
[[ $(curl -s "http://127.0.0.1:$port/version") == '"v4"' ]]; check "the new build answers v4" $?

touch "$work/stop-load"
wait "$load"
summary=$(cat "$work/load.json")
python3 - "$summary" <<'PY'
import json, sys
s = json.loads(sys.argv[1])
ok = s["failure_count"] == 0 and s["requests"] > 50 and s["bodies"] == ['"v1"', '"v2"', '"v3"', '"v4"']
print(f"dev: {s['requests']} requests during three swaps, {s['failure_count']} failed, bodies {s['bodies']}")
if s["failures"]:
    print("  first failures:", s["failures"][:5])
sys.exit(0 if ok else 1)
PY
check "no request failed or was refused during the swaps" $?
grep -o '([0-9.]* s from the change)' "$work/dev.err" | sed 's/^/dev: edit to serving /'

# Only the newest build runs: the older ones stopped after each swap.
builds=$(pgrep -f "$FITZ_CACHE_DIR/dev/" | wc -l)
[[ $builds == 1 ]]; check "one build runs after the swaps (found $builds)" $?

# Ctrl+C: the program stops, fitz dev exits 0, the port is free.
kill -INT "$dev"
rc=
for _ in $(seq 200); do
  if ! kill -0 "$dev" 2>/dev/null; then wait "$dev"; rc=$?; break; fi
  sleep 0.1
done
[[ $rc == 0 ]]; check "fitz dev exits 0 on Ctrl+C (status '${rc:-still running}')" $?
[[ -z $(pgrep -f "$FITZ_CACHE_DIR/dev/") ]]; check "no build is left running" $?
! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; check "port $port is free" $?

# A program that is not a service runs again after each change.
script=$work/script
mkdir -p "$script"
printf 'print("hello 1")\n' >"$script/main.fitz"
"$fitz" dev "$script/main.fitz" >"$work/script.out" 2>"$work/dev.err" &
dev=$!
pids+=("$dev")
wait_count "the program exited with status 0; waiting for a change" 1
check "a script runs to its end: $(tail -c 800 "$work/dev.err")" $?
printf 'print("hello 2")\n' >"$script/main.fitz"
wait_count "the program exited with status 0; waiting for a change" 2
check "the script runs again after an edit: $(tail -c 800 "$work/dev.err")" $?
[[ $(cat "$work/script.out") == $'hello 1\nhello 2' ]]; check "its output: $(cat "$work/script.out")" $?
kill -TERM "$dev"
wait "$dev"; check "fitz dev exits 0 on SIGTERM" $?

# Usage errors.
"$fitz" dev --port nope >/dev/null 2>"$work/usage.err"
[[ $? == 2 ]] && grep -q "invalid port" "$work/usage.err"; check "a bad port is a usage error" $?
"$fitz" dev "$work/missing.fitz" >/dev/null 2>"$work/usage.err"
[[ $? == 2 ]]; check "a missing file is a usage error: $(cat "$work/usage.err")" $?

echo "dev: $pass passed, $fail failed"
[[ $fail == 0 ]]
