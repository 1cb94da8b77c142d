"""Plain SVG charts (no plotting library needed): grouped bars for throughput and latency
percentiles, lines for RSS over time."""
from xml.sax.saxutils import escape

COLORS = {"fitz": "#2f7ed8", "fitz-orm": "#1b4f8a", "fitz-http": "#6fa8dc", "cpp": "#555555", "beast": "#a0a0a0", "python": "#f28f43", "node": "#3aa655", "node-orm": "#8bbc21",
          "go": "#00add8", "rust": "#b7410e"}
W, H, PAD_L, PAD_B, PAD_T = 760, 320, 70, 70, 40


def _color(name):
    return COLORS.get(name, "#999999")


def _frame(title, ymax, unit):
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="18" text-anchor="middle" font-size="14">{escape(title)}</text>']
    for k in range(5):
        v = ymax * k / 4
        y = H - PAD_B - (H - PAD_B - PAD_T) * k / 4
        out.append(f'<line x1="{PAD_L}" y1="{y:.1f}" x2="{W - 10}" y2="{y:.1f}" stroke="#e5e5e5"/>')
        out.append(f'<text x="{PAD_L - 6}" y="{y + 4:.1f}" text-anchor="end">{v:,.0f}{unit}</text>')
    return out


LEGEND_ROW = 16


def _legend(out, names, labels):
    """Appends the legend, wrapped into rows below the chart, grows the picture to hold them and
    closes it."""
    x, row = PAD_L, 0
    for n in names:
        width = 24 + 7 * len(labels[n]["label"])
        if x > PAD_L and x + width > W:
            x, row = PAD_L, row + 1
        y = H - 18 + LEGEND_ROW * row
        out.append(f'<rect x="{x}" y="{y}" width="10" height="10" fill="{_color(n)}"/>')
        out.append(f'<text x="{x + 14}" y="{y + 9}">{escape(labels[n]["label"])}</text>')
        x += width
    if row:
        height = H + LEGEND_ROW * row
        out[0] = out[0].replace(f'height="{H}"', f'height="{height}"', 1)
        out[1] = out[1].replace(f'height="{H}"', f'height="{height}"', 1)
    out.append("</svg>")


def _bars(title, groups, series, value, labels, unit=""):
    vals = [value(g, s) or 0 for g in groups for s in series]
    ymax = max(vals + [1]) * 1.1
    out = _frame(title, ymax, unit)
    gw = (W - PAD_L - 20) / max(1, len(groups))
    bw = gw * 0.8 / max(1, len(series))
    for gi, g in enumerate(groups):
        x0 = PAD_L + gi * gw + gw * 0.1
        for si, s in enumerate(series):
            v = value(g, s)
            if v is None:
                continue
            h = (H - PAD_B - PAD_T) * v / ymax
            x = x0 + si * bw
            out.append(f'<rect x="{x:.1f}" y="{H - PAD_B - h:.1f}" width="{bw - 2:.1f}" height="{h:.1f}" '
                       f'fill="{_color(s)}"><title>{escape(labels[s]["label"])}: {v:,.2f}</title></rect>')
        out.append(f'<text x="{x0 + gw * 0.4:.1f}" y="{H - PAD_B + 16}" text-anchor="middle">{escape(g[:28])}</text>')
    _legend(out, series, labels)
    return "\n".join(out) + "\n"


def _phase(suite, impl, phase):
    p = suite["results"].get(impl, {}).get("phases", {}).get(phase)
    return None if p is None or "refused" in p else p


def throughput_chart(suite, labels, phases, impls):
    return _bars(f"{suite['title']}: throughput (req/s, median)", phases, impls,
                 lambda g, s: (_phase(suite, s, g) or {}).get("rps"), labels)


def latency_chart(suite, labels, phases, impls):
    def p99(g, s):
        p = _phase(suite, s, g)
        return p["latency_ms"]["p99"] if p else None
    return _bars(f"{suite['title']}: p99 latency (ms)", phases, impls, p99, labels, " ms")


def rss_chart(suite, labels, impls):
    series = {i: suite["results"][i].get("rss_series", []) for i in impls}
    tmax = max([s[-1][0] for s in series.values() if s] + [1])
    ymax = max([p[1] for s in series.values() for p in s] + [1]) * 1.1
    out = _frame(f"{suite['title']}: RSS over the run (MB)", ymax, " MB")
    for name, pts in series.items():
        if not pts:
            continue
        step = max(1, len(pts) // 600)
        coords = " ".join(f"{PAD_L + (W - PAD_L - 20) * t / tmax:.1f},{H - PAD_B - (H - PAD_B - PAD_T) * r / ymax:.1f}"
                          for t, r, _ in pts[::step])
        out.append(f'<polyline fill="none" stroke="{_color(name)}" stroke-width="1.5" points="{coords}"/>')
    out.append(f'<text x="{W / 2}" y="{H - PAD_B + 30}" text-anchor="middle">seconds since the server started '
               f'({tmax:.0f} s)</text>')
    _legend(out, impls, labels)
    return "\n".join(out) + "\n"


def flatness(samples, window):
    """Whether RSS plateaued inside [start, end]: the median of its last third against its first third."""
    if not window:
        return "no samples"
    inside = [r for t, r, _ in samples if window[0] <= t <= window[1]]
    if len(inside) < 6:
        return "too few samples"
    third = len(inside) // 3
    first = sorted(inside[:third])[third // 2]
    last = sorted(inside[-third:])[third // 2]
    growth = last - first
    flat = growth <= max(1.0, 0.1 * first)
    return f"{'flat' if flat else 'GROWING'} ({first:.1f} MB -> {last:.1f} MB)"
