"""The playing-card AI on the narrative rules (RULES §4, D002-01's seed-000 column; issue 22):
the Random Events phase at the start of each round, the defence card of an AI figure attacked
before it activates (Return Fire, Armour, Run for Cover), Stay Frosty as a hold with one
reaction shot at -1, a Joker's redraw, and orders whose action, reason and outcome agree.
Constructed positions with scripted dice and cards; whole games through ``simulate``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from assistant.cli import main
from engine.actions import Action, ActionKind, Order
from engine.cards import JOKER, Deck
from engine.controllers.cards import CardsAI
from engine.dice import ScriptedDice, SeededDice
from engine.model import GameState, UnitStatus
from engine.protocols import PendingKind
from engine.rulesets.firefight_lite.deck import FULL_DECK
from engine.rulesets.firefight_lite.state import DECK, FROSTY
from engine.rulesets.narrative import events as ev
from engine.rulesets.narrative.ruleset import NarrativeRuleset
from engine.rulesets.narrative.state import card_host, rules_of, with_rules
from engine.scenario import Scenario, ScenarioError
from tests.engine.builders import AI, HUMANS, scenario, unit, wall

NON_JOKERS = tuple(c for c in FULL_DECK if c != JOKER)


class Cards(SeededDice):
    """Seeded dice (the AI's random moves to weigh) that deal the scripted cards in turn."""

    def __init__(self, *cards: str) -> None:
        super().__init__(1)
        self.cards = list(cards)

    def draw(self, deck: str, pile: Sequence[str], purpose: str) -> str:
        card = self.cards.pop(0)
        assert card in pile, (card, purpose)
        return card


def _cards(sc: Scenario) -> Scenario:
    """The scenario with the card AI commanding its AI side."""
    return sc.model_copy(
        update={"scenario": sc.scenario.model_copy(update={"ai_controller": "cards"})}
    )


def _position(
    units: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    *,
    turn: str = AI,
    pile: tuple[str, ...] = (*NON_JOKERS, JOKER, JOKER),
    **kw: Any,
) -> tuple[NarrativeRuleset, GameState]:
    """Round 1 with ``turn`` to activate, the deck's draw pile as given (by default a whole
    deck, its Jokers at the bottom)."""
    ruleset = NarrativeRuleset()
    state = ruleset.new_game(_cards(scenario(units, terrain, **kw)))
    state = with_rules(replace(state, round=1, active_side=turn), waiting=PendingKind.CHOOSE_UNIT)
    return ruleset, state.with_deck(Deck(DECK, pile))


def _simulate(name: str, seed: int, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    assert main(["simulate", name, "--json", "--seed", str(seed)]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


# -- the Random Events phase ----------------------------------------------------------------------


def test_every_round_opens_with_an_event_card_before_its_initiative(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = _simulate("crossroads-cards", 1, capsys)
    steps = [
        "event" if ln["purpose"].startswith("event card") else "initiative"
        for ln in lines
        if ln["type"] in ("draw", "roll")
        and (ln["purpose"].startswith("event card") or ln["purpose"].startswith("initiative"))
    ]
    rounds = lines[-1]["round"]
    assert rounds >= 2 and steps == ["event", "initiative"] * rounds
    events = [ln["purpose"] for ln in lines if ln["type"] == "draw" and "event" in ln["purpose"]]
    assert events == [f"event card, round {n}" for n in range(1, rounds + 1)]


def test_the_event_phase_is_an_option_and_only_with_the_card_ai() -> None:
    units = [unit("h", HUMANS, 5, 5), unit("g", AI, 15, 15)]
    ruleset = NarrativeRuleset()
    off = ruleset.new_game(_cards(scenario(units, options={"random_events": False})))
    assert ruleset.pending(off).purpose == "initiative"
    on = ruleset.new_game(_cards(scenario(units)))
    assert ruleset.pending(on).purpose == "random event"
    out = ruleset.apply(on, Action(ActionKind.CHANCE), ScriptedDice([], ["5C"]))
    assert [e.type for e in out.events] == ["deck_shuffled", "round_start", "no_event"]
    assert ruleset.pending(out.state).purpose == "initiative" and out.state.round == 1
    with pytest.raises(ScenarioError, match="random_events"):
        ruleset.new_game(scenario(units, options={"random_events": True}))


def test_a_sniper_hit_waits_for_the_players_armour_or_run_for_cover() -> None:
    units = [unit("h", HUMANS, 12, 5), unit("g", AI, 12, 20, rng=12)]
    ruleset, state = _position(units)
    hit, _ = ev.sniper(state, ScriptedDice([6], ["AS"]))
    pending = ruleset.pending(hit)
    assert (pending.kind, pending.unit, pending.side) == (PendingKind.REACTION, "h", HUMANS)
    assert ruleset.validate(hit, Action(ActionKind.REACT_FIRE, "h", target_id="g"))
    # Armour: a strength-2 hit, ATK 2 against DEF 0: a 2 scores 4 and wounds (then the rout
    # check of its company).
    armour = ruleset.apply(hit, Action(ActionKind.PASS, "h", side=HUMANS), ScriptedDice([2, 4]))
    assert armour.state.unit("h").status is UnitStatus.FALLEN
    # Run for cover: a dodge of 4 avoids the hit, and the figure runs (its activation used).
    run = next(
        a for a in ruleset.sample_actions(hit, "h", SeededDice(1)) if a.kind == "react_evade"
    )
    ran = ruleset.apply(hit, run, ScriptedDice([4]))
    assert ran.state.unit("h").on_table and ran.state.unit("h").activated
    assert ran.state.unit("h").position == run.path[-1]
    assert not any(e.type == "event_attack" for e in ran.events)


def test_a_barrage_kills_on_a_six_wrecks_terrain_and_ends_the_round() -> None:
    units = [unit("h", HUMANS, 12, 5), unit("h2", HUMANS, 6, 5), unit("g", AI, 12, 20)]
    ruleset, state = _position(units, [wall("hut", 2, 10, 4, 12)])
    out, events = ev.barrage(state, ScriptedDice([6, 1, 1, 6]))
    assert out.unit("h").status is UnitStatus.FALLEN and out.unit("h2").on_table
    hut = out.terrain[0]
    assert (hut.kind, hut.blocks_los, hut.impassable, hut.cover) == ("rubble", False, False, "soft")
    assert rules_of(out).waiting is PendingKind.CHANCE
    assert ruleset.pending(out).purpose == "random event"
    assert any(e.type == "round_end" for e in events)


def test_a_fire_bomb_hits_every_figure_within_an_inch_of_the_impact() -> None:
    units = [unit("h", HUMANS, 12, 5), unit("h2", HUMANS, 13.4, 5), unit("g", AI, 12, 20)]
    _, state = _position(units)
    # The Ace of spades selects h; a 3 hits (3 + 2 >= 5); two strength-2 hits that wound (DEF
    # 0), the second loss a rout check.
    out, events = ev.fire_bomb(state, ScriptedDice([3, 2, 2, 4], ["AS", "2C", "3C"]))
    assert out.unit("h").status is UnitStatus.FALLEN
    assert out.unit("h2").status is UnitStatus.FALLEN  # its base 0.9 in from the impact
    assert out.unit("g").on_table
    assert sum(e.type == "event_attack" for e in events) == 2


def test_a_road_rupture_leaves_a_hole_nobody_stands_in() -> None:
    units = [unit("h", HUMANS, 12, 5), unit("g", AI, 12, 20)]
    ruleset, state = _position(units)
    spared, _ = ev.road_rupture(state, ScriptedDice([2], ["AS", "2C"]))
    hole = next(t for t in spared.terrain if t.kind == "hole")
    assert hole.impassable and spared.unit("h").on_table and spared.unit("h").activated
    assert spared.unit("h").position != (12, 5)
    assert ruleset.check_state(spared) == []
    back = Action(ActionKind.MOVE, "h", path=(spared.unit("h").position, (12.0, 5.0)))
    assert ruleset.validate(replace(spared, active_side=HUMANS), back)


def test_a_road_rupture_victim_with_nowhere_to_run_is_swept_away() -> None:
    """h boxed into the table's corner by two rocks: every spot its run could reach still
    overlaps the hole."""
    units = [unit("h", HUMANS, 0.5, 0.5), unit("g", AI, 12, 20)]
    rocks = [wall("rock", 1.1, 0, 3, 3), wall("rock2", 0, 1.1, 1.1, 3)]
    ruleset, state = _position(units, rocks)
    out, events = ev.road_rupture(state, ScriptedDice([2, 4], ["AS", "2C"]))
    assert out.unit("h").status is UnitStatus.FALLEN
    assert any("nowhere to run" in e.text for e in events)
    assert ruleset.check_state(out) == []


def test_a_dead_fall_buries_or_sends_to_cover_and_leaves_rubble() -> None:
    units = [unit("h", HUMANS, 12, 5), unit("g", AI, 12, 20)]
    _, state = _position(units)
    buried, _ = ev.dead_fall(state, ScriptedDice([3, 4], ["AS", "2C"]))
    assert buried.unit("h").status is UnitStatus.FALLEN
    assert any(t.kind == "rubble" and not t.impassable for t in buried.terrain)
    ran, _ = ev.dead_fall(state, ScriptedDice([4], ["AS", "2C"]))
    assert ran.unit("h").on_table and ran.unit("h").activated


@pytest.mark.parametrize("card", ["KH", "QH", "JH", "KC", "QD", "KD"])
def test_events_that_bring_on_figures_do_nothing_here_and_are_used_up(card: str) -> None:
    units = [unit("h", HUMANS, 12, 5), unit("g", AI, 12, 20)]
    _, state = _position(units, pile=(card, *[c for c in NON_JOKERS if c != card]))
    out, events = ev.event_phase(state, ScriptedDice([]))
    assert [e.type for e in events] == ["random_event", "event_effect"]
    assert "nothing happens" in events[1].text or "does not come" in events[1].text
    assert card in out.deck(DECK).removed
    assert card in card_host(out).events_done  # type: ignore[union-attr]


# -- defence cards (§4.g) ---------------------------------------------------------------------------


def _duel(
    goblin: dict[str, Any] | None = None, terrain: list[Any] | None = None
) -> tuple[NarrativeRuleset, GameState]:
    units = [unit("h", HUMANS, 12, 5, rng=12), goblin or unit("g", AI, 12, 15, rng=12)]
    return _position(units, terrain, turn=HUMANS)


def _defence(
    card: str, goblin: dict[str, Any] | None = None, terrain: list[Any] | None = None
) -> tuple[NarrativeRuleset, GameState, Action]:
    """h shoots g, who has not activated: g's defence card is ``card``."""
    ruleset, state = _duel(goblin, terrain)
    out = ruleset.apply(state, Action(ActionKind.SHOOT, "h", target_id="g"), ScriptedDice([]))
    pending = ruleset.pending(out.state)
    assert (pending.kind, pending.unit, pending.purpose) == (PendingKind.REACTION, "g", "defence")
    order = CardsAI().react(out.state, ruleset, pending, Cards(card))
    assert order is not None
    return ruleset, out.state, order.action


def test_return_fire_is_rolled_even_when_the_attack_drops_the_goblin() -> None:
    ruleset, state, answer = _defence("7S")
    assert answer.kind == ActionKind.REACT_FIRE and answer.target_id == "h"
    # h's shot (6: g falls; its company's rout check), then g's shot all the same.
    out = ruleset.apply(state, answer, ScriptedDice([6, 4, 6, 4]))
    attacks = [e for e in out.events if e.type == "attack"]
    assert [(e.unit, e.get("target")) for e in attacks] == [("h", "g"), ("g", "h")]
    assert out.state.unit("g").status is UnitStatus.FALLEN
    assert out.state.unit("h").status is UnitStatus.FALLEN
    assert out.state.deck(DECK).discard == ("7S",)


def test_armour_leaves_the_goblin_its_activation() -> None:
    ruleset, state, answer = _defence("7C")
    assert answer.kind == ActionKind.PASS
    out = ruleset.apply(state, answer, ScriptedDice([1]))
    assert out.state.unit("g").on_table and not out.state.unit("g").activated
    assert [e.get("reaction") for e in out.events if e.type == "reaction"] == ["armour"]


def test_run_for_cover_behind_a_wall_loses_the_attack() -> None:
    """g stands above the end of a wall: a run of at most 3 in east puts the wall between it
    and h."""
    terrain = [wall("wall", 12.8, 12, 16, 12.6)]
    ruleset, state, answer = _defence("7D", unit("g", AI, 12, 15, rng=12), terrain)
    assert answer.kind == ActionKind.REACT_EVADE
    out = ruleset.apply(state, answer, ScriptedDice([]))
    g = out.state.unit("g")
    assert g.activated and g.position == answer.path[-1]
    assert ((g.x - 12) ** 2 + (g.y - 15) ** 2) ** 0.5 <= 3.0 + 1e-6
    assert any(e.type == "attack_lost" for e in out.events)
    assert not any(e.type == "attack" for e in out.events)


def test_a_goblin_that_cannot_shoot_reads_return_fire_as_armour() -> None:
    ruleset, _, answer = _defence("7H", unit("g", AI, 12, 15))
    assert answer.kind == ActionKind.PASS
    assert ruleset.action_word(answer) == "armour"


def test_no_defence_card_once_the_goblin_has_activated() -> None:
    ruleset, state = _duel()
    state = state.with_unit(replace(state.unit("g"), activated=True))
    out = ruleset.apply(state, Action(ActionKind.SHOOT, "h", target_id="g"), ScriptedDice([1]))
    assert ruleset.pending(out.state).kind is not PendingKind.REACTION
    assert [e.type for e in out.events if e.type in ("attack", "attacked")] == ["attack"]


# -- Stay Frosty -----------------------------------------------------------------------------------


def test_stay_frosty_holds_then_shoots_the_first_enemy_to_act_at_minus_one() -> None:
    units = [unit("h", HUMANS, 12, 5, atk=0), unit("g", AI, 12, 15, rng=12, atk=1)]
    ruleset, state = _position(units)
    order = CardsAI().decide(state, ruleset, "g", Cards("3C"))
    assert order.action.kind == ActionKind.OVERWATCH and "stay frosty" in order.rule
    held = ruleset.apply(state, order.action, ScriptedDice([]))
    g = held.state.unit("g")
    assert g.position == (12, 15) and g.activated and FROSTY in g.statuses
    assert not any(e.type in ("move", "attack") for e in held.events)
    # The player's figure starts to move: g fires first, with -1 (ATK 1 - DEF 0 - 1 = 0).
    state = with_rules(replace(held.state, active_side=HUMANS), waiting=PendingKind.CHOOSE_UNIT)
    step = Action(ActionKind.MOVE, "h", path=((12.0, 5.0), (12.0, 8.0)))
    out = ruleset.apply(state, step, ScriptedDice([]))
    pending = ruleset.pending(out.state)
    assert (pending.kind, pending.unit, pending.purpose) == (PendingKind.REACTION, "g", "overwatch")
    shot = CardsAI().react(out.state, ruleset, pending, Cards())
    assert shot is not None and shot.action.kind == ActionKind.REACT_FIRE
    fired = ruleset.apply(out.state, shot.action, ScriptedDice([3]))
    kinds = [e.type for e in fired.events]
    assert kinds.index("attack") < kinds.index("move")
    attack = next(e for e in fired.events if e.type == "attack")
    assert attack.get("delta") == 0 and attack.get("moved") is True
    assert FROSTY not in fired.state.unit("g").statuses
    assert fired.state.unit("h").position == (12.0, 8.0)


def test_an_overwatch_shot_that_fells_the_mover_stops_its_action() -> None:
    units = [unit("h", HUMANS, 12, 5), unit("g", AI, 12, 15, rng=12)]
    ruleset, state = _position(units, turn=HUMANS)
    g = state.unit("g")
    state = state.with_unit(replace(g, activated=True, statuses=g.statuses | {FROSTY}))
    step = Action(ActionKind.MOVE, "h", path=((12.0, 5.0), (12.0, 8.0)))
    out = ruleset.apply(state, step, ScriptedDice([]))
    fire = Action(ActionKind.REACT_FIRE, "g", target_id="h")
    fired = ruleset.apply(out.state, fire, ScriptedDice([6, 4]))
    assert fired.state.unit("h").status is UnitStatus.FALLEN
    assert fired.state.unit("h").position == (12, 5)
    assert not any(e.type == "move" for e in fired.events)


def test_stay_frosty_never_moves_or_shoots(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: ``simulate crossroads-cards --seed 1``, round 2: "Goblin Archer: move and
    shoot (3 of clubs: stay frosty)", then it moved 5.2 in and shot. A Stay Frosty order is
    now a hold, and the step it starts neither moves nor shoots."""
    for seed in (1, 2, 3):
        lines = _simulate("crossroads-cards", seed, capsys)
        for i, line in enumerate(lines):
            if line["type"] != "order" or "stay frosty" not in line["rule"]:
                continue
            if line["rule"] == "stay frosty":  # the reaction shot of an overwatcher
                assert line["action"] == "reaction_shot"
                continue
            assert line["action"] == "stay_frosty", line
            nxt = lines[i + 1]
            assert nxt["type"] == "stay_frosty" and nxt["unit"] == line["unit"], nxt


def test_a_joker_reshuffles_and_the_same_goblin_draws_again() -> None:
    units = [unit("h", HUMANS, 12, 5), unit("g", AI, 12, 15, rng=12), unit("g2", AI, 5, 15)]
    ruleset, state = _position(units, pile=(JOKER, *NON_JOKERS, JOKER))
    order = CardsAI().decide(state, ruleset, "g", Cards(JOKER))
    assert order.action.kind == "reshuffle"
    out = ruleset.apply(state, order.action, ScriptedDice([]))
    pending = ruleset.pending(out.state)
    assert (pending.kind, pending.unit, pending.may_pass) == (PendingKind.CONTINUE, "g", False)
    assert out.state.deck(DECK).discard == () and JOKER in out.state.deck(DECK).draw_pile
    assert ruleset.validate(out.state, Action(ActionKind.PASS, side=AI))
    again = CardsAI().decide(out.state, ruleset, "g", Cards("9S"))
    assert again.rule.startswith("9 of spades")
    done = ruleset.apply(out.state, again.action, SeededDice(2))
    assert "9S" in done.state.deck(DECK).discard
    assert card_host(done.state).drawing is None  # type: ignore[union-attr]


# -- orders that agree with what happens ---------------------------------------------------------

ACTIONS_OF_RULES = {
    "aimed fire": {"shoot"},
    "move and fire": {"shoot", "move_and_shoot"},
    "assault": {"move_into_melee"},
    "move": {"move"},
    "move away": {"move"},
    "move to soft cover or better": {"move"},
    "stay frosty": {"stay_frosty", "reaction_shot"},
    "return fire": {"reaction_shot"},
    "armour": {"armour"},
    "run for cover": {"run_for_cover"},
    "Joker": {"reshuffle"},
    "forced": {"rout", "continue_melee"},
}


def test_every_card_order_does_what_its_rule_says(capsys: pytest.CaptureFixture[str]) -> None:
    seen = set()
    for seed in range(1, 9):
        lines = _simulate("crossroads-cards", seed, capsys)
        for i, line in enumerate(lines):
            if line["type"] != "order" or not line["unit"].startswith("goblin"):
                continue
            said = line["rule"].rsplit(": ", 1)[-1]
            assert line["action"] in ACTIONS_OF_RULES[said], line
            seen.add(said)
            step = []
            for after in lines[i + 1 :]:
                if after["type"] in ("order", "activation", "round_end"):
                    break
                step.append(after["type"])
            if line["action"] in ("move", "move_and_shoot", "move_into_melee"):
                assert "move" in step, (line, step)
            if line["action"] in ("shoot", "move_and_shoot", "reaction_shot"):
                assert "attack" in step or "attacked" in step, (line, step)
    assert {"move and fire", "stay frosty", "armour", "run for cover", "assault"} <= seen


# -- at the table ------------------------------------------------------------------------------


def test_the_table_says_the_card_ais_stay_frosty_reactions_and_jokers() -> None:
    from assistant.tables import find_adapter

    adapter = find_adapter("narrative")
    units = [unit("h", HUMANS, 12, 5), unit("g", AI, 15, 15, rng=12, heading=180)]
    _, state = _position(units)

    def said(kind: str, card: str | None = None, **kw: Any) -> str:
        detail = (("card", card),) if card else ()
        order = Order(Action(kind, "g", detail=detail, **kw), "rule", "why")
        return adapter.order_instruction(state, order)

    assert said(ActionKind.OVERWATCH, "3C").startswith("3 of clubs for g: stay frosty: hold")
    assert said(ActionKind.PASS, "4C") == "4 of clubs for g: trust its armour."
    assert said("reshuffle", JOKER).startswith("Joker for g: shuffle the discard pile")
    fire = Order(Action(ActionKind.REACT_FIRE, "g", target_id="h"), "stay frosty", "why")
    assert "shoot h at once" in adapter.order_instruction(state, fire)
    expected = adapter.expectation(state, fire)
    assert abs(expected.heading_deg - 196.7) < 0.1  # it turns to face h
    run = Order(Action(ActionKind.REACT_EVADE, "g", path=((15.0, 15.0), (17.0, 15.0))), "r", "w")
    assert adapter.order_instruction(state, run).startswith("g: run for cover, ")


def test_the_player_answers_an_events_hit_at_the_table() -> None:
    from assistant.tables import find_adapter

    adapter = find_adapter("narrative")
    units = [unit("h", HUMANS, 12, 5), unit("g", AI, 12, 20, rng=12)]
    ruleset, state = _position(units)
    hit, _ = ev.sniper(state, ScriptedDice([6], ["AS"]))
    turn = adapter.turn(hit, ruleset)
    assert (turn.kind, turn.unit_id) == ("human", "h")
    assert [d.action for d in adapter.declarations(hit, turn, None)] == ["armour", "run_for_cover"]
    assert "armour" in adapter.turn_prompt(hit, turn) and "run for cover" in adapter.turn_prompt(
        hit, turn
    )
    armour = adapter.pass_action(hit, HUMANS)
    assert armour.unit_id == "h" and not ruleset.validate(hit, armour)
    path = ((12.0, 5.0), (10.0, 5.0))
    seen = ("h", path, "", 270.0)
    run = adapter.observed_action(hit, ruleset, "run_for_cover", None, seen, None)
    assert isinstance(run, Action) and run.kind == ActionKind.REACT_EVADE
    assert not ruleset.validate(hit, run)
    asked = adapter.observed_action(hit, ruleset, "run_for_cover", None, None, None)
    assert isinstance(asked, str) and asked.startswith("Move h")
    # A run the rules make (a dead fall) is said with where to put the model.
    fell, events = ev.dead_fall(state, ScriptedDice([4], ["AS", "2C"]))
    words = [adapter.event_words(fell, e) for e in events if e.type == "move"]
    assert words and all(w and "move the model there" in w for w in words)
