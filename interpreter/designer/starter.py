"""Starter packs for `boardrule new`: a small game that checks clean, or a minimal extension.

    >>> text = starter_pack("river_run")
    >>> "id: river_run" in text and "tests:" in text
    True

Both carry a test scenario, so `boardrule check` has something to run from
the first minute. The library side of `boardrule new`: it returns text and
never writes files.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from boardrule.dsl.diagnostics import UsageError

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
SCHEMA_LINE = "# yaml-language-server: $schema=pack.schema.json"

_STARTER = '''\
{schema_line}
# {name}: a starter pack written by `boardrule new`. Check it with
#   boardrule check {name}.pack
# and read docs/language.md for every construct. For completion and checks
# in your editor, write the schema next to this file once:
#   boardrule schema -o pack.schema.json
game:
  id: {name}
  name: {name}
  players: 1..2
  doc: Place wood and stone on your own board; a wood beside a stone makes a hut.

options:
  rounds: {{type: int, default: 6, doc: how many rounds are played}}

board:
  grid: square 4 x 4

symbols:
  goods: [wood, stone]

pieces:
  wood: {{symbol: w, category: good}}
  stone: {{symbol: s, category: good}}
  hut:
    symbol: H
    category: building
    pattern: hut_shape
    score: 1 + count(adjacent where kind == hut)

shapes:
  hut_shape: {{art: wood stone, symmetry: all}}

charts:
  huts: 1 2 3 4+ -> 1 3 6 10

vars:
  turn: 0

actions:
  put:
    label: place a good on an empty square
    params:
      good: goods
      cell: cells where empty
    effect: place good at cell
  build:
    label: turn a wood and a stone side by side into a hut
    params:
      match: matches(hut_shape)
      spot: match
    effect: |
      remove match
      place hut at spot

flow:
  round:
    - together: [put]
    - together: [build]
      repeat: true
    - do: turn += 1
  end: turn >= rounds or all(none(p.cells where empty) for p in players)
  check_end: round

scoring:
  hut bonus: chart(count(cells where kind == hut), huts)
  empty squares: -count(cells where empty)

tests:
  - name: a wood beside a stone builds a hut
    players: 1
    position:
      board: |
        w . . .
        . . . .
        . . . .
        . . . .
    moves: [P1 put stone B1, P1 build A1+B1 A1]
    expect:
      terms: {{P1: {{hut: 1, hut bonus: 1, empty squares: -15}}}}
      score: {{P1: -13}}
'''

_EXTENSION = '''\
{schema_line}
# {name}: a variant of `{base}`, written by `boardrule new --extends`. Check it with
#   boardrule check {name}.pack
extends: {extends}
game:
  id: {name}
  name: {name}

# Entries here are added to the base pack's. An entry named like a base
# entry changes the fields it names, keeps the others, and says so:
# `override: true` inside the entry, or its path in a top-level list
# `override: [charts.NAME]`; `replace: true` takes nothing of the base's
# entry; `remove: [section.entry]` deletes a base entry. For example:
#
#   pieces:
#     PIECE: {{score: 2, override: true}}
#   scoring:
#     a new term: count(cells where occupied)

tests:
  # The base pack's tests run against this pack too, apart: `check` says which
  # ones this pack changes. A test named like a base test replaces it;
  # `remove: [tests.NAME]` drops one.
  - name: the variant starts as the base game does
    expect:
      legal: {{P1: {legal}}}
      over: false
'''


def check_name(name: str) -> str:
    """A pack name is a letter, then letters, digits, `-` or `_`."""
    if not NAME.fullmatch(name or ""):
        raise UsageError(f"`{name}` is not a pack name: use a letter, then letters, digits, `-` or `_`")
    return name


def starter_pack(name: str) -> str:
    """The text of a small pack named `name` that checks clean and has a test."""
    return _STARTER.format(name=check_name(name), schema_line=SCHEMA_LINE)


def base_outside(base: str, folder: str | os.PathLike = ".") -> str | None:
    """The folder of base pack `base` when a pack in `folder` may not read it unasked
    (it lies outside `folder`; `extends:` is confined, dsl/packpath.py), else None."""
    from boardrule.dsl.packpath import find_pack
    found = find_pack(os.fspath(base))
    if found.bundled:
        return None
    real, home = found.path.resolve(), Path(folder).resolve()
    return None if home in real.parents else str(real.parent)


def extension_pack(name: str, base: str, folder: str | os.PathLike = ".") -> str:
    """The text of a minimal pack extending `base` (a bundled name or a path), to be saved in `folder`."""
    from boardrule.dsl.packpath import bundled_dir, find_pack
    from boardrule.interpreter import api
    from boardrule.interpreter.runtime.flow import initial_state, legal_moves
    check_name(name)
    base = os.fspath(base)
    path = find_pack(base).path
    game = api.open_game(path)
    extends = base  # a bundled pack by its name, a file by its path from the new pack's folder
    if _is_path(base) or path.resolve().parent != bundled_dir().resolve():
        extends = os.path.relpath(path.resolve(), Path(folder).resolve()).replace(os.sep, "/")
    low, high = game.players_range
    count = max(low, min(2, high))  # the number of players a test has when it does not say
    state = initial_state(game, count, seed=0, options={}, seating=tuple(range(count)))
    legal = len(legal_moves(game, state, 0))
    return _EXTENSION.format(name=name, base=game.id, extends=extends, legal=legal, schema_line=SCHEMA_LINE)


def _is_path(text: str) -> bool:
    return any(sep in text for sep in ("/", "\\", os.sep)) or Path(text).suffix != ""
