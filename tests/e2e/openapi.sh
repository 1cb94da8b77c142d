#!/usr/bin/env bash
# fitz openapi end to end: every document of tests/testdata/openapi and of every example
# validates against the OpenAPI 3.1 schema (and its Schema Objects against JSON Schema 2020-12),
# passes swagger-parser's validation and Redocly's recommended ruleset with no error
# (tests/openapi-lint, installed with `npm ci` from its lockfile); broken documents are refused by
# the same validators, and the script of the built-in /docs page parses.
# usage: tests/e2e/openapi.sh path/to/fitz
set -euo pipefail
fitz=$(realpath "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
data="$here/../testdata/openapi"
lint="$root/tests/openapi-lint"
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

# Single-file cases, and folders (modules, a project with its fitz.toml) entered by main.fitz.
docs=()
for f in "$data"/*.fitz "$data"/*/main.fitz; do
  [[ $(basename "$f") == fail_* ]] && continue
  out="$work/$(basename "$(dirname "$f")")_$(basename "$f" .fitz).json"
  (cd "$(dirname "$f")" && "$fitz" openapi "$(basename "$f")" -o "$out")
  docs+=("$out")
done
# Every example: a project by its manifest, a loose one by its main.fitz.
for dir in "$root"/examples/*/; do
  name=$(basename "$dir")
  out="$work/example_$name.json"
  if [[ -f $dir/fitz.toml ]]; then
    (cd "$dir" && "$fitz" openapi -o "$out")
  else
    (cd "$dir" && "$fitz" openapi main.fitz -o "$out")
  fi
  docs+=("$out")
done
"$py" "$here/openapi/validate.py" "${docs[@]}"
echo "openapi.sh: ${#docs[@]} documents valid against OpenAPI 3.1"

# swagger-parser and Redocly, from the lockfile; the stamp skips `npm ci` while the lockfile and
# the tools are unchanged.
stamp_file=$lint/node_modules/.fitz-install-stamp
stamp="$(sha256sum "$lint/package-lock.json" | cut -d' ' -f1) node-$(node --version) npm-$(npm --version)"
if [[ ! -f $stamp_file || "$(cat "$stamp_file")" != "$stamp" ]]; then
  (cd "$lint" && npm ci --no-audit --no-fund --loglevel=error)
  printf '%s\n' "$stamp" > "$stamp_file"
fi
if ! node "$lint/lint.mjs" "${docs[@]}" > "$work/lint.txt" 2>&1; then
  cat "$work/lint.txt" >&2
  echo "openapi.sh: swagger-parser or Redocly (recommended ruleset) found errors" >&2
  exit 1
fi
echo "openapi.sh: $(tail -n 1 "$work/lint.txt")"

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
# swagger-parser refuses the same document; Redocly refuses one without summaries and with a
# repeated operationId (each tool on its own: a mistake only one of them sees still fails).
if node "$lint/lint.mjs" "$work/broken.json" > "$work/broken_lint.txt" 2>&1; then
  echo "openapi.sh: lint.mjs accepted a broken document" >&2
  exit 1
fi
grep -q "swagger-parser: INVALID" "$work/broken_lint.txt"
"$py" - "${docs[0]}" "$work/unlinted.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for item in doc["paths"].values():
    for op in item.values():
        op.pop("summary", None)
        op["operationId"] = "same"
json.dump(doc, open(sys.argv[2], "w"))
PY
if node "$lint/lint.mjs" "$work/unlinted.json" > "$work/unlinted.txt" 2>&1; then
  echo "openapi.sh: Redocly accepted operations without summaries" >&2
  exit 1
fi
grep -q "error  *operation-summary" "$work/unlinted.txt" && grep -q "operation-operationId-unique" "$work/unlinted.txt"

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
