"""The tracker: tag sightings (pixels) in, a BoardSnapshot (table inches, degrees) out.

Per frame it (1) checks the corner tags for drift and re-fits the mapping if the camera moved,
(2) keeps only ids in use whose centre maps inside the table area, (3) drops ids seen twice
(reported in ``duplicates``, neither trusted), (4) maps each tag through the table plane at its
own height, (5) confirms new tags over ``confirm_frames`` consistent sightings (short gaps
allowed), (6) smooths still tags (the mean of the measurements since the tag last moved) and
jumps at once to a real move
(beyond ``move_mm`` or ``move_deg``), (7) reports a hidden tag "held" for ``hold_s`` and then
"lifted", and (8) judges the settled flag from the image (vision.settle) and the tags.

It also plans where the next frame needs searching (:meth:`Tracker.search_regions`): around
known tags and where the image moved, with a full-frame search on each of the first
``confirm_frames`` frames and every ``full_search_every`` frames after. No display and no file writing here.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from calibration.drift import DriftMonitor
from calibration.profile import TableProfile
from calibration.table import CORNER_IDS, MM_PER_IN
from vision.change_gate import ChangeGate
from vision.detector import Detector, Region, to_grey
from vision.errors import VisionError
from vision.pieces import PieceFit, fit_piece
from vision.settle import Place, SettleJudge
from vision.types import (
    BoardSnapshot,
    Frame,
    PiecePose,
    PieceSpec,
    TagId,
    TagPose,
    TagSighting,
    TagState,
)


def live_still_gate() -> ChangeGate:
    """The live pipeline's still gate: a frame is still when every pixel of a 240 px wide
    thumbnail (8 px blocks at 1080p, every other pixel of a block sampled) stays within 4 grey
    levels of the last frame searched. A sharp tag edge moved by one pixel at 1080p moves its
    block by about 12 levels; a webcam's sensor noise in a dim room (7.6 levels a pixel) moves
    a block by about 1, so a noisy camera is searched more often, never less."""
    return ChangeGate(width_px=240, level=4)


@dataclass(frozen=True)
class TagMeasure:
    """One tag mapped to the table: centre inches, heading degrees clockwise from +y, side mm."""

    x_in: float
    y_in: float
    heading_deg: float
    side_mm: float


def measure_tag(corners_table_in: npt.NDArray[np.float64]) -> TagMeasure:
    """Centre, heading and side of a tag from its four corners on the table (inches, OpenCV
    order: top-left, top-right, bottom-right, bottom-left as printed; "up" = heading)."""
    c = corners_table_in
    centre = c.mean(axis=0)
    up = (c[0] - c[3]) + (c[1] - c[2])
    right = (c[1] - c[0]) + (c[2] - c[3])
    v = up + np.array([-right[1], right[0]])
    heading = math.degrees(math.atan2(v[0], v[1])) % 360.0
    side = float((np.linalg.norm(up) + np.linalg.norm(right)) / 4.0) * MM_PER_IN
    return TagMeasure(float(centre[0]), float(centre[1]), heading, side)


#: A tag being (re)confirmed may be missed in this many frames in a row and keep its count: a
#: marginal tag (small, at the far edge) decodes in most frames, not all; clutter that decodes
#: by chance does not come back at the same place.
CONFIRM_GAP_FRAMES = 2


def _angle_diff(a: float, b: float) -> float:
    return (a - b + 180.0) % 360.0 - 180.0


def _far(a: TagMeasure, b: TagMeasure, mm: float, deg: float) -> bool:
    d_mm = math.hypot(a.x_in - b.x_in, a.y_in - b.y_in) * MM_PER_IN
    return d_mm > mm or abs(_angle_diff(a.heading_deg, b.heading_deg)) > deg


@dataclass
class _Track:
    tag_id: TagId
    x_in: float
    y_in: float
    heading_deg: float
    side_mm: float
    last_seen_t: float
    confirmed: bool = False
    hits: int = 1
    history: deque[tuple[float, float, float, float]] = field(
        default_factory=lambda: deque(maxlen=30)
    )
    """Recent (x_in, y_in, sin, cos of heading) since the tag last moved."""
    _sums: np.ndarray = field(default_factory=lambda: np.zeros(4))
    moved_t: float = 0.0
    state: TagState = TagState.SEEN
    probe: TagMeasure | None = None
    """Last sighting while (re)confirming."""
    misses: int = 0
    """Frames in a row without a sighting."""

    def restart(self, m: TagMeasure, t: float) -> None:
        self.history.clear()
        self._sums = np.zeros(4)
        self.x_in, self.y_in, self.heading_deg, self.side_mm = (
            m.x_in,
            m.y_in,
            m.heading_deg,
            m.side_mm,
        )
        self._push(m)
        self.moved_t = t

    def _push(self, m: TagMeasure) -> None:
        a = math.radians(m.heading_deg)
        row = (m.x_in, m.y_in, math.sin(a), math.cos(a))
        if len(self.history) == self.history.maxlen:
            self._sums -= self.history[0]
        self.history.append(row)
        self._sums += row

    def add(self, m: TagMeasure) -> None:
        """Average a still tag's measurements since it last moved (running sums)."""
        self._push(m)
        n = len(self.history)
        sx, sy, ss, sc = self._sums
        self.x_in = float(sx / n)
        self.y_in = float(sy / n)
        self.heading_deg = math.degrees(math.atan2(ss, sc)) % 360.0
        self.side_mm = m.side_mm


class Tracker:
    """Tracks the tags in use on one table (see the module docstring).

    ``ids_in_use``: the only ids accepted (None: every id but the corner tags). ``pieces``:
    rigid pieces fitted from their tags (their TagMount heights are the tags' plane heights).
    ``tag_height_mm``: plane height of tags no piece names (default: the profile's).
    ``hold_s``: seconds a hidden tag stays "held" before it is "lifted". ``lift_s``: seconds a
    lifted tag is still reported (None: always). ``move_mm``/``move_deg``: a still tag moving
    more than this is a real move, reported at once.
    """

    def __init__(
        self,
        profile: TableProfile,
        ids_in_use: Iterable[int] | None = None,
        *,
        pieces: Sequence[PieceSpec] = (),
        confirm_frames: int = 3,
        hold_s: float = 1.0,
        lift_s: float | None = None,
        tag_height_mm: float | None = None,
        move_mm: float = 1.0,
        move_deg: float = 3.0,
        edge_margin_in: float = 0.25,
        drift_threshold_mm: float = 1.0,
        full_search_every: int = 15,
        settle: bool = True,
    ) -> None:
        if confirm_frames < 1:
            raise VisionError(f"confirm_frames must be at least 1, got {confirm_frames}")
        if hold_s < 0 or (lift_s is not None and lift_s < 0):
            raise VisionError(f"hold_s and lift_s must be >= 0, got {hold_s}, {lift_s}")
        if move_mm <= 0 or move_deg <= 0:
            raise VisionError(f"move_mm and move_deg must be positive, got {move_mm}, {move_deg}")
        if full_search_every < 1:
            raise VisionError(f"full_search_every must be at least 1, got {full_search_every}")
        self.profile = profile
        self.ids_in_use = None if ids_in_use is None else frozenset(int(i) for i in ids_in_use)
        self.pieces = tuple(pieces)
        self.confirm_frames = confirm_frames
        self.hold_s = hold_s
        self.lift_s = lift_s
        self.move_mm = move_mm
        self.move_deg = move_deg
        self.edge_margin_in = edge_margin_in
        self.full_search_every = full_search_every
        self._heights: dict[int, float] = dict(profile.tag_heights_mm)
        self._default_height = (
            profile.default_tag_height_mm if tag_height_mm is None else tag_height_mm
        )
        for spec in self.pieces:
            for mount in spec.tags:
                self._heights[int(mount.tag_id)] = mount.height_mm
        self.drift = DriftMonitor(profile, drift_threshold_mm)
        self.mapping = self.drift.mapping
        self._settle: SettleJudge | None = (
            SettleJudge(self.mapping, profile.width_in, profile.depth_in) if settle else None
        )
        self._tracks: dict[TagId, _Track] = {}
        self._fits: dict[int, tuple[dict[TagId, tuple[float, float, float]], PieceFit | None]] = {}
        """Each piece's last fit (by its place in ``pieces``) and the tag poses it was made from."""
        self._settled_poses: dict[TagId, tuple[float, float, float, TagState]] = {}
        self._last_snapshot: BoardSnapshot | None = None
        self._frames = 0
        self._motion_boxes: tuple[tuple[float, float, float, float], ...] = ()
        self._image_size: tuple[int, int] | None = None
        self._corner_px: dict[int, npt.NDArray[np.float64]] = {}
        self._skipped: set[int] = set()
        """Tags the last search_regions call left out (unchanged since last seen)."""
        self._searched_skipped: frozenset[int] = frozenset()
        """Tags the last search left out, for :meth:`repeat_search`."""

    @property
    def settle_judge(self) -> SettleJudge | None:
        """The image-based settle judge (None when built with ``settle=False``); read its
        views, do not feed it."""
        return self._settle

    def tag_height_mm(self, tag_id: int) -> float:
        """Plane height of a tag above the table, millimetres."""
        return self._heights.get(int(tag_id), self._default_height)

    def accepts(self, tag_id: int) -> bool:
        """Whether a tag id is one this tracker follows."""
        if tag_id in CORNER_IDS:
            return False
        return self.ids_in_use is None or tag_id in self.ids_in_use

    def update(
        self,
        frame_t: float,
        frame_index: int,
        sightings: Sequence[TagSighting],
        image: npt.NDArray[np.uint8] | None = None,
    ) -> BoardSnapshot:
        """Take one frame's sightings (pixels) and its image (BGR or grey, optional) and return
        the board as tracked after it."""
        warnings: list[str] = []
        if image is not None:
            size = (int(image.shape[1]), int(image.shape[0]))
            if size != self.profile.image_size_px:
                w, h = self.profile.image_size_px
                raise VisionError(
                    f"frame {frame_index} is {size[0]}x{size[1]} px but the profile was made at "
                    f"{w}x{h}: calibrate at this resolution"
                )
            self._image_size = size
        self._frames += 1
        # 1. corner tags and drift
        corners = {}
        corner_count: dict[int, int] = {}
        for s in sightings:
            if s.tag_id in CORNER_IDS:
                corner_count[s.tag_id] = corner_count.get(s.tag_id, 0) + 1
                corners[int(s.tag_id)] = s.corners_px
        corners = {i: c for i, c in corners.items() if corner_count[i] == 1}
        check = self.drift.check(corners)
        self._corner_px = {i: np.asarray(c, dtype=np.float64) for i, c in corners.items()}
        if check.warning:
            warnings.append(check.warning)
        if check.refitted:
            self.mapping = self.drift.mapping
            if self._settle is not None:
                self._settle.set_mapping(self.mapping)
        # 2-4. accepted, inside the table, not duplicated, mapped at their heights
        measures: dict[TagId, list[TagMeasure]] = {}
        by_height: dict[float, list[TagSighting]] = {}
        for s in sightings:
            if self.accepts(int(s.tag_id)):
                by_height.setdefault(self.tag_height_mm(s.tag_id), []).append(s)
        for height, group in by_height.items():
            quads_px = np.array([s.corners_px for s in group], dtype=np.float64).reshape(-1, 2)
            on_table = self.mapping.to_table_in(quads_px, height).reshape(-1, 4, 2)
            for s, quad in zip(group, on_table, strict=True):
                m = measure_tag(quad)
                if self._inside(m.x_in, m.y_in):
                    measures.setdefault(s.tag_id, []).append(m)
        duplicates = tuple(sorted(i for i, ms in measures.items() if len(ms) > 1))
        if duplicates:
            warnings.append(
                f"tag id{'s' if len(duplicates) > 1 else ''} {', '.join(map(str, duplicates))} "
                "seen twice on the table: neither copy is trusted"
            )
        seen = {i: ms[0] for i, ms in measures.items() if len(ms) == 1}
        # 5-7. tracks
        self._update_tracks(frame_t, seen)
        tags = self._tag_poses(frame_t)
        # 8. settled
        settled = self._judge_settled(frame_t, image, tags)
        if settled:
            self._settled_poses = {p.tag_id: (p.x_in, p.y_in, p.heading_deg, p.state) for p in tags}
        self._skipped = set()
        snapshot = BoardSnapshot(
            t=frame_t,
            frame_index=frame_index,
            tags=tags,
            settled=settled,
            duplicates=duplicates,
            warnings=tuple(warnings),
            pieces=self._fit_pieces(tags),
        )
        self._last_snapshot = snapshot
        return snapshot

    def _inside(self, x_in: float, y_in: float) -> bool:
        m = self.edge_margin_in
        return -m <= x_in <= self.profile.width_in + m and -m <= y_in <= self.profile.depth_in + m

    def _update_tracks(self, t: float, seen: dict[TagId, TagMeasure]) -> None:
        for tag_id, m in seen.items():
            tr = self._tracks.get(tag_id)
            if tr is None:
                tr = _Track(tag_id, m.x_in, m.y_in, m.heading_deg, m.side_mm, t)
                tr.restart(m, t)
                if self.confirm_frames <= 1:
                    tr.confirmed = True
                else:
                    tr.probe = m
                self._tracks[tag_id] = tr
                continue
            if not tr.confirmed or tr.state == TagState.LIFTED:
                # (re)confirmation: consistent sightings, short gaps allowed
                consistent = tr.probe is not None and not _far(
                    tr.probe, m, self.move_mm * 2, self.move_deg * 2
                )
                tr.hits = tr.hits + 1 if consistent else 1
                tr.probe = m
                if not tr.confirmed:
                    tr.restart(m, t)
                    tr.last_seen_t = t
                if tr.hits >= self.confirm_frames:
                    tr.confirmed = True
                    tr.restart(m, t)
                    tr.state = TagState.SEEN
                    tr.last_seen_t = t
                    tr.hits = 0
                    tr.probe = None
                continue
            if _far(
                TagMeasure(tr.x_in, tr.y_in, tr.heading_deg, 0), m, self.move_mm, self.move_deg
            ):
                tr.restart(m, t)
            else:
                tr.add(m)
            tr.state = TagState.SEEN
            tr.last_seen_t = t
        for tag_id, tr in list(self._tracks.items()):
            if tag_id in seen or (tag_id in self._skipped and tr.state == TagState.SEEN):
                # seen, or not searched because nothing changed near it: still seen there
                tr.misses = 0
                tr.last_seen_t = t if tag_id not in seen else tr.last_seen_t
                continue
            tr.misses += 1
            if tr.misses > CONFIRM_GAP_FRAMES:
                # (re)confirmation allows short gaps (a marginal tag), not long ones
                tr.hits = 0
                tr.probe = None
                if not tr.confirmed:
                    del self._tracks[tag_id]
                    continue
            if not tr.confirmed:
                continue
            if tr.state == TagState.LIFTED:
                if self.lift_s is not None and t - tr.last_seen_t > self.hold_s + self.lift_s:
                    del self._tracks[tag_id]
                continue
            if t - tr.last_seen_t > self.hold_s:
                tr.state = TagState.LIFTED
                tr.moved_t = t
            else:
                tr.state = TagState.HELD

    def _tag_poses(self, t: float) -> tuple[TagPose, ...]:
        out = []
        for tag_id in sorted(self._tracks):
            tr = self._tracks[tag_id]
            if not tr.confirmed:
                continue
            out.append(TagPose(tag_id, tr.x_in, tr.y_in, tr.heading_deg % 360.0, tr.state))
        return tuple(out)

    def _pending(self) -> bool:
        return any(
            (not tr.confirmed) or (tr.state == TagState.LIFTED and tr.probe is not None)
            for tr in self._tracks.values()
        )

    def _judge_settled(
        self, t: float, image: npt.NDArray[np.uint8] | None, tags: tuple[TagPose, ...]
    ) -> bool:
        recent_move = any(tr.confirmed and t - tr.moved_t < 0.1 for tr in self._tracks.values())
        explained: list[Place] = []
        hidden: list[Place] = []
        now = {p.tag_id: p for p in tags}
        for tag_id, (x, y, h, state) in self._settled_poses.items():
            p = now.get(tag_id)
            if p is None or p.state != state or self._pose_changed(p, x, y, h):
                explained.append(Place(x, y, self._explain_radius(tag_id)))
        for p in tags:
            old = self._settled_poses.get(p.tag_id)
            if old is None or p.state != old[3] or self._pose_changed(p, *old[:3]):
                explained.append(Place(p.x_in, p.y_in, self._explain_radius(p.tag_id)))
            if p.state == TagState.HELD:
                hidden.append(Place(p.x_in, p.y_in, 10.0))
        if self._settle is None or image is None:
            self._motion_boxes = ()
            return not recent_move and not self._pending()
        judged = self._settle.update(t, to_grey(image), explained, hidden)
        self._motion_boxes = judged.motion_boxes_in
        return judged.settled and not recent_move and not self._pending()

    def _pose_changed(self, p: TagPose, x: float, y: float, h: float) -> bool:
        return (
            math.hypot(p.x_in - x, p.y_in - y) * MM_PER_IN > self.move_mm
            or abs(_angle_diff(p.heading_deg, h)) > self.move_deg
        )

    def _explain_radius(self, tag_id: int) -> float:
        """How far from a tag a moved piece changes the image, mm (base, figure and its lean)."""
        return 40.0 if self.tag_height_mm(tag_id) < 10.0 else 120.0

    def _fit_pieces(self, tags: tuple[TagPose, ...]) -> tuple[PiecePose, ...]:
        if not self.pieces:
            return ()
        by_id = {p.tag_id: p for p in tags}
        out = []
        for k, spec in enumerate(self.pieces):
            ids = [m.tag_id for m in spec.tags if m.tag_id in by_id]
            seen = [i for i in ids if by_id[i].state == TagState.SEEN]
            held = [i for i in ids if by_id[i].state == TagState.HELD]
            use = seen or held or ids
            if not use:
                continue
            observed = {i: (by_id[i].x_in, by_id[i].y_in, by_id[i].heading_deg) for i in use}
            last = self._fits.get(k)
            if last is not None and last[0] == observed:
                fit = last[1]  # its tags have not moved since the last frame: the same fit
            else:
                fit = fit_piece(spec, observed)
                self._fits[k] = (observed, fit)
            if fit is None:
                continue
            state = TagState.SEEN if seen else TagState.HELD if held else TagState.LIFTED
            out.append(
                PiecePose(spec.name, fit.x_in, fit.y_in, fit.heading_deg, state, tuple(seen))
            )
        return tuple(out)

    def search_regions(self, grey: npt.NDArray[np.uint8] | None = None) -> list[Region] | None:
        """Where the coming frame needs searching, in pixels: None for the whole frame (see
        :meth:`full_search_due`), else windows
        around the corner tags and tracked tags, and where the image moved lately.

        Given the coming frame's ``grey`` image, tags that are seen and still, with no change in
        the image near them since the previous frame, are not searched at all: the tracker keeps
        them as seen where they were (decoding each marker is what costs, not the area searched).
        """
        self._skipped = set()
        self._searched_skipped = frozenset()
        if self.full_search_due():
            return None
        w, h = self._image_size
        ppm = self.mapping.table_px_per_mm(self.profile.width_in / 2, self.profile.depth_in / 2)
        wanted: list[tuple[int, npt.NDArray[np.float64], float]] = []
        for i, c in self._corner_px.items():
            wanted.append((i, c, 0.5 * float(np.ptp(c[:, 0])) + 8))
        for tr in self._tracks.values():
            height = self.tag_height_mm(tr.tag_id)
            pad = (tr.side_mm * 1.3 + 6.0) * ppm
            # a lifted tag is looked for where it was (put back) and, while it is being
            # confirmed again, where it was last sighted
            centre = self.mapping.to_pixels([(tr.x_in, tr.y_in)], height)
            wanted.append((int(tr.tag_id), centre, pad))
            if tr.probe is not None and tr.confirmed:
                probe = self.mapping.to_pixels([(tr.probe.x_in, tr.probe.y_in)], height)
                wanted.append((int(tr.tag_id), probe, pad))
        if grey is not None and self._settle is not None and grey.shape[:2] == (h, w):
            places = [self._place_of(i) for i, _, _ in wanted]
            moved = self._settle.moved_near(grey, places)
            keep = []
            for (i, c, pad), m in zip(wanted, moved, strict=True):
                # corner tags are searched every frame: drift is checked on fresh corners
                if m or i in CORNER_IDS or not self._still_seen(i):
                    keep.append((i, c, pad))
                else:
                    self._skipped.add(i)
            wanted = keep
            self._searched_skipped = frozenset(self._skipped)
        regions = [_box_around(c, pad_px=pad) for _, c, pad in wanted]
        for x0, y0, x1, y1 in self._motion_boxes:
            pts = self.mapping.to_pixels([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], 0.0)
            regions.append(_box_around(pts, pad_px=20 * ppm))
        return _merge([r.clipped(w, h) for r in regions if r.area > 0])

    def full_search_due(self) -> bool:
        """Whether the coming frame is searched whole: until the tracker knows the image size,
        on each of the first ``confirm_frames`` frames (a tag one start-up search misses is
        not left unsearched until the next whole-frame search), and every
        ``full_search_every`` frames."""
        return (
            self._image_size is None
            or self._frames < self.confirm_frames
            or self._frames % self.full_search_every == 0
        )

    def repeat_search(self) -> None:
        """The coming frame shows the picture the last search was made on, and is given that
        search's sightings: the tags it left out are left out again (still seen where they
        were)."""
        self._skipped = set(self._searched_skipped)

    def _place_of(self, tag_id: int) -> Place:
        if tag_id in CORNER_IDS:
            return Place(0.0, 0.0, 1.0)  # never skipped
        tr = self._tracks[TagId(tag_id)]
        return Place(tr.x_in, tr.y_in, tr.side_mm + 10.0)

    def _still_seen(self, tag_id: int) -> bool:
        tr = self._tracks.get(TagId(tag_id))
        return tr is not None and tr.confirmed and tr.state == TagState.SEEN


def _box_around(points: npt.ArrayLike, pad_px: float) -> Region:
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    x0, y0 = p.min(axis=0) - pad_px
    x1, y1 = p.max(axis=0) + pad_px
    return Region(math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1))


def _merge(regions: list[Region]) -> list[Region]:
    """Merge overlapping windows so a tag is never cut between two of them."""
    merged = [r for r in regions if r.area > 0]
    changed = True
    while changed:
        changed = False
        out: list[Region] = []
        for r in merged:
            for i, o in enumerate(out):
                if r.x0 < o.x1 and o.x0 < r.x1 and r.y0 < o.y1 and o.y0 < r.y1:
                    out[i] = Region(
                        min(r.x0, o.x0), min(r.y0, o.y0), max(r.x1, o.x1), max(r.y1, o.y1)
                    )
                    changed = True
                    break
            else:
                out.append(r)
        merged = out
    return merged


class TablePipeline:
    """Detector and tracker together: a frame in, a BoardSnapshot out, searching only the regions
    the tracker asks for (full frame every ``full_search_every`` frames), and not searching a
    frame of a settled board whose picture has not changed since the last frame searched
    (``still_gate``: the detector would read the same tags again)."""

    def __init__(
        self,
        detector: Detector,
        tracker: Tracker,
        *,
        region_search: bool = True,
        still_gate: ChangeGate | None = None,
    ) -> None:
        self.detector = detector
        self.tracker = tracker
        self.region_search = region_search
        self.still_gate = still_gate if still_gate is not None else live_still_gate()
        self.searches = 0
        """Frames searched for tags (the others repeated the last search's sightings)."""
        self._last: list[TagSighting] = []
        self._settled = False
        self._full: list[TagSighting] | None = None
        """The last full-frame search's sightings while the picture has not changed since (a
        tag no piece carries is found only by a full search, and must go on being seen)."""
        """Whether the last snapshot was settled: only a settled board's search is repeated (a
        search while things move depends on where the tracker expects them, not only on the
        picture)."""

    def read(self, frame: Frame) -> tuple[BoardSnapshot, list[TagSighting]]:
        """Detect, map and track one frame: the snapshot and the sightings it was made from."""
        grey = to_grey(frame.image)
        still = self.region_search and self.still_gate.unchanged(grey)
        if not still:
            self._full = None
        repeat = still and self._settled
        if repeat and not self.tracker.full_search_due():
            self.tracker.repeat_search()
        else:
            regions = self.tracker.search_regions(grey) if self.region_search else None
            if regions is None and repeat and self._full is not None:
                self._last = self._full  # this picture's full search, made already
            else:
                self._last = self.detector.detect(grey, regions)
                self.searches += 1
                if regions is None:
                    self._full = self._last
        snapshot = self.tracker.update(frame.t, frame.index, self._last, grey)
        self._settled = snapshot.settled
        return snapshot, self._last

    def process(self, frame: Frame) -> BoardSnapshot:
        """Detect, map and track one frame."""
        return self.read(frame)[0]
