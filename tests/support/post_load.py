"""The write load shared by the fault and failover tests: threads that each POST PREFIX/<worker>-<n>
on their own keep-alive connection until a stop file appears, reconnecting after a failure.

Each answer goes to record(started, finished, key, result) under one lock: result is the HTTP
status, or `error:<reason>` when no response came back (a timeout, a reset).
"""
import http.client
import os
import threading
import time
from urllib.parse import urlparse


def _worker(base, prefix, index, stop_file, record, lock):
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
            conn.request("POST", f"{prefix}/{key}", body=b"", headers={"Content-Length": "0"})
            response = conn.getresponse()
            response.read()
            result = str(response.status)
        except (OSError, http.client.HTTPException) as e:
            result = "error:" + type(e).__name__
            if conn is not None:
                conn.close()
            conn = None
        with lock:
            record(started, time.time(), key, result)
    if conn is not None:
        conn.close()


def run(base, prefix, workers, stop_file, record):
    """Runs `workers` threads until stop_file exists; returns when all have stopped."""
    lock = threading.Lock()
    threads = [threading.Thread(target=_worker, args=(base, prefix, i, stop_file, record, lock))
               for i in range(int(workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
