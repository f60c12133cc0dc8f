"""The strike system at the table through its adapter: a live game on the virtual table
reaches the simulated outcome, the AI's strike order carries the count and the page draws
each ally's sight line, a move the camera saw becomes an action (with sprint dice when it
needs them), the unit card shows the dice, ``soloscope odds strike`` answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.cli import main
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame
from assistant.session.observation import PieceSeen
from assistant.tables import find_adapter
from engine.actions import ActionKind
from engine.dice import SeededDice
from engine.model import Role
from engine.protocols import find_controller
from engine.runner import play_battle, start_game
from engine.scenario import Scenario, parse_scenario
from tests.session.virtual_table import VirtualTable
from tests.strike.builders import RULESET, game, soldier, with_pools

SCENARIO = Path(__file__).resolve().parents[2] / "assistant/data/scenarios/strike-causeway.toml"


def _scenario() -> Scenario:
    return parse_scenario(SCENARIO.read_text(encoding="utf-8"), SCENARIO.name)


def _live(seed: int) -> tuple[LiveGame, list[str], object]:
    scenario = _scenario()
    ruleset, state = start_game(scenario)
    ai = {side.name: find_controller("strike-ai") for side in scenario.sides}
    record = play_battle(state, ruleset, ai, SeededDice(seed))
    human = state.side_of_role(Role.HUMAN)
    assert human is not None
    plan = tuple(
        a
        for a in record.actions
        if (a.unit_id and state.unit(a.unit_id).side == human.name)
        or (a.kind in (ActionKind.PASS, ActionKind.CHOOSE) and a.side == human.name)
    )
    said: list[str] = []
    live = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller("strike-ai"),
        dice=AutoDice(seed),
        say=said.append,
        initial=state,
        human_plan=plan,
    )
    return live, said, record


@pytest.mark.parametrize("seed", [1, 2])
def test_a_live_game_on_the_virtual_table_reaches_the_simulated_outcome(seed: int) -> None:
    live, said, record = _live(seed)
    VirtualTable(live).play()
    final = record.final  # type: ignore[attr-defined]
    assert live.state.winner == final.winner
    assert live.state.round == final.round
    assert [u.status for u in live.state.units] == [u.status for u in final.units]
    where = [c for u in live.state.units for c in (u.x, u.y)]
    assert where == pytest.approx([c for u in final.units for c in (u.x, u.y)])
    assert said[-1].startswith(f"The battle is over: {final.winner} win") or "draw" in said[-1]
    spoken = " ".join(said)
    assert "from the Marauders dice" in spoken and "count " in spoken


def test_a_move_seen_becomes_an_action_with_sprint_dice_when_needed() -> None:
    sprint = [{"name": "Dash", "effect": "sprint", "inches": 2}]
    units = [soldier("a1", "A", 4, 2, speed_in=4, skills=sprint), soldier("b1", "B", 4, 22)]
    state = with_pools(game(units), A=[2, 5, 5, 6], B=[2])
    adapter = find_adapter("strike")
    unit = state.unit("a1")
    path, why = adapter.observed_path(state, RULESET, unit, PieceSeen(4, 7, 0))
    assert why == "" and path == ((4, 2), (4, 7))
    action = adapter.observed_action(state, RULESET, "done", None, ("a1", path, "", 0.0), None)
    assert not isinstance(action, str)
    assert action.kind == "move" and action.get("sprint_dice") == [5]  # the plentiful 5s
    far, why = adapter.observed_path(state, RULESET, unit, PieceSeen(4, 12, 0))
    assert far is None and why == "the move is 10.00 in, more than the 4 in allowed"
    strike = adapter.observed_action(state, RULESET, "strike", "b1", ("a1", path, "", 0.0), None)
    assert not isinstance(strike, str)
    assert strike.kind == "strike" and strike.path == path and strike.target_id == "b1"
    assert RULESET.validate(state, strike) == []


def test_the_unit_card_shows_the_type_and_die_and_the_side_its_pool() -> None:
    units = [
        soldier("a1", "A", 4, 2, kind="heavy", toughness=4, deadly=True),
        soldier("b1", "B", 4, 22),
    ]
    state = with_pools(game(units), A=[1, 4, 4], B=[2])
    card = find_adapter("strike").unit_card(state, state.unit("a1"))
    assert [(v.label, v.value) for v in card.values] == [
        ("type", "heavy (die 4)"),
        ("threat", "far 18 in"),
        ("toughness", "4"),
        ("speed", "6 in"),
        ("initiative", "1"),
        ("counts for", "2 (deadly)"),
        ("die spent", "none"),
    ]
    assert card.ranges_in == (18.0,)
    assert card.wound_slots == 0  # removed on the strike count: no wound boxes
    # The pool is the side's: shown once for the side, on no unit's card.
    side = [(v.label, v.value) for v in find_adapter("strike").side_values(state, "A")]
    assert side == [("dice pool", "1 4 4")]


def test_odds_strike(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "strike", "--dice", "4"]) == 0
    out = capsys.readouterr().out.strip()
    assert out == (
        "With 4 dice, a given face shows at least once: 671/1296 = 51.77%; "
        "expected 0.67 dice of each face"
    )
    assert (
        main(
            [
                "odds",
                "strike",
                "--dice",
                "5",
                "--pool",
                "1,1,4,6,6",
                "--types",
                "command,command,heavy,heavy,support,skirmish",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.strip().splitlines()[-1] == (
        "Activatable: command 2, heavy 1, skirmish 0, support 1; 1 die left over for skills"
    )
    assert main(["odds", "strike", "--dice", "500"]) != 0
    assert "--dice takes a pool of 0 to 200 dice, not 500" in capsys.readouterr().err


def test_the_oracle_pool_rolled_with_real_dice() -> None:
    """--dice physical: each die of each pool is asked for and entered; the pools are the
    faces entered, then the first-activation roll-off."""
    from assistant.live_commands import Command
    from assistant.session.dice import QueuedDice
    from assistant.session.game import Stage

    path = Path(__file__).with_name("strike-duel.toml")
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
    ruleset, state = start_game(scenario)
    said: list[str] = []
    live = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller("strike-ai"),
        dice=QueuedDice(),
        say=said.append,
        initial=state,
    )
    table = VirtualTable(live)
    table.step()
    faces = [3, 3, 5, 1, 5, 5, 2, 6, 4, 2]  # Rangers 3 3 5 1, Marauders 5 5 2 6, roll-off 4-2
    for face in faces:
        assert live.stage is Stage.DICE, said[-1]
        live.command(Command("dice", value=face))
    assert "Oracle pool: Rangers die 1 of 4" in " ".join(said)
    assert [r.result for r in live.steps[0].rolls] == faces
    assert "Rangers roll 4 action dice: 1 3 3 5." in said
    assert "Marauders roll 4 action dice: 2 5 5 6." in said
    assert "Rangers activate first." in said


def test_the_player_moves_a_soldier_and_declares_a_strike_on_the_page() -> None:
    """No plan: the camera sees the player's Scout moved 3.2 in; 'strike' on the page makes it a
    strike with that path; the count is said before it is resolved, and the model struck is
    to be taken off."""
    from assistant.session.game import Stage

    path = Path(__file__).with_name("strike-duel.toml")
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
    ruleset, state = start_game(scenario)
    said: list[str] = []
    live = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller("strike-ai"),
        dice=AutoDice(4),  # the Rangers activate first
        say=said.append,
        initial=state,
    )
    table = VirtualTable(live)
    table.run_until(Stage.HUMAN)
    x, y, heading = table.poses["ranger-scout"]
    table.poses["ranger-scout"] = (x - 3.0, y + 1.0, heading)  # clear of the low wall
    live.observe(table.observation())
    assert said[-1] == "Scout Wynn moved 3.2 inches. Declare strike and its target, or done."
    live.declare("strike", "marauder-slinger")
    scout = live.state.unit("ranger-scout")
    assert (scout.x, scout.y) == pytest.approx((x - 3.0, y + 1.0)) and scout.activated
    # Gunner Oak sees the Slinger past the gatehouse only in part: obscured, and the first
    # obscured ally is not counted, so the Slinger stands (said before it is resolved).
    assert (
        "The count 1 against Toughness 2 (Scout Wynn 1; not counted: Gunner Oak (obscured))."
        in said
    )
    assert (
        "Scout Wynn strikes Slinger Vey: count 1 against Toughness 2: Slinger Vey stands." in said
    )
    assert live.steps[-1].action.kind == "strike" and len(live.steps[-1].action.path) == 2
