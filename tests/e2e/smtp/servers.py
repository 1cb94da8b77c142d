"""SMTP servers for tests/e2e/smtp.sh (Debian's python3-aiosmtpd): plain with AUTH, STARTTLS
required with AUTH, implicit TLS with AUTH, each saving what it receives into OUT/<port>.eml,
plus a raw server that closes the connection in the middle of DATA. Ports go to argv[1]
(NAME=PORT lines) once every server listens."""
import os
import socket
import ssl
import sys
import threading
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

out, certs = sys.argv[1], sys.argv[2]
mail_dir = os.path.dirname(out) + "/mail"
os.makedirs(mail_dir, exist_ok=True)


class Saver:
    def __init__(self, name):
        self.name = name

    async def handle_DATA(self, server, session, envelope):
        with open("%s/%s.eml" % (mail_dir, self.name), "wb") as f:
            f.write(("X-Envelope-From: %s\nX-Envelope-To: %s\nX-Auth: %s\n" % (
                envelope.mail_from, ",".join(envelope.rcpt_tos),
                session.auth_data.login.decode() if session.auth_data else "")).encode())
            f.write(envelope.original_content or envelope.content)
        return "250 Message accepted for delivery"


def authenticator(server, session, envelope, mechanism, auth_data):
    if isinstance(auth_data, LoginPassword) and auth_data.login == b"mailer" and auth_data.password == b"s3cret":
        return AuthResult(success=True, auth_data=auth_data)
    return AuthResult(success=False, handled=False)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
tls.load_cert_chain(certs + "/ok.crt", certs + "/ok.key")

ports = {}
controllers = []


def start(name, **kw):
    port = free_port()
    c = Controller(Saver(name), hostname="127.0.0.1", port=port, server_hostname="localhost",
                   authenticator=authenticator, **kw)
    c.start()
    controllers.append(c)
    ports[name] = port


start("PLAIN", auth_require_tls=False)
start("STARTTLS", tls_context=tls, require_starttls=True, auth_required=True)
# aiosmtpd only counts STARTTLS as TLS for auth_require_tls; this socket is TLS from the start.
start("IMPLICIT", ssl_context=tls, auth_required=True, auth_require_tls=False)


def mid_data():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(8)

    def serve(c):
        f = c.makefile("rb")
        c.sendall(b"220 closer ready\r\n")
        while True:
            line = f.readline()
            if not line:
                break
            cmd = line[:4].upper()
            if cmd == b"EHLO":
                c.sendall(b"250-closer\r\n250 8BITMIME\r\n")
            elif cmd == b"DATA":
                c.sendall(b"354 go ahead\r\n")
                f.readline()
                c.close()  # in the middle of the message
                return
            else:
                c.sendall(b"250 ok\r\n")

    def loop():
        while True:
            c, _ = s.accept()
            threading.Thread(target=serve, args=(c,), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()
    ports["CLOSER"] = s.getsockname()[1]


mid_data()
with open(out + ".tmp", "w") as f:
    for k, v in ports.items():
        f.write("%s=%d\n" % (k, v))
os.rename(out + ".tmp", out)
while True:
    time.sleep(3600)
