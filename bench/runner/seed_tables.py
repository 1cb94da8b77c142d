"""The parts of summary.md that read a run against fixed references: the targets of the project
(each with its measured value and whether it is met) and the published benchmarks' own tables
(same rows and columns as the write-ups, our ratios next to the published ones)."""

# Published figures of the two write-ups (spec/services.md section 8), by table and row.
ORM_PUBLISHED = {
    "GET /users": {"p50": (3.57, 31.24), "p95": (5.76, 56.75), "p99": (8.22, 72.39), "rps": (2618, 297)},
    "GET /users/{id}": {"p50": (2.74, 21.52), "p95": (4.51, 44.07), "p99": (6.44, 61.50), "rps": (3377, 411)},
    "POST /users": {"p50": (174.69, 190.23), "p95": (243.97, 271.75), "p99": (304.35, 372.30), "rps": (3.28, 2.98)},
}
ORM_PUBLISHED_START = {"cold_start_ms": (340, 310), "peak_rss_mb": (9.2, 52.4)}
# Fitz, Python, Node.
MIXED_PUBLISHED = {
    "mixed": {"rps": (454.3, 142.8, 351.5), "p50": (5.61, 200.69, 23.57), "p95": (16.36, 629.36, 107.74),
              "p99": (37.12, 807.77, 149.67), "p999": (87.41, 1010.67, 299.24)},
    "reads only": {"rps": (861.1, 203.9, 574.3), "p50": (5.56, 187.27, 34.43), "p95": (15.40, 322.79, 68.66),
                   "p99": (26.77, 398.63, 93.01)},
    "writes only": {"rps": (811.1, 136.1, 541.6), "p50": (8.88, 310.62, 38.66)},
}
MIXED_PUBLISHED_START = {"cold_start_ms": (330, 300, 2590), "peak_rss_mb": (14.6, 60.6, 165.0),
                         "cpu_peak_pct": (108.5, 178.9, 215.3)}

LATENCY_ROWS = [("p50", "p50 latency (ms)"), ("p95", "p95 latency (ms)"), ("p99", "p99 latency (ms)"),
                ("p999", "p99.9 latency (ms)")]


def _phase(results, suite, impl, phase):
    p = results["suites"].get(suite, {}).get("results", {}).get(impl, {}).get("phases", {}).get(phase)
    return p if p and "refused" not in p else None


def _run(results, suite, impl):
    r = results["suites"].get(suite, {}).get("results", {}).get(impl)
    return r if r and "error" not in r else None


def _metric(results, suite, impl, phase, key):
    p = _phase(results, suite, impl, phase)
    if not p:
        return None
    if key == "rps":
        return p["rps"]
    if key == "total":
        return sum(e["requests"] for e in p.get("endpoints", []))
    if key == "success":
        ok = sum(e["requests"] for e in p.get("endpoints", []))
        bad = sum(e["errors"] + e["timeouts"] + e.get("unexpected_status", 0) for e in p.get("endpoints", []))
        return 100.0 * ok / (ok + bad) if ok + bad else None
    return p["latency_ms"].get(key)


def _cpu_peak(run):
    series = run.get("rss_series", []) if run else []
    return max((s[2] for s in series if len(s) > 2), default=None)


def _fmt(v, key):
    if v is None:
        return "–"
    if key in ("rps", "cpu_peak_pct"):
        return f"{v:.1f}" if v < 100 else f"{v:.0f}"
    if key == "total":
        return f"{v:,}"
    if key == "success":
        return f"{v:.2f}%"
    if key == "cold_start_ms":
        return f"{v:.0f} ms"
    if key == "peak_rss_mb":
        return f"{v:.1f} MB"
    return f"{v:.2f}"


def _ratio(ours, theirs, higher_is_better):
    if not ours or not theirs:
        return "–"
    return f"{(ours / theirs if higher_is_better else theirs / ours):.2f}x"


def _pub_ratio(pair, higher_is_better):
    a, b = pair
    return f"{(a / b if higher_is_better else b / a):.2f}x"


def orm_tables(results):
    """The ORM write-up's tables: Fitz (raw driver and typed ORM) against Python + SQLAlchemy."""
    if "orm" not in results["suites"] or not _run(results, "orm", "python"):
        return []
    out = ["### The published ORM-versus-SQLAlchemy tables", "",
           "Same rows as the write-up. \"Fitz\" is the raw-driver app, \"Fitz ORM\" the typed-ORM app; the "
           "ratios are Fitz over Python (for latency: Python's over Fitz's, so higher is better for Fitz) "
           "and the published ratio of Fitz ORM over Python next to them. The write-up measured POST with a "
           "sequential curl loop; ours runs at the same concurrency as the reads.", ""]
    impls = [i for i in ("fitz", "fitz-orm") if _run(results, "orm", i)]
    head = "| metric | " + " | ".join({"fitz": "Fitz", "fitz-orm": "Fitz ORM"}[i] for i in impls) + \
           " | Python + SQLAlchemy | " + " | ".join(f"{'Fitz' if i == 'fitz' else 'Fitz ORM'} / Python" for i in impls) + \
           " | published |"
    sep = "|---|" + "---|" * (2 * len(impls) + 2)
    runs = {i: _run(results, "orm", i) for i in impls + ["python"]}
    out += ["Cold start and memory:", "", head, sep]
    for key, label, hib in (("cold_start_ms", "Cold start", False), ("peak_rss_mb", "Memory peak", False)):
        vals = [runs[i].get(key) for i in impls]
        py = runs["python"].get(key)
        out.append(f"| {label} | " + " | ".join(_fmt(v, key) for v in vals) + f" | {_fmt(py, key)} | " +
                   " | ".join(_ratio(v, py, hib) for v in vals) + f" | {_pub_ratio(ORM_PUBLISHED_START[key], hib)} |")
    out.append("")
    for phase, pub in ORM_PUBLISHED.items():
        if not _phase(results, "orm", "python", phase):
            continue
        out += [f"{phase}:", "", head, sep]
        for key, label, hib in [("p50", "p50 latency (ms)", False), ("p95", "p95 latency (ms)", False),
                                ("p99", "p99 latency (ms)", False), ("rps", "Throughput (RPS)", True),
                                ("total", "Total requests", True), ("success", "Success rate", True)]:
            vals = [_metric(results, "orm", i, phase, key) for i in impls]
            py = _metric(results, "orm", "python", phase, key)
            ratios = [_ratio(v, py, hib) if key not in ("total", "success") else "—" for v in vals]
            published = _pub_ratio(pub[key], hib) if key in pub else "—"
            out.append(f"| {label} | " + " | ".join(_fmt(v, key) for v in vals) + f" | {_fmt(py, key)} | " +
                       " | ".join(ratios) + f" | {published} |")
        out.append("")
    return out


def mixed_tables(results):
    """The mixed-workload write-up's tables: Fitz against Python and Node (Express + pg; the write-up
    used Prisma, which cannot run here)."""
    if "mixed" not in results["suites"]:
        return []
    peers = [p for p in ("python", "node") if _run(results, "mixed", p)]
    if not _run(results, "mixed", "fitz") or not peers:
        return []
    names = {"python": "Python", "node": "Node"}
    head = "| metric | Fitz | " + " | ".join(names[p] for p in peers) + " | " + \
           " | ".join(f"Fitz vs {names[p]} (published)" for p in peers) + " |"
    sep = "|---|---|" + "---|" * (2 * len(peers))
    col = {"python": 1, "node": 2}
    out = ["### The published mixed-workload tables", "",
           "Same rows as the write-up; each ratio is in Fitz's favour when above 1 (throughput: Fitz over the "
           "peer; latency, memory, CPU and start: the peer over Fitz), the published ratio in brackets.", "",
           "Cold start, memory, CPU:", "", head, sep]
    runs = {i: _run(results, "mixed", i) for i in ["fitz"] + peers}
    for key, label in (("cold_start_ms", "Cold start"), ("peak_rss_mb", "Memory peak"), ("cpu_peak_pct", "CPU peak (%)")):
        get = (lambda r: _cpu_peak(r)) if key == "cpu_peak_pct" else (lambda r, k=key: r.get(k))
        f = get(runs["fitz"])
        pub = MIXED_PUBLISHED_START[key]
        out.append(f"| {label} | {_fmt(f, key)} | " + " | ".join(_fmt(get(runs[p]), key) for p in peers) + " | " +
                   " | ".join(f"{_ratio(f, get(runs[p]), False)} ({pub[0] and pub[col[p]] / pub[0]:.2f}x)" for p in peers) + " |")
    out.append("")
    for phase, pub in MIXED_PUBLISHED.items():
        if not _phase(results, "mixed", "fitz", phase):
            continue
        out += [f"{phase}:", "", head, sep]
        for key, label, hib in [("total", "Total requests", True), ("rps", "Throughput (RPS)", True)] + \
                [(k, lbl, False) for k, lbl in LATENCY_ROWS] + [("success", "Success rate", True)]:
            f = _metric(results, "mixed", "fitz", phase, key)
            vals = [_metric(results, "mixed", p, phase, key) for p in peers]
            cells = []
            for p, v in zip(peers, vals):
                if key in ("total", "success"):
                    cells.append("—")
                    continue
                pr = f" ({_pub_ratio((pub[key][0], pub[key][col[p]]), hib)})" if key in pub else ""
                cells.append(_ratio(f, v, hib) + pr)
            out.append(f"| {label} | {_fmt(f, key)} | " + " | ".join(_fmt(v, key) for v in vals) + " | " +
                       " | ".join(cells) + " |")
        out.append("")
    return out


def interop_table(results, suite):
    """Native Fitz over Fitz + Python interop + SQLAlchemy, the stack the write-ups' second column
    measured: our ratios beside the published one (their "Python+SQLAlchemy" column)."""
    if not _run(results, suite, "fitz-python"):
        return []
    natives = [(i, lbl) for i, lbl in (("fitz", "Fitz"), ("fitz-orm", "Fitz ORM")) if _run(results, suite, i)]
    if not natives:
        return []
    published = ({p: v["rps"] for p, v in ORM_PUBLISHED.items()} if suite == "orm"
                 else {p: v["rps"][:2] for p, v in MIXED_PUBLISHED.items()})
    memory = (ORM_PUBLISHED_START if suite == "orm" else MIXED_PUBLISHED_START)["peak_rss_mb"][:2]
    cols = [f"{lbl} / Fitz + Python" for _, lbl in natives]
    out = ["### Native Fitz over Fitz + Python interop", "",
           "The write-ups' \"Python+SQLAlchemy\" column was this stack (a Fitz service calling SQLAlchemy "
           "through `from python import`). Throughput and CPU per request: native over interop, higher is "
           "better for native; the published throughput ratio is the write-up's native Fitz over that column.", "",
           "| phase | metric | " + " | ".join(cols) + " | published |", "|---|---|" + "---|" * (len(cols) + 1)]
    for phase in published:
        if not _phase(results, suite, "fitz-python", phase):
            continue
        py = _phase(results, suite, "fitz-python", phase)
        rps = [_ratio(_metric(results, suite, i, phase, "rps"), py["rps"], True) for i, _ in natives]
        out.append(f"| {phase} | throughput | " + " | ".join(rps) + f" | {_pub_ratio(published[phase], True)} |")
        cpu = []
        for i, _ in natives:
            p = _phase(results, suite, i, phase)
            cpu.append(_ratio(p.get("cpu_us_per_request") if p else None, py.get("cpu_us_per_request"), False))
        out.append(f"| {phase} | requests per CPU-second | " + " | ".join(cpu) + " | — |")
    py_peak = _run(results, suite, "fitz-python").get("peak_rss_mb")
    peaks = [_ratio((_run(results, suite, i) or {}).get("peak_rss_mb"), py_peak, False) for i, _ in natives]
    out += [f"| all | memory peak (interop over native) | " + " | ".join(peaks) + f" | {_pub_ratio(memory, False)} |", ""]
    return out


def _cpu_ratio(results, suite, subject, peer, phase):
    """Requests per CPU-second of subject over peer's (the inverse ratio of their CPU per request)."""
    cpu = [(_phase(results, suite, i, phase) or {}).get("cpu_us_per_request") for i in (subject, peer)]
    return cpu[1] / cpu[0] if all(cpu) else None


def targets(results):
    """The project's targets for this machine, each measured in this run."""
    rows = []

    def add(what, measured, target, met):
        rows.append(f"| {what} | {measured} | {target} | {'met' if met else '**missed**' if met is False else 'not measured'} |")

    fid = _metric(results, "orm", "fitz", "GET /users/{id}", "rps")
    for peer, label, want in (("python", "Python + SQLAlchemy", 20), ("node", "Node + Express + pg", 5)):
        other = _metric(results, "orm", peer, "GET /users/{id}", "rps")
        r = fid / other if fid and other else None
        add(f"`GET /users/{{id}}` throughput, Fitz over {label}", f"{r:.1f}x" if r else "–", f"≥ {want}x",
            None if r is None else r >= want)
    interop, flask = (_phase(results, "orm", i, "GET /users/{id}") for i in ("fitz-python", "python"))
    cpu = [p.get("cpu_us_per_request") if p else None for p in (interop, flask)]
    r = cpu[1] / cpu[0] if all(cpu) else None
    add("`GET /users/{id}` requests per CPU-second, Fitz + Python interop over Python + SQLAlchemy",
        f"{r:.1f}x" if r else "–", "≥ 1.5x", None if r is None else r >= 1.5)
    p = _phase(results, "orm", "fitz", "GET /users/{id}")
    ceiling = next((q.get("pgbench_tps") for q in (_phase(results, "orm", i, "GET /users/{id}")
                                                   for i in results["suites"].get("orm", {}).get("results", {}))
                    if q and q.get("pgbench_tps")), None)
    share = 100 * fid / ceiling if fid and ceiling else None
    add("`GET /users/{id}`, share of pgbench's prepared tps (same query)",
        f"{share:.1f}% ({fid:.0f} of {ceiling:.0f})" if share else "–", "≥ 45%", None if share is None else share >= 45)
    fo = _metric(results, "overhead", "fitz", "GET /users/{id}", "rps")
    co = _metric(results, "overhead", "cpp", "GET /users/{id}", "rps")
    r = 100 * fo / co if fo and co else None
    add("`GET /users/{id}`, Fitz over the hand-written C++ on the fitz runtime", f"{r:.1f}%" if r else "–", "≥ 90%",
        None if r is None else r >= 90)
    for phase in ("GET /users/{id}", "GET /users"):
        p99 = _metric(results, "orm", "fitz", phase, "p99")
        add(f"`{phase}` p99 at 10 connections", f"{p99:.2f} ms" if p99 else "–", "< 2 ms", None if p99 is None else p99 < 2)
    fr, pr = _run(results, "orm", "fitz"), _run(results, "orm", "python")
    peak = fr.get("peak_rss_mb") if fr else None
    add("Fitz peak RSS under load (orm suite)", f"{peak:.1f} MB" if peak else "–", "≤ 8 MB", None if peak is None else peak <= 8)
    pyp = pr.get("peak_rss_mb") if pr else None
    r = pyp / peak if peak and pyp else None
    add("Python's peak RSS over Fitz's", f"{r:.1f}x ({pyp:.1f} MB)" if r else "–", "≥ 6x", None if r is None else r >= 6)
    f99 = _metric(results, "mixed", "fitz", "mixed", "p99")
    n99 = _metric(results, "mixed", "node", "mixed", "p99")
    r = n99 / f99 if f99 and n99 else None
    add("Mixed workload p99, Node's over Fitz's", f"{r:.1f}x ({f99:.2f} vs {n99:.2f} ms)" if r else "–", "≥ 4x",
        None if r is None else r >= 4)
    orm_phases = list(ORM_PUBLISHED)
    for peer, label, want in (("go", "Go", 1.0), ("rust", "Rust", 0.9)):
        ratios = [(phase, _cpu_ratio(results, "orm", "fitz", peer, phase)) for phase in orm_phases]
        measured = ", ".join(f"{phase} {r:.2f}x" for phase, r in ratios if r)
        what = (f"Fitz ≥ {label} per CPU-second on orm phases" if want == 1.0
                else f"Fitz ≥ {100 * want:.0f}% of {label} per CPU-second (orm phases)")
        complete = all(r for _, r in ratios)
        add(what, measured or "–", f"≥ {want:g}x on each", None if not complete else all(r >= want for _, r in ratios))
    cs = fr.get("cold_start_ms") if fr else None
    add("Fitz cold start (exec to first 200)", f"{cs:.0f} ms" if cs is not None else "–", "< 50 ms",
        None if cs is None else cs < 50)
    return ["## Targets", "", "Each target of the project on this machine, with the value this report measured:", "",
            "| target | measured | wanted | |", "|---|---|---|---|"] + rows + [""]
