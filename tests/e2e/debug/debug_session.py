"""Drives `fitz debug --dap` through one debugging session of service.fitz: a breakpoint on a
handler line is hit by an HTTP request, the stack and locals read as Fitz, `next` moves one
Fitz line, `continue` lets the request finish. Prints one line per check; exits 1 on failure.

usage: debug_session.py FITZ SERVICE_FITZ
"""

import json
import os
import socket
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dap_client import DapClient, DapError  # noqa: E402

failures = 0


def check(description, ok, detail=""):
    global failures
    if ok:
        print("ok   " + description)
    else:
        failures += 1
        print("FAILED " + description + (": " + str(detail) if detail else ""))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


def line_of(path, text):
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if text in line:
                return number
    raise SystemExit("no line with " + repr(text) + " in " + path)


def main():
    fitz, service = sys.argv[1], os.path.abspath(sys.argv[2])
    stop_line = line_of(service, "let message =")
    next_line = line_of(service, "let size =")
    port = free_port()
    client = DapClient([fitz, "debug", "--dap"])
    try:
        init = client.request("initialize", {"clientID": "fitz-e2e", "adapterID": "fitz", "linesStartAt1": True,
                                             "columnsStartAt1": True, "pathFormat": "path"})
        check("initialize succeeds", init.get("success"), init)
        launch = client.request("launch", {"program": service, "args": [], "cwd": os.path.dirname(service),
                                           "env": ["PORT=%d" % port, "FITZ_HTTP_THREADS=1"]})
        check("launch builds the .fitz program and starts it", launch.get("success"), launch.get("message"))
        if not launch.get("success"):
            return
        client.wait_event("initialized")
        bps = client.request("setBreakpoints", {"source": {"path": service}, "breakpoints": [{"line": stop_line}]})
        placed = bps.get("body", {}).get("breakpoints", [])
        check("the breakpoint on a .fitz line of the handler is verified",
              len(placed) == 1 and placed[0].get("verified") and placed[0].get("line") == stop_line, placed)
        client.request("configurationDone")
        check("the service listens", wait_listening(port), client.output())

        answer = {}

        def get():
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/greet/alice" % port, timeout=120) as r:
                    answer["status"], answer["body"] = r.status, r.read().decode()
            except Exception as e:  # reported by the check below
                answer["error"] = repr(e)

        requester = threading.Thread(target=get)
        requester.start()

        stopped = client.wait_event("stopped")
        reason = stopped["body"].get("reason")
        check("an HTTP request stops at the breakpoint", reason == "breakpoint", stopped)
        thread = stopped["body"]["threadId"]
        frames = client.request("stackTrace", {"threadId": thread, "levels": 20})["body"]["stackFrames"]
        top = frames[0]
        check("the top frame is the Fitz handler `greet`", top.get("name") == "greet", top.get("name"))
        check("the top frame is in service.fitz", top.get("source", {}).get("path") == service, top.get("source"))
        check("the top frame is on the breakpoint's line", top.get("line") == stop_line, top.get("line"))

        scopes = client.request("scopes", {"frameId": top["id"]})["body"]["scopes"]
        local_scope = next((s for s in scopes if s["name"].lower().startswith("local")), scopes[0])
        variables = client.request("variables", {"variablesReference": local_scope["variablesReference"]})
        found = {v["name"]: v for v in variables["body"]["variables"]}
        shown = {name: v.get("value") for name, v in found.items()}
        expected = {
            "name": '"alice"',
            "count": "42",
            "scores": "[1, 2, 3]",
            "ages": '{"alice": 30, "bob": 25}',
            "nickname": "null",
            "user": 'User { name: "alice", age: 30 }',
            "found": "Ok(5)",
        }
        for name, value in expected.items():
            check("local `%s` shows %s" % (name, value), shown.get(name) == value, shown.get(name, "missing: %s" % shown))
        check("local types read as Fitz types",
              found.get("scores", {}).get("type") == "List<Int>" and found.get("name", {}).get("type") == "Str"
              and found.get("nickname", {}).get("type") == "Str?" and found.get("user", {}).get("type") == "User",
              {n: v.get("type") for n, v in found.items()})

        scores = found.get("scores", {})
        if scores.get("variablesReference"):
            children = client.request("variables", {"variablesReference": scores["variablesReference"]})
            items = [(c["name"], c["value"]) for c in children["body"]["variables"]]
            check("`scores` expands to its elements", items == [("[0]", "1"), ("[1]", "2"), ("[2]", "3")], items)
        else:
            check("`scores` expands to its elements", False, scores)
        user = found.get("user", {})
        if user.get("variablesReference"):
            children = client.request("variables", {"variablesReference": user["variablesReference"]})
            fields = [(c["name"], c["value"]) for c in children["body"]["variables"]]
            check("`user` expands to its fields by Fitz name", fields == [("name", '"alice"'), ("age", "30")], fields)
        else:
            check("`user` expands to its fields by Fitz name", False, user)

        client.request("next", {"threadId": thread})
        stepped = client.wait_event("stopped")
        frames = client.request("stackTrace", {"threadId": thread, "levels": 1})["body"]["stackFrames"]
        check("`next` stops on the next line of the handler",
              frames[0].get("line") == next_line and frames[0].get("name") == "greet"
              and stepped["body"].get("reason") == "step", (stepped["body"], frames[0]))

        client.request("continue", {"threadId": thread})
        requester.join(60)
        check("the request then completes with 200", answer.get("status") == 200, answer)
        check("and the handler's answer", json.loads(answer.get("body", "{}")).get("message") == "hello alice", answer)
        done = client.request("disconnect", {"terminateDebuggee": True})
        check("disconnect succeeds", done.get("success"), done)
    except DapError as e:
        check("the debugging session runs to the end", False, e)
    finally:
        status = client.close()
        check("the adapter exits 0", status == 0, status)
    print("%d failed" % failures)


if __name__ == "__main__":
    main()
    sys.exit(1 if failures else 0)
