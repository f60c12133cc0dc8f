"""The dungeon ruleset at the table (issue 12): orders in squares and facings, the expected
square after an order, the player's moves read as the rules' moves (or refused in squares),
unit cards with status, facing, wounds and heals, lines of squares, and ``soloscope odds
dungeon`` (RULES §6.j)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.cli import main
from assistant.scenarios import load_game
from assistant.session.observation import PieceSeen
from assistant.tables import find_adapter
from engine.actions import Action, ActionKind, Order
from engine.dice import ScriptedDice
from engine.geometry.grid import Grid
from engine.model import GameState
from engine.protocols import Ruleset
from engine.rulesets.dungeon.sample import patrol_action
from engine.rulesets.dungeon.state import ALERTED, PATROLLING

GRID = Grid(8, 8, 1.0)


def _started(d6: int = 4) -> tuple[Ruleset, GameState]:
    """The Dungeon Crawl after its start roll (4: the dragon on H3, T004-05)."""
    _, ruleset, state = load_game("dungeon-crawl")
    state = ruleset.apply(state, Action(ActionKind.CHANCE), ScriptedDice([d6])).state
    return ruleset, state


def _at(
    state: GameState, uid: str, cell: tuple[int, int], heading: float | None = None
) -> GameState:
    unit = state.unit(uid)
    x, y = GRID.centre(cell)
    h = unit.heading_deg if heading is None else heading
    return state.with_unit(replace(unit, x=x, y=y, heading_deg=h))


def _turn_of(ruleset: Ruleset, state: GameState, uid: str) -> GameState:
    """The state once every figure before ``uid`` this round has passed."""
    while ruleset.pending(state).candidates[0] != uid:
        who = ruleset.pending(state).candidates[0]
        side = state.unit(who).side
        state = ruleset.apply(
            state, Action(ActionKind.PASS, who, side=side), ScriptedDice([])
        ).state
    return state


def test_a_patrol_order_is_said_in_squares_and_its_square_expected() -> None:
    ruleset, state = _started()
    state = _turn_of(ruleset, state, "troll-3")
    adapter = find_adapter("dungeon")
    troll = state.unit("troll-3")  # on C4, facing south
    assert troll.cell == (2, 3)
    turn = Order((patrol_action(state, troll.id, 7, None),), "patrol", "patrol roll 7")
    said = adapter.order_instruction(state, turn)
    assert said.startswith("Troll at C4: patrol roll 7: turns 180")
    assert "facing north" in said
    exp = adapter.expectation(state, turn)
    assert exp.cell == (2, 3) and not exp.moves and exp.heading_deg == 0.0
    assert exp.position_tol_in == pytest.approx(0.5)  # its square (a line is asked about first)

    walk = Order((patrol_action(state, troll.id, 1, None),), "patrol", "patrol roll 1")
    said = adapter.order_instruction(state, walk)
    exp = adapter.expectation(state, walk)
    assert exp.moves and exp.cell is not None and exp.cell != (2, 3)
    assert (exp.x_in, exp.y_in) == GRID.centre(exp.cell)
    assert said.startswith("Troll at C4: patrol roll 1") and "to C" in said


def test_a_patrol_orders_why_is_not_its_instruction_again() -> None:
    """The page shows "Why:" under the order: for a patrol it is why it patrols."""
    from engine.protocols import find_controller

    ruleset, state = _started()
    state = _turn_of(ruleset, state, "troll-3")
    adapter = find_adapter("dungeon")
    order = find_controller("patrol-d8").decide(state, ruleset, "troll-3", ScriptedDice([1]))
    said = adapter.order_instruction(state, order)
    assert (
        said.startswith("Troll at C4: patrol roll 1 (full move)") and said.count("patrol roll") == 1
    )
    assert order.reason == "it has not noticed the heroes yet"
    assert adapter.order_text(state, order) == f"{said} Why: it has not noticed the heroes yet."


def test_the_dragon_breathes_fire_at_a_hero_named_by_square() -> None:
    ruleset, state = _started()
    adapter = find_adapter("dungeon")
    state = _turn_of(ruleset, state, "dragon")
    state = _at(state, "priest", (5, 2))  # F3: two squares from the dragon on H3
    dragon = state.unit("dragon")
    assert dragon.cell == (7, 2)
    breath = Action("attack", "dragon", target_id="priest", detail=(("weapon", "breath"),))
    said = adapter.order_instruction(state, Order((breath,), "attack", "breath"))
    assert said == ("Dragon at H3: breathe fire at the Priest on F3 — roll a d6, 3 or more wounds.")
    exp = adapter.expectation(state, Order((breath,), "attack", "breath"))
    assert not exp.moves and exp.cell == (7, 2)


def test_the_players_move_is_the_rules_move_or_refused_in_squares() -> None:
    ruleset, state = _started()
    adapter = find_adapter("dungeon")
    state = _turn_of(ruleset, state, "fighting-man")  # the monsters pass; the heroes' turn
    thief = state.unit("fighting-man")  # on G7
    two = GRID.centre((4, 4))  # E5 is a goblin's square
    path, problem = adapter.observed_path(
        state, ruleset, thief, PieceSeen(*GRID.centre((5, 5)), 315.0)
    )
    assert problem == "" and path is not None and path[-1] == GRID.centre((5, 5))
    path, problem = adapter.observed_path(
        state, ruleset, thief, PieceSeen(*GRID.centre((3, 5)), 315.0)
    )
    assert path is None and problem == "the Fighting Man moved 3 squares; heroes move 2"
    path, problem = adapter.observed_path(state, ruleset, thief, PieceSeen(*two, 315.0))
    assert path is None and "E5" in problem
    on_line = PieceSeen(5.98, 2.5, 315.0)
    assert adapter.placement_problem(state, thief, on_line) == (
        "The Fighting Man stands on the line between F6 and G6: centre it in one square."
    )
    move = (thief.id, (thief.position, GRID.centre((5, 5))), "", 315.0)
    action = adapter.observed_action(state, ruleset, "done", None, move, None)
    assert isinstance(action, Action) and action.get("cells")[-1] == [5, 5]
    assert not ruleset.validate(state, action)
    assert "move first" in str(
        adapter.observed_action(state, ruleset, "sword", "goblin-4", move, None)
    )


def test_unit_cards_show_status_facing_wounds_and_heals() -> None:
    _, state = _started()
    adapter = find_adapter("dungeon")
    troll = state.unit("troll-1")
    card = adapter.unit_card(state, troll)
    values = {v.label: v.value for v in card.values}
    assert card.statuses == ("Patrolling",) and PATROLLING in troll.statuses
    assert values["square"] == "E2" and values["facing"] == "south"
    # Wounds are shown once, by the wound boxes (the page reads them "Wounds 0/2").
    assert "wounds" not in values and card.wound_slots == 2
    assert values["spear"] == "4+, 5 squares" and values["club"] == "5+, adjacent"
    assert card.front_arc_deg == 180.0
    alerted = state.with_unit(replace(troll, statuses=frozenset({ALERTED}), wounds=1))
    card = adapter.unit_card(alerted, alerted.unit("troll-1"))
    assert card.statuses == ("Alerted",) and card.front_arc_deg is None
    assert "wounds" not in {v.label for v in card.values} and card.wound_slots == 2
    priest = adapter.unit_card(state, state.unit("priest"))
    assert {v.label: v.value for v in priest.values}["heals left"] == "3 of 3"
    assert priest.statuses == ()


def test_lines_of_squares_on_the_page() -> None:
    _, state = _started()
    adapter = find_adapter("dungeon")
    lines = {s.to_id: s for s in adapter.sight_lines(state, state.unit("thief"))}
    dragon = lines["dragon"]  # H7 to H3: H6 and H5 (a wall at H5) lie between
    assert dragon.note.startswith("4 squares: H7-H6-H5-H4-H3") and not dragon.clear


def test_odds_dungeon(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "dungeon", "--need", "4"]) == 0
    assert capsys.readouterr().out.strip() == "A d6 of 4 or more: 1/2 = 50.0%"
    assert main(["odds", "dungeon", "--need", "3", "--wounds", "2", "--attacks", "2"]) == 0
    assert "4/9" in capsys.readouterr().out  # Fighting Man vs troll within 2 attacks, §6.j
    assert main(["odds", "dungeon", "--need", "3", "--wounds", "2", "--attacks", "3"]) == 0
    assert "20/27" in capsys.readouterr().out
    assert main(["odds", "dungeon", "--patrol"]) == 0
    out = capsys.readouterr().out
    assert "moves straight ahead its full move: 1/4" in out
    assert "half its move, then no turn: 1/20" in out
    assert "turns 180°: 1/8" in out and "then turns 180°: 1/40" in out
    assert main(["odds", "dungeon", "--need", "9"]) != 0
    assert "from 1 to 6, not 9" in capsys.readouterr().err


def test_the_player_declares_a_weapon_or_a_heal_with_its_targets() -> None:
    from assistant.tables.base import Turn

    ruleset, state = _started()
    adapter = find_adapter("dungeon")
    state = _turn_of(ruleset, state, "priest")
    turn = adapter.turn(state, ruleset)
    assert turn.kind == "human" and turn.candidates == ("priest",)
    found = {d.action: d.targets for d in adapter.declarations(state, turn, None)}
    assert list(found) == ["mace", "heal", "done", "pass"]
    assert set(found["heal"]) == {"fighting-man", "magic-user", "thief"}  # never himself
    assert "dragon" in found["mace"] and "priest" not in found["mace"]
    moved = adapter.declarations(state, turn, "priest")
    assert [d.action for d in moved] == ["done", "pass"]
    assert isinstance(turn, Turn)
