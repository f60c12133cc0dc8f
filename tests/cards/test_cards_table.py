"""firefight-lite at the table through its adapter: orders spoken with their card, the unit
card (last card, deck counts, events), a live game on the virtual table reaching the simulated
outcome, and ``soloscope odds firefight-lite``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame
from assistant.tables import find_adapter
from engine.actions import Action, ActionKind, Order
from engine.controllers.random_player import RandomPlayer
from engine.dice import SeededDice
from engine.model import Role
from engine.protocols import find_controller
from engine.rulesets.firefight_lite.state import FFUnit
from engine.runner import play_battle, start_game
from engine.scenario import parse_scenario
from tests.cards.positions import NPC, PLAYER, position, wall
from tests.session.virtual_table import VirtualTable

SCENARIO = (
    Path(__file__).resolve().parents[2]
    / "assistant"
    / "data"
    / "scenarios"
    / "bosworth-street.toml"
)
RIFLE = {"move": 4, "ranged": 1, "range": 24}


def test_an_order_is_spoken_with_its_card() -> None:
    hedge = [("hedge", "hedge", wall(4, 6.6, 5, 7.2), {"cover": "soft"})]
    state = position([("varlet", NPC, "D6", RIFLE), ("sergeant", PLAYER, "D10", RIFLE)], hedge)
    state = state.with_unit(replace(state.unit("varlet"), name="the Varlet"))
    state = state.with_unit(replace(state.unit("sergeant"), name="the Sergeant"))
    action = Action(
        "move_and_fire",
        "varlet",
        target_id="sergeant",
        detail=(("card", "QH"), ("cell", [4, 5])),
    )
    text = find_adapter("firefight-lite").order_text(state, Order(action, "hearts 1", "cover"))
    assert text == (
        "Queen of hearts for the Varlet at D6: move and fire — it moves to the hedge at E6 "
        "and fires at the Sergeant."
    )


def test_the_unit_card_shows_the_last_card_and_the_side_the_deck_and_the_events() -> None:
    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    _ruleset, state = start_game(scenario)
    varlet = state.unit("varlet-1")
    state = state.with_unit(replace(varlet, rules=replace(varlet.rules, last_card="QH")))
    assert isinstance(varlet.rules, FFUnit)
    state = replace(state, rules=replace(state.rules, events_done=("KS",)))
    adapter = find_adapter("firefight-lite")
    card = adapter.unit_card(state, state.unit("varlet-1"))
    values = {v.label: v.value for v in card.values}
    assert values == {"last card": "Queen of hearts"}
    # The deck and the events are the AI side's: shown once for the side, not on each card.
    ai_side = state.unit("varlet-1").side
    side = {v.label: v.value for v in adapter.side_values(state, ai_side)}
    assert side == {
        "deck": "54 to draw, 0 discarded, 0 set aside",
        "events": "King of spades: sniper",
    }
    deck = state.deck("cards")
    played = state.with_deck(replace(deck, draw_pile=deck.draw_pile[1:]).discarded("7D"))
    assert {v.label: v.value for v in adapter.side_values(played, ai_side)}[
        "last card drawn"
    ] == "7 of diamonds"
    human = next(s.name for s in state.sides if s.name != ai_side and s.role.value == "human")
    assert adapter.side_values(state, human) == ()
    # A figure that has acted is marked as the rules mark it.
    acted = state.with_unit(replace(state.unit("varlet-1"), activated=True))
    assert adapter.unit_card(acted, acted.unit("varlet-1")).statuses == ("Turn Done",)
    assert find_adapter("firefight-lite").unit_card(state, state.unit("monk-1")).status == "off"


class OwnDicePlayer(RandomPlayer):
    """The random player rolling its own dice, so the game's dice are the same whether the
    player is simulated or replayed from its declarations at the table."""

    def __init__(self, seed: int) -> None:
        self.own = SeededDice(seed + 1000)

    def choose_unit(self, state, ruleset, pending, dice):  # type: ignore[no-untyped-def]
        return super().choose_unit(state, ruleset, pending, self.own)

    def decide(self, state, ruleset, unit_id, dice):  # type: ignore[no-untyped-def]
        return super().decide(state, ruleset, unit_id, self.own)

    def react(self, state, ruleset, pending, dice):  # type: ignore[no-untyped-def]
        return super().react(state, ruleset, pending, self.own)

    def choose(self, state, ruleset, pending, dice):  # type: ignore[no-untyped-def]
        return super().choose(state, ruleset, pending, self.own)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_live_game_on_the_virtual_table_reaches_the_simulated_outcome(seed: int) -> None:
    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    ruleset, state = start_game(scenario)
    ai = {s.name: find_controller("cards") for s in scenario.sides}
    ai[PLAYER] = OwnDicePlayer(seed)
    record = play_battle(state, ruleset, ai, SeededDice(seed))
    human = state.side_of_role(Role.HUMAN)
    assert human is not None

    def players(action: Action) -> bool:
        if action.unit_id:
            return state.unit(action.unit_id).side == human.name
        return action.side == human.name and action.kind in (ActionKind.PASS, ActionKind.CHOOSE)

    said: list[str] = []
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller("cards"),
        dice=AutoDice(seed),
        say=said.append,
        initial=state,
        human_plan=tuple(a for a in record.actions if players(a)),
        confirm_hidden=True,
    )
    VirtualTable(game).play(max_steps=6000)
    assert game.state.winner == record.final.winner
    assert game.state.round == record.final.round
    assert [u.status for u in game.state.units] == [u.status for u in record.final.units]
    assert game.state.deck("cards") == record.final.deck("cards")
    assert any(" for " in s and " — " in s for s in said)  # orders spoken with their card


def test_odds_answer_through_the_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["odds", "firefight-lite", "--ranged", "1", "--cover", "soft", "--distance", "4"]) == 0
    )
    out = capsys.readouterr().out.strip()
    assert out == (
        "a shot hits 33.3% (1/3) and wounds 16.7% (1/6); the card AI fires at 4 squares on "
        "76.9% (10/13) of its cards"
    )
    assert main(["odds", "firefight-lite", "--cover", "wall"]) != 0
    assert "none, soft or hard" in capsys.readouterr().err


def test_a_saved_game_resumes_with_the_same_deck(tmp_path: Path) -> None:
    """The event draws, selections and Joker reshuffles the rules made are saved with each
    step, so a resumed game has the same deck and the same events."""
    from assistant.session.store import load_saved, saver

    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    ruleset, state = start_game(scenario)
    ai = {s.name: find_controller("cards") for s in scenario.sides}
    ai[PLAYER] = OwnDicePlayer(4)
    record = play_battle(state, ruleset, ai, SeededDice(4))
    human = state.side_of_role(Role.HUMAN)
    assert human is not None
    plan = tuple(
        a
        for a in record.actions
        if (a.unit_id and state.unit(a.unit_id).side == human.name)
        or (not a.unit_id and a.side == human.name)
    )
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller("cards"),
        dice=AutoDice(4),
        say=lambda text: None,
        initial=state,
        human_plan=plan,
        confirm_hidden=True,
    )
    save_file = tmp_path / "game.json"
    game.on_saved = saver(save_file, "bosworth-street", 4)
    table = VirtualTable(game)
    while game.state.round < 3:
        table.step()
    resumed, _, _ = load_saved(save_file, lambda text: None)
    assert resumed.state.deck("cards") == game.state.deck("cards")
    assert resumed.state == game.state


def test_a_model_on_a_line_between_squares_is_asked_to_be_centred() -> None:
    from assistant.session.observation import PieceSeen

    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    _, state = start_game(scenario)
    adapter = find_adapter("firefight-lite")
    unit = state.unit("varlet-1")
    assert adapter.placement_problem(state, unit, PieceSeen(3.5, 20.52, 0.0)) == ""
    said = adapter.placement_problem(state, unit, PieceSeen(4.02, 20.5, 0.0))
    assert said == "The Varlet stands on a line between squares: centre it in one square."


def test_the_card_ai_plays_a_narrative_scenario_live_to_the_simulated_outcome() -> None:
    path = SCENARIO.with_name("crossroads-cards.toml")
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
    ruleset, state = start_game(scenario)
    ai = {s.name: find_controller("cards") for s in scenario.sides}
    human = state.side_of_role(Role.HUMAN)
    assert human is not None
    ai[human.name] = OwnDicePlayer(2)
    record = play_battle(state, ruleset, ai, SeededDice(2))
    plan = tuple(
        a
        for a in record.actions
        if (a.unit_id and state.unit(a.unit_id).side == human.name)
        or (not a.unit_id and a.side == human.name)
    )
    said: list[str] = []
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller("cards"),
        dice=AutoDice(2),
        say=said.append,
        initial=state,
        human_plan=plan,
        confirm_hidden=True,
    )
    VirtualTable(game).play(max_steps=6000)
    assert game.state.winner == record.final.winner
    assert [u.status for u in game.state.units] == [u.status for u in record.final.units]
    # The card AI's deck is the game's: the same cards drawn, discarded and set aside.
    assert game.state.deck("cards") == record.final.deck("cards")
    assert any(" for Goblin" in s and " of " in s for s in said)  # its orders name their card


def test_a_move_made_by_the_rules_is_announced_with_where_to_put_the_model() -> None:
    from engine.actions import event

    scenario = parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)
    _, state = start_game(scenario)
    adapter = find_adapter("firefight-lite")
    ran = event(
        "move", 1, "Trooper Vance runs for cover to E5.", "trooper-1", cell=[4, 4], by="event"
    )
    assert (
        adapter.event_words(state, ran)
        == "Trooper Vance runs for cover to E5: move the model there."
    )
    ordered = event("move", 1, "the Varlet runs for cover to E5.", "varlet-1", cell=[4, 4])
    assert adapter.event_words(state, ordered) is None
