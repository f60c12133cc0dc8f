"""The commands the page sends to the live session (declare, dice, undo, redo, repeat, confirm,
pass, oracle, yes-no, secret, place), read and checked from their JSON."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal, cast, get_args

from assistant.errors import UserError
from assistant.live_view import BoardView

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


class CommandError(UserError):
    """A command from the page that cannot be accepted (the message says why, for the player)."""


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


def check_place(command: Command, view: BoardView) -> None:
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
