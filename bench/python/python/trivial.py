# The Python side of bench/python: a trivial function whose cost is almost all call and
# conversion, and the loop size, which the Fitz program reads so both sides agree on it.
import os

CALLS = int(os.environ.get("CALLS", "1000000"))


def f(n, s):
    return n
