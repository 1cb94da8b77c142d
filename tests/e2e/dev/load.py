"""Requests GET /version over fresh connections, one after another, until the file named by
argv[2] appears; then prints one JSON line: how many requests were made, which failed and why,
and the bodies seen in order of first appearance. A refused or dropped connection counts as a
failure: `fitz dev` must swap builds without either."""
import http.client
import json
import os
import sys
import time

port, stop_file = int(sys.argv[1]), sys.argv[2]
total, failures, bodies = 0, [], []
while not os.path.exists(stop_file):
    total += 1
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/version")
        resp = conn.getresponse()
        body = resp.read().decode()
        conn.close()
        if resp.status != 200:
            failures.append(f"status {resp.status}: {body[:100]}")
        elif body not in bodies:
            bodies.append(body)
    except Exception as e:  # refused, reset, timed out: all are what the swap must not cause
        failures.append(f"{type(e).__name__}: {e}")
    time.sleep(0.005)
print(json.dumps({"requests": total, "failures": failures[:20], "failure_count": len(failures), "bodies": bodies}))
