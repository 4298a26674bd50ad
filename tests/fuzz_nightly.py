"""The fuzz strategies of tests/test_fuzz.py with a large budget, for a nightly job.

    python tests/fuzz_nightly.py                       # 20,000 examples per strategy
    python tests/fuzz_nightly.py --examples 2000 --strategy typed_rules --seed 7

Not collected by pytest (no `test_` prefix).  Unlike the fast run it uses the
full strategies (`typed_rules` includes the constructs of the known bugs, the
mutations include every pack) and does not stop at the first escape: it keeps
going, groups escapes by exception type and the innermost engine frame, keeps
the shortest input of each group, and prints them all.  Exit status 1 when
anything escaped, else 0.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
import traceback
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_fuzz  # noqa: E402  (the strategies and the pipeline)

ENGINE_DIRS = ("/dsl/", "/interpreter/", "/cli/", "/api/")


def _name(frame) -> str:
    return f"{Path(frame.filename).parent.name}/{Path(frame.filename).name}:{frame.lineno} in {frame.name}"


def where(exc: BaseException) -> str:
    """The innermost engine frame (any frame, failing that); for a RecursionError, the loop's most
    repeated named engine function, so that one endless recursion counts once, wherever it died."""
    frames = traceback.extract_tb(exc.__traceback__)
    engine = [f for f in frames if any(d in f.filename for d in ENGINE_DIRS)] or frames
    if isinstance(exc, RecursionError):
        named = [f for f in engine if not f.name.startswith("<")] or engine
        counts = collections.Counter(_name(f) for f in named)
        return "the loop through " + max(counts, key=lambda k: (counts[k], k))
    return _name(engine[-1])


def run(name: str, examples: int, rng_seed: int) -> dict:
    strategy = test_fuzz.STRATEGIES[name][1]
    found: dict = {}
    stages: collections.Counter = collections.Counter()

    def probe(text):
        try:
            stages[test_fuzz.exercise(text)] += 1
        except Exception as exc:  # noqa: BLE001 - every escape is what we are looking for
            stages["escaped"] += 1
            key = (type(exc).__name__, where(exc))
            if key not in found or len(text) < len(found[key][1]):
                found[key] = (f"{type(exc).__name__}: {exc}"[:300], text)

    conf = settings(max_examples=examples, deadline=None, database=None, phases=(Phase.explicit, Phase.generate),
                    suppress_health_check=list(HealthCheck))
    start = time.perf_counter()
    seed(rng_seed)(given(strategy)(conf(probe)))()
    print(f"{name}: {examples} examples in {time.perf_counter() - start:.0f} s; "
          + ", ".join(f"{k} {v}" for k, v in stages.most_common()), flush=True)
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=20_000, help="examples per strategy")
    parser.add_argument("--strategy", action="append", choices=sorted(test_fuzz.STRATEGIES),
                        help="run only this strategy (repeatable)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (vary it from night to night)")
    args = parser.parse_args(argv)
    escapes = {}
    for name in args.strategy or list(test_fuzz.STRATEGIES):
        for key, value in run(name, args.examples, args.seed).items():
            escapes.setdefault(key, (name, *value))
    for (kind, place), (name, message, text) in escapes.items():
        print(f"\n=== {kind} at {place} (strategy {name})\n{message}\n--- shortest input ({len(text)} chars):")
        print(text if len(text) < 4000 else text[:4000] + "\n[...]")
    print(f"\n{len(escapes)} distinct escape(s)")
    return 1 if escapes else 0


if __name__ == "__main__":
    sys.exit(main())
