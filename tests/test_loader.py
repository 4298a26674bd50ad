"""Tests for the positioned YAML loader and pack composition (extends)."""

from __future__ import annotations

from boardrule.dsl.exact import Exact

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardrule.dsl import extends, loader, packpath
from boardrule.dsl.diagnostics import BoardruleError, PackError, SourceStore, Span, render
from boardrule.dsl.extends import PackTree, load_pack_tree
from boardrule.dsl.packpath import find_pack
from boardrule.dsl.loader import (
    MapNode,
    ScalarNode,
    SeqNode,
    convert_plain,
    load_yaml_file,
    load_yaml_text,
    to_plain,
)

PACK = """\
name: sample
board:
  width: 8
  height: 8
pieces:
  runner:
    moves: [step, jump]
    place: empty and any(adjacent)
  blocker:
    moves: []
options:
  solo: true
  ratio: 0.5
notes: |
  first line
  second line
"""


def error_of(text: str, **kw) -> PackError:
    with pytest.raises(PackError) as info:
        load_yaml_text(text, "t.pack", **kw)
    return info.value


def where(exc: BoardruleError) -> tuple[str, int, int]:
    d = exc.diagnostics[0]
    return d.code, d.span.line, d.span.col


def char_at(text: str, line: int, col: int) -> str:
    row = text.split("\n")[line - 1]
    return row[col - 1] if col - 1 < len(row) else "\n"


# --- nodes and positions ------------------------------------------------------


def test_node_positions_and_types():
    root = load_yaml_text(PACK, "p.pack")
    assert isinstance(root, MapNode)
    assert root.keys() == ["name", "board", "pieces", "options", "notes"]
    width = root.get("board").get("width")
    assert width.value == 8 and width.raw == "8" and width.style == "plain"
    assert width.span == Span("p.pack", 3, 10, 3, 11)
    assert root.key_node("board").span == Span("p.pack", 2, 1, 2, 6)
    moves = root.get("pieces").get("runner").get("moves")
    assert isinstance(moves, SeqNode)
    assert moves.span == Span("p.pack", 7, 12, 7, 24)
    assert [m.span.col for m in moves] == [13, 19]
    assert root.get("options").get("ratio").value == 0.5


def test_block_collection_span_ends_at_last_child():
    root = load_yaml_text("a:\n  b: 1\n  c: [x]\n\n# trailing\nd: 2\n")
    assert root.get("a").span == Span("<string>", 2, 3, 3, 9)


def test_block_scalar_span_excludes_trailing_blank_lines():
    root = load_yaml_text(PACK)
    assert root.get("notes").span == Span("<string>", 14, 8, 16, 14)


def test_map_api():
    root = load_yaml_text("a: 1\n'b': [x]\n3: three\n")
    assert "a" in root and "b" in root and 3 in root and "3" not in root
    assert root.get("zzz") is None and root.get("zzz", 5) == 5
    assert root.get(["unhashable"]) is None
    assert [k for k in root] == ["a", "b", 3]
    assert [k for k, _ in root.items()] == ["a", "b", 3]
    assert len(root) == 3 and len(root.get("b")) == 1 and root.get("b")[0].value == "x"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12", 12), ("-3", -3), ("+4", 4), ("0", 0), ("012", "012"), ("1.5", Exact(3, 2)),
        ("-.5", -0.5), ("1e3", 1000.0), ("true", True), ("False", False), ("TRUE", True),
        ("null", None), ("~", None), ("", None), ("yes", "yes"), ("no", "no"), ("0x1f", "0x1f"),
        (".inf", ".inf"), ("1_000", "1_000"), ("nan", "nan"),
    ],
)
def test_convert_plain(text, expected):
    value = convert_plain(text)
    assert value == expected and type(value) is type(expected)


def test_quoted_scalars_stay_strings():
    root = load_yaml_text("a: '12'\nb: \"true\"\nc: |\n  7\n")
    assert to_plain(root) == {"a": "12", "b": "true", "c": "7\n"}
    assert [root.get(k).style for k in "abc"] == ["single", "double", "literal"]


def test_to_plain():
    assert to_plain(load_yaml_text(PACK))["pieces"]["runner"] == {
        "moves": ["step", "jump"],
        "place": "empty and any(adjacent)",
    }


def test_crlf_and_bom_positions():
    root = load_yaml_text("\ufeffa: 1\r\nb: xyz\r\n")
    assert root.get("b").span == Span("<string>", 2, 4, 2, 7)
    assert root.get("a").span.col == 4


# --- positions inside scalar text --------------------------------------------


def assert_aligned(text: str, node: ScalarNode, skip: str = "") -> None:
    """Every char of the value maps to the same char in the file."""
    for i, ch in enumerate(node.raw):
        if ch in skip:
            continue
        line, col = node.position_of(i)
        got = char_at(text, line, col)
        assert got == ch or (ch in " \n" and got == "\n"), (i, ch, line, col, got)


STYLES = """\
lit: |
  place: emptyy
    and  more
  last

fold: >-
  folded
  text

  para
plain: first part
  second   part

  third
single: 'it''s
  here'
double: "tab\\there \\u00e9 x\\
  y"
flow: [alpha, "be ta", 'gam ma']
ind: |2
    two extra
   one
"""


@pytest.mark.parametrize("key", ["lit", "fold", "plain", "single"])
def test_position_of_each_style(key):
    root = load_yaml_text(STYLES)
    assert_aligned(STYLES, root.get(key))


def test_position_of_literal_block_exact():
    node = load_yaml_text(STYLES).get("lit")
    offset = node.raw.index("emptyy")
    assert node.position_of(offset) == (2, 10)
    assert node.span_of(offset, offset + 6) == Span("<string>", 2, 10, 2, 16)
    assert node.position_of(node.raw.index("more")) == (3, 10)


def test_position_of_folded_and_plain():
    root = load_yaml_text(STYLES)
    fold = root.get("fold")
    assert fold.raw == "folded text\npara"
    assert fold.position_of(fold.raw.index("text")) == (8, 3)
    assert fold.position_of(fold.raw.index("para")) == (10, 3)
    plain = root.get("plain")
    assert plain.raw == "first part second   part\nthird"
    assert plain.position_of(plain.raw.index("third")) == (14, 3)
    assert plain.span_of(11, 17) == Span("<string>", 12, 3, 12, 9)


def test_position_of_quoted():
    root = load_yaml_text(STYLES)
    single = root.get("single")
    assert single.raw == "it's here"
    assert single.position_of(0) == (15, 10)
    assert single.position_of(single.raw.index("here")) == (16, 3)
    double = root.get("double")
    assert double.raw == "tab\there \u00e9 xy"
    assert double.position_of(0) == (17, 10)
    assert double.position_of(3) == (17, 13)  # the escape maps to its backslash
    assert double.position_of(double.raw.index("\u00e9")) == (17, 20)
    assert double.position_of(double.raw.index("y")) == (18, 3)
    assert_aligned(STYLES, double, skip="\t\u00e9")


def test_position_of_flow_sequence_and_explicit_indent():
    root = load_yaml_text(STYLES)
    beta = root.get("flow")[1]
    assert beta.position_of(3) == (19, 19)
    for item in root.get("flow"):
        assert_aligned(STYLES, item)
    ind = root.get("ind")
    assert ind.raw == "  two extra\n one\n"
    assert_aligned(STYLES, ind)
    assert ind.position_of(2) == (21, 5)


def test_position_of_is_total():
    root = load_yaml_text(STYLES)
    for node in [root.get(k) for k in ("lit", "double", "plain")]:
        for offset in (-5, 0, len(node.raw), len(node.raw) + 10):
            line, col = node.position_of(offset)
            assert line >= 1 and col >= 1
        assert node.span_of(3, 1).end_col == node.span_of(3, 1).col


def test_position_of_synthesized_node():
    node = ScalarNode("abc", Span("f", 4, 7, 4, 10))
    assert node.position_of(2) == (4, 9)


# --- refusals -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "line", "col"),
    [
        ("a: &x 1\nb: 2\n", "E105", 1, 4),
        ("a: 1\nb: [1, *x]\n", "E106", 2, 8),
        ("a: 1\nb: !!python/object:os.system x\n", "E107", 2, 4),
        ("a: !foo x\n", "E107", 1, 4),
        ("a: !!str x\n", "E107", 1, 4),
        ("a: 1\nb:\n  c: 1\n  c: 2\n", "E108", 4, 3),
        ("? [a]\n: 1\n", "E113", 1, 3),
        ("- a\n- b\n", "E111", 1, 1),
        ("just text\n", "E111", 1, 1),
        ("", "E111", 1, 1),
        ("# only a comment\n", "E111", 1, 1),
        ("a: 1\n---\nb: 2\n", "E112", 2, 1),
        ("a: b: c\n", "E101", 1, 5),
        ("a:\n\tb: 1\n", "E101", 2, 1),
        ("a: [1, 2\nb: 3\n", "E101", 2, 2),
        ("a: x\x07y\n", "E101", 1, 5),
    ],
)
def test_refusals(text, code, line, col):
    assert where(error_of(text)) == (code, line, col)


def test_duplicate_key_notes_first():
    exc = error_of("a: 1\nb: 2\na: 3\n")
    d = exc.diagnostics[0]
    assert d.message == "duplicate key `a`"
    assert d.notes == ((Span("t.pack", 1, 1, 1, 2), "first defined here"),)


def test_all_problems_reported_at_once():
    exc = error_of("a: &x 1\nb: !t 2\nb: 3\n")
    assert [d.code for d in exc.diagnostics] == ["E105", "E107", "E108"]


def test_deep_flow_nesting_is_one_error_and_parsing_stops_at_the_limit(yaml_events):
    exc = error_of("a: " + "[" * 10_000 + "]" * 10_000)
    assert len(exc.diagnostics) == 1
    # The root mapping is level 1, so the 64th bracket is one too many.
    assert where(exc) == ("E109", 1, 4 + loader.MAX_DEPTH - 1)
    # stream, document, mapping and key, then one event per bracket up to the one refused (a
    # libyaml that refuses deep nesting itself hands over to PyYAML's parser, which streams)
    assert len(yaml_events) <= 2 * (loader.MAX_DEPTH + 4), f"{len(yaml_events)} events read past the limit"


def test_deep_block_nesting():
    text = "".join("  " * i + f"k{i}:\n" for i in range(100))
    assert where(error_of(text))[0] == "E109"


def test_nesting_at_the_limit_is_fine():
    text = "a: " + "[" * (loader.MAX_DEPTH - 1) + "]" * (loader.MAX_DEPTH - 1)
    assert "a" in load_yaml_text(text)


def test_too_many_nodes(monkeypatch):
    monkeypatch.setattr(loader, "MAX_NODES", 50)
    exc = error_of("a: [" + ", ".join(["1"] * 60) + "]\n")
    assert exc.diagnostics[0].code == "E110"
    assert load_yaml_text("a: [" + ", ".join(["1"] * 40) + "]\n")


def test_huge_file_is_refused_without_reading_it(tmp_path, file_reads):
    path = tmp_path / "huge.pack"
    with open(path, "wb") as fh:
        fh.truncate(50 * 1024 * 1024)  # a sparse file: its size is what counts
    with pytest.raises(PackError) as info:
        load_yaml_file(path, SourceStore())
    assert info.value.diagnostics[0].code == "E102"
    assert "52428800 bytes" in str(info.value)  # rendered
    reads = file_reads[str(path)]
    assert reads["opened"] >= 2, "the test's own open and the loader's went through the counter"
    assert reads["read"] == 0, f"{reads['read']} bytes read from a file refused for its size (rendering included)"


def test_a_pack_file_is_read_once_whole(tmp_path, file_reads):
    path = tmp_path / "small.pack"
    path.write_bytes(b"a: 1\n")
    assert "a" in load_yaml_file(path, SourceStore())
    assert file_reads[str(path)]["read"] == len(b"a: 1\n")


def test_huge_text_is_refused():
    assert error_of("a: " + "x" * (loader.MAX_BYTES + 1)).diagnostics[0].code == "E102"
    assert error_of("a: " + "\u00e9" * (loader.MAX_BYTES // 2 + 1)).diagnostics[0].code == "E102"


def test_bad_utf8_points_at_the_byte(tmp_path):
    path = tmp_path / "bad.pack"
    path.write_bytes(b"a: 1\nb: ok\xff\n")
    sources = SourceStore()
    with pytest.raises(PackError) as info:
        load_yaml_file(path, sources)
    assert where(info.value) == ("E103", 2, 6)
    assert "\u00ff" not in render(info.value.diagnostics[0], sources)


def test_unreadable_file(tmp_path):
    with pytest.raises(PackError) as info:
        load_yaml_file(tmp_path / "missing.pack")
    assert info.value.diagnostics[0].code == "E104"
    with pytest.raises(PackError):
        load_yaml_file(tmp_path)  # a directory


def test_load_yaml_file_registers_source(tmp_path):
    path = tmp_path / "x.pack"
    path.write_text("a: 1\na: 2\n")
    sources = SourceStore(read_disk=False)
    with pytest.raises(PackError) as info:
        load_yaml_file(path, sources)
    assert sources.line(str(path), 2) == "a: 2"
    assert info.value.sources is sources
    assert "   2 | a: 2" in str(info.value)


# --- property tests ---------------------------------------------------------------


def check_only_boardrule_errors(text: str) -> None:
    try:
        root = load_yaml_text(text)
    except BoardruleError:
        return
    assert isinstance(root, MapNode)
    to_plain(root)
    for node in root.values():
        if isinstance(node, ScalarNode):
            node.position_of(len(node.raw) // 2)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_raises_only_boardrule_errors(text):
    check_only_boardrule_errors(text)


SYNTAX_BITS = list(":-[]{}&*!|>'\"#?,\t\n ") + ["  ", "---", "%", "\\"]


@st.composite
def mutated_pack(draw):
    text = PACK + STYLES.replace("lit:", "lit2:")
    for _ in range(draw(st.integers(1, 6))):
        pos = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        chunk = draw(st.sampled_from(SYNTAX_BITS) | st.text(max_size=3))
        if op == "insert":
            text = text[:pos] + chunk + text[pos:]
        elif op == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 5)) :]
        else:
            text = text[:pos] + chunk + text[pos + len(chunk) :]
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_pack())
def test_mutated_pack_raises_only_boardrule_errors(text):
    check_only_boardrule_errors(text)


# --- extends ----------------------------------------------------------------------


BASE = """\
name: base
pieces:
  runner: {moves: 1}
  blocker: {moves: 2}
options:
  solo: true
  fast: false
order: [a, b]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_pack_without_extends(tmp_path):
    path = write(tmp_path, "solo.pack", BASE)
    tree = load_pack_tree(path)
    assert isinstance(tree, PackTree)
    assert tree.files == (str(path),) and tree.overridden == ()
    assert to_plain(tree.root) == to_plain(load_yaml_text(BASE))


def test_extends_add_override_replace_and_remove(tmp_path):
    write(tmp_path, "base.pack", BASE)
    child = write(
        tmp_path,
        "sub/child.pack",
        "extends: ../base.pack\nremove: [pieces.blocker, options]\nname: child\n"
        "pieces:\n  runner: {jumps: 3}\n  flyer: {moves: 4}\norder: [c]\nextra: 1\n",
    )
    tree = load_pack_tree(child, extends_from=(tmp_path,))  # the base lies outside the child's folder
    assert to_plain(tree.root) == {
        "name": "child",
        "pieces": {"runner": {"moves": 1, "jumps": 3}, "flyer": {"moves": 4}},  # runner keeps its moves
        "order": ["c"],
        "extra": 1,
    }
    assert tree.files == (str(tmp_path / "sub/../base.pack"), str(child))
    pairs = [(c.value, c.span.file, b.span.file) for c, b in tree.overridden]
    assert ("runner", str(child), str(tmp_path / "sub/../base.pack")) in pairs
    assert {c.value for c, _ in tree.overridden} == {"name", "runner", "order"}


def test_extends_nodes_keep_their_file(tmp_path):
    base = write(tmp_path, "base.pack", BASE)
    child = write(tmp_path, "child.pack", "extends: base.pack\npieces:\n  flyer: 1\n")
    tree = load_pack_tree(child)
    pieces = tree.root.get("pieces")
    assert pieces.get("runner").span.file == str(base.parent / "base.pack")
    assert pieces.get("flyer").span == Span(str(child), 3, 10, 3, 11)
    assert "extends" not in tree.root and "remove" not in tree.root


def test_extends_three_levels(tmp_path):
    write(tmp_path, "a.pack", "x: 1\ns: {p: 1}\n")
    write(tmp_path, "b.pack", "extends: a.pack\ns: {q: 2}\n")
    c = write(tmp_path, "c.pack", "extends: b.pack\nremove: [s.p]\ns: {r: 3}\n")
    tree = load_pack_tree(c)
    assert to_plain(tree.root) == {"x": 1, "s": {"q": 2, "r": 3}}
    assert [Path(f).name for f in tree.files] == ["a.pack", "b.pack", "c.pack"]


def test_remove_unknown_path_with_did_you_mean(tmp_path):
    write(tmp_path, "base.pack", BASE)
    child = write(tmp_path, "child.pack", "extends: base.pack\nremove: [pieces.runer, optoins]\n")
    with pytest.raises(PackError) as info:
        load_pack_tree(child)
    first, second = info.value.diagnostics
    assert (first.code, first.span.line, first.span.col, first.span.end_col) == ("E126", 2, 17, 22)
    assert first.hint == "did you mean `runner`?"
    assert (second.span.col, second.hint) == (24, "did you mean `options`?")


@pytest.mark.parametrize(
    "remove", ["remove: pieces.runner", "remove: [1]", "remove: [a.b.c.d]", "remove: [pieces.]"]
)
def test_bad_remove_values(tmp_path, remove):
    write(tmp_path, "base.pack", BASE)
    child = write(tmp_path, "child.pack", f"extends: base.pack\n{remove}\n")
    with pytest.raises(PackError) as info:
        load_pack_tree(child)
    assert info.value.diagnostics[0].code == "E125"


def test_remove_without_extends(tmp_path):
    path = write(tmp_path, "x.pack", "a: 1\nremove: [a]\n")
    with pytest.raises(PackError) as info:
        load_pack_tree(path)
    assert where(info.value) == ("E127", 2, 1)


@pytest.mark.parametrize("bad", ["extends:", "extends: 3", "extends: [a]", "extends: ''"])
def test_bad_extends_value(tmp_path, bad):
    path = write(tmp_path, "x.pack", f"a: 1\n{bad}\n")
    with pytest.raises(PackError) as info:
        load_pack_tree(path)
    assert info.value.diagnostics[0].code == "E124"


def test_extends_cycle(tmp_path):
    write(tmp_path, "a.pack", "extends: b.pack\n")
    write(tmp_path, "b.pack", "extends: a.pack\n")
    with pytest.raises(PackError) as info:
        load_pack_tree(tmp_path / "a.pack")
    d = info.value.diagnostics[0]
    assert d.code == "E122" and d.message == "extends cycle: a.pack -> b.pack -> a.pack"
    assert d.span == Span(str(tmp_path / "b.pack"), 1, 10, 1, 16)


def test_extends_self(tmp_path):
    path = write(tmp_path, "me.pack", "a: 1\nextends: ./me.pack\n")
    with pytest.raises(PackError) as info:
        load_pack_tree(path)
    assert info.value.diagnostics[0].message == "extends cycle: me.pack -> me.pack"


def test_extends_chain_too_deep(tmp_path):
    for i in range(30):
        write(tmp_path, f"p{i}.pack", f"extends: p{i + 1}.pack\nv{i}: 1\n")
    write(tmp_path, "p30.pack", "end: 1\n")
    with pytest.raises(PackError) as info:
        load_pack_tree(tmp_path / "p0.pack")
    assert info.value.diagnostics[0].code == "E123"
    tree = load_pack_tree(tmp_path / f"p{30 - extends.MAX_EXTENDS_DEPTH}.pack")
    assert len(tree.files) == extends.MAX_EXTENDS_DEPTH + 1


def test_missing_base_file(tmp_path):
    write(tmp_path, "base.pack", BASE)
    child = write(tmp_path, "child.pack", "a: 1\nextends: ./bsae.pack\n")
    sources = SourceStore()
    with pytest.raises(PackError) as info:
        load_pack_tree(child, sources)
    d = info.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.col) == ("E121", 2, 10)
    assert d.hint == "did you mean `base.pack`?"
    assert info.value.sources is sources


def test_error_in_base_points_into_base(tmp_path):
    base = write(tmp_path, "base.pack", "a: 1\na: 2\n")
    child = write(tmp_path, "child.pack", "extends: base.pack\n")
    with pytest.raises(PackError) as info:
        load_pack_tree(child)
    assert info.value.diagnostics[0].span.file == str(base)


@pytest.fixture
def bundled(tmp_path, monkeypatch):
    folder = tmp_path / "bundled"
    write(folder, "standard.pack", BASE)
    write(folder, "variant.pack", "extends: standard\nname: variant\n")
    monkeypatch.setattr(packpath, "bundled_dir", lambda: folder)
    return folder


def test_bundled_names(bundled):
    assert packpath.bundled_pack_names() == ["standard", "variant"]
    assert find_pack("standard").path == bundled / "standard.pack"
    tree = load_pack_tree("variant")
    assert tree.root.get("name").value == "variant"
    assert tree.root.get("order").span.file == str(bundled / "standard.pack")


def test_unknown_bundled_name_did_you_mean(bundled):
    with pytest.raises(PackError) as info:
        find_pack("standrd")
    d = info.value.diagnostics[0]
    assert d.code == "E120"
    assert d.message == "unknown pack `standrd` (bundled packs: standard, variant)"
    assert d.hint == "did you mean `standard`?"


def test_child_may_extend_bundled_pack(bundled, tmp_path):
    child = write(tmp_path, "mine.pack", "extends: standard\noptions: {solo: false}\n")
    assert to_plain(load_pack_tree(child).root)["options"] == {"solo": False, "fast": False}


def test_real_bundled_dir_is_a_folder():
    assert extends.bundled_dir().is_dir()
    assert all(isinstance(n, str) for n in extends.bundled_pack_names())


def test_an_entry_changes_the_fields_it_names_and_keeps_the_rest(tmp_path):
    write(tmp_path, "base.pack", "pieces:\n  runner: {moves: 1, jumps: 2, symbol: R}\n"
                                 "board:\n  grid: square 4 x 4\n  regions: {centre: B2 C2, edge: A1}\n")
    child = write(tmp_path, "child.pack", "extends: base.pack\npieces:\n  runner: {jumps: 5, override: true}\n"
                                          "board:\n  regions: {centre: B2}\n")
    root = to_plain(load_pack_tree(child).root)
    assert root["pieces"]["runner"] == {"moves": 1, "jumps": 5, "symbol": "R"}
    assert root["board"] == {"grid": "square 4 x 4", "regions": {"centre": "B2", "edge": "A1"}}  # by key


def test_replace_true_takes_nothing_of_the_base_entry(tmp_path):
    write(tmp_path, "base.pack", "pieces:\n  runner: {moves: 1, jumps: 2, symbol: R}\n")
    child = write(tmp_path, "child.pack", "extends: base.pack\npieces:\n  runner: {symbol: Q, replace: true}\n")
    tree = load_pack_tree(child)
    assert to_plain(tree.root)["pieces"]["runner"] == {"symbol": "Q"}
    assert [s.marked for s in tree.shadows if s.key.value == "runner"] == [True]  # replace says override too


def test_remove_takes_one_field_of_an_entry_out(tmp_path):
    write(tmp_path, "base.pack", "decks:\n  pile: {a: 1, b: 2}\nboard:\n  grid: square 4 x 4\n  mask: \"####\"\n")
    child = write(tmp_path, "child.pack", "extends: base.pack\nremove: [decks.pile.b, board.mask]\n")
    root = to_plain(load_pack_tree(child).root)
    assert root["decks"] == {"pile": {"a": 1}} and root["board"] == {"grid": "square 4 x 4"}
    typo = write(tmp_path, "typo.pack", "extends: base.pack\nremove: [decks.pile.c]\n")
    with pytest.raises(PackError) as caught:
        load_pack_tree(typo)
    d = caught.value.diagnostics[0]
    assert (d.code, d.message) == ("E126", "cannot remove `decks.pile.c`: `decks.pile` of the base has no field `c`")


@pytest.mark.parametrize("path", sorted(extends.bundled_dir().glob("*.pack")), ids=lambda p: p.stem)
def test_every_bundled_pack_loads_the_same_without_libyaml(path):
    """PyYAML's pure-Python parser is the fallback where libyaml is missing: the same tree."""
    import yaml
    text = path.read_text(encoding="utf-8")
    with_c = to_plain(loader._Builder(text, str(path), None).build(getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
    pure = to_plain(loader._Builder(text, str(path), None).build(yaml.SafeLoader))
    assert pure == with_c
