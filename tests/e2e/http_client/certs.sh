#!/usr/bin/env bash
# Certificates for the HTTPS test servers, made fresh in DIR: a test CA, a valid localhost
# certificate, one for another host name, an expired localhost one (both signed by the CA) and
# a self-signed localhost one. Only the CA goes into SSL_CERT_FILE.
set -euo pipefail
dir=$1
cd "$dir"
q() { "$@" >/dev/null 2>&1; }
q openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.crt -days 2 -subj "/CN=fitz test CA" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
leaf() {  # name, host name
  q openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$1.key" -out "$1.csr" -subj "/CN=$2"
  printf 'subjectAltName=DNS:%s\nbasicConstraints=CA:FALSE\n' "$2" >"$1.ext"
}
leaf ok localhost
q openssl x509 -req -in ok.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out ok.crt -days 2 -extfile ok.ext
leaf wrong wrong.example
q openssl x509 -req -in wrong.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out wrong.crt -days 2 -extfile wrong.ext
# Expired: `openssl ca` is the tool that takes explicit validity dates.
leaf expired localhost
mkdir -p ca.db && : >ca.db/index.txt && echo 01 >ca.db/serial
cat >ca.cnf <<CNF
[ca]
default_ca = test
[test]
database = ca.db/index.txt
serial = ca.db/serial
new_certs_dir = ca.db
default_md = sha256
policy = any
copy_extensions = none
[any]
commonName = supplied
CNF
q openssl ca -batch -config ca.cnf -cert ca.crt -keyfile ca.key -in expired.csr -out expired.crt \
  -startdate 20200101000000Z -enddate 20200102000000Z -extfile expired.ext -notext
q openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout self.key -out self.crt -days 2 -subj "/CN=localhost" \
  -addext "subjectAltName=DNS:localhost"
