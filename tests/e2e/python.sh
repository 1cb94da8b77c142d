#!/usr/bin/env bash
# End-to-end Python interop: builds tests/e2e/python (a project whose `python/` folder holds the
# modules it imports) with the real `fitz build` and checks, over loopback: handlers returning
# converted values (keyword arguments included), a Python exception as a 500 carrying
# "Class: message" while the server keeps serving, a failed conversion naming the field path,
# a Python call that never returns not stopping other requests (one HTTP thread: the handler
# runs on the Python worker pool; an async handler's Python calls are awaited on the pool), and a failing import exiting 1 at start with the Fitz line.
# With FITZ_TEST_DATABASE_URL: users created and read through SQLAlchemy (1.4, future=True), and
# two psycopg2 queries on two threads running at the same time.
#   usage: python.sh FITZ
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
suite=python
source "$here/service_lib.sh"
project=$here/python

# The program whose import fails builds meanwhile (checked at the end).
"$fitz" build "$project/badimport/main.fitz" -o "$work/badimport" >"$work/bad.log" 2>&1 &
bad_build=$!
"$fitz" build "$project/src/main.fitz" -o "$work/service" >"$work/build.log" 2>&1
check "service builds: $(head -c 2000 "$work/build.log")" $?
[[ -x $work/service ]] || { echo "e2e python: $pass passed, $fail failed"; exit 1; }
# Only programs that import Python link the interpreter. (grep without -q: under pipefail, a
# grep that quits at the first match can kill the command before it with SIGPIPE, a failure.)
ldd "$work/service" | grep libpython3 >/dev/null; check "the service links libpython" $?

db_env=()
[[ -n ${FITZ_TEST_DATABASE_URL:-} ]] && db_env=(DATABASE_URL="$FITZ_TEST_DATABASE_URL")
start service "$work/service" FITZ_HTTP_THREADS=1 FITZ_PY_THREADS=5 FITZ_PROJECT_DIR="$project" "${db_env[@]}"

req GET /greet/ada
expect "a converted Str, keyword argument" 200 '"hello ada!"'
req GET /stats
expect "a List<Stat> from a list of dicts (defaults fill)" 200 \
  '[{"name":"a","count":3,"note":"none"},{"name":"b","count":5,"note":"none"}]'
req GET /total
expect "Fitz List and keyword argument into Python" 200 '60'
req GET /extra
expect "a module found through [python] path in fitz.toml" 200 '42'
req GET /raw
expect "an undeclared Py return is sent as JSON" 200 '[{"name":"a","count":3},{"name":"b","count":5}]'
req GET /boom
expect "a Python exception is a 500 with Class: message" 500 '{"error":"ValueError: bad input"}'
req GET /bad
expect "a failed conversion names the field path" 500 \
  '{"error":"cannot convert the Python value: field '"'"'[1].count'"'"': expected Int, found str"}'
bad_line=$(grep -n 'helpers.bad_stats()' "$project/src/main.fitz" | cut -d: -f1)
grep -q "\"at\":\"[^\"]*main.fitz:$bad_line:" "$work/service.err"; check "the conversion error names its Fitz line ($bad_line)" $?
req GET /greet/again
expect "the server keeps serving after the errors" 200 '"hello again!"'

# A call that never returns holds one worker; the event loop and the other workers go on.
curl -s -m 20 "http://127.0.0.1:$port/sleep" >/dev/null &
sleeper=$!
sleep 0.3
for i in 1 2 3; do
  req GET "/greet/p$i" -m 5
  expect "served while another request sleeps in Python ($i)" 200 "\"hello p$i!\""
done
kill "$sleeper" 2>/dev/null
# The same from an async handler: its Python call is awaited on the pool, the loop goes on.
req GET /async/bo
expect "an async handler's Python call" 200 '"hello bo?"'
curl -s -m 20 "http://127.0.0.1:$port/async-sleep" >/dev/null &
sleeper=$!
sleep 0.3
req GET /async/again -m 5
expect "served while an async handler sleeps in Python" 200 '"hello again?"'
req GET /greet/sync -m 5
expect "a sync handler too" 200 '"hello sync!"'
kill "$sleeper" 2>/dev/null

if [[ -n ${FITZ_TEST_DATABASE_URL:-} ]]; then
  wait_line service "store ready: true"
  req POST /users -H 'content-type: application/json' -d '{"name":"Ada","email":"ada@example.com"}'
  expect "SQLAlchemy insert returns the row as a User" 200 '{"id":1,"name":"Ada","email":"ada@example.com"}'
  req POST /users -H 'content-type: application/json' -d '{"name":"Bob","email":"bob@example.com"}'
  expect "second insert" 200 '{"id":2,"name":"Bob","email":"bob@example.com"}'
  req GET /users/2
  expect "SQLAlchemy read by id" 200 '{"id":2,"name":"Bob","email":"bob@example.com"}'
  req GET /users/9
  expect "a missing row (None) is null: 404" 404 '{"error":"no user 9"}'
  # Two requests whose psycopg2 queries sleep in the server: on two worker threads they overlap
  # (psycopg2 releases the GIL while it waits), so each starts before the other ends. Two of the
  # five workers are still held by the calls above that never return.
  curl -s -m 20 -o "$work/sleep1.json" "http://127.0.0.1:$port/pg-sleep" &
  s1=$!
  curl -s -m 20 -o "$work/sleep2.json" "http://127.0.0.1:$port/pg-sleep" &
  s2=$!
  wait "$s1" "$s2"
  overlap=$(/usr/bin/python3 -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); print("yes" if a["start"] < b["end"] and b["start"] < a["end"] else "no", a, b)' \
    "$work/sleep1.json" "$work/sleep2.json" 2>&1)
  [[ $overlap == yes* ]]; check "two psycopg2 queries on two threads ran at the same time: $overlap" $?
  req GET /users
  expect "SQLAlchemy list" 200 '[{"id":1,"name":"Ada","email":"ada@example.com"},{"id":2,"name":"Bob","email":"bob@example.com"}]'
else
  echo "e2e python: FITZ_TEST_DATABASE_URL not set; SQLAlchemy checks skipped"
fi

# A failing import stops the program at start with exit 1, the Python error and the Fitz line.
wait "$bad_build"
check "badimport builds: $(head -c 1000 "$work/bad.log")" $?
"$work/badimport" >"$work/bad.out" 2>"$work/bad.err"
rc=$?
[[ $rc == 1 ]]; check "a failing import exits 1 (got $rc)" $?
grep -q "ModuleNotFoundError" "$work/bad.err"; check "the error names the Python exception: $(cat "$work/bad.err")" $?
grep -q "main.fitz:2:" "$work/bad.err"; check "the error names the import's line: $(cat "$work/bad.err")" $?
[[ ! -s $work/bad.out ]]; check "nothing ran after the failed import" $?

# examples/python-pandas: pandas statistics served through interop; numpy integers and floats
# convert to the declared Int and Float fields, exceptions become 400/404 answers.
ex=$root/examples/python-pandas
out=$("$fitz" build "$ex" -o "$work/pandas" 2>&1); rc=$?
[[ $rc == 0 ]]; check "fitz build examples/python-pandas (rc $rc): $out" $?
start pandas "$work/pandas" FITZ_PROJECT_DIR="$ex" SALES_CSV="$ex/data/sales.csv"
wait_line pandas "96 sales rows loaded"
req GET /stats/summary
expect "pandas summary into a typed record" 200 '{"rows":96,"units":1003,"revenue":37773.75,"first_day":"2026-01-03","last_day":"2026-06-27"}'
req GET /stats/regions
expect "numpy integers convert to Int fields" 200 \
  '[{"region":"east","units":260,"orders":24,"revenue":9989.25},{"region":"north","units":279,"orders":24,"revenue":10032.5},{"region":"south","units":240,"orders":24,"revenue":8762.5},{"region":"west","units":224,"orders":24,"revenue":8989.5}]'
req GET '/stats/top?n=2'
expect "top products" 200 '[{"product":"blender","revenue":12407.25},{"product":"grinder","revenue":11760.0}]'
req GET '/stats/top?n=0'
expect "a ValueError is a 400 with its message" 400 '{"error":"ValueError: n must be at least 1, not 0"}'
req GET /stats/regions/mars/monthly
expect "a KeyError is a 404" 404 "{\"error\":\"KeyError: \\\"no sales in region 'mars'\\\"\"}"
stop pandas

echo "e2e python: $pass passed, $fail failed"
[[ $fail == 0 ]]
