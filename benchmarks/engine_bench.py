"""Engine benchmark (not a test): simulated battles per second and milliseconds per AI decision.

Plays ``soloscope simulate``'s battle (the scenario's AI against the autopilot, no output) on
one core for a range of seeds, then reports:

* battles per second (whole battles, including the autopilot's planning);
* the median and 95th-percentile time of one ``Controller.decide`` call of the AI side.

Times are CPU time of this process (``time.process_time``), so that other jobs on a shared
machine count less; the wall-clock rate is printed beside it. The fastest of ``--repeat`` runs
is reported (as ``timeit`` does), since noise only ever adds time.

Run: ``.venv/bin/python benchmarks/engine_bench.py [--scenario ford-at-dawn] [--seeds 50]``.
Aims (issue 2): at least 20 battles per second and at most 5 ms per AI decision.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.scenarios import load_game
from engine.actions import Order
from engine.dice import RandomSource, SeededDice
from engine.model import GameState, Role
from engine.protocols import Controller, ControllerBase, Pending, Ruleset
from engine.rulesets.narrative.tactics import clear_memo
from engine.runner import controllers_for, play_battle
from engine.scenario import Scenario


class _TimedController(ControllerBase):
    """Wraps a controller and records how long each ``decide`` call takes, in seconds."""

    def __init__(self, inner: Controller, times: list[float]) -> None:
        self._inner = inner
        self._times = times
        self.name = inner.name
        self.rulesets = inner.rulesets

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        return self._inner.choose_unit(state, ruleset, pending, dice)

    def react(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> Order | None:
        return self._inner.react(state, ruleset, pending, dice)

    def choose(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str:
        return self._inner.choose(state, ruleset, pending, dice)

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        t0 = time.process_time()
        order = self._inner.decide(state, ruleset, unit_id, dice)
        self._times.append(time.process_time() - t0)
        return order


def run(
    game: tuple[Scenario, Ruleset, GameState], seeds: range, warm: bool = False
) -> tuple[float, float, list[float], int]:
    """Play one battle per seed from the game's start (one scenario object: its games share
    the answers about its terrain, issue 25); returns (CPU s, wall s, AI decide CPU times in
    s, events)."""
    scenario, ruleset, state = game
    ai_side = next(s.name for s in scenario.sides if s.role == Role.AI.value)
    times: list[float] = []
    events = 0
    elapsed = 0.0
    wall = 0.0
    for seed in seeds:
        if not warm:
            clear_memo(state)  # each battle pays for its own searches, as one `simulate` run does
        controllers = dict(controllers_for(scenario))
        controllers[ai_side] = _TimedController(controllers[ai_side], times)  # type: ignore[assignment]
        t0, w0 = time.process_time(), time.perf_counter()
        record = play_battle(state, ruleset, controllers, SeededDice(seed))
        elapsed += time.process_time() - t0
        wall += time.perf_counter() - w0
        events += len(record.events)
    return elapsed, wall, times, events


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="ford-at-dawn")
    parser.add_argument("--seeds", type=int, default=50, help="battles to play (seeds 0..N-1)")
    parser.add_argument(
        "--warm", action="store_true", help="keep remembered path searches between battles"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of all seeds; the fastest is reported"
    )
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the run")
    args = parser.parse_args()
    game = load_game(args.scenario)  # read once
    run(game, range(1000, 1002))  # warm caches and imports
    seeds = range(args.seeds)
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
    runs = [run(game, seeds, args.warm) for _ in range(max(1, args.repeat))]
    elapsed, wall, times, events = min(runs, key=lambda r: r[0])
    if args.profile:
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
    ms = sorted(t * 1000 for t in times)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    print(
        f"scenario {args.scenario}: {len(seeds)} battles, {events} events, {len(ms)} AI decisions"
    )
    print(
        f"battles per second: {len(seeds) / elapsed:.1f} on CPU time ({elapsed:.2f} s), "
        f"{len(seeds) / wall:.1f} on the wall clock ({wall:.2f} s)"
    )
    print(
        f"AI decision: median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, max {ms[-1]:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
