"""Check reports as SARIF 2.1.0, the format code-scanning UIs read (`check --output-format sarif`).

    >>> from boardrule.interpreter.designer.check import check_pack
    >>> report = sarif_report([check_pack("tictactoe")])
    >>> report["version"], report["runs"][0]["tool"]["driver"]["name"], report["runs"][0]["results"]
    ('2.1.0', 'boardrule', [])

One result per diagnostic that counts (the pack's own, and with `strict`
the base tests a variant changes), with its code as the rule, its message,
its hint and notes, and its file:line:col as a region; warnings are
`warning`, errors `error`. The library returns data, the CLI prints it.
"""

from __future__ import annotations

import os
from pathlib import Path

from boardrule import __version__

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def sarif_report(reports, strict: bool = False, root: str | os.PathLike | None = None) -> dict:
    """The SARIF log of some check reports; paths relative to `root` (default: the current folder)."""
    root = Path(root) if root is not None else Path.cwd()
    diagnostics = [d for report in reports for d in report.findings(strict)]
    codes = sorted({d.code for d in diagnostics})
    results = [_result(d, root) for d in diagnostics]
    driver = {"name": "boardrule", "version": __version__,
              "rules": [{"id": code, "shortDescription": {"text": f"boardrule {code} (see docs/diagnostics.md)"}}
                        for code in codes]}
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [{"tool": {"driver": driver}, "results": results}]}


def _result(diag, root: Path) -> dict:
    text = diag.message + (f" (help: {diag.hint})" if diag.hint else "")
    result = {"ruleId": diag.code, "level": "warning" if diag.severity == "warning" else "error",
              "message": {"text": text}}
    if diag.span is not None:
        result["locations"] = [_location(diag.span, root)]
    notes = [(span, note) for span, note in diag.notes if span is not None]
    if notes:
        result["relatedLocations"] = [{**_location(span, root), "message": {"text": note}} for span, note in notes]
    return result


def _location(span, root: Path) -> dict:
    path = Path(span.file)
    try:
        uri = path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        uri = path.resolve().as_uri() if path.is_absolute() or path.exists() else span.file
    region = {"startLine": span.line, "startColumn": span.col, "endLine": span.end_line,
              "endColumn": span.end_col}
    return {"physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}}
