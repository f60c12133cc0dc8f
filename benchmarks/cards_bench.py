"""Card AI benchmark (not a test): milliseconds per ``cards`` decision and games per second.

Plays the bundled firefight-lite scenario with the card AI on every side (the NPC, the
player's side and the neutral figures), for a range of seeds, on one core, and reports:

* the median and 95th-percentile CPU time of one ``decide`` / ``react`` of the card AI;
* whole games per second (CPU time of this process; wall clock beside it).

The fastest of ``--repeat`` runs is reported, since noise on a shared machine only adds time.

Run: ``.venv/bin/python benchmarks/cards_bench.py [--scenario bosworth-street] [--seeds 40]``.
Aims (issue 14): AI decision median at most 2 ms; at least 50 games per second.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.actions import Order
from engine.controllers.cards import CardsAI
from engine.dice import RandomSource, SeededDice
from engine.model import GameState
from engine.protocols import Pending, Ruleset, find_ruleset
from engine.runner import play_battle
from engine.scenario import Scenario, parse_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "assistant" / "data" / "scenarios"


class TimedCards(CardsAI):
    """The card AI, timing each decision (CPU seconds)."""

    def __init__(self, times: list[float]) -> None:
        self.times = times

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        start = time.process_time()
        try:
            return super().decide(state, ruleset, unit_id, dice)
        finally:
            self.times.append(time.process_time() - start)

    def react(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> Order | None:
        start = time.process_time()
        try:
            return super().react(state, ruleset, pending, dice)
        finally:
            self.times.append(time.process_time() - start)


def run(scenario: Scenario, seeds: int) -> tuple[list[float], float, float]:
    """Decision times, CPU seconds and wall seconds for ``seeds`` games of one scenario object
    (its games share the answers about its terrain, issue 25)."""
    ruleset = find_ruleset(scenario.scenario.ruleset)
    times: list[float] = []
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for seed in range(1, seeds + 1):
        state = ruleset.new_game(scenario)
        ai = TimedCards(times)
        play_battle(state, ruleset, {s.name: ai for s in scenario.sides}, SeededDice(seed))
    return times, time.process_time() - cpu0, time.perf_counter() - wall0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="bosworth-street")
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    path = SCENARIOS / f"{args.scenario}.toml"
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)  # read once
    best: tuple[list[float], float, float] | None = None
    for _ in range(args.repeat):
        result = run(scenario, args.seeds)
        if best is None or result[1] < best[1]:
            best = result
    assert best is not None
    times, cpu, wall = best
    ordered = sorted(times)
    median = statistics.median(ordered) * 1000
    p95 = ordered[int(0.95 * (len(ordered) - 1))] * 1000
    print(f"scenario {args.scenario}, {args.seeds} games, {len(times)} card AI decisions")
    print(f"decision: median {median:.3f} ms, 95th percentile {p95:.3f} ms (aim: median <= 2 ms)")
    print(
        f"games per second: {args.seeds / cpu:.1f} (CPU time, one core), "
        f"{args.seeds / wall:.1f} wall clock (aim: >= 50)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
