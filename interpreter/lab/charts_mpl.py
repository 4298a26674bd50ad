"""The charts of charts.py drawn by matplotlib (when it is installed), as SVG text to inline.

Same specs, same scales (charts.term_scale): matplotlib's symmetric log scale
with the same threshold. Text stays text (svg.fonttype none), no date is
written, and each chart's ids are salted with its number so that several
charts share one page without clashing: the same report gives the same page.
"""

from __future__ import annotations

import io
import re

from boardrule.interpreter.lab.charts import PALETTE, histogram_bins, term_scale

WIDTH_IN = 6.4
HISTOGRAM_WIDTH_IN = 4.8


def available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def draw(spec: dict, number: int = 0) -> str:
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot

    rows = len(spec.get("labels", ())) * max(1, len(spec.get("series", ()))) if spec["kind"] == "bars" else \
        len(spec.get("rows", ())) if spec["kind"] == "intervals" else 0
    height = {"histogram": 2.8, "bars": 1.2 + 0.24 * rows, "intervals": 1.0 + 0.3 * rows}[spec["kind"]]
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": f"boardrule-{number}",
                                "axes.prop_cycle": matplotlib.cycler(color=list(PALETTE))}):
        width = HISTOGRAM_WIDTH_IN if spec["kind"] == "histogram" else WIDTH_IN  # two side by side
        figure, axis = pyplot.subplots(figsize=(width, max(height, 1.6)))
        {"histogram": _histogram, "bars": _bars, "intervals": _intervals}[spec["kind"]](axis, spec)
        axis.set_title(spec["title"])
        figure.tight_layout()
        out = io.StringIO()
        figure.savefig(out, format="svg", metadata={"Date": None})
        pyplot.close(figure)
    text = out.getvalue()
    return _own_ids(text[text.index("<svg"):], number)  # the XML prolog and doctype do not belong in HTML


def _own_ids(svg: str, number: int) -> str:
    """The chart without matplotlib's metadata block, and with every id (matplotlib names its
    groups `figure_1`, `patch_1`... in every chart) and every reference to one prefixed with
    the chart's number: ids unique in the page."""
    prefix = f"c{number}-"
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.S)  # matplotlib's RDF credits: not needed
    svg = re.sub(r'(\sid=")([^"]+)"', lambda m: f'{m.group(1)}{prefix}{m.group(2)}"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})", svg)
    return re.sub(r'(href=")#([^"]+)"', lambda m: f'{m.group(1)}#{prefix}{m.group(2)}"', svg)


def _histogram(axis, spec):
    series = [(name, list(values)) for name, values in spec["series"] if values]
    everything = [v for _, values in series for v in values]
    if not everything:
        axis.text(0.5, 0.5, "no results", ha="center", transform=axis.transAxes)
        return
    edges = histogram_bins(everything)
    for name, values in series:
        axis.hist(values, bins=edges, alpha=0.55, label=f"{name} (mean {sum(values) / len(values):.2f})")
    if all(float(v).is_integer() for v in everything):
        from matplotlib.ticker import MaxNLocator
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
    axis.set_xlabel(spec.get("xlabel", ""))
    axis.set_ylabel("results")
    axis.legend(fontsize="small")


def _bars(axis, spec):
    labels, series = spec["labels"], spec["series"]
    threshold = term_scale([v for _, values in series for v in values])
    width = 0.8 / max(1, len(series))
    for index, (name, values) in enumerate(series):
        positions = [i + (index - (len(series) - 1) / 2) * width for i in range(len(labels))]
        bars = axis.barh(positions, values, height=width, label=name)
        axis.bar_label(bars, labels=[f"{v:.2f}" for v in values], padding=3, fontsize="x-small")
    axis.set_yticks(range(len(labels)))
    axis.set_yticklabels(labels)
    axis.invert_yaxis()
    axis.axvline(0, color="black", linewidth=0.8)
    if threshold is not None:
        axis.set_xscale("symlog", linthresh=threshold)
        axis.set_xlabel(f"mean points per result (symmetric log scale: linear within ±{threshold:g})")
    else:
        axis.set_xlabel("mean points per result")
    axis.margins(x=0.15)
    axis.legend(fontsize="small")


def _intervals(axis, spec):
    rows = [r for r in spec["rows"] if r[1] is not None]
    for index, (label, estimate, low, high) in enumerate(rows):
        if low is not None and high is not None:
            spread = [[max(estimate - low, 0.0)], [max(high - estimate, 0.0)]]  # rounding may put it a hair out
            axis.errorbar([estimate], [index], xerr=spread, fmt="o", capsize=4,
                          color=PALETTE[0])
        else:
            axis.plot([estimate], [index], "o", color=PALETTE[0])
    if spec.get("reference") is not None:
        axis.axvline(spec["reference"], color=PALETTE[3], linestyle="--", linewidth=1)
    axis.set_yticks(range(len(rows)))
    axis.set_yticklabels([r[0] for r in rows])
    axis.set_ylim(len(rows) - 0.5, -0.5)
    if spec.get("percent"):
        axis.xaxis.set_major_formatter(lambda value, _: f"{value * 100:.0f}%")
    if spec.get("xlabel"):
        axis.set_xlabel(spec["xlabel"])
