"""The live session reaches a ruleset's table side only through the adapter registry: a
ruleset under a made-up name plays a whole battle at the virtual table with a throwaway adapter
registered for that name (its words are the ones said and shown), and cannot start without one."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import ClassVar

import pytest

from assistant import tables
from assistant.scenarios import load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame, Stage
from assistant.session.view import build_view
from assistant.tables import UnknownAdapterError, register_adapter
from assistant.tables.base import CardValue, Turn, UnitCard
from assistant.tables.narrative import NarrativeAdapter
from engine.actions import Action, EventType, Order
from engine.dice import RandomSource, SeededDice
from engine.model import GameState, Role, Unit
from engine.protocols import Outcome, find_controller
from engine.rulesets.narrative.ruleset import NarrativeRuleset
from engine.runner import controllers_for, play_battle
from tests.session.virtual_table import VirtualTable

FAKE = "fake-skirmish-for-tests"


class FakeRuleset(NarrativeRuleset):
    """The narrative rules under another name (nothing is registered for it but the test's
    adapter)."""

    name = FAKE


class FakeAdapter(NarrativeAdapter):
    """A throwaway adapter: its own words for orders and turns, and its own card values."""

    name = FAKE
    calls: ClassVar[list[str]] = []

    def order_instruction(self, state: GameState, order: Order) -> str:
        FakeAdapter.calls.append("order")
        return f"[fake] {state.unit(order.action.unit_id or '').name} does as told."

    def turn_prompt(self, state: GameState, turn: Turn) -> str:
        FakeAdapter.calls.append("turn")
        return "[fake] Your move."

    def unit_card(self, state: GameState, unit: Unit) -> UnitCard:
        card = super().unit_card(state, unit)
        return replace(card, statuses=("shaken",), values=(CardValue("fake dice", "3"),))


@pytest.fixture
def registered() -> Iterator[None]:
    register_adapter(FAKE, FakeAdapter)
    FakeAdapter.calls.clear()
    yield
    tables._ADAPTERS.pop(FAKE, None)


def _game(seed: int = 3) -> tuple[LiveGame, list[str], object]:
    scenario, _, state = load_game("crossroads-ambush")
    ruleset = FakeRuleset()
    record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(seed))
    human = state.side_of_role(Role.HUMAN)
    assert human is not None
    plan = tuple(
        a
        for a in record.actions
        if (a.unit_id and state.unit(a.unit_id).side == human.name) or a.side == human.name
    )
    said: list[str] = []
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=AutoDice(seed),
        say=said.append,
        initial=state,
        human_plan=plan,
    )
    return game, said, record


def test_the_session_speaks_and_shows_through_the_registered_adapter(registered: None) -> None:
    game, said, record = _game()
    assert isinstance(game.adapter, FakeAdapter)
    table = VirtualTable(game)
    table.play()
    assert game.state.winner == record.final.winner  # type: ignore[attr-defined]
    orders = [s for s in said if s.startswith("[fake] ") and "does as told" in s]
    assert orders and all(s.endswith(".") and " Why: " in s for s in orders)
    assert "[fake] Your move." in said
    assert {"order", "turn"} <= set(FakeAdapter.calls)
    view = build_view(game)
    assert all(u.statuses == ("shaken",) for u in view.units if u.status == "active")
    assert view.units[0].resources[0].label == "fake dice"
    assert view.units[0].resources[0].value == "3"


def test_a_ruleset_without_an_adapter_cannot_start_a_session() -> None:
    with pytest.raises(UnknownAdapterError, match=f"'{FAKE}' has no table adapter"):
        _game()


class QuietFalls(FakeRuleset):
    """The same rules with the falls and flights logged under a plain status event: the session
    must see from the state, not from narrative event names, which models leave the table."""

    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        outcome = super().apply(state, action, dice)
        plain = tuple(
            replace(e, type=EventType.STATUS)
            if e.type in (EventType.FALL, EventType.LEFT_TABLE)
            else e
            for e in outcome.events
        )
        return replace(outcome, events=plain)


def test_models_leaving_the_table_are_asked_off_whatever_the_events(registered: None) -> None:
    game, said, record = _game()
    game.ruleset = QuietFalls()
    removal_stages = 0
    table = VirtualTable(game)
    for _ in range(3000):
        if game.stage is Stage.OVER:
            break
        removal_stages += game.stage is Stage.REMOVAL
        table.step()
    assert game.state.winner == record.final.winner  # type: ignore[attr-defined]
    assert removal_stages > 0
    assert not [s for s in said if "but its model is on the table" in s]
