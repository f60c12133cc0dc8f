"""2D6 skirmish benchmark (not a test): whole games per second on one core.

Plays the bundled skirmish scenario (skirmish-ai on both sides, as ``soloscope simulate``
does, no output) for a range of seeds and reports games per second and the median time of
one ``decide`` call. Times are CPU time of this process (``time.process_time``), so other jobs
on a shared machine count less; the wall-clock rate is printed beside it. The fastest of
``--repeat`` runs is reported, since noise only ever adds time.

Run: ``.venv/bin/python benchmarks/skirmish_bench.py [--scenario skirmish-cairns] [--seeds 40]``.
Aim (issue 15): at least 50 games per second.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.scenarios import load_game
from engine.dice import SeededDice
from engine.model import GameState
from engine.protocols import Ruleset, find_controller
from engine.runner import controllers_for, play_battle
from engine.scenario import Scenario

AIM_GAMES_PER_S = 50.0


def _run(
    game: tuple[Scenario, Ruleset, GameState], seeds: int
) -> tuple[float, float, list[float], int]:
    """(CPU seconds, wall seconds, decide times in seconds, actions) for one pass from the
    game's start (one scenario object: its games share the answers about its terrain)."""
    scenario, ruleset, initial = game
    times: list[float] = []
    actions = 0
    ai = find_controller("skirmish-ai")
    decide = ai.decide

    def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
        t0 = time.process_time()
        try:
            return decide(*args, **kwargs)
        finally:
            times.append(time.process_time() - t0)

    ai.decide = timed  # type: ignore[method-assign]
    controllers = {side: ai for side in controllers_for(scenario)}
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for seed in range(1, seeds + 1):
        initial.memo.clear()
        record = play_battle(initial, ruleset, controllers, SeededDice(seed))
        actions += len(record.actions)
    return time.process_time() - cpu0, time.perf_counter() - wall0, times, actions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="skirmish-cairns")
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    game = load_game(args.scenario)  # read once
    _run(game, 2)  # warm up (imports, caches of exact odds)
    best = min((_run(game, args.seeds) for _ in range(args.repeat)), key=lambda r: r[0])
    cpu, wall, times, actions = best
    rate = args.seeds / cpu
    print(
        f"skirmish2d6 {args.scenario}: {rate:.1f} games/s on one core (CPU time; "
        f"{args.seeds / wall:.1f} by the wall clock), {actions / args.seeds:.0f} actions a game, "
        f"decide median {statistics.median(times) * 1000:.2f} ms "
        f"(p95 {sorted(times)[int(0.95 * (len(times) - 1))] * 1000:.2f} ms); "
        f"aim >= {AIM_GAMES_PER_S:g} games/s: {'met' if rate >= AIM_GAMES_PER_S else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
