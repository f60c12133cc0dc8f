"""The live hub: what the session shows and what the page asks, passed between threads.

The session publishes a ``BoardView`` (a frozen view model of the table in inches and degrees) and
the latest rectified top-down frame as JPEG bytes; every subscriber (one per open page, through
server-sent events) receives every new view version without ever slowing the publisher: each
subscriber has a bounded backlog, and a subscriber that falls behind loses its oldest views (the
newest always arrives) while frames are coalesced to the latest. The page sends ``Command`` values
(declare, dice, undo, redo, repeat, confirm, pass, place) that the session reads with
``next_command``.

No global state: a session makes one ``LiveHub`` and hands it to the web app.
"""

from __future__ import annotations

import json
import math
import queue
import threading
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, cast, get_args

from assistant.errors import UserError

VIEW_FORMAT_VERSION = 1
"""The ``"version"`` field of ``BoardView.to_dict()``; ``BoardView.from_dict`` reads it."""

UnitStatus = Literal["active", "fallen", "off"]
Controller = Literal["ai", "player"]
PromptKind = Literal["dice", "declare", "confirm", "card"]
StatusLevel = Literal["info", "warning", "error"]
CommandKind = Literal[
    "declare",
    "dice",
    "undo",
    "redo",
    "repeat",
    "confirm",
    "pass",
    "oracle",
    "yes-no",
    "secret",
    "place",
]
"""The commands the page sends; "oracle", "yes-no" and "secret" roll seed 003's narrative tools
(``assistant.session.tools``); "place" stands a piece by hand where the player dragged it."""
CheckState = Literal["ok", "move", "unseen", "by_hand"]
"""A piece on the set-up checklist: in place, to be moved, not seen, or placed by hand."""

PointIn = tuple[float, float]
"""A point on the table, (x, y) in inches from the player's left front corner."""


class ViewError(ValueError):
    """A view model that cannot be shown (the message names the field and the value)."""


class CommandError(UserError):
    """A command from the page that cannot be accepted (the message says why, for the player)."""


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


@dataclass(frozen=True)
class Command:
    """What the player asked for on the page (or with a button tag)."""

    kind: CommandKind
    action: str | None = None
    """For declare: the action ("shoot", "melee", "pass")."""
    target: str | None = None
    """For declare: the target unit id, if the action has one."""
    value: int | None = None
    """For dice: the die's result."""
    unit_id: str | None = None
    """For confirm (and optionally declare): the unit meant; for place: the unit placed (sent
    as ``"unit"``)."""
    text: str | None = None
    """For oracle, yes-no and secret: the question or the place searched, as typed."""
    x_in: float | None = None
    """For place: where the piece stands, inches from the player's left edge (sent as ``"x"``)."""
    y_in: float | None = None
    """For place: inches from the player's edge (sent as ``"y"``)."""
    heading_deg: float | None = None
    """For place: the way it faces, degrees, 0 = away from the player, clockwise (sent as
    ``"heading"``)."""

    @classmethod
    def from_dict(cls, payload: Any) -> Command:
        """Check and read a command sent by the page as JSON; raises ``CommandError``.

        A place command is exactly ``{"kind": "place", "unit": ID, "x": INCHES, "y": INCHES,
        "heading": DEGREES}``.
        """
        if not isinstance(payload, Mapping):
            raise CommandError(f"a command must be a JSON object, not {payload!r:.60}")
        kind = payload.get("kind")
        if kind not in get_args(CommandKind):
            raise CommandError(
                f"command kind {kind!r:.40} is not one of {', '.join(get_args(CommandKind))}"
            )
        action = _short_text(payload, "action")
        target = _short_text(payload, "target")
        unit_id = _short_text(payload, "unit_id")
        text = _short_text(payload, "text", TEXT_MAX)
        value = payload.get("value")
        if kind == "declare" and not action:
            raise CommandError("a declaration needs an action (e.g. shoot, melee, pass)")
        if kind == "dice":
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100:
                raise CommandError(
                    f"a dice result must be a whole number from 1 to 100, not {value!r:.40}"
                )
        elif value is not None:
            raise CommandError(f"only a dice command carries a value, not {kind}")
        if kind == "place":
            unit = _short_text(payload, "unit")
            if not unit:
                raise CommandError('a place command needs the unit placed ("unit": its id)')
            return cls(
                "place",
                unit_id=unit,
                x_in=_inches(payload, "x"),
                y_in=_inches(payload, "y"),
                heading_deg=_inches(payload, "heading") % 360.0,
            )
        checked_kind = cast(CommandKind, kind)
        return cls(checked_kind, action, target, value if kind == "dice" else None, unit_id, text)

    def to_dict(self) -> dict[str, Any]:
        """The command as a JSON-ready dict (what the page sends)."""
        if self.kind == "place":
            return {
                "kind": "place",
                "unit": self.unit_id,
                "x": self.x_in,
                "y": self.y_in,
                "heading": self.heading_deg,
            }
        return {k: v for k, v in asdict(self).items() if v is not None}


def _inches(payload: Mapping[str, Any], key: str) -> float:
    """A finite number a place command carries (inches, or degrees for the heading)."""
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise CommandError(f"a place command's {key!r} must be a number, not {value!r:.40}")
    return float(value)


TEXT_MAX = 200
"""Longest question a command may carry, characters."""


def _short_text(payload: Mapping[str, Any], key: str, longest: int = 64) -> str | None:
    value = payload.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > longest:
        raise CommandError(f"command field {key!r} must be a short text, not {value!r:.40}")
    return value


def _check_place(command: Command, view: BoardView) -> None:
    """Refuse a place command the current view cannot take (``CommandError``)."""
    unit = next((u for u in view.units if u.id == command.unit_id), None)
    if unit is None:
        raise CommandError(f"there is no unit {command.unit_id!r:.40} on this table")
    if unit.status != "active":
        raise CommandError(f"{unit.name} is out of the battle: it cannot be placed")
    x, y = command.x_in or 0.0, command.y_in or 0.0
    if not (0.0 <= x <= view.table_width_in and 0.0 <= y <= view.table_depth_in):
        raise CommandError(
            f"({x:g}, {y:g}) in is off the {view.table_width_in:g} x "
            f"{view.table_depth_in:g} in table"
        )


@dataclass(frozen=True)
class HubEvent:
    """Something a subscriber is told: a new view, a new frame, or that the hub closed."""

    kind: Literal["view", "frame", "closed"]
    version: int
    """The view's or the frame's version number (from 1)."""
    data: str | None = None
    """For a view: its JSON text. For a frame: ``{"version": N, "bounds_in": [x0, y0, x1, y1]}``
    (the table area the image covers, in inches; null bounds: exactly the table)."""


class Subscription:
    """One subscriber's inbox (e.g. one open page). Read it with ``get``; close it when done."""

    def __init__(self, hub: LiveHub, backlog: int) -> None:
        self._hub = hub
        self._cond = threading.Condition()
        self._views: deque[HubEvent] = deque(maxlen=backlog)
        self._frame_event: HubEvent | None = None
        self._closed = False
        self.dropped = 0
        """Views this subscriber lost because it fell more than ``backlog`` versions behind."""

    def _push_view(self, event: HubEvent) -> None:
        with self._cond:
            if len(self._views) == self._views.maxlen:
                self.dropped += 1
            self._views.append(event)
            self._cond.notify_all()

    def _push_frame(self, event: HubEvent) -> None:
        with self._cond:
            self._frame_event = event
            self._cond.notify_all()

    def _end(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def get(self, timeout: float | None = None) -> HubEvent | None:
        """The next event (views first, in order; then the latest frame), or None on timeout.

        After the hub or this subscription is closed, returns a ``closed`` event.
        """
        with self._cond:
            self._cond.wait_for(
                lambda: self._closed or self._views or self._frame_event is not None, timeout
            )
            if self._views:
                return self._views.popleft()
            if self._frame_event is not None:
                event, self._frame_event = self._frame_event, None
                return event
            if self._closed:
                return HubEvent("closed", 0)
            return None

    def close(self) -> None:
        """Stop receiving events."""
        self._hub._unsubscribe(self)
        self._end()

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LiveHub:
    """Thread-safe publish/subscribe between the live session and the web page."""

    def __init__(self, *, max_commands: int = 256, subscriber_backlog: int = 64) -> None:
        self.commands: queue.Queue[Command] = queue.Queue(maxsize=max_commands)
        """Commands from the page, oldest first (``next_command`` reads them)."""
        self._backlog = subscriber_backlog
        self._lock = threading.Lock()
        self._subscribers: list[Subscription] = []
        self._view: BoardView | None = None
        self._view_json: str | None = None
        self._view_version = 0
        self._frame: bytes | None = None
        self._frame_version = 0
        self._frame_event: HubEvent | None = None
        self._closed = False

    # -- the session's side ------------------------------------------------------------------

    def publish(self, view: BoardView) -> int:
        """Make ``view`` the current view and tell every subscriber; returns its version."""
        text = view.to_json()
        with self._lock:  # pushing only appends to bounded inboxes: it never waits for a reader
            self._view_version += 1
            version = self._view_version
            self._view, self._view_json = view, text
            event = HubEvent("view", version, text)
            for subscriber in self._subscribers:
                subscriber._push_view(event)
        return version

    def publish_frame(
        self,
        jpeg_bytes: bytes,
        bounds_in: tuple[float, float, float, float] | None = None,
    ) -> int:
        """Make these JPEG bytes the latest frame; returns its version.

        The frame is the rectified top-down view of the table, the player's edge at the bottom
        and +x to the right. ``bounds_in`` = (x_min, y_min, x_max, y_max) is the table area the
        image covers, in inches (a margin shows as negative x_min/y_min or x_max/y_max beyond
        the table); None means the image covers exactly the table, (0, 0) to (width, depth).
        """
        if not jpeg_bytes.startswith(b"\xff\xd8"):
            raise ViewError(f"a frame must be JPEG bytes; these start with {jpeg_bytes[:4]!r}")
        if bounds_in is not None:
            x0, y0, x1, y1 = (float(v) for v in bounds_in)
            if not (x1 > x0 and y1 > y0):
                raise ViewError(
                    f"frame bounds_in {bounds_in} must have x_max > x_min, y_max > y_min"
                )
            bounds_in = (x0, y0, x1, y1)
        with self._lock:
            self._frame_version += 1
            version = self._frame_version
            self._frame = bytes(jpeg_bytes)
            data = json.dumps({"version": version, "bounds_in": bounds_in})
            self._frame_event = HubEvent("frame", version, data)
            for subscriber in self._subscribers:
                subscriber._push_frame(self._frame_event)
        return version

    def next_command(self, timeout: float | None = 0.0) -> Command | None:
        """The oldest command from the page, waiting up to ``timeout`` s (None: forever)."""
        try:
            if timeout is not None and timeout <= 0:
                return self.commands.get_nowait()
            return self.commands.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """End every subscription (open pages stop streaming)."""
        with self._lock:
            self._closed = True
            subscribers, self._subscribers = self._subscribers, []
        for subscriber in subscribers:
            subscriber._end()

    # -- the page's side ---------------------------------------------------------------------

    def current_view(self) -> tuple[int, BoardView | None]:
        """(version, view) of the latest view; (0, None) before the first publish."""
        with self._lock:
            return self._view_version, self._view

    def current_view_json(self) -> tuple[int, str | None]:
        """(version, JSON text) of the latest view; (0, None) before the first publish."""
        with self._lock:
            return self._view_version, self._view_json

    def latest_frame(self) -> tuple[int, bytes | None]:
        """(version, JPEG bytes) of the latest frame; (0, None) before the first one."""
        with self._lock:
            return self._frame_version, self._frame

    def send_command(self, command: Command) -> None:
        """Queue a command for the session; raises ``CommandError`` if it cannot be accepted.

        A dice result above the current dice prompt's number of sides, and a piece placed off
        the table or a unit the table does not have, are refused here so the player sees the
        mistake at once.
        """
        with self._lock:
            view = self._view
        prompt = view.prompt if view is not None else None
        if (
            command.kind == "dice"
            and prompt is not None
            and prompt.kind == "dice"
            and command.value is not None
            and command.value > prompt.sides
        ):
            raise CommandError(f"a d{prompt.sides} cannot show {command.value}")
        if command.kind == "place" and view is not None:
            _check_place(command, view)
        try:
            self.commands.put_nowait(command)
        except queue.Full as exc:
            raise CommandError("too many commands are waiting; try again in a moment") from exc

    def subscribe(self) -> Subscription:
        """A new subscription, primed with the current view and frame (if any)."""
        subscription = Subscription(self, self._backlog)
        with self._lock:
            if self._closed:
                subscription._end()
                return subscription
            self._subscribers.append(subscription)
            if self._view_json is not None:
                subscription._push_view(HubEvent("view", self._view_version, self._view_json))
            if self._frame_event is not None:
                subscription._push_frame(self._frame_event)
        return subscription

    @property
    def subscriber_count(self) -> int:
        """How many subscriptions are open."""
        with self._lock:
            return len(self._subscribers)

    def _unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)
