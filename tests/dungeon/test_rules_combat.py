"""RULES §6.k T004-08..10 by scripted dice: attack legality (D004-10/12), wounds and heals
(D004-06/11), the monster morale retreat (D004-13)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.actions import Action
from engine.dice import ScriptedDice
from engine.model import GameState, UnitStatus
from engine.rulesets.dungeon.state import (
    ALERTED,
    heals_left,
    rules_of,
    status_of,
)
from tests.dungeon.boards import acting, ruleset, started


def attack(uid: str, target: str, weapon: str) -> Action:
    return Action("attack", uid, target_id=target, detail=(("weapon", weapon),))


def test_t004_08_magic_user_with_a_goblin_diagonally_adjacent() -> None:
    figures = [("mu", "magic_user", (3, 3), 0, "hero"), ("g", "goblin", (4, 4), 0, "enemy")]
    state = acting(started(8, 8, figures, alerted=("g",)), "mu")
    reasons = ruleset().validate(state, attack("mu", "g", "fireball"))
    assert reasons and "fireball" in reasons[0] and "adjacent" in reasons[0]
    assert ruleset().validate(state, attack("mu", "g", "staff")) == []


def test_t004_08_troll_with_a_hero_adjacent() -> None:
    figures = [("t", "troll", (3, 3), 180, "enemy"), ("th", "thief", (3, 4), 0, "hero")]
    state = acting(started(8, 8, figures, alerted=("t",)), "t")
    assert ruleset().validate(state, attack("t", "th", "spear"))
    assert ruleset().validate(state, attack("t", "th", "club")) == []


def test_t004_08_dragon_claws_and_breath_at_different_heroes() -> None:
    figures = [
        ("d", "dragon", (0, 0), 180, "enemy"),
        ("x", "fighting_man", (1, 1), 0, "hero"),
        ("y", "thief", (4, 0), 0, "hero"),
    ]
    state = acting(started(8, 8, figures, alerted=("d",)), "d")
    r = ruleset()
    assert r.validate(state, attack("d", "x", "breath"))
    assert r.validate(state, attack("d", "x", "claws")) == []
    assert r.validate(state, attack("d", "y", "breath")) == []
    state = r.apply(state, attack("d", "x", "claws"), ScriptedDice([2])).state
    assert rules_of(state).acting == "d"
    assert r.validate(state, attack("d", "x", "breath"))  # adjacent, and the same hero
    state = r.apply(state, attack("d", "y", "breath"), ScriptedDice([3])).state
    assert state.unit("y").wounds == 1
    assert rules_of(state).acting is None


@pytest.mark.parametrize(("cell", "legal"), [((5, 0), True), ((6, 0), False), ((1, 0), True)])
def test_t004_08_thief_dagger_range(cell: tuple[int, int], legal: bool) -> None:
    figures = [("th", "thief", (0, 0), 0, "hero"), ("g", "goblin", cell, 0, "enemy")]
    state = acting(started(8, 8, figures, alerted=("g",)), "th")
    reasons = ruleset().validate(state, attack("th", "g", "dagger"))
    assert (reasons == []) is legal
    if not legal:
        assert reasons == ["the Thief's dagger reaches 5 squares; the Goblin is 6 squares away"]


def test_t004_09_wounds_remove_goblin_troll_and_fighting_man_on_their_last() -> None:
    r = ruleset()
    figures = [
        ("fm", "fighting_man", (3, 3), 0, "hero"),
        ("g", "goblin", (3, 2), 180, "enemy"),
        ("t", "troll", (4, 2), 180, "enemy"),
    ]
    state = started(8, 8, figures, heroes_have_moved=True, alerted=("g", "t"))
    state = r.apply(acting(state, "fm"), attack("fm", "g", "sword"), ScriptedDice([3])).state
    assert state.unit("g").status is UnitStatus.FALLEN and state.unit("g").cell is None
    for n in (1, 2):
        state = r.apply(acting(state, "fm"), attack("fm", "t", "sword"), ScriptedDice([6])).state
        assert (state.unit("t").status is UnitStatus.FALLEN) is (n == 2)
    figures = [("fm", "fighting_man", (3, 3), 0, "hero"), ("t", "troll", (4, 2), 180, "enemy")]
    state = started(8, 8, figures, heroes_have_moved=True, alerted=("t",))
    for n in (1, 2, 3, 4):
        state = acting(state, "t")
        state = r.apply(state, attack("t", "fm", "club"), ScriptedDice([6])).state
        assert (state.unit("fm").status is UnitStatus.FALLEN) is (n == 4)


def test_t004_09_priest_heals() -> None:
    r = ruleset()
    figures = [
        ("pr", "priest", (3, 3), 0, "hero"),
        ("th", "thief", (3, 4), 0, "hero"),
        ("fm", "fighting_man", (4, 4), 0, "hero"),
        ("g", "goblin", (0, 0), 180, "enemy"),
    ]
    state = started(8, 8, figures)
    state = state.with_unit(replace(state.unit("th"), wounds=1))
    heal_th = Action("heal", "pr", target_id="th")
    state = r.apply(acting(state, "pr"), heal_th, ScriptedDice([3])).state
    assert state.unit("th").wounds == 0 and heals_left(state.unit("pr")) == 2
    # A heal on a full-health hero is allowed, changes nothing, and uses an attempt.
    state = r.apply(
        acting(state, "pr"), Action("heal", "pr", target_id="fm"), ScriptedDice([6])
    ).state
    assert state.unit("fm").wounds == 0 and heals_left(state.unit("pr")) == 1
    assert r.validate(acting(state, "pr"), Action("heal", "pr", target_id="pr")) == [
        "the Priest cannot heal himself"
    ]
    state = r.apply(acting(state, "pr"), heal_th, ScriptedDice([1])).state
    assert heals_left(state.unit("pr")) == 0
    assert r.validate(acting(state, "pr"), heal_th) == ["the Priest has no heals left (3 per game)"]


def goblin_attacks(walls: tuple[tuple[int, int], ...], script: list[int]) -> GameState:
    figures = [("g", "goblin", (3, 3), 135, "enemy"), ("h", "fighting_man", (4, 4), 0, "hero")]
    state = started(8, 8, figures, walls, heroes_have_moved=True, alerted=("g",))
    dice = ScriptedDice(script)
    outcome = ruleset().apply(acting(state, "g"), attack("g", "h", "axe"), dice)
    assert dice.remaining == 0
    statuses = [e.get("status") for e in outcome.events if e.type == "status"]
    assert statuses[:2] == ["retreating", "alerted"]
    return outcome.state


def test_t004_10_goblin_rolling_one_retreats_two_squares_away() -> None:
    state = goblin_attacks((), [1])
    g = state.unit("g")
    assert g.cell == (1, 1) and g.heading_deg == 315.0 and status_of(g) == ALERTED
    assert state.unit("h").wounds == 0


@pytest.mark.parametrize(("tie", "first"), [(1, (2, 3)), (2, (3, 2))])
def test_t004_10_a_wall_ahead_sends_it_45_degrees_aside_by_a_roll(
    tie: int, first: tuple[int, int]
) -> None:
    state = goblin_attacks(((2, 2),), [1, tie])
    g = state.unit("g")
    # The second step goes straight ahead (north-west) again.
    assert g.cell == (first[0] - 1, first[1] - 1)
    assert g.heading_deg == 315.0


def test_t004_10_walled_in_goblin_stays() -> None:
    state = goblin_attacks(((2, 2), (2, 3), (3, 2)), [1])
    assert state.unit("g").cell == (3, 3) and status_of(state.unit("g")) == ALERTED


def test_t004_10_dragon_rolling_one_only_misses_troll_spear_retreats() -> None:
    r = ruleset()
    figures = [("d", "dragon", (3, 3), 180, "enemy"), ("h", "fighting_man", (3, 4), 0, "hero")]
    state = started(8, 8, figures, heroes_have_moved=True, alerted=("d",))
    out = r.apply(acting(state, "d"), attack("d", "h", "claws"), ScriptedDice([1]))
    assert [e.get("status") for e in out.events if e.type == "status"] == []
    assert out.state.unit("d").cell == (3, 3)
    figures = [("t", "troll", (3, 3), 180, "enemy"), ("h", "thief", (3, 6), 0, "hero")]
    state = started(8, 8, figures, heroes_have_moved=True, alerted=("t",))
    out = r.apply(acting(state, "t"), attack("t", "h", "spear"), ScriptedDice([1]))
    assert out.state.unit("t").cell == (3, 1)  # two squares straight away (north)
    assert status_of(out.state.unit("t")) == ALERTED


def test_monster_morale_option_off_means_a_plain_miss() -> None:
    figures = [("g", "goblin", (3, 3), 135, "enemy"), ("h", "fighting_man", (4, 4), 0, "hero")]
    state = started(
        8, 8, figures, options={"monster_morale": False}, heroes_have_moved=True, alerted=("g",)
    )
    out = ruleset().apply(acting(state, "g"), attack("g", "h", "axe"), ScriptedDice([1]))
    assert out.state.unit("g").cell == (3, 3)


def count_game(count: int) -> tuple[GameState, list[object]]:
    from engine.scenario import parse_scenario
    from tests.dungeon.boards import r_chance, scenario_text

    figures = [
        ("fm", "fighting_man", (3, 3), 0, "hero"),
        ("g1", "goblin", (3, 2), 180, "enemy"),
        ("g2", "goblin", (7, 0), 0, "enemy"),
        ("g3", "goblin", (0, 0), 0, "enemy"),
    ]
    options = {"victory": "count", "defeat_count": count}
    text = scenario_text(8, 8, figures, options=options)
    r = ruleset()
    state = r.new_game(parse_scenario(text, "count.toml"))
    dice = ScriptedDice([2])
    out = r.apply(state, r_chance(), dice)
    assert "turn limit" in dice.rolls[0].purpose
    return out.state, list(out.events)


def test_victory_count_defeat_n_enemies_within_1d6_plus_4_rounds() -> None:
    state, events = count_game(1)
    assert rules_of(state).turn_limit == 6
    assert any(getattr(e, "type", "") == "turn_limit" for e in events)
    out = ruleset().apply(acting(state, "fm"), attack("fm", "g1", "sword"), ScriptedDice([6]))
    assert out.state.winner == "Heroes"


def test_victory_count_runs_out_of_rounds() -> None:
    r = ruleset()
    state, _ = count_game(2)
    while state.winner is None:
        pending = r.pending(state)
        state = r.apply(state, Action("pass", side=pending.side), ScriptedDice([])).state
    assert state.winner == "Monsters" and state.round == 6
    assert state.end_reason == "the heroes defeated 0 of 2 enemies in 6 rounds"


def test_defeat_count_default_is_half_the_enemies_rounded_up() -> None:
    from engine.rulesets.dungeon.sequence import defeat_count

    figures = [("fm", "fighting_man", (3, 3), 0, "hero")]
    figures += [(f"g{i}", "goblin", (i, 0), 180, "enemy") for i in range(5)]
    assert defeat_count(started(8, 8, figures)) == 3


def test_a_defeat_count_above_the_enemies_is_one_clear_line() -> None:
    from engine.scenario import ScenarioError, parse_scenario
    from tests.dungeon.boards import scenario_text

    figures = [("fm", "fighting_man", (3, 3), 0, "hero"), ("g", "goblin", (0, 0), 180, "enemy")]
    text = scenario_text(8, 8, figures, options={"victory": "count", "defeat_count": 3})
    with pytest.raises(ScenarioError, match=r"options\.defeat_count: 3 \(allowed: a whole number"):
        ruleset().new_game(parse_scenario(text, "bad.toml"))
