"""Table geometry for the engine, in inches and degrees (RULES.md §1).

Origin at the player's left front corner, +x right, +y away from the player; headings are
compass style (0 = +y, clockwise positive) in [0, 360). Built on shapely 2; round bases are
handled with exact circle maths wherever possible.

Modules: ``angles`` (points, headings, arcs, distances), ``table`` (edges, nearest edge),
``sight`` (obstacles, line of sight, cover), ``collide`` (fast base-vs-obstacle tests),
``movement`` (leg costs, path checks), ``pathfind`` (is a point reachable), ``steering`` and
``raysearch`` (move toward a point or an edge), ``grid`` (grid mode: cells, Chebyshev distance,
the cells a sight line crosses; moves and sight on them are ``engine.boards.grid``).
"""

from engine.geometry.angles import (
    ARC_TOL_DEG,
    EPS_IN,
    Point,
    advance,
    bearing_deg,
    centre_distance_in,
    edge_gap_in,
    heading_vector,
    in_contact,
    in_forward_arc,
    normalize_deg,
    point_gap_in,
    polygon_gap_in,
    relative_bearing_deg,
    segment_point_distance_in,
    within_in,
    wrap180,
)
from engine.geometry.collide import ObstacleSet
from engine.geometry.grid import (
    Cell,
    Grid,
    GridLine,
    adjacent,
    chebyshev,
    grid_line,
    step_facing_deg,
)
from engine.geometry.movement import (
    DifficultGround,
    GeometryError,
    MoveArea,
    PathCheck,
    base_overlaps,
    check_path,
    check_path_any,
    leg_blockers,
    leg_cost_in,
    path_cost_in,
    straight_split,
    swept_base,
)
from engine.geometry.pathfind import find_path
from engine.geometry.sight import (
    Cover,
    CoverArea,
    Obstacle,
    Sight,
    base_obstacle,
    base_shape,
    cover_between,
    line_of_sight,
    tangent_lines,
)
from engine.geometry.steering import best_move_toward, straight_run, toward_edge_path
from engine.geometry.table import EDGE_ORDER, Edge, Table
from engine.geometry.vantage import SightMap, shortest_view_move, sight_map

__all__ = [
    "ARC_TOL_DEG",
    "EDGE_ORDER",
    "EPS_IN",
    "Cell",
    "Cover",
    "CoverArea",
    "DifficultGround",
    "Edge",
    "GeometryError",
    "Grid",
    "GridLine",
    "MoveArea",
    "Obstacle",
    "ObstacleSet",
    "PathCheck",
    "Point",
    "Sight",
    "SightMap",
    "Table",
    "adjacent",
    "advance",
    "base_obstacle",
    "base_overlaps",
    "base_shape",
    "bearing_deg",
    "best_move_toward",
    "centre_distance_in",
    "chebyshev",
    "check_path",
    "check_path_any",
    "cover_between",
    "edge_gap_in",
    "find_path",
    "grid_line",
    "heading_vector",
    "in_contact",
    "in_forward_arc",
    "leg_blockers",
    "leg_cost_in",
    "line_of_sight",
    "normalize_deg",
    "path_cost_in",
    "point_gap_in",
    "polygon_gap_in",
    "relative_bearing_deg",
    "segment_point_distance_in",
    "shortest_view_move",
    "sight_map",
    "step_facing_deg",
    "straight_run",
    "straight_split",
    "swept_base",
    "tangent_lines",
    "toward_edge_path",
    "within_in",
    "wrap180",
]
