#!/usr/bin/env python3
"""Concurrent write load for tests/pg/fault_e2e.sh.

usage: fault_load.py BASE_URL WORKERS STOP_FILE OUT_FILE [READY_FILE]

Each worker POSTs /items/<worker>-<n> on its own keep-alive connection until STOP_FILE exists,
and records one line per request: start time (time.time()), key, and the HTTP status or
`error:<reason>` when no response came back. The script decides what the lines must show.
READY_FILE is created after the first 2xx, so the script starts its faults on a running load
(on a busy machine the workers may take seconds to start).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import post_load  # noqa: E402  (tests/support/post_load.py)


def main():
    base, workers, stop_file, out_file = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    ready_file = sys.argv[5] if len(sys.argv) > 5 else None
    lines = []

    def record(started, finished, key, result):
        lines.append(f"{started:.6f} {key} {result}")
        if ready_file and result.startswith("2") and not os.path.exists(ready_file):
            open(ready_file, "w").close()

    post_load.run(base, "/items", workers, stop_file, record)
    with open(out_file, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
