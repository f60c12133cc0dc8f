"""Generated grid games of seed 004 (RULES §6.b, D004-15, D004-16): a chessboard with 2d6 + 1
obstacles placed by 2d8, or an 8 x 10 sheet with 10 to 15 obstacles and five deployment
squares on each short side; the Dungeon Crawl's figures deployed on them.

Cells are (col, row), row 0 at the far edge. A chessboard's rank 1 is the near row (row 7) and
file 1 the left column: a 2d8 roll (rank, file) is the cell (file - 1, 8 - rank). Every die
goes through the given random source, so a seed (or a script) gives the same board.

Decisions: obstacles landing on a deployment square or on an obstacle are re-rolled
(D004-15); so is one that would cut the open squares in two (every figure must be able to
reach every other; not in the seed). The sheet's obstacle count is 9 + d6 (10 to 15, each
1/6); its obstacles are placed by a d8 column and a d10 row. Forces: the four Dungeon Crawl
heroes against its dragon (the Arch Foe) and five Minion Teams (4 heroes + 1: three goblin
pairs and two troll pairs, RULES §6.j). Heroes stand on their deployment squares facing the
enemy; the Arch Foe in the middle of the enemies' squares; the other enemies on the rest of
them and then spread at random over the enemies' half (RULES §6.b), all facing the heroes.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import StrEnum

from engine.dice import RandomSource
from engine.geometry.grid import Cell

HEROES: tuple[tuple[str, str, str], ...] = (
    ("fighting-man", "Fighting Man", "fighting_man"),
    ("magic-user", "Magic User", "magic_user"),
    ("thief", "Thief", "thief"),
    ("priest", "Priest", "priest"),
)
"""(id, name, card kind) of the heroes, in their order of play."""
ENEMIES: tuple[tuple[str, str, str, str | None], ...] = (
    ("dragon", "Dragon", "dragon", None),
    *((f"troll-{i}", f"Troll {i}", "troll", f"trolls-{(i + 1) // 2}") for i in range(1, 5)),
    *((f"goblin-{i}", f"Goblin {i}", "goblin", f"goblins-{(i + 1) // 2}") for i in range(1, 7)),
)
"""(id, name, card kind, minion team) of the enemies: the Arch Foe first."""


class GridKind(StrEnum):
    """Which board (RULES §6.b)."""

    CHESSBOARD = "chessboard"
    SHEET = "sheet"


@dataclass(frozen=True)
class Placement:
    """One obstacle roll: the dice, the cell, and why it was re-rolled (empty: placed)."""

    dice: tuple[int, int]
    cell: Cell
    rerolled: str = ""


@dataclass(frozen=True)
class Figure:
    """A figure of the generated game on its square."""

    id: str
    name: str
    kind: str
    side: str
    """"hero" or "enemy"."""
    cell: Cell
    heading_deg: float
    minion_team: str | None = None


@dataclass(frozen=True)
class GridGame:
    """A generated board and its deployment."""

    kind: GridKind
    cols: int
    rows: int
    count_dice: tuple[int, ...]
    """The dice of the obstacle count (2d6 on a chessboard, one d6 on the sheet)."""
    obstacles: tuple[Cell, ...]
    placements: tuple[Placement, ...]
    hero_cells: tuple[Cell, ...]
    enemy_cells: tuple[Cell, ...]
    """The deployment squares of each side."""
    figures: tuple[Figure, ...]

    @property
    def obstacle_count(self) -> int:
        """How many obstacles the count roll asked for."""
        if self.kind is GridKind.CHESSBOARD:
            return sum(self.count_dice) + 1
        return 9 + self.count_dice[0]


def chessboard_cell(rank: int, file: int) -> Cell:
    """The cell of a 2d8 roll: rank 1 is the near row (row 7), file 1 the left column."""
    return (file - 1, 8 - rank)


def _connected(cols: int, rows: int, blocked: set[Cell]) -> bool:
    """Whether every open square reaches every other (8-connected, no corner cutting)."""
    open_cells = [(c, r) for r in range(rows) for c in range(cols) if (c, r) not in blocked]
    if not open_cells:
        return False
    seen = {open_cells[0]}
    todo = deque([open_cells[0]])
    while todo:
        c, r = todo.popleft()
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                nxt = (c + dc, r + dr)
                if nxt in seen or nxt in blocked or not (0 <= nxt[0] < cols and 0 <= nxt[1] < rows):
                    continue
                if dc and dr and (c + dc, r) in blocked and (c, r + dr) in blocked:
                    continue
                seen.add(nxt)
                todo.append(nxt)
    return len(seen) == len(open_cells)


def _place_obstacles(
    dice: RandomSource,
    count: int,
    cols: int,
    rows: int,
    keep_clear: set[Cell],
    chess: bool,
) -> tuple[list[Cell], list[Placement]]:
    """Roll ``count`` obstacle squares, re-rolling duplicates, deployment squares and cuts:
    a 2d8 (rank, file) on a chessboard, else a d``cols`` column and a d``rows`` row."""
    first, second = (
        ("rank (2d8)", "file (2d8)") if chess else (f"column (d{cols})", f"row (d{rows})")
    )
    cells: list[Cell] = []
    log: list[Placement] = []
    while len(cells) < count:
        n = len(cells) + 1
        a = dice.roll(8 if chess else cols, f"obstacle {n}: {first}")
        b = dice.roll(8 if chess else rows, f"obstacle {n}: {second}")
        cell = chessboard_cell(a, b) if chess else (a - 1, b - 1)
        why = ""
        if cell in cells:
            why = "already an obstacle"
        elif cell in keep_clear:
            why = "a deployment square"
        elif not _connected(cols, rows, {*cells, cell}):
            why = "it would cut the board in two"
        log.append(Placement((a, b), cell, why))
        if not why:
            cells.append(cell)
    return cells, log


def _deploy(
    dice: RandomSource,
    cols: int,
    rows: int,
    hero_cells: tuple[Cell, ...],
    enemy_cells: tuple[Cell, ...],
    obstacles: set[Cell],
) -> tuple[Figure, ...]:
    """Heroes on their squares; the Arch Foe mid-way along the enemies' squares, the others
    on the rest and then at random (d8 column, d-rows row) in the enemies' half."""
    figures = [
        Figure(uid, name, kind, "hero", cell, 0.0)
        for (uid, name, kind), cell in zip(HEROES, hero_cells, strict=False)
    ]
    middle = len(enemy_cells) // 2
    ordered = [enemy_cells[middle], *enemy_cells[:middle], *enemy_cells[middle + 1 :]]
    taken = set(hero_cells) | set(obstacles)
    half = rows // 2
    for i, (uid, name, kind, team) in enumerate(ENEMIES):
        if i < len(ordered):
            cell = ordered[i]
        else:
            while True:
                col = dice.roll(cols, f"deploy {name}: column")
                row = dice.roll(half, f"deploy {name}: row")
                cell = (col - 1, row - 1)
                if cell not in taken:
                    break
        taken.add(cell)
        figures.append(Figure(uid, name, kind, "enemy", cell, 180.0, team))
    return tuple(figures)


def chessboard(dice: RandomSource) -> GridGame:
    """An 8 x 8 chessboard game: 2d6 + 1 obstacles, each at a 2d8 (rank, file) (D004-15);
    heroes on the middle four squares of rank 1, enemies on the middle four of rank 8."""
    count_dice = (
        dice.roll(6, "obstacles: 2d6 + 1 (first die)"),
        dice.roll(6, "obstacles: 2d6 + 1 (second die)"),
    )
    hero_cells = tuple((c, 7) for c in range(2, 6))
    enemy_cells = tuple((c, 0) for c in range(2, 6))
    count = sum(count_dice) + 1
    cells, log = _place_obstacles(dice, count, 8, 8, set(hero_cells) | set(enemy_cells), chess=True)
    figures = _deploy(dice, 8, 8, hero_cells, enemy_cells, set(cells))
    return GridGame(
        GridKind.CHESSBOARD,
        8,
        8,
        count_dice,
        tuple(cells),
        tuple(log),
        hero_cells,
        enemy_cells,
        figures,
    )


def sheet(dice: RandomSource) -> GridGame:
    """An 8 x 10 sheet of 1-in squares: 10-15 obstacles; five adjacent deployment squares on
    each short side, diagonally opposite (heroes from column 0 on the near side, enemies up to
    column 7 on the far side, D004-16)."""
    count_dice = (dice.roll(6, "obstacles: 9 + d6"),)
    hero_cells = tuple((c, 9) for c in range(0, 5))
    enemy_cells = tuple((c, 0) for c in range(3, 8))
    cells, log = _place_obstacles(
        dice, 9 + count_dice[0], 8, 10, set(hero_cells) | set(enemy_cells), chess=False
    )
    figures = _deploy(dice, 8, 10, hero_cells, enemy_cells, set(cells))
    return GridGame(
        GridKind.SHEET,
        8,
        10,
        count_dice,
        tuple(cells),
        tuple(log),
        hero_cells,
        enemy_cells,
        figures,
    )


def generate_grid(kind: GridKind, dice: RandomSource) -> GridGame:
    """The generated game of that kind."""
    return chessboard(dice) if kind is GridKind.CHESSBOARD else sheet(dice)
