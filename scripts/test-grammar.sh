#!/usr/bin/env bash
# Tests the tree-sitter grammars:
#   1. the corpus in frontend/grammar/test/corpus (tree-sitter test);
#   2. every conformance program (run/*.fitz) must parse without ERROR or MISSING nodes;
#   3. the live views grammar (frontend/grammar-fitzv): its corpus and highlight tests, its
#      injections (each line of test/injections/view.expected, `language<TAB>text`, must be
#      captured for that language), and the view fixtures of tests/testdata/views parse
#      without ERROR or MISSING nodes.
# The conformance folder defaults to ../shared/conformance next to the repository root;
# override with FITZ_CONFORMANCE_DIR. A missing folder is a failure.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cli=$root/scripts/tree-sitter-cli.sh
# A private CLI configuration (no parser directories to scan), so that the grammar in the
# current directory is the one used and no per-user setup is needed.
tsdir=$(mktemp -d)
trap 'rm -rf "$tsdir"' EXIT
echo "{\"parser-directories\": [\"$tsdir/none\"]}" > "$tsdir/config.json"
export TREE_SITTER_DIR=$tsdir
status=0

cd "$root/frontend/grammar" || exit 2
"$cli" test || status=1

# Injections: SQL strings passed to .query/.exec are captured for a SQL grammar.
got=$("$cli" query queries/injections.scm test/injections/sql.fitz 2>/dev/null |
  sed -n 's/.*capture: [0-9]* *- *injection.content.*text: `\(.*\)`$/\1/p; s/.*capture: injection.content.*//p' | sed '/^$/d')
want=$(head -n 1 test/injections/sql.expected)
if ! grep -qF "$want" <<<"$got"; then
  echo "injections: expected the SQL string to be captured, got: $got"
  status=1
else
  echo "injections: SQL strings captured"
fi

conf=${FITZ_CONFORMANCE_DIR:-$root/../shared/conformance}
if [[ -d $conf/run ]]; then
  shopt -s nullglob
  files=("$conf"/run/*.fitz)
  if [[ ${#files[@]} -gt 0 ]]; then
    # --quiet prints one line per file that has an ERROR or MISSING node.
    out=$("$cli" parse --quiet "${files[@]}" 2>&1)
    rc=$?
    bad=$(grep -cE '\((ERROR|MISSING)' <<<"$out")
    if [[ $rc -ne 0 || $bad -ne 0 ]]; then
      echo "$out"
      status=1
    fi
    echo "conformance: ${#files[@]} programs parsed, $bad with syntax errors"
  fi
else
  echo "conformance folder $conf not found"
  status=1
fi
cd "$root/frontend/grammar-fitzv" || exit 2
"$cli" test || status=1

# The pattern index of a capture names its language: the n-th `injection.language` of the file.
mapfile -t langs < <(grep -o 'injection.language "[a-z]*"' queries/injections.scm | cut -d'"' -f2)
got=$("$cli" query queries/injections.scm test/injections/view.fitzv 2>/dev/null |
  awk -v L="${langs[*]}" 'BEGIN { n = split(L, lang, " ") }
    /pattern:/ { p = $2 + 1 }
    /injection.content/ { t = $0; sub(/.*text: `/, "", t); sub(/`$/, "", t); print lang[p] "\t" t }')
missing=0
while IFS= read -r want; do
  if ! grep -qxF "$want" <<<"$got"; then
    echo "fitzv injections: not captured: $want"
    missing=1
  fi
done < test/injections/view.expected
if [[ $missing -ne 0 ]]; then
  echo "fitzv injections captured:"; echo "$got"; status=1
else
  echo "fitzv injections: Fitz code and CSS captured"
fi

# The fold query must compile against the grammar (an unknown node name is an error).
if ! "$cli" query queries/folds.scm test/injections/view.fitzv >/dev/null 2>&1; then
  echo "fitzv folds.scm does not compile"
  status=1
fi

views=()
for f in "$root"/tests/testdata/views/*.fitzv; do
  [[ $(basename "$f") == fail_* ]] || views+=("$f")  # fail_* fixtures are malformed on purpose
done
out=$("$cli" parse --quiet "${views[@]}" 2>&1)
rc=$?
bad=$(grep -cE '\((ERROR|MISSING)' <<<"$out")
if [[ $rc -ne 0 || $bad -ne 0 ]]; then
  echo "$out"
  status=1
fi
echo "views: ${#views[@]} fixtures parsed, $bad with syntax errors"
exit $status
