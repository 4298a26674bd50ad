"""Run the `tests:` of a pack: positions, moves and what must come out.

    tests:
      - name: a row wins
        players: 2
        seed: 1
        options: {variant: solo}
        position: {board: "X X X / ..."}   # see positions.py
        moves: [P1 play B2, P2 play A1]
        expect:
          score: {P1: 1}                  # totals
          terms: {P1: {three in a row: 1}}
          legal: {P1: 9}                  # a count, or moves that must be legal
          illegal: {P2: [play B2]}
          over: true
          winner: P1                      # or [P1, P2] for a shared win
          verdict: {P1: "Engineer"}

Each failed expectation becomes a diagnostic pointing at the test.
"""

from __future__ import annotations

from boardrule.dsl.diagnostics import BoardruleError, Diagnostic, UsageError
from boardrule.dsl.loader import MapNode, ScalarNode, SeqNode, to_plain
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.runtime.moves import move_text
from boardrule.interpreter.runtime.outcome import outcome
from boardrule.dsl.types import CELL
from boardrule.interpreter.records.positions import apply_position, parse_seat
from boardrule.interpreter.runtime.scoring import score_sheet
from boardrule.interpreter.runtime.budget import TESTS_BUDGET, BudgetError, Meter
from boardrule.interpreter.runtime.values import CELL_BITS, CELL_MASK, PLAYERS, Player, RuleError

EXPECT_KEYS = ("score", "terms", "legal", "illegal", "over", "winner", "verdict", "vars", "player_vars")


def run_tests(game, meter: Meter | None = None) -> list:
    """Run every test of the pack; a list of diagnostics for the failures."""
    return [d for _, failures in test_results(game, meter) for d in failures]


def test_results(game, meter: Meter | None = None, tests=None) -> list:
    """(test name, its failures) for each test run, in the pack's order.

    The tests share one work budget, `meter` (budget.py): a pack's tests end
    within it, however many there are. Once it is spent the tests left are
    not run, and the last failure says how many.
    """
    meter = meter if meter is not None else Meter.scaled(1.0, TESTS_BUDGET)
    results = []
    tests = game.model.tests if tests is None else tests
    for index, test in enumerate(tests):
        failures = run_test(game, test, meter)
        if meter.exhausted() and index + 1 < len(tests):
            left = len(tests) - index - 1
            failures = failures + [Diagnostic("E710", f"the pack's tests spent their budget of {meter.game:,} "
                                              f"units of work; {left} test(s) after `{test.name}` were not run",
                                              test.span)]
            results.append((test.name, failures))
            break
        results.append((test.name, failures))
    return results


def run_test(game, test, meter: Meter | None = None) -> list:
    """The failures of one test (a list of diagnostics); its work is charged to `meter`."""
    node = test.node
    try:
        state = _start(game, node, meter)
        state = _play(game, state, node.get("moves"))
        failures = _check(game, test, state, node.get("expect"))
        _status(game, state)
        return failures
    except BudgetError as err:
        return [Diagnostic(err.code, f"test `{test.name}`: {err}", err.span or test.span)]
    except RecursionError:
        return [Diagnostic("E702", f"test `{test.name}`: the rules nest too deeply to evaluate "
                           "(definitions calling definitions?)", test.span)]
    except RuleError as err:
        return [Diagnostic("E702", f"test `{test.name}`: a rule failed: {err}", err.span or test.span)]
    except BoardruleError as err:
        first = err.diagnostics[0]
        return [Diagnostic(first.code, f"test `{test.name}`: {first.message}", first.span or test.span,
                           hint=first.hint)]


def _status(game, state) -> None:
    """Work out what each player's screen would say (the pack's `status:` and `player_status:`) in the
    test's last position: a rule there that fails fails the test, as it would stop a game."""
    ctx = game.ctx(state)
    for _, rule, _, _ in game.status:
        rule(ctx)
    for seat in state.players:
        ctx = game.ctx(state, me=PLAYERS[seat])
        for _, rule, _, _ in game.player_status:
            rule(ctx)


def _start(game, node, meter=None):
    players = node.get("players")
    seed = node.get("seed")
    options = to_plain(node.get("options")) if node.get("options") is not None else {}
    low = game.players_range[0]
    seating = None
    if node.get("seats") is not None:
        seating = tuple(parse_seat(s.value, s.span) for s in node.get("seats").items)
    count = players.value if players is not None else (
        len(seating) if seating else max(low, min(2, game.players_range[1])))
    if type(count) is not int or not low <= count <= game.players_range[1]:  # before any list of that size
        high = game.players_range[1]
        raise UsageError(f"{game.name} is for {low}-{high} players, not {count!r}", code="E002",
                         span=players.span if players is not None else node.span)
    # tests sit players at the first seats unless they say otherwise
    state = flow.initial_state(game, count, seed=seed.value if seed is not None else 0, options=options,
                               seating=seating or tuple(range(count)), meter=meter or Meter())
    if node.get("position") is not None:
        apply_position(game, state, node.get("position"))
        flow.settle(game, state)  # a player the position leaves without a legal move passes
    return state


def _play(game, state, moves):
    for item in (moves.items if isinstance(moves, SeqNode) else ()):
        text = str(item.value)
        seat_text, _, move_text = text.partition(" ")
        seat = parse_seat(seat_text, item.span, state.seats)
        try:
            state = flow.play_text(game, state, seat, move_text)
        except BoardruleError as err:
            message, code = err.diagnostics[0].message, err.diagnostics[0].code
            if code == "E504":  # say which rule refuses it, as `illegal:` checks it
                reason = _refusal(game, state, seat, move_text.split("/")[0].strip())
                message += f": {reason}" if reason and reason != message else ""
            raise type(err)(f"move `{text}`: {message}", code=code, span=item.span) from None
    return state


def _check(game, test, state, expect) -> list:
    if expect is None:
        return []
    failures = []

    def fail(message, span):
        failures.append(Diagnostic("E701", f"test `{test.name}`: {message}", span))
    for key, value in expect.entries:
        checker = _CHECKS.get(key.value)
        if checker is None:
            fail(f"unknown expectation `{key.value}`; expected one of: {', '.join(EXPECT_KEYS)}", key.span)
            continue
        checker(game, state, value, fail)
    return failures


def _per_seat(state, node):
    if not isinstance(node, MapNode):
        raise BoardruleError("expected a mapping of seats, like {P1: 3}", code="E703", span=node.span)
    for key, value in node.entries:
        yield parse_seat(key.value, key.span, state.seats), value, key.span


def _score(game, state, node, fail):
    for seat, value, span in _per_seat(state, node):
        total = score_sheet(game, state, seat).total
        if total != value.value:
            fail(f"{PLAYERS[seat]!r} scores {total}, expected {value.value}", value.span)


def _terms(game, state, node, fail):
    for seat, value, span in _per_seat(state, node):
        labels = score_sheet(game, state, seat).by_label()
        for label_node, points in value.entries:
            got = labels.get(label_node.value, 0)
            if got != points.value:
                fail(f"{PLAYERS[seat]!r} gets {got} for `{label_node.value}`, expected {points.value}", points.span)


def _legal(game, state, node, fail):
    for seat, value, span in _per_seat(state, node):
        moves = flow.legal_moves(game, state, seat)
        if isinstance(value, ScalarNode):
            if len(moves) != value.value:
                fail(f"{PLAYERS[seat]!r} has {len(moves)} legal moves, expected {value.value}"
                     + _listed_moves(game, moves), value.span)
            continue
        for item in value.items:
            try:
                flow.parse_move(game, state, seat, str(item.value))
            except BoardruleError as err:
                fail(f"`{item.value}` should be legal for {PLAYERS[seat]!r}: {err.diagnostics[0].message}",
                     item.span)


LISTED_MOVES = 20  # the legal moves a failed count shows


def _listed_moves(game, moves) -> str:
    """`: drop A6, drop B6` (the first LISTED_MOVES of them), or nothing when there are none."""
    if not moves:
        return ""
    shown = ", ".join(move_text(m, game) for m in moves[:LISTED_MOVES])
    more = f" (the first {LISTED_MOVES})" if len(moves) > LISTED_MOVES else ""
    return f": {shown}{more}"


def _answers_no_choice(state, seat, text) -> bool:
    """A move written with ` / answer` while no choice of the seat is waiting: refused whatever the
    rules say, so an `illegal:` entry like it could never fail."""
    pending = state.pending.get(seat)
    return "/" in text and (pending is None or pending.choice is None)


def _illegal(game, state, node, fail):
    """Moves that must be refused; `{move: M, because: TEXT}` also checks the reason: the rule that refuses
    it (flow.explain_illegal) or the words a player is told (reasons.refusal, the pack's `why:`)."""
    for seat, value, span in _per_seat(state, node):
        for item in value.items:
            text, because = _illegal_item(item)
            if _answers_no_choice(state, seat, text):
                fail(f"`{text}` can never be legal here: it answers a choice, and no choice of "
                     f"{PLAYERS[seat]!r} is waiting; write the move alone, or make it in `moves:` first",
                     item.span)
                continue
            reason = _refusal(game, state, seat, text)
            if reason is None:
                fail(f"`{text}` should be illegal for {PLAYERS[seat]!r}", item.span)
            elif because is not None and because not in reason:
                told = _told(game, state, seat, text)
                if told is None or because not in told:
                    fail(f"`{text}` is refused because {reason!r}" + (f" (a player is told {told!r})" if told else "")
                         + f", expected a reason containing {because!r}", item.span)


def _told(game, state, seat, text):
    """What a player is told when `text` is refused (interpreter/runtime/reasons.py), or None."""
    from boardrule.interpreter.runtime.reasons import refusal
    try:
        return refusal(game, state, seat, text)
    except Exception:  # the rule's own reason was checked already
        return None


def _illegal_item(item):
    if isinstance(item, MapNode):
        return str(item.get("move").value), str(item.get("because").value) if item.get("because") else None
    return str(item.value), None


def _refusal(game, state, seat, text):
    """Why `text` is refused for `seat`, or None if it is legal."""
    try:
        flow.parse_move(game, state, seat, text)
    except BoardruleError:
        pass
    else:
        return None
    try:
        flow.apply(game, state, _typed_guess(game, state, seat, text))
    except _NoSuchCell:  # a cell off the board: the words a player is told say so
        from boardrule.interpreter.runtime.reasons import refusal
        return refusal(game, state, seat, text)
    except BoardruleError as err:
        return err.diagnostics[0].message
    except Exception:  # a move that cannot even be read: the parse error is the reason
        pass
    try:
        flow.parse_move(game, state, seat, text)
    except BoardruleError as err:
        return err.diagnostics[0].message
    return "refused"


def _typed_guess(game, state, seat, text):
    """Read a move's values from text without requiring it to be legal."""
    from boardrule.interpreter.runtime.moves import Move
    words = text.split()
    action = game.actions[words[0]]
    args = []
    base = game.board_of_seat(seat) << CELL_BITS
    for word, value_type in zip(words[1:], game.param_types[action.name]):
        args.append(_read_value(game, word, value_type, base))
    return Move(seat, action.name, tuple(args))


class _NoSuchCell(Exception):
    """A word typed for a cell that names no cell of the board."""


def _read_value(game, word, value_type, base):
    if value_type is not None and value_type.name == "number":
        return int(word)
    if "+" in word or (value_type is not None and value_type.is_list):
        return tuple(sorted(base | game.grid.parse_name(w) for w in word.split("+")))
    try:
        return base | game.grid.parse_name(word)
    except (KeyError, ValueError):
        if value_type == CELL:
            raise _NoSuchCell(word) from None
        return word


def _over(game, state, node, fail):
    if (state.phase == "over") != bool(node.value):
        fail("the game is " + ("over" if state.phase == "over" else "not over"), node.span)


def _winner(game, state, node, fail):
    wanted = to_plain(node)
    wanted = sorted(parse_seat(w) for w in (wanted if isinstance(wanted, list) else [wanted]))
    got = outcome(game, state).winners
    if sorted(got) != wanted:
        fail("the winner is " + (", ".join(repr(PLAYERS[s]) for s in got) or "nobody"), node.span)


def _verdict(game, state, node, fail):
    for seat, value, span in _per_seat(state, node):
        got = outcome(game, state).verdicts.get(seat)
        if got != value.value:
            fail(f"{PLAYERS[seat]!r} gets the verdict {got!r}, expected {value.value!r}", value.span)


def _vars(game, state, node, fail):
    for key, value in node.entries:
        _compare_value(game, state.vars.get(key.value), value, f"`{key.value}`", fail)


def _player_vars(game, state, node, fail):
    for seat, values, span in _per_seat(state, node):
        for key, value in values.entries:
            _compare_value(game, state.pvars[seat].get(key.value), value, f"{PLAYERS[seat]!r}'s `{key.value}`",
                           fail)


def _compare_value(game, got, node, what, fail):
    wanted = to_plain(node)
    shown = _as_written(game, got, wanted)
    if shown != wanted:
        fail(f"{what} is {_written(shown)}, expected {_written(wanted)}", node.span)


def _written(value) -> str:
    """A value in a test's message as the language writes it: `true`, `false`, `none`, lists in brackets
    (text and names quoted, as before)."""
    if value is True or value is False:
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_written(v) for v in value) + "]"
    return repr(value)


def _as_written(game, got, wanted):
    """A value as a test writes it: lists as lists, players as `P1`, and a cell (an int to the
    engine) by its name where the test writes a name, so `{last: C1}` can be expected."""
    if type(got) is Player:
        return repr(got)
    if isinstance(got, (tuple, list)):
        wanted_items = wanted if isinstance(wanted, list) and len(wanted) == len(got) else [None] * len(got)
        return [_as_written(game, g, w) for g, w in zip(got, wanted_items)]
    if type(got) is int and isinstance(wanted, str) and 0 <= got & CELL_MASK < game.grid.size:
        return game.grid.name(got & CELL_MASK)
    return got


_CHECKS = {"vars": _vars, "player_vars": _player_vars, "score": _score, "terms": _terms, "legal": _legal,
           "illegal": _illegal, "over": _over, "winner": _winner, "verdict": _verdict}
