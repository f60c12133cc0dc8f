"""Render one frame of a scene through a camera, with its ground truth.

Drawing order is painter's order by distance from the camera: the mat, then terrain prisms,
bases (with their tags) and figures from the farthest to the nearest, then the hand. A figure
leaning outward in perspective therefore covers whatever lies beyond it, its own tag included.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.render.camera import MM_PER_INCH, Camera
from vision.render.draw import Canvas, ImageCanvas, aruco_dictionary, ring
from vision.render.effects import Effects, apply_effects
from vision.render.hand import (
    ROOM_LIGHT,
    HandPose,
    ShadowLight,
    draw_hand,
    draw_hand_shadow,
    hand_occluders,
    hand_over_table,
)
from vision.render.mat import mat_texture
from vision.render.scene import (
    Figure,
    PlacedPiece,
    PlacedTag,
    Scene,
    TableSpec,
    Terrain,
    corner_tags,
    local_to_table_mm,
    piece_axes,
    place_mount,
)

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class TagTruth:
    """A tag's true pose and whether the camera can see it in this frame."""

    tag_id: int
    piece: str | None
    """Owning piece or terrain name; None for a corner tag."""
    x_in: float
    """Tag centre, inches from the play area's left front corner (+x right)."""
    y_in: float
    """Tag centre, inches away from the player."""
    heading_deg: float
    """Direction of the tag's up, degrees clockwise from +y."""
    height_mm: float
    """Height of the tag's plane above the table."""
    size_mm: float
    """Side of the black square."""
    corners_px: tuple[tuple[float, float], ...]
    """Black-square corners in the output image (lens distortion applied), OpenCV's order."""
    visible: bool
    """Inside the image and no pixel of the black square covered by a figure, hand or solid."""
    covered_fraction: float
    """Fraction of the black square covered by things drawn above it."""

    @property
    def center_px(self) -> tuple[float, float]:
        """Mean of the four image corners, pixels (what a detector reports as the centre)."""
        c = np.mean(np.asarray(self.corners_px), axis=0)
        return float(c[0]), float(c[1])


@dataclass(frozen=True)
class PieceTruth:
    """A piece's (or terrain piece's) true pose."""

    name: str
    x_in: float
    y_in: float
    heading_deg: float
    on_table: bool
    """False while the piece is in the hand or after it was removed."""
    kind: str = "piece"
    """"piece" (a based miniature) or "terrain"."""


@dataclass(frozen=True)
class FrameTruth:
    """The ground truth of one rendered frame."""

    frame: int
    t: float
    """Seconds from the start of the clip."""
    settled: bool
    """No hand over the table and nothing moving."""
    tags: tuple[TagTruth, ...]
    pieces: tuple[PieceTruth, ...]
    camera: Camera
    hand_over_table: bool = False

    def tag(self, tag_id: int) -> TagTruth:
        """The truth of tag ``tag_id``; ``KeyError`` naming it when absent."""
        for t in self.tags:
            if t.tag_id == tag_id:
                return t
        raise KeyError(f"tag {tag_id} is not on the table in frame {self.frame}")


def render_frame(
    scene: Scene,
    camera: Camera,
    hand: HandPose | None = None,
    *,
    effects: Effects | None = None,
    rng: np.random.Generator | None = None,
    off_table: tuple[PlacedPiece, ...] = (),
    dictionary: str = "DICT_4X4_50",
    frame: int = 0,
    t: float = 0.0,
    moving: bool = False,
) -> tuple[Image, FrameTruth]:
    """Render ``scene`` through ``camera`` as a BGR image and return it with its ground truth.

    ``off_table`` pieces (lifted or removed) are not drawn and are reported with
    ``on_table=False`` at their last pose. ``moving`` marks the frame unsettled (something in
    motion other than the hand, e.g. the camera being nudged). ``effects`` defaults to
    :class:`Effects` (mild webcam degradations); ``rng`` seeds the noise.
    """
    effects = Effects() if effects is None else effects
    rng = np.random.default_rng(0) if rng is None else rng
    clean, truth = render_clean(
        scene,
        camera,
        hand,
        off_table=off_table,
        dictionary=dictionary,
        frame=frame,
        t=t,
        moving=moving,
    )
    return apply_effects(clean, effects, rng), truth


def render_clean(
    scene: Scene,
    camera: Camera,
    hand: HandPose | None = None,
    *,
    off_table: tuple[PlacedPiece, ...] = (),
    dictionary: str = "DICT_4X4_50",
    frame: int = 0,
    t: float = 0.0,
    moving: bool = False,
) -> tuple[Image, FrameTruth]:
    """Like :func:`render_frame` but without light falloff, blur, noise or JPEG."""
    board = draw_board(scene, camera, dictionary=dictionary)
    canvas = board.canvas
    image = through_lens(canvas)
    if hand is not None:  # above everything: drawn over the finished picture, lens included
        draw_hand_over(ImageCanvas.over(camera, image), hand)
        canvas.occluders.extend(hand_occluders(canvas, hand))
    tags = tuple(_tag_truth(canvas, camera, tag, before) for tag, before in board.drawn)
    return image, frame_truth(scene, camera, tags, hand, off_table, frame, t, moving)


def draw_hand_over(image: ImageCanvas, hand: HandPose, light: ShadowLight = ROOM_LIGHT) -> None:
    """The hand's shadow (under ``light``), then the hand, drawn over (a region of) the
    camera's picture."""
    draw_hand_shadow(image, hand, light)
    draw_hand(image, hand)


@dataclass
class BoardDrawing:
    """The table as drawn on the undistorted canvas, before any hand: the canvas (image and
    occluders) and every tag drawn, with the occluder count when it was drawn."""

    canvas: Canvas
    drawn: list[tuple[PlacedTag, int]]


def draw_background(table: TableSpec, camera: Camera, dictionary: str) -> BoardDrawing:
    """The mat and the corner tags on a fresh canvas (what never changes while the camera
    stays still)."""
    aruco = aruco_dictionary(dictionary)
    canvas = Canvas.for_camera(camera)
    canvas.draw_mat(mat_texture(table, camera.px_per_mm_at_table() * 1.3))
    drawn = [(tag, canvas.draw_tag(tag, aruco)) for tag in corner_tags(table)]
    return BoardDrawing(canvas, drawn)


def draw_board(
    scene: Scene,
    camera: Camera,
    *,
    dictionary: str = "DICT_4X4_50",
    background: BoardDrawing | None = None,
) -> BoardDrawing:
    """The scene without a hand on the undistorted canvas: the mat and corner tags (a copy of
    ``background`` when given, from :func:`draw_background` for the same table and camera),
    then terrain, bases, tags and figures from the farthest to the nearest."""
    aruco = aruco_dictionary(dictionary)
    n_ids = int(aruco.bytesList.shape[0])
    bad = sorted({i for i in scene.tag_ids() if not 0 <= i < n_ids})
    if bad:
        raise VisionError(f"tag id(s) {bad} are not in {dictionary} (ids 0-{n_ids - 1})")
    if background is None:
        background = draw_background(scene.table, camera, dictionary)
    bg = background.canvas
    canvas = Canvas(bg.camera, bg.ideal, bg.image.copy(), list(bg.occluders))
    drawn = list(background.drawn)
    for _, kind, item in _painter_order(scene, camera):
        if kind == "terrain":
            assert isinstance(item, Terrain)
            _draw_terrain(canvas, item)
            for m in item.spec.tags:
                tag = place_mount(item, m)
                drawn.append((tag, canvas.draw_tag(tag, aruco)))
        elif kind == "base":
            assert isinstance(item, PlacedPiece)
            _draw_base(canvas, item)
            for m in item.spec.tags:
                tag = place_mount(item, m)
                drawn.append((tag, canvas.draw_tag(tag, aruco)))
        else:
            assert isinstance(item, PlacedPiece) and item.figure is not None
            _draw_figure(canvas, item, item.figure)
    return BoardDrawing(canvas, drawn)


def through_lens(canvas: Canvas) -> Image:
    """The finished canvas as the camera's image: the lens distortion applied."""
    w, h = canvas.camera.width_px, canvas.camera.height_px
    return lens_region(canvas, (0, 0, w, h))


def lens_region(canvas: Canvas, box: tuple[int, int, int, int]) -> Image:
    """The region (x0, y0, x1, y1) of the camera's image that :func:`through_lens` gives for
    the whole canvas, made alone."""
    x0, y0, x1, y1 = box
    if canvas.ideal.fixed_maps is None:
        return canvas.image[y0:y1, x0:x1].copy()
    m1, m2 = canvas.ideal.fixed_maps
    return cv2.remap(
        canvas.image,
        m1[y0:y1, x0:x1],
        m2[y0:y1, x0:x1],
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def piece_canvas_box(canvas: Canvas, piece: PlacedPiece) -> tuple[int, int, int, int] | None:
    """The canvas pixels drawing ``piece`` (base, tags, figure) may touch: (x0, y0, x1, y1),
    clipped to the canvas; None when none."""
    fwd, right = piece_axes(piece.heading_deg)
    c = local_to_table_mm(piece.x_in, piece.y_in, piece.heading_deg, 0.0, 0.0)
    reach = piece.spec.base_diameter_mm / 2.0 + 2.0
    for m in piece.spec.tags:
        reach = max(reach, math.hypot(m.forward_mm, m.right_mm) + m.size_mm + 2.0)
    top = piece.base_height_mm + max([m.height_mm for m in piece.spec.tags] + [0.0])
    if piece.figure is not None:
        fig = piece.figure
        reach = max(reach, abs(fig.forward_mm) + max(fig.width_mm, fig.depth_mm))
        top = max(top, piece.base_height_mm + fig.height_mm)
    pts = np.vstack([ring(c[0], c[1], z, reach, reach, fwd, right, 16) for z in (0.0, top)])
    px = canvas.project(pts)
    h, w = canvas.image.shape[:2]
    x0, y0 = max(int(np.floor(px[:, 0].min())) - 3, 0), max(int(np.floor(px[:, 1].min())) - 3, 0)
    x1, y1 = min(int(np.ceil(px[:, 0].max())) + 4, w), min(int(np.ceil(px[:, 1].max())) + 4, h)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def tag_truths(canvas: Canvas, drawn: list[tuple[PlacedTag, int]]) -> tuple[TagTruth, ...]:
    """The truth of every drawn tag: its image corners and how much of it is covered by what
    the canvas holds drawn after it."""
    return tuple(_tag_truth(canvas, canvas.camera, tag, before) for tag, before in drawn)


def pieces_in_sight(
    scene: Scene, camera: Camera, names: Iterable[str], *, dictionary: str = "DICT_4X4_50"
) -> dict[str, bool]:
    """For each named piece of the scene, whether the camera sees any of its tags whole (none
    covered by a figure or terrain drawn after it). Judged on a picture a third as wide, which
    is enough to tell a covered tag."""
    small = camera.scaled(1.0 / 3.0)
    board = draw_board(scene, small, dictionary=dictionary)
    wanted = set(names)
    seen = dict.fromkeys(wanted, False)
    for tag, before in board.drawn:
        if tag.piece in wanted and not seen[tag.piece]:
            seen[tag.piece] = _tag_truth(board.canvas, small, tag, before).visible
    return seen


def frame_truth(
    scene: Scene,
    camera: Camera,
    tags: tuple[TagTruth, ...],
    hand: HandPose | None,
    off_table: tuple[PlacedPiece, ...],
    frame: int,
    t: float,
    moving: bool,
) -> FrameTruth:
    """A frame's truth from its tags' truth and the scene's poses (pieces off the table
    reported with ``on_table=False``)."""
    pieces = [
        PieceTruth(p.name, p.x_in, p.y_in, p.heading_deg % 360.0, True, "terrain")
        for p in scene.terrain
    ]
    pieces += [
        PieceTruth(p.name, p.x_in, p.y_in, p.heading_deg % 360.0, True) for p in scene.pieces
    ]
    pieces += [PieceTruth(p.name, p.x_in, p.y_in, p.heading_deg % 360.0, False) for p in off_table]
    over = hand_over_table(hand, scene.table)
    return FrameTruth(
        frame=frame,
        t=t,
        settled=not over and not moving,
        tags=tags,
        pieces=tuple(pieces),
        camera=camera,
        hand_over_table=over,
    )


def _tag_truth(canvas: Canvas, camera: Camera, tag: PlacedTag, before: int) -> TagTruth:
    corners = camera.project(tag.corners_mm())
    in_front = bool((camera.to_camera(tag.corners_mm())[:, 2] > 1.0).all())
    inside = in_front and bool(
        (corners[:, 0] >= 0).all()
        and (corners[:, 0] <= camera.width_px - 1).all()
        and (corners[:, 1] >= 0).all()
        and (corners[:, 1] <= camera.height_px - 1).all()
    )
    covered = canvas.covered_fraction(tag, before)
    return TagTruth(
        tag_id=tag.tag_id,
        piece=tag.piece,
        x_in=tag.x_mm / MM_PER_INCH,
        y_in=tag.y_mm / MM_PER_INCH,
        heading_deg=tag.heading_deg,
        height_mm=tag.height_mm,
        size_mm=tag.size_mm,
        corners_px=tuple((float(x), float(y)) for x, y in corners),
        visible=inside and covered == 0.0,
        covered_fraction=covered,
    )


def _painter_order(scene: Scene, camera: Camera) -> list[tuple[float, str, PlacedPiece | Terrain]]:
    """Items sorted from the farthest to the nearest to the camera."""
    eye = np.asarray(camera.position_mm)
    items: list[tuple[float, str, PlacedPiece | Terrain]] = []
    for ter in scene.terrain:
        pts = _terrain_outline_mm(ter)
        centre = np.array([*pts.mean(axis=0), ter.height_mm])
        items.append((float(np.linalg.norm(eye - centre)), "terrain", ter))
    for p in scene.pieces:
        c = local_to_table_mm(p.x_in, p.y_in, p.heading_deg, 0.0, 0.0)
        base = np.array([c[0], c[1], p.base_height_mm])
        items.append((float(np.linalg.norm(eye - base)), "base", p))
        if p.figure is not None:
            f = local_to_table_mm(p.x_in, p.y_in, p.heading_deg, p.figure.forward_mm, 0.0)
            mid = np.array([f[0], f[1], p.base_height_mm + p.figure.height_mm / 2])
            items.append((float(np.linalg.norm(eye - mid)), "figure", p))
    items.sort(key=lambda i: -i[0])
    return items


def _terrain_outline_mm(ter: Terrain) -> npt.NDArray[np.float64]:
    return np.array(
        [local_to_table_mm(ter.x_in, ter.y_in, ter.heading_deg, f, r) for r, f in ter.footprint_mm]
    )


def _shade(colour: tuple[int, int, int], k: float) -> tuple[int, int, int]:
    return tuple(int(np.clip(c * k, 0, 255)) for c in colour)  # type: ignore[return-value]


def _draw_terrain(canvas: Canvas, ter: Terrain) -> None:
    outline = _terrain_outline_mm(ter)
    n = len(outline)
    eye = np.asarray(canvas.camera.position_mm)
    walls = []
    for i in range(n):
        a, b = outline[i], outline[(i + 1) % n]
        quad = np.array(
            [[*a, 0.0], [*b, 0.0], [*b, ter.height_mm], [*a, ter.height_mm]], dtype=np.float64
        )
        mid = quad.mean(axis=0)
        walls.append((float(np.linalg.norm(eye - mid)), quad, i))
    walls.sort(key=lambda w: -w[0])
    for _, quad, i in walls:
        canvas.fill_convex(canvas.project(quad), _shade(ter.color_bgr, 0.6 + 0.1 * (i % 3)), True)
    top = np.column_stack([outline, np.full(n, ter.height_mm)])
    canvas.fill_poly(canvas.project(top), ter.color_bgr, True)


def _draw_base(canvas: Canvas, piece: PlacedPiece) -> None:
    fwd, right = piece_axes(piece.heading_deg)
    c = local_to_table_mm(piece.x_in, piece.y_in, piece.heading_deg, 0.0, 0.0)
    r = piece.spec.base_diameter_mm / 2.0
    if r <= 0:
        return
    h = piece.base_height_mm
    bottom = ring(c[0], c[1], 0.0, r, r, fwd, right, 32)
    top = ring(c[0], c[1], h, r, r, fwd, right, 32)
    canvas.fill_convex(
        canvas.project(np.vstack([bottom, top])), _shade(piece.base_color_bgr, 0.6), True
    )
    canvas.fill_convex(canvas.project(top), piece.base_color_bgr, True)


#: Figure segments: (bottom, top) as fractions of the height; half-width and half-depth as
#: fractions of the figure's width and depth; brightness.
_FIGURE_SEGMENTS = (
    (0.0, 0.45, 0.36, 0.4, 0.7),
    (0.42, 0.78, 0.5, 0.5, 1.0),
    (0.76, 1.0, 0.27, 0.38, 1.25),
)


def _draw_figure(canvas: Canvas, piece: PlacedPiece, fig: Figure) -> None:
    fwd, right = piece_axes(piece.heading_deg)
    c = local_to_table_mm(piece.x_in, piece.y_in, piece.heading_deg, fig.forward_mm, 0.0)
    z0 = piece.base_height_mm
    for lo, hi, wx, wy, k in _FIGURE_SEGMENTS:
        rx, ry = fig.width_mm * wx, fig.depth_mm * wy
        a = ring(c[0], c[1], z0 + lo * fig.height_mm, rx, ry, fwd, right, 16)
        b = ring(c[0], c[1], z0 + hi * fig.height_mm, rx, ry, fwd, right, 16)
        canvas.fill_convex(canvas.project(np.vstack([a, b])), _shade(fig.color_bgr, k), True)
