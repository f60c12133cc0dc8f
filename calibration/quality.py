"""The calibration quality report: is this camera set-up good enough to track the table?

Measures (units in the names): corner tags found, the fit's reprojection error in mm, pixels per
mm over the play area, the smallest tag side in mm the set-up reads reliably (24 px per side is
100 % detection, DESIGN §1) and the detection margin of the player's tag size (its side in pixels
at the far edge minus those 24 px), blur (variance of the Laplacian over the corner tags), glare
(saturated share of the play area), camera tilt, and how far the corner tags moved between the
frames the table was mapped from. Problems that would make tracking unreliable are *refusals*,
each saying what to change; the rest are warnings. Tags under the reliable size are only a
warning (some sightings will be missed); they are refused where detection is hopeless (under
``HOPELESS_TAG_PX``). A camera tilted beyond ``TILT_REFUSE_DEG``, or one that moved by more than
the drift monitor's threshold while the table was mapped, is refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.drift import DRIFT_THRESHOLD_MM
from calibration.pose import TableMapping
from calibration.profile import TableProfile
from calibration.table import CORNER_IDS, MM_PER_IN

RELIABLE_TAG_PX = 24.0
"""Tag side in pixels at which detection is 100 % reliable (DESIGN §1)."""
HOPELESS_TAG_PX = 16.0
"""Tag side in pixels under which tags are refused: DESIGN §1 measured 69-94 % detection at
18 px, and below about 16 px most sightings are lost."""
DETECTOR_MIN_PERIMETER_RATE = 0.02
"""The tag detector's smallest marker perimeter, as a share of the picture's longer side
(``vision.detector.MIN_PERIMETER_RATE``): at 4K it drops tags under about 19 px a side."""
FLOOR_TO_RELIABLE = 1.4
"""Above the detector's smallest side, how much larger a tag must be to be read in every
frame: on 4K renders of a 2 ft table tags of 1.17 times it (22.5 px) were read in 48-77 % of
sightings, 1.32 times (25.4 px) in 95-100 %, 1.47 times (28.2 px) in all."""
MAX_REPROJECTION_MM = 1.0
"""Above this RMS the corner tags disagree with a flat table of the given size."""
MAX_CORNER_ERROR_MM = 3.0
"""A corner-tag corner this far from where the fit puts it is out of place (a tag moved or at
the wrong corner), whatever the RMS. Millimetres on the table, not the fit's pixel inliers:
an uncalibrated webcam lens bends a 4K picture's far corners several pixels off a flat
homography (about 1 mm), which a 3-pixel inlier test took for misplaced tags."""
BLUR_WARN_SHARPNESS = 500.0
"""Below this sharpness (variance of the Laplacian over each corner tag, times its side in px / 64
so that it does not depend on the tag's size in the image) the picture is blurred. Measured on
synthetic 40 mm corner tags at 1080p and 4K: gaussian blur 0.6 px gives about 3300, 1.0 px 900,
1.5 px 340, 2.5 px 160; 16 mm tags at 1080p start to be lost at 1.0 px."""
GLARE_WARN_FRACTION = 0.005
"""Share of saturated play-area pixels above which glare is reported."""
TILT_WARN_DEG = 15.0
"""Camera tilt from straight down above which it is reported."""
TILT_REFUSE_DEG = 35.0
"""Camera tilt from straight down above which the set-up is refused. A figure of height H hides
H * tan(tilt) of the table behind it: at 35 degrees a 30 mm figure hides 21 mm, most of a 25 mm
base, so a base tag is hidden whenever the model faces away from the camera; the far side is
read at about half the pixels per mm of the near side, and a tag's height above the table
shifts it by 0.7 of that height across the table. Chosen here (RULES.md says nothing): the
real clips of issue 24 tilted 40-56 degrees tracked tags that never moved as jumping by inches."""
CAMERA_STILL_MM = DRIFT_THRESHOLD_MM
"""The corner tags may move this much (mm on the table) between the frames the table is mapped
from; more is a moving camera, refused: tracking would re-fit the table in every frame."""


def detector_floor_px(image_size_px: tuple[int, int]) -> float:
    """The smallest tag side the detector takes at all in pictures of this size, pixels."""
    return DETECTOR_MIN_PERIMETER_RATE * max(image_size_px) / 4.0


def reliable_tag_px(image_size_px: tuple[int, int]) -> float:
    """The tag side read in every frame in pictures of this size, pixels: ``RELIABLE_TAG_PX``,
    or more where the detector's smallest side is close to it (4K)."""
    return max(RELIABLE_TAG_PX, FLOOR_TO_RELIABLE * detector_floor_px(image_size_px))


_PROBE_MM = 10.0
"""Side of the probe square whose image measures the scale a tag gets, millimetres."""
_PROBE_STEPS = 12
"""The play area is probed on a (steps + 1) x (steps + 1) grid of places, edges included."""


def tag_scale_px_per_mm(
    mapping: TableMapping, width_in: float, depth_in: float, height_mm: float = 3.0
) -> float:
    """The smallest scale a tag's side gets anywhere on the play area, pixels per millimetre.

    A square tag lying ``height_mm`` above the table is projected through the camera (lens
    distortion included when the mapping knows it) at every place of a grid over the play
    area, edges and corners included, square to the table and turned 45 degrees; the shortest
    side of any of its images, over its side in millimetres, is the answer. Tag sides scale
    linearly at these sizes, so a tag of ``s`` mm spans at least ``s`` times this many pixels.
    """
    xs = np.linspace(0.0, width_in, _PROBE_STEPS + 1)
    ys = np.linspace(0.0, depth_in, _PROBE_STEPS + 1)
    centres = np.array([(x, y) for x in xs for y in ys])
    half = _PROBE_MM / 2.0 / MM_PER_IN
    square = np.array([(-half, half), (half, half), (half, -half), (-half, -half)])
    turn = np.radians(45.0)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    shapes = np.stack([square, square @ rot.T])  # (2, 4, 2)
    pts = centres[:, None, None, :] + shapes[None, :, :, :]  # (N, 2, 4, 2)
    px = mapping.to_pixels(pts.reshape(-1, 2), height_mm).reshape(pts.shape)
    sides = np.linalg.norm(px - np.roll(px, 1, axis=2), axis=3)
    return float(sides.min()) / _PROBE_MM


@dataclass(frozen=True)
class TagSize:
    """A tag size to judge against the camera: what it is, its side and its height."""

    words: str
    """For people: "14 mm tags", "the kit's 15 mm tags"."""
    size_mm: float
    height_mm: float = 3.0
    """Height of the tags' plane above the table, millimetres."""


@dataclass(frozen=True)
class QualityReport:
    """How well a profile will track; ``refusals`` empty means it may be saved."""

    corner_ids: tuple[int, ...]
    reprojection_rms_mm: float
    reprojection_max_mm: float
    px_per_mm_min: float
    px_per_mm_max: float
    smallest_reliable_tag_mm: float
    """Smallest tag side (mm) read reliably anywhere on the play area (base-top height)."""
    tag_mm: float | None
    """The player's base-tag side judged, mm (``--tag-mm``, or the kit's tag with the least
    margin); None when none was given."""
    tag_px_min: float | None
    """That tag's side in pixels where the scale is smallest (the far edge)."""
    blur_laplacian_var: float
    glare_fraction: float
    tilt_deg: float
    camera_height_mm: float
    pose_source: str
    warnings: tuple[str, ...]
    refusals: tuple[str, ...]
    tag_words: str = ""
    """What ``tag_mm`` is, for people: "14 mm tags", "the kit's 15 mm tags"."""
    reliable_px: float = RELIABLE_TAG_PX
    """The tag side read in every frame at this picture size, pixels."""
    camera_moved_mm: float = 0.0
    """How far the corner tags moved between the frames the table was mapped from, mm (0 with
    a single frame)."""

    @property
    def ok(self) -> bool:
        """True when nothing stops the profile from being saved."""
        return not self.refusals

    @property
    def margin_px(self) -> float | None:
        """Detection margin: the tag's side at the far edge minus the reliable side, pixels
        (negative: some sightings will be missed); None when no tag size was given."""
        return None if self.tag_px_min is None else self.tag_px_min - self.reliable_px

    def margin_line(self) -> str:
        """E.g. "14 mm tags span 20 px at the far edge; reliable from 24 px; margin -4 px"."""
        if self.tag_px_min is None:
            return "no tag size given (--kit FILE or --tag-mm N)"
        span = round(self.tag_px_min)
        return (
            f"{self.tag_words} span {span} px at the far edge; reliable from "
            f"{self.reliable_px:.0f} px; margin {span - round(self.reliable_px):+d} px"
        )

    def lines(self) -> list[str]:
        """The report as plain lines for a terminal."""
        out = [
            f"corner tags found: {list(self.corner_ids)} of {list(CORNER_IDS)}",
            f"reprojection error: {self.reprojection_rms_mm:.2f} mm RMS "
            f"(max {self.reprojection_max_mm:.2f} mm)",
            f"scale: {self.px_per_mm_min:.2f}-{self.px_per_mm_max:.2f} px/mm over the play area",
            f"smallest tag read reliably: {self.smallest_reliable_tag_mm:.1f} mm "
            f"({self.reliable_px:.0f} px per side)",
            f"detection margin: {self.margin_line()}",
            f"sharpness on the corner tags: {self.blur_laplacian_var:.0f} "
            f"(blurred below {BLUR_WARN_SHARPNESS:.0f})",
            f"glare: {100 * self.glare_fraction:.2f} % of the play area saturated",
            f"camera: {self.camera_height_mm:.0f} mm above the table, tilted "
            f"{self.tilt_deg:.1f} deg; pose from {self.pose_source}",
            f"camera steadiness: the corner tags moved {self.camera_moved_mm:.2f} mm between "
            f"frames (moving above {CAMERA_STILL_MM:g} mm)",
        ]
        out += [f"warning: {w}" for w in self.warnings]
        out += [f"refused: {r}" for r in self.refusals]
        return out


def _play_area_mask(profile: TableProfile, shape: tuple[int, int]) -> npt.NDArray[np.uint8]:
    w, d = profile.width_in, profile.depth_in
    edge = np.array(
        [(x, 0.0) for x in np.linspace(0, w, 9)]
        + [(w, y) for y in np.linspace(0, d, 9)]
        + [(x, d) for x in np.linspace(w, 0, 9)]
        + [(0.0, y) for y in np.linspace(d, 0, 9)]
    )
    poly = profile.mapping().to_pixels(edge, 0.0)
    # a play area mapped far outside the picture (refused anyway) is clipped to a few picture
    # sizes around it: fillPoly took over a minute on a polygon tens of thousands of px across
    reach = 4.0 * max(shape)
    poly = np.clip(np.nan_to_num(poly, nan=0.0, posinf=reach, neginf=-reach), -reach, reach)
    mask = np.zeros(shape, dtype=np.uint8)
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 255)
    return mask


def assess(
    profile: TableProfile,
    image: npt.NDArray[np.uint8],
    corners_px: Mapping[int, Sequence[tuple[float, float]]],
    *,
    tag_mm: float | None = None,
    tags: Sequence[TagSize] = (),
    frames_missing_corners: int = 0,
    frames_used: int = 1,
    corner_frames_px: Sequence[Mapping[int, Sequence[tuple[float, float]]]] = (),
) -> QualityReport:
    """Judge a fresh profile on one of its images (BGR or grey) and its corner-tag pixels.

    ``tag_mm``: the base-tag side the player will use; ``tags``: the sizes of a kit (each at
    its own height). The set-up is refused if some tag is hopeless anywhere on the play area
    (under ``HOPELESS_TAG_PX``), warned about under the reliable side; with neither, only the
    smallest size it reads reliably is reported. ``corner_frames_px``: the corner tags of each
    frame the table was mapped from (id -> four corners, pixels), to tell a moving camera.
    """
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    fit = profile.fit
    warnings: list[str] = []
    refusals: list[str] = []
    ids = tuple(sorted(i for i in corners_px if i in CORNER_IDS))

    # play area inside the image?
    m = profile.mapping()
    play = m.to_pixels(
        [(0, 0), (profile.width_in, 0), (profile.width_in, profile.depth_in), (0, profile.depth_in)]
    )
    if np.any(play < 0) or np.any(play[:, 0] > w - 1) or np.any(play[:, 1] > h - 1):
        refusals.append(
            "part of the play area is outside the picture: raise the camera or centre it "
            "over the table"
        )
    if len(ids) < 3:
        refusals.append(
            f"only corner tags {list(ids)} found: all four (ids 0-3) must be in view; check "
            "that none is covered or cut off at the picture's edge"
        )
    elif len(ids) < 4:
        warnings.append(
            f"corner tag {sorted(set(CORNER_IDS) - set(ids))[0]} not found: the mapping uses "
            "three; put all four in view so drift can be checked everywhere"
        )
    if frames_missing_corners:
        warnings.append(
            f"corner tags were missing in {frames_missing_corners} of "
            f"{frames_used + frames_missing_corners} frames (covered or blurred?)"
        )
    if (
        fit.reprojection_rms_mm > MAX_REPROJECTION_MM
        or fit.reprojection_max_mm > MAX_CORNER_ERROR_MM
    ):
        refusals.append(
            f"the corner tags fit a {profile.width_in:g} x {profile.depth_in:g} in table only to "
            f"{fit.reprojection_rms_mm:.1f} mm (one corner {fit.reprojection_max_mm:.1f} mm off): "
            "check --width/--depth, that each corner tag sits "
            "at its own corner (0 front left, 1 front right, 2 far right, 3 far left) and lies flat"
        )
    judged = list(tags)
    if tag_mm is not None:
        judged.append(TagSize(f"{tag_mm:g} mm tags", tag_mm, profile.default_tag_height_mm))
    reliable = reliable_tag_px(profile.image_size_px)
    scale = tag_scale_px_per_mm(
        m, profile.width_in, profile.depth_in, profile.default_tag_height_mm
    )
    smallest = reliable / scale if scale > 0 else float("inf")
    spans = [
        (
            t,
            t.size_mm * tag_scale_px_per_mm(m, profile.width_in, profile.depth_in, t.height_mm),
        )
        for t in judged
    ]
    remedy = (
        f"use tags of at least {smallest:.1f} mm (--tag-mm, or a kit made for this camera: "
        "soloscope markers --profile PROFILE), a higher resolution (4K), or a lower camera"
    )
    for t, tag_px in spans:
        if tag_px < HOPELESS_TAG_PX:
            refusals.append(
                f"{t.words} are {tag_px:.0f} px wide at the far edge, under the "
                f"{HOPELESS_TAG_PX:.0f} px below which most sightings are lost: {remedy}"
            )
        elif tag_px < reliable:
            warnings.append(
                f"{t.words} are {tag_px:.0f} px wide at the far edge, under the "
                f"{reliable:.0f} px read in every frame, so some sightings will be "
                f"missed; for a reliable set-up {remedy}"
            )
    weakest = min(spans, key=lambda e: e[1]) if spans else None

    # blur on the corner tags (sharp high-contrast edges whatever the mat looks like)
    lap = cv2.Laplacian(grey, cv2.CV_32F)
    values = []
    for c in corners_px.values():
        pts = np.asarray(c, dtype=np.float64).reshape(-1, 2)
        x0, y0 = np.maximum(np.floor(pts.min(axis=0)).astype(int) - 2, 0)
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 3
        patch = lap[y0:y1, x0:x1]
        side = float(np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[2] - pts[1])) / 2
        if patch.size:
            values.append(float(patch.var()) * side / 64.0)
    blur = float(np.median(values)) if values else 0.0
    if values and blur < BLUR_WARN_SHARPNESS:
        warnings.append(
            f"the picture is blurred (sharpness {blur:.0f} < {BLUR_WARN_SHARPNESS:.0f}): "
            "fix the focus (turn auto-focus off and focus on the table) and hold the camera still"
        )
    mask = _play_area_mask(profile, grey.shape)
    area = max(1, int((mask > 0).sum()))
    glare = float(((grey >= 250) & (mask > 0)).sum()) / area
    if glare > GLARE_WARN_FRACTION:
        warnings.append(
            f"glare: {100 * glare:.1f} % of the play area is saturated; move the light or use "
            "a matte mat and matte tags, or lower the exposure"
        )
    moved = camera_moved_mm(profile, corner_frames_px)
    if moved > CAMERA_STILL_MM:
        refusals.append(
            f"the camera moved while the table was mapped (the corner tags shifted "
            f"{moved:.1f} mm between frames): fix it to a rigid stand that nothing at the "
            "table can bump, and keep it still"
        )
    tilt = profile.pose.tilt_deg
    if tilt > TILT_REFUSE_DEG:
        refusals.append(
            f"the camera is tilted {tilt:.0f} deg from straight down (at most "
            f"{TILT_REFUSE_DEG:.0f}): figures hide their own tags and the far side is read at "
            f"{fit.px_per_mm_min:.1f} px/mm against {fit.px_per_mm_max:.1f} near; mount it "
            "straight above the table's centre"
        )
    elif tilt > TILT_WARN_DEG:
        warnings.append(
            f"the camera is tilted {tilt:.0f} deg from straight down: the far side is read at "
            f"{fit.px_per_mm_min:.1f} px/mm against {fit.px_per_mm_max:.1f} near; aim it straight "
            "down over the table's centre"
        )
    if profile.intrinsics is None:
        warnings.append(
            "no lens calibration: heights are corrected with an estimated camera "
            f"({profile.pose.source}); run `soloscope calibrate --lens` for the best accuracy"
        )
    return QualityReport(
        corner_ids=ids,
        reprojection_rms_mm=fit.reprojection_rms_mm,
        reprojection_max_mm=fit.reprojection_max_mm,
        px_per_mm_min=fit.px_per_mm_min,
        px_per_mm_max=fit.px_per_mm_max,
        smallest_reliable_tag_mm=smallest,
        tag_mm=None if weakest is None else weakest[0].size_mm,
        tag_px_min=None if weakest is None else weakest[1],
        tag_words="" if weakest is None else weakest[0].words,
        reliable_px=reliable,
        blur_laplacian_var=blur,
        glare_fraction=glare,
        tilt_deg=tilt,
        camera_height_mm=profile.pose.centre_mm[2],
        pose_source=profile.pose.source,
        warnings=tuple(warnings),
        refusals=tuple(refusals),
        camera_moved_mm=moved,
    )


def camera_moved_mm(
    profile: TableProfile, corner_frames_px: Sequence[Mapping[int, Sequence[tuple[float, float]]]]
) -> float:
    """How far (mm on the table) a corner tag's centre strayed from its median place over the
    frames given (id -> four corners in pixels, per frame); 0 for fewer than two frames."""
    if len(corner_frames_px) < 2:
        return 0.0
    mapping = profile.mapping()
    moved = 0.0
    for tag_id in CORNER_IDS:
        quads = [f[tag_id] for f in corner_frames_px if tag_id in f]
        if len(quads) < 2:
            continue
        pts = np.asarray(quads, dtype=np.float64).reshape(-1, 2)
        centres = mapping.to_table_in(pts, 0.0).reshape(-1, 4, 2).mean(axis=1)
        median = np.median(centres, axis=0)
        moved = max(moved, float(np.linalg.norm(centres - median, axis=1).max()) * MM_PER_IN)
    return moved
