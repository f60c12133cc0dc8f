"""Dungeon Crawl benchmark (not a test; issue 12): the median AI decision of ``patrol-d8``
(aim: at most 2 ms) and whole Dungeon Crawl games per second on one core (aim: 50 or more),
the heroes played by ``dungeon-heroes``.

A decision is one ``decide`` of the enemies' controller for a figure's turn (a patrol roll,
or the search for an Alerted figure's move and attacks), timed in CPU time of this process
(``time.process_time``, so other jobs on a shared machine count less). Games per second:
whole games (start roll to the end line) played by the runner, CPU time.

Decision times are printed in milliseconds to three digits (a patrol roll takes tens of
microseconds). The script imports only what the issue-25 start commit has too, so
``compare_commits.py --same-script`` can run it there.

Run: ``.venv/bin/python benchmarks/dungeon_bench.py [--games 60] [--scenario dungeon-crawl]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.scenarios import load_game
from engine.dice import SeededDice
from engine.protocols import PendingKind
from engine.runner import controllers_for, find_ruleset, next_action, play_battle, start_game
from engine.scenario import Scenario

AIM_DECISION_MS = 2.0
AIM_GAMES_PER_S = 50.0


def decision_times(scenario: Scenario, seeds: range) -> tuple[list[float], list[float]]:
    """CPU seconds of every enemy and every hero decision over the seeds' games."""
    enemy: list[float] = []
    hero: list[float] = []
    controllers = controllers_for(scenario)
    for seed in seeds:
        ruleset, state = start_game(scenario)
        dice = SeededDice(seed)
        planned: list = []
        while True:
            pending = ruleset.pending(state)
            if pending.kind is PendingKind.OVER:
                break
            start = time.process_time()
            chosen = next_action(state, ruleset, controllers, dice, planned)
            spent = time.process_time() - start
            if chosen is None:
                break
            if chosen[1] is not None and pending.kind in (
                PendingKind.CHOOSE_UNIT,
                PendingKind.CONTINUE,
            ):
                (enemy if pending.side == "Monsters" else hero).append(spent)
            state = ruleset.apply(state, chosen[0], dice).state
    return enemy, hero


def games_per_second(scenario: Scenario, games: int) -> tuple[float, Counter[str], float]:
    """Whole games per CPU second, the winners, and the mean rounds."""
    winners: Counter[str] = Counter()
    rounds = 0
    ruleset = find_ruleset(scenario.scenario.ruleset)
    controllers = controllers_for(scenario)
    start = time.process_time()
    for seed in range(1, games + 1):
        state = ruleset.new_game(scenario)
        record = play_battle(state, ruleset, controllers, SeededDice(seed))
        winners[str(record.final.winner)] += 1
        rounds += record.final.round
    spent = time.process_time() - start
    return games / spent, winners, rounds / games


def summary(label: str, seconds: list[float]) -> str:
    ms = sorted(t * 1000 for t in seconds)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return (
        f"{label}: {len(ms)} decisions, median {statistics.median(ms):.3f} ms, "
        f"95th percentile {p95:.3f} ms, max {ms[-1]:.3f} ms (CPU)"
    )


def main() -> int:
    """Print the decision times and the games per second, and whether the aims were met (a
    speed aim is reported, never a failure: a loaded machine measures slower)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--scenario", default="dungeon-crawl")
    args = parser.parse_args()
    # The file is read once: every game starts afresh from the one scenario object, and the
    # games of a scenario share the answers about its terrain (issue 25).
    scenario, _, _ = load_game(args.scenario)
    enemy, hero = decision_times(scenario, range(1, 11))
    print(summary("patrol-d8 (enemies)", enemy))
    print(summary("dungeon-heroes (heroes)", hero))
    rate, winners, mean_rounds = games_per_second(scenario, args.games)
    wins = ", ".join(f"{w} {n}" for w, n in winners.most_common())
    print(
        f"{args.scenario}: {args.games} whole games, {rate:.1f} games/s on one core (CPU); "
        f"mean {mean_rounds:.1f} rounds; winners: {wins}"
    )
    median_ms = statistics.median(enemy) * 1000
    ok = median_ms <= AIM_DECISION_MS and rate >= AIM_GAMES_PER_S
    print(
        f"aims: decision median <= {AIM_DECISION_MS:g} ms ({median_ms:.3f}), "
        f">= {AIM_GAMES_PER_S:g} games/s ({rate:.1f}): {'met' if ok else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
