"""The report: results.json with every raw number, summary.md with the published benchmarks'
tables (our ratios next to the published ones) and SVG charts embedded."""
import datetime
import json
import os
import platform
import subprocess

from . import charts, seed_tables

# The published figures (spec/services.md section 8), for the "published" columns.
PUBLISHED = {
    ("orm", "GET /users"): {"fitz_rps": 2618, "python_rps": 297, "fitz_p50": 3.57, "python_p50": 31.2},
    ("orm", "GET /users/{id}"): {"fitz_rps": 3377, "python_rps": 411, "fitz_p50": 2.74, "python_p50": 21.5},
    ("orm", "memory"): {"fitz": 9.2, "python": 52.4},
    ("mixed", "mixed"): {"fitz_rps": 463, "python_rps": 164, "node_rps": 393, "fitz_p95": 11, "python_p95": 503, "node_p95": 69},
    ("mixed", "reads only"): {"fitz_rps": 900, "python_rps": 262, "node_rps": 629},
    ("mixed", "writes only"): {"fitz_rps": 847, "python_rps": 170, "node_rps": 577},
    ("mixed", "memory"): {"fitz": 14, "python": 61, "node": 163},
}


def version(argv):
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        return (r.stdout or r.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "not found"


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo") as f:
            mem_kb = int(f.readline().split()[1])
    except OSError:
        mem_kb = 0
    return {
        "cpu": cpu, "cores": os.cpu_count(), "memory_gb": round(mem_kb / 1024 / 1024, 1),
        "kernel": platform.release(), "os": version(["sh", "-c", ". /etc/os-release && echo $PRETTY_NAME"]),
        "postgres": version(["psql", "--version"]), "python": version(["/usr/bin/python3", "--version"]),
        "node": version(["node", "--version"]), "gxx": version(["g++", "--version"]),
        "go": version(["/usr/bin/go", "version"]), "rustc": version(["/usr/bin/rustc", "--version"]),
    }


# The Fitz implementations; ratios are stated from their side, against every other one.
SUBJECTS = ("fitz", "fitz-orm", "fitz-http")


def fmt_ratio(a, b):
    return f"{a / b:.1f}x" if a and b else "–"


def cpu_table(results, sname, impls, phases, ran):
    """Server CPU time per request (the whole process tree, median iteration): steadier than
    throughput when the machine is shared, and what a request costs whatever the client does."""
    rows = []
    for p in phases:
        cells = []
        for i in ran:
            ph = phase_of(results, sname, i, p)
            cells.append(f"{ph['cpu_us_per_request']:.1f}" if ph and ph.get("cpu_us_per_request") else "–")
        if any(c != "–" for c in cells):
            rows.append("| " + " | ".join([p] + cells) + " |")
    if not rows:
        return []
    out = ["Server CPU per request (µs, lower is better):", "",
           "| phase | " + " | ".join(impls[i]["label"] for i in ran) + " |", "|---|" + "---|" * len(ran)] + rows + [""]
    for subject in [x for x in SUBJECTS if x in ran]:
        for p in phases:
            f = phase_of(results, sname, subject, p)
            if not f or not f.get("cpu_us_per_request"):
                continue
            parts = []
            for peer in ran:
                q = phase_of(results, sname, peer, p)
                if peer not in SUBJECTS and q and q.get("cpu_us_per_request"):
                    parts.append(f"{q['cpu_us_per_request'] / f['cpu_us_per_request']:.2f}x the requests of {impls[peer]['label']}")
            if parts:
                out.append(f"- {p}: per CPU-second, {impls[subject]['label']} serves " + ", ".join(parts))
    return out + [""]


def phase_of(results, suite, impl, phase):
    return results["suites"].get(suite, {}).get("results", {}).get(impl, {}).get("phases", {}).get(phase)


def cell(p, key):
    if p is None:
        return "–"
    if "refused" in p:
        return "refused"
    if key == "rps":
        return f"{p['rps']:.0f}"
    return f"{p['latency_ms'][key]:.2f}"


def write(results, out_dir, meta):
    os.makedirs(out_dir, exist_ok=True)
    results["machine"] = machine()
    results["meta"] = meta
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1)

    impls = results["implementations"]
    lines = [f"# fitz bench — {meta['started']}", ""]
    m = results["machine"]
    lines += [f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gb']} GB; {m['os']}, Linux {m['kernel']}; "
              f"{m['postgres']}; {m['python']}; Node {m['node']}; {m['gxx']}; {m.get('go', '')}; {m.get('rustc', '')}.", "",
              f"Mode: {'quick smoke run (numbers are not meaningful)' if meta['quick'] else 'full'}; "
              f"{meta['iterations']} iteration(s) per phase, median reported; phase durations x{meta.get('scale', 1)}; "
              f"warm-up {meta['warmup']} s discarded; "
              "client: fitz-loadgen (1 thread) on the same machine as the server.", ""]
    if meta.get("command"):
        lines += [f"Produced by: `{meta['command']}`.", ""]
    if meta.get("note"):
        lines += [meta["note"], ""]
    lines += ["## Implementations", "", "| implementation | notes | size |", "|---|---|---|"]
    for name, info in impls.items():
        if "unavailable" in info:
            lines.append(f"| {info['label']} | **not run**: {info['unavailable']} | – |")
        else:
            lines.append(f"| {info['label']} | {info['note']} | {info['size_bytes'] / 1e6:.1f} MB |")
    lines.append("")
    if not meta["quick"]:
        lines += seed_tables.targets(results)

    for sname, suite in results["suites"].items():
        lines += [f"## {suite['title']}", "", suite["description"], ""]
        ran = list(suite["results"].keys())
        if not ran:
            lines += ["No implementation could run this suite.", ""]
            continue
        phases = []
        for r in suite["results"].values():
            for p in r.get("phases", {}):
                if p not in phases:
                    phases.append(p)
        header = "| phase | " + " | ".join(f"{impls[i]['label']} req/s | p50 | p99" for i in ran) + " |"
        lines += [header, "|---|" + "---|---|---|" * len(ran)]
        for p in phases:
            row = [p]
            for i in ran:
                ph = phase_of(results, sname, i, p)
                row += [cell(ph, "rps"), cell(ph, "p50"), cell(ph, "p99")]
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
        # Ratios against the peers, the ceiling and the published figures.
        ratio_lines = []
        for subject in [x for x in SUBJECTS if x in ran]:
            for p in phases:
                f = phase_of(results, sname, subject, p)
                if not f or "refused" in f:
                    continue
                parts = []
                for peer in ran:
                    if peer in SUBJECTS:
                        continue
                    q = phase_of(results, sname, peer, p)
                    if q and "refused" not in q and q["rps"]:
                        parts.append(f"{fmt_ratio(f['rps'], q['rps'])} {impls[peer]['label']}")
                pub = PUBLISHED.get((sname, p))
                if pub and "python_rps" in pub:
                    parts.append(f"published: native Fitz over Fitz + Python interop {pub['fitz_rps'] / pub['python_rps']:.1f}x")
                ceiling = next((q["pgbench_tps"] for q in (phase_of(results, sname, i, p) for i in ran)
                                if q and "pgbench_tps" in q), None)
                if ceiling:
                    parts.append(f"{100 * f['rps'] / ceiling:.0f}% of pgbench's {ceiling:.0f} tps")
                if parts:
                    ratio_lines.append(f"- {p}: {impls[subject]['label']} throughput = " + ", ".join(parts))
        if ratio_lines:
            lines += ["Ratios (measured in this run):", ""] + ratio_lines + [""]
        lines += cpu_table(results, sname, impls, phases, ran)
        lines += {"orm": seed_tables.orm_tables, "mixed": seed_tables.mixed_tables}.get(sname, lambda r: [])(results)
        lines += seed_tables.interop_table(results, sname)
        lines += ["| implementation | cold start | peak RSS | idle RSS |", "|---|---|---|---|"]
        for i in ran:
            r = suite["results"][i]
            pub = PUBLISHED.get((sname, "memory"), {}).get(i)
            pubs = f" (published {pub} MB)" if pub else ""
            if "error" in r:
                lines.append(f"| {impls[i]['label']} | failed: {r['error']} | | |")
                continue
            lines.append(f"| {impls[i]['label']} | {r.get('cold_start_ms', 0):.0f} ms | "
                         f"{r.get('peak_rss_mb', 0):.1f} MB{pubs} | {r.get('idle_rss_mb', 0):.1f} MB |")
        lines.append("")
        if sname == "memory":
            lines += ["Flatness (last third of the phase against its first third):", ""]
            for i in ran:
                r = suite["results"][i]
                for p, ph in r.get("phases", {}).items():
                    verdict = charts.flatness(r.get("rss_series", []), ph.get("window"))
                    lines.append(f"- {impls[i]['label']} / {p}: {verdict}")
            lines.append("")
        svg = charts.throughput_chart(suite, impls, phases, ran)
        name = f"{sname}-throughput.svg"
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(svg)
        lines += [f"![{sname} throughput]({name})", ""]
        svg = charts.latency_chart(suite, impls, phases, ran)
        name = f"{sname}-latency.svg"
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(svg)
        lines += [f"![{sname} latency]({name})", ""]
        svg = charts.rss_chart(suite, impls, ran)
        name = f"{sname}-rss.svg"
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(svg)
        lines += [f"![{sname} RSS over time]({name})", ""]

    refused = meta.get("refused", [])
    if refused:
        lines += ["## Refused runs", "", "These phases had more than 0.1% failed requests or did not run; "
                  "their numbers are not reported as results:", ""] + [f"- {r}" for r in refused] + [""]
    lines += ["Raw numbers: `results.json`. Reproduce: `fitz bench` (see bench/README.md).", ""]
    with open(os.path.join(out_dir, "summary.md"), "w") as f:
        f.write("\n".join(lines))
    return os.path.join(out_dir, "summary.md")


def timestamp():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
