"""A minimal Debug Adapter Protocol client (standard library only): starts an adapter command,
sends requests with Content-Length framing and collects its responses and events."""

import json
import queue
import subprocess
import threading
import time


class DapError(Exception):
    pass


class DapClient:
    def __init__(self, argv, timeout=60.0):
        self.timeout = timeout
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.seq = 0
        self.messages = queue.Queue()
        self.events = []  # every event, in order, for diagnostics
        self.pending = []  # events that arrived while waiting for a response
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        stream = self.proc.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                self.messages.put(None)
                return
            self.messages.put(json.loads(stream.read(length)))

    def send(self, command, arguments=None):
        self.seq += 1
        message = {"seq": self.seq, "type": "request", "command": command}
        if arguments is not None:
            message["arguments"] = arguments
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return self.seq

    def _next(self, deadline, what):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise DapError("timed out waiting for " + what + "; events so far: " + self._event_names())
        try:
            message = self.messages.get(timeout=remaining)
        except queue.Empty:
            raise DapError("timed out waiting for " + what + "; events so far: " + self._event_names())
        if message is None:
            raise DapError("the adapter closed its output while waiting for " + what)
        if message.get("type") == "event":
            self.events.append(message)
        return message

    def _event_names(self):
        return ", ".join(e.get("event", "?") for e in self.events[-20:]) or "none"

    def request(self, command, arguments=None):
        """Sends a request and returns its response (events seen meanwhile are kept)."""
        seq = self.send(command, arguments)
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._next(deadline, "the response to " + command)
            if message.get("type") == "response" and message.get("request_seq") == seq:
                return message
            if message.get("type") == "event":
                self.pending.append(message)

    def wait_event(self, name, predicate=lambda e: True):
        """The next event called `name` that satisfies `predicate` (earlier ones included)."""
        for i, event in enumerate(self.pending):
            if event.get("event") == name and predicate(event):
                del self.pending[: i + 1]
                return event
        self.pending.clear()
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._next(deadline, "the event " + name)
            if message.get("type") == "event" and message.get("event") == name and predicate(message):
                return message

    def output(self):
        return "".join(e.get("body", {}).get("output", "") for e in self.events if e.get("event") == "output")

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            return self.proc.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()
