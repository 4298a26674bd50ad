"""What the shapes a pack's moves ask for can still add: the shape potential of a position.

A pack whose moves need a pattern on the board (an action's parameter
listed by `matches(SHAPE, ...)`, compile-side `CompiledAction.shape_params`)
rewards plans that take several moves: the pieces of a pattern are put down
one by one, and only the last one makes the move that scores possible. The
score as if the game ended now does not see such a plan until it is
complete; the shape potential does, from the pack's own rules alone:

1. **The shapes in reach.** For every such action, the shapes its parameter
   would be matched against now: the values of the parameters before it
   (their lists, as listing the moves computes them), each giving its shape.
2. **The nearest placement of each.** Among the placements of the shape on
   the seat's board (turned and mirrored as the pack allows), the one with
   the fewest unmet slots such that every other slot is met, every unmet
   slot is an empty cell that its piece kind could fill, and at least one
   slot is met already (a pattern begun). Placements with more than
   `MAX_MISSING` unmet slots are not patterns begun but wishes: not counted.
3. **What completing it is worth.** The unmet cells are filled with the
   pieces they ask for, in a copy of the position, and the action's moves
   that use this placement are judged by the pack's scoring right after
   each: the best gain over the score now is what the pattern is worth.
4. **Discounted by what is missing.** Each pattern counts its worth times
   `discount` to the power of its unmet slots (a piece still to get, and a
   cell still to give it), and the potential is their sum over the shapes.
5. **Less the stranded pieces.** A piece of a kind the shapes in reach ask
   for that no placement of theirs can still use (one of its other slots
   holds a piece that slot does not take) is stranded: it stays where it
   is, and its cell is lost to every pattern. Each counts `stranded` points
   against the potential. The score now does not see this (a stranded piece
   and an empty cell often score alike until the end); a search that sees
   it keeps its pieces where patterns can still use them.

Each unit of this work is charged to the position's budget meter, so a
search that counts work stays deterministic. A search may remember the
potentials it works out (`remembering`): positions that look the same (the
boards, variables and points) get the one worked out first, which is the
same whatever the process, as each search remembers its own; and the
nearest placements and stranded pieces of a board, which its kinds alone
decide (no legend), are remembered per board, their work still charged
each time they are asked.
"""

from __future__ import annotations

from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime import shapes as shape_lib
from boardrule.interpreter.runtime.context import Ctx
from boardrule.interpreter.runtime.moves import Move
from boardrule.interpreter.runtime.values import CELL_BITS, PLAYERS, RuleError
from boardrule.interpreter.runtime.state import set_kind

#: a placement with more unmet slots than this is no pattern begun
MAX_MISSING = 2
#: each unmet slot multiplies a pattern's worth by this
DISCOUNT = 0.5
#: what each stranded piece counts against the potential (docs/simulate.md has the measurements)
STRANDED = 1.0
#: the units of work charged for a copy of the position and for each move judged on it, on top of what
#: the rules run for them charge (the copies and the score sheets, which the engine does not count):
#: measured so that a unit of the potential costs about what a unit of a playout does (raised from 150 and 220,
#: at which `strong`'s default budget took 1.4 s a decision in a bundled pattern pack, to keep it within 1 s:
#: docs/simulate.md has the figures)
COPY_UNITS = 600
JUDGED_UNITS = 900


def shaped_actions(game) -> tuple:
    """The actions with a parameter listed by `matches` (none in most packs)."""
    found = game.cache.table("shaped_actions")
    actions = found.get("all")
    if actions is None:
        actions = found["all"] = tuple(a for a in game.actions.values() if a.shape_params)
    return actions


_MEMO = [None]  # the potentials remembered by the search under way (`remembering`), or None


class remembering:
    """`with remembering():` the potentials worked out inside are remembered by position, until the end."""

    def __enter__(self):
        self.outer, _MEMO[0] = _MEMO[0], {}
        return self

    def __exit__(self, *exc):
        _MEMO[0] = self.outer


def potential(game, state, seat, discount: float = DISCOUNT, limit: int = MAX_MISSING,
              stranded: float = STRANDED) -> float:
    """The shape potential of `state` for `seat` (see the module's docstring); 0 once the game is over,
    in a pack without shaped actions, or when `discount` is 0."""
    actions = shaped_actions(game)
    if not actions or state.phase == "over" or discount <= 0:
        return 0.0
    memo = _MEMO[0]
    if memo is None:
        return _potential(game, state, seat, actions, discount, limit, stranded)
    key = (seat, discount, limit, stranded, tuple(tuple(board) for board in state.kind), repr(state.attrs),
           repr(state.held), repr(state.tokens), repr(state.vars), repr(state.pvars[seat]), repr(state.points))
    found = memo.get(key)
    if found is None:
        found = memo[key] = _potential(game, state, seat, actions, discount, limit, stranded)
    return found


def _potential(game, state, seat, actions, discount, limit, stranded) -> float:
    state.meter.begin()
    outer, state.memo = state.memo, {} if state.memo is None else state.memo
    try:
        now = None
        total = 0.0
        in_reach = {}  # shape name -> shape, for the stranded pieces
        for action in actions:
            for index, shape_of in action.shape_params:
                for prefix, shape in _shapes_in_reach(game, state, seat, action, index, shape_of):
                    in_reach.setdefault(shape.name, shape)
                    near = _nearest(game, state, seat, shape, limit)
                    if near is None:
                        continue
                    cells, missing = near
                    if now is None:
                        now = game.score_total(state, seat)
                    worth = _worth(game, state, seat, action, index, prefix, cells, missing, now)
                    if worth > 0:
                        total += worth * discount ** len(missing)
        if stranded:
            total -= stranded * stranded_pieces(game, state, seat, in_reach.values())
        return total
    except RuleError:
        return 0.0  # a rule that cannot be judged on a position the rules would not reach
    finally:
        state.memo = outer


def _shapes_in_reach(game, state, seat, action, index, shape_of) -> list:
    """(values of the parameters before `index`, shape) for every choice of them, each shape once."""
    ctx = Ctx(game, state, PLAYERS[seat])
    found, seen = [], set()

    def visit(prefix):
        shape = shape_of(ctx)
        if shape is not None and shape.name not in seen:
            seen.add(shape.name)
            found.append((prefix, shape))

    _each_choice(ctx, action, 0, index, (), visit)
    return found


def _each_choice(ctx, action, start, stop, prefix, visit):
    """`visit(values)` for every choice of the action's parameters `start` to `stop - 1` after the
    values `prefix`, each bound in the context's locals while it is visited (listing them charged)."""
    env = ctx.env

    def walk(level, values):
        if level == stop:
            visit(values)
            return
        name, domain = action.params[level]
        options = domain(ctx)
        ctx.meter.charge(len(options) + 1)
        for value in options:
            env[name] = value
            walk(level + 1, values + (value,))
        env.pop(name, None)

    walk(start, prefix)


def _nearest(game, state, seat, shape, limit):
    """(cells, unmet (cell, kind) pairs) of the placement of `shape` on the seat's board with the fewest
    unmet slots, each of them empty and fillable by its kind, at least one slot met; None if there is
    none with 1 to `limit` unmet slots (a complete one is a move already, judged as such). Without a
    legend the answer depends on the board's kinds alone: a search remembers it per board."""
    board = game.board_of_seat(seat)
    kinds = state.kind[board]
    placements = game.placement_table(shape).placements
    state.meter.charge(_placements_work(placements))
    memo = _MEMO[0]
    if memo is None or game.legends.get(shape.name):
        return _nearest_placement(game, state, seat, shape, limit, board, kinds, placements)
    key = ("nearest", shape.name, limit, board, tuple(kinds))
    if key not in memo:
        memo[key] = _nearest_placement(game, state, seat, shape, limit, board, kinds, placements)
    return memo[key]


def _nearest_placement(game, state, seat, shape, limit, board, kinds, placements):
    base = board << CELL_BITS
    known = game.static_attrs
    legend = game.legends.get(shape.name)
    test = game.slot_test(shape, Ctx(game, state, PLAYERS[seat]), base) if legend else None
    best = None
    for placement in placements:
        met, unmet = 0, []
        for cell, symbol in placement.pairs:
            if test(symbol, cell) if test is not None else (symbol not in known or kinds[cell] == symbol):
                met += 1
            elif kinds[cell] is None and symbol in known:
                unmet.append((cell, symbol))
                if len(unmet) > limit:
                    break
            else:
                break
        else:
            if met and unmet and (best is None or len(unmet) < len(best[1])):
                best = (tuple(base | c for c in placement.cells), unmet)
                if len(unmet) == 1:
                    break
    return best


def _placements_work(placements) -> int:
    """The units of work of asking every placement of a shape: one per slot of each."""
    return len(placements) * len(placements[0].pairs) if placements else 1


def stranded_pieces(game, state, seat, shapes) -> int:
    """How many pieces on the seat's board are of a kind one of `shapes` asks for, yet no placement of
    any of them can use: in each placement covering the piece with a slot that takes it, another slot
    holds a piece it does not take. (A shape whose slots are judged by a legend's rules asks for no
    kind of its own; the pieces its placements can use are not stranded.) Without legends the answer
    depends on the board's kinds alone: a search remembers it per board."""
    board = game.board_of_seat(seat)
    kinds = state.kind[board]
    shapes = tuple(shapes)
    memo = _MEMO[0]
    if memo is None or any(game.legends.get(shape.name) for shape in shapes):
        return _stranded(game, state, seat, shapes, board, kinds)
    for shape in shapes:  # the work of each shape, charged as `_stranded` charges it (no legend: nothing else)
        placements = game.placement_table(shape).placements
        state.meter.charge(_placements_work(placements))
    key = ("stranded", tuple(shape.name for shape in shapes), board, tuple(kinds))
    if key not in memo:
        memo[key] = _stranded(game, state, seat, shapes, board, kinds, charged=True)
    return memo[key]


def _stranded(game, state, seat, shapes, board, kinds, charged=False) -> int:
    asked, usable = set(), set()
    for shape in shapes:
        placements = game.placement_table(shape).placements
        if not charged:
            state.meter.charge(_placements_work(placements))
        if game.legends.get(shape.name):
            test = game.slot_test(shape, Ctx(game, state, PLAYERS[seat]), board << CELL_BITS)
            usable.update(_usable_by_legend(placements, kinds, test))
        else:
            index = shape_lib.kind_index(game, shape)
            asked.update(kind for kind, _ in index.needs)
            usable.update(index.usable(kinds))
    return sum(1 for cell, kind in enumerate(kinds) if kind in asked and cell not in usable)


def _usable_by_legend(placements, kinds, test) -> set:
    """The occupied cells some placement can use, each slot judged by the legend's `test(symbol, cell)`."""
    usable = set()
    for placement in placements:
        used = []
        for cell, symbol in placement.pairs:
            if test(symbol, cell):
                if kinds[cell] is not None:
                    used.append(cell)
            elif kinds[cell] is not None:
                break  # a piece this slot does not take: the placement cannot be completed
        else:
            usable.update(used)
    return usable


def _worth(game, state, seat, action, index, prefix, cells, missing, now) -> float:
    """The best gain over `now` of the action's moves that use `cells` as the match, once the unmet
    cells are filled: the parameters before it as in `prefix`, those after it each of their values."""
    filled = state.clone()
    state.meter.charge(COPY_UNITS)
    board = game.board_of_seat(seat)
    for cell, kind in missing:
        set_kind(filled, board, cell, kind)  # (the masks a rule reads follow)
        filled.owner[board][cell] = PLAYERS[seat]
    ctx = Ctx(game, filled, PLAYERS[seat])
    env = ctx.env
    names = action.param_names
    for name, value in zip(names, prefix):
        env[name] = value
    env[names[index]] = cells
    best = [None]

    def visit(args):
        if action.when is not None and not action.when(ctx):
            return
        ctx.meter.charge(JUDGED_UNITS)
        gain = game.score_total(flow.preview(game, filled, Move(seat, action.name, args)), seat) - now
        if best[0] is None or gain > best[0]:
            best[0] = gain

    _each_choice(ctx, action, index + 1, len(names), prefix + (cells,), visit)
    return 0.0 if best[0] is None else best[0]
