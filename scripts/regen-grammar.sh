#!/usr/bin/env bash
# Regenerates the tree-sitter parsers (src/parser.c and friends) from their grammar.js: the
# Fitz grammar (frontend/grammar) and the live views grammar (frontend/grammar-fitzv).
#   scripts/regen-grammar.sh [fitz|fitzv]           regenerate in place (both by default)
#   scripts/regen-grammar.sh --check [fitz|fitzv]   regenerate into a temporary copy and exit 1
#                                                   if the committed generated files differ
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cli=$root/scripts/tree-sitter-cli.sh
generated=(src/parser.c src/grammar.json src/node-types.json src/tree_sitter/parser.h
           src/tree_sitter/alloc.h src/tree_sitter/array.h)

grammar_dir() {
  case "$1" in
    fitz) echo frontend/grammar ;;
    fitzv) echo frontend/grammar-fitzv ;;
    *) echo "usage: scripts/regen-grammar.sh [--check] [fitz|fitzv]" >&2; exit 2 ;;
  esac
}

regen() {
  local grammar=$root/$(grammar_dir "$1")
  (cd "$grammar" && "$cli" generate --no-bindings) || return 1
  grep -q '#define LANGUAGE_VERSION 14' "$grammar/src/parser.c" ||
    { echo "regen-grammar: $1 parser.c is not ABI 14" >&2; return 1; }
}

check() {
  local rel
  rel=$(grammar_dir "$1")
  local grammar=$root/$rel tmp
  tmp=$(mktemp -d)
  mkdir -p "$tmp/grammar"
  cp "$grammar/grammar.js" "$grammar/package.json" "$tmp/grammar/"
  [[ -f $grammar/tree-sitter.json ]] && cp "$grammar/tree-sitter.json" "$tmp/grammar/"
  (cd "$tmp/grammar" && "$cli" generate --no-bindings >/dev/null) || { rm -rf "$tmp"; return 1; }
  local status=0 f
  for f in "${generated[@]}"; do
    if ! cmp -s "$grammar/$f" "$tmp/grammar/$f"; then
      echo "regen-grammar --check: $rel/$f is out of date (run scripts/regen-grammar.sh $1)" >&2
      status=1
    fi
  done
  rm -rf "$tmp"
  return $status
}

mode=regen
if [[ ${1:-} == --check ]]; then
  mode=check
  shift
fi
if [[ $# -gt 1 ]]; then grammar_dir usage; fi
grammars=("${1:-fitz}")
[[ $# -eq 0 ]] && grammars=(fitz fitzv)
status=0
for g in "${grammars[@]}"; do
  grammar_dir "$g" >/dev/null
  "$mode" "$g" || status=1
done
exit $status
