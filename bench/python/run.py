#!/usr/bin/env python3
"""The costs of Python interop, each a ratio against a peer measured in the same run:

  1. call: a trivial Python function called from sync Fitz code (call.fitz: an Int and a Str
     converted in, the Int converted back) over the same call timed by Python's timeit;
  2. pool hop: a sync handler calling that function (handed to the Python worker pool) against
     one that does not (hop.fitz), in server CPU per request and p50 latency, 10 connections;
  3. service: `GET /users/{id}` at 10 connections, requests per CPU-second of the Fitz + Python
     + SQLAlchemy service (bench/apps/fitz-python) over Flask + SQLAlchemy under gunicorn.

  bench/python/run.py [--build DIR] [--seconds S] [--calls N] [--runs R]
Uses the `fitz bench` runner (bench/runner/) and its database (DATABASE_URL or scripts/pg-local.sh).
Prints a Markdown report; the targets of the interop (issue-level: call <= 3x, service >= 1.5x)
are stated beside the numbers, never asserted.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)

from runner import execute, impls, suites  # noqa: E402

PY = impls.SYSTEM_PYTHON


def call_cost(ctx, args) -> dict:
    """Nanoseconds per call from Fitz and from Python, alternating runs; the best of each, as
    timeit itself reports (on a shared machine the slow runs measure the neighbours)."""
    binary = os.path.join(ctx.work, "call")
    subprocess.run([ctx.fitz, "build", os.path.join(HERE, "call.fitz"), "-o", binary], check=True, capture_output=True)
    env = dict(os.environ, CALLS=str(args.calls), FITZ_PROJECT_DIR=HERE)
    timeit = ("import timeit, trivial; s = 'hello'; "
              f"print(min(timeit.repeat('f(1, s)', globals={{'f': trivial.f, 's': s}}, number={args.calls}, repeat=3)) "
              f"* 1e9 / {args.calls})")
    fitz_ns, py_ns = [], []
    for _ in range(max(args.runs, 5)):
        fitz_ns.append(float(subprocess.run([binary], env=env, check=True, capture_output=True, text=True).stdout.split()[0]))
        py_ns.append(float(subprocess.run([PY, "-c", timeit], cwd=os.path.join(HERE, "python"), check=True,
                                          capture_output=True, text=True).stdout))
    return {"fitz_ns": min(fitz_ns), "python_ns": min(py_ns), "runs": len(fitz_ns)}


class HopApp(impls.Fitz):
    """hop.fitz, which finds python/trivial.py through this folder."""

    def __init__(self):
        super().__init__("fitz-hop", "Fitz handlers with and without a Python call", "..", "bench/python/hop.fitz")

    def prepare(self, ctx):
        self.binary = os.path.join(ctx.work, "hop")
        subprocess.run([ctx.fitz, "build", os.path.join(HERE, "hop.fitz"), "-o", self.binary], check=True,
                       capture_output=True)

    def command(self, ctx, port, db_url):
        argv, env, cwd = super().command(ctx, port, db_url)
        env["FITZ_PROJECT_DIR"] = HERE
        return argv, env, cwd


def load_suites(seconds):
    hop = suites.Suite("pyinterop_hop", "pool hop", ["fitz-hop"], 0, 0, [
        suites.Phase("native", [suites.ep("native", "/native/{rand:1:50}", expect=200)], seconds=seconds),
        suites.Phase("python", [suites.ep("python", "/python/{rand:1:50}", expect=200)], seconds=seconds),
    ], "")
    # Its own suite name, so its databases are its own on a shared server.
    users = suites.Suite("pyinterop_users", "GET /users/{id}", ["fitz-python", "python"], 50, 0, [
        suites.Phase("GET /users/{id}", [suites.ep("GET /users/{id}", "/users/{rand:1:50}", expect=200)], seconds=seconds),
    ], "")
    return hop, users


def phase(results, suite, impl, name):
    return results["suites"][suite]["results"].get(impl, {}).get("phases", {}).get(name) or {}


def report(call, results):
    out = ["# Python interop costs", ""]
    ratio = call["fitz_ns"] / call["python_ns"]
    out += ["## A trivial Python function called from sync Fitz code", "",
            "`trivial.f(i, \"hello\")` with the Int result converted back (call.fitz) against `f(1, s)` under "
            f"Python's timeit; the best of {call['runs']} alternating runs each.", "",
            "| from Fitz (ns/call) | from Python (ns/call) | Fitz / Python | target |", "|---|---|---|---|",
            f"| {call['fitz_ns']:.1f} | {call['python_ns']:.1f} | {ratio:.2f}x | ≤ 3x: {'met' if ratio <= 3 else '**missed**'} |", ""]
    nat, py = phase(results, "pyinterop_hop", "fitz-hop", "native"), phase(results, "pyinterop_hop", "fitz-hop", "python")
    if nat.get("cpu_us_per_request") and py.get("cpu_us_per_request"):
        extra = py["cpu_us_per_request"] - nat["cpu_us_per_request"]
        hop = extra - call["fitz_ns"] / 1000
        out += ["## The pool hop of a handler that calls Python", "",
                "Two sync handlers (hop.fitz), one calling the trivial function, 10 connections; server CPU per "
                "request of the whole process, median iteration. The hop is the extra CPU less the call itself "
                "(measured above).", "",
                "| handler | req/s | p50 (ms) | p99 (ms) | CPU per request (µs) |", "|---|---|---|---|---|"]
        for label, p in (("native", nat), ("calls Python", py)):
            out.append(f"| {label} | {p['rps']:.0f} | {p['latency_ms']['p50']:.3f} | {p['latency_ms']['p99']:.3f} | "
                       f"{p['cpu_us_per_request']:.1f} |")
        out += ["", f"Extra CPU per request with the Python call: {extra:.1f} µs, of which the pool hop "
                f"≈ {hop:.1f} µs; extra p50 latency {py['latency_ms']['p50'] - nat['latency_ms']['p50']:.3f} ms.", ""]
    fp, fl = (phase(results, "pyinterop_users", i, "GET /users/{id}") for i in ("fitz-python", "python"))
    if fp.get("cpu_us_per_request") and fl.get("cpu_us_per_request"):
        r = fl["cpu_us_per_request"] / fp["cpu_us_per_request"]
        out += ["## `GET /users/{id}`, Fitz + Python + SQLAlchemy against Flask + SQLAlchemy (gunicorn)", "",
                "10 connections, median iteration; requests per CPU-second of each server's process tree.", "",
                "| implementation | req/s | p50 (ms) | p99 (ms) | CPU per request (µs) | requests per CPU-second |",
                "|---|---|---|---|---|---|"]
        for label, p in (("Fitz + Python + SQLAlchemy", fp), ("Flask + SQLAlchemy, gunicorn", fl)):
            out.append(f"| {label} | {p['rps']:.0f} | {p['latency_ms']['p50']:.2f} | {p['latency_ms']['p99']:.2f} | "
                       f"{p['cpu_us_per_request']:.1f} | {1e6 / p['cpu_us_per_request']:.0f} |")
        out += ["", f"Requests per CPU-second, Fitz + Python over Flask: {r:.2f}x (target ≥ 1.5x: "
                f"{'met' if r >= 1.5 else '**missed**'}); throughput {fp['rps'] / fl['rps']:.2f}x.", ""]
    refused = execute.refused_runs(results)
    if refused:
        out += ["Refused or failed runs: " + "; ".join(refused), ""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.environ.get("FITZ_BUILD_DIR", os.path.join(ROOT, "build")))
    ap.add_argument("--seconds", type=float, default=10.0, help="length of each load iteration")
    ap.add_argument("--calls", type=int, default=1000000, help="calls per timing of the call cost")
    ap.add_argument("--runs", type=int, default=3, help="runs of the call timing and load iterations")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.fitz = os.path.join(args.build, "bin", "fitz")
    args.quick, args.iterations, args.warmup, args.scale = False, args.runs, 2.0, 1.0
    admin = os.environ.get("DATABASE_URL") or subprocess.run(
        ["bash", os.path.join(ROOT, "scripts", "pg-local.sh"), "start"], check=True, capture_output=True,
        text=True).stdout.strip().splitlines()[-1]
    with tempfile.TemporaryDirectory(prefix="fitz-pybench-") as work:
        ctx = execute.Context(args, admin, work)
        execute.log(ctx, "call cost")
        call = call_cost(ctx, args)
        results = execute.run_all(ctx, list(load_suites(args.seconds)), [HopApp(), impls.FitzPython(), impls.Python()])
    print(report(call, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
