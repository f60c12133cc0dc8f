"""Footage frames to board snapshots, fast enough for replay.

The replay looks at every ``stride``-th frame and runs the tag detector only when the picture of
the table changed since the last detection (a small grey thumbnail is compared, which costs a
fraction of a millisecond); while nothing changes the previous sightings stand. Sightings go to
the project's tracker (``vision.tracker.Tracker``) when it is installed, else to the small
tracker below, which gives the same ``BoardSnapshot``: tag poses in table inches, seen / held /
lifted, and a settled flag judged from the image (nothing moving, nothing over the table).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from assistant.errors import UserError
from assistant.replay.footage import FootageReader
from calibration.profile import TableProfile, build_profile
from calibration.table import CORNER_IDS
from vision.types import BoardSnapshot, TagId, TagPose, TagSighting, TagState

GreyImage = npt.NDArray[np.uint8]


class NoCornerTagsError(UserError):
    """The footage never shows the corner tags, so the table cannot be mapped."""


class SightingDetector(Protocol):
    """Grey image -> tag sightings in pixels."""

    def detect(self, grey: GreyImage) -> list[TagSighting]: ...


class ArucoDetector:
    """cv2.aruco with the parameters measured in DESIGN's research notes (pixels in and out)."""

    def __init__(self, dictionary: str = "DICT_4X4_50") -> None:
        if not hasattr(cv2.aruco, dictionary):
            raise UserError(f"unknown ArUco dictionary {dictionary!r}")
        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
        p = cv2.aruco.DetectorParameters()
        p.adaptiveThreshWinSizeMin = 5
        p.adaptiveThreshWinSizeMax = 13
        p.adaptiveThreshWinSizeStep = 8
        p.minMarkerPerimeterRate = 0.02
        p.maxMarkerPerimeterRate = 0.5
        p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_CONTOUR
        self._detector = cv2.aruco.ArucoDetector(d, p)

    def detect(self, grey: GreyImage) -> list[TagSighting]:
        """Every decoded marker of the dictionary in a grey image."""
        corners, ids, _ = self._detector.detectMarkers(grey)
        if ids is None:
            return []
        return [
            TagSighting(TagId(int(i)), tuple((float(x), float(y)) for x, y in c.reshape(4, 2)))
            for c, i in zip(corners, ids.ravel(), strict=True)
        ]


def make_detector(dictionary: str = "DICT_4X4_50") -> SightingDetector:
    """The project's detector (``vision.detector.Detector``) when present, else ArucoDetector."""
    try:
        from vision.detector import Detector  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return ArucoDetector(dictionary)
    det: SightingDetector = Detector(dictionary=dictionary)
    return det


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
    _previous: GreyImage | None = None

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

    def motion(self, thumb: GreyImage) -> float:
        """Share of thumbnail pixels that changed since the previous processed frame."""
        prev, self._previous = self._previous, thumb
        if prev is None:
            return 0.0
        return float(np.count_nonzero(cv2.absdiff(thumb, prev) > self.level)) / thumb.size


@dataclass
class _Track:
    x_in: float
    y_in: float
    heading_deg: float
    last_seen_t: float
    streak: int = 0
    confirmed: bool = False


@dataclass
class SimpleTracker:
    """Tags in table inches with seen/held/lifted and a settled flag judged from the image.

    Used when ``vision.tracker`` is not installed. A tag is accepted after ``confirm_frames``
    processed frames in a row inside the table; it is HELD up to ``hold_s`` seconds after it was
    last seen, then LIFTED. The board is settled when the thumbnail has not moved for
    ``still_s`` seconds and no large region differs from the last settled picture (a hand held
    still), or when it has been still for ``stale_s`` seconds whatever it shows.
    """

    profile: TableProfile
    ids_in_use: frozenset[int] | None = None
    confirm_frames: int = 2
    hold_s: float = 0.6
    still_s: float = 0.3
    motion_fraction: float = 0.002
    hand_area_in2: float = 6.0
    stale_s: float = 3.0
    _tracks: dict[int, _Track] = field(default_factory=dict)
    _still_since: float | None = None
    _background: GreyImage | None = None

    def update(
        self,
        t: float,
        frame_index: int,
        sightings: Sequence[TagSighting],
        thumb: GreyImage,
        motion: float,
    ) -> BoardSnapshot:
        """One processed frame: sightings in pixels, the table thumbnail and its motion share."""
        mapping = self.profile.mapping()
        counts: dict[int, int] = {}
        for s in sightings:
            counts[int(s.tag_id)] = counts.get(int(s.tag_id), 0) + 1
        duplicates = tuple(TagId(i) for i, n in counts.items() if n > 1 and i not in CORNER_IDS)
        seen_now: set[int] = set()
        for s in sightings:
            tid = int(s.tag_id)
            if tid in CORNER_IDS or counts[tid] > 1:
                continue
            if self.ids_in_use is not None and tid not in self.ids_in_use:
                continue
            pts = mapping.to_table_in(s.corners_px, self.profile.tag_height_mm(tid))
            cx, cy = float(pts[:, 0].mean()), float(pts[:, 1].mean())
            margin = 0.5
            if not (
                -margin <= cx <= self.profile.width_in + margin
                and -margin <= cy <= self.profile.depth_in + margin
            ):
                continue
            up = (pts[0] + pts[1]) / 2 - (pts[3] + pts[2]) / 2
            heading = math.degrees(math.atan2(float(up[0]), float(up[1]))) % 360.0
            track = self._tracks.get(tid)
            if track is None:
                track = self._tracks[tid] = _Track(cx, cy, heading, t)
            track.streak = track.streak + 1 if track.last_seen_t >= t - self.hold_s else 1
            track.x_in, track.y_in, track.heading_deg, track.last_seen_t = cx, cy, heading, t
            if track.streak >= self.confirm_frames:
                track.confirmed = True
            seen_now.add(tid)
        tags = []
        for tid, track in sorted(self._tracks.items()):
            if not track.confirmed:
                continue
            if tid in seen_now:
                state = TagState.SEEN
            elif t - track.last_seen_t <= self.hold_s:
                state = TagState.HELD
            else:
                state = TagState.LIFTED
            tags.append(TagPose(TagId(tid), track.x_in, track.y_in, track.heading_deg, state))
        settled = self._settled(t, thumb, motion)
        return BoardSnapshot(t, frame_index, tuple(tags), settled, duplicates)

    def _settled(self, t: float, thumb: GreyImage, motion: float) -> bool:
        if motion > self.motion_fraction:
            self._still_since = None
            return False
        if self._still_since is None:
            self._still_since = t
        if t - self._still_since < self.still_s:
            return False
        if self._background is None or t - self._still_since >= self.stale_s:
            self._background = thumb
            return True
        diff = (cv2.absdiff(thumb, self._background) > 25).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(diff, connectivity=8)
        largest = int(stats[1:, cv2.CC_STAT_AREA].max()) if n > 1 else 0
        px_per_in = thumb.shape[1] / (self.profile.width_in + 4.0)
        if largest > self.hand_area_in2 * px_per_in**2:
            return False  # something big and still over the table: a hand
        self._background = thumb
        return True


@dataclass
class FrameObserver:
    """Turns processed frames into snapshots: change gate, detector, tracker."""

    profile: TableProfile
    detector: SightingDetector
    ids_in_use: frozenset[int] | None = None
    redetect_s: float = 1.0
    """Detect at least this often (seconds) even when the picture seems unchanged."""
    gate: ChangeGate = field(default_factory=ChangeGate)
    detections: int = 0
    frames: int = 0
    _tracker: Any = None
    _last: list[TagSighting] = field(default_factory=list)
    _last_detect_t: float = -1e9

    def __post_init__(self) -> None:
        self._tracker = SimpleTracker(self.profile, self.ids_in_use)

    def observe(self, t: float, frame_index: int, image: npt.NDArray[np.uint8]) -> BoardSnapshot:
        """One processed frame (BGR or grey) at ``t`` seconds."""
        grey = _grey(image)
        thumb = self.gate.thumbnail(grey)
        motion = self.gate.motion(thumb)
        self.frames += 1
        if self.gate.changed(thumb) or t - self._last_detect_t >= self.redetect_s:
            self._last = self.detector.detect(grey)
            self._last_detect_t = t
            self.detections += 1
        return self._tracker.update(t, frame_index, self._last, thumb, motion)  # type: ignore[no-any-return]

    @property
    def last_sightings(self) -> list[TagSighting]:
        """Sightings (pixels) the last snapshot was built from."""
        return self._last


def ids_from_sightings(sightings: Iterable[TagSighting]) -> frozenset[int]:
    """The non-corner ids among sightings."""
    return frozenset(int(s.tag_id) for s in sightings if int(s.tag_id) not in CORNER_IDS)
