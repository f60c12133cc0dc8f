"""The table rectangle, its four edges and the nearest-edge rule (G-05, G-06), in inches."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import shapely
from shapely.geometry import Polygon

from engine.errors import EngineError
from engine.geometry.angles import EPS_IN, Point
from engine.geometry.grid import Cell, Grid

EDGE_TIE_IN = 1e-9
"""Two centre-to-edge distances closer than this (inches) are an exact tie (G-05)."""


class Edge(StrEnum):
    """A table edge, named from the human player's seat."""

    FRONT = "front"
    """y = 0, the human player's edge."""
    RIGHT = "right"
    """x = width."""
    BACK = "back"
    """y = depth, the far edge."""
    LEFT = "left"
    """x = 0."""


EDGE_ORDER: tuple[Edge, ...] = (Edge.FRONT, Edge.RIGHT, Edge.BACK, Edge.LEFT)
"""The fixed order used when nothing else breaks a tie between edges."""

_EDGE_HEADING_DEG = {Edge.BACK: 0.0, Edge.RIGHT: 90.0, Edge.FRONT: 180.0, Edge.LEFT: 270.0}


@dataclass(frozen=True)
class Table:
    """The playing area: a rectangle from (0, 0) to (width_in, depth_in), in inches, with a
    square grid laid on it from the front left corner when the rules play on one (RULES §1.1;
    positions stay in inches, at cell centres)."""

    width_in: float = 24.0
    """Size along x, inches."""
    depth_in: float = 24.0
    """Size along y (away from the player), inches."""
    grid: Grid | None = None
    """The grid of a gridded table (row 0 at the far edge of the grid), else None."""

    def __post_init__(self) -> None:
        grid = self.grid
        if grid is not None and (
            grid.cols * grid.cell_in > self.width_in + EPS_IN
            or grid.rows * grid.cell_in > self.depth_in + EPS_IN
        ):
            raise EngineError(
                f"a grid of {grid.cols} x {grid.rows} cells of {grid.cell_in:g} in does not fit "
                f"a {self.width_in:g} x {self.depth_in:g} in table"
            )

    def cell_of(self, p: Point) -> Cell | None:
        """The grid cell holding the point (inches), or None: no grid, or off the grid."""
        if self.grid is None:
            return None
        cell = self.grid.cell_at(p)
        return cell if self.grid.contains(cell) else None

    def contains_base(self, c: Point, r: float) -> bool:
        """Whether a round base (centre ``c``, radius ``r`` inches) lies wholly on the table.

        A base touching an edge (within 1e-6 in) is on the table.
        """
        x, y = c
        return (
            x - r >= -EPS_IN
            and y - r >= -EPS_IN
            and x + r <= self.width_in + EPS_IN
            and y + r <= self.depth_in + EPS_IN
        )

    def edge_distance_in(self, c: Point, edge: Edge) -> float:
        """Distance in inches from the point ``c`` (a base centre) to the line of ``edge``.

        Negative when ``c`` lies beyond the edge.
        """
        x, y = c
        if edge is Edge.FRONT:
            return y
        if edge is Edge.RIGHT:
            return self.width_in - x
        if edge is Edge.BACK:
            return self.depth_in - y
        return x

    def nearest_edges(self, c: Point) -> tuple[Edge, ...]:
        """Every edge whose centre distance ties at the minimum (within 1e-9 in), FRONT first."""
        dists = [(edge, self.edge_distance_in(c, edge)) for edge in EDGE_ORDER]
        best = min(d for _, d in dists)
        return tuple(edge for edge, d in dists if d <= best + EDGE_TIE_IN)

    def nearest_edge(
        self,
        c: Point,
        own_edge: Edge | None = None,
        tiebreak: Callable[[Sequence[Edge]], Edge] | None = None,
    ) -> Edge:
        """The table edge nearest to the centre ``c`` (G-05).

        An exact tie goes to ``own_edge`` (the figure's deployment edge) when it is among the
        tied edges, else to ``tiebreak(tied)``: the caller's logged random choice, which a tie
        left unresolved by the own edge needs (without one that is an error: G-05 never lets a
        fixed order decide).
        """
        tied = self.nearest_edges(c)
        if len(tied) == 1:
            return tied[0]
        if own_edge is not None and own_edge in tied:
            return own_edge
        if tiebreak is None:
            names = " and ".join(e.value for e in tied)
            raise EngineError(
                f"the {names} edges are equally near: a roll must choose between them"
            )
        return tiebreak(tied)

    def edge_heading_deg(self, edge: Edge) -> float:
        """The compass heading in degrees pointing straight at ``edge``.

        BACK 0, RIGHT 90, FRONT 180, LEFT 270.
        """
        return _EDGE_HEADING_DEG[edge]

    def polygon(self) -> Polygon:
        """The table as a shapely rectangle, inches."""
        return shapely.box(0.0, 0.0, self.width_in, self.depth_in)
