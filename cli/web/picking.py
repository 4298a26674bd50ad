"""The legal moves of a decision as the play page picks them: value by value, cells on the board.

A move is an action and its values, picked in order. A value is a cell
(clicked on the board), a group of cells (a shape laid on the board: the
page previews it under the pointer, turned and mirrored by keys), or any
other value (a button). An answer to a choice an effect asks is one more
value of the move it completes.

A group of cells that is one shape is offered in its orientations (`forms`): each form's
placements are keyed by the cell under the pointer (the cell of the group
nearest its middle), those that lie on the board whether legal or not, so
that the page can show an illegal one and ask why it is refused. Groups that
are not one shape turned and mirrored (groups of several sizes, or more
orientations than a shape has) have no forms: the page picks their cells one
by one.
"""

from __future__ import annotations

from boardrule.dsl.types import CELL
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.moves import DONE, move_label, move_text
from boardrule.interpreter.runtime.shapes import _square_mirror, _square_rotate
from boardrule.interpreter.runtime.geometry import reflect_axial, rotate_axial
from boardrule.interpreter.runtime.values import CELL_MASK


def value_kind(value, value_type) -> str:
    """`cell`, `cells` or `value`: how the page picks a value of this type."""
    if value_type == CELL and isinstance(value, int) and not isinstance(value, bool):
        return "cell"
    if value_type is not None and value_type.is_list and value_type.item == CELL and isinstance(value, tuple) \
            and value and all(isinstance(v, int) for v in value):
        return "cells"
    return "value"


def _encode(game, value, value_type) -> dict:
    kind = value_kind(value, value_type)
    grid = game.grid
    if kind == "cell":
        return {"kind": "cell", "cells": [grid.name(value & CELL_MASK)]}
    if kind == "cells":
        names = sorted(grid.name(v & CELL_MASK) for v in value)
        return {"kind": "cells", "cells": names, "key": "+".join(names)}
    from boardrule.interpreter.runtime.reasons import say
    from boardrule.interpreter.runtime.moves import value_text
    text = value_text(value, grid, value_type)
    return {"kind": "value", "text": text, "label": say(game, value, value_type)}


def decision(game, state, seat) -> dict:
    """What the page needs to pick `seat`'s move: the actions, and each legal move's values."""
    moves = flow.legal_moves(game, state, seat)
    pending = state.pending.get(seat)
    asking = pending is not None and pending.choice is not None
    entries = []
    for index, move in enumerate(moves):
        if asking:
            types = move.answer_types
            values = [_encode(game, move.answers[-1], types[-1] if types else None)] if move.answers else []
            action = "choice"
        else:
            types = game.param_types.get(move.action, ())
            values = [_encode(game, v, types[i] if i < len(types) else None) for i, v in enumerate(move.args)]
            action = move.action
        entries.append({"index": index, "text": move_text(move, game), "action": action, "values": values,
                        "label": move_label(move, game)})
    actions = []
    if asking:
        asked = pending.choice[0]
        actions.append({"name": "choice", "label": f"{move_label(asked, game)}: choose", "possible": True,
                        "asked": move_text(asked, game)})
    elif pending is not None:
        possible = {m.action for m in moves}
        for name in pending.actions:
            action = game.actions.get(name)
            label = action.label if action is not None and action.label else name.replace("_", " ")
            actions.append({"name": name, "label": label, "possible": name in possible})
        if DONE in possible:
            actions.append({"name": DONE, "label": "done: end this step", "possible": True})
    return {"moves": entries, "actions": actions, "shapes": _shapes(game, moves, entries)}


def _shapes(game, moves, entries) -> dict:
    """For each action and value index that is a group of cells: its forms (see the module's doc)."""
    groups = {}
    for entry in entries:
        for index, value in enumerate(entry["values"]):
            if value["kind"] == "cells":
                groups.setdefault(f"{entry['action']}:{index}", set()).add(tuple(value["cells"]))
    return {key: forms(game.grid, sorted(found)) for key, found in groups.items()}


MAX_FORMS = 48  # orientations of one shape laid under the pointer: a shape has 12 at most on hexes


def _lattice_form(grid, names) -> tuple:
    points = [grid.lattice(grid.parse_name(n)) for n in names]
    x0, y0 = min(p[0] for p in points), min(p[1] for p in points)
    return tuple(sorted((x - x0, y - y0) for x, y in points))


def _normalise(points) -> tuple:
    x0, y0 = min(p[0] for p in points), min(p[1] for p in points)
    return tuple(sorted((x - x0, y - y0) for x, y in points))


def _anchor(form) -> tuple:
    """The point of a form nearest its middle (the first such in order)."""
    mx = sum(p[0] for p in form) / len(form)
    my = sum(p[1] for p in form) / len(form)
    return min(form, key=lambda p: ((p[0] - mx) ** 2 + (p[1] - my) ** 2, p))


def forms(grid, groups) -> dict:
    """The orientations of the groups (`forms`, each a list of lattice points), which form a turn or a
    mirror leads to (`turn`, `mirror`: indices), and each form's placements on the board by the cell
    under the pointer (`at`: cell name -> the group's cell names)."""
    found = []
    for names in groups:
        form = _lattice_form(grid, names)
        if form not in found:
            found.append(form)
            if len(found) > MAX_FORMS:  # not one shape turned and mirrored: the page picks the cells one by one
                return {"forms": []}
    if len({len(form) for form in found}) > 1:
        return {"forms": []}
    hexes = grid.kind == "hex"
    rotate, mirror = (rotate_axial, reflect_axial) if hexes else (_square_rotate, _square_mirror)
    turns = 6 if hexes else 4

    def next_found(form, step):
        current = form
        for _ in range(turns * 2):
            current = _normalise([step(x, y) for x, y in current])
            if current in found:
                return found.index(current)
            if step is mirror:  # a mirror image not offered: turn it until one is
                step = rotate
        return found.index(form)
    out = []
    for form in found:
        ax, ay = _anchor(form)
        placed = {}
        for cell in grid.cells:
            cx, cy = grid.lattice(cell)
            cells = [grid.from_lattice(cx + x - ax, cy + y - ay) for x, y in form]
            if all(c is not None for c in cells):
                placed[grid.name(cell)] = sorted(grid.name(c) for c in cells)
        out.append({"points": [list(p) for p in form], "turn": next_found(form, rotate),
                    "mirror": next_found(form, mirror), "at": placed})
    return {"forms": out}
