"""Rules-owned state (issue 11): the game state keeps what every system has, a ruleset keeps its
own bookkeeping in ``state.rules`` and ``unit.rules``; statuses, cells, decks and controller
memory live in the state (so they are saved, undone and replayed with it); scenario options may
be numbers, flags or words, and a ruleset may add its own."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import ClassVar

import pytest
from builders import AI, HUMANS, build, scenario, unit

from engine.cards import Deck, standard_deck
from engine.dice import SeededDice
from engine.errors import EngineError
from engine.model import GameState, RulesState, Unit
from engine.protocols import register_ruleset, unregister_ruleset
from engine.rulesets.narrative.ruleset import NarrativeRuleset
from engine.rulesets.narrative.state import (
    NarrativeState,
    NarrativeUnit,
    carrying,
    company_of,
    rules_of,
)
from engine.scenario import ScenarioError


def test_the_generic_state_holds_no_narrative_bookkeeping() -> None:
    state_fields = {f.name for f in dataclasses.fields(GameState)}
    assert {"rules", "memory", "decks", "options", "round", "step", "winner"} <= state_fields
    narrative = {"phase", "passes_in_row", "general_turn", "bonus_unit", "routing_companies"}
    assert not state_fields & narrative
    unit_fields = {f.name for f in dataclasses.fields(Unit)}
    assert {"statuses", "cell", "rules", "wounds", "status", "activated"} <= unit_fields
    assert not unit_fields & {"company", "carrying"}


def test_the_narrative_keeps_its_own_parts() -> None:
    _, state = build([unit("a", AI, 5, 20, company="raiders"), unit("h", HUMANS, 5, 4)], turn=None)
    assert isinstance(state.rules, NarrativeState)
    assert rules_of(state).company_sizes == (("Humans", 1), ("raiders", 1))
    a = state.unit("a")
    assert isinstance(a.rules, NarrativeUnit) and company_of(a) == "raiders"
    assert carrying(a) is None and a.statuses == frozenset() and a.cell is None
    with pytest.raises(EngineError, match="no narrative-ruleset state"):
        rules_of(dataclasses.replace(state, rules=RulesState()))


def test_decks_and_memory_live_in_the_state() -> None:
    _, state = build([unit("a", AI, 5, 20), unit("h", HUMANS, 5, 4)])
    dice = SeededDice(3)
    deck = Deck("ai", dice.shuffle("ai", standard_deck(), "setup"))
    with_deck = state.with_deck(deck)
    assert with_deck.deck("ai") == deck and state.decks == ()
    card, drawn = with_deck.deck("ai").draw(dice, "action card")
    after = with_deck.with_deck(drawn.discarded(card))
    assert len(after.decks) == 1 and after.deck("ai").discard == (card,)
    with pytest.raises(EngineError, match="no deck 'player'"):
        after.deck("player")
    remembered = after.with_memory(AI, (("arch_foe", "h"),))
    assert remembered.memory_of(AI) == (("arch_foe", "h"),) and remembered.memory_of(HUMANS) == ()
    assert remembered.with_memory(AI, ()).memory_of(AI) == ()
    # Still a value: equal states are equal and hash alike, whatever memo they carry.
    again = dataclasses.replace(remembered, memo=type(remembered.memo)())
    assert again == remembered and hash(again) == hash(remembered)


@pytest.fixture
def flagged_ruleset() -> Iterator[str]:
    class Flagged(NarrativeRuleset):
        name = "flagged-narrative-for-tests"
        options: ClassVar[dict[str, str]] = {
            "night": "a night battle (true or false)",
            "weather": "a word",
        }

    register_ruleset(Flagged.name, Flagged)
    yield Flagged.name
    unregister_ruleset(Flagged.name)


def test_options_of_any_type_and_a_ruleset_s_own(flagged_ruleset: str) -> None:
    base = scenario([unit("a", AI, 5, 20), unit("h", HUMANS, 5, 4)]).model_dump()
    base["scenario"]["ruleset"] = flagged_ruleset
    base["options"] = {"night": True, "weather": "fog", "max_rounds": 4, "contact_tol_in": 0.25}
    parsed = type(scenario([unit("a", AI, 5, 20), unit("h", HUMANS, 5, 4)])).model_validate(base)
    state = NarrativeRuleset().new_game(parsed)
    assert state.option_value("night") is True and state.option_value("weather") == "fog"
    assert state.option("max_rounds", 0) == 4 and state.option("contact_tol_in", 0.1) == 0.25
    with pytest.raises(EngineError, match="'weather' is 'fog', not a number"):
        state.option("weather", 1.0)
    base["scenario"]["ruleset"] = "narrative"
    with pytest.raises(ValueError, match=r"options\.night: unknown option"):
        type(parsed).model_validate(base)
    base["scenario"]["ruleset"] = flagged_ruleset
    base["options"] = {"max_rounds": True}
    with pytest.raises(
        ValueError, match=r"max_rounds: true is not allowed \(allowed: a whole number"
    ):
        type(parsed).model_validate(base)
    assert issubclass(ScenarioError, ValueError)
