"""Starts a service under `fitz debug --dap`, then ends the session the way an editor may
(SIGTERM to the adapter, or closing its input without a disconnect) and prints whether the
service stopped listening.

usage: stop_session.py FITZ SERVICE_FITZ SIGTERM|EOF
"""

import os
import signal
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dap_client import DapClient  # noqa: E402
from debug_session import free_port, wait_listening  # noqa: E402


def main():
    fitz, service, how = sys.argv[1], sys.argv[2], sys.argv[3]
    port = free_port()
    client = DapClient([fitz, "debug", "--dap"])
    client.request("initialize", {"adapterID": "fitz"})
    launch = client.request("launch", {"program": service, "env": {"PORT": str(port)}})
    print("launched:", launch.get("success"))
    client.wait_event("initialized")
    client.request("configurationDone")
    print("listening:", wait_listening(port))
    if how == "EOF":
        client.proc.stdin.close()
    else:
        client.proc.send_signal(signal.SIGTERM)
    client.proc.wait(timeout=30)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            time.sleep(0.2)
        except OSError:
            print("service stopped: True")
            return
    print("service stopped: False")


if __name__ == "__main__":
    main()
