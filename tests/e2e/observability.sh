#!/usr/bin/env bash
# End-to-end observability and flags: builds tests/e2e/observability (a project with [flags])
# and its quiet/ service, runs them on loopback and checks, over real HTTP: JSON log lines
# (parsed) with the request's trace and request ids, X-Request-Id echo and generation, the
# access log, @trace spans, /metrics after some requests (routes, statuses, histograms,
# @metric series), @flag routes and flag()/flags.* toggled by FITZ_FLAG_<NAME>, multipart
# uploads (and malformed ones: 400, the server keeps serving), an async around middleware,
# observability=false, and a plain program's logs filtered by FITZ_LOG.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
suite=observability
source "$here/service_lib.sh"
# logq NAME PYTHON-EXPR: true when some JSON line of NAME's stderr satisfies the expression
# over `r` (the parsed record); every line that looks like JSON must parse.
logq() {
  python3 - "$work/$1.err" "$2" <<'EOF'
import json, sys
ok = False
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.strip()
    if not line.startswith("{"):
        continue
    r = json.loads(line)  # a malformed line fails the check
    if eval(sys.argv[2], {"r": r}):
        ok = True
sys.exit(0 if ok else 1)
EOF
}

out=$("$fitz" build "$here/observability" -o "$work/obs" 2>&1); rc=$?
[[ $rc == 0 ]]; check "fitz build tests/e2e/observability (rc $rc): $out" $?

# ---- logs, request ids, traces, spans, metrics -------------------------------------------
start obs "$work/obs" FITZ_LOG=debug
req GET /items/3 -H 'X-Request-Id: e2e-req-1'; expect "async handler with logs" 200 '[3,6]'
grep -qx 'x-request-id: e2e-req-1' <<<"$headers"; check "X-Request-Id echoed: $headers" $?
req GET /flags
gen_id=$(sed -n 's/^x-request-id: //p' <<<"$headers")
[[ $gen_id =~ ^[0-9a-f]{16}$ ]]; check "X-Request-Id generated when absent: '$gen_id'" $?
req GET /items/4 -H 'traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'
expect "request with a traceparent" 200 '[4,8]'
req GET /metrics; expect "/metrics answers" 200 '*'
metrics=$body
head -c 1200000 /dev/zero | tr '\0' x > "$work/big.txt"
req POST /upload -H 'content-type: text/plain' --data-binary @"$work/big.txt"
expect "a body over the limit" 413 '*'
req POST /upload -H 'content-type: application/json' -d '{"title":"t"}'
expect "a handler's runtime error" 500 '*'
stop obs
logq obs 'r["msg"] == "http.access" and r["http.status_code"] == 413 and r["http.method"] == "POST" and r["http.target"] == "/upload"'
check "a refused request's access line has the method and target it sent" $?
logq obs 'r["level"] == "error" and "key not found" in r["error"] and "main.fitz:" in r["at"]'
check "a 500 logs its cause and source position at error level" $?
logq obs 'r["msg"] == "items requested" and r["level"] == "info" and r["request_id"] == "e2e-req-1" and r["n"] == 3 and r["who"] == "e2e" and r["tags"] == ["a", "b"] and len(r["trace_id"]) == 32 and len(r["span_id"]) == 16'
check "log.info line: JSON with fields, request id, trace and span ids" $?
logq obs 'r["msg"] == "loading" and r["level"] == "debug" and r["request_id"] == "e2e-req-1"'
check "log.debug shown with FITZ_LOG=debug, inside a @trace function" $?
python3 - "$work/obs.err" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
req = [r for r in recs if r.get("request_id") == "e2e-req-1"]
by = {r["msg"]: r for r in req}
span, items, after, access = by["span"], by["items requested"], by["after load"], by["http.access"]
assert span["span.name"] == "load" and span["parent_span_id"] == items["span_id"], span
assert by["loaded"]["span_id"] == span["span_id"] != items["span_id"]
assert after["span_id"] == items["span_id"], (after, items)  # the caller keeps its own span
assert len({r["trace_id"] for r in req}) == 1
assert access["http.method"] == "GET" and access["http.target"] == "/items/{n}" and access["http.status_code"] == 200
assert isinstance(access["duration_ms"], float)
EOF
check "spans: @trace child of the request span, caller keeps its span, one trace id per request" $?
logq obs 'r["msg"] == "http.access" and r["trace_id"] == "0af7651916cd43dd8448eb211c80319c"'
check "a valid traceparent's trace id is kept" $?
logq obs 'r["msg"] == "http.access" and r["request_id"] == "'"$gen_id"'" and r["http.target"] == "/flags"'
check "access log carries the generated request id" $?
grep -q '^http_requests_total{method="GET",path="/items/{n}",status="200"} 2$' <<<"$metrics"
check "/metrics counts requests by route and status: $metrics" $?
grep -q '^http_request_duration_seconds_count{method="GET",path="/items/{n}"} 2$' <<<"$metrics" &&
  grep -q '^http_request_duration_seconds_bucket{method="GET",path="/items/{n}",le="+Inf"} 2$' <<<"$metrics"
check "/metrics latency histogram" $?
grep -q '^load_items_calls_total 2$' <<<"$metrics" && grep -q '^load_items_duration_seconds_count 2$' <<<"$metrics" &&
  grep -q '^# TYPE load_items_duration_seconds histogram$' <<<"$metrics"
check "@metric counter and histogram in /metrics" $?

# ---- flags, multipart, async around middleware ---------------------------------------------
start obs2 "$work/obs" FITZ_LOG=warn
req GET /beta; expect "@flag route off by [flags] default" 404 "{\"error\":\"feature 'beta' disabled\"}"
req GET /flags; expect "flag() and flags.* from fitz.toml" 200 '{"beta":false,"new_ui":true,"all":{"beta":false,"new_ui":true}}'
printf 'hello file\n' >"$work/doc.txt"
req POST /upload -F title=Report -F "doc=@$work/doc.txt;type=text/plain"
expect "multipart upload: text part and file part" 200 '{"title":"Report","file":"doc.txt","type":"text/plain","size":11}'
req POST /form -F a=1 -F 'b=two words'; expect "multipart text parts into Map<Str, Str>" 200 '{"a":"1","b":"two words"}'
req POST /form -F "doc=@$work/doc.txt"; expect "a file part where only text is accepted" 400 "{\"error\":\"multipart part 'doc' is a file; a Map<Str, Any> body receives files\"}"
req POST /upload -H 'Content-Type: multipart/form-data' --data-binary 'x'
expect "multipart without a boundary" 400 '{"error":"multipart/form-data body without a valid boundary"}'
req POST /upload -H 'Content-Type: multipart/form-data; boundary=zz' --data-binary $'--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\nhello'
expect "multipart without a closing boundary" 400 '{"error":"malformed multipart body: the closing boundary is missing"}'
req POST /upload -H 'Content-Type: multipart/form-data; boundary=zz' --data-binary $'--zz\r\nContent-Disposition: form-data\r\n\r\nx\r\n--zz--'
expect "multipart part without a name" 400 '{"error":"malformed multipart body: a part has no name"}'
req POST /upload -H 'Content-Type: multipart/form-data; boundary=zz' --data-binary $'--zz\r\nContent-Disposition: form-data; name="a"\r\n'
expect "multipart headers that never end" 400 "{\"error\":\"malformed multipart body: a part's headers do not end\"}"
req POST /upload -H 'Content-Type: multipart/form-data; boundary=zz' --data-binary $'--zz\r\nContent-Disposition: form-data; name="t"\r\n\r\n\xff\xfe\r\n--zz--'
expect "multipart text part that is not UTF-8" 400 "{\"error\":\"malformed multipart body: part 't' is not valid UTF-8 text\"}"
head -c 3000 /dev/urandom >"$work/junk.bin"
req POST /upload -H 'Content-Type: multipart/form-data; boundary=zz' --data-binary "@$work/junk.bin"
expect "random bytes as multipart" 400 '*'
req GET /flags; expect "still serving after malformed multipart bodies" 200 '*'
req GET /slow; expect "async around middleware over an async handler" 200 '{"ok":1}'
grep -qx 'x-wrapped: async' <<<"$headers"; check "async around middleware changed the response: $headers" $?
req GET /fast; expect "async around middleware over a sync handler" 200 '{"ok":2}'
grep -qx 'x-wrapped: async' <<<"$headers"; check "async around middleware over a sync handler: $headers" $?
stop obs2
! logq obs2 'r["msg"] == "http.access" or r["level"] == "info"'
check "FITZ_LOG=warn hides info lines and the access log" $?

start obs3 "$work/obs" FITZ_FLAG_BETA=on FITZ_FLAG_NEW_UI=0 FITZ_FLAG_EXTRA=yes
req GET /beta; expect "@flag route on with FITZ_FLAG_BETA=on" 200 '{"beta":"on"}'
req GET /flags; expect "FITZ_FLAG_<NAME> overrides and adds flags" 200 '{"beta":true,"new_ui":false,"all":{"beta":true,"new_ui":false,"extra":true}}'
stop obs3

# ---- observability=false -----------------------------------------------------------------
out=$("$fitz" build "$here/observability/quiet/main.fitz" -o "$work/quiet" 2>&1); rc=$?
[[ $rc == 0 ]]; check "fitz build quiet service (rc $rc): $out" $?
start quiet "$work/quiet"
req GET /hello -H 'X-Request-Id: nope'; expect "quiet service answers" 200 '{"hello":"world"}'
! grep -q '^x-request-id' <<<"$headers"; check "no X-Request-Id with observability=false: $headers" $?
stop quiet
! grep -q 'http.access' "$work/quiet.err"; check "no access log with observability=false" $?
logq quiet 'r["msg"] == "hello called" and "trace_id" not in r and "request_id" not in r'
check "handler logs without trace ids when observability is off" $?

# ---- a plain program ---------------------------------------------------------------------
FITZ_LOG=warn "$fitz" run "$here/observability/logs.fitz" >"$work/logs.out" 2>"$work/logs.err"; rc=$?
[[ $rc == 0 ]]; check "logs.fitz runs (rc $rc): $(cat "$work/logs.err")" $?
[[ $(cat "$work/logs.out") == "beta=false new_ui=true" ]]; check "flags of fitz.toml in a plain program: $(cat "$work/logs.out")" $?
logq logs 'r["level"] == "warn" and r["msg"] == "quoted \"text\"\nnext line" and r["items"] == [1, 2] and r["meta"] == {"k": "v"}'
check "log.warn escapes the message and encodes lists and maps" $?
logq logs 'r["level"] == "error" and r["code"] == 42 and "trace_id" not in r'; check "log.error outside a request" $?
! logq logs 'r["level"] in ("info", "debug")'; check "FITZ_LOG=warn filters info and debug" $?
FITZ_LOG_FORMAT=pretty "$fitz" run "$here/observability/logs.fitz" >/dev/null 2>"$work/pretty.err"
grep -q 'INFO  started version="1.0" ratio=0.5 ok=true none=null$' "$work/pretty.err"
check "FITZ_LOG_FORMAT=pretty: $(cat "$work/pretty.err")" $?

echo "e2e observability: $pass passed, $fail failed"
[[ $fail == 0 ]]
