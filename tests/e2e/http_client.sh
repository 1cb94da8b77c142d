#!/usr/bin/env bash
# End-to-end outbound HTTP: builds tests/e2e/http_client/service.fitz with `fitz build`, starts
# local test servers (http_client/servers.py: plain HTTP, a listener that never answers, HTTPS
# with a CA made now by http_client/certs.sh) and checks through the service's routes what the
# client does: bodies and statuses (4xx/5xx are Ok), JSON posts, typed json() decoding with
# field paths, redirects (301/302/303/307/308, a loop, Authorization and Cookie dropped on a
# cross-host hop, not following), chunked bodies, the deadline, and TLS verification (trusted,
# wrong host name, expired, self-signed). Any mismatch fails the test.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
suite=http_client
source "$here/service_lib.sh"
py=/usr/bin/python3

mkdir -p "$work/certs"
bash "$here/http_client/certs.sh" "$work/certs"; check "test certificates are made" $?
"$py" "$here/http_client/servers.py" "$work/ports" "$work/certs" 2>"$work/servers.err" &
pids+=($!)
disown
for _ in $(seq 100); do [[ -f $work/ports ]] && break; sleep 0.1; done
[[ -f $work/ports ]]; check "test servers start: $(cat "$work/servers.err")" $?
source "$work/ports"
H=http://localhost:$HTTP
H2=http://127.0.0.1:$HTTP  # the same server under another host name

out=$("$fitz" build "$here/http_client/service.fitz" -o "$work/svc" 2>&1); rc=$?
[[ $rc == 0 && -x $work/svc ]]; check "fitz build http_client/service.fitz (rc $rc): $out" $?
start svc "$work/svc" SSL_CERT_FILE="$work/certs/ca.crt" SSL_CERT_DIR=/nonexistent HTTP_PROXY= HTTPS_PROXY= http_proxy= https_proxy=

call() {  # ROUTE URL [extra query]: GET /ROUTE?url=URL through the service; $body unquoted
  req GET "/$1" -G --data-urlencode "url=$2" "${@:3}"
  [[ $status == 200 ]] && body=$("$py" -c 'import json,sys; v=json.load(sys.stdin); print(v if isinstance(v,str) else json.dumps(v), end="")' <"$work/body")
}

# ---- bodies, statuses, headers ------------------------------------------------------------
call get "$H/json"; expect "GET a JSON body" 200 '200 {"symbol":"ABC","price":12.5}'
call get "$H/status/404"; expect "a 404 is Ok" 200 '404 status 404'
call get "$H/status/503"; expect "a 503 is Ok" 200 '503 status 503'
call head "$H/json"; expect "HEAD has an empty body" 200 '200 [] ok=true'
call headers "$H/status/201"; expect "header() case-insensitive (last value wins), null when absent, headers map, body_bytes" 200 'true b null 10 10'
call get "$H/chunked"; expect "a chunked body is read whole" 200 '200 alpha-beta-gamma'
call get "$H/echo"; [[ $body == *'"user_agent":"fitz/'* ]]; check "User-Agent is fitz/<version>: $body" $?

# ---- sending ------------------------------------------------------------------------------
call poststatus "$H/status/201"; expect "post a map, answer with the status (the issue's case)" 200 '201'
call post "$H/echo"
expect "a map body goes as JSON with its Content-Type" 200 '{"method":"POST","authorization":"","cookie":"","content_type":"application/json","user_agent":"fitz/0.1.0","body":"{\"name\":\"fitz\",\"tags\":[\"a\",\"b\"]}"}'
call put "$H/echo"
expect "request() with named options: a Str body keeps the caller's Content-Type" 200 '{"method":"PUT","authorization":"","cookie":"","content_type":"text/plain","user_agent":"fitz/0.1.0","body":"raw text"}'

# ---- json() -------------------------------------------------------------------------------
call quote "$H/json"; expect "json() into a declared Result<Quote>" 200 'ABC 12.5'
call price "$H/json"; expect "let q: Quote = r.json()?" 200 'price 12.5'
call quote "$H/badjson"; expect "json() names the field and the types" 200 "ERR http: json: field 'price': expected Float, found Str"
call price "$H/notjson"; [[ $status == 200 && $body == 'ERR http: json: '*'line 1, column 12'* ]]; check "json() on a body that is not JSON: $status $body" $?

# ---- redirects ----------------------------------------------------------------------------
for code in 301 302 303; do
  call post "$H/redirect/$code?to=/echo"
  [[ $body == '{"method":"GET",'*'"body":""}' ]]; check "$code turns a POST into a GET without a body: $body" $?
done
for code in 307 308; do
  call post "$H/redirect/$code?to=/echo"
  [[ $body == '{"method":"POST",'*'"body":"{\"name\":\"fitz\"'* ]]; check "$code keeps the method and the body: $body" $?
done
call auth "$H/redirect/302?to=/echo"
[[ $body == *'"authorization":"Bearer t0k","cookie":"c=1"'* ]]; check "same-host redirect keeps Authorization and Cookie: $body" $?
call auth "$H/redirect/302?to=$H2/echo"
[[ $body == *'"authorization":"","cookie":""'* ]]; check "cross-host redirect drops Authorization and Cookie: $body" $?
call get "$H/loop"; [[ $body == "ERR http: error calling \`$H/loop\`: too many redirects"* ]]; check "a redirect loop stops after 10 hops: $body" $?
call manual "$H/redirect/302?to=/elsewhere"; expect "follow_redirects: false gives the 3xx back" 200 '302 /elsewhere'

# ---- deadline, refusals, bad input ----------------------------------------------------------
t0=$(date +%s%N)
call get "http://127.0.0.1:$SILENT/" --data-urlencode timeout=500
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[[ $body == "ERR http: timeout calling \`http://127.0.0.1:$SILENT/\`"* && $ms -lt 3000 ]]; check "a server that never answers hits the deadline (${ms} ms): $body" $?
call get "$H/slow?s=2" --data-urlencode timeout=400
[[ $body == 'ERR http: timeout calling'* ]]; check "a slow server hits the deadline: $body" $?
call get "$H/slow?s=0.2" --data-urlencode timeout=3000; expect "a slow server within the deadline" 200 '200 late'
closed=$("$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
call get "http://127.0.0.1:$closed/"; [[ $body == "ERR http: could not connect to \`http://127.0.0.1:$closed/\`"* ]]; check "a refused connection: $body" $?
call get "ftp://localhost/x"; expect "another scheme is an invalid request" 200 'ERR http: invalid request to `ftp://localhost/x`: unsupported scheme `ftp`'
call get "http://exa mple.com/"; [[ $body == 'ERR http: invalid request to'* ]]; check "a URL with a space: $body" $?
call get "http://no-such-host.invalid/"; [[ $body == 'ERR http: could not connect to'* ]]; check "an unknown host: $body" $?

# ---- TLS ----------------------------------------------------------------------------------
call get "https://localhost:$TLS_OK/json"; expect "HTTPS verified against SSL_CERT_FILE" 200 '200 {"symbol":"ABC","price":12.5}'
call get "https://localhost:$TLS_WRONG_HOST/json"
[[ $body == "ERR http: could not connect to \`https://localhost:$TLS_WRONG_HOST/json\`: TLS handshake failed"* ]]; check "a certificate for another host is refused: $body" $?
call get "https://localhost:$TLS_EXPIRED/json"
[[ $body == *'TLS handshake failed: certificate has expired'* ]]; check "an expired certificate is refused: $body" $?
call get "https://localhost:$TLS_SELF/json"
[[ $body == *'TLS handshake failed: '*'self-signed certificate'* ]]; check "a self-signed certificate is refused: $body" $?
call get "https://localhost:$TLS_OK/status/500"; expect "HTTPS 500 is Ok" 200 '500 status 500'

stop svc

# ---- proxies --------------------------------------------------------------------------------
start proxied "$work/svc" SSL_CERT_FILE="$work/certs/ca.crt" SSL_CERT_DIR=/nonexistent \
  HTTP_PROXY="http://127.0.0.1:$PROXY" HTTPS_PROXY="127.0.0.1:$PROXY" NO_PROXY="127.0.0.1" http_proxy= https_proxy= no_proxy=
call get "$H/json"; expect "HTTP through HTTP_PROXY" 200 '200 {"symbol":"ABC","price":12.5}'
grep -qxF "GET $H/json" "$work/proxy.log"; check "the proxy got the absolute-form request: $(cat "$work/proxy.log")" $?
call get "https://localhost:$TLS_OK/json"; expect "HTTPS through a CONNECT tunnel, still verified" 200 '200 {"symbol":"ABC","price":12.5}'
grep -qxF "CONNECT localhost:$TLS_OK" "$work/proxy.log"; check "the proxy got CONNECT: $(cat "$work/proxy.log")" $?
call get "https://localhost:$TLS_SELF/json"; [[ $body == *'TLS handshake failed'* ]]; check "a tunnel does not skip verification: $body" $?
call get "$H2/status/204"; expect "NO_PROXY host goes direct" 200 '204 '
! grep -qF "$H2" "$work/proxy.log"; check "NO_PROXY host never reached the proxy: $(cat "$work/proxy.log")" $?
stop proxied
# Credentials in the proxy URL: Basic Proxy-Authorization (percent-decoded) to the proxy only.
: >"$work/proxy.log"
start proxied_auth "$work/svc" SSL_CERT_FILE="$work/certs/ca.crt" SSL_CERT_DIR=/nonexistent \
  HTTP_PROXY="http://alice:p%40ss@127.0.0.1:$PROXY" HTTPS_PROXY="alice:p%40ss@127.0.0.1:$PROXY" NO_PROXY= http_proxy= https_proxy= no_proxy=
call get "$H/json"; expect "HTTP through a proxy with credentials" 200 '200 {"symbol":"ABC","price":12.5}'
grep -qxF "GET $H/json auth=Basic YWxpY2U6cEBzcw==" "$work/proxy.log"
check "the absolute-form request carried Proxy-Authorization: $(cat "$work/proxy.log")" $?
call get "https://localhost:$TLS_OK/json"; expect "HTTPS through a proxy with credentials" 200 '200 {"symbol":"ABC","price":12.5}'
grep -qxF "CONNECT localhost:$TLS_OK auth=Basic YWxpY2U6cEBzcw==" "$work/proxy.log"
check "the CONNECT carried Proxy-Authorization: $(cat "$work/proxy.log")" $?
stop proxied_auth
echo "e2e $suite: $pass passed, $fail failed"
[[ $fail == 0 ]]
