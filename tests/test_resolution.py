"""What a name means is a class (dsl/resolution.py): the checker stores one per name it makes sense of, and the
compiler and the reference evaluator tell them apart by class."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrule.dsl import ast, resolution
from boardrule.dsl.resolution import Define, Global, Local, PlayerVar, Prop, Resolutions, Value
from boardrule.interpreter.api import open_game
from boardrule.interpreter.compiler import exprs, reference

SUITE = sorted(str(p) for p in (Path(__file__).parent / "suite").glob("*.pack"))


def test_a_resolution_equals_only_its_own_class_with_the_same_name():
    assert Local("coins") == Local("coins") and hash(Local("coins")) == hash(Local("coins"))
    assert Local("coins") != Global("coins") != PlayerVar("coins")
    assert Value("none") != ("value", "none")  # the string pairs of old mean nothing now
    assert {Prop("kind"): 1}.get(Prop("kind")) == 1


def test_the_table_refuses_anything_but_a_resolution():
    table = Resolutions()
    with pytest.raises(TypeError, match="not \\('prop', 'kind'\\)"):
        table["node"] = ("prop", "kind")
    table["node"] = Prop("kind")
    assert table.find("node", Prop) == Prop("kind") and table.find("node", Define) is None


def test_each_class_has_its_own_kind_in_words():
    kinds = [cls.kind for cls in resolution.CLASSES]
    assert len(kinds) == len(set(kinds)) == 31 and all(kinds)
    assert resolution.BY_KIND["player_var"] is PlayerVar


def test_the_compiler_and_the_reference_evaluator_read_the_same_kinds_of_name():
    assert set(exprs._NAME_COMPILERS) == set(reference._NAMES)


@pytest.mark.parametrize("pack", ["tinytowns", "townies", "villagers", *SUITE])
def test_every_name_the_checker_resolves_in_a_pack_has_a_closure_and_a_reference_reading(pack):
    game = open_game(pack)
    names = {type(found) for node, found in game.pack.checked.resolved.items() if type(node) is ast.Name}
    assert names <= set(exprs._NAME_COMPILERS), names - set(exprs._NAME_COMPILERS)
