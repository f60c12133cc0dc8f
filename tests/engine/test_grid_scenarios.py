"""Gridded tables and the new scenario fields (issue 11): a table may carry a square grid (row 0
at the far edge, RULES §1.1) and units stand at cell centres, named "C4" or [col, row]; a unit's
cell follows it; deployment by cells; a neutral side; ``simulate --json`` gives cells and the
grid on a gridded table. Inches."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from assistant.cli import main
from engine.actions import Action, ActionKind
from engine.dice import ScriptedDice
from engine.errors import EngineError
from engine.geometry import Grid, Table
from engine.protocols import PendingKind
from engine.rulesets.narrative.ruleset import NarrativeRuleset
from engine.rulesets.narrative.state import with_rules
from engine.runner import controllers_for
from engine.scenario import ScenarioError, cell_name, parse_cell, parse_scenario

ROOT = Path(__file__).resolve().parents[2]
CROSSROADS = ROOT / "assistant" / "data" / "scenarios" / "crossroads-ambush.toml"

GRIDDED = """
version = 1
[scenario]
name = "grid-skirmish"
ruleset = "narrative"
ai_controller = "narrative-ai"

[table]
width_in = 8
depth_in = 10
grid = { cell_in = 1.0 }

[[sides]]
name = "Heroes"
role = "human"
edge = "front"
deployment_cells = ["B10", "C10", [3, 9]]

[[sides]]
name = "Monsters"
role = "ai"
edge = "back"

[[units]]
id = "knight"
name = "Knight"
side = "Heroes"
card = { move_in = 3, attack = 1, defence = 1, wound_slots = 1 }

[[units]]
id = "archer"
name = "Archer"
side = "Heroes"
cell = "D10"
card = { move_in = 3, attack = 0, defence = 0, wound_slots = 0, shoot_range_in = 5 }

[[units]]
id = "troll"
name = "Troll"
side = "Monsters"
cell = [4, 1]
heading = 180
card = { move_in = 2, attack = 1, defence = 1, wound_slots = 2 }

[[units]]
id = "goblin"
name = "Goblin"
side = "Monsters"
cell = "A1"
heading = 180
card = { move_in = 2, attack = 0, defence = 0, wound_slots = 0 }
"""


def test_cells_are_named_like_a_spreadsheet_from_the_far_left_corner() -> None:
    grid = Grid(30, 10, 1.0)
    assert parse_cell("A1", grid) == (0, 0)
    assert parse_cell("c4", grid) == (2, 3)
    assert parse_cell("AA10", grid) == (26, 9)
    assert parse_cell([3, 1], grid) == (3, 1)
    assert cell_name((2, 3)) == "C4" and cell_name((26, 9)) == "AA10"
    for bad in ("A11", "AE1", "4C", [30, 0], [1, 2, 3], [True, 0], 7):
        with pytest.raises(ValueError, match="is not a cell of the 30 x 10 grid"):
            parse_cell(bad, grid)
    assert grid.centre((0, 0)) == (0.5, 9.5)  # row 0 at the far edge


def test_units_stand_at_cell_centres_and_their_cell_follows_them() -> None:
    scenario = parse_scenario(GRIDDED, "grid.toml")
    knight, archer, troll, goblin = scenario.units
    assert (knight.cell, knight.x, knight.y) == ((1, 9), 1.5, 0.5)  # first deployment cell
    assert (archer.cell, archer.x, archer.y) == ((3, 9), 3.5, 0.5)
    assert (troll.cell, troll.x, troll.y) == ((4, 1), 4.5, 8.5)
    assert goblin.cell == (0, 0)
    ruleset = NarrativeRuleset()
    state = ruleset.new_game(scenario)
    assert state.table.grid == Grid(8, 10, 1.0)
    assert [u.cell for u in state.units] == [(1, 9), (3, 9), (4, 1), (0, 0)]
    state = with_rules(state, waiting=PendingKind.CHOOSE_UNIT)
    state = replace(state, round=1, active_side="Heroes")
    step = Action(ActionKind.MOVE, "knight", path=((1.5, 0.5), (1.5, 2.5)))
    after = ruleset.apply(state, step, ScriptedDice([])).state
    assert after.unit("knight").cell == (1, 7)
    off = Table(24, 24).cell_of((30.0, 3.0))
    assert off is None


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('cell = "D10"', 'cell = "D10"\nx = 3.5', r"units\[1\]\.cell: give a cell or x and y"),
        ('cell = "D10"', 'cell = "J10"', r"units\[1\]\.cell: 'J10' is not a cell of the 8 x 10"),
        ("grid = { cell_in = 1.0 }", "", r"units\[1\]\.cell: a cell needs a gridded table"),
        (
            "grid = { cell_in = 1.0 }",
            "grid = { cell_in = 1.0, cols = 9 }",
            r"grid\.toml: table: a grid of 9 x 10 cells of 1 in does not fit the 8 x 10 in table",
        ),
        ('cell = "D10"', 'cell = "D9"', r"units\[1\]: 'archer' stands on D9, not on a deploy"),
        (
            'deployment_cells = ["B10", "C10", [3, 9]]',
            'deployment_cells = ["D10"]',
            r"units\[0\]: give x and y, or a cell \(its side has no free deployment cell\)",
        ),
    ],
)
def test_cell_mistakes_are_one_line_naming_the_field(old: str, new: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        parse_scenario(GRIDDED.replace(old, new, 1), "grid.toml")


NEUTRAL = """
[[sides]]
name = "Citizens"
role = "neutral"
edge = "left"

[[units]]
id = "citizen"
name = "Citizen"
side = "Citizens"
cell = "H5"
card = { move_in = 3, attack = 0, defence = 0, wound_slots = 0 }
"""


def test_a_neutral_side_is_read_and_the_narrative_rules_refuse_it() -> None:
    scenario = parse_scenario(GRIDDED + NEUTRAL, "neutral.toml")
    assert [s.role for s in scenario.sides] == ["human", "ai", "neutral"]
    controllers = controllers_for(scenario)
    assert controllers["Citizens"].name == "narrative-ai"  # the AI's, unless one is named
    with_random = GRIDDED.replace(
        'ai_controller = "narrative-ai"',
        'ai_controller = "narrative-ai"\nneutral_controller = "random"',
    )
    assert (
        controllers_for(parse_scenario(with_random + NEUTRAL, "n.toml"))["Citizens"].name
        == "random"
    )
    with pytest.raises(
        ScenarioError,
        match=r"sides\[2\]\.role: the Solo Narrative Minis Ruleset has no neutral side",
    ):
        NarrativeRuleset().new_game(scenario)
    two_ai = (GRIDDED + NEUTRAL).replace('role = "neutral"', 'role = "ai"')
    with pytest.raises(
        ScenarioError, match="need one side with role 'ai' and one with role 'human'"
    ):
        parse_scenario(two_ai, "two.toml")


def test_simulate_gives_cells_and_the_grid_on_a_gridded_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = CROSSROADS.read_text(encoding="utf-8").replace(
        "depth_in = 24\n", "depth_in = 24\ngrid = { cell_in = 1.0 }\n", 1
    )
    path = tmp_path / "gridded.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["simulate", str(path), "--seed", "3", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    setup = lines[0]
    assert setup["table"] == {
        "width_in": 24.0,
        "depth_in": 24.0,
        "grid": {"cell_in": 1.0, "cols": 24, "rows": 24},
    }
    sergeant = next(u for u in setup["units"] if u["id"] == "sergeant")
    assert sergeant["cell"] == [12, 19]  # x 12, y 4 (the cell from y 4 to 5) on 24 rows
    moves = [d for d in lines if d["type"] == "move"]
    assert moves and all("cells" in d for d in moves)
    grid = Grid(24, 24, 1.0)
    for d in moves:
        first = d["path"][0]
        assert d["cells"][0] == list(grid.cell_at((first[0], first[1])))
        assert list(d)[-1] == "text"
    # Without a grid, the same battle's lines carry no cells.
    assert main(["simulate", str(CROSSROADS), "--seed", "3", "--json"]) == 0
    plain = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert "grid" not in plain[0]["table"] and "cell" not in plain[0]["units"][0]
    assert not any("cells" in d for d in plain if d["type"] == "move")


def test_a_grid_that_does_not_fit_its_table_is_refused() -> None:
    with pytest.raises(EngineError, match="does not fit"):
        Table(8, 8, Grid(9, 8, 1.0))


def test_scenarios_json_names_a_neutral_sides_controller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import assistant.scenarios as scenarios

    with_random = GRIDDED.replace(
        'ai_controller = "narrative-ai"',
        'ai_controller = "narrative-ai"\nneutral_controller = "random"',
    )
    (tmp_path / "market-day.toml").write_text(with_random + NEUTRAL, encoding="utf-8")
    (tmp_path / "plain.toml").write_text(GRIDDED, encoding="utf-8")
    monkeypatch.setattr(scenarios, "_bundled_dir", lambda: tmp_path)
    assert main(["scenarios", "--json"]) == 0
    listed = {s["name"]: s["controllers"] for s in json.loads(capsys.readouterr().out)}
    assert listed["market-day"] == {"ai": "narrative-ai", "human": "autopilot", "neutral": "random"}
    assert "neutral" not in listed["plain"]
