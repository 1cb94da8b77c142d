"""Test servers for tests/e2e/http_client.sh: one plain HTTP server (JSON, statuses, echo,
redirects, chunked and slow answers), a listener that accepts and never answers, and HTTPS
servers with certificates of the test CA (valid, wrong host name, expired) and a self-signed
one. Ports go to the file named by argv[1] as NAME=PORT lines once every server listens."""
import json
import os
import socket
import socketserver
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        if isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def handle_any(self):
        u = urlparse(self.path)
        q = parse_qs(u.query)
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        p = u.path
        if p == "/json":
            return self.send(200, '{"symbol":"ABC","price":12.5}', [("Content-Type", "application/json")])
        if p == "/badjson":
            return self.send(200, '{"symbol":"ABC","price":"high"}', [("Content-Type", "application/json")])
        if p == "/notjson":
            return self.send(200, '{"symbol": nope}')
        if p.startswith("/status/"):
            code = int(p.split("/")[2])
            return self.send(code, "status %d" % code, [("X-Test", "a"), ("X-Test", "b")])
        if p == "/echo":
            return self.send(200, json.dumps({
                "method": self.command,
                "authorization": self.headers.get("Authorization", ""),
                "cookie": self.headers.get("Cookie", ""),
                "content_type": self.headers.get("Content-Type", ""),
                "user_agent": self.headers.get("User-Agent", ""),
                "body": body.decode("utf-8", "replace"),
            }, separators=(",", ":")), [("Content-Type", "application/json")])
        if p.startswith("/redirect/"):
            code = int(p.split("/")[2])
            return self.send(code, "", [("Location", q["to"][0])])
        if p == "/loop":
            return self.send(302, "", [("Location", "/loop")])
        if p == "/chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for part in [b"alpha-", b"beta-", b"gamma"]:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                self.wfile.flush()
                time.sleep(0.05)
            self.wfile.write(b"0\r\n\r\n")
            return
        if p == "/slow":
            time.sleep(float(q.get("s", ["3"])[0]))
            return self.send(200, "late")
        return self.send(404, "no route " + p)

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = handle_any


def serve_http(ctx=None):
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    if ctx is not None:
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv.server_address[1]


def silent():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    held = []

    def loop():
        while True:
            c, _ = s.accept()
            held.append(c)  # never read, never answered

    threading.Thread(target=loop, daemon=True).start()
    return s.getsockname()[1]


class Proxy(socketserver.StreamRequestHandler):
    """A forward proxy: absolute-form requests are relayed (one per connection), CONNECT opens
    a tunnel. Each request line is appended to the log the test reads, with the credentials of a
    Proxy-Authorization header (which, like a real proxy, it does not pass on)."""

    def handle(self):
        line = self.rfile.readline().decode("latin-1")
        if not line:
            return
        method, target = line.split()[:2]
        head = []
        while True:
            h = self.rfile.readline()
            if h in (b"\r\n", b"\n", b""):
                break
            head.append(h)
        auth = [h.split(b":", 1)[1].strip().decode("latin-1") for h in head
                if h.split(b":", 1)[0].strip().lower() == b"proxy-authorization"]
        with open(self.server.log, "a") as f:
            f.write("%s %s%s\n" % (method, target, "".join(" auth=" + a for a in auth)))
        if method == "CONNECT":
            host, port = target.rsplit(":", 1)
            up = socket.create_connection((host, int(port)))
            self.wfile.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            self.wfile.flush()
            pipe(self.connection, up)
            return
        u = urlparse(target)
        up = socket.create_connection((u.hostname, u.port or 80))
        n = 0
        kept = []
        for h in head:
            name = h.split(b":", 1)[0].strip().lower()
            if name == b"content-length":
                n = int(h.split(b":", 1)[1])
            if name not in (b"connection", b"proxy-connection", b"proxy-authorization"):
                kept.append(h)
        path = u.path + ("?" + u.query if u.query else "")
        up.sendall(("%s %s HTTP/1.1\r\n" % (method, path)).encode() + b"".join(kept) +
                   b"Connection: close\r\n\r\n" + (self.rfile.read(n) if n else b""))
        while True:
            data = up.recv(65536)
            if not data:
                break
            self.wfile.write(data)
        up.close()


def pipe(a, b):
    def one(src, dst):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    t = threading.Thread(target=one, args=(b, a), daemon=True)
    t.start()
    one(a, b)
    t.join()


def proxy(log):
    srv = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Proxy)
    srv.daemon_threads = True
    srv.log = log
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv.server_address[1]


def tls(cert, key):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    return ctx


def main():
    out, certs = sys.argv[1], sys.argv[2]
    ports = {
        "HTTP": serve_http(),
        "SILENT": silent(),
        "TLS_OK": serve_http(tls(certs + "/ok.crt", certs + "/ok.key")),
        "TLS_WRONG_HOST": serve_http(tls(certs + "/wrong.crt", certs + "/wrong.key")),
        "TLS_EXPIRED": serve_http(tls(certs + "/expired.crt", certs + "/expired.key")),
        "TLS_SELF": serve_http(tls(certs + "/self.crt", certs + "/self.key")),
        "PROXY": proxy(os.path.dirname(out) + "/proxy.log"),
    }
    with open(out + ".tmp", "w") as f:
        for k, v in ports.items():
            f.write("%s=%d\n" % (k, v))
    os.rename(out + ".tmp", out)
    while True:
        time.sleep(3600)


main()
