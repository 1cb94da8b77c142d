"""Processes under test: start, wait for the first 200, sample RSS and CPU from /proc, stop."""
import os
import signal
import socket
import subprocess
import threading
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(port: int, path: str, timeout: float = 1.0) -> int:
    """Status of one GET over a fresh connection; 0 when there is no answer."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            data = s.recv(64)
        return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    except (OSError, ValueError, IndexError):
        return 0


def tree(pid: int) -> list:
    """pid and all its descendants (gunicorn and node:cluster have worker processes)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for tid in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{tid}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return out


def rss_kb(pids) -> int:
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def cpu_seconds(pids) -> float:
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
    return total / CLK_TCK


class Server:
    """One implementation's server process, with a /proc sampler running beside it."""

    def __init__(self, name, argv, env, cwd, port, ready_path="/health", log_path=None):
        self.name, self.argv, self.env, self.cwd, self.port = name, argv, env, cwd, port
        self.ready_path = ready_path
        self.log = open(log_path, "wb") if log_path else subprocess.DEVNULL
        self.proc = None
        self.cold_start_ms = None
        self.samples = []  # (seconds since start, rss MB, cpu %)
        self._stop = threading.Event()
        self._thread = None
        self._t0 = 0.0

    def start(self, timeout: float = 60.0):
        self._t0 = time.monotonic()
        self.proc = subprocess.Popen(self.argv, cwd=self.cwd, env=self.env, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = self._t0 + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with status {self.proc.returncode} before answering")
            if http_get(self.port, self.ready_path, 0.5) == 200:
                self.cold_start_ms = (time.monotonic() - self._t0) * 1000
                break
            time.sleep(0.002)
        else:
            self.stop()
            raise RuntimeError(f"{self.name} did not answer 200 on {self.ready_path} within {timeout:.0f} s")
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self):
        last_cpu, last_t = None, None
        while not self._stop.is_set():
            now = time.monotonic()
            pids = tree(self.proc.pid)
            cpu = cpu_seconds(pids)
            pct = 0.0
            if last_cpu is not None and now > last_t:
                pct = 100.0 * (cpu - last_cpu) / (now - last_t)
            self.samples.append((round(now - self._t0, 3), round(rss_kb(pids) / 1024, 2), round(pct, 1)))
            last_cpu, last_t = cpu, now
            self._stop.wait(0.1)

    def mark(self) -> float:
        return time.monotonic() - self._t0

    def peak_rss_mb(self, since: float = 0.0) -> float:
        return max((s[1] for s in self.samples if s[0] >= since), default=0.0)

    def stop(self, grace: float = 10.0):
        self._stop.set()
        if self._thread:
            self._thread.join()
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            except ProcessLookupError:
                pass
        if self.log is not subprocess.DEVNULL:
            self.log.close()
