"""Drives `fitz repl` through a pseudo-terminal, as a person at a terminal would: types each
input, waits for the next prompt and checks what the REPL printed in between.
Usage: drive.py FITZ WORKDIR. Prints one line per failed check and a summary; exit 1 on failure."""
import os
import pty
import re
import select
import signal
import sys
import time

fitz, work = sys.argv[1], sys.argv[2]
PROMPT, CONT = "fitz> ", "  ... "
failures, passes, timings = [], 0, []

pid, fd = pty.fork()
if pid == 0:
    os.chdir(work)
    os.execv(fitz, [fitz, "repl"])

buf = ""


def read_until(patterns, timeout=120):
    """Reads until the output ends with one of `patterns`; returns the text read (without it)."""
    global buf
    deadline = time.monotonic() + timeout
    while True:
        for p in patterns:
            if buf.endswith(p):
                text, buf = buf[: -len(p)], ""
                return text, p
        left = deadline - time.monotonic()
        if left <= 0:
            text, buf = buf, ""
            return text, None
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            continue
        try:
            chunk = os.read(fd, 4096).decode(errors="replace")
        except OSError:
            text, buf = buf, ""
            return text, None
        if not chunk:
            text, buf = buf, ""
            return text, None
        buf += chunk.replace("\r\n", "\n")


def check(name, ok, detail=""):
    global passes
    if ok:
        passes += 1
    else:
        failures.append(f"{name}: {detail}")


def send(line, expect_prompt=PROMPT):
    """Types `line`; returns what was printed before the next prompt (the echo removed)."""
    t0 = time.monotonic()
    os.write(fd, (line + "\n").encode())
    text, got = read_until([PROMPT, CONT])
    elapsed = time.monotonic() - t0
    if text.startswith(line + "\n"):
        text = text[len(line) + 1 :]
    check(f"prompt after {line!r}", got == expect_prompt, f"got {got!r} after {text!r}")
    return text, elapsed


banner, got = read_until([PROMPT])
check("the banner and the first prompt", got == PROMPT and "fitz" in banner, repr(banner))

out, _ = send("let xs = [1, 2, 3]")
check("a binding prints nothing", out.strip() == "", repr(out))
out, t = send("xs.len()")
check("an expression prints its value", out.strip() == "= 3", repr(out))
out, _ = send("fn double(n: Int) -> Int {", expect_prompt=CONT)
out, _ = send("    return n * 2", expect_prompt=CONT)
out, _ = send("}")
check("a function over three lines is accepted", out.strip() == "", repr(out))
out, t = send("double(21)")
timings.append(t)
check("the function is kept", out.strip() == "= 42", repr(out))
out, _ = send('print("side effect")')
check("print prints", out.strip() == "side effect", repr(out))
out, t = send("1 + 1")
timings.append(t)
check("earlier side effects do not run again", out.strip() == "= 2", repr(out))
out, _ = send("xs.push(4)")
out, t = send("xs")
timings.append(t)
check("a mutated variable keeps its new value", out.strip() == "= [1, 2, 3, 4]", repr(out))
out, _ = send('let greeting = "hi \\{there\\} {xs.len()}"')
out, _ = send("greeting")
check("strings with braces are carried", out.strip() == "= hi {there} 4", repr(out))
out, _ = send("type Point {", expect_prompt=CONT)
send("    x: Int", expect_prompt=CONT)
send("    y: Int", expect_prompt=CONT)
send("}")
send("let p = Point { x: 3, y: 4 }")
out, _ = send("p.x * p.y")
check("a user type and its value are carried", out.strip() == "= 12", repr(out))
out, _ = send("p")
check("a value prints as print prints it", out.strip() == "= Point { x: 3, y: 4 }", repr(out))
out, _ = send("let m = {\"a\": 1.5, \"b\": 2.0}")
out, _ = send('m["b"] + 1.0')
check("a map of floats is carried", out.strip() == "= 3.0", repr(out))
out, _ = send("let maybe: Int? = null")
out, _ = send("maybe == null")
check("a null is carried", out.strip() == "= true", repr(out))
out, _ = send(":type xs")
check(":type shows the type", out.strip() == "List<Int>", repr(out))
out, _ = send(":type double")
check(":type of a function", "Int" in out and "->" in out, repr(out))
out, _ = send('let y: Int = "no"')
check("a type error is reported with its code", "error[E0300]" in out and "input:1:" in out, repr(out))
out, _ = send("y")
check("the failed input bound nothing", "error[" in out, repr(out))
out, _ = send("xs.len()")
check("the session goes on after an error", out.strip() == "= 4", repr(out))
out, _ = send("[1, 2][5]")
check("a runtime error is reported", "error" in out.lower() and "index" in out.lower(), repr(out))
out, _ = send("xs.len()")
check("the session goes on after a runtime error", out.strip() == "= 4", repr(out))
out, _ = send(":env")
check(":env lists variables and declarations",
      "xs: List<Int>" in out and "fn double" in out and "type Point" in out and "p: Point" in out, repr(out))

with open(os.path.join(work, "lib.fitz"), "w") as f:
    f.write('fn triple(n: Int) -> Int => n * 3\nlet base = 10\nprint("loaded")\n')
out, _ = send(":load lib.fitz")
check(":load runs a file", out.strip() == "loaded", repr(out))
out, _ = send("triple(base)")
check("what a loaded file declared is kept", out.strip() == "= 30", repr(out))

# Ctrl+C drops a half-typed input and keeps the session.
os.write(fd, b"let unfinished = [1,\n")
read_until([CONT])
os.kill(pid, 0)
os.write(fd, b"\x03")
text, got = read_until([PROMPT])
check("Ctrl+C gives a fresh prompt", got == PROMPT, repr(text))
out, _ = send("xs.len()")
check("the session survives Ctrl+C", out.strip() == "= 4", repr(out))

out, _ = send(":reset")
out, _ = send("xs")
check(":reset forgets variables", "error[" in out, repr(out))
out, _ = send(":nope")
check("an unknown command is named", "unknown command" in out, repr(out))

os.write(fd, b":quit\n")
_, status = os.waitpid(pid, 0)
check(":quit leaves with status 0", os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, str(status))
history = os.path.join(os.environ["HOME"], ".fitz", "history")
check("inputs are appended to ~/.fitz/history",
      os.path.exists(history) and "double(21)" in open(history).read(), history)

for f in failures:
    print(f"FAILED e2e repl: {f}")
print(f"repl: {passes} passed, {len(failures)} failed; warm inputs answered in {', '.join(f'{x:.2f}' for x in timings)} s")
sys.exit(1 if failures else 0)
