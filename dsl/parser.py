"""Parse one language fragment (the text of a pack field) into AST nodes.

    >>> from boardrule.dsl.parser import parse_fragment
    >>> parse_fragment("1 + 2", "expr").op
    '+'

Lark's exceptions never leave this module: a syntax error becomes a PackError
whose span points into the pack file, with what was expected instead.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Tree
from lark.exceptions import (LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken,
                             VisitError)

from boardrule.dsl.diagnostics import Diagnostic, PackError, Span
from boardrule.dsl.transform import AstBuilder

_WORDS = {"expr": "expression", "players": "player count", "grid": "board declaration", "cells": "list of cells",
          "art": "shape art"}
FIELD_KINDS = ("expr", "effect", "chart", "grid", "cells", "players", "art")
MAX_FRAGMENT = 20_000  # characters in one field
MAX_NESTING = 100  # brackets open at once
MAX_DEPTH = 200  # levels of the syntax tree (the checker and the closures recurse)

_READABLE = {
    "$END": "the end of the text", "NAME": "a name", "INT": "a number", "DECIMAL": "a number", "SIGNED_INT": "a number", "STRING": "a string",
    "CELL_NAME": "a cell name like A1", "COMP_OP": "a comparison", "GRID_KIND": "`square` or `hex`",
    "CHANGE_OP": "`+=` or `-=`", "CHOOSE_MODE": "`optional`", "ART_CELL": "a cell of the art (a name or `.`)",
    "LPAR": "`(`", "RPAR": "`)`", "LSQB": "`[`", "RSQB": "`]`", "LBRACE": "`{`", "RBRACE": "`}`",
    "COMMA": "`,`", "COLON": "`:`", "DOT": "`.`", "PLUS": "`+`", "MINUS": "`-`", "STAR": "`*`",
    "SLASH": "`/`", "PERCENT": "`%`", "EQUAL": "`=`", "SEMICOLON": "`;`",
}


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = Path(__file__).with_name("boardrule.lark").read_text()  # installed beside this module
    return Lark(grammar, parser="lalr", start=[k + "_field" for k in FIELD_KINDS],
                propagate_positions=True, maybe_placeholders=False, cache=True)


def _plain_locate(file: str, text: str):
    """A locate function for text that is its own file (tests, the REPL)."""

    def locate(start: int, end: int) -> Span:
        line = text.count("\n", 0, start) + 1
        col = start - (text.rfind("\n", 0, start) + 1) + 1
        end_line = text.count("\n", 0, end) + 1
        end_col = end - (text.rfind("\n", 0, end) + 1) + 1
        return Span(file, line, col, end_line, end_col)

    return locate


def parse_fragment(text: str, kind: str, locate=None, file: str = "<fragment>"):
    """Parse `text` as a field of `kind` (one of FIELD_KINDS) into AST nodes.

    `locate(start, end)` maps offsets in `text` to a Span in the pack file.
    """
    locate = locate or _plain_locate(file, text)
    _check_limits(text, locate)
    if kind == "art":  # rows may be written on lines of their own: same length, offsets unchanged
        text = _art_rows(text)
    try:
        tree = _lark().parse(text, start=kind + "_field")
    except UnexpectedInput as err:
        raise PackError([_syntax_diagnostic(err, text, kind, locate)]) from None
    except (LarkError, RecursionError) as err:  # pragma: no cover - defensive
        raise PackError([Diagnostic("E100", f"cannot parse this {kind}: {err}", locate(0, len(text)))]) from None
    _check_depth(tree, locate)
    try:
        return AstBuilder(locate).transform(tree)
    except VisitError as err:  # Lark wraps what a transformer raises: a PackError is the builder's own
        if isinstance(err.orig_exc, PackError):
            raise err.orig_exc from None
        raise


def _check_depth(tree, locate) -> None:
    """Refuse trees nested deeper than the transformer (and the checker) can walk.

    Brackets are capped before parsing; this catches long chains of prefix
    operators (`- - - ... x`, `not not ...`) measured without recursion.
    """
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            meta = node.meta
            start = 0 if getattr(meta, "empty", True) else meta.start_pos
            raise PackError([Diagnostic("E136", f"this expression is nested more than {MAX_DEPTH} deep",
                                        locate(start, start + 1))])
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def _art_rows(text: str) -> str:
    """Art written on lines: newlines become `/` (each a single character, so
    offsets and diagnostics stay right); blank lines around it are spaces."""
    body = text.strip()
    if "/" in body:
        return text
    start = text.index(body[0]) if body else 0
    end = start + len(body)
    return " " * start + body.replace("\n", "/") + " " * (len(text) - end)


def _check_limits(text: str, locate) -> None:
    if len(text) > MAX_FRAGMENT:
        raise PackError([Diagnostic("E135", f"this field is {len(text)} characters long; the limit is {MAX_FRAGMENT}",
                                    locate(0, 1))])
    depth = 0
    in_string = in_comment = False
    for offset, char in enumerate(text):
        if in_comment:
            in_comment = char != "\n"
            continue
        if char == '"':
            in_string = not in_string
            continue
        if in_string:
            in_string = char != "\n"  # a string ends at the line's end at the latest
            continue
        if char == "#":
            in_comment = True
        elif char in "([{":
            depth += 1
            if depth > MAX_NESTING:
                raise PackError([Diagnostic("E136", f"brackets nested more than {MAX_NESTING} deep",
                                            locate(offset, offset + 1))])
        elif char in ")]}":
            depth -= 1


def _readable(terminal: str) -> str:
    if terminal in _READABLE:
        return _READABLE[terminal]
    try:
        pattern = _lark().get_terminal(terminal).pattern
    except (KeyError, AttributeError):
        return f"`{terminal.lower()}`"
    return f"`{pattern.value}`" if type(pattern).__name__ == "PatternStr" else f"`{terminal.lower()}`"


def _expected(err) -> str:
    names = sorted({_readable(t) for t in err.expected})
    if not names:
        return ""
    if len(names) > 8:
        names = names[:8] + ["..."]
    return "; expected " + ", ".join(names)


def _syntax_diagnostic(err, text: str, kind: str, locate) -> Diagnostic:
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        end = len(text.rstrip())
        return Diagnostic("E131", f"this {_WORDS.get(kind, kind)} ends too early" + _expected(err), locate(max(end - 1, 0), end))
    if isinstance(err, UnexpectedCharacters):
        start = err.pos_in_stream
        char = text[start]
        return Diagnostic("E132", f"unexpected character `{char}` in this {_WORDS.get(kind, kind)}", locate(start, start + 1))
    token = err.token
    start = token.start_pos if token.start_pos is not None else 0
    end = token.end_pos if token.end_pos is not None else start + 1
    return Diagnostic("E133", f"unexpected `{token}` in this {_WORDS.get(kind, kind)}" + _expected(err),
                      locate(start, end), hint=_let_value_hint(err) or _elif_hint(err, kind))


#: a `let` value's end: `in` expected where a comparison is not (the value is a term)
_LET_HINT = ("the value of `let NAME = ... in ...` is a term (a number, a name, a call, arithmetic): put a "
             "filter, a comparison, `and`/`or` or `if` in parentheses, like let free = (cells where empty) in ...")


def _elif_hint(err, kind):
    """`elif` inside an expression: statements write `elif`, an expression `else if`."""
    if str(err.token) == "elif" and kind != "effect":
        return "an expression writes `else if ... then ...`; `elif` is for statements (`if ... { } elif ... { }`)"
    return None


def _let_value_hint(err):
    expected = set(getattr(err, "expected", ()) or ())
    return _LET_HINT if "IN" in expected and "COMP_OP" not in expected else None
