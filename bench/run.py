#!/usr/bin/env python3
"""`fitz bench`: runs the bundled benchmark suites and writes bench/results/<timestamp>/.

  fitz bench                      # every suite, every implementation, 3 iterations
  fitz bench --quick              # a few seconds per phase: a smoke test (make test runs it)
  fitz bench --suite orm,overhead --impl fitz,python
Uses DATABASE_URL (a role that may create databases) or starts the local Postgres of
scripts/pg-local.sh. See bench/README.md.
"""
import argparse
import datetime
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from runner import execute, impls as impls_mod, report, suites as suites_mod  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(prog="fitz bench", description="Run the bundled benchmarks.")
    ap.add_argument("--quick", action="store_true", help="a few seconds per phase (smoke test)")
    ap.add_argument("--suite", default="", help="comma-separated: " + ",".join(s.name for s in suites_mod.SUITES))
    ap.add_argument("--impl", default="", help="comma-separated: " + ",".join(i.name for i in impls_mod.all_impls()))
    ap.add_argument("--iterations", type=int, default=3)
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds of discarded warm-up per phase")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every phase's duration (e.g. 0.25)")
    ap.add_argument("--out", default="", help="output folder (default bench/results/<timestamp>)")
    ap.add_argument("--fitz", default=os.environ.get("FITZ_BIN", ""), help="the fitz binary")
    ap.add_argument("--build", default=os.environ.get("FITZ_BUILD_DIR", os.path.join(ROOT, "build")))
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    if not args.fitz:
        args.fitz = os.path.join(args.build, "bin", "fitz")

    by_name = suites_mod.by_name()
    wanted = [s for s in args.suite.split(",") if s] or list(by_name)
    unknown = [s for s in wanted if s not in by_name]
    if unknown:
        ap.error(f"unknown suite {', '.join(unknown)}")
    all_impls = impls_mod.all_impls()
    names = [i for i in args.impl.split(",") if i] or [i.name for i in all_impls]
    bad = [n for n in names if n not in {i.name for i in all_impls}]
    if bad:
        ap.error(f"unknown implementation {', '.join(bad)}")
    chosen = [i for i in all_impls if i.name in names]
    if not os.path.exists(os.path.join(args.build, "bin", "fitz-loadgen")):
        sys.exit(f"fitz bench: {args.build}/bin/fitz-loadgen is missing: run `make` first")

    admin = os.environ.get("DATABASE_URL")
    if not admin:
        admin = subprocess.run(["bash", os.path.join(ROOT, "scripts", "pg-local.sh"), "start"], check=True,
                               capture_output=True, text=True).stdout.strip().splitlines()[-1]
    started = datetime.datetime.now(datetime.timezone.utc)
    out = args.out or os.path.join(ROOT, "bench", "results", report.timestamp())
    with tempfile.TemporaryDirectory(prefix="fitz-bench-") as work:
        ctx = execute.Context(args, admin, work)
        execute.log(ctx, f"fitz bench: suites {', '.join(wanted)}; implementations {', '.join(names)}; "
                         f"{'quick' if args.quick else f'{ctx.iterations} iterations'}; database {admin}")
        results = execute.run_all(ctx, [by_name[s] for s in wanted], chosen)
        refused = execute.refused_runs(results)
        # The command goes into the report, so a partial run (some suites, some implementations,
        # shortened phases) says how it was produced.
        command = " ".join(["fitz bench"] + (["--quick"] if args.quick else []) +
                           [f"--{k} {v}" for k, v, default in (("suite", args.suite, ""), ("impl", args.impl, ""),
                                                               ("iterations", args.iterations, 3),
                                                               ("warmup", args.warmup, 5.0), ("scale", args.scale, 1.0))
                            if v != default])
        meta = {"started": started.strftime("%Y-%m-%d %H:%M UTC"), "quick": args.quick, "scale": args.scale,
                "command": command,
                "iterations": ctx.iterations, "warmup": ctx.warmup, "refused": refused}
        path = report.write(results, out, meta)
    print(f"\nreport: {os.path.relpath(path, os.getcwd())}")
    if refused:
        print("runs with errors (not reported as results):\n  " + "\n  ".join(refused))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
