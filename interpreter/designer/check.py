"""Check packs: load, read, check names and types, compile, run their tests.

    >>> report = check_pack("tictactoe")
    >>> report.ok, report.tests_run
    (True, 5)

The library side of `boardrule check`: it returns diagnostics, never prints.
"""

from __future__ import annotations

import time

from boardrule.dsl.diagnostics import BoardruleError, Diagnostic, SourceStore
from boardrule.dsl.lints import lint_pack
from boardrule.dsl.pack import load_pack
from boardrule.dsl.records import frozen
from boardrule.interpreter.runtime.budget import TESTS_BUDGET, Meter
from boardrule.interpreter.runtime.flow import initial_state
from boardrule.interpreter.compiler.game import MAX_SEATS, compile_game
from boardrule.interpreter.designer.scenarios import test_results
from boardrule.interpreter.runtime.values import RuleError


@frozen
class CheckReport:
    pack: str
    diagnostics: tuple
    tests_run: int
    seconds: float
    tests: tuple = ()  # (test name, its failures) for every test run
    inherited: tuple = ()  # (test name, its failures) for each test of the packs this one extends
    strict_inherited: bool = False  # the pack says `inherited_tests: strict`

    @property
    def changed(self) -> tuple:
        """The inherited tests that fail against this pack: (name, failures)."""
        return tuple((name, failures) for name, failures in self.inherited if failures)

    @property
    def changed_results(self) -> tuple:
        """The inherited tests whose expectation no longer holds (E701): the pack changed a result."""
        return tuple(pair for pair in self.changed if any(d.code == "E701" for d in pair[1]))

    @property
    def unfit(self) -> tuple:
        """The inherited tests that no longer fit the pack: a position, a player count, a move
        or an option it does not have."""
        return tuple(pair for pair in self.changed if not any(d.code == "E701" for d in pair[1]))

    def findings(self, strict: bool = False) -> tuple:
        """The diagnostics that count: the pack's own, and the inherited tests it changes when
        `strict` (the command's `--strict`) or the pack says `inherited_tests: strict`."""
        if not (strict or self.strict_inherited):
            return self.diagnostics
        return self.diagnostics + tuple(d for _, failures in self.changed for d in failures)

    @property
    def warnings(self) -> tuple:
        return tuple(d for d in self.diagnostics if d.severity == "warning")

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


def check_pack(name_or_path, sources: SourceStore | None = None, run_pack_tests: bool = True,
               lint: bool = True, budget: float = 1.0, extends_from: tuple = ()) -> CheckReport:
    """Every diagnostic of one pack, its own tests included; with `lint`, the lint warnings too.

    The pack's tests share one work budget (budget.py), `budget` times the default;
    `extends_from` names the folders its `extends:` may read beside its own.
    """
    sources = sources if sources is not None else SourceStore()
    start = time.perf_counter()
    try:
        pack = load_pack(name_or_path, sources, extends_from)
        game = compile_game(pack)
    except BoardruleError as err:
        return CheckReport(str(name_or_path), tuple(err.diagnostics), 0, time.perf_counter() - start)
    except RuleError as err:
        diag = Diagnostic("E700", f"a rule failed while setting up the game: {err}", err.span)
        return CheckReport(str(name_or_path), (diag,), 0, time.perf_counter() - start)
    results = tuple((name, tuple(found)) for name, found in test_results(game, Meter.scaled(budget, TESTS_BUDGET))
                    ) if run_pack_tests else ()
    inherited = tuple((name, tuple(found)) for name, found in test_results(
        game, Meter.scaled(budget, TESTS_BUDGET), game.model.inherited_tests)) if run_pack_tests else ()
    failures = tuple(d for _, found in results for d in found)
    lints = (tuple(lint_pack(pack)) + tuple(setup_lints(game))) if lint else ()
    return CheckReport(str(name_or_path), tuple(pack.warnings) + tuple(game.warnings) + lints + failures,
                       len(results), time.perf_counter() - start, results, inherited,
                       game.model.game.inherited_tests == "strict")


def setup_lints(game) -> list:
    """W848: a number of players the pack allows whose setup fails (more players than the
    components can serve, say), found by setting a game up for each, with the default options."""
    low, high = game.players_range
    found = []
    for players in range(low, min(high, MAX_SEATS) + 1):
        try:
            initial_state(game, players, seed=0)
        except (RuleError, BoardruleError) as err:
            message = err.diagnostics[0].message if isinstance(err, BoardruleError) else str(err)
            span = game.model.game.players.span if game.model.game.players is not None else None
            found.append(Diagnostic("W848", f"with {players} players the setup fails: {message}", span,
                                    severity="warning", hint="narrow `players:`, or give the setup what "
                                                             "that many players need",
                                    notes=((err.span, "the rule that failed"),) if getattr(err, "span", None)
                                    else ()))
            break  # more players fail the same way
    return found
