"""What can be done (actions), what the AI tells the player to do (orders) and what happened
(events). All immutable; actions, orders and events serialise to and from plain JSON objects.

Action kinds and event types are open strings: :class:`ActionKind` and :class:`EventType` are
the shared vocabulary (RULES §1.7), and a ruleset declares which kinds it accepts
(``Ruleset.action_kinds``) and may add words of its own.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.errors import EngineError
from engine.geometry import Point
from engine.jsonvalue import Memory, Pairs, freeze, freeze_pairs, pairs_to_json, thaw


class IllegalActionError(EngineError):
    """An action that the rules do not allow in this state.

    ``reasons`` are the rules' plain sentences; the message also carries the action's JSON, the
    round and the step, like python-chess's ``illegal san: 'Nf9' in <fen>``.
    """

    def __init__(
        self, reasons: Sequence[str], action: Action, round_: int = 0, step: int = 0
    ) -> None:
        self.reasons = tuple(reasons)
        self.action = action
        self.round = round_
        self.step = step
        shown = json.dumps(action.to_json(), separators=(", ", ": "))
        super().__init__(
            f"illegal action {shown} in round {round_}, step {step}: {'; '.join(self.reasons)}"
        )

    @property
    def reason(self) -> str:
        """The reasons as one clause, for the player."""
        return "; ".join(self.reasons)


class ActionKind(StrEnum):
    """The action vocabulary shared by every ruleset (RULES §1.7). ``Action.kind`` is a plain
    string: a ruleset accepts the kinds it declares and may add its own."""

    MOVE = "move"
    """Pivot and move along a path; a path of one point is a pivot on the spot."""
    SHOOT = "shoot"
    """Pivot and shoot a target."""
    MOVE_AND_SHOOT = "move_and_shoot"
    MOVE_INTO_MELEE = "move_into_melee"
    """A move that ends in base contact and attacks (melee, charge)."""
    CONTINUE_MELEE = "continue_melee"
    """Attack an enemy already in contact."""
    HOLD = "hold"
    """Stay put (and keep an action ready, where the rules say so)."""
    OVERWATCH = "overwatch"
    REACT_FIRE = "react_fire"
    """A reaction: shoot at the unit that triggered it."""
    REACT_EVADE = "react_evade"
    """A reaction: get out of the way."""
    INTERACT = "interact"
    """Use an objective, a door, a device (``detail`` names it)."""
    FLEE = "flee"
    """A forced move away (toward the nearest table edge, for a routing character)."""
    PASS = "pass"
    """Give up the current opportunity to act (or decline a continuation or a reaction)."""
    CHANCE = "chance"
    """Let the random source decide a chance step (initiative, an Oracle pool, an event draw)."""
    CHOOSE = "choose"
    """Pick one of named options (``detail`` option)."""


@dataclass(frozen=True)
class Action:
    """One action of a unit (or a game-level step such as a chance step or a pass)."""

    kind: str
    """What is done: an :class:`ActionKind` word or a ruleset's own."""
    unit_id: str | None = None
    path: tuple[Point, ...] = ()
    """Base-centre path in inches: the start, any bends, the end. Empty: no movement."""
    heading_deg: float | None = None
    """Facing at the end of the movement; None: the direction of the last leg."""
    target_id: str | None = None
    pick_up: str | None = None
    """Objective picked up before the action (a free pre-activation step)."""
    side: str | None = None
    """Side that passes (for PASS outside a unit's activation) or chooses."""
    detail: Pairs = ()
    """Further details as (key, JSON value) pairs: weapon, ability, objective, dice, option,
    cells."""

    def get(self, key: str, default: Any = None) -> Any:
        """A detail by key."""
        for k, value in self.detail:
            if k == key:
                return value
        return default

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object."""
        out: dict[str, Any] = {"kind": str(self.kind)}
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
        if self.detail:
            out["detail"] = pairs_to_json(self.detail)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        """Inverse of :meth:`to_json`. Any kind word is read (the ruleset judges it)."""
        try:
            kind = data["kind"]
            if not isinstance(kind, str) or not kind:
                raise ValueError("the kind must be a non-empty string")
            detail = data.get("detail", {})
            if not isinstance(detail, Mapping):
                raise ValueError("the detail must be an object")
            path = tuple((float(p[0]), float(p[1])) for p in data.get("path", ()))
            heading_deg = None if data.get("heading") is None else float(data["heading"])
            numbers = [v for point in path for v in point] + [heading_deg or 0.0]
            if not all(math.isfinite(v) for v in numbers):
                raise ValueError("a path point or the heading is not a finite number")
            return cls(
                kind=kind,
                unit_id=data.get("unit"),
                path=path,
                heading_deg=heading_deg,
                target_id=data.get("target"),
                pick_up=data.get("pick_up"),
                side=data.get("side"),
                detail=freeze_pairs(detail),
            )
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            raise EngineError(f"not an action: {dict(data)!r} ({exc})") from None


@dataclass(frozen=True, init=False)
class Order:
    """What a controller tells the player to do with one of its units, and why.

    An order holds one action or several (a unit with actions left carries them out in turn,
    RULES §1.7 ``decide -> [actions]``); ``memory`` is what the controller keeps for its side
    from now on (stored in the state by the runner; None leaves it unchanged).
    """

    actions: tuple[Action, ...]
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
    memory: Memory | None = None
    """The controller's memory for its side after this order; None: unchanged."""

    def __init__(
        self,
        actions: Action | Sequence[Action],
        rule: str,
        reason: str,
        distance_in: float = 0.0,
        target_distance_in: float | None = None,
        blocked: tuple[str, ...] = (),
        rolls: tuple[tuple[str, int], ...] = (),
        memory: Memory | None = None,
    ) -> None:
        chosen = (actions,) if isinstance(actions, Action) else tuple(actions)
        if not chosen:
            raise EngineError(f"an order needs at least one action ({rule})")
        object.__setattr__(self, "actions", chosen)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "distance_in", distance_in)
        object.__setattr__(self, "target_distance_in", target_distance_in)
        object.__setattr__(self, "blocked", blocked)
        object.__setattr__(self, "rolls", rolls)
        object.__setattr__(self, "memory", memory)

    @property
    def action(self) -> Action:
        """The first (often the only) action."""
        return self.actions[0]

    def to_json(self) -> dict[str, Any]:
        """A plain JSON object."""
        out: dict[str, Any] = {
            "action": self.action.to_json(),
            "rule": self.rule,
            "reason": self.reason,
            "distance_in": round(self.distance_in, 3),
        }
        if len(self.actions) > 1:
            out["actions"] = [a.to_json() for a in self.actions]
        if self.target_distance_in is not None:
            out["target_distance_in"] = round(self.target_distance_in, 3)
        if self.blocked:
            out["blocked"] = list(self.blocked)
        if self.rolls:
            out["rolls"] = [[p, r] for p, r in self.rolls]
        if self.memory is not None:
            out["memory"] = pairs_to_json(self.memory)
        return out


class EventType(StrEnum):
    """Named event types shared by the rulesets; ``Event.type`` is a plain string, so a ruleset
    may log types of its own."""

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

    type: str
    """What happened: an :class:`EventType` word or a ruleset's own."""
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
        out: dict[str, Any] = {"type": str(self.type), "round": self.round}
        if self.unit is not None:
            out["unit"] = self.unit
        for key, value in self.data:
            out[key] = thaw(value)
        out["text"] = self.text
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Inverse of :meth:`to_json`; any type word is read."""
        try:
            type_ = data["type"]
            if not isinstance(type_, str) or not type_:
                raise ValueError("the type must be a non-empty string")
            details = tuple(
                (k, freeze(v))
                for k, v in data.items()
                if k not in ("type", "round", "unit", "text")
            )
            return cls(
                type=type_,
                round=int(data["round"]),
                text=str(data.get("text", "")),
                unit=data.get("unit"),
                data=details,
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise EngineError(f"not an event: {dict(data)!r} ({exc})") from None


def event(type_: str, round_: int, text: str, unit: str | None = None, **data: Any) -> Event:
    """Shorthand for building an :class:`Event` with keyword details."""
    items = tuple((k, freeze(v)) for k, v in data.items())
    return Event(type=type_, round=round_, text=text, unit=unit, data=items)
