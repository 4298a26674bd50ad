"""Directions: `directions`, `step(c, d)`, `ray(c, d)` and `between(a, b)` at run time.

A direction is its name (`north`, `southeast`...: dsl/builtins.DIRECTIONS
lists each grid's, clockwise from the top), so it prints, compares and
saves as itself. Each game keeps one table per direction, indexed by
encoded cell (values.py): the next cell that way, or None off the board or
in a hole of a masked board.

    >>> from boardrule.interpreter.api import evaluate, new_game, open_game
    >>> game = open_game("tictactoe")
    >>> state = new_game(game, 2)
    >>> [game.grid.name(c) for c in evaluate(game, state, 'ray(cell("A1"), southeast)')[0]]
    ['B2', 'C3']
"""

from __future__ import annotations

from boardrule.interpreter.runtime.values import CELL_BITS, CELL_MASK, RuleError


def direction_tables(game) -> dict:
    """name -> (encoded cell -> the next encoded cell that way, or None), for every board."""
    grid, tables = game.grid, {}
    for name, step in grid.directions():
        plain = grid.step_table(step)
        table = [None] * (game.boards << CELL_BITS)
        for board in range(game.boards):
            base = board << CELL_BITS
            for cell in grid.cells:
                target = plain[cell]
                table[base | cell] = None if target is None else base | target
        tables[name] = tuple(table)
    return tables


def _step(compiler, node, args, kwargs):
    """`step(c, d)`: the next cell from c in direction d; `step(c, d, n)`: the cell n steps away
    (c itself for 0); none off the board (and from none)."""
    tables, span = compiler.game.direction_tables, node.span
    cell_of, direction_of = args[:2]
    if len(args) == 2:
        def step(ctx):
            cell = cell_of(ctx)
            return None if cell is None else tables[direction_of(ctx)][cell]
        return step
    count_of = args[2]

    def steps(ctx):
        cell, table, count = cell_of(ctx), tables[direction_of(ctx)], count_of(ctx)
        if count < 0:
            raise RuleError(f"`step` takes 0 or more steps, not {count}", span)
        ctx.meter.charge(count, span)
        for _ in range(count):
            if cell is None:
                break
            cell = table[cell]
        return cell
    return steps


def _ray(compiler, node, args, kwargs):
    """`ray(c, d)`: the cells after c in direction d to the edge; with `while = C`, up to the first
    cell where C fails (`it` is each cell in turn)."""
    tables, span = compiler.game.direction_tables, node.span
    cell_of, direction_of = args
    keyword = kwargs.get("while")
    holds = compiler.compile(keyword.value) if keyword is not None else None

    def ray(ctx):
        cell = cell_of(ctx)
        table = tables[direction_of(ctx)]
        out = []
        cell = None if cell is None else table[cell]
        saved = ctx.it
        while cell is not None:
            if holds is not None:
                ctx.it = cell
                if not holds(ctx):
                    break
            out.append(cell)
            cell = table[cell]
        ctx.it = saved
        ctx.meter.charge(len(out) + 1, span)
        return tuple(out)
    return ray


def _between(compiler, node, args, kwargs):
    """`between(a, b)`: the cells strictly between two cells of one board in a line of a direction,
    nearest a first; no cells when they are in no such line (or next to each other)."""
    game, span = compiler.game, node.span
    first_of, second_of = args
    steps = [step for _, step in game.grid.directions()]

    def between(ctx):
        a, b = first_of(ctx), second_of(ctx)
        if a is None or b is None or a >> CELL_BITS != b >> CELL_BITS:
            return ()
        (ax, ay), (bx, by) = game.grid.lattice(a & CELL_MASK), game.grid.lattice(b & CELL_MASK)
        step = _direction_towards(steps, bx - ax, by - ay)
        if step is None:
            return ()
        base, out = a & ~CELL_MASK, []
        x, y = ax + step[0], ay + step[1]
        while (x, y) != (bx, by):
            cell = game.grid.from_lattice(x, y)
            if cell is None:  # a hole of a masked board cuts the line
                return ()
            out.append(base | cell)
            x, y = x + step[0], y + step[1]
        ctx.meter.charge(len(out) + 1, span)
        return tuple(out)
    return between


def _direction_towards(steps, dx, dy):
    """The step that reaches (dx, dy) in a whole number of steps, or None."""
    for sx, sy in steps:
        count = dx // sx if sx else dy // sy if sy else 0
        if count > 0 and (sx * count, sy * count) == (dx, dy):
            return sx, sy
    return None


def opposites(grid) -> dict:
    """direction name -> the name of the direction the other way on this grid."""
    steps = dict(grid.directions())
    by_step = {step: name for name, step in steps.items()}
    return {name: by_step[(-dx, -dy)] for name, (dx, dy) in steps.items()}


def _opposite(compiler, node, args, kwargs):
    """`opposite(d)`: the direction the other way (every grid's directions come in pairs)."""
    other, direction_of = opposites(compiler.game.grid), args[0]
    return lambda ctx: other[direction_of(ctx)]


FUNCTIONS = {"step": _step, "ray": _ray, "between": _between, "opposite": _opposite}

