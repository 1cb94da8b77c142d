"""The suites: which implementations, how the database is seeded, and the load phases, each a
fitz-loadgen scenario. Durations are those of a full run; --quick shortens every phase."""

USER_BODY = {"name": "Bench {seq}", "email": "bench-{run}-{seq}@example.com"}
PUT_BODY = {"name": "Updated {seq}", "email": "upd-{run}-{seq}@example.com"}
POST_BODY = {"title": "Post {seq}", "body": "Body of post {seq}"}


def ep(name, path, method="GET", body=None, weight=1, expect=None):
    e = {"name": name, "path": path, "method": method, "weight": weight}
    if body is not None:
        e["body"] = body
    if expect is not None:
        e["expect"] = expect
    return e


# A smoke run's phase: long enough for every endpoint to answer a few hundred requests, short
# enough that `make test` can afford every suite and implementation.
QUICK_PHASE_SECONDS = 0.5


class Phase:
    def __init__(self, name, endpoints, connections=10, seconds=30, stages=None, headers=None, pgbench=None, only=None,
                 ws_clients=None, think_ms=0):
        self.name, self.endpoints, self.connections, self.seconds = name, endpoints, connections, seconds
        # WebSocket clients connected for the whole phase: {"path", "reading", "stalled"}; stalled
        # ones never read, so every broadcast piles up in the server until it closes them.
        self.ws_clients = ws_clients
        self.only = only  # the implementations that serve this phase (default: every one of the suite)
        self.stages = stages  # ramping stages instead of one fixed level
        self.headers = headers or {}
        self.pgbench = pgbench  # SQL script of the same query, for the database ceiling
        self.think_ms = think_ms  # each connection's pause after a response (k6's sleep per iteration)

    def scenario(self, quick: bool, seconds_override=None, scale: float = 1.0) -> dict:
        if self.stages and seconds_override:
            # A warm-up: the busiest level of the stages, for the warm-up's length.
            conns = max(st["connections"] for st in self.stages)
            stages = [{"seconds": seconds_override, "connections": min(conns, 4) if quick else conns}]
        elif self.stages:
            scale = 0.02 if quick else scale
            stages = [dict(s, seconds=max(0.5, s["seconds"] * scale),
                           connections=min(s["connections"], 4) if quick else s["connections"]) for s in self.stages]
        else:
            secs = seconds_override or (QUICK_PHASE_SECONDS if quick else max(1.0, self.seconds * scale))
            # A smoke run checks that every endpoint answers; few connections keep queueing,
            # and so latency, low enough for a one-second window on a busy machine.
            conns = min(self.connections, 4) if quick else self.connections
            stages = [{"seconds": secs, "connections": conns}]
        eps = []
        for e in self.endpoints:
            e = dict(e)
            if self.headers:
                e["headers"] = dict(self.headers)
                if "body" in e:
                    e["headers"]["Content-Type"] = "application/json"
            eps.append(e)
        return {"stages": stages, "endpoints": eps, "timeout_ms": 10000, "think_ms": self.think_ms}


class Suite:
    def __init__(self, name, title, impls, users, posts_max, phases, description, reseed=False):
        self.name, self.title, self.impls = name, title, impls
        self.users, self.posts_max, self.phases = users, posts_max, phases
        self.description = description
        # Whether users and posts go back to the seed before every warm-up and iteration.
        self.reseed = reseed


PEERS = ["fitz", "fitz-orm", "python", "node", "node-orm", "go", "rust"]
# The two published suites also measure their second stack, Fitz calling SQLAlchemy in-process.
PUBLISHED_PEERS = PEERS[:2] + ["fitz-python"] + PEERS[2:]

SUITES = [
    Suite("orm", "ORM versus SQLAlchemy (the published `orm-vs-sqlalchemy` benchmark)", PUBLISHED_PEERS, 50, 0, [
        Phase("GET /users", [ep("GET /users", "/users", expect=200)]),
        Phase("GET /users/{id}", [ep("GET /users/{id}", "/users/{rand:1:50}", expect=200)],
              pgbench="\\set id random(1, 50)\nSELECT id, name, email, created_at FROM users WHERE id = :id;\n"),
        Phase("POST /users", [ep("POST /users", "/users", "POST", USER_BODY, expect=201)]),
    ], "50 seeded users; 10 connections for 30 s per endpoint (the published harness used oha -c 10 -z 30s "
       "and a sequential curl loop for POST; POST here runs at the same concurrency with unique emails)."),
    Suite("mixed", "Mixed workload (the published `mixed-workload` benchmark)", PUBLISHED_PEERS, 200, 10, [
        # The published scenarios (spec/services.md 8.2): k6 virtual users that sleep after each
        # request, so the load is paced; the mix and the stages are theirs.
        Phase("mixed", [
            ep("list users", "/users?limit=20", weight=30, expect=200),
            ep("user posts", "/users/{rand:1:200}/posts", weight=15, expect=200),
            ep("get user", "/users/{rand:1:200}", weight=15, expect=200),
            ep("create user", "/users", "POST", USER_BODY, weight=20, expect=201),
            ep("create post", "/users/{rand:1:200}/posts", "POST", POST_BODY, weight=15, expect=201),
            ep("update user", "/users/{rand:1:200}", "PUT", PUT_BODY, weight=5, expect=200),
        ], stages=[{"seconds": 30, "connections": 10, "ramp": True}, {"seconds": 30, "connections": 10},
                   {"seconds": 30, "connections": 50, "ramp": True}, {"seconds": 30, "connections": 50},
                   {"seconds": 30, "connections": 100, "ramp": True}, {"seconds": 30, "connections": 100},
                   {"seconds": 30, "connections": 50, "ramp": True}], think_ms=100),
        Phase("reads only", [
            ep("list users", "/users?limit=20", weight=50, expect=200),
            ep("user posts", "/users/{rand:1:200}/posts", weight=25, expect=200),
            ep("get user", "/users/{rand:1:200}", weight=25, expect=200),
        ], connections=50, seconds=60, think_ms=50),
        Phase("writes only", [
            ep("create user", "/users", "POST", USER_BODY, weight=50, expect=201),
            ep("create post", "/users/{rand:1:200}/posts", "POST", POST_BODY, weight=35, expect=201),
            ep("update user", "/users/{rand:1:200}", "PUT", PUT_BODY, weight=15, expect=200),
        ], connections=50, seconds=60, think_ms=50),
    ], "200 seeded users with 0-10 posts each; the published k6 scenarios: mixed is 60% reads / 40% writes "
       "(30% list, 15% posts, 15% user, 20% create user, 15% create post, 5% update) over seven 30 s stages "
       "ramping 10 -> 50 -> 100 -> 50 virtual users that each pause 100 ms after a response; reads-only "
       "(50/25/25) and writes-only (50/35/15) run 50 users pausing 50 ms for 60 s. Paced like this, "
       "throughput is bounded by the pacing for any server that keeps up; latency is the comparison. "
       "Users and posts are put back to the "
       "seed before every run, so a server's reads never pay for the rows its own earlier runs wrote.", reseed=True),
    Suite("tfb", "TechEmpower Framework Benchmarks test types", ["fitz", "python", "node", "node-orm", "go", "rust"], 0, 0, [
        Phase("/json", [ep("json", "/json", expect=200)], connections=32, seconds=15),
        Phase("/plaintext", [ep("plaintext", "/plaintext", expect=200)], connections=32, seconds=15),
        Phase("/db", [ep("db", "/db", expect=200)], connections=32, seconds=15),
        Phase("/queries?queries=20", [ep("queries", "/queries?queries=20", expect=200)], connections=32, seconds=15),
        Phase("/fortunes", [ep("fortunes", "/fortunes", expect=200)], connections=32, seconds=15),
        Phase("/updates?queries=20", [ep("updates", "/updates?queries=20", expect=200)], connections=32, seconds=15),
    ], "World (10,000 rows) and Fortune tables as TechEmpower specifies; 32 connections, 15 s per test type."),
    Suite("overhead", "Framework overhead: Fitz versus hand-written C++", ["fitz", "fitz-http", "cpp", "beast"], 50, 0, [
        Phase("GET /health", [ep("health", "/health", expect=200)], connections=50, seconds=15),
        Phase("POST /echo", [ep("echo", "/echo", "POST", {"text": "hello {seq}", "n": 42}, expect=200)],
              connections=50, seconds=15),
        Phase("GET /plaintext", [ep("plaintext", "/plaintext", expect=200)], connections=50, seconds=15),
        Phase("GET /users/{id}", [ep("GET /users/{id}", "/users/{rand:1:50}", expect=200)], connections=10, seconds=15,
              only=["fitz", "cpp"]),
    ], "The same routes and the same work in Fitz, in C++ written by hand on the fitz runtime, and in C++ on "
       "bare Beast; 50 connections, 15 s each. Fitz (HTTP only) is a program with just these routes (no database "
       "client linked), the one whose memory compares with the hand-written servers. GET /users/{id} (10 connections, the published benchmark's "
       "level) compares Fitz with the same query written by hand on the fitz runtime's Postgres client; the "
       "Beast baseline has no database client."),
    Suite("memory", "Memory under sustained load and connection churn", PEERS, 200, 10, [
        Phase("sustained", [ep("get user", "/users/{rand:1:200}", expect=200)], connections=50, seconds=60),
        Phase("churn", [ep("get user", "/users/{rand:1:200}", expect=200)], connections=20, seconds=30,
              headers={"Connection": "close"}),
        Phase("ws backpressure", [ep("broadcast", "/ws/broadcast", "POST", {"text": "message {seq} " + "x" * 200, "n": 42},
                                     expect=202)],
              connections=10, seconds=60, only=["fitz"], ws_clients={"path": "/ws/room", "reading": 10, "stalled": 40}),
    ], "RSS sampled every 100 ms over 60 s of steady load and 30 s of connection churn (a new connection "
       "per request); a curve is flat when its last third is within 10% (or 1 MB) of its first third. "
       "WebSocket backpressure (Fitz only: the peers have no WebSocket endpoint): 10 clients reading and "
       "40 that never read stay connected while 10 connections POST broadcasts for 60 s; the server must "
       "close the stalled clients (1008) instead of buffering for them."),
]


def by_name():
    return {s.name: s for s in SUITES}
