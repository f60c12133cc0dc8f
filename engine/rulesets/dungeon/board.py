"""The grid game's board questions (seed 004; RULES §1.2, §1.4, G-03, G-08, D004-02/04/13).

Everything here is in squares: cells are (col, row), row 0 at the far edge (the top of the
seed's map); distance is Chebyshev; facings are multiples of 45 degrees
(``engine.rulesets.dungeon.facing``). Walls are the rock squares of the map; figures stand
one per square.

The squares' mechanics are the grid kit's (``engine.boards.grid``, policy ``POLICY``).
Sight and lines of attack (G-03, D004-10): the straight line of cells between two centres is
blocked by walls and by the *viewer's enemies* other than the target (a viewer's allies never
block); melee along a diagonal is blocked only by two walls touching at the corner.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.board import board_memo
from engine.boards.grid import GridBoard, GridFigures, GridPolicy, grid_board, table_grid
from engine.geometry.grid import Cell, Grid
from engine.model import GameState, Unit, UnitStatus
from engine.rulesets.dungeon.facing import facing_step, in_arc
from engine.rulesets.dungeon.state import card_of, cell_of, rules_of
from engine.scenario import cell_name

ACTIVE = UnitStatus.ACTIVE

POLICY = GridPolicy(figures_cut_corners=True, adjacent_sight_walls_only=True)
"""The grid kit's policy here: allies pass, enemies block moves and sight (G-03); only two
walls stop a diagonal step, and a blow or look along a diagonal to a neighbour (G-08)."""


def label(unit: Unit) -> str:
    """How an order names a figure: "Troll at C4" (its kind and square)."""
    where = f" at {cell_name(unit.cell)}" if unit.cell is not None else ""
    return f"{card_of(unit).title}{where}"


class Board(GridFigures):
    """One moment of the board: the walls' squares in the grid kit and who stands where
    (allies pass, enemies block moves and sight: the kit's figures under ``POLICY``)."""

    @classmethod
    def of(cls, state: GameState) -> Board:
        """The board of a state (remembered in the game's memo for the state, and for the same
        tuple of units and walls: a controller, validate and apply ask for it many times per
        step, and most steps leave the units alone)."""
        answers = state.memo.answers_for(state)
        found: Board | None = answers.get(("dungeon-board",))
        if found is None:
            found = answers[("dungeon-board",)] = cls._of_units(state)
        return found

    @classmethod
    def _of_units(cls, state: GameState) -> Board:
        units, walls = state.units, rules_of(state).walls
        kept = state.memo.remember(("dungeon-board", id(units), id(walls)), cls._kept, state)
        built, grid = kept[2].squares.grid, state.table.grid
        if kept[0] is units and kept[1] is walls and (built is grid or built == grid):
            return kept[2]
        return cls._build(state)  # other objects once had those ids: not the same board

    @classmethod
    def _kept(cls, state: GameState) -> tuple[tuple[Unit, ...], frozenset[Cell], Board]:
        """The board with the objects it is built from (kept alive, so their ids hold)."""
        return state.units, rules_of(state).walls, cls._build(state)

    @classmethod
    def _build(cls, state: GameState) -> Board:
        # ``status is ACTIVE`` is ``on_table`` written out: every new board reads every figure.
        at = {u.cell: u for u in state.units if u.status is ACTIVE and u.cell is not None}
        return cls(squares_of(state, table_grid(state), rules_of(state).walls), at)

    def line_clear(self, viewer: Unit, frm: Cell, target: Unit) -> bool:
        """A straight unblocked line of squares from ``frm`` to the target (G-03): walls and the
        viewer's enemies other than the target block; the viewer's allies do not."""
        return self.squares.sight_clear(frm, cell_of(target), self.enemy_cells(viewer))

    def in_view(self, viewer: Unit, target: Unit, arc_deg: float = 360.0) -> bool:
        """Whether the viewer sees the target: in its forward arc (D004-02) with a clear line."""
        here = cell_of(viewer)
        return in_arc(viewer.heading_deg, here, cell_of(target), arc_deg) and self.line_clear(
            viewer, here, target
        )

    def straight_run(self, start: Cell, heading_deg: float, squares: int) -> list[Cell]:
        """The squares of a move straight ahead of up to ``squares``, stopping before a wall,
        any figure or the board's edge (D004-04)."""
        dc, dr = facing_step(heading_deg)
        out: list[Cell] = []
        here = start
        for _ in range(squares):
            nxt = (here[0] + dc, here[1] + dr)
            if not self.squares.step_ok(here, nxt) or nxt in self.at:
                break
            out.append(nxt)
            here = nxt
        return out

    def reachable(self, unit: Unit, squares: int | None = None) -> dict[Cell, tuple[Cell, ...]]:
        """Every square the unit can end a move on, with a shortest route (the squares entered,
        in order; the unit's own square maps to ``()``). Steps of G-08; a figure may pass
        through its allies but not its enemies, and ends on a free square (RULES §5.f)."""
        limit = card_of(unit).move_sq if squares is None else squares
        return self.routes(unit, cell_of(unit), limit)

    def route_problem(
        self, unit: Unit, cells: Iterable[Cell], movers: str = "it moves"
    ) -> str | None:
        """Why the squares entered one by one are not a legal move of the unit, in squares
        ("the Thief moved 3 squares; heroes move 2" with ``movers`` "heroes move"); None when
        they are."""
        route = list(cells)
        name = card_of(unit).title
        limit = card_of(unit).move_sq
        fault = self.route_fault(unit, cell_of(unit), route, limit)
        if fault is None:
            return None
        at, frm = cell_name(fault.at), cell_name(fault.frm)
        if fault.kind == "too-long":
            plural = "s" if len(route) != 1 else ""
            return f"the {name} moved {len(route)} square{plural}; {movers} {limit}"
        if fault.kind == "off-board":
            return f"the {name} would leave the board"
        if fault.kind == "wall":
            return f"{at} is a wall square"
        if fault.kind == "not-a-step":
            return f"{frm} to {at} is not a one-square step"
        if fault.kind == "corner":
            return f"the {name} cannot cut between two walls at {at}"
        who = self.at[fault.at]
        if fault.kind == "closed":
            return f"the {name} cannot pass through the {card_of(who).title} on {at}"
        return f"{at} is taken by the {card_of(who).title}"


def squares_of(state: GameState, grid: Grid, walls: frozenset[Cell]) -> GridBoard:
    """The walls' squares in the grid kit (walls block both moves and sight): built once per
    terrain among the scenario's terrain answers, and remembered in the game's memo for these
    walls and grid objects (a game keeps both; every new board asks)."""
    kept = state.memo.remember(
        ("dungeon-squares", id(walls), id(grid)), _shared, state, grid, walls
    )
    if kept[0] is walls and kept[1] is grid:
        return kept[2]
    return _shared(state, grid, walls)[2]  # other objects once had those ids


def _shared(
    state: GameState, grid: Grid, walls: frozenset[Cell]
) -> tuple[frozenset[Cell], Grid, GridBoard]:
    """The squares from the terrain answers, with the objects asked about (kept alive, so
    their ids hold)."""
    squares = grid_board(
        board_memo(state),
        ("dungeon", grid, walls),
        lambda: GridBoard(grid, walls, walls, policy=POLICY),
    )
    return walls, grid, squares
