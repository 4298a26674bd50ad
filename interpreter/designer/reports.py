"""Check reports for continuous integration: JUnit XML and capped GitHub annotations.

    >>> from boardrule.interpreter.designer.check import check_pack
    >>> xml = junit_xml([check_pack("tictactoe")])
    >>> xml.count("<testcase ")
    5

The library side of `boardrule check --output-format junit|github`: it
returns text, never prints.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape as _escape
from xml.sax.saxutils import quoteattr as _quoteattr

from boardrule.dsl.diagnostics import SourceStore, render, render_github, summary_line

#: GitHub shows at most this many annotations of each kind (error, warning) per step.
GITHUB_CAP = 10


def github_lines(diagnostics, cap: int = GITHUB_CAP) -> list[str]:
    """Annotations, at most `cap` of each kind; the rest as plain lines; then a summary line.

    >>> from boardrule.dsl.diagnostics import Diagnostic
    >>> lines = github_lines([Diagnostic("W1", f"w{i}", severity="warning") for i in range(12)])
    >>> lines[-1]
    '0 errors, 12 warnings (2 warnings more than the 10 GitHub annotates are listed above as text)'
    """
    shown = {"error": 0, "warning": 0}
    lines, rest = [], []
    for d in diagnostics:
        kind = "warning" if d.severity == "warning" else "error"
        if shown[kind] < cap:
            shown[kind] += 1
            lines.append(render_github(d))
        else:
            rest.append(d)
    lines.extend(render(d).splitlines()[0] if d.span is None else f"{d.span}: {d.severity}[{d.code}]: {d.message}"
                 for d in rest)
    if not diagnostics:
        return lines + ["no problems"]
    summary = summary_line(diagnostics)
    if rest:
        more = summary_line(rest).split(", ")
        more = [part for part in more if not part.startswith("0 ")]
        summary += (f" ({' and '.join(more)} more than the {cap} GitHub annotates "
                    f"{'is' if len(rest) == 1 else 'are'} listed above as text)")
    return lines + [summary]


def junit_xml(reports, sources: SourceStore | None = None, strict: bool = False) -> str:
    """One <testsuite> per pack; one <testcase> per pack test and per diagnostic.

    A failed test holds its diagnostics; an error is a failed testcase; a
    warning passes (its text in <system-out>) unless `strict`. The tests a pack
    inherits from its bases are testcases too; those it changes pass with their
    text in <system-out> unless `strict` or the pack counts them.
    """
    suites = []
    totals = {"tests": 0, "failures": 0}
    for report in reports:
        cases = []
        in_tests = set()
        for name, failures in report.tests:
            in_tests.update(id(d) for d in failures)
            cases.append(_case(f"{report.pack}.tests", name, failures, sources, strict=True))
        counted = strict or report.strict_inherited
        for name, failures in report.inherited:  # the bases' tests: information unless counted
            cases.append(_case(f"{report.pack}.inherited", name, failures, sources, strict=True, counted=counted))
        for d in report.diagnostics:
            if id(d) in in_tests:
                continue
            where = f" at {d.span}" if d.span is not None else ""
            cases.append(_case(f"{report.pack}.diagnostics", f"{d.severity} {d.code}{where}", (d,), sources,
                               strict=strict))
        if not cases:
            cases.append(_case(f"{report.pack}.check", "the pack checks clean", (), sources, strict=strict))
        failed = sum("<failure" in c for c in cases)
        totals["tests"] += len(cases)
        totals["failures"] += failed
        suites.append(f'  <testsuite name={quoteattr(report.pack)} tests="{len(cases)}" failures="{failed}" '
                      f'errors="0" time="{report.seconds:.3f}">\n' + "".join(cases) + "  </testsuite>\n")
    head = (f'<testsuites name="boardrule check" tests="{totals["tests"]}" failures="{totals["failures"]}" '
            f'errors="0">\n')
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + head + "".join(suites) + "</testsuites>\n"


# characters XML 1.0 cannot hold, even escaped
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def escape(text: str) -> str:
    return _escape(_NOT_XML.sub("?", text))


def quoteattr(text: str) -> str:
    return _quoteattr(_NOT_XML.sub("?", text), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def _case(classname: str, name: str, diagnostics, sources, strict: bool, counted: bool = True) -> str:
    open_tag = f"    <testcase classname={quoteattr(classname)} name={quoteattr(name)}>"
    failing = [d for d in diagnostics if d.severity == "error" or strict] if counted else []
    text = "\n\n".join(render(d, sources) for d in diagnostics)
    if failing:
        first = failing[0]
        body = (f"\n      <failure type={quoteattr(first.severity)} message={quoteattr(first.message)}>"
                f"{escape(text)}</failure>\n    ")
    elif diagnostics:
        body = f"\n      <system-out>{escape(text)}</system-out>\n    "
    else:
        body = ""
    return f"{open_tag}{body}</testcase>\n"
