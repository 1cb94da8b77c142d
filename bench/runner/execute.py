"""Runs the suites: for each implementation, one at a time, a fresh database, the server in its
own process, a warm-up that is discarded, N iterations of each phase with fitz-loadgen, the
median reported; pgbench for the database ceiling; cooldown and a clean shutdown between."""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from . import database, procs
from .impls import Unavailable
from .suites import QUICK_PHASE_SECONDS


class Context:
    def __init__(self, args, admin_url, work):
        self.fitz = args.fitz
        self.build = args.build
        self.loadgen = os.path.join(args.build, "bin", "fitz-loadgen")
        self.quick = args.quick
        self.iterations = 1 if args.quick else args.iterations
        self.warmup = 0.1 if args.quick else args.warmup
        self.cooldown = 0.05 if args.quick else 2.0
        self.scale = args.scale
        self.cores = os.cpu_count() or 1
        self.admin_url = admin_url
        self.work = work
        self.run_tag = str(int(time.time()))
        self.started = time.monotonic()


def log(ctx, msg):
    print(f"[{time.monotonic() - ctx.started:7.1f}s] {msg}", flush=True)


def run_loadgen(ctx, scenario: dict, port: int, label: str, seconds_hint: float) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".json", dir=ctx.work, delete=False) as f:
        json.dump(scenario, f)
        path = f.name
    out = path + ".out"
    argv = [ctx.loadgen, "--scenario", path, "--url", f"http://127.0.0.1:{port}", "--json", out,
            "--var", f"run={ctx.run_tag}{os.getpid()}{int(time.monotonic() * 1000) % 100000}",
            "--threads", "1", "--max-error-rate", "1"]
    live = sys.stdout.isatty()
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True)
    for line in proc.stderr:
        line = line.rstrip()
        if live and line.startswith("["):  # live progress: elapsed, connections, req/s
            print(f"\r  {label}: {line[:70]:<70}", end="", flush=True)
    proc.wait()
    if live:
        print("\r" + " " * 100 + "\r", end="")
    if proc.returncode not in (0, 1) or not os.path.exists(out):
        raise RuntimeError(f"fitz-loadgen failed (exit {proc.returncode})")
    with open(out) as f:
        return json.load(f)


def pgbench(ctx, db_url: str, script: str, connections: int, seconds: float) -> float:
    path = os.path.join(ctx.work, "pgbench.sql")
    with open(path, "w") as f:
        f.write(script)
    r = subprocess.run(["pgbench", "-n", "-M", "prepared", "-c", str(connections), "-j", str(min(connections, ctx.cores)),
                        "-T", str(max(1, int(seconds))), "-f", path, db_url], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if line.startswith("tps ="):
            return float(line.split()[2])
    raise RuntimeError("pgbench failed: " + (r.stderr.strip() or r.stdout.strip())[:300])


def start_ws_clients(ctx, phase, port: int) -> list:
    """The phase's WebSocket clients (tests/ws/ws_client.cpp): readers read until closed,
    stalled ones sleep without reading."""
    if not phase.ws_clients:
        return []
    client = os.path.join(ctx.build, "bin", "fitz_ws_client")
    if not os.path.exists(client):
        raise RuntimeError(f"{client} is missing (run `make`)")
    spec, procs_ = phase.ws_clients, []
    hold_ms = str(3_600_000)  # longer than any phase: stop_ws_clients ends them
    for _ in range(spec.get("reading", 0)):
        procs_.append(subprocess.Popen([client, str(port), spec["path"], "closed"], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL))
    for _ in range(spec.get("stalled", 0)):
        procs_.append(subprocess.Popen([client, str(port), spec["path"], "sleep:" + hold_ms], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL))
    time.sleep(0.5)  # connected before the load starts
    return procs_


def stop_ws_clients(side: list):
    for p in side:
        p.kill()
    for p in side:
        p.wait()


def error_rate(res: dict) -> float:
    attempts = sum(e["requests"] + e["errors"] + e["timeouts"] for e in res["endpoints"])
    return res["failures"] / attempts if attempts else 1.0


def summarize_iterations(iters: list) -> dict:
    """The iteration with the median throughput, plus the spread."""
    ordered = sorted(iters, key=lambda r: r["rps"])
    med = ordered[len(ordered) // 2]
    return {"median": med, "rps_all": [r["rps"] for r in iters], "rps_median": statistics.median(r["rps"] for r in iters)}


def run_impl_suite(ctx, suite, impl) -> dict:
    dbname = f"bench_{suite.name}_{impl.name}".replace("-", "_")
    db_url = database.fresh(ctx.admin_url, dbname, suite.users, suite.posts_max)
    port = procs.free_port()
    argv, env, cwd = impl.command(ctx, port, db_url)
    server = procs.Server(impl.name, argv, env, cwd, port, log_path=os.path.join(ctx.work, f"{suite.name}-{impl.name}.log"))
    result = {"impl": impl.name, "phases": {}}
    side = []
    try:
        server.start()
        result["cold_start_ms"] = round(server.cold_start_ms, 1)
        result["idle_rss_mb"] = round(procs.rss_kb(procs.tree(server.proc.pid)) / 1024, 2)
        log(ctx, f"{suite.name} / {impl.name}: up in {server.cold_start_ms:.0f} ms")
        for phase in suite.phases:
            if phase.only and impl.name not in phase.only:
                continue
            side = start_ws_clients(ctx, phase, port)
            if suite.reseed:
                database.reseed(db_url, suite.users, suite.posts_max)
            if ctx.warmup > 0:
                run_loadgen(ctx, phase.scenario(ctx.quick, seconds_override=ctx.warmup), port,
                            f"{impl.name} {phase.name} warm-up", ctx.warmup)
            iters, t0 = [], server.mark()
            for i in range(ctx.iterations):
                label = f"{suite.name} / {impl.name} / {phase.name} #{i + 1}"
                if suite.reseed:
                    database.reseed(db_url, suite.users, suite.posts_max)
                cpu0 = procs.cpu_seconds(procs.tree(server.proc.pid))
                res = run_loadgen(ctx, phase.scenario(ctx.quick, scale=ctx.scale), port, label, 0)
                # Server CPU per answered request: unlike throughput, it barely moves when other
                # processes share the machine, so it is the steadier comparison on a busy host.
                cpu = procs.cpu_seconds(procs.tree(server.proc.pid)) - cpu0
                res["server_cpu_us_per_request"] = round(1e6 * cpu / res["requests"], 2) if res["requests"] else None
                iters.append(res)
                time.sleep(ctx.cooldown / 4)
            t1 = server.mark()
            stop_ws_clients(side)
            side = []
            s = summarize_iterations(iters)
            rate = max(error_rate(r) for r in iters)
            entry = {"rps": round(s["rps_median"], 1), "rps_all": [round(x, 1) for x in s["rps_all"]],
                     "latency_ms": s["median"]["latency_ms"], "endpoints": s["median"]["endpoints"],
                     "per_second": s["median"]["per_second"], "error_rate": rate,
                     "cpu_us_per_request": statistics.median(
                         [r["server_cpu_us_per_request"] for r in iters if r.get("server_cpu_us_per_request")] or [0]),
                     "peak_rss_mb": server.peak_rss_mb(t0), "window": [round(t0, 2), round(t1, 2)]}
            if any(r["requests"] + r["failures"] == 0 for r in iters):
                entry["refused"] = "no request completed within the measured window"
            elif rate > 0.001:
                entry["refused"] = f"{100 * rate:.2f}% of requests failed (above 0.1%)"
                bad = {e["name"]: {k: e[k] for k in ("status", "errors", "timeouts")} for e in s["median"]["endpoints"]}
                print(f"  REFUSED {suite.name} / {impl.name} / {phase.name}: {entry['refused']}: {json.dumps(bad)}")
            log(ctx, f"{suite.name} / {impl.name} / {phase.name}: {entry['rps']:.0f} req/s, "
                     f"p50 {entry['latency_ms']['p50']:.2f} ms, p99 {entry['latency_ms']['p99']:.2f} ms"
                     + (f"  [{entry['refused']}]" if "refused" in entry else ""))
            if phase.pgbench and impl.name == suite.impls[0]:
                secs = QUICK_PHASE_SECONDS if ctx.quick else max(1.0, phase.seconds * ctx.scale)
                entry["pgbench_tps"] = round(pgbench(ctx, db_url, phase.pgbench, phase.connections, secs), 1)
                log(ctx, f"{suite.name} / pgbench / {phase.name}: {entry['pgbench_tps']:.0f} tps")
            result["phases"][phase.name] = entry
            time.sleep(ctx.cooldown)
    except (RuntimeError, subprocess.CalledProcessError) as e:
        result["error"] = str(e)
        log(ctx, f"{suite.name} / {impl.name}: FAILED: {e}")
    finally:
        stop_ws_clients(side)
        server.stop()
        result["rss_series"] = server.samples
        result["peak_rss_mb"] = server.peak_rss_mb()
        database.drop(ctx.admin_url, dbname)
    return result


def run_all(ctx, suites, impls) -> dict:
    prepared = {}
    for impl in impls:
        try:
            impl.prepare(ctx)
            prepared[impl.name] = {"label": impl.label, "note": impl.note, "size_bytes": impl.size_bytes(ctx)}
            log(ctx, f"ready: {impl.label}")
        except Unavailable as e:
            prepared[impl.name] = {"label": impl.label, "unavailable": str(e)}
            log(ctx, f"unavailable: {impl.label}: {e}")
    results = {"implementations": prepared, "suites": {}}
    for suite in suites:
        log(ctx, f"suite {suite.name}: {suite.title}")
        suite_res = {"title": suite.title, "description": suite.description, "results": {}}
        for impl in impls:
            if impl.name not in suite.impls or "unavailable" in prepared[impl.name]:
                continue
            suite_res["results"][impl.name] = run_impl_suite(ctx, suite, impl)
        results["suites"][suite.name] = suite_res
    return results


def refused_runs(results) -> list:
    out = []
    for sname, s in results["suites"].items():
        for iname, r in s["results"].items():
            if "error" in r:
                out.append(f"{sname}/{iname}: {r['error']}")
            for pname, p in r["phases"].items():
                if "refused" in p:
                    out.append(f"{sname}/{iname}/{pname}: {p['refused']}")
    return out

