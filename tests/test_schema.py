"""The JSON Schema of a pack's YAML layer (api/schema/pack.schema.json, shipped as boardrule.schema):
it is valid draft-07, every bundled, test and docs pack passes it, it flags mistakes, and its keys are
exactly those the section readers (dsl/sections.py) accept, so the two cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

from boardrule.dsl.diagnostics import DiagnosticBag  # noqa: E402
from boardrule.dsl.extends import ENTRY_SECTIONS  # noqa: E402
from boardrule.dsl.loader import load_yaml_file, load_yaml_text, to_plain  # noqa: E402
from boardrule.dsl.model import SECTIONS  # noqa: E402
from boardrule.dsl.sections import EXPECT_SHAPES, PIECE_KEYS, STEP_KINDS, read_pack  # noqa: E402
from boardrule.schema import load_schema  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PACKS = sorted([*(ROOT / "rulepacks").glob("*.pack"), *(ROOT / "tests" / "packs").glob("*.pack"),
                *(ROOT / "tests" / "extends").glob("*.pack"), *(ROOT / "tests" / "lints").glob("*.pack")])
RESERVED = {"extends", "remove", "override"}


@pytest.fixture(scope="module")
def schema():
    return load_schema()


@pytest.fixture(scope="module")
def validator(schema):
    return jsonschema.Draft7Validator(schema)


def problems(validator, data) -> list:
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)]


def test_the_schema_is_valid_draft_07(schema):
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    jsonschema.Draft7Validator.check_schema(schema)


@pytest.mark.parametrize("path", PACKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_bundled_and_test_pack_passes(validator, path):
    assert not problems(validator, to_plain(load_yaml_file(path)))


def test_the_docs_packs_pass(validator):
    page = (ROOT / "docs" / "language.md").read_text()
    bodies = re.findall(r"```yaml\n(# (?:pack|fragment): .*?)```", page, re.S)
    assert len(bodies) >= 10
    for body in bodies:
        data = to_plain(load_yaml_text(body))
        if body.startswith("# fragment:"):
            data.setdefault("extends", "town")  # a fragment is a part of a pack
        assert not problems(validator, data), body


@pytest.mark.parametrize("text,where", [
    ("extends: x\nboards: {}\n", ""),                                   # a misspelt section
    ("extends: x\nshapes:\n  s: {art: X, symmetry: rotated}\n", "shapes.s.symmetry"),
    ("extends: x\nflow:\n  round:\n    - turns: [a]\n      do: x\n", "flow.round.0"),
    ("extends: x\ngame: {id: a, player: 2}\n", "game"),
    ("extends: x\npieces:\n  a: {symbol: A, variable: color}\n", "pieces.a.variable"),
    ("extends: x\ntests:\n  - name: t\n    expect: {scores: {P1: 1}}\n", "tests.0.expect"),
    ("game: {id: a, players: 1}\nboard: {grid: square 2 x 2}\n", ""),   # no flow, and no extends
    ("extends: x\npieces:\n  a: {symbol: A, override: yes}\n", "pieces.a.override"),
])
def test_the_schema_flags_mistakes(validator, text, where):
    found = problems(validator, to_plain(load_yaml_text(text)))
    assert any(p.startswith(f"{where}:") for p in found), found


# ---------------------------------------------------------------- drift
def accepted_keys(yaml_text: str, what: str) -> set:
    """The keys the section readers accept at one place, read from their E011 "expected one of" hint."""
    bag = DiagnosticBag()
    read_pack(load_yaml_text(yaml_text), bag)
    for d in bag:
        if d.code == "E011" and d.message.endswith(f" in {what}") and d.hint.startswith("expected one of: "):
            return set(d.hint.removeprefix("expected one of: ").split(", "))
    raise AssertionError(f"no E011 for {what}: {[d.message for d in bag]}")


BOGUS = "zqxjkv"
PLACES = {
    # where, the pack text putting a bogus key there, the readers' name of the place
    "root": (f"{BOGUS}: 1\n", "a pack"),
    "game": (f"game: {{{BOGUS}: 1}}\n", "game"),
    "board": (f"board: {{{BOGUS}: 1}}\n", "board"),
    "option": (f"options:\n  o: {{{BOGUS}: 1}}\n", "option `o`"),
    "shape": (f"shapes:\n  s: {{art: X, {BOGUS}: 1}}\n", "shape `s`"),
    "action": (f"actions:\n  a: {{{BOGUS}: 1}}\n", "action `a`"),
    "flow": (f"flow: {{{BOGUS}: 1}}\n", "flow"),
    "var": (f"player_vars:\n  v: {{initial: 1, {BOGUS}: 1}}\n", "player_vars.v"),
    "test": (f"tests:\n  - {{name: t, {BOGUS}: 1}}\n", "a test"),
    "expect": (f"tests:\n  - {{name: t, expect: {{{BOGUS}: 1}}}}\n", "`expect` of a test"),
    "display": (f"display:\n  k: {{{BOGUS}: 1}}\n", "display `k`"),
}


def schema_keys(schema, place) -> set:
    props = schema["properties"]
    entry = lambda section: set(props[section]["additionalProperties"]["properties"])  # noqa: E731
    variable = next(v for v in schema["definitions"]["variable"]["anyOf"] if v.get("type") == "object")
    test = schema["definitions"]["test"]["properties"]
    return {
        "root": set(props) - RESERVED,
        "game": set(props["game"]["properties"]),
        "board": set(props["board"]["properties"]),
        "option": entry("options") - {"override"},
        "shape": entry("shapes") - {"override"},
        "action": entry("actions") - {"override"},
        "flow": set(props["flow"]["properties"]),
        "var": set(variable["properties"]) - {"override"},
        "test": set(test),
        "expect": set(test["expect"]["properties"]),
        "display": set(props["display"]["additionalProperties"]["anyOf"][1]["properties"]),
    }[place]


@pytest.mark.parametrize("place", sorted(PLACES))
def test_the_schema_has_the_keys_the_readers_accept(schema, place):
    text, what = PLACES[place]
    assert schema_keys(schema, place) == accepted_keys(text, what)


def test_the_schema_sections_are_the_readers_sections(schema):
    assert set(schema["properties"]) == set(SECTIONS) | RESERVED
    assert set(schema["properties"]) - RESERVED == accepted_keys(PLACES["root"][0], "a pack")


def test_the_schema_knows_the_piece_keys_steps_and_expectations(schema):
    piece = schema["properties"]["pieces"]["additionalProperties"]["properties"]
    assert set(piece) - {"override"} == set(PIECE_KEYS)
    step = schema["definitions"]["step"]
    assert {k for k in step["properties"] if k not in ("who", "repeat", "name", "base")} == set(STEP_KINDS)
    assert [alt["required"][0] for alt in step["oneOf"]] == list(STEP_KINDS) + ["base"]  # `- base: NAME`
    assert set(schema["definitions"]["test"]["properties"]["expect"]["properties"]) == set(EXPECT_SHAPES)


def test_override_is_allowed_exactly_in_the_entries_that_are_mappings(schema):
    props = schema["properties"]
    for section in ENTRY_SECTIONS:
        entry = props[section]["additionalProperties"]
        has_override = "override" in entry.get("properties", {}) or (
            "$ref" in entry and entry["$ref"] == "#/definitions/variable")
        mapping = entry.get("type") == "object" or "$ref" in entry and entry["$ref"] == "#/definitions/variable"
        assert has_override == mapping, section


@pytest.mark.parametrize("path", sorted((ROOT / "rulepacks").glob("*.pack")), ids=lambda p: p.stem)
def test_every_bundled_pack_is_portable_yaml(validator, path):
    """Read by a standard YAML 1.1 loader (PyYAML's safe_load, as editors' YAML servers do), a
    bundled pack is the same data and passes the schema: no `on:` key read as true."""
    import yaml
    assert not problems(validator, yaml.safe_load(path.read_text(encoding="utf-8")))


def test_the_older_trigger_key_still_reads_with_a_warning_and_a_fix():
    from boardrule.dsl.pack import load_pack_text
    text = ("game: {id: g, players: 1}\nboard: {grid: square 2 x 2}\n"
            "pieces:\n  bell:\n    symbol: B\n    on:\n      placed: score 1 as \"rung\"\n"
            "actions: {put: {params: {c: cells where empty}, effect: place bell at c}}\n"
            "flow: {round: [{turns: [put]}], end: \"none(cells, empty)\"}\n")
    pack = load_pack_text(text)
    assert [(d.code, d.hint) for d in pack.warnings] == [("W019", "write `triggers:`")]
    assert [event for event, _ in pack.model.pieces[0].triggers] == ["placed"]
    assert not load_pack_text(text.replace("    on:", "    triggers:")).warnings


@pytest.mark.parametrize("base", [None, "tinytowns"])
def test_what_boardrule_new_writes_is_portable_yaml(validator, base, tmp_path):
    import yaml

    from boardrule.interpreter.designer.starter import extension_pack, starter_pack
    text = extension_pack("variant", base, tmp_path) if base else starter_pack("mine")
    assert yaml.safe_load(text) == to_plain(load_yaml_text(text))
    assert not problems(validator, yaml.safe_load(text))
