"""The golden guard (issue 25): ``soloscope simulate S --seed N --json`` for every bundled
scenario and seeds 1-20 (240 battles) must match ``tests/golden/simulate/`` byte for byte.

Run: ``.venv/bin/python benchmarks/golden_simulate.py [--check | --record] [--scenario S]
[--seeds 1-20]`` (``make golden``; ``--check`` is the default, so ``make bench`` checks too).
``--check`` prints one line per changed battle with the first differing line and exits 1;
``--record`` rewrites the golden files, only for a deliberate change of a game, said in the
commit message with the lines that changed and why.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.golden.simulate_guard import (
    SEEDS,
    check,
    fingerprint,
    load,
    record,
    scenario_names,
    simulate,
)


def _seeds(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare with the golden files")
    mode.add_argument("--record", action="store_true", help="rewrite the golden files")
    parser.add_argument("--scenario", action="append", help="only this scenario (repeatable)")
    parser.add_argument("--seeds", type=_seeds, default=SEEDS, help="a seed or range, e.g. 1-20")
    args = parser.parse_args()
    names = args.scenario or scenario_names()
    t0 = time.process_time()
    if args.record:
        if args.scenario or args.seeds != SEEDS:
            parser.error("--record rewrites every battle; give no --scenario or --seeds")
        battles = [fingerprint(s, n, simulate(s, n)) for s in names for n in SEEDS]
        record(battles)
        print(f"recorded {len(battles)} battles in {time.process_time() - t0:.0f} s CPU")
        return 0
    golden = load()
    changed = 0
    runs = 0
    for name in names:
        for seed in args.seeds:
            want = golden.get(f"{name}/{seed}")
            if want is None:
                print(f"{name} seed {seed} has no golden record")
                changed += 1
                continue
            runs += 1
            problem = check(want)
            if problem:
                print(problem)
                changed += 1
    cpu = time.process_time() - t0
    print(f"golden simulate: {runs - changed} of {runs} battles identical ({cpu:.0f} s CPU)")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
