#!/usr/bin/env bash
# End-to-end auth: builds tests/e2e/auth/main.fitz with the real `fitz build` (a login that
# checks Argon2id hashes and issues JWTs, an @auth_provider, routes guarded by @authenticated,
# @admin and @requires), starts it on a free loopback port with RS256 keys made here, and
# checks over HTTP: a valid token passes (the user bound to the handler), and a missing token,
# `alg: none`, an HS256 token signed with the RSA public key (algorithm confusion), a tampered
# payload or signature, an expired token, bad base64, a payload that is not JSON and an
# oversized token are each a 401 (never a 500); a wrong role is a 403; a revoked token is a
# 401; the server still answers afterwards. The same binary with JWT_ALG=HS256 is checked too.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
suite=auth
source "$here/service_lib.sh"
# Ends the current server (the exit status is not what these checks are about).
kill_server() {
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}
bearer() { echo "authorization: Bearer $1"; }

# ---- tokens made here, independently of the service ---------------------------------------
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
seg() { printf '%s' "$1" | b64url; }
rs256() {  # header-json payload-text -> a token signed with the test's RSA private key
  local input
  input="$(seg "$1").$(seg "$2")"
  printf '%s.%s' "$input" "$(printf '%s' "$input" | openssl dgst -sha256 -sign "$work/rsa.pem" -binary | b64url)"
}
hs256() {  # header-json payload-text key-file -> an HMAC-SHA256 token keyed by the file's bytes
  local input
  input="$(seg "$1").$(seg "$2")"
  printf '%s.%s' "$input" "$(printf '%s' "$input" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$(od -An -v -tx1 "$3" | tr -d ' \n')" -binary | b64url)"
}

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/rsa.pem" 2>/dev/null
openssl pkey -in "$work/rsa.pem" -pubout -out "$work/rsa.pub"
[[ -s $work/rsa.pub ]]; check "openssl makes an RSA key pair" $?

"$fitz" build "$here/auth/main.fitz" -o "$work/auth" >"$work/build.log" 2>&1
check "fitz build tests/e2e/auth/main.fitz: $(head -c 2000 "$work/build.log")" $?

export JWT_PRIVATE_KEY JWT_PUBLIC_KEY
JWT_PRIVATE_KEY=$(cat "$work/rsa.pem")
JWT_PUBLIC_KEY=$(cat "$work/rsa.pub")
JWT_ALG=RS256 start auth-rs256 "$work/auth"

login() {  # name password -> sets $token
  req POST /login -H 'content-type: application/json' -d "{\"name\":\"$1\",\"password\":\"$2\"}"
  token=$(sed -n 's/^{"token":"\([^"]*\)"}$/\1/p' <<<"$body")
}
login bob wrong-pass
expect "login with a wrong password" 401 '{"error":"wrong name or password"}'
login nobody x
expect "login of an unknown account" 401 '{"error":"wrong name or password"}'
login bob bob-pass
[[ $status == 200 && $token == eyJ* ]]; check "login issues a token: $status $body" $?
bob=$token
login cy cy-pass
cy=$token
login ada ada-pass
ada=$token

req GET /me -H "$(bearer "$bob")"
expect "valid token: the user is bound to the handler" 200 '{"id":2,"name":"bob","role":"editor"}'
req GET /me/async -H "$(bearer "$bob")"
expect "async handler: the user is bound" 200 '{"id":2}'
req GET /me/async
expect "async handler: no token" 401 '{"error":"key not found"}'
req GET /open
expect "unguarded route" 200 '{"hello":"world"}'
req GET /me
expect "no token" 401 '{"error":"key not found"}'
req GET /me -H "authorization: Basic Ym9iOmJvYi1wYXNz"
expect "not a bearer token" 401 '{"error":"expected a bearer token"}'

IFS=. read -r h p s <<<"$bob"
payload=$(printf '%s' "$p" | tr -- '-_' '+/' | awk '{ n = length($0) % 4; if (n) $0 = $0 substr("===", 1, 4 - n); print }' | openssl base64 -d -A)
[[ $payload == *'"sub":2'* && $payload == *'"role":"editor"'* ]]; check "claims keep JSON types in the token: $payload" $?

none_tok="$(seg '{"alg":"none","typ":"JWT"}').$p."
req GET /me -H "$(bearer "$none_tok")"
expect "alg: none" 401 '{"error":"algorithm '"'"'none'"'"' is not accepted"}'
confused=$(hs256 '{"alg":"HS256","typ":"JWT"}' "$payload" "$work/rsa.pub")
req GET /me -H "$(bearer "$confused")"
expect "HS256 token signed with the RSA public key (algorithm confusion)" 401 '{"error":"unexpected algorithm '"'"'HS256'"'"' (expected RS256)"}'
admin_payload=${payload/\"role\":\"editor\"/\"role\":\"admin\"}
req GET /admin/stats -H "$(bearer "$h.$(seg "$admin_payload").$s")"
expect "tampered payload (role raised to admin)" 401 '{"error":"invalid signature"}'
# A 256-byte signature's last base64url character carries 2 bits (A, Q, g or w): flip it to
# another of those, so the token stays valid base64 and only the signature is wrong.
last=${s: -1}
[[ $last == A ]] && flip=Q || flip=A
req GET /me -H "$(bearer "$h.$p.${s%?}$flip")"
expect "tampered signature" 401 '{"error":"invalid signature"}'
expired=$(rs256 '{"alg":"RS256","typ":"JWT"}' '{"sub":2,"name":"bob","role":"editor","exp":1000000000}')
req GET /me -H "$(bearer "$expired")"
expect "expired token" 401 '{"error":"token expired"}'
req GET /me -H "$(bearer "$h.$p*.$s")"
expect "bad base64" 401 '{"error":"malformed token: payload is not base64url"}'
not_json=$(rs256 '{"alg":"RS256","typ":"JWT"}' 'this is not json')
req GET /me -H "$(bearer "$not_json")"
expect "a signed payload that is not JSON" 401 "*"
[[ $body == '{"error":"'* ]]; check "not JSON: an error message, got $body" $?
big=$(rs256 '{"alg":"RS256","typ":"JWT"}' "{\"sub\":2,\"name\":\"bob\",\"role\":\"editor\",\"pad\":\"$(head -c 9000 /dev/zero | tr '\0' x)\"}")
req GET /me -H "$(bearer "$big")"
expect "oversized token" 401 "*"
[[ $body == *'too large'* || $body == *'too long'* || $body == *'exceeds'* ]]; check "oversized token: the reason, got $body" $?
valid_own=$(rs256 '{"alg":"RS256","typ":"JWT"}' '{"sub":3,"name":"cy","role":"user"}')
req GET /me -H "$(bearer "$valid_own")"
expect "a token signed here with the private key (no exp) is accepted" 200 '{"id":3,"name":"cy","role":"user"}'
wrong_claims=$(rs256 '{"alg":"RS256","typ":"JWT"}' '{"sub":"three","name":"cy","role":"user"}')
req GET /me -H "$(bearer "$wrong_claims")"
expect "claims of the wrong type: the provider's Err is a 401" 401 "*"
no_sub=$(rs256 '{"alg":"RS256","typ":"JWT"}' '{"name":"cy","role":"user"}')
req GET /me -H "$(bearer "$no_sub")"
expect "a signed token without sub: the provider's runtime error is a 401, not a 500" 401 '{"error":"invalid credentials"}'

# roles
req GET /admin/stats -H "$(bearer "$bob")"
expect "@admin with role editor" 403 '{"error":"access forbidden — admin role required"}'
req GET /admin/stats -H "$(bearer "$ada")"
expect "@admin with role admin" 200 '{"accounts":3}'
req POST /notes -H "$(bearer "$cy")" -H 'content-type: application/json' -d '{"text":"hi"}'
expect "@requires(editor|admin) with role user" 403 "*"
[[ $body == *'one of these roles required: editor, admin'* ]]; check "403 names the roles: $body" $?
req POST /notes -H "$(bearer "$bob")" -H 'content-type: application/json' -d '{"text":"hi"}'
expect "@requires with role editor: user and body both bound" 200 '{"by":"bob","text":"hi"}'
req POST /notes -H "$(bearer "$ada")" -H 'content-type: application/json' -d '{"text":"x"}'
expect "@requires with role admin" 200 '{"by":"ada","text":"x"}'
req POST /notes -H 'content-type: application/json' -d '{"text":"hi"}'
expect "guard before the body: no token on a POST" 401 '{"error":"key not found"}'
req POST /notes -H "$(bearer "$cy")" -H 'content-type: application/json' -d '{not json'
expect "guard before the body: wrong role with a bad body is 403, not 400" 403 "*"

# revocation
req POST /logout -H "$(bearer "$bob")"
expect "logout revokes the token" 204 ""
req GET /me -H "$(bearer "$bob")"
expect "revoked token" 401 '{"error":"token revoked"}'
req GET /me -H "$(bearer "$cy")"
expect "other tokens still pass after a revocation" 200 '{"id":3,"name":"cy","role":"user"}'

# OpenAPI: guarded routes declare the bearer scheme and their 401 / 403.
req GET /openapi.json
python3 - "$work/body" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["components"]["securitySchemes"]["bearerAuth"] == {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}, doc.get("components")
me = doc["paths"]["/me"]["get"]
assert me["security"] == [{"bearerAuth": []}] and "401" in me["responses"] and "403" not in me["responses"], me
stats = doc["paths"]["/admin/stats"]["get"]
assert "401" in stats["responses"] and "403" in stats["responses"], stats
assert doc["paths"]["/open"]["get"].get("security") == [], "an open route is explicitly public"
EOF
check "OpenAPI: bearerAuth, security and 401/403 on guarded routes" $?

req GET /me -H "$(bearer "$cy")"
expect "the server still serves after every bad token" 200 '{"id":3,"name":"cy","role":"user"}'
! grep -qi 'internal\|panic\|abort' "$work/auth-rs256.err"; check "no internal error logged: $(head -c 500 "$work/auth-rs256.err")" $?
kill_server

# HS256: the same service with a shared secret; an RS256 token is refused there.
JWT_ALG=HS256 JWT_SECRET=e2e-secret start auth-hs256 "$work/auth"
login bob bob-pass
hs_bob=$token
req GET /me -H "$(bearer "$hs_bob")"
expect "HS256: valid token" 200 '{"id":2,"name":"bob","role":"editor"}'
req GET /me -H "$(bearer "$valid_own")"
expect "HS256 service: an RS256 token" 401 '{"error":"unexpected algorithm '"'"'RS256'"'"' (expected HS256)"}'
printf '%s' "other-secret" >"$work/other.key"
forged=$(hs256 '{"alg":"HS256","typ":"JWT"}' '{"sub":1,"name":"ada","role":"admin"}' "$work/other.key")
req GET /admin/stats -H "$(bearer "$forged")"
expect "HS256: a token signed with another secret" 401 '{"error":"invalid signature"}'
kill_server

echo "e2e auth: $pass passed, $fail failed"
((fail == 0))
