"""The shared phrases of the table, whatever the ruleset: distances, turns, landmarks,
corrections and events as the assistant says them.

"turn left about 40 degrees", "4 and a half inches", "toward the standing stones".
Distances in inches, turns in degrees rounded to 5; on a square grid, squares by name ("put
the Dragon on A8") and facings as compass words glossed from the player's seat ("south, toward
you"). How a ruleset's orders are spoken is its table adapter's business
(:mod:`assistant.tables`).
"""

from __future__ import annotations

import math

from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from engine.actions import Event, EventType
from engine.geometry import Cover, CoverArea, Edge, Grid, Point, wrap180
from engine.model import GameState, Unit
from engine.scenario import cell_name

#: A landmark is named when the destination lies within this many inches of it.
LANDMARK_RADIUS_IN = 3.0
#: Turns smaller than this many degrees are not mentioned.
SMALL_TURN_DEG = 10.0

COMPASS_WORDS = (
    "north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west",
)  # fmt: skip
"""The eight compass words, clockwise from 0 degrees (north = the far edge of the table)."""
SEAT_WORDS = (
    "away from you", "away from you and to the right", "to your right",
    "toward you and to the right", "toward you", "toward you and to the left", "to your left",
    "away from you and to the left",
)  # fmt: skip
"""The same eight directions from the player's seat."""


def _round5(deg: float) -> int:
    return int(5 * round(abs(deg) / 5))


def turn_phrase(from_deg: float, to_deg: float) -> str:
    """ "turn left about 40 degrees" (empty for a small turn)."""
    turn = wrap180(to_deg - from_deg)
    if abs(turn) < SMALL_TURN_DEG:
        return ""
    if abs(turn) > 170:
        return "turn about"
    side = "right" if turn > 0 else "left"
    return f"turn {side} about {_round5(turn)} degrees"


def inches(distance_in: float) -> str:
    """A distance as spoken: "4 and a half inches", "1 inch", "6 inches"."""
    halves = round(distance_in * 2)
    whole, half = divmod(halves, 2)
    if whole == 0 and half:
        return "half an inch"
    text = f"{whole}" + (" and a half" if half else "")
    return f"{text} inch" if (whole == 1 and not half) else f"{text} inches"


def landmark(state: GameState, point: Point, exclude: str | None = None) -> str:
    """The nearest terrain piece, unit or table edge to ``point``, for "toward the ..."."""
    best: tuple[float, str] | None = None
    p = ShapelyPoint(point)
    for piece in state.terrain:
        d = Polygon(piece.polygon).distance(p)
        if d <= LANDMARK_RADIUS_IN and (best is None or d < best[0]):
            best = (d, piece.name)
    if best is not None:
        return best[1]
    for unit in state.units:
        if unit.on_table and unit.id != exclude:
            d = math.dist(unit.position, point) - unit.radius_in
            if d <= LANDMARK_RADIUS_IN and (best is None or d < best[0]):
                best = (d, unit.name)
    if best is not None:
        return best[1]
    edges = {edge: state.table.edge_distance_in(point, edge) for edge in Edge}
    nearest_edge = min(edges, key=lambda e: edges[e])
    names = {
        Edge.FRONT: "your edge",
        Edge.BACK: "the far edge",
        Edge.LEFT: "the left edge",
        Edge.RIGHT: "the right edge",
    }
    return names[nearest_edge]


def event_text(event: Event) -> str | None:
    """What to say for an engine event (None for events the order already said)."""
    if event.type in (EventType.ORDER, EventType.ACTIVATION, EventType.MOVE):
        return None
    return event.text


def correction_text(unit: Unit, dx_in: float, dy_in: float, dheading_deg: float) -> str:
    """How to fix a misplaced model, from the player's seat: "Move Raider Chief 0.5 inches
    toward you and 1 inch to the right, and turn it 20 degrees left."
    """
    bits = []
    if abs(dy_in) >= 0.1:
        bits.append(f"{abs(dy_in):.1f} inches " + ("away from you" if dy_in > 0 else "toward you"))
    if abs(dx_in) >= 0.1:
        bits.append(f"{abs(dx_in):.1f} inches to the " + ("right" if dx_in > 0 else "left"))
    text = f"Move {unit.name} " + " and ".join(bits) if bits else f"{unit.name} is in place"
    if abs(dheading_deg) >= 5:
        side = "right" if dheading_deg > 0 else "left"
        text += (
            f", and turn it about {_round5(dheading_deg)} degrees {side}"
            if bits
            else f"; turn it about {_round5(dheading_deg)} degrees {side}"
        )
    return text + "."


def cover_areas(state: GameState) -> tuple[CoverArea, ...]:
    """Terrain that gives cover, as geometry."""
    return tuple(
        CoverArea(piece.name, Polygon(piece.polygon), Cover(piece.cover))
        for piece in state.terrain
        if piece.cover != "none"
    )


def compass_facing(heading_deg: float) -> str:
    """A facing as a compass word glossed from the player's seat: "south, toward you"."""
    index = round((heading_deg % 360.0) / 45.0) % 8
    return f"{COMPASS_WORDS[index]}, {SEAT_WORDS[index]}"


def square_correction(
    name: str,
    grid: Grid,
    want: tuple[float, float, float],
    seen: tuple[float, float, float],
    facing_tol_deg: float,
    back: bool = False,
) -> str:
    """How to fix a model on a square grid, by squares, never inches: "Put the Dragon on A8,
    facing south, toward you." ``want`` and ``seen`` are (x, y, heading) in inches and degrees;
    ``back`` says it returns to a square it left ("Put the Dragon back on A8.")."""
    square = cell_name(grid.cell_at(want[:2]))
    turn = abs(wrap180(want[2] - seen[2])) > facing_tol_deg
    facing = f"facing {compass_facing(want[2])}"
    if grid.cell_at(want[:2]) == grid.cell_at(seen[:2]):
        if turn:
            return f"Turn {name} to face {compass_facing(want[2])}."
        return f"Centre {name} on {square}."
    where = f"Put {name} {'back ' if back else ''}on {square}"
    return f"{where}, {facing}." if turn else f"{where}."


def back_words(state: GameState, unit: Unit, name: str) -> str:
    """Where to put a model back after an undo: "the Troll back on C4" on a grid, else
    "Sergeant Ash back to (6.0, 3.5)" (inches)."""
    grid = state.table.grid
    if grid is not None:
        return f"{name} back on {cell_name(grid.cell_at(unit.position))}"
    return f"{name} back to ({unit.x:.1f}, {unit.y:.1f})"
