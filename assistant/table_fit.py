"""Mapping the table from the corner tags in a source's first frames, and judging the set-up.

``soloscope calibrate`` saves a profile only when the set-up could track. ``track``, ``play`` and
``replay`` map the table themselves when they are given no profile, and judge the set-up the same
way (:func:`calibration.quality.assess`: a moving camera, a camera tilted too far, tags too small
to read, corner tags that do not fit the table...). What calibrate refuses is refused for a live
camera, which the player can fix as calibrate says (:func:`refuse_unfit`: one refusal naming every
reason; calibrate's warnings are shown). Footage already filmed cannot be fixed: it is read all
the same, and what calibrate would refuse is said as warnings (:func:`refusals_as_warnings`);
calibrate's milder warnings, advice for setting up a camera, are left out there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from assistant.errors import UserError
from calibration.errors import CalibrationError
from calibration.profile import TableProfile, build_profile
from calibration.quality import QualityReport, TagSize, assess
from calibration.table import CORNER_IDS, MM_PER_IN
from vision.detector import Detector, to_grey
from vision.types import Frame, TagSighting

CornerPixels = dict[int, npt.NDArray[np.float64]]
"""Corner tag id -> its four corners (4 x 2 pixels, OpenCV order)."""


@dataclass(frozen=True)
class CornerFrames:
    """Corner tags gathered over the first frames of a source."""

    corners_px: CornerPixels
    """Per corner id, the median of its four pixel corners over the frames used."""
    image: npt.NDArray[np.uint8]
    """The last frame used (for the quality checks)."""
    image_size_px: tuple[int, int]
    frames_used: int
    frames_missing: int
    """Frames looked at that lacked some corner tag."""
    per_frame: tuple[CornerPixels, ...] = ()
    """The corner tags of each frame used (to tell a camera that moved)."""


def gather_corners(
    frames: Iterable[Frame], detector: Detector, *, max_frames: int = 90, wanted: int = 5
) -> CornerFrames:
    """Corner tags from the first frames that show all four (up to ``wanted`` of them, the
    pixels combined by median); frames with fewer are used only if no frame shows all four."""
    complete: list[tuple[CornerPixels, Frame]] = []
    partial: list[tuple[CornerPixels, Frame]] = []
    missing = 0
    for n, frame in enumerate(frames):
        if n >= max_frames:
            break
        found: CornerPixels = {}
        twice: set[int] = set()
        for s in detector.detect(to_grey(frame.image)):
            if s.tag_id in CORNER_IDS:
                if s.tag_id in found:
                    twice.add(int(s.tag_id))
                found[int(s.tag_id)] = np.array(s.corners_px, dtype=np.float64)
        for i in twice:
            del found[i]
        if len(found) == len(CORNER_IDS):
            complete.append((found, frame))
            if len(complete) >= wanted:
                break
        else:
            missing += 1
            if found:
                partial.append((found, frame))
    chosen = complete
    if not chosen and partial:
        most = max(len(f) for f, _ in partial)
        chosen = [p for p in partial if len(p[0]) == most][:wanted]
    if not chosen:
        raise CalibrationError(
            f"no corner tags (ids {list(CORNER_IDS)}) found in {missing} frames: put the four "
            "40 mm corner tags at the play area's corners, in view"
        )
    ids = sorted(chosen[0][0])
    corners = {i: np.median(np.stack([f[i] for f, _ in chosen if i in f]), axis=0) for i in ids}
    last = chosen[-1][1].image
    return CornerFrames(
        corners_px=corners,
        image=last,
        image_size_px=(int(last.shape[1]), int(last.shape[0])),
        frames_used=len(chosen),
        frames_missing=missing,
        per_frame=tuple(f for f, _ in chosen),
    )


def profile_from_frames(
    frames: Iterable[Frame],
    detector: Detector,
    width_in: float,
    depth_in: float,
    *,
    max_frames: int = 90,
) -> tuple[TableProfile, CornerFrames]:
    """A table profile (no lens intrinsics) from the corner tags in the first frames, and what
    was gathered to make it (not judged: see :func:`judge`)."""
    gathered = gather_corners(frames, detector, max_frames=max_frames)
    profile = build_profile(
        gathered.corners_px,
        gathered.image_size_px,
        width_in,
        depth_in,
        dictionary=detector.dictionary_name,
    )
    return profile, gathered


def judge(
    profile: TableProfile,
    gathered: CornerFrames,
    tag_mm: float | None = None,
    tags: Sequence[TagSize] = (),
) -> QualityReport:
    """The quality report of ``calibrate`` for a profile made from ``gathered``; ``tag_mm``:
    the side of the smallest base tag that will be tracked, mm, and ``tags``: a kit's tag sizes
    (neither: the tags' size is not judged)."""
    return assess(
        profile,
        gathered.image,
        _as_points(gathered.corners_px),
        tag_mm=tag_mm,
        tags=tags,
        frames_missing_corners=gathered.frames_missing if gathered.frames_used > 1 else 0,
        frames_used=gathered.frames_used,
        corner_frames_px=[_as_points(f) for f in gathered.per_frame],
    )


def _as_points(frame: CornerPixels) -> dict[int, list[tuple[float, float]]]:
    """Corner pixels as plain (x, y) tuples, as the quality report takes them."""
    return {i: [(float(x), float(y)) for x, y in c] for i, c in frame.items()}


def refuse_unfit(report: QualityReport, source: str) -> tuple[str, ...]:
    """Raise a UserError naming every refusal of the report, as ``calibrate`` would refuse the
    set-up seen in ``source``; otherwise the report's warnings."""
    if report.refusals:
        raise UserError(
            f"the table mapped from the corner tags in {source} would not track reliably: "
            + "; ".join(report.refusals)
            + " (calibrate shows the whole report: soloscope calibrate --source ...)"
        )
    return report.warnings


def refusals_as_warnings(report: QualityReport, source: str) -> tuple[str, ...]:
    """What ``calibrate`` would refuse in the set-up filmed in ``source``, as warnings: footage
    cannot be filmed again, so it is read all the same and the warnings say why it may be
    misread. Calibrate's milder warnings (no lens calibration, tags under the reliable size) are
    advice for setting up a camera and are left out."""
    return tuple(
        f"calibrate would refuse the set-up filmed in {source}, so pieces may be misread: {r}"
        for r in report.refusals
    )


def smallest_tag_mm(sizes_mm: Sequence[float], default_mm: float = 10.0) -> float:
    """The smallest of the base-tag sides in use (mm), or ``default_mm`` (the kit's base tag,
    also calibrate's ``--tag-mm`` default) when none is known."""
    return min(sizes_mm) if sizes_mm else default_mm


def seen_tag_mm(profile: TableProfile, sightings: Iterable[TagSighting]) -> float | None:
    """The side (mm, to 0.1) of the smallest tag other than the corner tags among
    ``sightings`` (pixels), measured on the table through ``profile`` at base-top height;
    None if there is none."""
    sides = []
    mapping = profile.mapping()
    for s in sightings:
        if s.tag_id in CORNER_IDS:
            continue
        quad = mapping.to_table_in(s.corners_px, profile.default_tag_height_mm)
        edges = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        sides.append(float(edges.mean()) * MM_PER_IN)
    return round(min(sides), 1) if sides else None


def checked_profile(
    frames: Iterable[Frame],
    detector: Detector,
    width_in: float,
    depth_in: float,
    *,
    source: str,
    tag_mm: float | None,
    live: bool,
    tags: Sequence[TagSize] = (),
    max_frames: int = 90,
) -> tuple[TableProfile, CornerFrames, tuple[str, ...]]:
    """The table mapped from the first frames of ``source``, judged as ``calibrate`` judges it
    for the tags given (:func:`judge`): from a ``live`` camera, refused (UserError) for what
    calibrate refuses; else the profile, what was gathered and the warnings to show (for
    footage, what calibrate would refuse)."""
    profile, gathered = profile_from_frames(
        frames, detector, width_in, depth_in, max_frames=max_frames
    )
    report = judge(profile, gathered, tag_mm, tags)
    warnings = refuse_unfit(report, source) if live else refusals_as_warnings(report, source)
    return profile, gathered, warnings
