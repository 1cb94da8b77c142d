#!/usr/bin/env python3
"""Concurrent write load for tests/pg/fault_e2e.sh.

usage: fault_load.py BASE_URL WORKERS STOP_FILE OUT_FILE [READY_FILE]

Each worker POSTs /items/<worker>-<n> on its own keep-alive connection until STOP_FILE exists,
and records one line per request: start time (time.time()), key, and the HTTP status or
`error:<reason>` when no response came back. The script decides what the lines must show.
READY_FILE is created after the first 2xx, so the script starts its faults on a running load
(on a busy machine the workers may take seconds to start).
"""
import http.client
import os
import sys
import threading
import time
from urllib.parse import urlparse


def worker(base, index, stop_file, lines, lock, ready_file):
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
            conn.request("POST", f"/items/{key}", body=b"", headers={"Content-Length": "0"})
            response = conn.getresponse()
            response.read()
            result = str(response.status)
        except (OSError, http.client.HTTPException) as e:
            result = "error:" + type(e).__name__
            if conn is not None:
                conn.close()
            conn = None
        with lock:
            lines.append(f"{started:.6f} {key} {result}")
            if ready_file and result.startswith("2") and not os.path.exists(ready_file):
                open(ready_file, "w").close()
    if conn is not None:
        conn.close()


def main():
    base, workers, stop_file, out_file = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    ready_file = sys.argv[5] if len(sys.argv) > 5 else None
    lines, lock = [], threading.Lock()
    threads = [threading.Thread(target=worker, args=(base, i, stop_file, lines, lock, ready_file)) for i in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open(out_file, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
