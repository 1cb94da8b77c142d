#!/usr/bin/env bash
# End-to-end outbound mail: builds tests/e2e/smtp/service.fitz with `fitz build` and sends
# through Debian's python3-aiosmtpd (smtp/servers.py) in plain, STARTTLS and implicit-TLS modes
# with AUTH, reading each delivered message back (envelope, headers, RFC 2047 subject, MIME
# parts, dot-stuffing undone); a server that closes in the middle of DATA and one that does not
# answer give an Err, not a hang; configuration errors are the specified texts. Also runs
# examples/price-report against a local quote API and the plain server.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
suite=smtp
source "$here/service_lib.sh"
py=/usr/bin/python3

mkdir -p "$work/certs"
bash "$here/http_client/certs.sh" "$work/certs"; check "test certificates are made" $?
"$py" "$here/smtp/servers.py" "$work/ports" "$work/certs" 2>"$work/servers.err" &
pids+=($!)
disown
for _ in $(seq 100); do [[ -f $work/ports ]] && break; sleep 0.1; done
[[ -f $work/ports ]]; check "SMTP servers start: $(cat "$work/servers.err")" $?
source "$work/ports"

out=$("$fitz" build "$here/smtp/service.fitz" -o "$work/svc" 2>&1); rc=$?
[[ $rc == 0 && -x $work/svc ]]; check "fitz build smtp/service.fitz (rc $rc): $out" $?

send() {  # ROUTE [query...]: GET through the service; $body unquoted
  req GET "/$1" -G "${@:2}"
  [[ $status == 200 ]] && body=$("$py" -c 'import json,sys; print(json.load(sys.stdin), end="")' <"$work/body")
}
# mail NAME: the message the server NAME stored, parsed, as "key=value" lines.
mail() {
  "$py" - "$work/mail/$1.eml" <<'PY'
import email, email.policy, sys
raw = open(sys.argv[1], "rb").read()
m = email.message_from_bytes(raw, policy=email.policy.default)
print("from=" + str(m["From"]))
print("to=" + str(m["To"]))
print("subject=" + str(m["Subject"]))
print("env_from=" + m["X-Envelope-From"] + " env_to=" + m["X-Envelope-To"] + " auth=" + m["X-Auth"])
print("msgid=" + str(m["Message-ID"]))
print("date=" + ("yes" if m["Date"] else "no") + " mime=" + str(m["MIME-Version"]))
print("type=" + m.get_content_type())
for p in (m.iter_parts() if m.is_multipart() else [m]):
    print("part=" + p.get_content_type() + ":" + p.get_content().replace("\r\n", "\n").rstrip("\n").replace("\n", "|"))
PY
}

common=(SSL_CERT_FILE="$work/certs/ca.crt" SSL_CERT_DIR=/nonexistent SMTP_HOST=localhost SMTP_FROM="Ops <ops@example.com>"
        SMTP_USER=mailer SMTP_PASSWORD=s3cret SMTP_TIMEOUT_MS=3000)

# ---- plain text over STARTTLS with AUTH -----------------------------------------------------
start starttls "$work/svc" "${common[@]}" SMTP_PORT=$STARTTLS
send text --data-urlencode "to=Ana Pérez <ana@example.com>" --data-urlencode "subject=Über café ☕ report"
[[ $body == "ok true "*@* ]]; check "STARTTLS send returns the message id: $body" $?
id=${body#ok true }
m=$(mail STARTTLS)
grep -qxF "subject=Über café ☕ report" <<<"$m"; check "non-ASCII subject round-trips (RFC 2047): $m" $?
grep -qxF "env_from=ops@example.com env_to=ana@example.com auth=mailer" <<<"$m"; check "envelope and AUTH: $m" $?
grep -qxF "msgid=<$id>" <<<"$m"; check "Message-ID is <message_id>: $m" $?
grep -qxF "date=yes mime=1.0" <<<"$m"; check "Date and MIME-Version: $m" $?
grep -qxF "part=text/plain:Hello,|.dot line|bye" <<<"$m"; check "text body, dot-stuffing undone: $m" $?
grep -qF 'to=Ana Pérez <ana@example.com>' <<<"$m"; check "display name of To: $m" $?
grep -c '=?UTF-8?B?' "$work/mail/STARTTLS.eml" >/dev/null; check "the raw Subject is encoded words" $?
stop starttls

# ---- multipart/alternative over implicit TLS ---------------------------------------------------
start implicit "$work/svc" "${common[@]}" SMTP_PORT=$IMPLICIT SMTP_TLS=implicit
send both --data-urlencode "to=bo@example.com"
[[ $body == "ok "*@* ]]; check "implicit TLS send: $body" $?
m=$(mail IMPLICIT)
grep -qxF "type=multipart/alternative" <<<"$m"; check "text + HTML is multipart/alternative: $m" $?
[[ $(grep '^part=' <<<"$m" | head -1) == 'part=text/plain:Open the link.' ]]; check "text part first: $m" $?
grep -qxF 'part=text/html:<p><a href="https://x.io">Reset</a></p>' <<<"$m"; check "HTML part: $m" $?
grep -qxF 'from="Fitz App" <app@example.com>' <<<"$m" || grep -qxF 'from=Fitz App <app@example.com>' <<<"$m"; check "from option overrides SMTP_FROM: $m" $?
stop implicit

# ---- plain text with SMTP_TLS=none --------------------------------------------------------------
start plain "$work/svc" "${common[@]}" SMTP_PORT=$PLAIN SMTP_TLS=none
send text --data-urlencode "to=cy@example.com" --data-urlencode "subject=plain"
[[ $body == "ok true "* ]]; check "SMTP_TLS=none send with AUTH: $body" $?
grep -qxF "env_from=ops@example.com env_to=cy@example.com auth=mailer" <<<"$(mail PLAIN)"; check "plain envelope and AUTH" $?
send text --data-urlencode "to=not an address" --data-urlencode "subject=x"
[[ $body == 'ERR smtp: invalid `to` address `not an address`: '* ]]; check "invalid to address: $body" $?
stop plain

# ---- examples/price-report: an outbound API call, then a mail -----------------------------------
cat >"$work/quotes.py" <<'PY'
import http.server, json, sys
class Quotes(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        answers = {"/quotes/ABC": (200, {"symbol": "ABC", "price": 12.5}),
                   "/quotes/BAD": (200, {"symbol": "BAD", "price": "high"})}
        status, doc = answers.get(self.path, (503, {"error": "down"}))
        body = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quotes)
open(sys.argv[1] + ".tmp", "w").write(str(srv.server_address[1]))
__import__("os").rename(sys.argv[1] + ".tmp", sys.argv[1])
srv.serve_forever()
PY
"$py" "$work/quotes.py" "$work/quotes.port" &
pids+=($!)
disown
for _ in $(seq 100); do [[ -f $work/quotes.port ]] && break; sleep 0.1; done
out=$("$fitz" build "$root/examples/price-report" -o "$work/price" 2>&1); rc=$?
[[ $rc == 0 && -x $work/price ]]; check "fitz build examples/price-report (rc $rc): $out" $?
start price "$work/price" "${common[@]}" SMTP_PORT=$PLAIN SMTP_TLS=none QUOTE_API="http://127.0.0.1:$(cat "$work/quotes.port")" \
  REPORT_TO=desk@example.com
rm -f "$work/mail/PLAIN.eml"
req POST /reports/ABC
[[ $status == 200 && $body == '{"symbol":"ABC","price":"12.5","message_id":"'*@*'"}' ]]
check "price-report fetched the quote and mailed it: $status $body" $?
m=$(mail PLAIN)
grep -qxF "subject=Price report: ABC" <<<"$m" && grep -qF " env_to=desk@example.com " <<<"$m" &&
  grep -qxF "part=text/plain:ABC trades at 12.5." <<<"$m" && grep -qxF "part=text/html:<p><b>ABC</b> trades at 12.5.</p>" <<<"$m"
check "the report mail has its subject, recipient and both parts: $m" $?
req POST /reports/BAD
[[ $status == 500 && $body == *"http: json: field 'price': expected Float, found Str"* ]]
check "a quote with a wrong field type is an error naming the field: $status $body" $?
req POST /reports/DOWN
[[ $status == 500 && $body == *"quote API answered 503 after "*" ms"* ]]
check "an API answering 503 is reported with its status: $status $body" $?
stop price

# ---- failures --------------------------------------------------------------------------------------
start starttls_on_plain "$work/svc" "${common[@]}" SMTP_PORT=$PLAIN
send text --data-urlencode "to=d@example.com" --data-urlencode "subject=x"
[[ $body == 'ERR smtp: the server does not offer STARTTLS'* ]]; check "starttls required but not offered: $body" $?
stop starttls_on_plain
start badauth "$work/svc" "${common[@]}" SMTP_PORT=$STARTTLS SMTP_PASSWORD=wrong
send text --data-urlencode "to=d@example.com" --data-urlencode "subject=x"
[[ $body == 'ERR smtp: permanent error: 535'* ]]; check "wrong password is a permanent error: $body" $?
stop badauth
start closer "$work/svc" "${common[@]}" SMTP_PORT=$CLOSER SMTP_TLS=none SMTP_USER= SMTP_PASSWORD=
t0=$(date +%s)
send text --data-urlencode "to=d@example.com" --data-urlencode "subject=x"
[[ $body == 'ERR smtp: '* && $(( $(date +%s) - t0 )) -lt 3 ]]; check "a server closing mid-DATA gives an Err at once: $body" $?
stop closer
start mute "$work/svc" "${common[@]}" SMTP_PORT=$STARTTLS SMTP_HOST=wrong.example
send text --data-urlencode "to=d@example.com" --data-urlencode "subject=x"
[[ $body == 'ERR smtp: '* ]]; check "an unknown SMTP host: $body" $?
stop mute
start nohost "$work/svc" SMTP_FROM=a@example.com
send text --data-urlencode "to=d@example.com" --data-urlencode "subject=x"
[[ $body == 'ERR smtp: SMTP_HOST is not set (required for `smtp.send`)' ]]; check "SMTP_HOST unset: $body" $?
stop nohost
start badtls "$work/svc" SMTP_HOST=localhost SMTP_TLS=maybe
send text --data-urlencode "to=d@example.com" --data-urlencode "subject=x"
[[ $body == 'ERR smtp: SMTP_TLS must be one of'* ]]; check "bad SMTP_TLS: $body" $?
stop badtls
start nofrom "$work/svc" SMTP_HOST=localhost SMTP_PORT=$PLAIN SMTP_TLS=none
send text --data-urlencode "to=d@example.com" --data-urlencode "subject=x"
[[ $body == 'ERR smtp: no `from` provided and SMTP_FROM env var is not set' ]]; check "no from: $body" $?
stop nofrom

echo "e2e $suite: $pass passed, $fail failed"
[[ $fail == 0 ]]
