#!/usr/bin/env bash
# Tests the tree-sitter grammar:
#   1. the corpus in frontend/grammar/test/corpus (tree-sitter test);
#   2. every conformance program (run/*.fitz) must parse without ERROR or MISSING nodes.
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
exit $status
