"""The worked examples of RULES §6.k T004-01..07 by scripted dice (T004-08..10 are in
test_rules_combat.py), and the rule readings they pin (D004-02/03/04/05/07/08/14)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.actions import Action
from engine.controllers.patrol_d8 import PatrolD8
from engine.dice import ScriptedDice
from engine.model import GameState
from engine.rulesets.dungeon.board import Board
from engine.rulesets.dungeon.cards import DungeonCard
from engine.rulesets.dungeon.facing import in_arc
from engine.rulesets.dungeon.state import (
    ALERTED,
    PATROLLING,
    card_of,
    rules_of,
    status_of,
)
from engine.rulesets.dungeon.tactics import roll_patrol
from engine.scenario import parse_scenario
from tests.dungeon.boards import acting, r_chance, ruleset, started

SCENARIOS = Path(__file__).resolve().parents[2] / "assistant" / "data" / "scenarios"
MOVER3 = '{ kind = "enemy", move_sq = 3, attacks = [{ name = "bow", wound_on = 4 }] }'
HERO3 = '{ kind = "hero", move_sq = 3, max_wounds = 3, attacks = [{ name = "bow", wound_on = 4 }] }'


def patrol(state: GameState, unit_id: str, script: list[int]) -> tuple[GameState, list[str]]:
    """The patrol-d8 order for the unit with scripted d8s, applied; the event types."""
    dice = ScriptedDice(script)
    order = PatrolD8().decide(state, ruleset(), unit_id, dice)
    assert order.action.kind == "patrol"
    outcome = ruleset().apply(state, order.action, dice)
    assert dice.remaining == 0
    return outcome.state, [e.type for e in outcome.events]


def example_i(**kw: object) -> GameState:
    figures = [("A", MOVER3, (0, 0), 90, "enemy"), ("hero", HERO3, (2, 1), 0, "hero")]
    return started(3, 2, figures, heroes_have_moved=True, **kw)  # type: ignore[arg-type]


def example_iii(**kw: object) -> GameState:
    figures = [("B", MOVER3, (0, 0), 180, "enemy"), ("hero", HERO3, (2, 1), 0, "hero")]
    return started(3, 2, figures, heroes_have_moved=True, **kw)  # type: ignore[arg-type]


def test_t004_01_examples_i_ii_full_move_stops_then_alerted_and_turns() -> None:
    state, types = patrol(example_i(), "A", [2])
    a = state.unit("A")
    assert a.cell == (2, 0)
    assert status_of(a) == ALERTED
    assert a.heading_deg == 180.0
    assert "status" in types and "face" in types
    # No patrol roll any more: its next order is no patrol.
    state = acting(state, "A")
    order = PatrolD8().decide(state, ruleset(), "A", ScriptedDice([]))
    assert order.action.kind != "patrol"


def test_t004_02_examples_iii_iv_half_move_turn_and_still_patrolling() -> None:
    state, _ = patrol(example_iii(), "B", [3, 6])
    b = state.unit("B")
    assert b.cell == (0, 1)
    assert b.heading_deg == 270.0
    assert status_of(b) == PATROLLING
    # The hero moves to (2, 0): B still does not notice (relative bearing about +153.4).
    r = ruleset()
    move = Action("move", "hero", detail=(("cells", [[2, 0]]),))
    assert r.validate(state, move) == []
    state = r.apply(state, move, ScriptedDice([])).state
    assert status_of(state.unit("B")) == PATROLLING
    if r.pending(state).unit == "hero":  # it could still shoot: it does not
        state = r.apply(state, Action("pass", "hero", side="Heroes"), ScriptedDice([])).state
    # Next round B rolls the d8 again.
    assert r.pending(state).candidates == ("B",)
    order = PatrolD8().decide(state, r, "B", ScriptedDice([4]))
    assert order.action.kind == "patrol" and order.action.get("roll") == 4


def test_t004_03_360_vision_alerts_b() -> None:
    state, _ = patrol(example_iii(options={"detection_arc": 360}), "B", [3, 6])
    assert status_of(state.unit("B")) == ALERTED


def test_t004_03_exclusive_boundary_would_keep_a_patrolling() -> None:
    # A at (2, 0) facing east, the hero directly below: relative bearing exactly +90.
    assert in_arc(90.0, (2, 0), (2, 1), 180.0)
    assert not in_arc(90.0, (2, 0), (2, 1), 180.0, inclusive=False)


def test_t004_03_a_check_between_move_and_turn_would_alert_b() -> None:
    # After the half move but before the turn, B faces south with the hero due east (90°).
    assert in_arc(180.0, (0, 1), (2, 1), 180.0)
    # After the whole action (facing west) the hero is behind it.
    assert not in_arc(270.0, (0, 1), (2, 1), 180.0)


@pytest.mark.parametrize(
    ("script", "turn"), [([3, 2, 1, 8], 8), ([3, 5], 5), ([3, 3, 3, 6], 6), ([3, 4], 4)]
)
def test_t004_04_re_roll_ignores_one_to_three(script: list[int], turn: int) -> None:
    figures = [("B", MOVER3, (0, 0), 180, "enemy"), ("hero", HERO3, (2, 1), 0, "hero")]
    dice = ScriptedDice(script)
    roll, again, rolls = roll_patrol(started(3, 2, figures).unit("B"), dice)
    assert (roll, again) == (3, turn)
    assert dice.remaining == 0
    assert all("patrol" in purpose for purpose, _ in rolls)


def test_t004_04_half_move_then_ccw_turn_and_no_turn() -> None:
    figures = [("B", MOVER3, (2, 0), 180, "enemy"), ("hero", HERO3, (0, 4), 0, "hero")]
    state, _ = patrol(started(5, 5, figures), "B", [3, 2, 1, 8])
    assert state.unit("B").cell == (2, 2) and state.unit("B").heading_deg == 90.0
    state, _ = patrol(started(5, 5, figures), "B", [3, 5])
    assert state.unit("B").cell == (2, 2) and state.unit("B").heading_deg == 180.0


def crawl(d6: int, name: str = "dungeon-crawl.toml") -> tuple[GameState, list[object]]:
    r = ruleset()
    path = SCENARIOS / name
    state = r.new_game(parse_scenario(path.read_text(encoding="utf-8"), path.name))
    dice = ScriptedDice([d6])
    assert r.pending(state).purpose == "dragon start square"
    outcome = r.apply(state, r_chance(), dice)
    assert "dragon" in dice.rolls[0].purpose
    return outcome.state, list(outcome.events)


@pytest.mark.parametrize(("d6", "cell"), [(1, (0, 0)), (2, (0, 0)), (4, (7, 2)), (6, (0, 7))])
def test_t004_05_dungeon_crawl_setup(d6: int, cell: tuple[int, int]) -> None:
    state, _ = crawl(d6)
    units = {u.id: u for u in state.units}
    assert len(units) == 15
    assert units["dragon"].cell == cell
    by_kind: dict[str, list[tuple[int, int]]] = {}
    for u in state.units:
        by_kind.setdefault(card_of(u).kind, []).append(u.cell or (-1, -1))
    assert sorted(by_kind["troll"]) == sorted([(4, 1), (0, 3), (2, 3), (2, 5)])
    assert sorted(by_kind["goblin"]) == sorted([(2, 2), (4, 2), (3, 4), (4, 4), (1, 5), (4, 5)])
    heroes = by_kind["fighting_man"] + by_kind["magic_user"] + by_kind["thief"]
    heroes += by_kind["priest"]
    assert set(heroes) == {(6, 6), (7, 6), (6, 7), (7, 7)}
    monsters = [u for u in state.units if u.side == "Monsters"]
    assert len(monsters) == 11
    assert all(u.heading_deg == 180.0 and status_of(u) == PATROLLING for u in monsters)
    dragon = card_of(units["dragon"])
    assert dragon.is_arch_foe and dragon.max_wounds == 4
    wounds = {card_of(u).kind: card_of(u).max_wounds for u in state.units}
    assert wounds == {
        "dragon": 4,
        "troll": 2,
        "goblin": 1,
        "fighting_man": 4,
        "magic_user": 2,
        "thief": 3,
        "priest": 3,
    }
    # Placeholder walls: 13 squares, none under a figure (D004-01).
    assert len(rules_of(state).walls) == 13


def test_t004_05_the_8_by_10_variant_shifts_every_row_by_two() -> None:
    state, _ = crawl(4, "dungeon-crawl-8x10.toml")
    assert state.unit("dragon").cell == (7, 4)
    assert state.unit("troll-1").cell == (4, 3)
    assert (2, 2) in rules_of(state).walls and len(rules_of(state).walls) == 13


def test_t004_06_entrance_goblins_alerted_after_the_heroes_first_move() -> None:
    r = ruleset()
    state, _ = crawl(4)
    # Everyone else looks away (north), so only the entrance rule (D004-08) alerts.
    for u in state.units:
        if u.side == "Monsters" and u.cell not in ((4, 4), (4, 5)):
            state = state.with_unit(replace(u, heading_deg=0.0))
    while r.pending(state).side == "Monsters":
        state = r.apply(state, Action("pass", side="Monsters"), ScriptedDice([])).state
    assert all(status_of(u) == PATROLLING for u in state.units if u.side == "Monsters")
    fm = state.unit("fighting-man")
    assert r.pending(state).candidates == (fm.id,)
    move = Action("move", fm.id, detail=(("cells", [[5, 6]]),), heading_deg=315.0)
    state = r.apply(state, move, ScriptedDice([])).state
    alerted = {u.cell for u in state.units if status_of(u) == ALERTED}
    assert alerted == {(4, 4), (4, 5)}


def test_t004_06_nothing_alerts_before_the_heroes_first_action() -> None:
    # A goblin facing the heroes with a clear line stays Patrolling on the first monster turn.
    figures = [("g", "goblin", (2, 0), 180, "enemy"), ("fm", "fighting_man", (2, 4), 0, "hero")]
    state = started(5, 5, figures)
    state, _ = patrol(state, "g", [4])
    assert status_of(state.unit("g")) == PATROLLING
    r = ruleset()
    state = r.apply(state, Action("pass", "fm", side="Heroes"), ScriptedDice([])).state
    assert rules_of(state).heroes_have_moved is False
    state, _ = patrol(state, "g", [5])
    assert status_of(state.unit("g")) == PATROLLING
    move = Action("move", "fm", detail=(("cells", [[2, 3]]),))
    state = r.apply(state, move, ScriptedDice([])).state
    assert status_of(state.unit("g")) == ALERTED


def test_t004_07_turn_order() -> None:
    state, events = crawl(4)
    start = next(e for e in events if getattr(e, "type", "") == "round_start")
    ids = start.get("order")  # type: ignore[attr-defined]
    cells = [state.unit(i).cell for i in ids]
    assert cells == [
        (7, 2),
        (4, 1),
        (0, 3),
        (2, 3),
        (2, 5),
        (2, 2),
        (4, 2),
        (3, 4),
        (4, 4),
        (1, 5),
        (4, 5),
        (6, 6),
        (6, 7),
        (7, 6),
        (7, 7),
    ]
    kinds = [card_of(state.unit(i)).kind for i in ids[-4:]]
    assert kinds == ["fighting_man", "magic_user", "thief", "priest"]
    assert ruleset().pending(state).candidates == ("dragon",)


def test_illegal_moves_are_reported_in_squares() -> None:
    r = ruleset()
    figures = [
        ("th", "thief", (0, 7), 0, "hero"),
        ("fm", "fighting_man", (2, 7), 0, "hero"),
        ("g", "goblin", (1, 5), 180, "enemy"),
    ]
    state = acting(started(8, 8, figures, walls=((0, 5),)), "th")
    far = Action("move", "th", detail=(("cells", [[0, 6], [1, 6], [2, 6]]),))
    assert r.validate(state, far) == ["the Thief moved 3 squares; heroes move 2"]
    wall = Action("move", "th", detail=(("cells", [[0, 6], [0, 5]]),))
    assert r.validate(state, wall) == ["A6 is a wall square"]
    onto = Action("move", "th", detail=(("cells", [[1, 7], [2, 7]]),))
    assert r.validate(state, onto) == ["C8 is taken by the Fighting Man"]
    through = Action("move", "th", detail=(("cells", [[1, 6], [1, 5]]),))
    assert r.validate(state, through) == ["B6 is taken by the Goblin"]
    # Moves read from a path of cell centres (what a camera sees) are judged the same.
    grid = state.table.grid
    assert grid is not None
    seen = Action("move", "th", path=(grid.centre((0, 7)), grid.centre((2, 5))))
    assert r.validate(state, seen) == ["A8 to C6 is not a one-square step"]


def test_patrol_blocked_by_a_figure_or_wall_stops_in_the_last_free_square() -> None:
    figures = [("t", "troll", (0, 0), 180, "enemy"), ("g", "goblin", (0, 2), 0, "enemy")]
    figures.append(("h", "thief", (7, 7), 0, "hero"))
    state, _ = patrol(started(8, 8, figures), "t", [1])
    assert state.unit("t").cell == (0, 1)  # D004-04: the goblin blocks
    state, _ = patrol(started(8, 8, figures[:1] + figures[2:], walls=((0, 2),)), "t", [2])
    assert state.unit("t").cell == (0, 1)


def test_arch_foe_alerted_alerts_everyone() -> None:
    figures = [
        ("d", "dragon", (0, 0), 180, "enemy"),
        ("g", "goblin", (7, 0), 0, "enemy"),
        ("h", "thief", (0, 3), 0, "hero"),
    ]
    state, _ = patrol(started(8, 8, figures, heroes_have_moved=True), "d", [4])
    assert status_of(state.unit("d")) == ALERTED
    assert status_of(state.unit("g")) == ALERTED


def test_alerted_enemies_face_the_closest_hero_they_see() -> None:
    figures = [("g", "goblin", (0, 0), 0, "enemy"), ("h", "thief", (3, 3), 0, "hero")]
    state = started(8, 8, figures, heroes_have_moved=True, alerted=("g",))
    r = ruleset()
    state = r.apply(
        acting(state, "h"), Action("move", "h", detail=(("cells", [[3, 2]]),)), ScriptedDice([])
    ).state
    g = state.unit("g")
    assert g.heading_deg == 135.0  # toward (3, 2): bearing 123.7, nearest grid facing
    assert Board.of(state).in_view(g, state.unit("h"))


def test_a_scenario_may_start_an_enemy_alerted() -> None:
    card = '{ kind = "goblin", starts_alerted = true }'
    figures = [("g", card, (0, 0), 180, "enemy"), ("h", "thief", (7, 7), 0, "hero")]
    state = started(8, 8, figures)
    assert status_of(state.unit("g")) == ALERTED
    order = PatrolD8().decide(state, ruleset(), "g", ScriptedDice([]))
    assert order.action.kind != "patrol"


def test_check_state_finds_broken_states() -> None:
    figures = [("g", "goblin", (0, 0), 180, "enemy"), ("h", "thief", (2, 2), 0, "hero")]
    state = started(8, 8, figures, walls=((5, 5),))
    r = ruleset()
    assert r.check_state(state) == []
    g = state.unit("g")
    grid = state.table.grid
    assert grid is not None
    x, y = grid.centre((2, 2))
    crowded = state.with_unit(replace(g, x=x, y=y))
    assert any("share C3" in p for p in r.check_state(crowded))
    x, y = grid.centre((5, 5))
    walled = state.with_unit(replace(g, x=x, y=y))
    assert any("not on an open square" in p for p in r.check_state(walled))
    both = state.with_unit(replace(g, statuses=frozenset({PATROLLING, ALERTED})))
    assert any("statuses" in p for p in r.check_state(both))
    hurt = state.with_unit(replace(state.unit("h"), wounds=3))
    assert any("3 wounds of 3" in p for p in r.check_state(hurt))


@pytest.mark.parametrize(("script", "kind"), [([2], "move"), ([7], "face"), ([4], "patrol")])
def test_a_patrol_is_said_once_and_its_why_is_not_the_order(script: list[int], kind: str) -> None:
    """Issue 22: the order's Why said the roll again, and the log said each patrol three times
    (the order, the roll, the move). Now the Why says why, and one event says the patrol."""
    figures = [("B", MOVER3, (0, 0), 180, "enemy"), ("hero", HERO3, (2, 1), 0, "hero")]
    state = started(3, 3, figures)  # the heroes have not moved: nothing alerts B
    dice = ScriptedDice(script)
    order = PatrolD8().decide(state, ruleset(), "B", dice)
    assert order.reason == "it has not noticed the heroes yet"
    events = ruleset().apply(state, order.action, dice).events
    said = [e for e in events if e.unit == "B"]
    assert [e.type for e in said] == [kind]
    assert said[0].text.startswith(f"Enemy at A1: patrol roll {script[0]}")
    assert said[0].get("roll") == script[0]


def test_a_card_title_writes_nothing_into_the_frozen_card() -> None:
    """A card is part of the frozen state: naming it must not store anything in it."""
    card = DungeonCard(kind="fighting_man")
    assert card.title == "Fighting Man"
    assert "title" not in vars(card)


def test_later_games_of_a_scenario_share_a_board_between_states_alike() -> None:
    """States with the same units and walls share one Board, in every game of a scenario (the
    terrain's squares are shared by the games; each game has its own table's grid object)."""
    scenario = parse_scenario(
        (
            Path(__file__).resolve().parents[2] / "assistant/data/scenarios/dungeon-crawl.toml"
        ).read_text(encoding="utf-8"),
        "dungeon-crawl",
    )
    Board.of(ruleset().new_game(scenario))
    second = ruleset().new_game(scenario)
    board = Board.of(second)
    assert Board.of(replace(second, step=second.step + 1)) is board
