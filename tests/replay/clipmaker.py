"""Small scripted table clips for the replay tests (until/besides the project renderer).

A textured table with the four corner tags and base tags (white margin, a dark base disc, a
figure on the rear half), seen by a slightly tilted camera (a homography), and a hand that
lifts pieces, carries them and sets them down, or hovers. Ground truth in table inches/seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

MM_PER_IN = 25.4


@dataclass(frozen=True)
class Piece:
    tag_id: int
    x_in: float
    y_in: float
    heading_deg: float
    covered: bool = False
    """Its figure hides its tag for the whole clip."""


@dataclass(frozen=True)
class MoveScript:
    tag_id: int
    to_in: tuple[float, float]
    heading_to_deg: float
    t_lift: float
    t_place: float


@dataclass(frozen=True)
class Hover:
    at_in: tuple[float, float]
    t0: float
    t1: float


@dataclass
class Clip:
    pieces: list[Piece]
    moves: list[MoveScript] = field(default_factory=list)
    hovers: list[Hover] = field(default_factory=list)
    duration_s: float = 12.0
    fps: float = 15.0
    size_px: tuple[int, int] = (1920, 1080)
    table_in: tuple[float, float] = (24.0, 24.0)
    tag_mm: float = 20.0
    corner_tags: bool = True


class _Canvas:
    """Top-down table canvas: ``ppm`` pixels per mm, ``border_mm`` around the play area."""

    def __init__(self, clip: Clip, ppm: float = 2.2, border_mm: float = 60.0) -> None:
        self.clip = clip
        self.ppm = ppm
        self.border = border_mm
        w_mm = clip.table_in[0] * MM_PER_IN + 2 * border_mm
        d_mm = clip.table_in[1] * MM_PER_IN + 2 * border_mm
        self.size = (round(w_mm * ppm), round(d_mm * ppm))
        self.dict = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        rng = np.random.default_rng(7)
        noise = rng.integers(70, 130, (self.size[1] // 12 + 1, self.size[0] // 12 + 1, 1))
        base = cv2.resize(noise.astype(np.uint8), self.size, interpolation=cv2.INTER_CUBIC)
        self.background = np.dstack([base * 0.55, base * 0.85, base * 0.6]).astype(np.uint8)
        for tid, (x, y) in enumerate(
            [(0, 0), (clip.table_in[0], 0), clip.table_in, (0, clip.table_in[1])]
        ):
            if clip.corner_tags:
                s = 40.0 / MM_PER_IN
                cx = x - s / 2 if tid in (0, 3) else x + s / 2
                cy = y - s / 2 if tid in (0, 1) else y + s / 2
                self.draw_tag(self.background, tid, cx, cy, 0.0, 40.0)

    def px(self, x_in: float, y_in: float) -> tuple[float, float]:
        """Table inches -> canvas pixels (y up on the table = up in the canvas)."""
        return (
            (x_in * MM_PER_IN + self.border) * self.ppm,
            self.size[1] - (y_in * MM_PER_IN + self.border) * self.ppm,
        )

    def draw_tag(
        self, img: np.ndarray, tid: int, x_in: float, y_in: float, heading: float, size_mm: float
    ) -> None:
        cells = 6
        marker = cv2.aruco.generateImageMarker(self.dict, tid, cells * 10)
        full = cv2.copyMakeBorder(marker, 6, 6, 6, 6, cv2.BORDER_CONSTANT, value=255)
        n = full.shape[0]
        half = size_mm * (n / (cells * 10)) / 2 / MM_PER_IN
        h = math.radians(heading)
        ux, uy = math.sin(h), math.cos(h)  # tag up in table
        rx, ry = math.cos(h), -math.sin(h)  # tag right
        corners = [(-1, 1), (1, 1), (1, -1), (-1, -1)]
        dst = np.float32(
            [
                self.px(x_in + half * (a * rx + b * ux), y_in + half * (a * ry + b * uy))
                for a, b in corners
            ]
        )
        src = np.float32([[0, 0], [n, 0], [n, n], [0, n]])
        m = cv2.getPerspectiveTransform(src, dst)
        x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 2
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        patch = cv2.warpPerspective(full, shift @ m, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(
            np.full_like(full, 255), shift @ m, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA
        )
        roi = img[y0:y1, x0:x1]
        a = (mask.astype(np.float32) / 255.0)[..., None]
        roi[:] = (roi * (1 - a) + patch[..., None] * a).astype(np.uint8)

    def draw_piece(self, img: np.ndarray, p: Piece, x: float, y: float, h: float) -> None:
        cx, cy = self.px(x, y)
        r = 12.5 * self.ppm
        cv2.circle(img, (round(cx), round(cy)), round(r), (40, 40, 40), -1, cv2.LINE_AA)
        tx = x + math.sin(math.radians(h)) * 5 / MM_PER_IN
        ty = y + math.cos(math.radians(h)) * 5 / MM_PER_IN
        self.draw_tag(img, p.tag_id, tx, ty, h, self.clip.tag_mm)
        # the figure on the rear half of the base
        fx = x - math.sin(math.radians(h)) * 12 / MM_PER_IN
        fy = y - math.cos(math.radians(h)) * 12 / MM_PER_IN
        fcx, fcy = self.px(fx, fy)
        cv2.ellipse(
            img,
            (round(fcx), round(fcy)),
            (round(4 * self.ppm), round(3 * self.ppm)),
            -h,
            0,
            360,
            (60, 90, 150),
            -1,
            cv2.LINE_AA,
        )
        if p.covered:
            tcx, tcy = self.px(tx, ty)
            cv2.circle(img, (round(tcx), round(tcy)), round(9 * self.ppm), (60, 90, 150), -1)

    def draw_hand(self, img: np.ndarray, x: float, y: float) -> None:
        cx, cy = self.px(x, y)
        wrist = self.px(x, -3.0)
        skin = (120, 160, 215)
        cv2.line(
            img,
            (round(wrist[0]), round(wrist[1]) + 200),
            (round(cx), round(cy) + 60),
            skin,
            round(70 * self.ppm),
        )
        cv2.ellipse(
            img,
            (round(cx), round(cy) + 20),
            (round(45 * self.ppm), round(55 * self.ppm)),
            0,
            0,
            360,
            skin,
            -1,
            cv2.LINE_AA,
        )
        for k in range(4):
            fx = cx + (k - 1.5) * 20 * self.ppm
            cv2.line(
                img,
                (round(fx), round(cy)),
                (round(fx), round(cy - 50 * self.ppm)),
                skin,
                round(14 * self.ppm),
                cv2.LINE_AA,
            )


def _camera_homography(clip: Clip, canvas: _Canvas) -> np.ndarray:
    """Canvas pixels -> image pixels: the table fills most of the view, a slight tilt."""
    w, h = clip.size_px
    cw, ch = canvas.size
    margin = 40
    side = h - 2 * margin
    x0 = (w - side) / 2
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    dst = np.float32(
        [
            [x0 + 25, margin],
            [x0 + side - 15, margin + 10],
            [x0 + side, margin + side],
            [x0, margin + side - 5],
        ]
    )
    return cv2.getPerspectiveTransform(src, dst)


def _hand_position(clip: Clip, poses: dict[int, tuple[float, float, float]], t: float):
    """Where the hand is at t (table inches), or None when it is off the table."""
    for m in clip.moves:
        frm = poses[m.tag_id]
        if m.t_lift - 0.8 <= t < m.t_lift:
            k = (t - (m.t_lift - 0.8)) / 0.8
            return frm[0], -6 + (frm[1] + 6) * k
        if m.t_lift <= t < m.t_place:
            k = (t - m.t_lift) / (m.t_place - m.t_lift)
            return frm[0] + (m.to_in[0] - frm[0]) * k, frm[1] + (m.to_in[1] - frm[1]) * k
        if m.t_place <= t < m.t_place + 0.8:
            k = (t - m.t_place) / 0.8
            return m.to_in[0], m.to_in[1] + (-6 - m.to_in[1]) * k
    for hv in clip.hovers:
        if hv.t0 <= t < hv.t1:
            k = min(1.0, (t - hv.t0) / 0.6, (hv.t1 - t) / 0.6)
            return hv.at_in[0], -6 + (hv.at_in[1] + 6) * k
    return None


def write_clip(clip: Clip, path: Path, fourcc: str = "mp4v") -> list[dict]:
    """Render the clip to ``path``; returns the ground-truth moves (inches, degrees, seconds)."""
    canvas = _Canvas(clip)
    hmat = _camera_homography(clip, canvas)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), clip.fps, clip.size_px)
    assert writer.isOpened()
    start = {p.tag_id: (p.x_in, p.y_in, p.heading_deg) for p in clip.pieces}
    truth = []
    for m in clip.moves:
        f = start[m.tag_id]
        truth.append(
            {
                "tag": m.tag_id,
                "from": [f[0], f[1]],
                "to": list(m.to_in),
                "heading_from": f[2],
                "heading_to": m.heading_to_deg,
                "t_start": m.t_lift,
                "t_end": m.t_place,
            }
        )
    n = round(clip.duration_s * clip.fps)
    for i in range(n):
        t = i / clip.fps
        img = canvas.background.copy()
        poses = dict(start)
        for m in clip.moves:
            if t >= m.t_place:
                poses[m.tag_id] = (m.to_in[0], m.to_in[1], m.heading_to_deg)
        hand = _hand_position(clip, start, t)
        for p in clip.pieces:
            carried = any(m.tag_id == p.tag_id and m.t_lift <= t < m.t_place for m in clip.moves)
            if not carried:
                x, y, h = poses[p.tag_id]
                canvas.draw_piece(img, p, x, y, h)
        if hand is not None:
            canvas.draw_hand(img, *hand)
        frame = cv2.warpPerspective(img, hmat, clip.size_px, flags=cv2.INTER_LINEAR)
        writer.write(frame)
    writer.release()
    return truth


def standard_clip() -> Clip:
    """Three moves, a hover over two pieces, one piece whose figure covers its tag."""
    pieces = [
        Piece(16, 4.0, 4.0, 0.0),
        Piece(17, 12.0, 6.0, 90.0),
        Piece(18, 18.0, 10.0, 200.0),
        Piece(19, 8.0, 16.0, 45.0),
        Piece(20, 16.0, 18.0, 300.0),
        Piece(21, 21.0, 21.0, 0.0, covered=True),
    ]
    moves = [
        MoveScript(16, (7.0, 9.0), 30.0, 2.6, 4.0),
        MoveScript(18, (14.5, 13.0), 260.0, 7.2, 8.4),
        MoveScript(19, (10.0, 19.5), 45.0, 13.8, 14.8),
    ]
    hovers = [Hover((16.0, 17.0), 10.4, 12.2)]
    return Clip(pieces, moves, hovers, duration_s=17.5)
