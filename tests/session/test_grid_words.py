"""On a square grid the assistant names squares, never inches (issue 23): a correction ("Put the
Troll at C4 on C5."), an undo ("Put Troll 1 back on E2."), a model out of place in set-up; and a
facing said by the compass is glossed from the player's seat ("south, toward you")."""

from __future__ import annotations

from assistant.session.announce import compass_facing, square_correction
from assistant.session.game import Stage
from assistant.session.observation import PieceSeen
from assistant.session.setup_check import unit_problem
from engine.geometry import Grid
from tests.session.live_games import live_game
from tests.session.virtual_table import VirtualTable

GRID = Grid(8, 8, 1.0)
A8 = GRID.centre((0, 7))
C4 = GRID.centre((2, 3))


def test_a_correction_on_a_grid_names_the_square_and_the_facing() -> None:
    assert square_correction("the Dragon", GRID, (*A8, 180.0), (*C4, 180.0), 22.5) == (
        "Put the Dragon on A8."
    )
    assert square_correction("the Dragon", GRID, (*A8, 180.0), (*C4, 0.0), 22.5) == (
        "Put the Dragon on A8, facing south, toward you."
    )
    assert square_correction("the Dragon", GRID, (*A8, 90.0), (*A8, 0.0), 22.5) == (
        "Turn the Dragon to face east, to your right."
    )
    assert square_correction("the Dragon", GRID, (*A8, 0.0), (*C4, 0.0), 22.5, back=True) == (
        "Put the Dragon back on A8."
    )
    assert compass_facing(315.0) == "north-west, away from you and to the left"


def test_set_up_on_a_grid_says_squares() -> None:
    seen = PieceSeen(*C4, 0.0)
    assert unit_problem("Troll 1", (), A8, seen, GRID) == "Put Troll 1 on A8."
    assert unit_problem("Troll 1", (), C4, seen, GRID) is None
    zone = ((0.0, 0.0), (8.0, 0.0), (8.0, 2.0), (0.0, 2.0))  # the two near rows
    words = unit_problem("Troll 1", zone, A8, seen, GRID)
    assert words == "Move Troll 1 into its deployment zone: 3 squares toward you."


def test_an_undo_on_the_grid_says_where_to_put_the_model_back_by_square() -> None:
    said: list[str] = []
    game = live_game("dungeon-crawl", 1, said)[0]
    table = VirtualTable(game)
    for _ in range(500):
        moved = game.stage is Stage.AI_ORDER and game.expected is not None
        if moved and game.expected is not None and game.expected.moves:
            break
        table.step()
    exp = game.expected
    assert exp is not None
    before = game.state.unit(exp.unit_id)
    assert before.cell is not None
    table.act()
    table.step()  # the order carried out
    assert game.state.unit(exp.unit_id).cell != before.cell
    while game.state.unit(exp.unit_id).cell != before.cell:
        game.undo()
    undone = [s for s in said if s.startswith("Undone.") and before.name in s]
    square = "ABCDEFGH"[before.cell[0]] + str(before.cell[1] + 1)
    assert undone and f"Put {before.name} back on {square}" in undone[-1]
    assert "inch" not in undone[-1] and "(" not in undone[-1]
