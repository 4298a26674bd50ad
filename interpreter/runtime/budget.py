"""The cost budget: every evaluation counts its work, and stops when it is spent.

A pack from a stranger must end within a bounded time, however its rules
nest. Each state carries a :class:`Meter` shared by the states of one game
(clones share it), and the engine charges it, in *units*, wherever work can
grow with the pack's rules rather than with its size:

* per element visited by a filter, an aggregate, a comprehension or an
  effect's ``for`` loop, the weight of the body run for it (its number of
  syntax nodes as the rewrite passes give it, :func:`weight`);
* per value of a parameter while moves are listed, per option of a choice,
  per combination of marks at scoring: one unit (plus the weight of the
  ``when`` judged for it);
* per call of a definition whose body calls other definitions (a chain of
  them can branch), the body's weight;
* per flow step, move and trigger fired, one unit;
* a scan of a board's cells that needs no rule per cell (a filter on kinds),
  its number of cells; a shape function that runs a rule per placement
  (``matches`` with options), its placements; a connectivity function
  (``groups``, ``reaches``), its cells.

Everything else an evaluation does between two charges is bounded by the
size of one rule, so the units bound the time. Two limits apply:

* ``operation``: what one operation may spend (listing a seat's moves,
  making a move with the flow steps it sets off, scoring a position);
* ``game``: what all operations on the states of one game may spend
  together; the tests of one pack (``boardrule check``) share one budget of
  this kind, TESTS_BUDGET.

Spending past either raises :class:`BudgetError`, a rule error that names
the rule that was running (its span) and the limit.

    >>> meter = Meter(operation=10, game=15)
    >>> meter.begin(); meter.charge(8)
    >>> meter.begin(); meter.charge(8)
    Traceback (most recent call last):
    ...
    boardrule.interpreter.runtime.budget.BudgetError: the game spent its budget of 15 units of work ...
"""

from __future__ import annotations

from boardrule.dsl.lints import walk
from boardrule.interpreter.runtime.values import RuleError

#: what one operation may spend by default (the largest of a bundled game spends under 4,000)
OPERATION_BUDGET = 5_000_000
#: what one game may spend by default (a bundled game spends under 110,000)
GAME_BUDGET = 200_000_000
#: what the tests of one pack may spend together (a bundled pack's spend under 300,000)
TESTS_BUDGET = 20_000_000
#: an agent's search of one decision (playouts included) may spend this many operations' worth
SEARCH_OPERATIONS = 20


def weight(node) -> int:
    """The units one evaluation of `node` is charged: the number of its syntax nodes.

    A loop charges its element count times its body's weight, so a long rule
    run over few elements costs as much as a short one run over many.
    """
    return max(1, sum(1 for _ in walk(node)))


class BudgetError(RuleError):
    """An evaluation spent its budget of work units (see the module's docstring)."""

    def __init__(self, message: str, span=None, code: str = "E710"):
        super().__init__(message, span)
        self.code = code


class Meter:
    """Work units left: `left` for the running operation, `game_left` for the game.

    The engine's hot loops charge `left` directly (`meter.left -= n`, then
    `meter.over(span)` when it falls below zero); `begin()` starts an
    operation, accounting what the one before spent.
    """

    __slots__ = ("left", "operation", "game_left", "game", "_start")

    def __init__(self, operation: int = OPERATION_BUDGET, game: int = GAME_BUDGET):
        if operation < 1 or game < 1:
            raise ValueError("a budget is a positive number of units")
        self.operation, self.game = operation, game
        self.game_left = game
        self._start = self.left = min(operation, game)

    @classmethod
    def scaled(cls, factor: float = 1.0, game: int = GAME_BUDGET) -> "Meter":
        """The default budgets (with `game` for the whole) times `factor` (a designer's `--budget`)."""
        return cls(max(1, int(OPERATION_BUDGET * factor)), max(1, int(game * factor)))

    def begin(self) -> None:
        """Start an operation: what the last one spent leaves the game's budget."""
        game_left = self.game_left = self.game_left - (self._start - self.left)
        operation = self.operation
        self._start = self.left = operation if operation < game_left else (game_left if game_left > 0 else 0)

    def spent(self) -> int:
        """Units spent so far in this game."""
        return self.game - self.game_left + self._start - self.left

    def exhausted(self) -> bool:
        """True when the game's budget is spent (no operation can run any more)."""
        return self.spent() >= self.game

    def charge(self, units: int, span=None) -> None:
        """Spend `units`; past the budget, BudgetError naming `span`."""
        self.left -= units
        if self.left < 0:
            self.over(span)

    def over(self, span=None):
        """Raise the error of a spent budget (called when `left` fell below zero)."""
        self.left = -1  # stays spent: every later charge of this operation fails too
        if self._start < self.operation:  # the game's budget was the smaller limit
            raise BudgetError(f"the game spent its budget of {self.game:,} units of work (the engine counts "
                              "each element a rule visits); a longer game needs a larger `--budget`", span)
        raise BudgetError(f"this rule spent the budget of {self.operation:,} units of work of one operation "
                          "(the engine counts each element a rule visits: nested aggregates over many cells "
                          "multiply); simplify the rule, or raise `--budget`", span)

    def for_search(self) -> "Meter":
        """A meter of its own for an agent's search of one decision."""
        return Meter(self.operation, self.operation * SEARCH_OPERATIONS)

