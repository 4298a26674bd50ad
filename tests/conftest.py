"""Figures the suite prints at the end of a run."""

from __future__ import annotations

import sys


def pytest_terminal_summary(terminalreporter):
    """How many fuzz inputs ran and how far each got (zero crashes, or the run failed)."""
    fuzz = sys.modules.get("test_fuzz") or sys.modules.get("tests.test_fuzz")
    outcomes = getattr(fuzz, "FUZZ_OUTCOMES", None)
    if not outcomes:
        return
    total = sum(outcomes.values())
    parts = ", ".join(f"{n} {stage}" for stage, n in sorted(outcomes.items()))
    terminalreporter.write_line(f"fuzz: {total} inputs ({parts})")
