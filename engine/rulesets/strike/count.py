"""The strike count of the strike system (RULES §3.1.g with D001A-04): how each ally sees the
target (its sighting, made by the board), which allies count toward removing it and which are
disregarded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.geometry import Point

CLEAR, OBSCURED, COVER = "clear", "obscured", "cover"
"""The three ways an ally may see the target (D001A-04)."""

Segment = tuple[Point, Point]


@dataclass(frozen=True)
class Sighting:
    """How one soldier sees a target: the three sight lines (centre, left, right), which are
    clear, the class, and what blocked or covered."""

    viewer: str
    target: str
    lines: tuple[Segment, Segment, Segment]
    clear: tuple[bool, bool, bool]
    cls: str | None
    """clear, obscured or cover; None: not visible (every line blocked)."""
    blocked_by: tuple[str, ...] = ()
    """What blocks any of the lines (bases and terrain, by name)."""
    cover_by: str | None = None
    """The terrain piece giving cover, if any."""

    @property
    def visible(self) -> bool:
        """At least one line is clear (G-03)."""
        return self.cls is not None


@dataclass(frozen=True)
class Counted:
    """One ally in a strike count."""

    unit: str
    weight: int
    cls: str
    gap_in: float
    """Edge-to-edge distance to the target, inches."""
    reason: str = ""
    """Why it was disregarded (empty when it counts)."""

    def to_json(self) -> dict[str, object]:
        """The ``counted`` / ``disregarded`` entry of a strike line."""
        out: dict[str, object] = {"unit": self.unit, "weight": self.weight, "class": self.cls}
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class StrikeCount:
    """The result of §3.1.g for one strike."""

    striker: str
    target: str
    toughness: int
    counted: tuple[Counted, ...]
    disregarded: tuple[Counted, ...]
    sightings: tuple[Sighting, ...]
    """Every ally's sight lines to the target (counted or disregarded), for the picture."""

    @property
    def total(self) -> int:
        """The summed weight of the allies that count."""
        return sum(c.weight for c in self.counted)

    @property
    def removed(self) -> bool:
        """The count reaches the target's Toughness."""
        return self.total >= self.toughness


def disregard_order(entry: Counted) -> tuple[float, float]:
    """D001A-04c: the "first" ally of a class is the lowest weight, ties to the farthest from
    the target (the order most favourable to the counting player)."""
    return (entry.weight, -entry.gap_in)


def apply_disregard(entries: Sequence[Counted]) -> tuple[tuple[Counted, ...], tuple[Counted, ...]]:
    """Steps 5-6 of §3.1.g: (counted, disregarded): the first obscured ally and the first two
    in-cover allies lose their weight (D001A-04c ordering); the rest count, in given order."""
    dropped: list[Counted] = []
    for cls, how_many, why in (
        (OBSCURED, 1, "the first ally it is obscured to"),
        (COVER, 2, "one of the first two allies it is in cover from"),
    ):
        same = sorted((e for e in entries if e.cls == cls), key=disregard_order)
        dropped += [Counted(e.unit, e.weight, e.cls, e.gap_in, why) for e in same[:how_many]]
    gone = {d.unit for d in dropped}
    kept = tuple(e for e in entries if e.unit not in gone)
    return kept, tuple(dropped)
