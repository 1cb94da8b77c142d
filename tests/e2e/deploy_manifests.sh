#!/usr/bin/env bash
# End-to-end `fitz deploy k8s` and `fitz deploy compose`, with no cluster and no container
# engine: manifests for examples/users-api (a database service; a copy with a migrations/ folder
# too) and tests/e2e/ws/service.fitz (WebSocket endpoints; a copy with a shutdown timeout).
# Key facts are asserted on the parsed YAML (probe paths, grace period, secretKeyRef, replicas,
# FITZ_WS_PUBSUB only with WebSockets, the migration Job only with migrations); every Kubernetes
# object is validated against the API schemas with kubernetes-models (tests/deploy, installed
# with `npm ci` from its lockfile), every compose file with `docker-compose config` and every
# load balancer configuration with `haproxy -c`. Prints a one-line summary.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
fitz=$(realpath "${1:-$root/build/bin/fitz}")
pkg=$root/tests/deploy
started=$SECONDS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export FITZ_CACHE_DIR=$work/cache
pass=0 fail=0 objects=0 composes=0
check() {  # description, condition-result
  if [[ $2 == 0 ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED e2e deploy-manifests: $1"; fi
}

for tool in node npm python3 docker-compose haproxy; do
  command -v "$tool" >/dev/null; check "$tool is installed (scripts/install-deps.sh)" $?
done
python3 -c 'import yaml' 2>/dev/null; check "python3-yaml is installed (docker-compose brings it)" $?

# ---- the schema validator's packages, from the lockfile ---------------------------------------
stamp_file=$pkg/node_modules/.fitz-install-stamp
stamp="$(sha256sum "$pkg/package-lock.json" | cut -d' ' -f1) node-$(node --version) npm-$(npm --version)"
if [[ ! -f $stamp_file || "$(cat "$stamp_file")" != "$stamp" ]]; then
  out=$(cd "$pkg" && npm ci --no-audit --no-fund --loglevel=error 2>&1); rc=$?
  check "npm ci in tests/deploy: $out" $rc
  [[ $rc == 0 ]] && printf '%s\n' "$stamp" >"$stamp_file"
fi

# yaml_to_json OUT FILE...: every YAML document of the files as one JSON array (PyYAML reads
# them, not fitz's own writer).
yaml_to_json() {
  local out=$1
  shift
  python3 - "$out" "$@" <<'PY'
import json, sys, yaml
docs = [d for f in sys.argv[2:] for d in yaml.safe_load_all(open(f)) if d is not None]
json.dump(docs, open(sys.argv[1], "w"))
PY
}

# validate_k8s NAME JSON: kubernetes-models validates every object of the array.
validate_k8s() {
  local out rc
  out=$(node "$pkg/validate.mjs" "$2" 2>&1); rc=$?
  check "$1: kubernetes-models validates every object: $out" $rc
  objects=$((objects + $(grep -c '^valid: ' <<<"$out")))
}

# facts JSON SCRIPT: runs python assertions over the objects `o` (a list) with helpers; prints
# the failed assertion.
facts() {
  python3 - "$1" "$2" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
kinds = [x["kind"] for x in o]
def one(kind):
    xs = [x for x in o if x["kind"] == kind]
    assert len(xs) == 1, f"{len(xs)} {kind} in {kinds}"
    return xs[0]
def container(kind="Deployment"):
    return one(kind)["spec"]["template"]["spec"]["containers"][0]
def env(c):
    return {e["name"]: e for e in c.get("env", [])}
exec(sys.argv[2])
PY
}

# ---- usage and errors ---------------------------------------------------------------------
out=$("$fitz" deploy --help 2>&1); rc=$?
[[ $rc == 0 && $out == *"k8s [PATH]"* && $out == *"compose [PATH]"* ]]; check "fitz deploy --help lists k8s and compose (rc $rc): $out" $?
for t in k8s compose; do
  out=$("$fitz" deploy $t --help 2>&1); rc=$?
  [[ $rc == 0 && $out == *"--replicas N"* && $out == *"--out DIR"* && $out == *"--image REF"* ]]
  check "fitz deploy $t --help (rc $rc): $out" $?
  out=$("$fitz" deploy $t "$root/examples/users-api" --replicas 0 2>&1); rc=$?
  [[ $rc == 2 && $out == *"--replicas"*"1 to 1000"* ]]; check "$t: --replicas 0 is a usage error (rc $rc): $out" $?
  out=$("$fitz" deploy $t "$root/examples/users-api" --replicas x 2>&1); rc=$?
  [[ $rc == 2 ]]; check "$t: --replicas x is a usage error (rc $rc): $out" $?
  out=$("$fitz" deploy $t "$root/examples/hello/main.fitz" --out "$work/hello-$t" 2>&1); rc=$?
  [[ $rc == 1 && $out == *"is not a service"* && ! -e $work/hello-$t ]]; check "$t: a program that serves nothing is refused (rc $rc): $out" $?
  out=$("$fitz" deploy $t "$root/examples/hello/broken.fitz" 2>&1); rc=$?
  [[ $rc == 1 && $out == *"error"* ]]; check "$t: a program with errors is refused (rc $rc): $out" $?
done

# The validator itself must refuse a bad object, or a pass above would prove nothing.
cat >"$work/bad.json" <<'JSON'
[{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "x"},
  "spec": {"replicas": "two", "selector": {"matchLabels": {"a": "b"}},
           "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "x", "image": "x"}]}}}}]
JSON
out=$(node "$pkg/validate.mjs" "$work/bad.json" 2>&1); rc=$?
[[ $rc == 1 && $out == *"replicas must be integer"* ]]; check "the validator refuses replicas: \"two\" (rc $rc): $out" $?

# ---- Kubernetes: users-api (database, no WebSockets, no migrations) -------------------------
"$fitz" deploy k8s "$root/examples/users-api" >"$work/users.yaml" 2>"$work/users.err"
check "fitz deploy k8s users-api to standard output: $(cat "$work/users.err")" $?
yaml_to_json "$work/users.json" "$work/users.yaml"; check "users-api manifests parse as YAML" $?
validate_k8s users-api "$work/users.json"
out=$(facts "$work/users.json" '
assert kinds == ["Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"], kinds
d = one("Deployment"); c = container(); e = env(c); pod = d["spec"]["template"]["spec"]
assert d["spec"]["replicas"] == 2, d["spec"]["replicas"]
assert c["image"] == "users-api:0.1.0", c["image"]
assert c["readinessProbe"]["httpGet"]["path"] == "/readyz", c["readinessProbe"]
assert c["livenessProbe"]["httpGet"]["path"] == "/healthz", c["livenessProbe"]
assert c["ports"] == [{"name": "http", "containerPort": 8080, "protocol": "TCP"}], c["ports"]
assert e["PORT"]["value"] == "8080" and e["HOST"]["value"] == "0.0.0.0", e
# 5 s preStop + 2 s drain + the runtime default shutdown timeout of 30 s + 5 s margin
assert pod["terminationGracePeriodSeconds"] == 42, pod["terminationGracePeriodSeconds"]
assert c["lifecycle"]["preStop"] == {"sleep": {"seconds": 5}}, c["lifecycle"]
assert pod["securityContext"]["runAsUser"] == 65532 and pod["securityContext"]["runAsNonRoot"] is True
assert e["DATABASE_URL"]["valueFrom"]["secretKeyRef"] == {"name": "users-api-secrets", "key": "database-url"}, e
assert e["FITZ_SECRET_KEY"]["valueFrom"]["secretKeyRef"] == {"name": "users-api-secrets", "key": "secret-key"}, e
assert "FITZ_WS_PUBSUB" not in e, e
assert c["resources"]["requests"]["cpu"] and c["resources"]["limits"]["memory"], c["resources"]
s = one("Service"); assert s["spec"]["ports"][0]["targetPort"] == "http" and s["spec"]["selector"] == d["spec"]["selector"]["matchLabels"]
h = one("HorizontalPodAutoscaler"); assert h["spec"]["minReplicas"] == 2 and h["spec"]["scaleTargetRef"]["name"] == "users-api", h
assert h["spec"]["metrics"][0]["resource"]["name"] == "cpu", h
p = one("PodDisruptionBudget"); assert p["spec"]["selector"] == d["spec"]["selector"], p
' 2>&1); check "users-api Kubernetes facts: $out" $?

# A copy with a migration file, written one file per object, with options.
cp -r "$root/examples/users-api" "$work/users-mig"
mkdir -p "$work/users-mig/migrations"
printf -- '-- UP\nCREATE TABLE t (id bigint);\n-- DOWN\nDROP TABLE t;\n' >"$work/users-mig/migrations/20261201000000_t.sql"
out=$("$fitz" deploy k8s "$work/users-mig" --out "$work/users-mig-k8s" --replicas 3 --image registry.example/users:1.2 2>&1); rc=$?
[[ $rc == 0 && $out == "5 Kubernetes manifests for registry.example/users:1.2 written to $work/users-mig-k8s"* ]]
check "fitz deploy k8s --out with migrations (rc $rc): $out" $?
files=$(cd "$work/users-mig-k8s" 2>/dev/null && ls | tr '\n' ' ')
[[ $files == "deployment.yaml hpa.yaml migrate-job.yaml pdb.yaml service.yaml " ]]; check "one file per object: $files" $?
yaml_to_json "$work/users-mig.json" "$work/users-mig-k8s"/*.yaml; check "users-api (migrations) manifests parse as YAML" $?
validate_k8s users-api-migrations "$work/users-mig.json"
out=$(facts "$work/users-mig.json" '
d = one("Deployment"); c = container(); j = one("Job"); jc = container("Job")
assert d["spec"]["replicas"] == 3 and one("HorizontalPodAutoscaler")["spec"]["minReplicas"] == 3
assert c["image"] == jc["image"] == "registry.example/users:1.2", (c["image"], jc["image"])
assert jc["args"] == ["migrate"], jc
assert j["metadata"]["name"] == "users-api-migrate-1-2", j["metadata"]
assert j["spec"]["template"]["spec"]["restartPolicy"] == "Never" and j["spec"]["activeDeadlineSeconds"] == 600, j["spec"]
assert env(jc)["DATABASE_URL"]["valueFrom"]["secretKeyRef"]["key"] == "database-url", jc
' 2>&1); check "users-api (migrations): the Job runs migrate from the same image: $out" $?

# An image by digest from a registry with a port: quoted in the YAML, the Job named by the digest.
digest=sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
"$fitz" deploy k8s "$work/users-mig" --image "registry.example:5000/team/users@$digest" >"$work/digest.yaml" 2>"$work/digest.err"
check "fitz deploy k8s --image by digest: $(cat "$work/digest.err")" $?
yaml_to_json "$work/digest.json" "$work/digest.yaml"
validate_k8s users-api-digest "$work/digest.json"
out=$(facts "$work/digest.json" '
assert container()["image"] == container("Job")["image"] == "registry.example:5000/team/users@'"$digest"'", container()["image"]
assert one("Job")["metadata"]["name"] == "users-api-migrate-0123456789ab", one("Job")["metadata"]
assert kinds[0] == "Job", kinds
' 2>&1); check "users-api by digest: $out" $?

# ---- Kubernetes: the WebSocket service, and one with a shutdown timeout --------------------
ws=$root/tests/e2e/ws/service.fitz
"$fitz" deploy k8s "$ws" --replicas 1 >"$work/ws.yaml" 2>"$work/ws.err"; check "fitz deploy k8s ws: $(cat "$work/ws.err")" $?
yaml_to_json "$work/ws.json" "$work/ws.yaml"; check "ws manifests parse as YAML" $?
validate_k8s ws "$work/ws.json"
out=$(facts "$work/ws.json" '
c = container(); e = env(c)
assert e["FITZ_WS_PUBSUB"]["value"] == "postgres", e
assert c["ports"][0]["containerPort"] == 3000, c["ports"]
assert one("Deployment")["spec"]["replicas"] == 1
assert "Job" not in kinds, kinds
' 2>&1); check "ws Kubernetes facts (FITZ_WS_PUBSUB=postgres): $out" $?
mkdir -p "$work/ws-slow"
sed 's/@server(port=3000, ws_heartbeat_secs=30)/@server(port=3001, ws_heartbeat_secs=30, shutdown_timeout_secs=50)/' "$ws" >"$work/ws-slow/service.fitz"
grep -q 'shutdown_timeout_secs=50' "$work/ws-slow/service.fitz"; check "the ws copy sets shutdown_timeout_secs" $?
"$fitz" deploy k8s "$work/ws-slow/service.fitz" >"$work/ws-slow.yaml" 2>"$work/ws-slow.err"; check "fitz deploy k8s ws-slow: $(cat "$work/ws-slow.err")" $?
yaml_to_json "$work/ws-slow.json" "$work/ws-slow.yaml"
validate_k8s ws-slow "$work/ws-slow.json"
out=$(facts "$work/ws-slow.json" '
pod = one("Deployment")["spec"]["template"]["spec"]
assert pod["terminationGracePeriodSeconds"] == 5 + 2 + 50 + 5, pod["terminationGracePeriodSeconds"]
assert container()["ports"][0]["containerPort"] == 3001
' 2>&1); check "the grace period follows @server(shutdown_timeout_secs=50): $out" $?

# Notes on standard error only: cron jobs in every replica, and a custom liveness check.
"$fitz" deploy k8s "$root/tests/e2e/jobs/service.fitz" >"$work/jobs.yaml" 2>"$work/jobs.err"; rc=$?
yaml_to_json "$work/jobs.json" "$work/jobs.yaml"; rc2=$?
[[ $rc == 0 && $rc2 == 0 && $(cat "$work/jobs.err") == *"every replica runs the 1 \`@cron\` job(s)"* ]]
check "a cron service: a note on stderr, clean YAML on stdout (rc $rc/$rc2): $(cat "$work/jobs.err")" $?
out=$("$fitz" deploy k8s "$root/tests/e2e/jobs/service.fitz" --replicas 1 2>&1 >/dev/null); rc=$?
[[ $rc == 0 && -z $out ]]; check "one replica: no cron note (rc $rc): $out" $?
out=$("$fitz" deploy k8s "$root/tests/e2e/http/features.fitz" 2>&1 >/dev/null); rc=$?
[[ $rc == 0 && $out == *"\`@healthz\` is the liveness probe"* ]]; check "@healthz: a note on the liveness probe (rc $rc): $out" $?
out=$("$fitz" deploy k8s "$root/examples/users-api" 2>&1 >/dev/null); rc=$?
[[ $rc == 0 && -z $out ]]; check "users-api: no notes (rc $rc): $out" $?

# ---- Compose ------------------------------------------------------------------------------
# compose_case NAME PATH REPLICAS PORT WS MIGRATIONS: writes the project, has docker-compose
# and haproxy check it, and asserts its facts on `docker-compose config`'s normalised output.
compose_case() {
  local name=$1 path=$2 replicas=$3 port=$4 ws=$5 mig=$6 dir=$work/compose-$1 out rc
  out=$("$fitz" deploy compose "$path" --out "$dir" --replicas "$replicas" 2>&1); rc=$?
  [[ $rc == 0 && $out == "compose project for "*" written to $dir ($replicas replicas behind haproxy on port $port"* ]]
  check "fitz deploy compose $name (rc $rc): $out" $?
  for f in docker-compose.yml haproxy.cfg .env.example; do [[ -s $dir/$f ]]; check "compose $name wrote $f" $?; done
  out=$(cd "$dir" && env -u POSTGRES_PASSWORD -u FITZ_SECRET_KEY docker-compose config 2>&1); rc=$?
  [[ $rc != 0 && $out == *"POSTGRES_PASSWORD"* ]]; check "compose $name: config refuses to run without the secrets (rc $rc): $out" $?
  (cd "$dir" && POSTGRES_PASSWORD=pw FITZ_SECRET_KEY=sk docker-compose config >"$work/$name-config.yml" 2>"$work/$name-config.err")
  check "compose $name: docker-compose config accepts it: $(cat "$work/$name-config.err")" $?
  composes=$((composes + 1))
  out=$(haproxy -c -f "$dir/haproxy.cfg" 2>&1); rc=$?
  [[ $rc == 0 && $out == *"Configuration file is valid"* ]]; check "compose $name: haproxy -c accepts haproxy.cfg (rc $rc): $out" $?
  out=$(python3 - "$work/$name-config.yml" "$dir/haproxy.cfg" "$replicas" "$port" "$ws" "$mig" <<'PY' 2>&1
import re, sys, yaml
c = yaml.safe_load(open(sys.argv[1])); cfg = open(sys.argv[2]).read()
n, port, ws, mig = int(sys.argv[3]), sys.argv[4], sys.argv[5] == "1", sys.argv[6] == "1"
s = c["services"]
apps = sorted(k for k in s if re.fullmatch(r".+-\d+", k))
assert len(apps) == n, apps
db = s["db"]
assert db["image"] == "postgres:15" and db["healthcheck"]["test"][:2] == ["CMD", "pg_isready"], db
assert any("/var/lib/postgresql/data" in str(v) for v in db["volumes"]) and "pgdata" in c["volumes"], db
assert ("migrate" in s) == mig, list(s)
if mig:
    assert s["migrate"]["command"] == ["migrate"] and s["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"
for a in apps:
    e = s[a]["environment"]
    assert e["DATABASE_URL"] == "postgres://fitz:pw@db:5432/" + s["db"]["environment"]["POSTGRES_DB"], e
    assert e["FITZ_SECRET_KEY"] == "sk" and e["PORT"] == port, e
    assert ("FITZ_WS_PUBSUB" in e) == ws, e
    assert s[a]["depends_on"]["db"]["condition"] == "service_healthy", s[a]["depends_on"]
    if mig:
        assert s[a]["depends_on"]["migrate"]["condition"] == "service_completed_successfully", s[a]["depends_on"]
lb = s["lb"]
assert lb["image"] == "haproxy:2.6" and sorted(lb["depends_on"]) == apps, lb
assert any(str(p.get("target", p)).startswith(port) or str(p).startswith(port) for p in lb["ports"]), lb["ports"]
assert "http-check send meth GET uri /readyz" in cfg and f"bind :{port}" in cfg, cfg
servers = re.findall(r"^\s*server (\S+) (\S+):(\d+)", cfg, re.M)
assert sorted(x[0] for x in servers) == apps and all(x[2] == port for x in servers), servers
assert ("timeout tunnel" in cfg) == ws, cfg
PY
); check "compose $name facts: $out" $?
}
compose_case users "$root/examples/users-api" 2 8080 0 0
compose_case users-mig "$work/users-mig" 3 8080 0 1
compose_case ws "$ws" 4 3000 1 0

echo "e2e deploy-manifests: $pass passed, $fail failed; $objects Kubernetes objects valid," \
  "$composes compose projects valid; $((SECONDS - started)) s"
[[ $fail == 0 ]]
