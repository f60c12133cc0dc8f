"""The set-up check before a battle: does the table match the scenario (issue 13)?

Every tagged terrain piece must stand with each of its tags within ``TERRAIN_POSITION_IN``
(0.5 in) and ``TERRAIN_FACING_DEG`` (15 degrees) of where the scenario (and its set-up
sheet) puts it, and every model in its side's deployment zone (or, for a side without a
zone, within 1 in of its scenario position). Each problem is one sentence saying what to
move, piece by piece, from the player's seat ("Move heavy woods 1 (tag 10) 2 inches away
from you and 1 inch to the right, and turn it about 30 degrees right."); amounts are rounded
to half inches and 5 degrees, so a sentence repeats only when the piece was moved. A
scenario without tagged terrain or zones has nothing of that kind to check.

The page shows the whole checklist (:func:`piece_checks`); the voice says only what changed
(:class:`SetupWatch`), one short sentence at a time, and never the whole list again.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Literal

from shapely.geometry import Point, Polygon
from shapely.ops import nearest_points

from assistant.pieces import MM_PER_INCH
from assistant.session.observation import Observation, PieceSeen
from engine.geometry import Grid, wrap180
from engine.model import GameState
from engine.scenario import Scenario, TagSpec, TerrainSpec, cell_name

TERRAIN_POSITION_IN = 0.5
"""A terrain tag this close to where the scenario puts it is in place, inches."""

TERRAIN_FACING_DEG = 15.0
"""...and turned no more than this from its place, degrees."""

UNIT_PLACE_IN = 1.0
"""A model of a side without a deployment zone stands this close to its scenario place."""

ZONE_SLACK_IN = 0.01
"""A model whose centre is this close outside its zone is inside (camera jitter), inches."""

GROUP_OVER = 3
"""More sentences than this of one kind due at once are said as one sentence that counts them."""

CheckState = Literal["ok", "move", "unseen", "by_hand"]


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
    name: str,
    zone: tuple[tuple[float, float], ...],
    place: tuple[float, float],
    seen: PieceSeen,
    grid: Grid | None = None,
) -> str | None:
    """What to do with a model outside its deployment zone (or away from its place), or None.
    On a square grid the way is said in squares, and a place by its square's name."""
    here = Point(seen.x_in, seen.y_in)
    if len(zone) >= 3:
        shape = Polygon(zone)
        if shape.buffer(ZONE_SLACK_IN).contains(here):
            return None
        inner = shape.buffer(-0.25)
        target = nearest_points(inner if not inner.is_empty else shape, here)[0]
        dx, dy = target.x - here.x, target.y - here.y
        words = (square_words(dx, dy, grid) if grid else move_words(dx, dy)) or "a little"
        return f"Move {name} into its deployment zone: {words}."
    if grid is not None:
        square = grid.cell_at(place)
        return None if grid.cell_at((seen.x_in, seen.y_in)) == square else (
            f"Put {name} on {cell_name(square)}."
        )  # fmt: skip
    if math.dist((seen.x_in, seen.y_in), place) <= UNIT_PLACE_IN:
        return None
    words = move_words(place[0] - seen.x_in, place[1] - seen.y_in)
    return f"Move {name} {words}, to ({place[0]:.0f}, {place[1]:.0f}) inches."


def square_words(dx_in: float, dy_in: float, grid: Grid) -> str:
    """ "2 squares away from you and 1 square to the right" (whole squares, at least one)."""
    bits = []
    for amount, positive, negative in ((dy_in, "away from you", "toward you"), (dx_in, "to the right", "to the left")):  # fmt: skip
        squares = math.ceil(abs(amount) / grid.cell_in - 0.05)
        if squares > 0:
            unit = "square" if squares == 1 else "squares"
            bits.append(f"{squares} {unit} {positive if amount > 0 else negative}")
    return " and ".join(bits)


def setup_problems(scenario: Scenario, state: GameState, obs: Observation) -> list[str]:
    """What keeps the table from matching the scenario, one sentence per piece: models
    unseen or outside their zones, terrain unseen or out of place."""
    checks = piece_checks(scenario, state, obs)
    return [c.text for c in checks if c.state in ("move", "unseen")]


@dataclass(frozen=True)
class PieceCheck:
    """How one piece stands against the scenario (one line of the set-up checklist)."""

    key: str
    """``unit:ID`` or ``terrain:ID``."""
    name: str
    """The piece as the player knows it ("Captain Idris", "the shrine (tag 8)")."""
    state: CheckState
    """ok: in place; move: to be moved (``text`` says how); unseen: no tag seen; by_hand:
    placed by hand on the page (or taken as set out) and in place."""
    text: str = ""
    """What to do about it, one sentence (empty when in place)."""
    unit_id: str | None = None
    """The unit, for a model (None for terrain)."""
    offered: bool = False
    """Unseen long enough to be offered to be placed by hand (``by_hand.OFFER_AFTER_S``)."""


def unseen_text(name: str, terrain: bool = False) -> str:
    """What is said of a piece whose tag the camera cannot see."""
    way = "press confirm to take it as set out" if terrain else "place it by hand on the page"
    return f"{_capital(name)}: I cannot see its tag. Is it covered? Uncover it, or {way}."


def _capital(text: str) -> str:
    """The text with its first letter a capital (a sentence may start with "the shrine")."""
    return text[:1].upper() + text[1:]


def piece_checks(
    scenario: Scenario,
    state: GameState,
    obs: Observation,
    offered: Collection[str] = (),
) -> list[PieceCheck]:
    """Every model on the table and every tagged terrain piece, checked against the scenario
    (models first, in the scenario's order); ``offered`` holds the unit ids and ``terrain:ID``
    keys unseen long enough to be offered to be placed by hand."""
    checks = []
    zones = {s.name: s.deployment for s in scenario.sides}
    for unit in state.units:
        if not unit.on_table:
            continue
        key, seen = f"unit:{unit.id}", obs.pieces.get(unit.id)
        if seen is None:
            checks.append(
                PieceCheck(
                    key, unit.name, "unseen", unseen_text(unit.name), unit.id, unit.id in offered
                )
            )
            continue
        zone = zones.get(unit.side) or ()
        problem = unit_problem(unit.name, zone, unit.position, seen, state.table.grid)
        state_now: CheckState = "move" if problem else "by_hand" if seen.by_hand else "ok"
        checks.append(PieceCheck(key, unit.name, state_now, problem or "", unit.id))
    for place in terrain_places(scenario):
        key = f"terrain:{place.id}"
        label = f"{place.name} (tag {', '.join(str(t.id) for t in place.tags)})"
        seen = obs.terrain.get(place.id)
        if place.name in obs.missing_terrain:
            text = unseen_text(label, terrain=True)
            checks.append(PieceCheck(key, label, "unseen", text, offered=key in offered))
            continue
        problem = terrain_problem(place, seen) if seen is not None else None
        state_now = "move" if problem else "by_hand" if seen and seen.by_hand else "ok"
        checks.append(PieceCheck(key, label, state_now, problem or ""))
    return checks


@dataclass
class SetupWatch:
    """What to say as the table is set up: only what changed since it was last said.

    A piece's sentence is said when its check changes: to *move*, the move sentence; to
    *unseen*, nothing until it has stayed unseen long enough to be offered to be placed by
    hand, then that its tag cannot be seen; to *by hand*, that it is placed by hand; back to
    *ok*, that it is in place. At the first look what is right is not said (the page shows
    it). When more than ``GROUP_OVER`` sentences of one kind are due at once, one sentence
    counts them and points to the page. A piece whose check did not change is never said
    again, and the whole list never is.
    """

    said: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Per piece key, the (state, text) last said or silently known."""
    checks: tuple[PieceCheck, ...] = ()
    """The checklist as last checked (what the page shows)."""
    version: int = 0
    """Grows whenever the checklist changes."""
    _looked: bool = False

    def update(self, checks: list[PieceCheck]) -> list[str]:
        """Take in the checklist of one settled frame; returns the sentences to say, each one
        announcement."""
        if tuple(checks) != self.checks:
            self.checks = tuple(checks)
            self.version += 1
        due: dict[str, list[PieceCheck]] = {"move": [], "unseen": [], "by_hand": [], "ok": []}
        for check in checks:
            if check.state == "unseen" and not check.offered:
                continue  # perhaps still being set out: said once it has stayed unseen
            now = (check.state, check.text)
            last = self.said.get(check.key)
            if last == now:
                continue
            self.said[check.key] = now
            if check.state == "ok" and not self._looked:
                continue
            due[check.state].append(check)
        self._looked = True
        return [*_sentences("move", due["move"]), *_sentences("unseen", due["unseen"]),
                *_sentences("by_hand", due["by_hand"]), *_sentences("ok", due["ok"])]  # fmt: skip


def _sentences(state: str, checks: list[PieceCheck]) -> list[str]:
    """One sentence per piece, or one for them all when there are more than ``GROUP_OVER``."""
    if len(checks) > GROUP_OVER:
        n = len(checks)
        return [
            {
                "move": f"{n} pieces need moving; the page says how.",
                "unseen": f"I cannot see the tags of {n} pieces; the page lists them and "
                "offers to place them by hand.",
                "by_hand": f"{n} pieces are placed by hand.",
                "ok": f"{n} more pieces are in place.",
            }[state]
        ]
    if state in ("move", "unseen"):
        return [c.text for c in checks]
    if state == "by_hand":
        return [f"{_capital(c.name)} is placed by hand." for c in checks]
    return [f"{_capital(c.name)} is in place." for c in checks]
