# The Python side of tests/e2e/python.sh: found through the project's `python/` folder.
import time


def greet(name, punct="."):
    return "hello " + name + punct


def stats():
    return [{"name": "a", "count": 3}, {"name": "b", "count": 5}]


def bad_stats():
    return [{"name": "a", "count": 3}, {"name": "b", "count": "five"}]


def boom():
    raise ValueError("bad input")


def sleep_forever():
    while True:
        time.sleep(1)


def total(xs, scale=1):
    return sum(xs) * scale
