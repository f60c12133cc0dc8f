"""Footage frames to board snapshots, fast enough for replay.

The replay looks at every ``stride``-th frame and runs the tag detector only when the picture of
the table changed since the last detection (a small grey thumbnail is compared, which costs a
fraction of a millisecond); while nothing changes the previous sightings stand. Sightings and the
image go to the project's tracker (``vision.tracker.Tracker``), which gives the BoardSnapshot: tag
poses in table inches, seen / held / lifted, and the settled flag judged from the image.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

from assistant.errors import UserError
from assistant.replay.footage import FootageReader
from calibration.profile import TableProfile, build_profile
from calibration.table import CORNER_IDS
from vision.detector import Detector
from vision.tracker import Tracker
from vision.types import BoardSnapshot, PieceSpec, TagSighting

GreyImage = npt.NDArray[np.uint8]


class NoCornerTagsError(UserError):
    """The footage never shows the corner tags, so the table cannot be mapped."""


class SightingDetector(Protocol):
    """Grey image -> tag sightings in pixels."""

    def detect(self, grey: GreyImage) -> list[TagSighting]: ...


def make_detector(dictionary: str = "DICT_4X4_50") -> SightingDetector:
    """The project's tag detector for one dictionary."""
    return Detector(dictionary=dictionary)


def _grey(image: npt.NDArray[np.uint8]) -> GreyImage:
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)  # type: ignore[return-value]


def fit_profile_from_footage(
    reader: FootageReader,
    detector: SightingDetector,
    width_in: float = 24.0,
    depth_in: float = 24.0,
    *,
    search_s: float = 30.0,
    frames_wanted: int = 5,
) -> TableProfile:
    """Calibrate the table from the corner tags seen in the footage's first ``search_s`` seconds.

    Uses up to ``frames_wanted`` frames that show the most corner tags and takes the median of
    each corner's pixels; raises NoCornerTagsError when fewer than two corner tags are ever seen.
    """
    stride = max(1, round(reader.fps / 3))
    limit = search_s * reader.fps
    best: list[dict[int, npt.NDArray[np.float64]]] = []
    for frame in reader.frames(stride, grey=True):
        if frame.index > limit:
            break
        found: dict[int, npt.NDArray[np.float64]] = {}
        for s in detector.detect(frame.image):
            if s.tag_id in CORNER_IDS:
                found[int(s.tag_id)] = np.array(s.corners_px, dtype=np.float64)
        if len(found) >= 2:
            best.append(found)
            if sum(len(b) == 4 for b in best) >= frames_wanted:
                break
    if not best:
        raise NoCornerTagsError(
            f"no corner tags (ids {list(CORNER_IDS)}) found in {reader.path} in its first "
            f"{search_s:.0f} s: the replay needs them to map the table (or give --profile)"
        )
    most = max(len(b) for b in best)
    chosen = [b for b in best if len(b) == most][:frames_wanted]
    corners = {
        i: np.median(np.stack([b[i] for b in chosen]), axis=0) for i in chosen[0] if i in chosen[0]
    }
    return build_profile(corners, reader.size_px, width_in, depth_in)


@dataclass
class ChangeGate:
    """Says whether the table picture changed since the last detection, from thumbnails.

    ``changed_fraction`` is the share of thumbnail pixels whose grey level moved by more than
    ``level`` (0-255) since the last frame that was detected on.
    """

    width_px: int = 160
    level: int = 18
    trigger_fraction: float = 0.0005
    _reference: GreyImage | None = None

    def thumbnail(self, grey: GreyImage) -> GreyImage:
        """A small blurred copy (``width_px`` wide) used for all comparisons."""
        h, w = grey.shape[:2]
        small = cv2.resize(
            grey,
            (self.width_px, max(1, round(h * self.width_px / w))),
            interpolation=cv2.INTER_AREA,
        )
        return cv2.GaussianBlur(small, (3, 3), 0)  # type: ignore[return-value]

    def changed(self, thumb: GreyImage) -> bool:
        """True when ``thumb`` differs from the one detected on last (then it becomes the ref)."""
        if self._reference is None:
            self._reference = thumb
            return True
        frac = float(np.count_nonzero(cv2.absdiff(thumb, self._reference) > self.level))
        if frac / thumb.size >= self.trigger_fraction:
            self._reference = thumb
            return True
        return False


@dataclass
class FrameObserver:
    """Turns processed frames into snapshots: change gate, detector, the project's tracker.

    ``confirm_frames`` and ``hold_s`` are the tracker's (processed frames, seconds).
    """

    profile: TableProfile
    detector: SightingDetector
    ids_in_use: frozenset[int] | None = None
    pieces: tuple[PieceSpec, ...] = ()
    redetect_s: float = 1.0
    """Detect at least this often (seconds) even when the picture seems unchanged."""
    confirm_frames: int = 3
    hold_s: float = 1.0
    gate: ChangeGate = field(default_factory=ChangeGate)
    detections: int = 0
    frames: int = 0
    _tracker: Tracker | None = None
    _last: list[TagSighting] = field(default_factory=list)
    _last_detect_t: float = -1e9

    def __post_init__(self) -> None:
        self._tracker = Tracker(
            self.profile,
            self.ids_in_use,
            pieces=self.pieces,
            confirm_frames=self.confirm_frames,
            hold_s=self.hold_s,
        )

    @property
    def tracker(self) -> Tracker:
        """The tracker the snapshots come from."""
        assert self._tracker is not None
        return self._tracker

    def observe(self, t: float, frame_index: int, image: npt.NDArray[np.uint8]) -> BoardSnapshot:
        """One processed frame (BGR or grey) at ``t`` seconds."""
        grey = _grey(image)
        self.frames += 1
        if (
            self.gate.changed(self.gate.thumbnail(grey))
            or t - self._last_detect_t >= self.redetect_s
        ):
            # The whole frame: the tracker's search windows can miss a piece set down where
            # nothing was tracked once the hand has gone.
            self._last = self.detector.detect(grey)
            self._last_detect_t = t
            self.detections += 1
        return self.tracker.update(t, frame_index, self._last, grey)

    @property
    def last_sightings(self) -> list[TagSighting]:
        """Sightings (pixels) the last snapshot was built from."""
        return self._last
