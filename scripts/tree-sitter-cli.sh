#!/usr/bin/env bash
# Runs the tree-sitter CLI (the parser generator), fetching it on first use from Debian's
# trixie archive into a private tools folder: bookworm has no tree-sitter-cli package, and the
# trixie binary runs here with trixie's own libc loaded through its dynamic linker.
# No system files are changed. Usage: scripts/tree-sitter-cli.sh <tree-sitter args...>
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
T=${FITZ_TOOLS_DIR:-$root/build/tools/tree-sitter}
X=$T/x
if [[ ! -x $X/usr/bin/tree-sitter ]]; then
  mkdir -p "$T/lists/partial" "$T/cache/archives/partial" "$T/sources"
  src=/etc/apt/sources.list.d/debian.sources
  if [[ -f $src ]]; then
    # Same mirrors as the system, trixie main only.
    awk '/^Suites:/ {print "Suites: trixie"; next} /^Components:/ {print "Components: main"; next} {print}' "$src" |
      awk 'BEGIN{RS=""; ORS="\n\n"} /Signed-By|URIs/ && !/security/' > "$T/sources/trixie.sources"
  else
    echo "tree-sitter-cli.sh: no $src to derive the trixie sources from" >&2; exit 2
  fi
  O=(-o Dir::Etc::sourcelist=/dev/null -o Dir::Etc::sourceparts="$T/sources"
     -o Dir::State::Lists="$T/lists" -o Dir::Cache="$T/cache" -o APT::Get::List-Cleanup=0)
  apt-get "${O[@]}" -qq update >/dev/null
  (cd "$T" && apt-get "${O[@]}" -qq download tree-sitter-cli libc6 libgcc-s1 >/dev/null)
  for d in "$T"/*.deb; do dpkg-deb -x "$d" "$X"; done
  rm -f "$T"/*.deb
fi
lib=$X/usr/lib/x86_64-linux-gnu
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$X/usr/bin/tree-sitter" "$@"
