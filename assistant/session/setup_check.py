"""The set-up check before a battle: does the table match the scenario (issue 13)?

Every tagged terrain piece must stand with each of its tags within ``TERRAIN_POSITION_IN``
(0.5 in) and ``TERRAIN_FACING_DEG`` (15 degrees) of where the scenario (and its set-up
sheet) puts it, and every model in its side's deployment zone (or, for a side without a
zone, within 1 in of its scenario position). Each problem is one sentence saying what to
move, piece by piece, from the player's seat ("Move heavy woods 1 (tag 10) 2 inches away
from you and 1 inch to the right, and turn it about 30 degrees right."); amounts are rounded
to half inches and 5 degrees, so a sentence repeats only when the piece was moved. A
scenario without tagged terrain or zones has nothing of that kind to check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import Point, Polygon
from shapely.ops import nearest_points

from assistant.pieces import MM_PER_INCH
from assistant.session.observation import Observation, PieceSeen
from engine.geometry import wrap180
from engine.model import GameState
from engine.scenario import Scenario, TagSpec, TerrainSpec

TERRAIN_POSITION_IN = 0.5
"""A terrain tag this close to where the scenario puts it is in place, inches."""

TERRAIN_FACING_DEG = 15.0
"""...and turned no more than this from its place, degrees."""

UNIT_PLACE_IN = 1.0
"""A model of a side without a deployment zone stands this close to its scenario place."""

ZONE_SLACK_IN = 0.01
"""A model whose centre is this close outside its zone is inside (camera jitter), inches."""


@dataclass(frozen=True)
class TerrainPlace:
    """Where a tagged terrain piece belongs: its reference point (the polygon's centroid),
    heading 0, and its tags."""

    id: str
    name: str
    x_in: float
    y_in: float
    tags: tuple[TagSpec, ...]


def terrain_places(scenario: Scenario) -> tuple[TerrainPlace, ...]:
    """The scenario's tagged terrain pieces (untagged ones are not checked)."""
    return tuple(_place(t) for t in scenario.terrain if t.tags)


def _place(t: TerrainSpec) -> TerrainPlace:
    c = Polygon(t.polygon).centroid
    return TerrainPlace(t.id, t.name, float(c.x), float(c.y), t.tags)


def tag_point(x_in: float, y_in: float, heading_deg: float, tag: TagSpec) -> tuple[float, float]:
    """Where a tag sits on a piece standing at (x, y) facing ``heading_deg``, inches."""
    h = math.radians(heading_deg)
    fwd, right = tag.forward_mm / MM_PER_INCH, tag.right_mm / MM_PER_INCH
    return (
        x_in + fwd * math.sin(h) + right * math.cos(h),
        y_in + fwd * math.cos(h) - right * math.sin(h),
    )


def _half(value: float) -> float:
    """To the nearest half, halves up."""
    return math.floor(abs(value) * 2 + 0.5) / 2


def _five(value: float) -> int:
    """To the nearest 5, halves up."""
    return int(math.floor(abs(value) / 5 + 0.5) * 5)


def move_words(dx_in: float, dy_in: float, turn_deg: float = 0.0) -> str:
    """ "2 inches away from you and 1 inch to the right, and turn it about 30 degrees right"
    (empty when nothing rounds to a move or a turn)."""
    bits = []
    for amount, positive, negative in ((dy_in, "away from you", "toward you"), (dx_in, "to the right", "to the left")):  # fmt: skip
        inches = _half(amount)
        if inches > 0:
            unit = "inch" if inches == 1 else "inches"
            bits.append(f"{inches:g} {unit} {positive if amount > 0 else negative}")
    text = " and ".join(bits)
    degrees = _five(turn_deg)
    if degrees:
        turn = "turn it around" if degrees >= 180 else (
            f"turn it about {degrees} degrees {_side(turn_deg)}"
        )  # fmt: skip
        text = f"{text}, and {turn}" if text else turn
    return text


def terrain_problem(place: TerrainPlace, seen: PieceSeen) -> str | None:
    """What to do with a terrain piece the camera sees, or None when it is in place."""
    turn = wrap180(0.0 - seen.heading_deg)
    worst = 0.0
    for tag in place.tags:
        want = tag_point(place.x_in, place.y_in, 0.0, tag)
        got = tag_point(seen.x_in, seen.y_in, seen.heading_deg, tag)
        worst = max(worst, math.dist(want, got))
    if worst <= TERRAIN_POSITION_IN and abs(turn) <= TERRAIN_FACING_DEG:
        return None
    # Moving the piece's reference point and then turning it about there puts every tag back.
    dx, dy = place.x_in - seen.x_in, place.y_in - seen.y_in
    tags = ", ".join(str(t.id) for t in place.tags)
    label = f"{place.name} (tag {tags})"
    move = move_words(dx, dy)
    degrees = _five(turn) if abs(turn) > TERRAIN_FACING_DEG else 0
    if not move and not degrees:  # a tag a little off with less than half an inch each way
        return f"Nudge {label} {math.hypot(dx, dy):.1f} inches toward its place on the sheet."
    if not move:
        how = "around" if degrees >= 180 else f"about {degrees} degrees {_side(turn)}"
        return f"Turn {label} {how}."
    return f"Move {label} {move_words(dx, dy, turn if degrees else 0.0)}."


def _side(turn_deg: float) -> str:
    return "right" if turn_deg > 0 else "left"


def unit_problem(
    name: str, zone: tuple[tuple[float, float], ...], place: tuple[float, float], seen: PieceSeen
) -> str | None:
    """What to do with a model outside its deployment zone (or away from its place), or None."""
    here = Point(seen.x_in, seen.y_in)
    if len(zone) >= 3:
        shape = Polygon(zone)
        if shape.buffer(ZONE_SLACK_IN).contains(here):
            return None
        inner = shape.buffer(-0.25)
        target = nearest_points(inner if not inner.is_empty else shape, here)[0]
        words = move_words(target.x - here.x, target.y - here.y) or "a little"
        return f"Move {name} into its deployment zone: {words}."
    if math.dist((seen.x_in, seen.y_in), place) <= UNIT_PLACE_IN:
        return None
    words = move_words(place[0] - seen.x_in, place[1] - seen.y_in)
    return f"Move {name} {words}, to ({place[0]:.0f}, {place[1]:.0f}) inches."


def setup_problems(scenario: Scenario, state: GameState, obs: Observation) -> list[str]:
    """What keeps the table from matching the scenario, one sentence per piece: models
    missing or outside their zones, terrain missing or out of place."""
    problems = []
    zones = {s.name: s.deployment for s in scenario.sides}
    for unit in state.units:
        if not unit.on_table:
            continue
        seen = obs.pieces.get(unit.id)
        if seen is None:
            problems.append(f"{unit.name} is missing.")
            continue
        problem = unit_problem(unit.name, zones.get(unit.side) or (), unit.position, seen)
        if problem:
            problems.append(problem)
    for name in obs.missing_terrain:
        problems.append(f"I can't find {name}.")
    for place in terrain_places(scenario):
        seen = obs.terrain.get(place.id)
        if seen is not None:
            problem = terrain_problem(place, seen)
            if problem:
                problems.append(problem)
    return problems
