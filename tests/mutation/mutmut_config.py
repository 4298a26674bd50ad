"""Mutation testing of the checker, the scoring and the flow (mutmut 2), and its test selections.

mutmut edits each module in place, one mutant at a time, and runs the tests; a
mutant the tests still pass "survived".  From the root of a checkout whose
package is installed editable (commit or stash first: the files are restored
after each mutant, but an interrupted run can leave one behind), on one core:

    pip install 'mutmut==2.5.1'
    PYTHONPATH=tests/mutation nice -n 10 mutmut run --no-progress --simple-output \\
        --paths-to-mutate dsl/checker.py,interpreter/runtime/scoring.py,interpreter/runtime/flow.py \\
        --runner "python tests/mutation/mutmut_config.py checker"
    mutmut results                # the surviving mutants' ids; `mutmut show ID` prints one

mutmut imports this file as `mutmut_config` (hence PYTHONPATH): `pre_mutation`
gives each module's mutants the tests that exercise it (`SELECTIONS`, a few
seconds each; the full suite would take hours), and samples: one mutant in
`SAMPLE[file]` is run (a fixed choice, from a CRC of the mutated line and the
mutant's index on it, so the same mutants are drawn on every machine and when
other lines change), the others are reported as skipped.
BOARDRULE_MUTATION_SAMPLE=1 runs them all.  `--runner` is the baseline run
that mutmut times (a mutant taking ten times as long counts as a timeout).

Run as a script, `python tests/mutation/mutmut_config.py checker|scoring|flow`
runs one selection and exits 1 on any failure, collection errors included:
`pytest` exits 2 for those, which mutmut 2 would count as a surviving mutant.
`python tests/mutation/mutmut_config.py recheck ID...` makes each mutant of
.mutmut-cache again (mutmut's own mutation), runs its module's selection and
restores the file: mutmut 2 misrecords some mutants of a line whose text
occurs twice in a file (untested, or survived when the tests kill it).
"""

from __future__ import annotations

import os
import sys
import zlib

SELECTIONS = {
    "checker": ["tests/test_checker_diagnostics.py",
                "tests/test_golden_diagnostics.py", "tests/test_diagnostics.py", "tests/test_diagnostic_codes.py",
                "tests/test_language_packs.py", "tests/test_extends_packs.py", "tests/test_lints.py",
                "tests/test_tinytowns_pack.py", "tests/test_townies_pack.py", "tests/test_villagers_pack.py"],
    "scoring": ["tests/test_score_sheets.py",
                "tests/test_language_packs.py", "tests/test_playthroughs.py", "tests/test_tinytowns_pack.py",
                "tests/test_townies_pack.py", "tests/test_villagers_pack.py"],
    "flow": ["tests/test_flow_rules.py",
             "tests/test_moves.py", "tests/test_playthroughs.py", "tests/test_state_sharing.py", "tests/test_decks.py",
             "tests/test_positions.py", "tests/test_per_game.py", "tests/test_views.py",
             "tests/test_language_packs.py", "tests/test_playouts.py", "tests/test_safety.py"],
}
MODULES = {"dsl/checker.py": "checker", "interpreter/runtime/scoring.py": "scoring", "interpreter/runtime/flow.py": "flow"}
#: file -> run one mutant in this many (1: all)
SAMPLE = {"dsl/checker.py": 2, "interpreter/runtime/scoring.py": 1, "interpreter/runtime/flow.py": 1}
HERE = os.path.relpath(__file__)


def sampled(filename: str, line: str, index: int) -> bool:
    """Whether the `index`-th mutant of `line` in `filename` is in the sample."""
    every = int(os.environ.get("BOARDRULE_MUTATION_SAMPLE", "0")) or SAMPLE.get(filename, 1)
    return zlib.crc32(f"{filename}\0{line.strip()}\0{index}".encode()) % every == 0


def pre_mutation(context):
    filename = os.path.relpath(context.filename)
    if not sampled(filename, context.mutation_id.line, context.mutation_id.index):
        context.skip = True
        return
    context.config.test_command = f"{sys.executable} {HERE} {MODULES.get(filename, 'checker')}"


def recheck(ids) -> int:
    import shutil
    import sqlite3
    import subprocess

    from mutmut import Context, RelativeMutationID, mutate

    cache = sqlite3.connect(".mutmut-cache")
    for mutant in map(int, ids):
        filename, line, line_number, index = cache.execute(
            'select s.filename, l.line, l.line_number, m."index" from Mutant m join Line l on m.line = l.id '
            "join SourceFile s on l.sourcefile = s.id where m.id = ?", (mutant,)).fetchone()
        with open(filename) as fh:
            source = fh.read()
        mutated, _ = mutate(Context(source=source, mutation_id=RelativeMutationID(line, index, line_number),
                                    filename=filename, dict_synonyms=[]))
        shutil.copy(filename, filename + ".orig")
        try:
            with open(filename, "w") as fh:
                fh.write(mutated)
            code = subprocess.run([sys.executable, HERE, MODULES[filename]], capture_output=True).returncode
        finally:
            shutil.move(filename + ".orig", filename)
        print(mutant, filename, f"line {line_number + 1}", "killed" if code else "survived", flush=True)
    return 0


def main(argv) -> int:
    if argv[0] == "recheck":
        return recheck(argv[1:])
    import pytest

    code = pytest.main(["-x", "-q", "-p", "no:cacheprovider", *SELECTIONS[argv[0]]])
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
