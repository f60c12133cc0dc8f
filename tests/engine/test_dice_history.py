"""Random sources (seeded, scripted, physical), the roll log (T-RNG-01) and undo/redo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import AI, HUMANS, apply, build, unit

from engine.actions import Action, ActionKind, Event
from engine.dice import DiceError, PhysicalDice, ScriptedDice, SeededDice
from engine.history import History
from engine.runner import controllers_for, play_battle
from engine.scenario import parse_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "assistant" / "data" / "scenarios"


def test_seeded_dice_are_reproducible_and_uniform_in_range() -> None:
    a, b = SeededDice(42), SeededDice(42)
    rolls_a = [a.roll(6, "test") for _ in range(600)]
    assert rolls_a == [b.roll(6, "test") for _ in range(600)]
    assert set(rolls_a) == set(range(1, 7))
    assert rolls_a != [SeededDice(43).roll(6, "test") for _ in range(600)]
    assert all(1 <= SeededDice(s).roll(20, "x") <= 20 for s in range(200))


def test_seeded_state_save_and_restore_resumes_exactly() -> None:
    dice = SeededDice(9)
    [dice.roll(6, "warm up") for _ in range(5)]
    saved = json.loads(json.dumps(dice.get_state()))
    ahead = [dice.roll(6, "next") for _ in range(10)]
    other = SeededDice(0)
    other.set_state(saved)
    assert [other.roll(6, "next") for _ in range(10)] == ahead
    with pytest.raises(DiceError):
        other.set_state("not a state")


def test_scripted_dice_run_out_with_a_clear_error() -> None:
    dice = ScriptedDice([3])
    assert dice.roll(6, "first") == 3
    with pytest.raises(DiceError, match=r"ran out at roll 2 \(attack: x\)"):
        dice.roll(6, "attack: x")
    with pytest.raises(DiceError, match="not a d6 result"):
        ScriptedDice([7]).roll(6, "bad")


def test_scripted_state_restores_the_position() -> None:
    dice = ScriptedDice([1, 2, 3])
    dice.roll(6, "a")
    pos = dice.get_state()
    assert dice.roll(6, "b") == 2
    dice.set_state(pos)
    assert dice.roll(6, "b") == 2 and dice.remaining == 1


def test_physical_dice_ask_and_check_the_result() -> None:
    asked: list[tuple[int, str]] = []

    def ask(sides: int, purpose: str) -> int:
        asked.append((sides, purpose))
        return 4

    dice = PhysicalDice(ask)
    ruleset, state = build(
        [unit("a", AI, 12, 18, heading=180, atk=1, rng=12), unit("h", HUMANS, 12, 10, slots=1)]
    )
    outcome = ruleset.apply(state, Action(ActionKind.SHOOT, "a", target_id="h"), dice)
    assert asked == [(6, "attack: a shoots h")]
    assert outcome.state.unit("h").wounds == 1
    for bad in (0, 7, "5", None):
        with pytest.raises(DiceError, match="is not a result of a 6-sided die"):
            PhysicalDice(lambda s, p, bad=bad: bad).roll(6, "attack")  # type: ignore[misc]


def _ford() -> tuple:
    scenario = parse_scenario((SCENARIOS / "ford-at-dawn.toml").read_text(), "ford-at-dawn")
    from engine.runner import start_game

    ruleset, state = start_game(scenario)
    return scenario, ruleset, state


def test_t_rng_01_every_roll_has_a_purpose_and_a_scripted_replay_matches() -> None:
    scenario, ruleset, state = _ford()
    dice = SeededDice(11)
    first = play_battle(state, ruleset, controllers_for(scenario), dice)
    assert dice.rolls and all(r.purpose and r.sides >= 1 for r in dice.rolls)
    purposes = {r.purpose.split(":")[0] for r in dice.rolls}
    assert {"initiative", "attack"} <= purposes
    replay_dice = ScriptedDice([r.result for r in dice.rolls])
    second = play_battle(state, ruleset, controllers_for(scenario), replay_dice)
    assert replay_dice.remaining == 0
    assert second.events == first.events
    assert [r.purpose for r in replay_dice.rolls] == [r.purpose for r in dice.rolls]


def test_events_round_trip_through_json() -> None:
    scenario, ruleset, state = _ford()
    record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(5))
    for ev in record.events:
        assert Event.from_json(json.loads(json.dumps(ev.to_json()))) == ev


def test_undo_redo_whole_states_and_a_new_push_clears_redo() -> None:
    ruleset, s0 = build([unit("a", AI, 12, 18, heading=180), unit("h", HUMANS, 12, 4)], turn=HUMANS)
    history = History(s0, dice_state=0)
    assert not history.can_undo and history.undo() is None
    o1 = apply(ruleset, s0, Action(ActionKind.MOVE, "h", path=((12, 4), (12, 8))))
    history.push(o1.state, 1, Action(ActionKind.MOVE, "h"), o1.events)
    o2 = apply(ruleset, o1.state, Action(ActionKind.MOVE, "a", heading_deg=90))
    history.push(o2.state, 2, None, o2.events)
    assert history.state is o2.state
    assert history.undo() is not None and history.state is o1.state
    assert history.current.dice_state == 1 and history.current.events == o1.events
    assert history.undo() is not None and history.state is s0
    assert history.can_redo
    redone = history.redo()
    assert redone is not None and redone.state is o1.state
    other = apply(ruleset, o1.state, Action(ActionKind.PASS, side=AI))
    history.push(other.state, 3, Action(ActionKind.PASS), other.events)
    assert not history.can_redo and history.redo() is None
    assert [s.state for s in history.snapshots()] == [s0, o1.state, other.state]
