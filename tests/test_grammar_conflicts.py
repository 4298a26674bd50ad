"""The grammar (dsl/boardrule.lark) is conflict-free LALR(1) for every entry point.

Lark resolves a shift/reduce conflict silently as a shift (it only logs it,
and only when asked), so a conflict is a precedence decision nobody made: the
parse of some text may not be the one the grammar seems to say.  Built with
``debug=True`` Lark logs every such conflict; a reduce/reduce conflict is a
GrammarError ("Reduce/Reduce collision").  Both fail this test.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from pathlib import Path

import lark
import pytest

from boardrule.dsl.parser import FIELD_KINDS

ROOT = Path(__file__).resolve().parents[1]
GRAMMAR = ROOT / "dsl" / "boardrule.lark"
#: The entry points this test was asked to cover; any other the parser uses is checked too.
START_RULES = ["expr_field", "effect_field", "chart_field", "grid_field", "cells_field", "players_field"]
ALL_STARTS = START_RULES + [k + "_field" for k in FIELD_KINDS if k + "_field" not in START_RULES]


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@contextmanager
def lark_log():
    """Every message `lark.logger` emits inside the block, at DEBUG level and above."""
    handler = _Collect()
    level = lark.logger.level
    lark.logger.addHandler(handler)
    lark.logger.setLevel(logging.DEBUG)
    try:
        yield handler.messages
    finally:
        lark.logger.setLevel(level)
        lark.logger.removeHandler(handler)


def build(grammar: str, start) -> list[str]:
    """Build an LALR parser with debug on and no cache; the messages logged meanwhile."""
    with lark_log() as messages:
        try:
            lark.Lark(grammar, parser="lalr", start=start, debug=True, cache=False)
        except lark.exceptions.GrammarError as err:
            messages.append(f"GrammarError: {err}")
    return messages


def conflicts(messages) -> list[str]:
    return [m for m in messages if "conflict" in m.lower() or "collision" in m.lower()]


def test_the_start_rules_are_the_parsers():
    assert set(START_RULES) <= {k + "_field" for k in FIELD_KINDS}


def test_grammar_has_no_conflicts():
    messages = build(GRAMMAR.read_text(encoding="utf-8"), ALL_STARTS)
    assert not conflicts(messages), "\n".join(messages)


@pytest.mark.parametrize("start", ALL_STARTS)
def test_each_entry_point_alone_has_no_conflicts(start):
    messages = build(GRAMMAR.read_text(encoding="utf-8"), [start])
    assert not conflicts(messages), "\n".join(messages)


# The checks above would pass vacuously if the log were not captured: make sure it is.
def test_a_shift_reduce_conflict_is_seen():
    messages = build('start: e\ne: e "+" e | "x"\n', ["start"])
    assert any("Shift/Reduce conflict" in m for m in conflicts(messages)), messages


def test_a_reduce_reduce_conflict_is_seen():
    messages = build('start: a | b\na: "x"\nb: "x"\n', ["start"])
    assert any("Reduce/Reduce" in m for m in conflicts(messages)), messages
