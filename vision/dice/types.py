"""What the dice reader reports: dice read, and dice it saw but will not guess."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Unreadable(StrEnum):
    """Why a die was not read."""

    COCKED = "cocked"
    """Not lying flat: tipped against a wall or another die."""
    TOUCHING = "touching"
    """Pressed against other dice so that its face cannot be told from theirs."""
    BLURRED = "blurred"
    """Its pips are too faint or smeared to count (moving, out of focus, worn away)."""
    UNCLEAR = "unclear"
    """Its pips do not form a die face."""
    EDGE = "edge"
    """Partly outside the tray or the picture."""
    UNSURE = "unsure"
    """Its face was read, but not surely enough to give the value without asking."""


SURE = 0.9
"""Least confidence at which the reader gives a value; under it a die is reported unsure, with
its guess, to ask about."""


@dataclass(frozen=True)
class DieFound:
    """A die whose top face was read."""

    value: int
    """Pips on the top face, 1-6."""
    x_px: float
    """Centre of the top face in the camera image, pixels."""
    y_px: float
    confidence: float
    """0-1: how cleanly the pips fit a face (pattern, contrast, shape)."""
    side_px: float = 0.0
    """The top face's side in the camera image, pixels (about)."""
    tray_mm: tuple[float, float] | None = None
    """Centre in the tray, millimetres (right, up) from its near-left corner; None without a
    tray."""


@dataclass(frozen=True)
class DieUnread:
    """A die the reader saw but could not read."""

    reason: Unreadable
    x_px: float
    y_px: float
    tray_mm: tuple[float, float] | None = None
    guess: int | None = None
    """For an unsure die: the value it most likely shows (to ask the player about)."""
    confidence: float = 0.0
    """For an unsure die: how surely ``guess`` was read, 0-1 (under the reader's threshold)."""


@dataclass(frozen=True)
class DiceRead:
    """Everything one image of the tray showed."""

    dice: tuple[DieFound, ...]
    unreadable: tuple[DieUnread, ...]
    tray_mm: tuple[float, float] | None = None
    """Width and depth of the tray read, millimetres (None: the whole image was read)."""

    @property
    def count(self) -> int:
        """Dice seen, read or not."""
        return len(self.dice) + len(self.unreadable)

    @property
    def values(self) -> tuple[int, ...]:
        """The values read, in reading order (left to right, far to near)."""
        return tuple(d.value for d in self.dice)

    def to_json(self) -> dict[str, object]:
        """The command's JSON: ``{"dice": [{"value", "x", "y", "confidence"}], "unreadable": N}``."""
        return {
            "dice": [
                {
                    "value": d.value,
                    "x": round(d.x_px, 1),
                    "y": round(d.y_px, 1),
                    "confidence": round(d.confidence, 3),
                }
                for d in self.dice
            ],
            "unreadable": len(self.unreadable),
        }
