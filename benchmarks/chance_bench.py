"""Chance-outcome benchmark (not a test): CPU milliseconds to enumerate the exact outcomes of a
typical attack of each system (``Ruleset.chance_outcomes``, engine/chance.py).

For each system it plays a bundled scenario with seeded dice until the first action of the
system's attack kinds whose resolution rolls, then times ``chance_outcomes`` on it (the fastest
of ``--repeat`` runs; CPU time of this process). A walk that passes ``--limit`` runs of the
step is reported as such, with the time it took to find out. The strike system has no attack
roll (a strike count decides): its line is the Oracle phase of a two-soldier position.

Run: ``.venv/bin/python benchmarks/chance_bench.py [--repeat 3] [--limit 20000]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.scenarios import load_game
from engine.actions import Action, ActionKind
from engine.chance import ChanceLimitError
from engine.dice import SeededDice
from engine.model import GameState
from engine.protocols import Ruleset
from engine.runner import acting_side, controllers_for, next_action, with_order_memory

ATTACKS = {
    "narrative": ("crossroads-ambush", {"shoot", "move_and_shoot", "move_into_melee"}),
    "skirmish2d6": ("skirmish-cairns", {"charge", "shoot"}),
    "firefight-lite": ("bosworth-street", {"move_and_fire", "aimed_fire", "fire"}),
    "d20": ("d20-basic-battle", {"attack"}),
    "dungeon": ("dungeon-crawl", {"attack"}),
    "strike": ("strike-causeway", {"chance"}),
}


def first_attack(name: str, kinds: set[str]) -> tuple[Ruleset, GameState, Action] | None:
    """The first step of a seeded battle whose action is one of ``kinds`` and rolls."""
    scenario, ruleset, state = load_game(name)
    controllers = controllers_for(scenario)
    dice = SeededDice(1)
    planned: list[Action] = []
    for _ in range(400):
        chosen = next_action(state, ruleset, controllers, dice, planned)
        if chosen is None:
            return None
        action, order = chosen
        before = len(dice.log)
        outcome = ruleset.apply(state, action, dice)
        if str(action.kind) in kinds and len(dice.log) > before:
            return ruleset, state, action
        state = with_order_memory(outcome.state, acting_side(state, action), order)
    return None


def strike_oracle() -> tuple[Ruleset, GameState, Action]:
    """The Oracle phase of one soldier of Initiative 2 against one of Initiative 1."""
    from engine.protocols import find_ruleset
    from engine.scenario import Scenario

    def soldier(uid: str, side: str, y: float, initiative: int) -> dict[str, object]:
        card = {
            "type": "assault",
            "initiative": initiative,
            "speed_in": 6,
            "threat": "far",
            "toughness": 2,
        }
        return {"id": uid, "name": uid, "side": side, "x": 12.0, "y": y, "card": card}

    scenario = Scenario.model_validate(
        {
            "scenario": {"name": "bench", "ruleset": "strike", "ai_controller": "strike-ai"},
            "sides": [
                {"name": "A", "role": "human", "edge": "front"},
                {"name": "B", "role": "ai", "edge": "back"},
            ],
            "table": {"width_in": 24, "depth_in": 24},
            "units": [soldier("a", "A", 4.0, 2), soldier("b", "B", 20.0, 1)],
            "source": "bench",
        }
    )
    ruleset = find_ruleset("strike")
    return ruleset, ruleset.new_game(scenario), Action(ActionKind.CHANCE)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--limit", type=int, default=20_000)
    args = parser.parse_args()
    print(f"{'system':15} {'step':16} {'outcomes':>8} {'ms':>9}")
    for system, (name, kinds) in ATTACKS.items():
        found = strike_oracle() if system == "strike" else first_attack(name, kinds)
        if found is None:
            print(f"{system:15} no rolling attack in the first 400 steps of {name}")
            continue
        ruleset, state, action = found
        best, count = float("inf"), "-"
        for _ in range(args.repeat):
            start = time.process_time()
            try:
                count = str(len(ruleset.chance_outcomes(state, action, limit=args.limit)))
            except ChanceLimitError:
                count = f">{args.limit} runs"
            best = min(best, time.process_time() - start)
        print(f"{system:15} {action.kind!s:16} {count:>8} {best * 1000:9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
