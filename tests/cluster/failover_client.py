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
import http.client
import os
import sys
import threading
import time
from urllib.parse import urlparse


def worker(base, index, stop_file, out, lock):
    url = urlparse(base)
    conn = None
    n = 0
    while not os.path.exists(stop_file):
        key = f"w{index}-{n}"
        n += 1
        started = time.time()
        try:
            if conn is None:
                conn = http.client.HTTPConnection(url.hostname, url.port, timeout=15)
            conn.request("POST", f"/rows/{key}", body=b"", headers={"Content-Length": "0"})
            response = conn.getresponse()
            response.read()
            result = str(response.status)
        except (OSError, http.client.HTTPException) as e:
            result = "error:" + type(e).__name__
            if conn is not None:
                conn.close()
            conn = None
        with lock:
            out.write(f"{started:.6f} {time.time():.6f} {key} {result}\n")
            out.flush()
    if conn is not None:
        conn.close()


def load(base, workers, stop_file, out_file):
    lock = threading.Lock()
    with open(out_file, "a") as out:
        threads = [threading.Thread(target=worker, args=(base, i, stop_file, out, lock)) for i in range(int(workers))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


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
