"""Pictures of a simulation report (optional extra `boardrule[plot]`: matplotlib).

One figure: a histogram of final scores per agent, and beside it the mean
points each score-sheet term gave each agent (on a symmetric log scale when
one term is much larger than the others, so that it does not flatten them).
PNG or SVG, by the file's suffix.
"""

from __future__ import annotations

from pathlib import Path

from boardrule.dsl.diagnostics import UsageError

FORMATS = (".png", ".svg")


def check_plot_target(path) -> None:
    """Fail early (a usage error) when the picture cannot be made: no matplotlib, an unknown suffix."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(f"--plot writes PNG or SVG: name the file *.png or *.svg, not `{path}`", code="E001")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'boardrule[plot]'", code="E001") from None


def plot_report(report: dict, records, path) -> None:
    """Write the figure of `report` (a single run or a comparison) to `path`."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot

    parts = report["compare"] if "compare" in report else [report]
    groups = records if "compare" in report else [records]
    bars = max(len(_shown(part)) * len(part["agents"]) for part in parts)
    height = max(4.5, 0.25 * bars + 1)
    figure, axes = pyplot.subplots(len(parts), 2, figsize=(12, height * len(parts)), squeeze=False)
    for row, (part, part_records) in enumerate(zip(parts, groups)):
        title = f"{part['pack']['name']} ({part['pack']['hash']})"
        _histograms(axes[row][0], part, part_records, title)
        _attribution(axes[row][1], part, title)
    figure.tight_layout()
    figure.savefig(str(path), format=Path(path).suffix.lower()[1:], metadata=_metadata(path))
    pyplot.close(figure)


def _metadata(path) -> dict:
    # no creation date, so that the same report gives the same file
    return {"Date": None} if Path(path).suffix.lower() == ".svg" else {}


def _histograms(axis, report, records, title):
    scores = {a["agent"]: [] for a in report["agents"]}
    for record in records:
        for seat in record["seats"]:
            scores[seat["agent"]].append(seat["score"])
    everything = [s for values in scores.values() for s in values]
    low, high = min(everything), max(everything)
    bins = [low - 0.5 + i for i in range(int(high - low) + 2)] if high - low <= 60 else 40
    for agent, values in scores.items():
        axis.hist(values, bins=bins, alpha=0.55, label=f"{agent} (mean {sum(values) / len(values):.1f})")
    axis.set_title(f"Final scores: {title}")
    axis.set_xlabel("final score")
    axis.set_ylabel("results")
    axis.legend()


def _shown(report) -> list:
    """Indices of the terms that scored for some agent."""
    return [i for i in range(len(report["terms"])) if any(a["terms"][i]["nonzero"] for a in report["agents"])]


def _attribution(axis, report, title):
    """Mean points per term, on a symmetric log scale when one term would flatten the others
    (interpreter/lab/charts.py's term_scale, as the HTML report uses), each bar with its value."""
    from boardrule.interpreter.lab.charts import term_scale
    agents = report["agents"]
    shown = _shown(report)
    labels = [report["terms"][i] for i in shown]  # terms that never scored are left out
    width = 0.8 / max(1, len(agents))
    threshold = term_scale([agent["terms"][i]["mean"] or 0 for agent in agents for i in shown])
    for index, agent in enumerate(agents):
        means = [agent["terms"][i]["mean"] or 0 for i in shown]
        positions = [i + (index - (len(agents) - 1) / 2) * width for i in range(len(labels))]
        bars = axis.barh(positions, means, height=width, label=agent["agent"])
        axis.bar_label(bars, labels=[f"{m:.2f}" for m in means], padding=3, fontsize="x-small")
    axis.set_yticks(range(len(labels)))
    axis.set_yticklabels(labels)
    axis.invert_yaxis()
    axis.axvline(0, color="black", linewidth=0.8)
    axis.set_title(f"Mean points per term: {title}")
    if threshold is None:
        axis.set_xlabel("mean points per result")
    else:
        axis.set_xscale("symlog", linthresh=threshold)
        axis.set_xlabel(f"mean points per result (symmetric log scale: linear within ±{threshold:g})")
    axis.margins(x=0.15)
    axis.legend()
