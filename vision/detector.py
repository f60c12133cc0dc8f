"""The tag detector: a grey image in, decoded markers (pixels) out.

OpenCV's ArUco detector with the research notes' tuned parameters, adjusted by measurement, and
OpenCV's default error-correction rate: three adaptive-threshold passes (windows 3, 13 and 23 px,
OpenCV's own; the notes' 5/13/8 loses id 0 of the real ChArUco photo img_02.jpg, and dropping the
23 px window lost tags that plain OpenCV finds: 3 of 372 on ../shared/realdata photos, 10-30 px
tags, and grey washed-out tags of about 90 px, because a window smaller than a marker's cell sees
only the cell's edges), minimum perimeter 0.02 of the image's larger side, maximum perimeter 1.0
(the notes' 0.2 loses 25 of the 35 markers of the real photo gboriginal.png and close-up corner
tags; no measurable cost on renders), CORNER_REFINE_CONTOUR.

It can also search only given regions of the image (around known tags): the regions are packed
into one mosaic and searched in a single call, with the perimeter limits kept in pixels, so a
region finds the same tags a full frame would. No display, no file writing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.types import TagId, TagSighting

#: Tuned parameters (DESIGN's research notes, adjusted as the module docstring says).
THRESH_WIN_MIN = 3
THRESH_WIN_MAX = 23
THRESH_WIN_STEP = 10
MIN_PERIMETER_RATE = 0.02
MAX_PERIMETER_RATE = 1.0
#: CORNER_REFINE_CONTOUR fits its edge lines through the centres of the marker's boundary
#: pixels, half a pixel inside the true edge: every quad comes out shrunk by about 0.5 px per
#: side. Measured on renders (true corners known) at 1080p and 4K, 40 mm corner tags: corner
#: RMS 0.77-0.82 px as detected, 0.25-0.32 px after moving each edge 0.5 px outward (0.75 px:
#: 0.40-0.46).
EDGE_BIAS_PX = 0.5


@dataclass(frozen=True)
class Region:
    """An axis-aligned search window in pixels: columns x0..x1, rows y0..y1 (exclusive ends)."""

    x0: int
    y0: int
    x1: int
    y1: int

    def clipped(self, width: int, height: int) -> Region:
        """The region clipped to an image of the given size in pixels."""
        return Region(max(0, self.x0), max(0, self.y0), min(width, self.x1), min(height, self.y1))

    @property
    def area(self) -> int:
        """Pixels covered."""
        return max(0, self.x1 - self.x0) * max(0, self.y1 - self.y0)


def dictionary_by_name(name: str) -> cv2.aruco.Dictionary:
    """An OpenCV predefined dictionary by name (e.g. "DICT_4X4_50"), or a dictionary YAML file
    (OpenCV's ``markersize``/``maxCorrectionBits``/``marker_N`` format)."""
    path = Path(name)
    if name.lower().endswith((".yml", ".yaml")):
        return _dictionary_from_yaml(path)
    value = getattr(cv2.aruco, name.upper(), None)
    if not name.upper().startswith("DICT_") or not isinstance(value, int):
        known = sorted(n for n in dir(cv2.aruco) if n.startswith("DICT_"))
        raise VisionError(f"unknown dictionary {name!r}; known: {', '.join(known)}")
    return cv2.aruco.getPredefinedDictionary(value)


def _dictionary_from_yaml(path: Path) -> cv2.aruco.Dictionary:
    if not path.is_file():
        raise VisionError(f"dictionary file {path} does not exist")
    fs = cv2.FileStorage(str(path), cv2.FILE_STORAGE_READ)
    try:
        dictionary = cv2.aruco.Dictionary()
        if not dictionary.readDictionary(fs.root()):
            raise VisionError(f"dictionary file {path} is not an OpenCV ArUco dictionary")
    finally:
        fs.release()
    if dictionary.bytesList is None or len(dictionary.bytesList) == 0:
        raise VisionError(f"dictionary file {path} holds no markers")
    return dictionary


def tuned_parameters() -> cv2.aruco.DetectorParameters:
    """The tuned detector parameters (full-frame perimeter rates)."""
    p = cv2.aruco.DetectorParameters()
    p.adaptiveThreshWinSizeMin = THRESH_WIN_MIN
    p.adaptiveThreshWinSizeMax = THRESH_WIN_MAX
    p.adaptiveThreshWinSizeStep = THRESH_WIN_STEP
    p.minMarkerPerimeterRate = MIN_PERIMETER_RATE
    p.maxMarkerPerimeterRate = MAX_PERIMETER_RATE
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_CONTOUR
    return p


class Detector:
    """Finds ArUco markers of one dictionary in grey images.

    ``dictionary``: a predefined name ("DICT_4X4_50"), a YAML dictionary file, or an OpenCV
    Dictionary. ``max_perimeter_rate`` may be raised for close-up views (big corner tags).
    """

    def __init__(
        self,
        dictionary: str | cv2.aruco.Dictionary = "DICT_4X4_50",
        *,
        min_perimeter_rate: float = MIN_PERIMETER_RATE,
        max_perimeter_rate: float = MAX_PERIMETER_RATE,
    ) -> None:
        if not 0 < min_perimeter_rate < max_perimeter_rate <= 4:
            raise VisionError(
                "perimeter rates must satisfy 0 < min < max <= 4, got "
                f"min_perimeter_rate={min_perimeter_rate}, max_perimeter_rate={max_perimeter_rate}"
            )
        self.dictionary_name = dictionary if isinstance(dictionary, str) else "custom"
        self._dictionary = (
            dictionary_by_name(dictionary) if isinstance(dictionary, str) else dictionary
        )
        self._min_rate = min_perimeter_rate
        self._max_rate = max_perimeter_rate
        self._params = tuned_parameters()
        self._params.minMarkerPerimeterRate = min_perimeter_rate
        self._params.maxMarkerPerimeterRate = max_perimeter_rate
        self._full = cv2.aruco.ArucoDetector(self._dictionary, self._params)
        self._roi_params = tuned_parameters()
        self._roi = cv2.aruco.ArucoDetector(self._dictionary, self._roi_params)
        self._frame_side = 0

    def detect(
        self, grey: npt.NDArray[np.uint8], regions: Sequence[Region] | None = None
    ) -> list[TagSighting]:
        """Markers in a grey (or BGR) image (pixels, OpenCV corner order); with ``regions``,
        only those windows are searched, with the perimeter limits of a full-frame search."""
        if grey.ndim == 3:
            grey = to_grey(grey)
        if grey.ndim != 2:
            raise VisionError(f"the detector takes a grey image, got shape {grey.shape}")
        if regions is None:
            return _sightings(*self._full.detectMarkers(grey)[:2])
        h, w = grey.shape
        clipped = [c for c in (r.clipped(w, h) for r in regions) if c.area > 0]
        if not clipped:
            return []
        mosaic, placed = _pack(grey, clipped)
        self._set_roi_rates(max(h, w), max(mosaic.shape))
        corners, ids = self._roi.detectMarkers(mosaic)[:2]
        found: list[TagSighting] = []
        for s in _sightings(corners, ids):
            cx = sum(x for x, _ in s.corners_px) / 4.0
            cy = sum(y for _, y in s.corners_px) / 4.0
            for r, (mx, my) in placed:
                if mx <= cx < mx + r.x1 - r.x0 and my <= cy < my + r.y1 - r.y0:
                    if _cut_by_window(s, r, (mx, my), (w, h)):
                        break
                    dx, dy = r.x0 - mx, r.y0 - my
                    found.append(
                        TagSighting(s.tag_id, tuple((x + dx, y + dy) for x, y in s.corners_px))
                    )
                    break
        return _dedupe(found)

    def _set_roi_rates(self, frame_side: int, crop_side: int) -> None:
        scale = frame_side / crop_side
        self._roi_params.minMarkerPerimeterRate = self._min_rate * scale
        self._roi_params.maxMarkerPerimeterRate = min(4.0, self._max_rate * scale)
        self._roi.setDetectorParameters(self._roi_params)


def grow_quad(corners: npt.ArrayLike, by_px: float) -> npt.NDArray[np.float64]:
    """Move each edge of a convex quad ``by_px`` pixels outward (4x2 in, 4x2 out)."""
    quad = np.asarray(corners, dtype=np.float64).reshape(1, 4, 2)
    return np.asarray(_grow_all(quad, by_px)[0])


def _grow_all(quads: npt.NDArray[np.float64], d: float) -> npt.NDArray[np.float64]:
    """Each edge of each convex quad (N x 4 x 2 pixels) moved ``d`` pixels outward: all
    markers of a frame in one numpy pass (one pass per marker cost about 10 us each)."""
    centre = quads.mean(axis=1, keepdims=True)
    edge = np.roll(quads, -1, axis=1) - quads  # edge i runs from corner i to corner i + 1
    length = np.hypot(edge[..., 0], edge[..., 1])[..., None]
    normal = np.stack((edge[..., 1], -edge[..., 0]), axis=-1) / np.where(length > 0, length, 1.0)
    outward = np.sum(normal * (quads - centre), axis=-1, keepdims=True) >= 0
    start = quads + np.where(outward, normal, -normal) * d  # a point on each moved edge line
    # corner i is where moved edge i - 1 meets moved edge i
    p1, e1 = np.roll(start, 1, axis=1), np.roll(edge, 1, axis=1)
    det = e1[..., 1] * edge[..., 0] - e1[..., 0] * edge[..., 1]
    gap = start - p1
    safe = np.where(np.abs(det) < 1e-9, 1.0, det)
    t = (edge[..., 0] * gap[..., 1] - edge[..., 1] * gap[..., 0]) / safe
    return np.where((np.abs(det) < 1e-9)[..., None], quads, p1 + t[..., None] * e1)


def _sightings(corners: Sequence[npt.NDArray[np.float32]], ids: object) -> list[TagSighting]:
    if ids is None:
        return []
    id_list = np.asarray(ids).ravel().tolist()
    quads = np.asarray(corners, dtype=np.float64).reshape(len(id_list), 4, 2)
    grown = _grow_all(quads, EDGE_BIAS_PX).tolist()
    return [
        TagSighting(TagId(int(i)), tuple((x, y) for x, y in q))
        for i, q in zip(id_list, grown, strict=True)
    ]


MOSAIC_GAP_PX = 4


def _pack(
    grey: npt.NDArray[np.uint8], regions: list[Region]
) -> tuple[npt.NDArray[np.uint8], list[tuple[Region, tuple[int, int]]]]:
    """Copy the regions into one mosaic image (shelf packing, tallest first, separated by grey
    gaps) so that a single detector call searches them all: each call has a fixed cost that
    dominated when 30 small windows were searched one by one."""
    order = sorted(regions, key=lambda r: r.y1 - r.y0, reverse=True)
    total = sum(r.area for r in order)
    widest = max(r.x1 - r.x0 for r in order)
    width = max(widest, int(math.sqrt(total) * 1.3))
    placed: list[tuple[Region, tuple[int, int]]] = []
    x = y = shelf = 0
    for r in order:
        rw, rh = r.x1 - r.x0, r.y1 - r.y0
        if x + rw > width:
            x, y, shelf = 0, y + shelf + MOSAIC_GAP_PX, 0
        placed.append((r, (x, y)))
        x += rw + MOSAIC_GAP_PX
        shelf = max(shelf, rh)
    mosaic = np.full((y + shelf, width), 128, dtype=np.uint8)
    for r, (mx, my) in placed:
        mosaic[my : my + r.y1 - r.y0, mx : mx + r.x1 - r.x0] = grey[r.y0 : r.y1, r.x0 : r.x1]
    return mosaic, placed


CUT_MARGIN_PX = 2.0
"""A marker found this close to a window's inner edge (one that is not the frame's edge) was
cut by the window: part of a bigger tag, whose inner cells can read as another id (a 25 mm
terrain tag cut by a window's edge read as a figure's id in rendered footage)."""


def _cut_by_window(s: TagSighting, r: Region, at: tuple[int, int], frame: tuple[int, int]) -> bool:
    """Whether sighting ``s`` (mosaic pixels) touches an edge of window ``r`` (placed at
    ``at`` in the mosaic) that lies inside the ``frame`` (width, height in pixels)."""
    mx, my = at
    xs = [x for x, _ in s.corners_px]
    ys = [y for _, y in s.corners_px]
    m = CUT_MARGIN_PX + EDGE_BIAS_PX
    return (
        (r.x0 > 0 and min(xs) < mx + m)
        or (r.y0 > 0 and min(ys) < my + m)
        or (r.x1 < frame[0] and max(xs) > mx + (r.x1 - r.x0) - m)
        or (r.y1 < frame[1] and max(ys) > my + (r.y1 - r.y0) - m)
    )


def _dedupe(sightings: list[TagSighting]) -> list[TagSighting]:
    """Drop the copies of one marker found in two overlapping regions (same id, same place)."""
    kept: list[TagSighting] = []
    centres: dict[int, list[tuple[float, float]]] = {}
    for s in sightings:
        c = s.corners_px
        cx = (c[0][0] + c[1][0] + c[2][0] + c[3][0]) / 4.0
        cy = (c[0][1] + c[1][1] + c[2][1] + c[3][1]) / 4.0
        seen = centres.setdefault(int(s.tag_id), [])
        if any(abs(cx - x) < 2.0 and abs(cy - y) < 2.0 for x, y in seen):
            continue
        seen.append((cx, cy))
        kept.append(s)
    return kept


def to_grey(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """A grey view of a BGR or grey image."""
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
