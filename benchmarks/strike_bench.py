"""Strike-system benchmark (not a test): how long one ``strike-ai`` decision takes at 10 and at
100 soldiers a side (issue 15 aims at under 50 ms at 100 a side).

A decision is everything the AI does for one soldier's turn: choosing the soldier (its
search over the candidates) and the order for it, or the order of a soldier continuing its
activation. Both sides are played by ``strike-ai`` on a battle written by
:func:`assistant.tables.strike_battle.battle_toml`; every decision of the game is timed in CPU
time of this process (``time.process_time``, so other jobs on a shared machine count less).

Run: ``.venv/bin/python benchmarks/strike_bench.py [--sizes 10 100] [--seeds 2] [--rounds 4]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.tables.strike_battle import battle_toml
from engine.dice import SeededDice
from engine.protocols import PendingKind
from engine.runner import controllers_for, next_action, start_game
from engine.scenario import parse_scenario

AIM_MS = 50.0


def decision_times(per_side: int, seed: int, rounds: int) -> tuple[list[float], str]:
    """CPU seconds of every AI decision of one battle, and how it ended."""
    scenario = parse_scenario(battle_toml(per_side, rounds=rounds), f"{per_side} a side")
    ruleset, state = start_game(scenario)
    controllers = controllers_for(scenario)
    dice = SeededDice(seed)
    times: list[float] = []
    planned: list = []
    while True:
        kind = ruleset.pending(state).kind
        if kind is PendingKind.OVER:
            break
        start = time.process_time()
        chosen = next_action(state, ruleset, controllers, dice, planned)
        spent = time.process_time() - start
        if chosen is None:
            break
        if kind in (PendingKind.CHOOSE_UNIT, PendingKind.CONTINUE):
            times.append(spent)
        state = ruleset.apply(state, chosen[0], dice).state
    return times, f"{state.winner} after {state.round} rounds"


def main() -> int:
    """Print the median and 95th percentile decision time per army size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    worst = 0.0
    for size in args.sizes:
        times: list[float] = []
        ends = []
        wall = time.perf_counter()
        for seed in range(1, args.seeds + 1):
            found, end = decision_times(size, seed, args.rounds)
            times += found
            ends.append(end)
        wall = time.perf_counter() - wall
        ms = sorted(t * 1000 for t in times)
        median = statistics.median(ms)
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        worst = max(worst, median)
        print(
            f"{size:>3} a side: {len(ms)} decisions, median {median:.1f} ms, 95th percentile "
            f"{p95:.1f} ms, max {ms[-1]:.1f} ms (CPU); {wall:.1f} s wall for {args.seeds} "
            f"battles ({'; '.join(ends)})"
        )
    print(
        f"aim: median under {AIM_MS:g} ms at 100 a side: {'met' if worst < AIM_MS else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
