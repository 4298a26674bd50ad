"""What docs/language.md says of a built-in name: its bullet lines and its examples.

The language server's hover (dsl/navigation.py) shows this text beside the
signature from builtins.py, so an editor says what the designers' manual says.

    >>> text = builtin_docs("step")
    >>> "step(c, d)" in text and "# =>" in text
    True

The manual ships inside the package (`boardrule.docs`); a copy that cannot be
read gives no text, never an error.
"""

from __future__ import annotations

import functools
import importlib.resources
import re

MAX_EXAMPLES = 4
_FENCE = re.compile(r"^```(\w*)$")  # as tests/test_docs.py reads them: a block opens with its language
_BULLET = re.compile(r"^- `([^`]+)`")


@functools.lru_cache(maxsize=1)
def _manual() -> tuple:
    """(bullet paragraphs, expression examples) of docs/language.md."""
    try:
        text = (importlib.resources.files("boardrule.docs") / "language.md").read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError, ValueError):
        return (), ()
    bullets, examples = [], []
    fence = None
    current: list | None = None
    for line in text.splitlines():
        opened = _FENCE.match(line)
        if opened and (fence is not None or opened.group(1)):
            fence = None if fence is not None else opened.group(1)
            current = None
            continue
        if fence == "expr":
            if line.strip() and not line.startswith("#"):
                examples.append(line.rstrip())
            continue
        if fence is not None:
            continue
        if _BULLET.match(line):
            current = [line[2:].strip()]
            bullets.append(current)
        elif current is not None and line.startswith("  ") and line.strip():
            current.append(line.strip())
        else:
            current = None
    return tuple(" ".join(b) for b in bullets), tuple(examples)


def _names(code: str, name: str) -> bool:
    """Whether a code span of the manual is about `name` (`step(c, d)`, `players`, `p.cells`)."""
    return re.match(rf"(?:\w+\.)?{re.escape(name)}(?:\(|$|\s)", code) is not None


def builtin_docs(name: str) -> str:
    """The manual's bullet lines about `name` and up to MAX_EXAMPLES of its examples, as Markdown."""
    bullets, examples = _manual()
    about = [b for b in bullets if _names(_BULLET.match("- " + b).group(1), name)]
    shown = [e for e in examples if re.search(rf"(?<![\w.]){re.escape(name)}\b", e.split("# =>")[0])]
    shown.sort(key=lambda e: not e.startswith(name))  # the examples that show the name itself first
    parts = list(about)
    if shown:
        parts.append("```\n" + "\n".join(shown[:MAX_EXAMPLES]) + "\n```")
    return "\n\n".join(parts)
