"""Signatures of the language's built-in names and functions.

The checker uses these to resolve names and check arity and types; the
interpreter (interpreter/compiler/functions.py) implements each one under the same
name. Keeping the table here lets `boardrule check` run without compiling.
"""

from __future__ import annotations

from boardrule.dsl.records import frozen
from boardrule.dsl.types import (ANY, BOOL, CELL, DECK, DIRECTION, NUM, PLAYER, SHAPE, SYM, STR, Type, item_type,
                                 list_of)

CELLS = list_of(CELL)
GROUPS = list_of(CELLS)
#: the directions of each kind of grid, clockwise from the top (a hex grid: pointy or flat top)
DIRECTIONS = {
    "square": ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"),
    "pointy": ("northeast", "east", "southeast", "southwest", "west", "northwest"),
    "flat": ("north", "northeast", "southeast", "south", "southwest", "northwest"),
}
DIRECTION_NAMES = DIRECTIONS["square"]  # every name a direction may have
#: the directions a tile's sides face on each kind of grid, clockwise from the top (`sides:`)
SIDE_DIRECTIONS = {"square": ("north", "east", "south", "west"), "pointy": DIRECTIONS["pointy"],
                   "flat": DIRECTIONS["flat"]}
#: the directions a tile's corners point to, clockwise from the top right (`corners:`): a square's four
#: diagonals; a hex tile's corners point to no direction of its grid, so it has none
CORNER_DIRECTIONS = {"square": ("northeast", "southeast", "southwest", "northwest"), "pointy": (), "flat": ()}


def direction_family(kind: str, hex_layout: str | None) -> str:
    """Which directions a grid has: `square`, or a hex grid's `pointy` or `flat` top.

    The flat-top layouts are `flat-odd` and `flat-even` (and the default); every other layout
    (`pointy-odd`, `pointy-even`, `rhombus`, `hexagon`) has pointy tops.

    >>> direction_family("hex", "pointy-odd"), direction_family("hex", None), direction_family("hex", "rhombus")
    ('pointy', 'flat', 'pointy')
    """
    if kind != "hex":
        return "square"
    return "flat" if (hex_layout or "flat").startswith("flat") else "pointy"
PLAYERS = list_of(PLAYER)


@frozen
class Signature:
    params: tuple  # expected types of positional arguments
    optional: int  # how many trailing params may be left out
    keywords: tuple  # (name, type)
    result: object  # a Type, or a function of the argument types
    doc: str


def sig(params, result, doc, optional=0, keywords=()):
    return Signature(tuple(params), optional, tuple(keywords), result, doc)


def _same_as_first_item(types):
    return item_type(types[0]) if types else ANY


# Aggregates take a list and an optional body evaluated with `it` bound to
# each element, or one comprehension `body for x in list`.
AGGREGATES = {
    "count": (NUM, "how many elements (with a body: how many make it true)"),
    "any": (BOOL, "whether there is an element (with a body: one that makes it true)"),
    "all": (BOOL, "whether the body is true for every element"),
    "none": (BOOL, "whether no element exists (with a body: none makes it true)"),
    "sum": (NUM, "the sum of the elements or of the body"),
    "min": (NUM, "the least element or body value; 0 for an empty list"),
    "max": (NUM, "the greatest element or body value; 0 for an empty list"),
    "distinct": (NUM, "how many different values the body takes"),
}

FUNCTIONS = {
    "adjacent": sig([CELL], CELLS, "the cells next to a cell (the board's adjacency)", optional=1),
    "surrounding": sig([CELL], CELLS, "the cells all around a cell, diagonals included", optional=1),
    "row": sig([CELL], CELLS, "the cells in a cell's row, itself included", optional=1),
    "column": sig([CELL], CELLS, "the cells in a cell's column, itself included", optional=1),
    "opposite_pairs": sig([CELL], GROUPS, "pairs of cells on opposite sides of a cell", optional=1),
    "step": sig([CELL, DIRECTION, NUM], CELL, "the next cell in a direction (or the cell N steps away), "
                "or none off the board", optional=1),
    "ray": sig([CELL, DIRECTION], CELLS, "the cells from a cell (left out) in a direction to the edge, or "
               "while a condition holds", keywords=(("while", BOOL),)),
    "between": sig([CELL, CELL], CELLS, "the cells strictly between two cells in a line (none if not in one)"),
    "opposite": sig([DIRECTION], DIRECTION, "the direction the other way: opposite(north) is south"),
    "side": sig([CELL, DIRECTION], SYM, "the side of the tile on a cell that faces a direction (its `sides:` "
                "turned by its `turn`), or none"),
    "side_of": sig([SYM, NUM, DIRECTION], SYM, "the side a kind of tile turned n steps clockwise shows facing a "
                   "direction: side_of(t, 1, east) is its first (top) side"),
    "corner": sig([CELL, DIRECTION], SYM, "the corner of the tile on a cell that points to a diagonal direction "
                  "(its `corners:` turned by its `turn`), or none"),
    "corner_of": sig([SYM, NUM, DIRECTION], SYM, "the corner a kind of tile turned n steps clockwise shows "
                     "pointing to a diagonal direction: corner_of(t, 1, southeast) is its first (top right) corner"),
    "centre": sig([CELL], SYM, "what lies in the middle of the tile on a cell (its `centre:`), or none"),
    "centre_of": sig([SYM], SYM, "what lies in the middle of a kind of tile (its `centre:`), or none"),
    "feature": sig([CELL, DIRECTION], CELLS, "the cells of the tiles that the feature through a tile's side "
                   "spans (a road, a city: its matching sides joined across tiles)"),
    "complete": sig([CELL, DIRECTION], BOOL, "whether every side of the feature through a tile's side meets "
                    "the matching side of a neighbouring tile"),
    "joined": sig([CELL, DIRECTION, CELL, DIRECTION], BOOL, "whether two sides of tiles belong to one feature"),
    "first_side": sig([CELL, DIRECTION], BOOL, "whether a side is its feature's first (cells in board order, "
                      "a tile's sides clockwise from the top): count each feature once"),
    "groups": sig([CELLS], GROUPS, "the connected groups of a list of cells"),
    "border": sig([CELLS], CELLS, "the cells next to a group but not in it"),
    "reaches": sig([CELL, CELLS], BOOL, "whether a path of `via` cells links a cell to one of the targets",
                   keywords=(("via", CELLS),)),
    "distance": sig([CELL, CELL], NUM, "the number of steps between two cells"),
    "fits": sig([SHAPE, CELLS], BOOL, "whether the shape fits on the listed cells in some orientation"),
    "placements": sig([SHAPE, CELLS], GROUPS, "every placement of the shape on the listed cells"),
    "matches": sig([SHAPE], GROUPS, "every way to match a pattern on the board",
                   keywords=(("standin", BOOL), ("missing", NUM), ("distinct", ANY), ("anywhere", BOOL),
                             ("within", CELLS))),
    "allowed": sig([SYM, CELL], BOOL, "whether a piece kind's `place:` rule allows this cell"),
    # the checker reads the second argument as the name of a mark, not as its value (Checker.uses_call)
    "uses": sig([SYM, BOOL], BOOL, "whether the rules of a piece kind read or set a mark (and what they read)"),
    "sort": sig([list_of(ANY)], list_of(ANY), "the list in order, smallest first: sort(players, by = it.score) "
                "orders by a key read with `it` each element (stable: equal keys keep their order)",
                keywords=(("by", ANY),)),
    "first": sig([list_of(ANY)], ANY, "the first element of a list, or none if it is empty"),
    "last": sig([list_of(ANY)], ANY, "the last element of a list, or none if it is empty"),
    "rotated": sig([list_of(ANY), NUM], list_of(ANY), "the list turned n places: its first n elements moved "
                   "to its end (negative n: from the end to the front), as an order of play passes on"),
    "flatten": sig([list_of(ANY)], list_of(ANY), "the elements of a list of lists, one list after the other: "
                   "flatten([ray(c, d) for d in directions]) is every cell a line from c reaches"),
    "index_of": sig([list_of(ANY), ANY], NUM, "the position of a value in a list, from 0, or none if it is not there"),
    "can": sig([PLAYER, SYM], BOOL, "whether a player has a legal move of an action now, as if it were "
               "theirs to make: can(p, place)"),
    "left_of": sig([PLAYER], PLAYER, "the next player clockwise (to the left)"),
    "right_of": sig([PLAYER], PLAYER, "the previous player (to the right)"),
    "next_active": sig([PLAYER], PLAYER, "the next player to the left who has not finished"),
    "seats_after": sig([PLAYER], PLAYERS, "the other players in turn order, starting with the one to the left"),
    "abs": sig([NUM], NUM, "the absolute value"),
    "cell": sig([STR], CELL, "the cell with this name, like cell(\"B2\")"),
    "held": sig([CELL], list_of(SYM), "the pieces held by the piece on a cell", optional=1),
    "tokens": sig([CELL], list_of(SYM), "the tokens on a cell", optional=1),
    # the checker also takes a shape (Checker.size_call): size(S) is its number of squares
    "size": sig([DECK], NUM, "the number of cards left in a deck, or of squares in a shape: size(S)"),
    # the checker gives `cards(D)` the type `list of` D's cards (Checker.card_type)
    "cards": sig([DECK], list_of(ANY), "the cards of a deck, top first"),
    "choose": sig([list_of(ANY)], ANY, "in a mark: let the scoring pick the best option",
                  keywords=(("up_to", NUM),)),
}

# Names that mean something without parentheses; `it`-relative ones use the
# element being filtered (or `self` at top level).
VALUES = {
    "cells": (CELLS, "every cell of the current board"),
    "players": (PLAYERS, "every player, in seat order"),
    "others": (PLAYERS, "every player but me"),
    "me": (PLAYER, "the player the rule is evaluated for"),
    "left": (PLAYER, "the player to my left"),
    "right": (PLAYER, "the player to my right"),
    "to_move": (PLAYER, "the player whose decision is open now (none when no decision is open, or several players "
                "decide at once); once the game is over, the one whose decision was open when it ended"),
    "kinds": (list_of(SYM), "every piece kind of the pack"),
    "directions": (list_of(DIRECTION), "every direction of the board's grid, clockwise from the top"),
    "corner_directions": (list_of(DIRECTION), "the directions a tile's corners point to, clockwise from the top "
                          "right (a square's four diagonals; none on a hex grid)"),
    "side_directions": (list_of(DIRECTION), "the directions a tile's sides face, clockwise from the top "
                        "(a square's four, a hex's six)"),
    "round": (NUM, "the number of the current round, from 1"),
    "repeated": (BOOL, "whether the boards are in a position they were in before in this game (as a move was "
                 "made); in `refuse_after:`, whether the move would bring back such a position"),
    "edge": (CELLS, "the cells on the edge of the board"),
    "corners": (CELLS, "the cells at the corners of the board's outline (holes inside the board make none)"),
    "all_corners": (CELLS, "the cells at the corners of the board's outline and of its holes"),
    "center": (CELLS, "the cells nearest the centre of the board"),
    "true": (BOOL, "true"),
    "false": (BOOL, "false"),
    "none": (Type("none"), "no value"),
}

# Properties of a cell (`it.kind`, or just `kind` inside a filter on cells).
CELL_PROPERTIES = {
    "kind": (SYM, "the kind of the piece on the cell, or none"),
    "owner": (PLAYER, "who placed the piece"),
    "empty": (BOOL, "no piece on the cell"),
    "occupied": (BOOL, "a piece on the cell"),
    "name": (STR, "the cell's name, like B2"),
    "x": (NUM, "the cell's column, from 0"),
    "y": (NUM, "the cell's row, from 0"),
    "order": (NUM, "the cell's place in the board's reading order, from 0 (row by row, as `cells` lists them)"),
}

# Properties of a player (`right.score`, `p.cells`).
PLAYER_PROPERTIES = {
    "cells": (CELLS, "the cells of the player's board"),
    "score": (NUM, "the player's points so far (recorded plus final terms)"),
    "finished": (BOOL, "whether the player has finished"),
    "seat": (NUM, "the player's seat number, from 1"),
}

# Cell-relative values usable bare inside a filter on cells.
#: the options of a function whose value is judged per cell, with `it` that cell (`ray(..., while = empty)`)
CELL_KEYWORDS = frozenset({"standin", "distinct", "while"})
CELL_RELATIVE = ("adjacent", "surrounding", "row", "column", "opposite_pairs")
