#!/usr/bin/env bash
# Cookies: `set_cookie` with attributes and a signature, one Set-Cookie header per cookie,
# `@cookie` parameters (plain, required, signed: forged, unsigned or moved values read as null),
# `clear_cookie`, robust Cookie parsing (malformed and repeated headers), clear runtime errors
# (an invalid name, signing without FITZ_SECRET_KEY), and `@server(login_path=)`: a browser gets
# a 302 to the login page, JSON clients keep the 401.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
suite=cookies
source "$here/service_lib.sh"

"$fitz" build "$here/cookies/main.fitz" -o "$work/server" >"$work/build.log" 2>&1
check "the service builds: $(cat "$work/build.log")" $?
start cookies "$work/server" FITZ_SECRET_KEY=e2e-cookie-secret-key-0123456789

# Signing in sets two cookies, each in its own Set-Cookie header with its attributes.
req POST '/login?user=ann'
expect "login" 200 '"welcome"'
mapfile -t set_cookies < <(grep -i '^set-cookie:' "$work/headers" | tr -d '\r' | sed 's/^[^:]*: //')
[[ ${#set_cookies[@]} == 2 ]]; check "two Set-Cookie headers, never folded (${#set_cookies[*]}): ${set_cookies[*]}" $?
sid_line=$(printf '%s\n' "${set_cookies[@]}" | grep '^sid=')
theme_line=$(printf '%s\n' "${set_cookies[@]}" | grep '^theme=')
[[ $sid_line =~ ^sid=ann\.[A-Za-z0-9_-]{43}\;\ Path=/\;\ Max-Age=3600\;\ HttpOnly\;\ Secure\;\ SameSite=Lax$ ]]
check "signed session cookie with its attributes: $sid_line" $?
[[ $theme_line == 'theme=dark%20blue%3B%20x; Path=/; Secure; SameSite=Strict' ]]
check "plain cookie percent-encoded, without HttpOnly: $theme_line" $?
sid=${sid_line%%;*}
sid=${sid#sid=}
sig=${sid#ann.}

# Reading them back.
req GET /me -H "Cookie: theme=x; sid=$sid"
expect "a signed cookie verifies" 200 '{"sid":"ann"}'
req GET /me -H "Cookie: sid=bob.$sig"
expect "a tampered value reads as null" 200 '{"sid":null}'
last=${sig: -1}; other=A; [[ $last == A ]] && other=B
req GET /me -H "Cookie: sid=ann.${sig:0:${#sig}-1}$other"
expect "a tampered signature reads as null" 200 '{"sid":null}'
req GET /me -H "Cookie: sid=ann"
expect "an unsigned value reads as null" 200 '{"sid":null}'
req GET /me -H "Cookie: sid=ann."
expect "an empty signature reads as null" 200 '{"sid":null}'
req GET /me
expect "no cookie reads as null" 200 '{"sid":null}'
# The same value signed for another cookie name does not verify as `sid`.
req POST '/remember?user=ann'
moved=$(grep -i '^set-cookie: remember=' "$work/headers" | tr -d '\r' | sed 's/^[^:]*: remember=//; s/;.*//')
[[ $moved == ann.* && $moved != "$sid" ]]; check "another cookie signs the same value differently ($moved)" $?
req GET /me -H "Cookie: sid=$moved"
expect "a signature moved from another cookie reads as null" 200 '{"sid":null}'

req GET /theme -H 'Cookie: theme=dark%20blue%3B%20x'
expect "a plain cookie is percent-decoded" 200 '"dark blue; x"'
req GET /theme
expect "a missing required cookie" 400 '{"error":"cookie '"'"'theme'"'"': missing — it is required"}'
req GET /theme -H 'Cookie: a=1' -H 'Cookie: theme="quoted"'
expect "several Cookie headers, a quoted value" 200 '"quoted"'
req GET /theme -H 'Cookie:   theme = spaced  ;other=1'
expect "spaces around names and values" 200 '"spaced"'

# Malformed Cookie headers are skipped pair by pair; the server keeps serving.
req GET /me -H 'Cookie: ;;;=; sid; =x; "; sid==; %%%'
expect "a malformed Cookie header is ignored" 200 '{"sid":null}'
req GET /theme -H "Cookie: $(head -c 6000 /dev/zero | tr '\0' ';')theme=deep"
expect "a long header of empty pairs" 200 '"deep"'
req GET /theme -H $'Cookie: theme=a\x01b'
[[ $status == 200 || $status == 400 ]]; check "a control byte in a cookie: 200 or 400 ($status)" $?
req GET /me -H "Cookie: sid=$sid"
expect "still serving after malformed headers" 200 '{"sid":"ann"}'

# Logging out clears the cookie.
req POST /logout
expect "logout" 200 '"bye"'
clear=$(grep -i '^set-cookie:' "$work/headers" | tr -d '\r' | sed 's/^[^:]*: //')
[[ $clear == 'sid=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax' ]]
check "clear_cookie sends Max-Age=0: $clear" $?

# A name a cookie cannot have is a runtime error with a clear message (500), not a bad header.
req GET '/named?name=bad%20name'
[[ $status == 500 && $body == *"invalid cookie name 'bad name'"* ]]; check "an invalid cookie name is a 500 naming it ($status $body)" $?
grep -qi '^set-cookie' "$work/headers"; [[ $? != 0 ]]; check "no Set-Cookie for an invalid name" $?
req GET '/named?name=ok'
[[ $status == 200 ]] && grep -qi '^set-cookie: ok=v; ' "$work/headers"; check "a valid computed name ($status)" $?

# The login redirect: browsers (Accept prefers HTML) on a route answering a Response go to the
# login page; JSON routes and JSON clients keep the 401.
req GET '/account?tab=2&x=%2F' -H 'Accept: text/html,application/xhtml+xml,*/*;q=0.8'
[[ $status == 302 ]]; check "a browser without credentials is redirected ($status)" $?
has_header "redirect location" "location: /login?next=/account%3ftab%3d2%26x%3d%252f"
req GET /account -H 'Accept: application/json'
[[ $status == 401 && $body == '{"error":"missing bearer token"}' ]]; check "a JSON client keeps the 401 ($status)" $?
req GET /account
[[ $status == 401 ]]; check "no Accept keeps the 401 ($status)" $?
req GET /api/account -H 'Accept: text/html'
[[ $status == 401 ]]; check "a JSON route keeps the 401 for a browser ($status)" $?
req GET /account -H 'Accept: text/html' -H 'Authorization: Bearer good'
[[ $status == 200 && $body == '<h1>ann</h1>' ]]; check "with credentials the page is served ($status $body)" $?
req GET /login -H 'Accept: text/html'
[[ $status == 200 && $body == *"<form"* ]]; check "the login page itself is served ($status)" $?
stop cookies

# Without FITZ_SECRET_KEY: signing is a clear runtime error, signed cookies read as null.
start nokey "$work/server" FITZ_SECRET_KEY=
req POST '/login?user=ann'
[[ $status == 500 && $body == *FITZ_SECRET_KEY* ]]; check "signing without a key is a 500 naming FITZ_SECRET_KEY ($status $body)" $?
req GET /me -H "Cookie: sid=$sid"
expect "no key: nothing verifies" 200 '{"sid":null}'
stop nokey

# Checker errors for wrong uses.
mkdir -p "$work/bad"
printf '@get("/a")\nfn a(@cookie("sid", signed=true) sid: Str) -> Str => sid\n' >"$work/bad/main.fitz"
out=$("$fitz" check "$work/bad/main.fitz" 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[E0543]"* ]]; check "a signed cookie that is not Str? is E0543 (rc $rc): $out" $?

echo "cookies: $pass passed, $fail failed"
[[ $fail == 0 ]]
