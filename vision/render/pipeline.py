"""The frame pipeline of a rendered clip: each layer drawn once, only what changes drawn per frame.

A frame of a clip is made in five stages:

1. the background (the mat and the corner tags), drawn once per camera;
2. the board (terrain, bases, tags and figures in painter's order), drawn over a copy of the
   background and passed through the lens once per board state (a board state lasts from
   one piece lifted or set down to the next); the tray and its dice are laid over it once
   per dice state; the optics (light falloff, blur) and the sensor's noise are applied to it
   once;
3. the hand and its shadow, drawn per frame over the board in the region they cover only,
   that region alone passed through the lens, the optics and fresh noise and pasted into the
   board's picture (so the noise changes where the picture changes, and stays where it
   stays);
4. the per-frame post-processing (:class:`PostProcess`): by default the video link's JPEG
   when ``Effects.jpeg_quality`` asks for it; the webcam faults of
   :mod:`vision.render.faults` are stages here (each sees the frame's :class:`Shot`: what it
   shows, its truth and its picture before post-processing);
5. a frame whose picture does not change (the same board, dice and hand pose) repeats the
   previous frame's image (unless a post-process changes every frame, ``per_frame``).

Each frame's ground truth is worked out the same way: the board's tags once per board state,
only the tags the hand may cover again per frame. Output is deterministic for a given seed;
:data:`RENDER_VERSION` names the renderer's output (bump it when the pictures change).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from vision.render.camera import Camera
from vision.render.dice import PlacedDie
from vision.render.dice_footage import TrayPainter
from vision.render.draw import Canvas, ImageCanvas
from vision.render.effects import Effects, add_noise, apply_jpeg, apply_optics, optics_reach_px
from vision.render.frame import (
    BoardDrawing,
    FrameTruth,
    Image,
    TagTruth,
    draw_background,
    draw_board,
    draw_hand_over,
    frame_truth,
    lens_region,
    piece_canvas_box,
    tag_truths,
    through_lens,
)
from vision.render.hand import (
    ROOM_LIGHT,
    Box,
    HandPose,
    ShadowLight,
    hand_canvas_box,
    hand_occluders,
    union,
)
from vision.render.scene import PlacedPiece, Scene, TableSpec

RENDER_VERSION = 3
"""The renderer's output version: footage cached under another version is rendered again.
2: layers drawn once, still frames repeated, the noise renewed only where the picture
changes. 3: the sensor noise on every colour channel (it fell on blue only)."""


class PostProcess(Protocol):
    """A per-frame stage after the optics (sensor noise, JPEG, a webcam fault): takes the
    frame's picture (as the stages before it left it) and its :class:`Shot`, returns the
    picture to write (a new array; never modifies the one it is given)."""

    per_frame: bool
    """True when it changes a still picture from one frame to the next (fresh noise in each
    frame): still frames are then processed one by one instead of repeated. Read before each
    frame: a stage may ask for just the next one."""

    def __call__(self, image: Image, shot: Shot) -> Image: ...


@dataclass(frozen=True)
class JpegLink:
    """The video link's JPEG round trip at ``quality`` (MJPEG webcams)."""

    quality: int
    per_frame: bool = False

    def __call__(self, image: Image, shot: Shot) -> Image:
        return apply_jpeg(image, Effects(jpeg_quality=self.quality))


@dataclass(frozen=True)
class Picture:
    """A frame's picture: a layer's image (``base``, shared, never modified) with ``patch``
    over its region ``box`` (x0, y0, x1, y1) when the frame drew something there."""

    base: Image
    box: Box | None = None
    patch: Image | None = None

    def image(self) -> Image:
        """The whole picture (``base`` itself when nothing is drawn over it)."""
        if self.box is None or self.patch is None:
            return self.base
        out = self.base.copy()
        x0, y0, x1, y1 = self.box
        out[y0:y1, x0:x1] = self.patch
        return out


class PictureBuffer:
    """One frame's worth of memory that pictures are painted into in turn, each taking only
    its region and the region of the one before (a full copy only when the layer changes):
    for a writer that is done with a picture before it asks for the next."""

    def __init__(self) -> None:
        self._image: Image | None = None
        self._base: Image | None = None
        self._box: Box | None = None

    def paint(self, picture: Picture) -> Image:
        """The whole picture, in the buffer (or ``base`` itself: nothing drawn over it)."""
        if picture.box is None or picture.patch is None:
            return picture.base
        if self._image is None or self._base is not picture.base:
            self._image, self._base, self._box = picture.base.copy(), picture.base, None
        elif self._box is not None:
            x0, y0, x1, y1 = self._box
            self._image[y0:y1, x0:x1] = picture.base[y0:y1, x0:x1]
        x0, y0, x1, y1 = picture.box
        self._image[y0:y1, x0:x1] = picture.patch
        self._box = picture.box
        return self._image


@dataclass
class _Board:
    """One board state drawn: the canvas (kept clean), its picture through the lens with and
    without the optics (for the current dice), and its tags' truth."""

    scene: Scene
    camera: Camera
    drawing: BoardDrawing
    clean: Image
    tags: tuple[TagTruth, ...]
    dice: tuple[PlacedDie, ...] | None = None
    with_dice: Image | None = None
    seen: Image | None = None
    """``with_dice`` through the optics."""


@dataclass(frozen=True)
class Shot:
    """What a post-processing stage knows of its frame: what it shows (``now``), its truth
    (index ``truth.frame``, time ``truth.t``, the tags' image corners) and its picture before
    post-processing (``picture.base``: the board without the hand; ``picture.box``: the region
    the hand and its shadow were drawn in, if any)."""

    now: Instant
    truth: FrameTruth
    picture: Picture


@dataclass(frozen=True)
class Instant:
    """What one frame shows: the scene on the table, the camera, the hand, the pieces off
    the table, the dice in the tray, and whether the camera is moving."""

    scene: Scene
    camera: Camera
    hand: HandPose | None
    off_table: tuple[PlacedPiece, ...] = ()
    dice: tuple[PlacedDie, ...] = ()
    moving: bool = False


class FramePipeline:
    """Draws the frames of one clip (see the module docstring); one instance per clip."""

    def __init__(
        self,
        table: TableSpec,
        *,
        effects: Effects | None = None,
        seed: int = 0,
        dictionary: str = "DICT_4X4_50",
        tray_painter: TrayPainter | None = None,
        post: Sequence[PostProcess] | None = None,
        shadow: ShadowLight = ROOM_LIGHT,
    ) -> None:
        self.table = table
        self.shadow = shadow
        """The light the hand's shadow is cast by."""
        self.effects = Effects() if effects is None else effects
        self.dictionary = dictionary
        self.painter = tray_painter
        self.rng = np.random.default_rng(seed)
        """Picks each picture's sensor noise."""
        if post is None:
            quality = self.effects.jpeg_quality
            post = () if quality is None else (JpegLink(quality),)
        self.post: tuple[PostProcess, ...] = tuple(post)
        self._background: tuple[Camera, BoardDrawing] | None = None
        self._board: _Board | None = None
        self._last: tuple[tuple[object, ...], Picture, FrameTruth] | None = None
        self.boards_drawn = 0
        """How many board states were drawn (for tests of the cache)."""
        self.boards_in_part = 0
        """How many of them had only the region of the pieces that changed drawn again."""
        self.frames_drawn = 0
        """How many frames were drawn rather than repeated."""

    def frame(self, now: Instant, index: int, t: float) -> tuple[Image, FrameTruth]:
        """The picture and the truth of frame ``index`` at ``t`` seconds (the picture may be
        shared with other frames and layers: never modify it)."""
        picture, truth = self.picture(now, index, t)
        return picture.image(), truth

    def picture(self, now: Instant, index: int, t: float) -> tuple[Picture, FrameTruth]:
        """Like :meth:`frame`, the picture as a layer's image and the region drawn over it
        for this frame (a writer that keeps a frame of its own pastes just that)."""
        key = (now.scene, now.camera, now.hand, now.off_table, now.dice, now.moving)
        per_frame = any(p.per_frame for p in self.post)
        if self._last is not None and self._last[0] == key and not per_frame:
            _, picture, truth = self._last
            return picture, replace(truth, frame=index, t=t)
        board = self._board_for(now.scene, now.camera)
        picture = Picture(self._with_dice(board, now.dice, now.camera))
        tags = board.tags
        if now.hand is not None:
            picture, tags = self._with_hand(board, now, picture.base)
        truth = frame_truth(
            now.scene, now.camera, tags, now.hand, now.off_table, index, t, now.moving
        )
        if self.post:
            shot = Shot(now, truth, picture)
            image = picture.image()
            for stage in self.post:
                image = stage(image, shot)
            picture = Picture(image)
        self._last = (key, picture, truth)
        self.frames_drawn += 1
        return picture, truth

    # -- layers --------------------------------------------------------------------------------

    def _board_for(self, scene: Scene, camera: Camera) -> _Board:
        old = self._board
        if old is not None and old.scene is scene and old.camera == camera:
            return old
        if self._background is None or self._background[0] != camera:
            self._background = (camera, draw_background(self.table, camera, self.dictionary))
        drawing = draw_board(
            scene, camera, dictionary=self.dictionary, background=self._background[1]
        )
        tags = tag_truths(drawing.canvas, drawing.drawn)
        changed = self._changed_box(old, scene, camera, drawing.canvas)
        if old is None or old.seen is None or changed is None:
            board = _Board(scene, camera, drawing, through_lens(drawing.canvas), tags)
        else:  # only the region of the pieces lifted, set down or moved is drawn again
            board = self._redrawn(old, scene, drawing, tags, changed)
            self.boards_in_part += 1
        self._board = board
        self.boards_drawn += 1
        return board

    def _changed_box(
        self, old: _Board | None, scene: Scene, camera: Camera, canvas: Canvas
    ) -> Box | None:
        """The canvas region where ``scene`` differs from the old board's (the pieces that
        left, came or moved, as drawn in either), or None when more than pieces changed."""
        if (
            old is None
            or old.camera != camera
            or self.painter is not None
            or old.scene.table != scene.table
            or old.scene.terrain != scene.terrain
        ):
            return None
        before = {p.name: p for p in old.scene.pieces}
        after = {p.name: p for p in scene.pieces}
        moved = [before[n] for n in before if after.get(n) != before[n]]
        moved += [after[n] for n in after if before.get(n) != after[n]]
        boxes = [piece_canvas_box(canvas, piece) for piece in moved]
        return union([b for b in boxes if b is not None])

    def _redrawn(
        self,
        old: _Board,
        scene: Scene,
        drawing: BoardDrawing,
        tags: tuple[TagTruth, ...],
        changed: Box,
    ) -> _Board:
        """The new board's pictures from the old board's, the changed region drawn again
        (through the lens, the optics and fresh noise); the rest keeps its picture."""
        assert old.seen is not None
        h, w = old.clean.shape[:2]
        clean = old.clean.copy()
        seen = old.seen.copy()
        box = _image_box(drawing.canvas, changed, (w, h))
        if box is not None:
            reach = optics_reach_px(self.effects)
            x0, y0, x1, y1 = box
            ox0, oy0 = max(x0 - reach, 0), max(y0 - reach, 0)
            ox1, oy1 = min(x1 + reach, w), min(y1 + reach, h)
            region = lens_region(drawing.canvas, (ox0, oy0, ox1, oy1))
            clean[oy0:oy1, ox0:ox1] = region
            region = apply_optics(region, self.effects, offset=(ox0, oy0), frame_size=(w, h))
            inner = region[y0 - oy0 : y1 - oy0, x0 - ox0 : x1 - ox0]
            seen[y0:y1, x0:x1] = add_noise(
                inner, self.effects, self.rng, offset=(x0, y0), frame_size=(w, h)
            )
        return _Board(scene, old.camera, drawing, clean, tags, old.dice, clean, seen)

    def _with_dice(self, board: _Board, dice: tuple[PlacedDie, ...], camera: Camera) -> Image:
        if board.seen is None or board.dice != dice:
            clean = board.clean
            if self.painter is not None:
                clean = self.painter.over(clean, dice, camera)
            board.dice, board.with_dice = dice, clean
            board.seen = add_noise(apply_optics(clean, self.effects), self.effects, self.rng)
        return board.seen

    def _with_hand(
        self, board: _Board, now: Instant, seen: Image
    ) -> tuple[Picture, tuple[TagTruth, ...]]:
        """The board's picture with the hand drawn in the region it covers (through the
        optics, with fresh noise), and the tags' truth with the hand's cover."""
        assert now.hand is not None and board.with_dice is not None
        clean = board.with_dice
        dirty = hand_canvas_box(ImageCanvas.over(now.camera, clean), now.hand, self.shadow)
        if dirty is None:
            return Picture(seen), board.tags
        h, w = clean.shape[:2]
        reach = optics_reach_px(self.effects)
        x0, y0, x1, y1 = dirty
        ox0, oy0 = max(x0 - reach, 0), max(y0 - reach, 0)
        ox1, oy1 = min(x1 + reach, w), min(y1 + reach, h)
        region = clean[oy0:oy1, ox0:ox1].copy()
        draw_hand_over(ImageCanvas.over(now.camera, region, (ox0, oy0)), now.hand, self.shadow)
        region = apply_optics(region, self.effects, offset=(ox0, oy0), frame_size=(w, h))
        inner = region[y0 - oy0 : y1 - oy0, x0 - ox0 : x1 - ox0]
        patch = add_noise(inner, self.effects, self.rng, offset=(x0, y0), frame_size=(w, h))
        return Picture(seen, dirty, patch), self._covered(board, now.hand)

    def _covered(self, board: _Board, hand: HandPose) -> tuple[TagTruth, ...]:
        """The board's tags with the hand's cover added where its parts overlap them."""
        base = board.drawing.canvas
        parts = hand_occluders(base, hand)
        if not parts:
            return board.tags
        canvas = Canvas(base.camera, base.ideal, base.image, [*base.occluders, *parts])
        scale = 1 << 4
        lo = np.min([p.min(axis=0) for p in parts], axis=0) / scale
        hi = np.max([p.max(axis=0) for p in parts], axis=0) / scale
        tags = list(board.tags)
        for i, (tag, before) in enumerate(board.drawing.drawn):
            quad = canvas.project(tag.corners_mm())
            if (quad.max(axis=0) < lo).any() or (quad.min(axis=0) > hi).any():
                continue
            covered = canvas.covered_fraction(tag, before)
            visible = tags[i].visible and covered == 0.0
            tags[i] = replace(tags[i], covered_fraction=covered, visible=visible)
        return tuple(tags)


def _image_box(canvas: Canvas, box: Box, size: tuple[int, int]) -> Box | None:
    """The image pixels (x0, y0, x1, y1) whose light comes from inside the canvas ``box``
    (grown by 2 pixels for interpolation), or None when none does."""
    w, h = size
    ideal = canvas.ideal
    x0, y0, x1, y1 = box
    if ideal.map_x is None:
        out = (max(x0, 0), max(y0, 0), min(x1, w), min(y1, h))
        return out if out[2] > out[0] and out[3] > out[1] else None
    cam = canvas.camera
    xs = np.linspace(x0 - 2, x1 + 2, 24)
    ys = np.linspace(y0 - 2, y1 + 2, 24)
    edge = np.concatenate(
        [
            np.column_stack([xs, np.full_like(xs, y0 - 2)]),
            np.column_stack([xs, np.full_like(xs, y1 + 2)]),
            np.column_stack([np.full_like(ys, x0 - 2), ys]),
            np.column_stack([np.full_like(ys, x1 + 2), ys]),
        ]
    )
    # canvas pixels to camera rays, then through the lens to image pixels
    rays = np.column_stack(
        [
            (edge[:, 0] - ideal.pad_left - cam.cx) / cam.fx,
            (edge[:, 1] - ideal.pad_top - cam.cy) / cam.fy,
            np.ones(len(edge)),
        ]
    )
    px = ImageCanvas.over(cam, np.empty((0, 0, 3), np.uint8)).project(
        rays @ cam.rotation + cam.position_mm
    )
    ix0 = max(int(np.floor(px[:, 0].min())) - 2, 0)
    iy0 = max(int(np.floor(px[:, 1].min())) - 2, 0)
    ix1 = min(int(np.ceil(px[:, 0].max())) + 3, w)
    iy1 = min(int(np.ceil(px[:, 1].max())) + 3, h)
    if ix1 <= ix0 or iy1 <= iy0:
        return None
    return ix0, iy0, ix1, iy1
