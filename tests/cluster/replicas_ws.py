#!/usr/bin/env python3
"""WebSocket clients for tests/cluster/replicas.sh that reconnect when their replica goes away.

usage: replicas_ws.py HOST PORT PATH COUNT

Each of COUNT clients connects to ws://HOST:PORT/PATH (through the load balancer), and whenever
its connection ends (a close frame, a reset, a failed connect) it connects again after 50 ms.
One JSON line per event goes to stdout: {"client": i, "event": "open"|"text"|"closed", ...};
a text frame's payload is in "text" (the service's first message names the replica). Runs
until killed. Standard library only: the WebSocket client side is a few lines.
"""
import base64
import json
import os
import socket
import struct
import sys
import threading
import time

lock = threading.Lock()
stopping = threading.Event()


def log(**fields):
    with lock:
        sys.stdout.write(json.dumps(fields) + "\n")
        sys.stdout.flush()


def read_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def send_frame(sock, opcode, payload=b""):
    # Client frames are masked (RFC 6455 5.3).
    mask = os.urandom(4)
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def session(i, host, port, path):
    sock = socket.create_connection((host, port), timeout=5)
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        status_line = head.split(b"\r\n", 1)[0].decode(errors="replace")
        if " 101 " not in status_line + " ":
            raise ConnectionError(status_line)
        rest = head.split(b"\r\n\r\n", 1)[1]
        log(client=i, event="open")
        sock.settimeout(None)
        buffered = rest
        while not stopping.is_set():
            def take(n):
                nonlocal buffered
                if len(buffered) >= n:
                    out, buffered = buffered[:n], buffered[n:]
                    return out
                out = buffered + read_exact(sock, n - len(buffered))
                buffered = b""
                return out
            b0, b1 = take(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", take(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", take(8))[0]
            payload = take(n)
            if opcode == 1:
                log(client=i, event="text", text=json.loads(payload).get("text", ""))
            elif opcode == 9:
                send_frame(sock, 10, payload)
            elif opcode == 8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 0
                raise ConnectionError(f"close {code}")
    finally:
        sock.close()


def client(i, host, port, path):
    while not stopping.is_set():
        try:
            session(i, host, port, path)
        except (OSError, ConnectionError, ValueError) as e:
            log(client=i, event="closed", reason=str(e))
        time.sleep(0.05)


def main():
    host, port, path, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    for i in range(count):
        threading.Thread(target=client, args=(i, host, port, path), daemon=True).start()
    stopping.wait()  # until the test ends it with a signal


if __name__ == "__main__":
    main()
