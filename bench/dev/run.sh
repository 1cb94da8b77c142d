#!/usr/bin/env bash
# Edit-to-serving time of `fitz dev` on examples/users-api: `fitz dev` runs on a copy of the
# example (against DATABASE_URL, or the local Postgres of scripts/pg-local.sh), the 404
# message of GET /users/{id} is edited N times, and each edit is timed from the file's write
# to the first response that shows it, as a client polling every 10 ms sees it. Also prints
# `fitz dev`'s own figure (save to ready). Usage: bench/dev/run.sh [FITZ] [EDITS]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
edits=${2:-5}
work=$(mktemp -d)
cleanup() {
  [[ -n ${dev:-} ]] && kill -INT "$dev" 2>/dev/null && wait "$dev" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
export FITZ_CACHE_DIR=$work/cache
export DATABASE_URL=${DATABASE_URL:-$(bash "$root/scripts/pg-local.sh" start)}
cp -r "$root/examples/users-api" "$work/app"
cd "$work/app"
FITZ_ACCESS_LOG=off "$fitz" dev --port 0 >"$work/dev.out" 2>"$work/dev.err" &
dev=$!
for _ in $(seq 1200); do grep -q "fitz dev: serving on" "$work/dev.err" && break; sleep 0.1; done
port=$(grep -o 'serving on http://127.0.0.1:[0-9]*' "$work/dev.err" | sed 's/.*://')
[[ -n $port ]] || { cat "$work/dev.err"; exit 1; }
first=$(grep -o '([0-9.]* s to build and start)' "$work/dev.err")
echo "fitz dev on examples/users-api: first build and start $first"
python3 - "$port" "$edits" "$work/app/src/main.fitz" "$work/dev.err" <<'PY'
import http.client, re, statistics, sys, time
port, edits, src, log = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
def body():
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request("GET", "/users/999999")
    b = c.getresponse().read().decode()
    c.close()
    return b
seen = []
text = open(src).read()
assert "no user {id}" in text
for i in range(edits):
    marker = f"no user {{id}} (edit {i})"
    with open(src, "w") as f:
        f.write(text.replace("no user {id}", marker))
    t0 = time.monotonic()
    while f"(edit {i})" not in body():
        time.sleep(0.01)
    seen.append(time.monotonic() - t0)
    time.sleep(0.3)
own = [float(x) for x in re.findall(r"\(([0-9.]+) s from the change\)", open(log).read())]
print(f"edit to serving, seen by a client: median {statistics.median(seen):.2f} s, min {min(seen):.2f} s, max {max(seen):.2f} s over {edits} edits")
print(f"fitz dev's own figure (save to ready): median {statistics.median(own):.2f} s")
PY
