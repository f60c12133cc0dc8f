"""Rolls seen in the dice tray of recorded footage (issue 10: the camera sees every roll).

Contract between the footage side (this module, `run.py` / `observe.py`) and the engine side
(`engine_*.py`, `GameReplayer.replay(..., seen_rolls=...)`):

- the replay's frame loop finds the kit's dice tray (tags 48/49) and emits one `SeenRoll` each
  time dice come to rest in the tray after it was empty; the list handed to the engine is in time
  order (`t_s` ascending, seconds from the clip's start, the time the dice settled);
- `values` are the faces read by `vision.dice` (one int per die, in the reader's order, which is
  left to right in the tray, not the order the rules name them); `known` is "seen" when every die
  was read, "unknown" when the reader could not read the roll (then `values` is empty);
- a seen roll tells the count and faces of one physical roll, not its purpose: the engine matches
  each seen roll to the next roll its rules ask for, in order; ``soloscope footage --dice tray``
  shows each d6 the engine logs as a roll of its own (one die, one SeenRoll per logged d6 roll,
  in log order); rolls of other dice are not shown;
- the rolls are also timeline events (kind "roll", source "tray", "values", known) and
  ``summary.rolls`` = {"seen", "unknown"} (:mod:`assistant.replay.document`);
- footage without a tray gives an empty list, and the replay is the one it was before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError
from calibration.pose import TableMapping
from calibration.profile import TableProfile
from calibration.tray import TRAY_TAG_IDS, locate_tray
from vision.dice import DiceRead, DiceView, read_dice, tray_view
from vision.types import TagSighting

Image = npt.NDArray[np.uint8]

SEEN = "seen"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class SeenRoll:
    """One roll that came to rest in the tray: when (seconds), the faces read, how known."""

    t_s: float
    values: tuple[int, ...]
    known: str = SEEN

    def as_json(self) -> dict[str, object]:
        """The roll as a JSON object (timeline.json, the viewer)."""
        return {"t": round(self.t_s, 3), "values": list(self.values), "known": self.known}


SETTLE_S = 0.4
"""The tray must not change for this long (seconds of footage) before its dice are read."""
SETTLE_FRAMES = 3
"""...and for at least this many processed frames."""
CHANGE_LEVEL = 6.0
"""A pixel of the small tray picture changed when its grey level moved by more than this."""
CHANGE_SHARE = 0.004
"""The tray changed when more than this share of its small picture's pixels did."""


class TrayWatch:
    """Watches the dice tray in the replay's frames and tells each roll once.

    The tray is found by its two tags (48/49) off the play area in the frame's sightings,
    through the table's mapping (whose camera pose tells the reader how a flat die's sides
    show), and found again when the camera is re-fitted. Like the live game's
    camera dice (:mod:`assistant.session.camera_dice`), it waits for the tray to settle, then
    reads it once: dice at rest after the tray was empty are a roll.
    """

    def __init__(
        self,
        profile: TableProfile,
        *,
        read: Callable[[Image, DiceView], DiceRead] = read_dice,
    ) -> None:
        self.profile = profile
        self.read = read
        self.view: DiceView | None = None
        self.rolls: list[SeenRoll] = []
        self.reads = 0
        self._small: Image | None = None
        self._still_since: float | None = None
        self._still_frames = 0
        self._read_since_change = False
        self._empty = True
        self._mapping: TableMapping | None = None
        self._default = profile.mapping()

    def look(
        self,
        t: float,
        image: Image,
        sightings: Sequence[TagSighting],
        mapping: TableMapping | None = None,
    ) -> SeenRoll | None:
        """One processed frame at ``t`` seconds with its tag sightings (pixels) and the table's
        mapping now (default the profile's; a camera bumped mid-game is re-fitted); the roll
        that came to rest in it, if any (also kept in ``rolls``)."""
        mapping = self._default if mapping is None else mapping
        if self.view is None or mapping is not self._mapping:
            view = self._find(image, sightings, mapping)
            if view is not None:
                self.view, self._mapping = view, mapping
                self._small = None
            if self.view is None:
                return None
        self._changed(t, image)
        if self._read_since_change or not self._settled(t):
            return None
        reading = self.read(image, self.view)
        self.reads += 1
        self._read_since_change = True
        if reading.count == 0:
            self._empty = True
            return None
        if not self._empty:
            return None  # the same dice, or more added before the tray was cleared
        self._empty = False
        assert self._still_since is not None
        if reading.unreadable:
            roll = SeenRoll(self._still_since, (), UNKNOWN)
        else:
            roll = SeenRoll(self._still_since, tuple(reading.values), SEEN)
        self.rolls.append(roll)
        return roll

    def _find(
        self, image: Image, sightings: Sequence[TagSighting], mapping: TableMapping
    ) -> DiceView | None:
        """The tray's view from its two tags off the play area, or None when not both seen."""
        pairs = [(int(s.tag_id), s.corners_px) for s in sightings if s.tag_id in TRAY_TAG_IDS]
        if len({i for i, _ in pairs}) < 2:
            return None
        size = (int(image.shape[1]), int(image.shape[0]))
        try:
            tray = locate_tray(pairs, mapping, self.profile.width_in, self.profile.depth_in)
        except CalibrationError:
            return None
        return tray_view(mapping, tray, size)

    def _changed(self, t: float, image: Image) -> None:
        assert self.view is not None
        top = self.view.render(image)
        grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY) if top.ndim == 3 else top
        small = cv2.resize(grey, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
        prev, self._small = self._small, small
        if prev is None or prev.shape != small.shape:
            self._still_since, self._still_frames = t, 1
            self._read_since_change = False
            return
        moved = np.abs(small.astype(np.int16) - prev.astype(np.int16)) > CHANGE_LEVEL
        if float(moved.mean()) > CHANGE_SHARE:
            self._still_since, self._still_frames = t, 1
            self._read_since_change = False
            return
        self._still_frames += 1

    def _settled(self, t: float) -> bool:
        since = self._still_since
        return since is not None and t - since >= SETTLE_S and self._still_frames >= SETTLE_FRAMES
