#!/usr/bin/env bash
# Tests the tree-sitter grammar:
#   1. the corpus in frontend/grammar/test/corpus (tree-sitter test);
#   2. every conformance program (run/*.fitz) must parse without ERROR or MISSING nodes.
# The conformance folder defaults to ../shared/conformance next to the repository root;
# override with FITZ_CONFORMANCE_DIR. Step 2 is skipped when the folder does not exist.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cli=$root/scripts/tree-sitter-cli.sh
export TREE_SITTER_DIR=${TREE_SITTER_DIR:-$(mktemp -d)}
[[ -f $TREE_SITTER_DIR/config.json ]] || echo '{"parser-directories": []}' > "$TREE_SITTER_DIR/config.json"
status=0

cd "$root/frontend/grammar" || exit 2
"$cli" test || status=1

conf=${FITZ_CONFORMANCE_DIR:-$root/../shared/conformance}
if [[ -d $conf/run ]]; then
  shopt -s nullglob
  files=("$conf"/run/*.fitz)
  bad=0
  for f in "${files[@]}"; do
    out=$("$cli" parse "$f" 2>&1)
    rc=$?
    if [[ $rc -ne 0 ]] || grep -qE '\((ERROR|MISSING)' <<<"$out"; then
      echo "syntax error in $f:"
      grep -E '\((ERROR|MISSING)' <<<"$out" | head -5
      bad=$((bad + 1))
    fi
  done
  echo "conformance: ${#files[@]} programs parsed, $bad with syntax errors"
  [[ $bad -eq 0 ]] || status=1
else
  echo "conformance folder $conf not found; skipping the parse check"
fi
exit $status
