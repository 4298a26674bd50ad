"""The claims of docs/safety.md that no other test file pins.

* the language has no way to reach Python: names that would reach it are
  unknown names to the checker, and the engine's code holds no dynamic
  evaluation or import;
* a pack whose flow never ends is stopped, with an error pointing at the
  rule that looped.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from boardrule.dsl.diagnostics import PackError
from boardrule.dsl.pack import load_pack_text
from boardrule.interpreter.runtime import flow
from boardrule.interpreter.compiler.game import compile_game
from boardrule.interpreter.runtime.values import RuleError

ROOT = Path(__file__).resolve().parents[1]
ENGINE_DIRS = ("api", "dsl", "interpreter", "cli")

HEAD = """\
game: {id: hostile, players: 1}
board: {grid: square 2 x 2}
pieces:
  stone: {symbol: S}
"""

#: Builtins that run or import code given as data.
FORBIDDEN_BUILTINS = {"eval", "exec", "compile", "__import__"}
#: module.function calls that run or import code, or unpickle.
FORBIDDEN_CALLS = {("importlib", "import_module"), ("os", "system"), ("os", "popen"), ("pickle", "loads"),
                   ("pickle", "load"), ("marshal", "loads")}


def _load(text: str):
    return compile_game(load_pack_text(textwrap.dedent(text), "hostile.pack"))


@pytest.mark.parametrize("expr, code", [
    ("me.__class__", "E202"),
    ("stone.__dict__", "E202"),
    ('__import__("os")', "E204"),
    ('eval("1")', "E204"),
    ('getattr(me, "score")', "E204"),
    ('open("/etc/passwd")', "E204"),
    ('"[].__len__"', "E211"),
])
def test_python_names_are_unknown_names(expr, code):
    text = HEAD + f"scoring:\n  probe: {expr}\nflow:\n  round: [{{do: 'set n = 1'}}]\n  end: n == 1\nvars: {{n: 0}}\n"
    with pytest.raises(PackError) as caught:
        _load(text)
    assert [d.code for d in caught.value.diagnostics] == [code]


def _engine_calls():
    for folder in ENGINE_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    yield path, node


def _call_name(node: ast.Call) -> tuple[str, str]:
    func = node.func
    if isinstance(func, ast.Name):
        return "", func.id
    if isinstance(func, ast.Attribute):
        owner = func.value.id if isinstance(func.value, ast.Name) else "<expression>"
        return owner, func.attr
    return "", ""


#: the one audited module that turns generated syntax trees into functions (interpreter/compiler/pycode.py)
AUDITED = ROOT / "interpreter" / "compiler" / "pycode.py"


def test_the_engine_evaluates_and_imports_nothing_dynamically():
    """No eval, exec, import by name or unpickling anywhere; compile() once, in the audited module."""
    found, compiles = [], []
    for path, node in _engine_calls():
        owner, name = _call_name(node)
        if owner == "" and name == "compile" and path == AUDITED:
            compiles.append(node)
            continue
        if (owner == "" and name in FORBIDDEN_BUILTINS) or (owner, name) in FORBIDDEN_CALLS:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {owner + '.' if owner else ''}{name}(...)")
    assert found == []
    assert len(compiles) == 1 and isinstance(compiles[0].args[0], ast.Name)  # of the validated tree


def test_attribute_lookups_by_name_use_the_engines_own_prefixes():
    """getattr in the engine reads a fixed name, a method with a fixed prefix and a name of the
    engine's own, or a field of its own records; a pack's text never names what is read (visitors
    dispatch by node class, through dsl.ast.methods_by_class)."""
    for path, node in _engine_calls():
        if _call_name(node) != ("", "getattr") or len(node.args) < 2:
            continue
        name = node.args[1]
        fixed = isinstance(name, ast.Constant)
        by_node_class = isinstance(name, ast.BinOp) and isinstance(name.left, ast.Constant)
        by_field = isinstance(name, ast.Name) or (isinstance(name, ast.Attribute) and name.attr == "name")
        assert fixed or by_node_class or by_field, f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}"


LOOPING_STEP = HEAD + """\
actions:
  spin:
    effect: score 0 as "nothing"
flow:
  round:
    - together: [spin]
      repeat: while possible
  end: 1 < 0
"""

ENDLESS_ROUNDS = HEAD + """\
vars: {n: 0}
flow:
  round:
    - do: n += 1
  end: n < 0
  max_rounds: 50
"""


def _play_until_error(game):
    state = flow.initial_state(game, seed=0)
    while True:
        seat = flow.waiting(state)[0]
        state = flow.apply(game, state, flow.legal_moves(game, state, seat)[0])


def test_a_repeated_step_that_never_ends_is_stopped_at_that_step():
    with pytest.raises(RuleError) as caught:
        _play_until_error(_load(LOOPING_STEP))
    assert f"{flow.MAX_MOVES_PER_STEP} moves in this step" in str(caught.value)
    assert (caught.value.span.line, caught.value.span.col) == (10, 7)


def test_a_flow_that_never_ends_is_stopped_by_max_rounds():
    with pytest.raises(RuleError) as caught:
        flow.initial_state(_load(ENDLESS_ROUNDS), seed=0)
    assert "did not end within 50 rounds" in str(caught.value)
    assert caught.value.span.line == 9  # `end:`


def test_a_flow_of_endless_steps_is_stopped_at_its_step_limit(monkeypatch):
    monkeypatch.setattr(flow, "MAX_STEPS", 30)
    with pytest.raises(RuleError) as caught:
        flow.initial_state(_load(ENDLESS_ROUNDS), seed=0)
    assert "the flow ran 30 steps without ending" in str(caught.value)
    assert caught.value.span.line == 9  # `end:`


def test_every_test_docs_safety_cites_exists():
    """docs/safety.md backs each claim with a test by name: each name must be a real test."""
    import re
    text = (ROOT / "docs" / "safety.md").read_text(encoding="utf-8")
    cited = set(re.findall(r"`(?:tests/\w+\.py::)?(test_\w+)`", text))
    sources = " ".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("test_*.py"))
    assert cited and sorted(n for n in cited if f"def {n}(" not in sources) == []
