#!/usr/bin/env bash
# Dependencies end to end, against local git repositories (file:// URLs): `fitz add` (--git with
# --tag/--rev, --path), fitz.lock contents, imports of git and transitive dependencies in
# `fitz check`/`fitz run`, `fitz update`, `fitz remove`, offline builds from the lock and the
# cache, content-hash verification, and conflicts naming both requirers.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fitz=$(realpath "${1:-$here/../../build/bin/fitz}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
check() {  # name, condition-result
  if [[ $2 == 0 ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED e2e packages: $1"; fi
}

# A private cache and git setup: nothing of the user's is read or written.
export FITZ_CACHE_DIR="$work/cache"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="fitz test" GIT_AUTHOR_EMAIL="test@fitz.invalid"
export GIT_COMMITTER_NAME="fitz test" GIT_COMMITTER_EMAIL="test@fitz.invalid"
unset FITZ_OFFLINE

manifest() {  # dir, name, dependency lines
  printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2026"\n\n[dependencies]\n%s' "$2" "$3" >"$1/fitz.toml"
}
commit() {  # repo dir, message
  git -C "$1" add -A && git -C "$1" commit -q -m "$2"
}

# greet: v1 and v2 say different things.
mkdir -p "$work/repos/greet/src"
git -C "$work/repos/greet" init -q -b main
manifest "$work/repos/greet" greet ""
echo 'fn hello() -> Str => "hello from greet v1"' >"$work/repos/greet/src/lib.fitz"
commit "$work/repos/greet" v1 && git -C "$work/repos/greet" tag v1
greet_v1=$(git -C "$work/repos/greet" rev-parse HEAD)
echo 'fn hello() -> Str => "hello from greet v2"' >"$work/repos/greet/src/lib.fitz"
commit "$work/repos/greet" v2 && git -C "$work/repos/greet" tag v2
greet_v2=$(git -C "$work/repos/greet" rev-parse HEAD)
greet_url="file://$work/repos/greet"

# shout: depends on greet v1 itself (a transitive dependency of the app).
mkdir -p "$work/repos/shout/src"
git -C "$work/repos/shout" init -q -b main
manifest "$work/repos/shout" shout "greet = { git = \"$greet_url\", tag = \"v1\" }
"
printf 'from greet import hello\n\nfn shout() -> Str => hello() + "!"\n' >"$work/repos/shout/src/lib.fitz"
commit "$work/repos/shout" v1 && git -C "$work/repos/shout" tag v1
shout_url="file://$work/repos/shout"

# The app.
mkdir -p "$work/app/src"
manifest "$work/app" app "# direct dependencies only
"
printf '\n[bin]\nmain = "src/main.fitz"\n' >>"$work/app/fitz.toml"
printf 'from greet import hello\n\nprint(hello())\n' >"$work/app/src/main.fitz"

# --- fitz add --git --tag ----------------------------------------------------------------------
out=$(cd "$work/app" && "$fitz" add greet --git "$greet_url" --tag v1 2>&1); rc=$?
[[ $rc == 0 && $out == *"added greet"*"tag v1"*"${greet_v1:0:12}"* ]]; check "add --git --tag (rc $rc): $out" $?
grep -q "^greet = { git = \"$greet_url\", tag = \"v1\" }$" "$work/app/fitz.toml"; check "add writes the entry: $(cat "$work/app/fitz.toml")" $?
grep -q '^# direct dependencies only$' "$work/app/fitz.toml" && grep -q '^main = "src/main.fitz"$' "$work/app/fitz.toml"
check "add keeps the other lines and comments" $?
lock=$(cat "$work/app/fitz.lock" 2>/dev/null)
[[ $lock == *'version = 1'* && $lock == *'name = "greet"'* && $lock == *"source = \"git+$greet_url?tag=v1\""* &&
   $lock == *"rev = \"$greet_v1\""* && $lock == *'hash = "sha256:'* && $lock == *'dependencies = []'* ]]
check "fitz.lock records the commit and hash: $lock" $?
ls "$work/cache/git/db" >/dev/null 2>&1 && [[ -n $(ls "$work/cache/git/checkouts"/*/"$greet_v1" 2>/dev/null) ]]
check "the cache outside the project holds the clone and the checkout" $?
[[ ! -e $work/app/.fitz && $(ls -A "$work/app") == *fitz.lock* ]]; check "nothing but fitz.lock is added to the project" $?

out=$(cd "$work/app" && "$fitz" check 2>&1); rc=$?
[[ $rc == 0 ]]; check "check imports the git dependency (rc $rc): $out" $?
out=$(cd "$work/app" && "$fitz" run 2>&1); rc=$?
[[ $rc == 0 && $out == *"hello from greet v1"* ]]; check "run prints v1 (rc $rc): $out" $?
lock_before=$(stat -c %Y "$work/app/fitz.lock"); sleep 1
(cd "$work/app" && "$fitz" check >/dev/null 2>&1)
[[ $(stat -c %Y "$work/app/fitz.lock") == "$lock_before" ]]; check "an up-to-date lock is not rewritten" $?

# --- transitive dependencies --------------------------------------------------------------------
out=$(cd "$work/app" && "$fitz" add shout --git "$shout_url" --tag v1 2>&1); rc=$?
[[ $rc == 0 ]]; check "add a package with its own git dependency (rc $rc): $out" $?
printf 'from greet import hello\nfrom shout import shout\n\nprint(hello())\nprint(shout())\n' >"$work/app/src/main.fitz"
out=$(cd "$work/app" && "$fitz" run 2>&1); rc=$?
[[ $rc == 0 && $out == *"hello from greet v1!"* ]]; check "run through a transitive dependency (rc $rc): $out" $?
lock=$(cat "$work/app/fitz.lock")
[[ $lock == *'name = "shout"'* && $lock == *'dependencies = ["greet"]'* ]]; check "the lock lists shout's dependencies: $lock" $?

# --- conflicts name both requirers ---------------------------------------------------------------
cp "$work/app/fitz.toml" "$work/toml.saved"
sed -i 's/tag = "v1" }$/tag = "v2" }/; /^shout/s/tag = "v2"/tag = "v1"/' "$work/app/fitz.toml"
grep -q "^greet = .*tag = \"v2\"" "$work/app/fitz.toml"; check "the test edit asks for greet v2" $?
out=$(cd "$work/app" && "$fitz" check 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[E0903]"* && $out == *"\`app\` requires git \"$greet_url\" tag \"v2\""* &&
   $out == *"\`shout\` requires git \"$greet_url\" tag \"v1\""* ]]
check "a conflict names both requirers (rc $rc): $out" $?
cp "$work/toml.saved" "$work/app/fitz.toml"

# --- fitz update moves a tag ---------------------------------------------------------------------
out=$(cd "$work/app" && "$fitz" remove shout 2>&1); rc=$?
[[ $rc == 0 && $out == *"removed shout"* ]]; check "remove (rc $rc): $out" $?
! grep -q '^shout' "$work/app/fitz.toml" && ! grep -q 'name = "shout"' "$work/app/fitz.lock"
check "remove drops the entry from fitz.toml and fitz.lock" $?
printf 'from greet import hello\n\nprint(hello())\n' >"$work/app/src/main.fitz"
sed -i 's/tag = "v1" }$/tag = "v2" }/' "$work/app/fitz.toml"
out=$(cd "$work/app" && "$fitz" update greet 2>&1); rc=$?
[[ $rc == 0 && $out == *"updated greet: ${greet_v1:0:12} -> ${greet_v2:0:12}"* ]]; check "update after editing the tag (rc $rc): $out" $?
grep -q "rev = \"$greet_v2\"" "$work/app/fitz.lock" && grep -q "?tag=v2\"" "$work/app/fitz.lock"
check "the lock moved to v2: $(cat "$work/app/fitz.lock")" $?
out=$(cd "$work/app" && "$fitz" run 2>&1); rc=$?
[[ $rc == 0 && $out == *"hello from greet v2"* ]]; check "run prints v2 (rc $rc): $out" $?
out=$(cd "$work/app" && "$fitz" update 2>&1); rc=$?
[[ $rc == 0 && $out == *"up to date"* ]]; check "update with nothing new (rc $rc): $out" $?
# A tag that moves upstream is only followed by `fitz update`.
echo 'fn hello() -> Str => "hello from greet v2, retagged"' >"$work/repos/greet/src/lib.fitz"
commit "$work/repos/greet" retag && git -C "$work/repos/greet" tag -f v2 >/dev/null
greet_v2b=$(git -C "$work/repos/greet" rev-parse HEAD)
(cd "$work/app" && "$fitz" check >/dev/null 2>&1)
grep -q "rev = \"$greet_v2\"" "$work/app/fitz.lock"; check "check keeps the locked commit of a moved tag" $?
out=$(cd "$work/app" && "$fitz" update 2>&1); rc=$?
[[ $rc == 0 && $out == *"${greet_v2b:0:12}"* ]] && grep -q "rev = \"$greet_v2b\"" "$work/app/fitz.lock"
check "update follows the moved tag (rc $rc): $out" $?
out=$(cd "$work/app" && "$fitz" update nosuch 2>&1); rc=$?
[[ $rc == 1 && $out == *"\`nosuch\` is not a dependency"* ]]; check "update of an unknown name (rc $rc): $out" $?

# --- offline: from the lock and the cache only ---------------------------------------------------
mv "$work/repos/greet" "$work/repos/greet.away"
out=$(cd "$work/app" && "$fitz" run --offline 2>&1); rc=$?
[[ $rc == 0 && $out == *"retagged"* ]]; check "offline run with the repository gone (rc $rc): $out" $?
rm -rf "$work/cache/git/checkouts"
out=$(cd "$work/app" && FITZ_OFFLINE=1 "$fitz" check 2>&1); rc=$?
[[ $rc == 0 ]]; check "FITZ_OFFLINE=1 checks out again from the cached clone (rc $rc): $out" $?
sed -i 's/tag = "v2" }$/tag = "v1" }/' "$work/app/fitz.toml"
out=$(cd "$work/app" && "$fitz" check --offline 2>&1); rc=$?
[[ $rc == 0 ]]; check "offline: a tag the cached clone knows (rc $rc): $out" $?
sed -i 's/tag = "v1" }$/tag = "v9" }/' "$work/app/fitz.toml"
out=$(cd "$work/app" && "$fitz" check --offline 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[E0902]"* && $out == *'tag `v9`'* && $out == *"fitz.toml:8:"* ]]
check "offline: an unknown tag is reported at fitz.toml (rc $rc): $out" $?
rm -rf "$work/cache"
sed -i 's/tag = "v9" }$/tag = "v2" }/' "$work/app/fitz.toml"
out=$(cd "$work/app" && "$fitz" check --offline 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[E0902]"* && $out == *"never been fetched"* ]]; check "offline with an empty cache fails clearly (rc $rc): $out" $?
out=$(cd "$work/app" && "$fitz" check 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[E0900]"* && $out == *"cannot clone"* ]]; check "an unreachable repository (rc $rc): $out" $?
mv "$work/repos/greet.away" "$work/repos/greet"

# --- content hashes ----------------------------------------------------------------------------
out=$(cd "$work/app" && "$fitz" check 2>&1); rc=$?
[[ $rc == 0 ]]; check "online again (rc $rc): $out" $?
checkout=$(ls -d "$work/cache/git/checkouts"/*/"$greet_v2b")
echo 'fn hello() -> Str => "tampered"' >"$checkout/src/lib.fitz"
out=$(cd "$work/app" && "$fitz" check 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[E0905]"* && $out == *"does not match fitz.lock"* ]]; check "a changed checkout is refused (rc $rc): $out" $?
rm -rf "$checkout"

# --- missing tags and revs, --rev, --path, usage errors -----------------------------------------
out=$(cd "$work/app" && "$fitz" add greet --git "$greet_url" --tag v7 2>&1); rc=$?
[[ $rc == 1 && $out == *"error[E0901]"* && $out == *'has no tag `v7`'* ]]; check "add of a missing tag (rc $rc): $out" $?
grep -q 'tag = "v2" }$' "$work/app/fitz.toml"; check "a failed add leaves fitz.toml as it was" $?
out=$(cd "$work/app" && "$fitz" add greet --git "$greet_url" --rev "${greet_v1:0:10}" 2>&1); rc=$?
[[ $rc == 0 ]] && grep -q "rev = \"${greet_v1:0:10}\" }" "$work/app/fitz.toml" && grep -q "rev = \"$greet_v1\"" "$work/app/fitz.lock"
check "add --rev with a short hash locks the full commit (rc $rc): $out" $?
out=$(cd "$work/app" && "$fitz" run 2>&1); rc=$?
[[ $rc == 0 && $out == *"hello from greet v1"* ]]; check "run at the pinned rev (rc $rc): $out" $?

mkdir -p "$work/local/src"
manifest "$work/local" local ""
echo 'fn local_name() -> Str => "from a folder"' >"$work/local/src/lib.fitz"
out=$(cd "$work/app" && "$fitz" add local --path ../local 2>&1); rc=$?
[[ $rc == 0 && $out == *"added local (path ../local)"* ]] && grep -q '^local = { path = "../local" }$' "$work/app/fitz.toml"
check "add --path (rc $rc): $out" $?
printf 'from greet import hello\nfrom local import local_name\n\nprint(hello() + " " + local_name())\n' >"$work/app/src/main.fitz"
out=$(cd "$work/app" && "$fitz" run 2>&1); rc=$?
[[ $rc == 0 && $out == *"hello from greet v1 from a folder"* ]]; check "run with a path and a git dependency (rc $rc): $out" $?
! grep -q 'name = "local"' "$work/app/fitz.lock"; check "path dependencies are not locked" $?

for bad in "add" "add Bad --path x" "add x --path a --git b" "add x --git u" "add x --git u --tag a --rev b" "add x --path p --tag t" "remove" "add x --frob"; do
  out=$(cd "$work/app" && "$fitz" $bad 2>&1); rc=$?
  [[ $rc == 2 && $out == *"error:"* ]]; check "usage error for \`fitz $bad\` (rc $rc): $out" $?
done
out=$(cd "$work/app" && "$fitz" remove nosuch 2>&1); rc=$?
[[ $rc == 1 && $out == *"\`nosuch\` is not a dependency"* ]]; check "remove of an unknown name (rc $rc): $out" $?
out=$(cd "$work" && "$fitz" add x --path y 2>&1); rc=$?
[[ $rc == 2 && $out == *"no fitz.toml"* ]]; check "add outside a project (rc $rc): $out" $?
for cmd in add remove update; do
  out=$("$fitz" $cmd --help 2>&1); rc=$?
  [[ $rc == 0 && $out == *"usage: fitz $cmd"* ]]; check "$cmd --help (rc $rc)" $?
done

# Removing the last git dependency deletes the lock.
(cd "$work/app" && "$fitz" remove local >/dev/null 2>&1 && "$fitz" remove greet >/dev/null 2>&1)
[[ ! -e $work/app/fitz.lock ]] && ! grep -q '^greet' "$work/app/fitz.toml"; check "the lock goes with the last git dependency" $?
grep -q '^\[dependencies\]$' "$work/app/fitz.toml" && grep -q '^# direct dependencies only$' "$work/app/fitz.toml"
check "the [dependencies] table and its comment stay" $?

echo "e2e packages: $pass passed, $fail failed"
[[ $fail == 0 ]]
