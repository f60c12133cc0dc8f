"""The board view: a frozen view model of the live table that the session publishes and the
page shows, in inches and degrees, saved and read as versioned JSON (``BoardView.to_dict``,
``BoardView.from_dict``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, get_args

VIEW_FORMAT_VERSION = 1
"""The ``"version"`` field of ``BoardView.to_dict()``; ``BoardView.from_dict`` reads it."""

UnitStatus = Literal["active", "fallen", "off"]
Controller = Literal["ai", "player"]
PromptKind = Literal["dice", "declare", "confirm", "card"]
StatusLevel = Literal["info", "warning", "error"]
CheckState = Literal["ok", "move", "unseen", "by_hand"]
"""A piece on the set-up checklist: in place, to be moved, not seen, or placed by hand."""

PointIn = tuple[float, float]
"""A point on the table, (x, y) in inches from the player's left front corner."""


class ViewError(ValueError):
    """A view model that cannot be shown (the message names the field and the value)."""


def _check_choice(name: str, value: str, allowed: Any) -> None:
    options = get_args(allowed)
    if value not in options:
        raise ViewError(f"{name} {value!r} is not one of {', '.join(options)}")


@dataclass(frozen=True)
class TerrainView:
    """A terrain piece's footprint on the table."""

    name: str
    """What the player calls it ("ruined tower")."""
    kind: str
    """The ruleset's terrain kind (e.g. "woods", "wall", "building")."""
    cover: str
    """The cover it gives: "none", "light" or "heavy" (or the ruleset's own word)."""
    polygon_in: tuple[PointIn, ...]
    """The footprint's corners in table inches, in order."""


@dataclass(frozen=True)
class ResourceView:
    """One labelled value on a unit's card, whatever the ruleset: what it carries, actions
    left, a dice pool, cards left in a deck."""

    label: str
    """What the value is ("carries", "actions left")."""
    value: str
    """The value as shown ("the relic", "2")."""


@dataclass(frozen=True)
class SideView:
    """One side of the battle."""

    id: str
    """The side's id, as ``UnitView.side`` and ``BoardView.turn`` name it."""
    name: str
    """The side's name for the player (e.g. "Orc warband")."""
    controller: Controller
    """Who plays it: the AI (the player moves its pieces as told) or the player."""
    resources: tuple[ResourceView, ...] = ()
    """Values the side holds as a whole, shown once for the side (its dice pool, its deck and
    the last card drawn), never on each unit's card."""

    def __post_init__(self) -> None:
        _check_choice("side controller", self.controller, Controller)


@dataclass(frozen=True)
class UnitView:
    """A miniature (or unit) on the table as the page draws it."""

    id: str
    """Unique id of the unit in this game."""
    name: str
    """Its name for the player ("Orc Captain")."""
    side: str
    """The id of its side (``SideView.id``)."""
    x_in: float
    """Base centre, inches from the player's left edge."""
    y_in: float
    """Base centre, inches from the player's edge."""
    heading_deg: float
    """Facing in degrees: 0 = away from the player (+y), clockwise positive."""
    base_diameter_in: float
    """Base diameter in inches."""
    wounds: int = 0
    """Wounds suffered so far."""
    wound_slots: int = 1
    """Wounds it can take (its wound boxes)."""
    status: UnitStatus = "active"
    """active, fallen or off (left the table)."""
    activated: bool = False
    """True once it has acted this round."""
    ranges_in: tuple[float, ...] = ()
    """Weapon or move ranges in inches, drawn as rings around it on demand."""
    front_arc_deg: float | None = None
    """Width of its front arc in degrees (drawn on demand), None when it has no arc."""
    statuses: tuple[str, ...] = ()
    """The ruleset's statuses on it ("routing", "pinned", "alerted"), drawn on its card and
    marked on its base."""
    resources: tuple[ResourceView, ...] = ()
    """Labelled values its card shows (what it carries, actions left, dice, cards)."""
    placed_by_hand: bool = False
    """The camera cannot see its tag and it stands where the player placed it on the page
    (until the camera sees it again)."""
    place_offered: bool = False
    """The camera has not seen its tag for a few seconds: the page offers to place it by
    hand."""

    def __post_init__(self) -> None:
        _check_choice(f"unit {self.id!r} status", self.status, UnitStatus)
        if self.base_diameter_in <= 0:
            raise ViewError(f"unit {self.id!r} base_diameter_in {self.base_diameter_in} is not > 0")
        if self.wounds < 0 or self.wound_slots < 0:
            raise ViewError(f"unit {self.id!r} wounds {self.wounds}/{self.wound_slots} invalid")


@dataclass(frozen=True)
class PoseView:
    """A pose on the table: position in inches, heading in degrees (0 = +y, clockwise)."""

    x_in: float
    y_in: float
    heading_deg: float


@dataclass(frozen=True)
class OrderView:
    """The AI's current order: what the player should do with the AI's piece."""

    unit_id: str
    """The unit to move or act."""
    text: str
    """The order as announced ("Orc Captain: pivot left, move 4 inches toward the tower")."""
    ghost: PoseView | None = None
    """Where the piece should end up, drawn as a ghost."""
    path_in: tuple[PointIn, ...] = ()
    """The path's waypoints in inches, from the start to the destination."""
    target_id: str | None = None
    """The unit shot at or charged, if any."""
    reason: str = ""
    """Why, in a short clause (the priority rule that fired)."""


@dataclass(frozen=True)
class SightLineView:
    """A measured line of sight between two units."""

    from_id: str
    to_id: str
    clear: bool
    """True when the target can be seen at all."""
    cover: str = "none"
    """The cover the target has: "none", "light", "heavy" (or the ruleset's word)."""
    range_in: float | None = None
    """The measured range in inches (base edge to base edge, per the ruleset)."""
    note: str = ""
    """Anything else worth saying ("through the woods")."""


@dataclass(frozen=True)
class AnnouncementView:
    """One line of the announcement log."""

    t_s: float
    """When it was announced, in seconds from the start of the session."""
    text: str


@dataclass(frozen=True)
class DeclareOption:
    """An action the player may declare, with the unit ids it may target."""

    action: str
    """The ruleset's action name ("shoot", "melee", "pass")."""
    targets: tuple[str, ...] = ()
    """Unit ids it may target; empty for an action without a target."""


@dataclass(frozen=True)
class PromptView:
    """What the session is waiting for from the player."""

    kind: PromptKind
    """dice: enter a die result; declare: choose an action (and target); confirm: a piece;
    card: enter the card drawn from a real deck (sent as a dice command, its code 1-53)."""
    text: str
    """The question, for the player ("Roll to hit: enter the die")."""
    purpose: str = ""
    """For dice: what the roll is for ("initiative", "to hit")."""
    sides: int = 6
    """For dice: the die's number of sides (buttons 1..sides)."""
    options: tuple[DeclareOption, ...] = ()
    """For declare: the allowed actions and their targets."""
    unit_id: str | None = None
    """The unit the prompt is about (the declaring unit, the piece to confirm)."""

    def __post_init__(self) -> None:
        _check_choice("prompt kind", self.kind, PromptKind)
        if self.kind == "dice" and not 2 <= self.sides <= 100:
            raise ViewError(f"dice prompt sides {self.sides} is outside 2..100")


@dataclass(frozen=True)
class StatusView:
    """A status message or warning shown above the board."""

    text: str
    level: StatusLevel = "warning"

    def __post_init__(self) -> None:
        _check_choice("status level", self.level, StatusLevel)


@dataclass(frozen=True)
class CheckView:
    """One piece on the set-up checklist (the page lists every piece while setting up)."""

    name: str
    """The piece as the player knows it ("Captain Idris", "the shrine (tag 8)")."""
    state: CheckState
    """ok: in place; move: to be moved (``text`` says how); unseen: its tag is not seen;
    by_hand: placed by hand on the page."""
    text: str = ""
    """What to do about it, one sentence; empty when it is in place."""
    unit_id: str | None = None
    """The unit it is (a model), None for terrain; a unit may be placed by hand."""
    offered: bool = False
    """Unseen for a few seconds: the page offers to place it by hand (a model) or to take it
    as set out (terrain, with the confirm button)."""

    def __post_init__(self) -> None:
        _check_choice(f"checklist item {self.name!r} state", self.state, CheckState)


@dataclass(frozen=True)
class GridView:
    """A square grid over the table (grid games): ``cols`` x ``rows`` squares of ``cell_in``
    inches laid from the player's left front corner; row 1 is the far row, column A the left
    one (cell names like "C4")."""

    cols: int
    rows: int
    cell_in: float = 1.0
    blocked: tuple[tuple[int, int], ...] = ()
    """Squares (column, row; row 0 the far row) the rules treat as walls, drawn shaded."""


@dataclass(frozen=True)
class BoardView:
    """Everything the page shows, in table inches and degrees (see ``UnitView`` for the axes)."""

    table_width_in: float
    """Table width (x) in inches."""
    table_depth_in: float
    """Table depth (y, away from the player) in inches."""
    round: int = 0
    """The game round, from 1 (0 before the game starts)."""
    turn: str | None = None
    """The id of the side whose turn it is, or None."""
    title: str = ""
    """The scenario's name."""
    sides: tuple[SideView, ...] = ()
    terrain: tuple[TerrainView, ...] = ()
    units: tuple[UnitView, ...] = ()
    order: OrderView | None = None
    sight_lines: tuple[SightLineView, ...] = ()
    announcements: tuple[AnnouncementView, ...] = ()
    """The announcement log, oldest first."""
    prompt: PromptView | None = None
    statuses: tuple[StatusView, ...] = field(default=())
    outcome: str | None = None
    """How the battle ended, one sentence for the player; None while it goes on."""
    grid: GridView | None = None
    """The table's square grid, drawn with its column letters and row numbers; None without."""
    checklist: tuple[CheckView, ...] = ()
    """Every piece and how it stands, while the table is being set up; empty once the battle
    has begun."""
    compass: bool = False
    """The ruleset names facings with compass words (north = the far edge): the page draws a
    compass beside the board."""

    def __post_init__(self) -> None:
        if not (self.table_width_in > 0 and self.table_depth_in > 0):
            raise ViewError(
                f"table size {self.table_width_in} x {self.table_depth_in} in is not positive"
            )
        ids = [u.id for u in self.units]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ViewError(f"unit ids repeated in the view: {', '.join(duplicates)}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with ``"version": VIEW_FORMAT_VERSION``."""
        return {"version": VIEW_FORMAT_VERSION, **asdict(self)}

    def to_json(self) -> str:
        """The view as a JSON text (``to_dict`` serialised)."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BoardView:
        """Read a dict written by ``to_dict`` (one loader per format version)."""
        version = data.get("version")
        if version == 1:
            return _board_view_v1(data)
        raise ViewError(f"board view version {version!r} is not known (this reads version 1)")


def _points(raw: Iterable[Any]) -> tuple[PointIn, ...]:
    return tuple((float(p[0]), float(p[1])) for p in raw)


def _board_view_v1(d: Mapping[str, Any]) -> BoardView:
    try:
        order = d.get("order")
        prompt = d.get("prompt")
        return BoardView(
            table_width_in=float(d["table_width_in"]),
            table_depth_in=float(d["table_depth_in"]),
            round=int(d.get("round", 0)),
            turn=d.get("turn"),
            title=str(d.get("title", "")),
            sides=tuple(
                SideView(
                    **{**s, "resources": tuple(ResourceView(**r) for r in s.get("resources", ()))}
                )
                for s in d.get("sides", ())
            ),
            terrain=tuple(
                TerrainView(**{**t, "polygon_in": _points(t["polygon_in"])})
                for t in d.get("terrain", ())
            ),
            units=tuple(
                UnitView(
                    **{
                        **u,
                        "ranges_in": tuple(u.get("ranges_in", ())),
                        "statuses": tuple(u.get("statuses", ())),
                        "resources": tuple(ResourceView(**r) for r in u.get("resources", ())),
                    }
                )
                for u in d.get("units", ())
            ),
            order=None
            if order is None
            else OrderView(
                **{
                    **order,
                    "ghost": PoseView(**order["ghost"]) if order.get("ghost") else None,
                    "path_in": _points(order.get("path_in", ())),
                }
            ),
            sight_lines=tuple(SightLineView(**s) for s in d.get("sight_lines", ())),
            announcements=tuple(AnnouncementView(**a) for a in d.get("announcements", ())),
            prompt=None
            if prompt is None
            else PromptView(
                **{
                    **prompt,
                    "options": tuple(
                        DeclareOption(o["action"], tuple(o.get("targets", ())))
                        for o in prompt.get("options", ())
                    ),
                }
            ),
            statuses=tuple(StatusView(**s) for s in d.get("statuses", ())),
            outcome=d.get("outcome"),
            grid=None
            if not d.get("grid")
            else GridView(
                **{
                    **d["grid"],
                    "blocked": tuple((int(c), int(r)) for c, r in d["grid"].get("blocked", ())),
                }
            ),
            checklist=tuple(CheckView(**c) for c in d.get("checklist", ())),
            compass=bool(d.get("compass", False)),
        )
    except (KeyError, TypeError) as exc:
        raise ViewError(f"board view version 1 is malformed: {exc}") from exc
