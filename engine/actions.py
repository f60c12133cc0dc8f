"""What can be done (actions), what the AI tells the player to do (orders) and what happened
(events). All immutable; events serialise to and from plain JSON objects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.errors import EngineError
from engine.geometry import Point


def _freeze(value: Any) -> Any:
    """Lists to tuples, recursively (events are immutable)."""
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    """Tuples to lists, recursively (for JSON)."""
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


class IllegalActionError(EngineError):
    """An action that the rules do not allow in this state; the message says why."""


class ActionKind(StrEnum):
    """The action vocabulary shared by every ruleset (RULES §1.7)."""

    INITIATIVE = "initiative"
    """Roll (or enter) who activates first this round."""
    PASS = "pass"
    """Give up the current opportunity to activate (or decline a bonus activation)."""
    MOVE = "move"
    """Pivot and move along a path; a path of one point is a pivot on the spot."""
    SHOOT = "shoot"
    """Pivot and shoot a target."""
    MOVE_AND_SHOOT = "move_and_shoot"
    MOVE_INTO_MELEE = "move_into_melee"
    CONTINUE_MELEE = "continue_melee"
    ROUT = "rout"
    """The forced move of a routing character toward the nearest table edge."""


@dataclass(frozen=True)
class Action:
    """One activation's action (or a round-level step such as initiative or a pass)."""

    kind: ActionKind
    unit_id: str | None = None
    path: tuple[Point, ...] = ()
    """Base-centre path in inches: the start, any bends, the end. Empty: no movement."""
    heading_deg: float | None = None
    """Facing at the end of the movement; None: the direction of the last leg."""
    target_id: str | None = None
    pick_up: str | None = None
    """Objective picked up before the action (a free pre-activation step)."""
    side: str | None = None
    """Side that passes (for PASS outside a unit's activation)."""

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object."""
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.unit_id is not None:
            out["unit"] = self.unit_id
        if self.path:
            out["path"] = [[round(x, 4), round(y, 4)] for x, y in self.path]
        if self.heading_deg is not None:
            out["heading"] = round(self.heading_deg, 3)
        for key, value in (("target", self.target_id), ("pick_up", self.pick_up)):
            if value is not None:
                out[key] = value
        if self.side is not None:
            out["side"] = self.side
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        """Inverse of :meth:`to_json`."""
        try:
            return cls(
                kind=ActionKind(data["kind"]),
                unit_id=data.get("unit"),
                path=tuple((float(p[0]), float(p[1])) for p in data.get("path", ())),
                heading_deg=None if data.get("heading") is None else float(data["heading"]),
                target_id=data.get("target"),
                pick_up=data.get("pick_up"),
                side=data.get("side"),
            )
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            raise EngineError(f"not an action: {dict(data)!r} ({exc})") from None


@dataclass(frozen=True)
class Order:
    """What an AI controller tells the player to do with one of its characters, and why."""

    action: Action
    rule: str
    """Which rule of the AI's priority list fired, e.g. "step 3: shoot the nearest enemy"."""
    reason: str
    """A short clause for the announcement: "the Ranger is the nearest enemy in range"."""
    distance_in: float = 0.0
    """Length of the ordered movement in inches."""
    target_distance_in: float | None = None
    """Edge-to-edge distance to the target, inches, where there is one."""
    blocked: tuple[str, ...] = ()
    """What blocked line of sight to enemies the AI could not choose."""
    rolls: tuple[tuple[str, int], ...] = ()
    """Dice the controller rolled to decide (purpose, result)."""

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object."""
        out: dict[str, Any] = {
            "action": self.action.to_json(),
            "rule": self.rule,
            "reason": self.reason,
            "distance_in": round(self.distance_in, 3),
        }
        if self.target_distance_in is not None:
            out["target_distance_in"] = round(self.target_distance_in, 3)
        if self.blocked:
            out["blocked"] = list(self.blocked)
        if self.rolls:
            out["rolls"] = [[p, r] for p, r in self.rolls]
        return out


class EventType(StrEnum):
    """Named event kinds, shared by every ruleset."""

    ROUND_START = "round_start"
    INITIATIVE = "initiative"
    TIE = "tie"
    """A tie broken by a roll (the roll itself is in the random source's log)."""
    ACTIVATION = "activation"
    ORDER = "order"
    PASS = "pass"
    PICK_UP = "pick_up"
    MOVE = "move"
    ATTACK = "attack"
    WOUND = "wound"
    MISS = "miss"
    FALL = "fall"
    ROUT_CHECK = "rout_check"
    ROUTING = "routing"
    LEFT_TABLE = "left_table"
    DROP = "drop"
    SCORE = "score"
    BONUS_ACTIVATION = "bonus_activation"
    ROUND_END = "round_end"
    STATUS = "status"
    END = "end"


@dataclass(frozen=True)
class Event:
    """Something that happened, for the log, the announcements and the replay."""

    type: EventType
    round: int
    text: str
    """One plain sentence for the player."""
    unit: str | None = None
    data: tuple[tuple[str, Any], ...] = field(default=())
    """Details as (key, value) pairs: rolls, distances, targets, statuses."""

    def get(self, key: str, default: Any = None) -> Any:
        """A detail by key."""
        return dict(self.data).get(key, default)

    def to_json(self) -> dict[str, Any]:
        """A flat JSON object: type, round, unit (when there is one), the details, text."""
        out: dict[str, Any] = {"type": self.type.value, "round": self.round}
        if self.unit is not None:
            out["unit"] = self.unit
        for key, value in self.data:
            out[key] = _thaw(value)
        out["text"] = self.text
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Inverse of :meth:`to_json`."""
        try:
            details = tuple(
                (k, _freeze(v))
                for k, v in data.items()
                if k not in ("type", "round", "unit", "text")
            )
            return cls(
                type=EventType(data["type"]),
                round=int(data["round"]),
                text=str(data.get("text", "")),
                unit=data.get("unit"),
                data=details,
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise EngineError(f"not an event: {dict(data)!r} ({exc})") from None


def event(type_: EventType, round_: int, text: str, unit: str | None = None, **data: Any) -> Event:
    """Shorthand for building an :class:`Event` with keyword details."""
    items = tuple((k, _freeze(v)) for k, v in data.items())
    return Event(type=type_, round=round_, text=text, unit=unit, data=items)
