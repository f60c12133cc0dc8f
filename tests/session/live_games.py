"""A live game of a bundled scenario for the session and page tests, with auto dice; with
``planned``, the player's declarations are those of ``simulate`` with the same seed."""

from __future__ import annotations

from assistant.scenarios import load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame
from engine.actions import ActionKind
from engine.dice import SeededDice
from engine.model import Role
from engine.protocols import find_controller
from engine.runner import BattleRecord, controllers_for, play_battle


def live_game(
    name: str, seed: int, said: list[str] | None = None, *, planned: bool = False
) -> tuple[LiveGame, BattleRecord | None]:
    """The game (what it says goes to ``said``), and the simulated battle when ``planned``."""
    scenario, ruleset, state = load_game(name)
    record = None
    plan: tuple = ()
    if planned:
        record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(seed))
        human = state.side_of_role(Role.HUMAN)
        assert human is not None
        plan = tuple(
            a
            for a in record.actions
            if (a.unit_id and state.unit(a.unit_id).side == human.name)
            or (a.kind in (ActionKind.PASS, ActionKind.CHOOSE) and a.side == human.name)
        )
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
