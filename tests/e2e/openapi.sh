#!/usr/bin/env bash
# fitz openapi end to end: every document of tests/testdata/openapi validates against the
# OpenAPI 3.1 schema (and its Schema Objects against JSON Schema 2020-12), a broken document is
# refused by the same validator, and the script of the built-in /docs page parses.
# usage: tests/e2e/openapi.sh path/to/fitz
set -euo pipefail
fitz=$(realpath "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
data="$here/../testdata/openapi"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The validator needs python3-jsonschema (scripts/install-deps.sh); prefer the system Python.
py=""
for candidate in /usr/bin/python3 python3; do
  if "$candidate" -c 'import jsonschema' 2>/dev/null; then py=$candidate; break; fi
done
if [[ -z $py ]]; then
  echo "openapi.sh: no python3 with jsonschema (install python3-jsonschema)" >&2
  exit 1
fi

docs=()
for f in "$data"/*.fitz "$data"/modules/main.fitz; do
  [[ $(basename "$f") == fail_* ]] && continue
  out="$work/$(basename "$(dirname "$f")")_$(basename "$f" .fitz).json"
  (cd "$(dirname "$f")" && "$fitz" openapi "$(basename "$f")" -o "$out")
  docs+=("$out")
done
"$py" "$here/openapi/validate.py" "${docs[@]}"
echo "openapi.sh: ${#docs[@]} documents valid against OpenAPI 3.1"

# The validator is not vacuous: a response without a description and a bad type are refused.
"$py" - "${docs[0]}" "$work/broken.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
op = next(iter(next(iter(doc["paths"].values())).values()))
next(iter(op["responses"].values())).pop("description")
doc.setdefault("components", {}).setdefault("schemas", {})["Broken"] = {"type": "integr"}
json.dump(doc, open(sys.argv[2], "w"))
PY
if "$py" "$here/openapi/validate.py" "$work/broken.json" > "$work/broken.txt"; then
  echo "openapi.sh: a broken document passed validation" >&2
  exit 1
fi
grep -q "description" "$work/broken.txt" && grep -q "components/schemas/Broken" "$work/broken.txt"

# A built service serves the same document at /openapi.json and the viewer at /docs.
export FITZ_CACHE_DIR=$work/cache
cp "$data/crud.fitz" "$work/crud.fitz"
(cd "$work" && "$fitz" build crud.fitz -o "$work/crud" > "$work/build.txt" 2>&1) || { cat "$work/build.txt" >&2; exit 1; }
port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PORT=$port "$work/crud" > "$work/service.log" 2>&1 &
service=$!
trap 'kill "$service" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/healthz" > /dev/null && break
  sleep 0.1
done
(cd "$work" && "$fitz" openapi crud.fitz) > "$work/printed.json"
curl -sf "http://127.0.0.1:$port/openapi.json" > "$work/served.json"
echo >> "$work/served.json"  # the CLI ends its output with a newline
cmp "$work/printed.json" "$work/served.json"
curl -sf -D "$work/docs.headers" "http://127.0.0.1:$port/docs" > "$work/docs.html"
grep -qi '^content-type: text/html' "$work/docs.headers"
grep -q 'fetch("openapi.json")' "$work/docs.html"
kill "$service"
echo "openapi.sh: the built service serves the printed document and the docs page"

# The /docs page's script is valid JavaScript.
sed -n '/^<script>$/,/^<\/script>/p' "$here/../../runtime/http/docs_page.cpp" | sed '1d;$d' > "$work/docs.js"
[[ -s $work/docs.js ]]
node --check "$work/docs.js"
echo "openapi.sh: ok"
