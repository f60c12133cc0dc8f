"""Generated grid games (RULES §6.b, D004-15/16): T004-11 by scripted dice, the obstacle
odds, the 8 x 10 sheet's deployment, and ``soloscope generate grid`` writing a scenario the
other commands play."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from assistant.cli import main
from engine.dice import ScriptedDice, SeededDice
from engine.generators.grid import (
    GridGame,
    GridKind,
    chessboard,
    chessboard_cell,
    sheet,
)
from engine.scenario import parse_scenario
from tests.dungeon.boards import ruleset

OBSTACLE_ROLLS = [
    (3, 1),
    (3, 3),
    (4, 5),
    (5, 7),
    (6, 2),
    (4, 5),  # a duplicate: re-rolled
    (6, 8),
    (5, 4),
    (3, 8),
]
DEPLOY_ROLLS = [(c, 2) for c in range(1, 8)]


def test_t004_11_chessboard_obstacles_by_scripted_dice() -> None:
    script = [3, 4] + [d for pair in OBSTACLE_ROLLS + DEPLOY_ROLLS for d in pair]
    dice = ScriptedDice(script)
    game = chessboard(dice)
    assert dice.remaining == 0
    assert game.obstacle_count == 8 and len(game.obstacles) == 8
    assert game.obstacles == (
        (0, 5),
        (2, 5),
        (4, 4),
        (6, 3),
        (1, 2),
        (7, 2),
        (3, 3),
        (7, 5),
    )
    rerolled = [p for p in game.placements if p.rerolled]
    assert [(p.dice, p.rerolled) for p in rerolled] == [((4, 5), "already an obstacle")]
    assert all("2d8" in r.purpose for r in dice.rolls[2:20])
    cells = {f.cell for f in game.figures}
    assert len(cells) == 15 and not cells & set(game.obstacles)


def test_obstacles_never_on_a_deployment_square() -> None:
    # 2d6 = (1, 1): three obstacles; (rank 1, file 3) is C8, a hero square: re-rolled.
    script = [1, 1, 1, 3, 3, 1, 4, 4, 5, 5] + [d for pair in DEPLOY_ROLLS for d in pair]
    game = chessboard(ScriptedDice(script))
    assert game.placements[0].rerolled == "a deployment square"
    assert game.obstacles == ((0, 5), (3, 4), (4, 3))


def test_obstacle_count_2d6_plus_1_odds() -> None:
    odds: Counter[int] = Counter()
    for a, b in product(range(1, 7), repeat=2):
        game = GridGame(GridKind.CHESSBOARD, 8, 8, (a, b), (), (), (), (), ())
        odds[game.obstacle_count] += 1
    assert {k: Fraction(n, 36) for k, n in odds.items()} == {
        k: Fraction(6 - abs(k - 8), 36) for k in range(3, 14)
    }
    assert sum(k * n for k, n in odds.items()) / 36 == 8


def test_each_2d8_roll_is_one_square_of_64() -> None:
    cells = {chessboard_cell(r, f) for r, f in product(range(1, 9), repeat=2)}
    assert cells == {(c, r) for c in range(8) for r in range(8)}
    assert chessboard_cell(1, 1) == (0, 7)  # rank 1, file 1: the near left corner


@pytest.mark.parametrize("seed", range(1, 9))
def test_sheet_has_10_to_15_obstacles_and_five_squares_each_side(seed: int) -> None:
    game = sheet(SeededDice(seed))
    assert (game.cols, game.rows) == (8, 10)
    assert 10 <= len(game.obstacles) == game.obstacle_count <= 15
    assert game.hero_cells == tuple((c, 9) for c in range(5))
    assert game.enemy_cells == tuple((c, 0) for c in range(3, 8))
    assert not set(game.obstacles) & (set(game.hero_cells) | set(game.enemy_cells))
    heroes = [f for f in game.figures if f.side == "hero"]
    enemies = [f for f in game.figures if f.side == "enemy"]
    assert len(heroes) == 4 and len(enemies) == 11
    assert all(f.cell in game.hero_cells for f in heroes)
    assert next(f for f in enemies if f.kind == "dragon").cell == (5, 0)
    assert all(f.cell[1] < 5 for f in enemies)


@pytest.mark.parametrize("kind", ["chessboard", "sheet"])
def test_generate_grid_writes_a_scenario_simulate_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    out = tmp_path / f"{kind}.toml"
    assert main(["generate", "grid", "--kind", kind, "--seed", "5", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "#" in printed and str(out) in printed
    scenario = parse_scenario(out.read_text(encoding="utf-8"), out.name)
    state = ruleset().new_game(scenario)
    assert len(state.units) == 15
    assert main(["simulate", str(out), "--seed", "2", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["type"] == "setup" and lines[-1]["type"] == "end"
    again = tmp_path / "again.toml"
    assert main(["generate", "grid", "--kind", kind, "--seed", "5", "--out", str(again)]) == 0
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")


def test_generate_grid_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "grid", "--kind", "sheet", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "sheet" and (data["cols"], data["rows"]) == (8, 10)
    assert len(data["units"]) == 15 and 10 <= len(data["obstacles"]) <= 15


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--out", "board.txt"], "--out must name a .toml file"),
        (["--seed", "x"], "--seed must be a whole number"),
    ],
)
def test_generate_grid_bad_flags_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    assert main(["generate", "grid", "--kind", "chessboard", *args]) != 0
    err = capsys.readouterr().err.strip()
    assert said in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(("count", "p"), [(3, Fraction(95, 2048)), (8, 0.3660), (13, 0.7293)])
def test_d004_15_duplicate_odds_without_re_rolls(count: int, p: Fraction | float) -> None:
    """Why duplicates are re-rolled: without it two of the 2d8 squares coincide this often."""
    distinct = Fraction(1)
    for i in range(count):
        distinct *= Fraction(64 - i, 64)
    if isinstance(p, Fraction):
        assert 1 - distinct == p
    else:
        assert round(float(1 - distinct), 4) == p
    average = sum(
        (Fraction(6 - abs(k - 8), 36) * (1 - _distinct(k)) for k in range(3, 14)), Fraction(0)
    )
    assert round(float(average), 4) == 0.3706


def _distinct(count: int) -> Fraction:
    out = Fraction(1)
    for i in range(count):
        out *= Fraction(64 - i, 64)
    return out
