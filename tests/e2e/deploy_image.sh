#!/usr/bin/env bash
# End-to-end `fitz deploy image`: its usage errors, then OCI images of examples/todo-api (copied,
# with a static/ folder added) and examples/users-api. Each image's config is read back with
# skopeo, the image is unpacked with umoci, and the service runs from the unpacked root file
# system under chroot as the image's user with the image's environment, which proves the image
# holds every library the binary needs. Prints the compressed size of the users-api image, which
# must stay under 20 MB. Needs root (chroot), umoci, skopeo and curl.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
suite=deploy-image
source "$here/service_lib.sh"
started=$SECONDS
size_limit=20000000
chroot_bin=$(command -v chroot)

for tool in umoci skopeo curl python3; do
  command -v "$tool" >/dev/null; check "$tool is installed (scripts/install-deps.sh)" $?
done
[[ $(id -u) == 0 ]]; check "runs as root: the images are run under chroot" $?

# ---- usage and errors ---------------------------------------------------------------------
out=$("$fitz" deploy --help 2>&1); rc=$?
[[ $rc == 0 && $out == *"image [PATH]"* ]]; check "fitz deploy --help (rc $rc): $out" $?
out=$("$fitz" deploy image --help 2>&1); rc=$?
[[ $rc == 0 && $out == *"--tag T"* && $out == *"--out DIR"* ]]; check "fitz deploy image --help (rc $rc): $out" $?
out=$("$fitz" deploy nomad 2>&1); rc=$?
[[ $rc == 2 && $out == *"unknown deploy target \`nomad\`"* ]]; check "an unknown target is a usage error (rc $rc): $out" $?
out=$("$fitz" deploy image "$root/examples/todo-api" --tag 'bad/tag' 2>&1); rc=$?
[[ $rc == 2 && $out == *"not a valid image tag"* ]]; check "a bad tag is refused (rc $rc): $out" $?
out=$(env PATH="$work/empty-path" "$fitz" deploy image "$root/examples/todo-api" --out "$work/no-umoci" 2>&1); rc=$?
[[ $rc == 2 && $out == *"needs umoci"* && $out == *"apt-get install umoci"* && ! -e $work/no-umoci ]]
check "without umoci on PATH: says to install it (rc $rc): $out" $?
out=$("$fitz" deploy image "$root/examples/hello/main.fitz" --out "$work/hello-img" 2>&1); rc=$?
[[ $rc == 1 && $out == *"is not a service"* && ! -e $work/hello-img ]]; check "a program that serves nothing is refused (rc $rc): $out" $?

# ---- helpers ------------------------------------------------------------------------------
# layer_bytes LAYOUT TAG: the sum of the layer blob sizes the tag's manifest lists (read here,
# not from fitz's own summary), checking each blob's file has that size.
layer_bytes() {
  python3 - "$1" "$2" <<'EOF'
import json, os, sys
layout, tag = sys.argv[1], sys.argv[2]
index = json.load(open(os.path.join(layout, "index.json")))
refs = [m for m in index["manifests"] if m.get("annotations", {}).get("org.opencontainers.image.ref.name") == tag]
assert len(refs) == 1, f"{len(refs)} manifests tagged {tag}"
blob = lambda d: os.path.join(layout, "blobs", *d.split(":"))
manifest = json.load(open(blob(refs[0]["digest"])))
for l in manifest["layers"]:
    assert os.path.getsize(blob(l["digest"])) == l["size"], l
print(sum(l["size"] for l in manifest["layers"]), len(manifest["layers"]))
EOF
}

# run_image BUNDLE NAME [ENV...]: runs what the unpacked bundle's config.json says (args, env,
# uid, gid) under chroot, with PORT=0 added so that it picks a free port; sets $pid and $port.
run_image() {
  local bundle=$1 name=$2
  shift 2
  local spec
  spec=$(python3 - "$bundle/config.json" <<'EOF'
import json, shlex, sys
p = json.load(open(sys.argv[1]))["process"]
print(f'{p["user"]["uid"]}:{p["user"]["gid"]}')
print(shlex.join(p["env"]))
print(shlex.join(p["args"]))
EOF
  )
  local ids env args
  ids=$(sed -n 1p <<<"$spec")
  eval "env=($(sed -n 2p <<<"$spec"))"
  eval "args=($(sed -n 3p <<<"$spec"))"
  env -i "${env[@]}" PORT=0 "$@" "$chroot_bin" --userspec="$ids" "$bundle/rootfs" "${args[@]}" \
    >"$work/$name.out" 2>"$work/$name.err" &
  pid=$!
  pids+=("$pid")
  port=
  for _ in $(seq 100); do
    port=$(grep -o 'listening on http://0.0.0.0:[0-9]*' "$work/$name.err" | head -1 | sed 's/.*://')
    [[ -n $port ]] && break
    sleep 0.1
  done
  [[ -n $port ]]; check "$name starts from its image on HOST=0.0.0.0: $(head -c 500 "$work/$name.err")" $?
  [[ $(awk '/^Uid:/ {print $2}' "/proc/$pid/status" 2>/dev/null) == 65532 ]]
  check "$name runs as uid 65532: $(grep '^Uid:' "/proc/$pid/status" 2>&1)" $?
}

# ---- todo-api, with a static folder -------------------------------------------------------
cp -r "$root/examples/todo-api" "$work/todo-api"
rm -rf "$work/todo-api/dist"
mkdir -p "$work/todo-api/static"
echo "hello from static" >"$work/todo-api/static/hello.txt"
todo_img=$work/todo-img
out=$("$fitz" deploy image "$work/todo-api" --tag e2e --out "$todo_img" 2>&1); rc=$?
[[ $rc == 0 && $out == "image todo-api:e2e written to $todo_img (port 3000, user 65532, "*" MB compressed)" ]]
check "fitz deploy image todo-api (rc $rc): $out" $?

cfg=$(skopeo inspect --config "oci:$todo_img:e2e" 2>&1); check "skopeo inspect --config todo-api: $cfg" $?
python3 - "$cfg" 3000 /app/todo-api <<'EOF' 2>"$work/config.err"
import json, sys
c = json.loads(sys.argv[1])["config"]
port, entry = sys.argv[2], sys.argv[3]
assert c["Entrypoint"] == [entry], c["Entrypoint"]
assert c.get("Cmd") in (None, []), c.get("Cmd")
uid, gid = c["User"].split(":")
assert uid == gid == "65532", c["User"]
assert list(c["ExposedPorts"]) == [f"{port}/tcp"], c["ExposedPorts"]
assert f"PORT={port}" in c["Env"] and "HOST=0.0.0.0" in c["Env"], c["Env"]
assert c["WorkingDir"] == "/app", c.get("WorkingDir")
EOF
check "todo-api config: entrypoint, user 65532, port 3000, PORT/HOST env: $(cat "$work/config.err")" $?
info=$(skopeo inspect "oci:$todo_img:e2e" 2>&1); check "skopeo inspect todo-api: $info" $?
[[ $info == *'"Architecture": "amd64"'* || $info == *'"Architecture": "arm64"'* ]]; check "todo-api architecture: $info" $?

read -r todo_bytes todo_layers < <(layer_bytes "$todo_img" e2e)
[[ $todo_layers == 1 && $todo_bytes -gt 0 ]]; check "todo-api: one layer ($todo_layers, $todo_bytes bytes)" $?

bundle=$work/todo-bundle
out=$(umoci unpack --image "$todo_img:e2e" "$bundle" 2>&1); check "umoci unpack todo-api: $out" $?
rootfs=$bundle/rootfs
# Exactly the libraries ldd names and the loader: nothing missing, nothing extra.
want=$(ldd "$rootfs/app/todo-api" | grep -o '/[^ ]*' | sort)
have=$(cd "$rootfs" && find lib lib64 usr/lib -type f 2>/dev/null | sed 's|^|/|' | sort)
[[ -n $want && $want == "$have" ]]; check "the image's libraries are exactly ldd's: want [$want] have [$have]" $?
cmp -s /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"; check "CA certificates" $?
cmp -s /usr/share/zoneinfo/Europe/Paris "$rootfs/usr/share/zoneinfo/Europe/Paris"; check "tzdata" $?
grep -qx 'fitz:x:65532:65532:fitz:/app:/sbin/nologin' "$rootfs/etc/passwd"; check "passwd entry: $(cat "$rootfs/etc/passwd")" $?
grep -qx 'fitz:x:65532:' "$rootfs/etc/group"; check "group entry: $(cat "$rootfs/etc/group")" $?
[[ $(cat "$rootfs/app/static/hello.txt" 2>&1) == "hello from static" ]]; check "the static folder is in /app" $?
[[ $(stat -c %a "$rootfs/tmp") == 1777 ]]; check "/tmp is 1777" $?

run_image "$bundle" todo
json=(-H 'Content-Type: application/json')
req GET /todos; expect "todo-api from its image: empty list" 200 '[]'
req POST /todos "${json[@]}" -H 'Authorization: Bearer dev' -d '{"title":"ship it"}'
expect "todo-api from its image: create" 201 '{"id":1,"title":"ship it","done":false,"tags":[]}'
req GET /todos/1; expect "todo-api from its image: read" 200 '{"id":1,"title":"ship it","done":false,"tags":[]}'
stop "todo-api from its image"

# Building the same tag again replaces it: still one image of one layer, old blobs collected.
blobs_before=$(ls "$todo_img/blobs/sha256" | wc -l)
out=$("$fitz" deploy image "$work/todo-api" --tag e2e --out "$todo_img" 2>&1); rc=$?
read -r _ again_layers < <(layer_bytes "$todo_img" e2e)
blobs_after=$(ls "$todo_img/blobs/sha256" | wc -l)
[[ $rc == 0 && $again_layers == 1 && $blobs_after == "$blobs_before" ]]
check "rebuilding a tag replaces it (rc $rc, $again_layers layer(s), blobs $blobs_before -> $blobs_after): $out" $?

# ---- rootless: the same image built by an ordinary user -----------------------------------
# umoci then runs with --rootless and records the caller's files as root's. The build needs
# the fitz binary and runtime to be readable by that user; a tree under a private home is not.
rootless="not checked: $fitz is not runnable by uid 65534"
as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$work/nobody" FITZ_CACHE_DIR="$work/nobody/cache")
chmod 755 "$work"
mkdir -p "$work/nobody"
chown -R 65534:65534 "$work/nobody" "$work/todo-api"
if "${as_nobody[@]}" "$fitz" --version >/dev/null 2>&1; then
  out=$("${as_nobody[@]}" "$fitz" deploy image "$work/todo-api" --tag rootless --out "$work/nobody/img" 2>&1); rc=$?
  check "fitz deploy image as uid 65534 (rc $rc): $out" $rc
  python3 - "$work/nobody/img" rootless <<'EOF' 2>"$work/rootless.err"
import json, os, sys, tarfile
layout, tag = sys.argv[1], sys.argv[2]
blob = lambda d: os.path.join(layout, "blobs", *d.split(":"))
index = json.load(open(os.path.join(layout, "index.json")))
ref = [m for m in index["manifests"] if m["annotations"]["org.opencontainers.image.ref.name"] == tag][0]
manifest = json.load(open(blob(ref["digest"])))
config = json.load(open(blob(manifest["config"]["digest"])))["config"]
assert config["User"] == "65532:65532" and config["Entrypoint"] == ["/app/todo-api"], config
names = set()
with tarfile.open(blob(manifest["layers"][0]["digest"])) as t:
    for m in t.getmembers():
        assert (m.uid, m.gid) == (0, 0), f"{m.name} owned by {m.uid}:{m.gid}"
        names.add(m.name.lstrip("./"))
assert "app/todo-api" in names and "etc/passwd" in names, sorted(names)[:20]
EOF
  check "the rootless image: files owned by root, same config: $(cat "$work/rootless.err")" $?
  rootless="checked"
fi

# ---- users-api: the size that matters, and its TLS/Postgres libraries load ---------------
users_img=$work/users-img
out=$("$fitz" deploy image "$root/examples/users-api" --tag e2e --out "$users_img" 2>&1); rc=$?
[[ $rc == 0 && $out == "image users-api:e2e written to $users_img (port 8080, user 65532, "* ]]
check "fitz deploy image users-api (rc $rc): $out" $?
cfg=$(skopeo inspect --config "oci:$users_img:e2e" 2>&1)
python3 - "$cfg" <<'EOF' 2>"$work/config.err"
import json, sys
c = json.loads(sys.argv[1])["config"]
assert list(c["ExposedPorts"]) == ["8080/tcp"] and "PORT=8080" in c["Env"], c
assert c["Entrypoint"] == ["/app/users-api"] and c["User"] == "65532:65532", c
EOF
check "users-api config: port 8080 from @server: $(cat "$work/config.err")" $?
read -r users_bytes _ < <(layer_bytes "$users_img" e2e)
[[ $users_bytes -gt 0 && $users_bytes -lt $size_limit ]]
check "users-api image under $size_limit bytes compressed ($users_bytes)" $?
ubundle=$work/users-bundle
out=$(umoci unpack --image "$users_img:e2e" "$ubundle" 2>&1); check "umoci unpack users-api: $out" $?
# No database here: the service starts anyway, answers /healthz, and reports the database.
run_image "$ubundle" users DATABASE_URL=postgres://postgres@127.0.0.1:1/none
req GET /healthz; expect "users-api from its image: healthz" 200 '{"status":"ok"}'
req GET /users; [[ $body == '{"error":"database unavailable"}' ]]; check "users-api from its image reaches for Postgres: $status $body" $?
stop "users-api from its image"

echo "e2e deploy-image: $pass passed, $fail failed; users-api image $users_bytes bytes compressed" \
  "(limit $size_limit), todo-api $todo_bytes; rootless build $rootless; $((SECONDS - started)) s"
[[ $fail == 0 ]]
