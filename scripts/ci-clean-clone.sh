#!/usr/bin/env bash
# Runs CI as CI runs it, to measure it before submitting: a fresh clone of HEAD in a new folder
# (with a copy of ../shared beside it), then `CI=true bash .ci/run` there with no standard input.
# The compiler cache is CCACHE_DIR from --cache DIR, by default a new empty one: a cold cache. Pass
# the folder of an earlier run's cache to measure a clone with a warm one. fitz's own build cache
# starts empty either way (XDG_CACHE_HOME inside the clone's folder).
#
#   scripts/ci-clean-clone.sh [--cache DIR] [--rev REV] [--keep]
#
# --rev checks out REV in the clone (default HEAD), e.g. to time a warm cache on the commit an
# earlier cold run built. Prints where the log is, and at the end the run's stage table (from scripts/run-tests.sh) and
# its wall time; exits with .ci/run's status. --keep leaves the clone (default: removed when it
# passed).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache="" keep=0 rev=HEAD
while (($#)); do
  case $1 in
    --cache) cache=$2; shift 2 ;;
    --rev) rev=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "usage: $0 [--cache DIR] [--rev REV] [--keep]" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d /tmp/fitz-ci.XXXXXX)
[[ -n $cache ]] || cache=$work/ccache
mkdir -p "$cache"
git clone -q "$root" "$work/main" || exit 2
git -C "$work/main" checkout -q "$(git -C "$root" rev-parse "$rev")" || exit 2
if [[ -d $root/../shared ]]; then
  cp -r "$root/../shared" "$work/shared"
  chmod -R a-w "$work/shared"
fi
log=$work/ci.log
echo "ci-clean-clone: $(git -C "$work/main" log --oneline -1) in $work/main, compiler cache $cache"
echo "ci-clean-clone: log in $log"
command -v ccache >/dev/null && CCACHE_DIR=$cache ccache -z >/dev/null
start=$(date +%s)
(cd "$work/main" && env CI=true CCACHE_DIR="$cache" XDG_CACHE_HOME="$work/xdg" bash .ci/run </dev/null >"$log" 2>&1)
rc=$?
secs=$(($(date +%s) - start))
sed -n '/^==> stage times/,$p' "$log"
echo "ci-clean-clone: exit $rc after $secs s ($((secs / 60)) min $((secs % 60)) s)"
if [[ -n $(command -v ccache) ]]; then
  CCACHE_DIR=$cache ccache -s | sed -n '/Hits:/p;/Misses:/p' | head -n 2
fi
if ((rc == 0 && keep == 0)); then
  chmod -R u+w "$work/shared" 2>/dev/null
  rm -rf "$work/main" "$work/shared" "$work/xdg"
fi
exit "$rc"
