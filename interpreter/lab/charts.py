"""Charts of a simulation report as plain SVG text, and the scale the term charts use.

A chart is a spec (a dict: `kind`, `title` and its data) so that the same
chart can be drawn by matplotlib when it is installed (charts_mpl.py) or by
this module, which needs nothing: the HTML report (simhtml.py) inlines
either. Three kinds:

- `histogram`: `series` [(name, values)], `xlabel`: overlaid histograms;
- `bars`: `labels`, `series` [(name, values per label)]: grouped horizontal
  bars on `term_scale`'s scale, each with its value written beside it;
- `intervals`: `rows` [(label, estimate, low, high)], `reference` (a
  vertical line: 0, or a fair share), `percent`: estimates with their 95%
  intervals.

    >>> svg = draw({"kind": "intervals", "title": "t", "rows": [("a", 0.5, 0.2, 0.8)], "reference": 0.5})
    >>> svg.startswith("<svg") and "</svg>" in svg
    True
"""

from __future__ import annotations

import bisect
import math
from html import escape

#: colours of the agents (matplotlib's default cycle), by the order they are named
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")
WIDTH = 640
LEFT, RIGHT, TOP = 150, 30, 34
BARS_LEFT = LEFT + 45  # room for a negative bar's value
ROW = 22  # height of a bar group's line or an interval's row
#: a term larger than this many times the typical term squeezes the others on a linear scale
SPREAD = 5.0
MAX_BINS = 40


# ------------------------------------------------------------------ the term scale
def term_scale(values) -> float | None:
    """The scale of a chart of mean points per term: None for a linear one, or the threshold
    of a symmetric log scale (linear up to it, logarithmic beyond) when one term is more than
    SPREAD times the typical (median) nonzero term, so that it does not flatten the others.

    >>> term_scale([1.0, 2.0, 3.0]) is None
    True
    >>> term_scale([-12.6, 0.5, 1.2, 2.0])
    1.6
    """
    sizes = sorted(abs(v) for v in values if v)
    if len(sizes) < 2:
        return None
    middle = len(sizes) // 2
    typical = sizes[middle] if len(sizes) % 2 else (sizes[middle - 1] + sizes[middle]) / 2
    return typical if sizes[-1] > SPREAD * typical else None


def scaled(value: float, threshold: float | None) -> float:
    """A value on the term scale: itself (linear), or its symmetric log (in thresholds)."""
    if threshold is None:
        return value
    size = abs(value)
    out = size / threshold if size <= threshold else 1 + math.log10(size / threshold)
    return math.copysign(out, value)


def scale_ticks(low: float, high: float, threshold: float | None) -> list:
    """Real values to mark on the axis between `low` and `high`."""
    if threshold is None:
        return _nice_ticks(low, high)
    ticks = [0.0]
    step = 10.0 ** math.floor(math.log10(threshold))  # the powers of ten from about the threshold up
    while step <= max(abs(low), abs(high)) * 1.0001:
        ticks += [t for t in (step, -step) if low <= t <= high]
        step *= 10
    return sorted(ticks)


def _nice_ticks(low: float, high: float, count: int = 5) -> list:
    if high <= low:
        return [low]
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    return [round(first + i * step, 10) for i in range(int((high - first) / step + 1e-9) + 1)]


def _label(value: float, percent: bool = False) -> str:
    if percent:
        return f"{value * 100:.0f}%"
    return f"{value:g}" if abs(value) >= 0.01 or value == 0 else f"{value:.2g}"


# ------------------------------------------------------------------ drawing
def draw(spec: dict) -> str:
    """The SVG text of a chart spec."""
    return {"histogram": _histogram, "bars": _bars, "intervals": _intervals}[spec["kind"]](spec)


def _svg(height: int, body: list, title: str) -> str:
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12" role="img">')
    caption = f'<text x="{WIDTH / 2:.1f}" y="18" text-anchor="middle" font-size="14">{escape(title)}</text>'
    return "\n".join([head, f"<title>{escape(title)}</title>", caption, *body, "</svg>"])


def _axis(x_of, ticks, y_top, y_bottom, percent=False) -> list:
    out = [f'<line x1="{LEFT}" y1="{y_bottom}" x2="{WIDTH - RIGHT}" y2="{y_bottom}" stroke="#000"/>']
    for tick, shown in ticks:
        x = x_of(tick)
        out.append(f'<line x1="{x:.1f}" y1="{y_top}" x2="{x:.1f}" y2="{y_bottom}" stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{y_bottom + 15}" text-anchor="middle">{escape(_label(shown, percent))}'
                   "</text>")
    return out


def _legend(names, y) -> list:
    out, x = [], LEFT
    for index, name in enumerate(names):
        out.append(f'<rect x="{x}" y="{y - 9}" width="10" height="10" fill="{PALETTE[index % len(PALETTE)]}"/>')
        out.append(f'<text x="{x + 14}" y="{y}">{escape(str(name))}</text>')
        x += 24 + 7 * len(str(name))
    return out


def histogram_bins(values) -> list:
    """Bin edges: one bin per whole score when the range allows, else MAX_BINS equal bins."""
    low, high = min(values), max(values)
    if all(float(v).is_integer() for v in values) and high - low <= 60:
        return [low - 0.5 + i for i in range(int(high - low) + 2)]
    if high == low:
        return [low - 0.5, high + 0.5]
    step = (high - low) / MAX_BINS
    return [low + i * step for i in range(MAX_BINS + 1)]


def counts_in(values, edges) -> list:
    counts = [0] * (len(edges) - 1)
    for v in values:
        counts[min(max(bisect.bisect_right(edges, v) - 1, 0), len(counts) - 1)] += 1
    return counts


def _histogram(spec: dict) -> str:
    series = [(name, list(values)) for name, values in spec["series"] if values]
    everything = [v for _, values in series for v in values]
    height = 260
    if not everything:
        return _svg(60, ['<text x="20" y="45">no results</text>'], spec["title"])
    edges = histogram_bins(everything)
    counted = [(name, counts_in(values, edges)) for name, values in series]
    top = max(max(c) for _, c in counted) or 1
    y_bottom, y_top = height - 50, TOP + 10
    span = edges[-1] - edges[0]

    def x_of(v):
        return LEFT + (v - edges[0]) / span * (WIDTH - LEFT - RIGHT)

    body = []
    for index, (name, counts) in enumerate(counted):
        colour = PALETTE[index % len(PALETTE)]
        for left, right, count in zip(edges, edges[1:], counts):
            if count:
                h = count / top * (y_bottom - y_top)
                body.append(f'<rect x="{x_of(left):.1f}" y="{y_bottom - h:.1f}" width="{x_of(right) - x_of(left):.1f}" '
                            f'height="{h:.1f}" fill="{colour}" fill-opacity="0.55"><title>{escape(str(name))}: '
                            f"{count} at {_label((left + right) / 2)}</title></rect>")
    whole = all(float(v).is_integer() for v in everything)
    ticks = [(t, t) for t in _nice_ticks(edges[0], edges[-1]) if not whole or float(t).is_integer()]
    body += _axis(x_of, ticks, y_top, y_bottom)
    body.append(f'<text x="{LEFT - 8}" y="{y_top + 4}" text-anchor="end">{top}</text>')
    body.append(f'<text x="{LEFT - 8}" y="{y_bottom}" text-anchor="end">0</text>')
    body.append(f'<text x="{LEFT - 8}" y="{(y_top + y_bottom) / 2:.1f}" text-anchor="end">results</text>')
    body.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.1f}" y="{y_bottom + 30}" text-anchor="middle">'
                f'{escape(spec.get("xlabel", ""))}</text>')
    body += _legend([f"{name} (mean {sum(v) / len(v):.2f})" for name, v in series], height - 6)
    return _svg(height, body, spec["title"])


def bar_geometry(spec: dict) -> list:
    """(label, series name, value, x, width) of every bar: where each is drawn on the scale."""
    labels, series = spec["labels"], spec["series"]
    threshold = term_scale([v for _, values in series for v in values])
    values = [scaled(v, threshold) for _, vs in series for v in vs] + [0.0]
    low, high = min(values), max(values)
    span = (high - low) or 1.0

    def x_of(v):
        return BARS_LEFT + (scaled(v, threshold) - low) / span * (WIDTH - BARS_LEFT - RIGHT - 45)

    out = []
    for name, vs in series:
        for label, v in zip(labels, vs):
            start, end = sorted((x_of(0.0), x_of(v)))
            out.append((label, name, v, start, end - start))
    return out


def _bars(spec: dict) -> str:
    labels, series = spec["labels"], spec["series"]
    threshold = term_scale([v for _, values in series for v in values])
    group = ROW * max(1, len(series)) + 8
    height = TOP + 20 + group * len(labels) + 60
    geometry = bar_geometry(spec)
    values = [scaled(v, threshold) for _, vs in series for v in vs] + [0.0]
    low, high = min(values), max(values)
    span = (high - low) or 1.0

    def x_of(real):
        return BARS_LEFT + (scaled(real, threshold) - low) / span * (WIDTH - BARS_LEFT - RIGHT - 45)

    body = []
    y_bottom = height - 50
    for index, (label, name, value, x, width) in enumerate(geometry):
        s, row = divmod(index, len(labels))
        y = TOP + 14 + row * group + s * ROW
        colour = PALETTE[s % len(PALETTE)]
        body.append(f'<rect x="{x:.1f}" y="{y}" width="{max(width, 0.5):.1f}" height="{ROW - 4}" fill="{colour}">'
                    f"<title>{escape(str(name))}, {escape(str(label))}: {value:.3f}</title></rect>")
        anchor_x = x + width + 4 if value >= 0 else x - 4
        body.append(f'<text x="{anchor_x:.1f}" y="{y + ROW - 8}" text-anchor="{"start" if value >= 0 else "end"}" '
                    f'font-size="11">{value:.2f}</text>')
    for row, label in enumerate(labels):
        y = TOP + 14 + row * group + (group - 8) / 2 + 4
        body.append(f'<text x="{LEFT - 8}" y="{y:.1f}" text-anchor="end">{escape(str(label))}</text>')
    ticks = [(t, t) for t in scale_ticks(_real(low, threshold), _real(high, threshold), threshold)]
    body += _axis(x_of, ticks, TOP + 8, y_bottom)
    body.append(f'<line x1="{x_of(0.0):.1f}" y1="{TOP + 8}" x2="{x_of(0.0):.1f}" y2="{y_bottom}" stroke="#000"/>')
    note = ("mean points per result" if threshold is None else
            f"mean points per result (symmetric log scale: linear within ±{_label(threshold)})")
    body.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.1f}" y="{y_bottom + 30}" text-anchor="middle">'
                f"{escape(note)}</text>")
    body += _legend([name for name, _ in series], height - 6)
    return _svg(height, body, spec["title"])


def _real(value: float, threshold: float | None) -> float:
    """The inverse of `scaled`."""
    if threshold is None:
        return value
    size = abs(value)
    out = size * threshold if size <= 1 else threshold * 10 ** (size - 1)
    return math.copysign(out, value)


def _intervals(spec: dict) -> str:
    rows = [r for r in spec["rows"] if r[1] is not None]
    percent = spec.get("percent", False)
    reference = spec.get("reference")
    height = TOP + 16 + ROW * max(1, len(rows)) + 50
    points = [v for _, est, low, high in rows for v in (est, low, high) if v is not None]
    points += [reference] if reference is not None else []
    if not points:
        return _svg(60, ['<text x="20" y="45">too few games</text>'], spec["title"])
    low, high = min(points), max(points)
    pad = (high - low) * 0.08 or 0.5
    low, high = low - pad, high + pad

    def x_of(v):
        return LEFT + (v - low) / (high - low) * (WIDTH - LEFT - RIGHT)

    y_bottom = height - 44
    body = []
    if reference is not None:
        body.append(f'<line x1="{x_of(reference):.1f}" y1="{TOP + 8}" x2="{x_of(reference):.1f}" y2="{y_bottom}" '
                    'stroke="#d62728" stroke-dasharray="4 3"/>')
    for index, (label, estimate, lo, hi) in enumerate(rows):
        y = TOP + 22 + index * ROW
        if lo is not None and hi is not None:
            body.append(f'<line x1="{x_of(lo):.1f}" y1="{y}" x2="{x_of(hi):.1f}" y2="{y}" stroke="#1f77b4" '
                        'stroke-width="2"/>')
            for end in (lo, hi):
                body.append(f'<line x1="{x_of(end):.1f}" y1="{y - 5}" x2="{x_of(end):.1f}" y2="{y + 5}" '
                            'stroke="#1f77b4" stroke-width="2"/>')
        shown = _label(estimate, percent) if percent else f"{estimate:.2f}"
        body.append(f'<circle cx="{x_of(estimate):.1f}" cy="{y}" r="4" fill="#1f77b4"><title>{escape(str(label))}: '
                    f"{shown}</title></circle>")
        body.append(f'<text x="{LEFT - 8}" y="{y + 4}" text-anchor="end">{escape(str(label))}</text>')
    ticks = [(t, t) for t in _nice_ticks(low, high)]
    body += _axis(x_of, ticks, TOP + 8, y_bottom, percent)
    if spec.get("xlabel"):
        body.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.1f}" y="{y_bottom + 32}" text-anchor="middle">'
                    f'{escape(spec["xlabel"])}</text>')
    return _svg(height, body, spec["title"])
