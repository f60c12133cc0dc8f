"""A live game of a bundled scenario for the session and page tests, with auto dice; with
``planned``, the player's declarations are those of ``simulate`` with the same seed."""

from __future__ import annotations

from assistant.scenarios import load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame
from engine.protocols import find_controller
from engine.runner import BattleRecord
from tests.session.virtual_table import simulated_plan


def live_game(
    name: str, seed: int, said: list[str] | None = None, *, planned: bool = False
) -> tuple[LiveGame, BattleRecord | None]:
    """The game (what it says goes to ``said``), and the simulated battle when ``planned``."""
    scenario, ruleset, state = load_game(name)
    plan, record = simulated_plan(name, seed) if planned else ((), None)
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=AutoDice(seed),
        say=(said.append if said is not None else lambda _text: None),
        initial=state,
        human_plan=plan,
    )
    return game, record
