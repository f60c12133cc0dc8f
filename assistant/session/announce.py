"""The shared phrases of the table, whatever the ruleset: distances, turns, landmarks,
corrections and events as the assistant says them.

"turn left about 40 degrees", "4 and a half inches", "toward the standing stones".
Distances in inches, turns in degrees rounded to 5. How a ruleset's orders are spoken is its
table adapter's business (:mod:`assistant.tables`).
"""

from __future__ import annotations

import math

from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from engine.actions import Event, EventType
from engine.geometry import Cover, CoverArea, Edge, Point, wrap180
from engine.model import GameState, Unit

#: A landmark is named when the destination lies within this many inches of it.
LANDMARK_RADIUS_IN = 3.0
#: Turns smaller than this many degrees are not mentioned.
SMALL_TURN_DEG = 10.0


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
