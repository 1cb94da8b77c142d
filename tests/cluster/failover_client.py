#!/usr/bin/env python3
"""Write load and its verdict for tests/cluster/failover.sh.

usage: failover_client.py load BASE_URL WORKERS STOP_FILE OUT_FILE
       failover_client.py count OUT_FILE STATUS_PREFIX SINCE
       failover_client.py verdict OUT_FILE STOPPED_AT PROMOTE_AT PROMOTED_AT STORED_IDS_FILE MIN_AFTER

load: each worker POSTs /rows/<worker>-<n> on its own keep-alive connection until STOP_FILE
exists and appends one line per request to OUT_FILE as soon as it has the answer: start and end
time (time.time()), the id, and the HTTP status or `error:<reason>` when no response came back
(a timeout, a reset). The file is flushed line by line, so the script can poll it.

count: how many requests that started after SINCE got a status starting with STATUS_PREFIX.

verdict: prints one `ok`/`FAIL` line per check and a summary line; exits 1 when a check failed.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import post_load  # noqa: E402  (tests/support/post_load.py)


def load(base, workers, stop_file, out_file):
    with open(out_file, "a") as out:
        def record(started, finished, key, result):
            out.write(f"{started:.6f} {finished:.6f} {key} {result}\n")
            out.flush()

        post_load.run(base, "/rows", workers, stop_file, record)


def read_lines(out_file):
    rows = []
    with open(out_file) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 4:
                rows.append((float(parts[0]), float(parts[1]), parts[2], parts[3]))
    return rows


def count(out_file, prefix, since):
    print(sum(1 for start, _, _, status in read_lines(out_file) if start > float(since) and status.startswith(prefix)))


def verdict(out_file, stopped_at, promote_at, promoted_at, stored_file, min_after):
    stopped_at, promote_at, promoted_at = float(stopped_at), float(promote_at), float(promoted_at)
    rows = sorted(read_lines(out_file))
    ok2 = lambda s: s.startswith("2")
    failures = 0

    def check(passed, text):
        nonlocal failures
        print(("ok   " if passed else "FAIL ") + text)
        failures += 0 if passed else 1

    total = len(rows)
    n2xx = sum(1 for r in rows if ok2(r[3]))
    n503 = sum(1 for r in rows if r[3] == "503")
    others = [r for r in rows if not ok2(r[3]) and r[3] != "503"]
    check(not others, f"every request got a 2xx or a 503, none another status, a timeout or a reset: {others[:5]}")
    before = sum(1 for r in rows if r[1] < stopped_at and ok2(r[3]))
    check(before > 0, f"writes succeed before the primary stops ({before})")
    # Between the primary's end and the promotion no server takes writes: only 503s.
    during = [r for r in rows if r[0] > stopped_at and r[1] < promote_at]
    during_bad = [r for r in during if r[3] != "503"]
    check(during and not during_bad,
          f"requests while there is no primary get 503 ({len(during)} requests, not 503: {during_bad[:5]})")
    # The switch ends with the first write the new primary acknowledged; every request from then
    # on succeeds.
    first = next((r for r in rows if r[0] > promoted_at and ok2(r[3])), None)
    check(first is not None, "a write succeeds after the promotion")
    switch_s = (first[1] - stopped_at) if first else float("nan")
    after = [r for r in rows if first and r[0] >= first[0]]
    after_bad = [r for r in after if not ok2(r[3])]
    check(len(after) >= int(min_after) and not after_bad,
          f"after the switch requests succeed against the new primary ({len(after)} requests, at least {min_after}; "
          f"not 2xx: {after_bad[:5]})")
    with open(stored_file) as f:
        stored = {line.strip() for line in f if line.strip()}
    acked = {r[2] for r in rows if ok2(r[3])}
    missing = sorted(acked - stored)
    check(acked and not missing,
          f"every acknowledged write is on the new primary ({len(acked & stored)}/{len(acked)}; missing {missing[:5]})")
    print(f"failover: {total} requests, {n2xx} 2xx, {n503} 503, {len(others)} other; "
          f"switch {switch_s:.2f} s (primary stopped to first write on the new primary; promotion took "
          f"{promoted_at - promote_at:.2f} s); acknowledged writes present {len(acked & stored)}/{len(acked)}")
    return 1 if failures else 0


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "load":
        load(*args)
    elif mode == "count":
        count(*args)
    elif mode == "verdict":
        sys.exit(verdict(*args))
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
