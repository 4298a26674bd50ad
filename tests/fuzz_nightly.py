"""The fuzz strategies of tests/test_fuzz.py with a large budget, for a nightly job.

    python tests/fuzz_nightly.py                       # 20,000 examples per strategy, 1,000 damaged saves
    python tests/fuzz_nightly.py --examples 2000 --strategy typed_rules --seed 7 --saves 0
    python tests/fuzz_nightly.py --examples 10000 --strategy mutated_packs --saves 1000   # the safety campaign

Not collected by pytest (no `test_` prefix).  Unlike the fast run it uses the
full strategies (`typed_rules` also generates the constructs of the known bugs,
the mutations include every pack), tolerates nothing, and does not stop at the
first escape: it keeps going, groups escapes by `test_fuzz.signature` (the
exception type and the engine function it came from), keeps the shortest input
of each group, and prints them all, saying which are known bugs (those with a
strict xfail in `test_fuzz.KNOWN_ESCAPES`).  Exit status 1 when a new escape
was found, else 0.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_fuzz  # noqa: E402  (the strategies and the pipeline)


def run(name: str, examples: int, rng_seed: int) -> dict:
    """Escapes of one strategy: signature -> (known?, message, shortest input)."""
    strategy = test_fuzz.STRATEGIES[name][1]
    found: dict = {}
    stages: collections.Counter = collections.Counter()

    def probe(text):
        try:
            stages[test_fuzz.exercise(text)] += 1
        except Exception as exc:  # noqa: BLE001 - every escape is what we are looking for
            stages["escaped"] += 1
            key = test_fuzz.signature(exc)
            if key not in found or len(text) < len(found[key][2]):
                found[key] = (test_fuzz.is_known(exc), f"{type(exc).__name__}: {exc}"[:300], text)

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
    parser.add_argument("--saves", type=int, default=1_000, help="damaged saves through replay and resume "
                        "(tests/savefuzz.py; 0 to skip)")
    args = parser.parse_args(argv)
    bad_saves = 0
    if args.saves:
        from savefuzz import campaign
        start = time.perf_counter()
        figures = campaign(args.saves, args.seed)
        print(f"saves: {args.saves} in {time.perf_counter() - start:.0f} s; "
              + ", ".join(f"{k} {v}" for k, v in figures.items()), flush=True)
        bad_saves = figures["internal errors"] + figures["past the time limit"] + figures["accepted but not honoured"]
    escapes = {}
    for name in args.strategy or list(test_fuzz.STRATEGIES):
        for key, value in run(name, args.examples, args.seed).items():
            if key not in escapes or len(value[2]) < len(escapes[key][3]):
                escapes[key] = (name, *value)
    new = 0
    for (kind, where), (name, known, message, text) in sorted(escapes.items(), key=lambda kv: kv[1][1]):
        new += not known
        label = "known bug" if known else "NEW"
        print(f"\n=== {label}: {kind} in {where} (strategy {name})\n{message}\n"
              f"--- shortest input ({len(text)} chars):")
        print(text if len(text) < 4000 else text[:4000] + "\n[...]")
    print(f"\n{len(escapes)} distinct escape(s), {new} new; {bad_saves} damaged save(s) mishandled")
    return 1 if new or bad_saves else 0


if __name__ == "__main__":
    sys.exit(main())
