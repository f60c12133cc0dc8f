"""Footage frames to board snapshots, fast enough for replay.

The replay looks at every ``stride``-th frame and runs the tag detector at full resolution only
where the picture changed lately (a small grey thumbnail is compared with the previous one, which
costs a fraction of a millisecond): sightings elsewhere stand as they were. The whole frame is
searched every ``redetect_s`` seconds and when most of it changed (a hand sweeping over the
table). Sightings and the image go to the project's tracker (``vision.tracker.Tracker``), which
gives the BoardSnapshot: tag poses in table inches, seen / held / lifted, and the settled flag
judged from the image.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

from assistant.errors import UserError
from assistant.replay.footage import FootageReader
from assistant.replay.hands import HandWatch
from assistant.table_fit import CornerFrames
from calibration.profile import TableProfile, build_profile
from calibration.table import CORNER_IDS
from vision.change_gate import ChangeGate
from vision.detector import Detector, Region
from vision.settle import SettleJudge
from vision.tracker import Tracker
from vision.types import BoardSnapshot, PieceSpec, TagSighting

GreyImage = npt.NDArray[np.uint8]


class NoCornerTagsError(UserError):
    """The footage never shows the corner tags, so the table cannot be mapped."""


class SightingDetector(Protocol):
    """Grey image (optionally only some windows of it) -> tag sightings in pixels."""

    def detect(
        self, grey: GreyImage, regions: Sequence[Region] | None = None
    ) -> list[TagSighting]: ...


def make_detector(dictionary: str = "DICT_4X4_50") -> SightingDetector:
    """The project's tag detector for one dictionary."""
    return Detector(dictionary=dictionary)


def _grey(image: npt.NDArray[np.uint8]) -> GreyImage:
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)  # type: ignore[return-value]


def gather_footage_corners(
    reader: FootageReader,
    detector: SightingDetector,
    *,
    search_s: float = 30.0,
    frames_wanted: int = 5,
) -> CornerFrames:
    """The corner tags seen in the footage's first ``search_s`` seconds: up to
    ``frames_wanted`` frames that show the most corner tags, each corner's pixels combined by
    median; raises NoCornerTagsError when fewer than two corner tags are ever seen."""
    stride = max(1, round(reader.fps / 3))
    limit = search_s * reader.fps
    best: list[tuple[dict[int, npt.NDArray[np.float64]], GreyImage]] = []
    missing = 0
    for frame in reader.frames(stride, grey=True):
        if frame.index > limit:
            break
        found: dict[int, npt.NDArray[np.float64]] = {}
        for s in detector.detect(frame.image):
            if s.tag_id in CORNER_IDS:
                found[int(s.tag_id)] = np.array(s.corners_px, dtype=np.float64)
        if len(found) < len(CORNER_IDS):
            missing += 1
        if len(found) >= 2:
            best.append((found, frame.image))
            if sum(len(b) == 4 for b, _ in best) >= frames_wanted:
                break
    if not best:
        raise NoCornerTagsError(
            f"no corner tags (ids {list(CORNER_IDS)}) found in {reader.path} in its first "
            f"{search_s:.0f} s: the replay needs them to map the table (or give --profile)"
        )
    most = max(len(b) for b, _ in best)
    chosen = [b for b in best if len(b[0]) == most][:frames_wanted]
    corners = {
        i: np.median(np.stack([b[i] for b, _ in chosen if i in b]), axis=0) for i in chosen[0][0]
    }
    return CornerFrames(
        corners_px=corners,
        image=chosen[-1][1],
        image_size_px=reader.size_px,
        frames_used=len(chosen),
        frames_missing=missing,
        per_frame=tuple(b for b, _ in chosen),
    )


def fit_profile_from_footage(
    reader: FootageReader,
    detector: SightingDetector,
    width_in: float = 24.0,
    depth_in: float = 24.0,
    *,
    search_s: float = 30.0,
    frames_wanted: int = 5,
) -> TableProfile:
    """Calibrate the table from the corner tags seen in the footage's first ``search_s`` seconds
    (:func:`gather_footage_corners`; not judged: see :func:`assistant.table_fit.judge`)."""
    gathered = gather_footage_corners(
        reader, detector, search_s=search_s, frames_wanted=frames_wanted
    )
    return build_profile(gathered.corners_px, reader.size_px, width_in, depth_in)


def _inside(s: TagSighting, regions: list[Region]) -> bool:
    cx = sum(p[0] for p in s.corners_px) / 4.0
    cy = sum(p[1] for p in s.corners_px) / 4.0
    return any(r.x0 <= cx < r.x1 and r.y0 <= cy < r.y1 for r in regions)


def _colour_view(judge: SettleJudge, image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The judge's grid in colour (grey footage: three equal channels)."""
    small = judge.warp(image)
    if small.ndim == 2:
        small = np.asarray(cv2.cvtColor(small, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    return small


FIGURE_OVERHANG_MM = 15.0
"""How far beyond its base a figure (arms, weapons, a lean) changes the picture from above."""


def piece_footprint_mm2(pieces: Sequence[PieceSpec]) -> float | None:
    """The largest patch of the table (mm^2) one of ``pieces`` put down changes: its base and
    the figure's overhang; None without pieces. In footage a piece whose figure hides its own
    tag changes such a patch where it is put down, and the rests between moves are short: the
    settle judge takes such patches as pieces put down (vision/settle.py) instead of waiting
    ``absorb_s`` for them."""
    bases = [p.base_diameter_mm for p in pieces if p.base_diameter_mm > 0]
    if not bases:
        return None
    return float(np.pi * (max(bases) / 2.0 + FIGURE_OVERHANG_MM) ** 2)


@dataclass
class FrameObserver:
    """Turns processed frames into snapshots: change gate, detector, the project's tracker.

    ``confirm_frames`` and ``hold_s`` are the tracker's (processed frames, seconds).
    """

    profile: TableProfile
    detector: SightingDetector
    ids_in_use: frozenset[int] | None = None
    pieces: tuple[PieceSpec, ...] = ()
    redetect_s: float = 2.0
    """Search the whole frame at least this often (seconds)."""
    full_search_share: float = 0.35
    """Search the whole frame when the changed windows cover more than this share of it."""
    confirm_frames: int = 3
    hold_s: float = 1.0
    absorb_s: float = 3.0
    """An unexplained change still for this long (seconds) is taken into the background. The
    live judge waits 8 s (a player's hand may rest on the table); in footage, a piece whose
    tag is hidden leaves such a change when it is moved or taken off, and the next move comes
    within seconds: at 8 s, one such move kept a battle's board unsettled for 36 s and its
    moves unread."""
    gate: ChangeGate = field(default_factory=ChangeGate)
    detections: int = 0
    frames: int = 0
    _tracker: Tracker | None = None
    watch: HandWatch | None = None
    """The picture between settled boards (made with the tracker)."""
    _last: list[TagSighting] = field(default_factory=list)
    _last_full_t: float = -1e9
    _recent: deque[list[Region]] = field(default_factory=lambda: deque(maxlen=5))
    _full_until: float = -1e9
    """Search the whole frame until this time (seconds): set when the camera moved."""
    camera_moves: list[float] = field(default_factory=list)
    """When (seconds) the corner tags showed the camera had moved and the table was mapped
    again."""

    def _corner_windows(self, w: int, h: int) -> list[Region]:
        """Windows around the corner tags' last sightings (pixels)."""
        out = []
        for s in self._last:
            if s.tag_id not in CORNER_IDS:
                continue
            xs = [p[0] for p in s.corners_px]
            ys = [p[1] for p in s.corners_px]
            m = max(max(xs) - min(xs), max(ys) - min(ys))
            out.append(
                Region(
                    int(min(xs) - m), int(min(ys) - m), int(max(xs) + m), int(max(ys) + m)
                ).clipped(w, h)
            )
        return out

    def __post_init__(self) -> None:
        self._tracker = Tracker(
            self.profile,
            self.ids_in_use,
            pieces=self.pieces,
            confirm_frames=self.confirm_frames,
            hold_s=self.hold_s,
        )
        judge = self._tracker.settle_judge
        if judge is not None:
            judge.absorb_s = self.absorb_s
            judge.footprint_mm2 = piece_footprint_mm2(self.pieces)
        if judge is not None and self.watch is None:
            self.watch = HandWatch(judge.view_to_table, judge.mm_per_px)

    @property
    def tracker(self) -> Tracker:
        """The tracker the snapshots come from."""
        assert self._tracker is not None
        return self._tracker

    def observe(
        self,
        t: float,
        frame_index: int,
        image: npt.NDArray[np.uint8],
        grey: GreyImage | None = None,
    ) -> BoardSnapshot:
        """One processed frame (BGR or grey) at ``t`` seconds; ``grey``: its grey image when the
        caller has it already."""
        grey = _grey(image) if grey is None else grey
        h, w = grey.shape[:2]
        self.frames += 1
        changed = self.gate.changed_regions(self.gate.thumbnail(grey), (w, h))
        regions: list[Region] | None = None
        if changed is not None:
            # Where the picture changed lately, not only since the last frame: a tag uncovered
            # while a hand withdraws may read only a frame or two later, when that spot no
            # longer changes.
            self._recent.append(changed)
            regions = [r for batch in self._recent for r in batch]
            if sum(r.area for r in regions) > self.full_search_share * w * h:
                regions = None
        if regions is not None and changed is not None:
            # The corner tags are looked at in every changed frame: a camera bumped by a few
            # millimetres changes the picture only along sharp edges, and stale corner
            # sightings would hide the bump from the drift check until the next full search.
            regions = regions + self._corner_windows(w, h)
        if regions is None or t - self._last_full_t >= self.redetect_s or t < self._full_until:
            self._last = self.detector.detect(grey)
            self._last_full_t = t
            self.detections += 1
        elif regions:
            # Only where the picture changed; sightings elsewhere still hold.
            # Each window is searched with a margin so that a tag whose centre lies inside it is
            # seen whole; only sightings centred inside the windows replace the old ones.
            m = self.gate.pad_px
            wider = [Region(r.x0 - m, r.y0 - m, r.x1 + m, r.y1 + m).clipped(w, h) for r in regions]
            fresh = self.detector.detect(grey, wider)
            kept = [s for s in self._last if not _inside(s, regions)]
            self._last = kept + [s for s in fresh if _inside(s, regions)]
            self.detections += 1
        mapping = self.tracker.mapping
        snap = self.tracker.update(t, frame_index, self._last, grey)
        if self.tracker.mapping is not mapping:
            # The camera moved: every sighting is stale until the whole frame is searched
            # again; do so while it may still be settling.
            self._full_until = t + self.hold_s
            self.camera_moves.append(t)
        judge = self.tracker.settle_judge
        if self.watch is not None and judge is not None:
            self.watch.feed(
                t,
                snap.settled,
                judge.view,
                lambda: _colour_view(judge, image),
                camera_moved=self.tracker.mapping is not mapping,
            )
        return snap

    @property
    def last_sightings(self) -> list[TagSighting]:
        """Sightings (pixels) the last snapshot was built from."""
        return self._last
