"""Whole games with the card AI: deck integrity over 500 seeded games (engine only, no I/O),
every decision point reached, the ``simulate --json`` contract on the bundled firefight-lite
scenario, and the card AI driving a narrative scenario."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from assistant.cli import main
from engine.controllers.cards import CardsAI
from engine.dice import Draw, SeededDice, Shuffle
from engine.protocols import find_ruleset
from engine.rulesets.firefight_lite.deck import EVENTS, FULL_DECK
from engine.runner import acting_side, next_action, play_battle, with_order_memory
from engine.scenario import parse_scenario
from tests.cards.positions import NEUTRAL, NPC, PLAYER, scenario_text
from tests.cards.test_cards_events import RESERVES

SCENARIOS = Path(__file__).resolve().parents[2] / "assistant" / "data" / "scenarios"
SOLDIER = {"move": 4, "ranged": 1, "range": 12, "troop": "Varlet"}


def _small() -> str:
    units = [
        ("p1", PLAYER, "C11", SOLDIER),
        ("p2", PLAYER, "I11", SOLDIER),
        ("v1", NPC, "C2", SOLDIER),
        ("v2", NPC, "I2", SOLDIER),
        *RESERVES,
    ]
    terrain = [
        (
            "hab",
            "building",
            [(4, 5), (6, 5), (6, 7), (4, 7)],
            {"blocks_los": True, "impassable": True, "cover": "hard"},
        ),
        ("wall", "wall", [(7, 8), (10, 8), (10, 8.4), (7, 8.4)], {"cover": "hard"}),
        ("road", "road", [(0, 3), (12, 3), (12, 4), (0, 4)], {}),
    ]
    return scenario_text(units, terrain, events=True, neutral=True, max_rounds=5)


def test_deck_integrity_over_500_seeded_games() -> None:
    """No card drawn twice between two shuffles, no removed event card drawn again, the deck
    always 54 cards (draw + discard + removed), at every step of 500 games."""
    scenario = parse_scenario(_small(), "small-street.toml")
    ruleset = find_ruleset("firefight-lite")
    ai = CardsAI()
    controllers = {s.name: ai for s in scenario.sides}
    events: Counter[str] = Counter()
    for seed in range(500):
        state = ruleset.new_game(scenario)
        dice = SeededDice(seed)
        seen: Counter[str] = Counter()
        planned: list = []  # type: ignore[type-arg]
        for _ in range(3000):
            removed = set(state.deck("cards").removed)
            mark = len(dice.log)
            chosen = next_action(state, ruleset, controllers, dice, planned)
            if chosen is None:
                break
            action, order = chosen
            out = ruleset.apply(state, action, dice)
            state = with_order_memory(out.state, acting_side(state, action), order)
            for entry in dice.log[mark:]:
                if isinstance(entry, Shuffle) and entry.deck == "cards":
                    seen = Counter()
                elif isinstance(entry, Draw) and entry.deck == "cards":
                    assert entry.card not in removed, (seed, entry)
                    seen[entry.card] += 1
                    # Every card once per cycle; the two Jokers twice (a Joker dealt in a
                    # selection is set aside and replaced, no reshuffle).
                    assert seen[entry.card] <= (2 if entry.card == "joker" else 1), (seed, entry)
            deck = state.deck("cards")
            assert len(deck.draw_pile) + len(deck.discard) + len(deck.removed) == 54, seed
            assert sorted(set(deck.removed)) == sorted(deck.removed)
            assert set(deck.removed) <= set(EVENTS)
            events.update(e.type for e in out.events)
        assert state.winner is not None, seed
    # The games went through the deck's every path.
    assert events["random_event"] > 100 and events["joker"] > 50 and events["selection"] > 20


def test_every_decision_point_is_reached() -> None:
    scenario = parse_scenario(_small(), "small-street.toml")
    ruleset = find_ruleset("firefight-lite")
    kinds: Counter[str] = Counter()
    purposes: Counter[str] = Counter()
    for seed in range(20):
        state = ruleset.new_game(scenario)
        controllers = {s.name: CardsAI() for s in scenario.sides}
        dice = SeededDice(seed)
        while True:
            pending = ruleset.pending(state)
            kinds[str(pending.kind)] += 1
            purposes[pending.purpose] += 1
            chosen = next_action(state, ruleset, controllers, dice)
            if chosen is None:
                break
            out = ruleset.apply(state, chosen[0], dice)
            state = with_order_memory(out.state, acting_side(state, chosen[0]), chosen[1])
    assert set(kinds) == {"chance", "choice", "choose_unit", "continue", "reaction", "over"}
    assert purposes["defence"] and purposes["overwatch"]


def _simulate(name: str, seed: int, capsys: pytest.CaptureFixture[str]) -> list[dict]:  # type: ignore[type-arg]
    assert main(["simulate", name, "--json", "--seed", str(seed)]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


def test_simulate_json_contract_on_the_bundled_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    lines = [ln for seed in (1, 2, 3) for ln in _simulate("bosworth-street", seed, capsys)]
    draws = [ln for ln in lines if ln["type"] == "draw"]
    assert draws and all(set(ln) >= {"purpose", "card"} for ln in draws)
    assert all(
        any(word in ln["purpose"] for word in ("event", "action", "defence", "selection"))
        for ln in draws
    )
    for word in ("event", "action", "defence", "selection"):
        assert any(word in ln["purpose"] for ln in draws), word
    assert any(ln["type"] == "shuffle" for ln in lines)
    reactions = [ln for ln in lines if ln["type"] == "reaction"]
    assert reactions and all(set(ln) >= {"unit", "reaction"} for ln in reactions)
    happened = [ln for ln in lines if ln["type"] == "random_event"]
    assert happened and all(
        ln["card"] in EVENTS and ln["event"] == EVENTS[ln["card"]] for ln in happened
    )
    assert sum(ln["type"] == "end" for ln in lines) == 3
    setup = next(ln for ln in lines if ln["type"] == "setup")
    assert all("cell" in u for u in setup["units"] if u.get("status", "active") == "active")


def test_the_card_ai_drives_a_narrative_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    path = SCENARIOS / "crossroads-cards.toml"
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
    assert scenario.scenario.ruleset == "narrative" and scenario.scenario.ai_controller == "cards"
    lines = _simulate("crossroads-cards", 4, capsys)
    orders = [ln for ln in lines if ln["type"] == "order" and ln["unit"].startswith("goblin")]
    assert orders and all(
        " of " in ln["rule"] or ln["rule"] in ("forced", "Joker", "stay frosty") for ln in orders
    )
    draws = [ln for ln in lines if ln["type"] == "draw"]
    assert draws and all(
        any(word in ln["purpose"] for word in ("event", "action", "defence", "selection"))
        for ln in draws
    )
    assert sum("event card" in ln["purpose"] for ln in draws) == lines[-1]["round"]
    assert any(ln["type"] == "shuffle" for ln in lines)
    assert lines[-1]["type"] == "end"
    # Its deck is the game's, as on firefight-lite: 54 cards, each once.
    ruleset = find_ruleset("narrative")
    state = ruleset.new_game(scenario)
    from engine.runner import controllers_for

    record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(4))
    deck = record.final.deck("cards")
    assert sorted(deck.draw_pile + deck.discard + deck.removed) == sorted(FULL_DECK)
    assert dict(record.final.memory_of("Goblins")) == {}
    assert NEUTRAL and NPC  # the shared names stay in use
