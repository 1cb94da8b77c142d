#!/usr/bin/env bash
# `@server(static={"/assets": "public"})`: files with their content types, ETag and
# Last-Modified with 304s, byte ranges (206, 416), precompressed siblings with Vary, 404 for
# what is not a file of the folder (`..` plain or encoded, symlinks out, folders), 405 for
# other methods, routes unaffected, E0542 for a folder that does not exist, and a clear
# start-up error when the folder is gone at run time.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
suite=static-files
source "$here/service_lib.sh"

app=$work/app
cp -r "$here/static_files" "$app"
gzip -k -9 "$app/public/css/site.css"
printf 'brotli stand-in' >"$app/public/css/site.css.br"
ln -s index.html "$app/public/home.html"
ln -s /etc/passwd "$app/public/leak.txt"
mkdir -p "$app/secret" && echo "not public" >"$app/secret/key.txt"

"$fitz" build "$app/main.fitz" -o "$work/server" >"$work/build.log" 2>&1
check "the service builds: $(cat "$work/build.log")" $?
cd / && start files "$work/server" && cd - >/dev/null

req GET /assets/index.html
[[ $status == 200 && $body == *"Hello from a static file."* ]]; check "a file is served ($status)" $?
has_header "content-type" "content-type: text/html; charset=utf-8"
etag=$(grep -i '^etag:' "$work/headers" | tr -d '\r' | sed 's/^[^:]*: //')
[[ -n $etag ]]; check "an ETag is sent" $?
grep -qi '^last-modified: ' "$work/headers"; check "Last-Modified is sent" $?
req GET /assets/css/site.css
[[ $status == 200 && $body == "body { color: #222; }" ]]; check "a file in a subfolder, without an accepted encoding ($status: $body)" $?
has_header "content-type" "content-type: text/css; charset=utf-8"
has_header "vary" "vary: accept-encoding"

# Conditional requests.
rm -f "$work/body"  # curl writes no file for an empty body
req GET /assets/index.html -H "If-None-Match: $etag"
[[ $status == 304 && -z $body ]]; check "If-None-Match with the ETag: 304 ($status)" $?
req GET /assets/index.html -H 'If-None-Match: "other"'
[[ $status == 200 ]]; check "another ETag: 200 ($status)" $?
req GET /assets/index.html -H "If-Modified-Since: $(date -u -d '+1 day' '+%a, %d %b %Y %H:%M:%S GMT')"
[[ $status == 304 ]]; check "If-Modified-Since after the change: 304 ($status)" $?
req GET /assets/index.html -H "If-Modified-Since: Mon, 01 Jan 2001 00:00:00 GMT"
[[ $status == 200 ]]; check "If-Modified-Since before the change: 200 ($status)" $?

# Ranges.
req GET /assets/img/digits.bin -H 'Range: bytes=2-5'
[[ $status == 206 && $body == "2345" ]]; check "a byte range: 206 ($status: $body)" $?
has_header "content-range" "content-range: bytes 2-5/20"
req GET /assets/img/digits.bin -H 'Range: bytes=-3'
[[ $status == 206 && $body == "hij" ]]; check "a suffix range ($status: $body)" $?
req GET /assets/img/digits.bin -H 'Range: bytes=15-'
[[ $status == 206 && $body == "fghij" ]]; check "an open range ($status: $body)" $?
req GET /assets/img/digits.bin -H 'Range: bytes=50-60'
[[ $status == 416 ]]; check "a range past the end: 416 ($status)" $?
has_header "content-range" "content-range: bytes */20"
req GET /assets/img/digits.bin -H 'Range: bytes=2-5' -H 'If-Range: "stale"'
[[ $status == 200 && $body == "0123456789abcdefghij" ]]; check "If-Range with another ETag: the whole file ($status)" $?
has_header "content-type" "content-type: application/octet-stream"

# Precompressed siblings.
status=$(curl -s -o "$work/gz" -D "$work/headers" -w '%{http_code}' -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port/assets/css/site.css")
headers=$(tr 'A-Z' 'a-z' <"$work/headers" | tr -d '\r')
[[ $status == 200 && $(gunzip -c "$work/gz") == "body { color: #222; }" ]]; check "gzip sibling for a client that accepts gzip ($status)" $?
has_header "content-encoding" "content-encoding: gzip"
has_header "content-type" "content-type: text/css; charset=utf-8"
req GET /assets/css/site.css -H 'Accept-Encoding: gzip, br'
[[ $status == 200 && $body == "brotli stand-in" ]]; check "br sibling first when both are accepted ($status: $body)" $?
has_header "content-encoding" "content-encoding: br"

# What is not a file of the folder.
for path in /assets/../main.fitz /assets/%2e%2e/main.fitz /assets/css/%2E%2E/%2E%2E/secret/key.txt \
            /assets/..%2fsecret%2fkey.txt /assets/leak.txt /assets/css /assets/ /assets/missing.txt /assets/index.html%00.txt; do
  req GET "$path" --path-as-is
  [[ $status == 404 && $body != *"not public"* && $body != *root:* ]]; check "$path is a 404 ($status)" $?
done
req GET /assets/home.html
[[ $status == 200 && $body == *"Hello from a static file."* ]]; check "a symlink inside the folder is served ($status)" $?
req POST /assets/index.html
[[ $status == 405 ]]; check "POST to a file: 405 ($status)" $?
rm -f "$work/body"
req HEAD /assets/index.html -I
[[ $status == 200 && $body != *"Hello from"* && $headers == *"content-length: 69"* ]]; check "HEAD: headers only ($status)" $?

# Routes are unaffected; paths that only look like the prefix are not files.
req GET /api/ping
[[ $status == 200 && $body == '"pong"' ]]; check "routes answer as before ($status)" $?
req GET /assetsx/index.html
[[ $status == 404 ]]; check "/assetsx is not /assets ($status)" $?
stop files

# The folder must exist when the program is checked ...
mkdir -p "$work/nofolder"
sed 's/"public"/"nowhere"/' "$app/main.fitz" >"$work/nofolder/main.fitz"
out=$("$fitz" check "$work/nofolder/main.fitz" 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[E0542]"*"nowhere"* ]]; check "a missing folder is E0542 (rc $rc): $out" $?
sed 's/"public"/"..\/etc"/' "$app/main.fitz" >"$work/nofolder/main.fitz"
out=$("$fitz" check "$work/nofolder/main.fitz" 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[E0542]"* ]]; check "a folder with .. is E0542 (rc $rc): $out" $?

# ... and when it is gone at run time the program says so at start instead of serving 404s.
mv "$app/public" "$app/public.moved"
PORT=0 "$work/server" >"$work/gone.out" 2>"$work/gone.err"; rc=$?
[[ $rc != 0 ]] && grep -q "static folder \`public\`" "$work/gone.err"; check "a folder gone at run time stops the start (rc $rc): $(cat "$work/gone.err")" $?
mv "$app/public.moved" "$app/public"

echo "static-files: $pass passed, $fail failed"
[[ $fail == 0 ]]
