#!/usr/bin/env bash
# Regenerates the tree-sitter parser (frontend/grammar/src/parser.c and friends) from
# frontend/grammar/grammar.js.
#   scripts/regen-grammar.sh           regenerate in place
#   scripts/regen-grammar.sh --check   regenerate into a temporary copy and exit 1 if the
#                                      committed generated files differ from it
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
grammar=$root/frontend/grammar
cli=$root/scripts/tree-sitter-cli.sh
generated=(src/parser.c src/grammar.json src/node-types.json src/tree_sitter/parser.h
           src/tree_sitter/alloc.h src/tree_sitter/array.h)

case "${1:-}" in
  "")
    cd "$grammar"
    "$cli" generate --no-bindings
    grep -q '#define LANGUAGE_VERSION 14' src/parser.c ||
      { echo "regen-grammar: parser.c is not ABI 14" >&2; exit 1; }
    ;;
  --check)
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    mkdir -p "$tmp/grammar"
    cp "$grammar/grammar.js" "$grammar/package.json" "$tmp/grammar/"
    [[ -f $grammar/tree-sitter.json ]] && cp "$grammar/tree-sitter.json" "$tmp/grammar/"
    (cd "$tmp/grammar" && "$cli" generate --no-bindings >/dev/null)
    status=0
    for f in "${generated[@]}"; do
      if ! cmp -s "$grammar/$f" "$tmp/grammar/$f"; then
        echo "regen-grammar --check: frontend/grammar/$f is out of date (run scripts/regen-grammar.sh)" >&2
        status=1
      fi
    done
    exit $status
    ;;
  *)
    echo "usage: scripts/regen-grammar.sh [--check]" >&2
    exit 2
    ;;
esac
