"""Scripted battle clips from the project's table renderer (vision.render), with ground truth.

A hand comes in from the player's edge, lifts a piece, carries it, sets it down and leaves;
or hovers over pieces without touching them. Frames where nothing changes are rendered once
and only the camera effects (noise, JPEG) are redone, so a clip renders quickly. Ground truth
is in table inches, degrees and seconds; tag positions are the renderer's own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.render import Camera, Effects, HandPose, Scene, random_scene
from vision.render.effects import apply_effects
from vision.render.frame import FrameTruth, render_clean

APPROACH_S = 0.8
"""Seconds the hand takes to reach a piece from off the table, and to leave."""
OFF_TABLE_Y_IN = -5.0


@dataclass(frozen=True)
class PieceMoveScript:
    """Piece ``piece`` is lifted at ``t_lift`` and set down at ``to`` at ``t_place``."""

    piece: str
    to: tuple[float, float, float]
    """(x_in, y_in, heading_deg)."""
    t_lift: float
    t_place: float


@dataclass(frozen=True)
class HoverScript:
    """The hand hovers low over ``at`` (inches) from t0 to t1 without touching anything."""

    at: tuple[float, float]
    t0: float
    t1: float
    height_mm: float = 70.0


@dataclass
class BattleScript:
    """A scene and what happens to it."""

    scene: Scene
    moves: list[PieceMoveScript]
    hovers: list[HoverScript] = field(default_factory=list)
    duration_s: float = 20.0
    fps: float = 10.0
    resolution: str = "1080p"


def _lerp(a: tuple[float, float], b: tuple[float, float], k: float) -> tuple[float, float]:
    k = min(1.0, max(0.0, k))
    return a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k


def _state_at(script: BattleScript, t: float) -> tuple[Scene, HandPose | None, tuple[str, ...]]:
    """The scene (pieces where they lie), the hand, and the pieces in the hand at ``t``."""
    scene = script.scene
    start = {p.name: (p.x_in, p.y_in, p.heading_deg) for p in script.scene.pieces}
    hand: HandPose | None = None
    carried: list[str] = []
    for m in script.moves:
        frm = start[m.piece]
        if t >= m.t_place:
            scene = scene.with_piece_at(m.piece, *m.to)
        elif t >= m.t_lift:
            carried.append(m.piece)
            k = (t - m.t_lift) / (m.t_place - m.t_lift)
            x, y = _lerp(frm[:2], m.to[:2], k)
            hand = HandPose(x, y, 60.0 + 60.0 * math.sin(math.pi * k), holding=True)
        if m.t_lift - APPROACH_S <= t < m.t_lift:
            k = (t - (m.t_lift - APPROACH_S)) / APPROACH_S
            x, y = _lerp((frm[0], OFF_TABLE_Y_IN), frm[:2], k)
            hand = HandPose(x, y, 60.0)
        if m.t_place <= t < m.t_place + APPROACH_S:
            k = (t - m.t_place) / APPROACH_S
            x, y = _lerp(m.to[:2], (m.to[0], OFF_TABLE_Y_IN), k)
            hand = HandPose(x, y, 60.0 + 60.0 * k)
    for h in script.hovers:
        if h.t0 <= t < h.t1:
            k = min(1.0, (t - h.t0) / APPROACH_S, (h.t1 - t) / APPROACH_S)
            x, y = _lerp((h.at[0], OFF_TABLE_Y_IN), h.at, k)
            hand = HandPose(x, y, h.height_mm)
    for name in carried:
        scene = scene.without_piece(name)
    return scene, hand, tuple(carried)


def truth_moves(script: BattleScript, first: FrameTruth) -> list[dict]:
    """The moves in timeline.json form: tag centres in inches (the piece's first tag)."""
    out = []
    start = {p.name: p for p in script.scene.pieces}
    for m in script.moves:
        piece = start[m.piece]
        mount = piece.spec.tags[0]
        tag = first.tag(int(mount.tag_id))
        h = math.radians(m.to[2] + mount.rotation_deg)
        fwd, right = mount.forward_mm / 25.4, mount.right_mm / 25.4
        hf = math.radians(m.to[2])
        to_x = m.to[0] + fwd * math.sin(hf) + right * math.cos(hf)
        to_y = m.to[1] + fwd * math.cos(hf) - right * math.sin(hf)
        out.append(
            {
                "tag": int(mount.tag_id),
                "piece": m.piece,
                "from": [tag.x_in, tag.y_in],
                "to": [to_x, to_y],
                "heading_from": tag.heading_deg,
                "heading_to": math.degrees(h) % 360.0,
                "t_start": m.t_lift,
                "t_end": m.t_place,
            }
        )
    return out


def render_battle(
    script: BattleScript, path: Path, seed: int = 0, fresh_noise: bool = False
) -> tuple[list[dict], FrameTruth]:
    """Write the clip as an MP4 ('mp4v'); returns the true moves and the first frame's truth.

    ``fresh_noise``: new sensor noise on every frame (as a camera gives; slower to render and
    to decode), else frames where nothing changed repeat exactly.
    """
    camera = Camera.overhead(
        script.resolution,
        table_width_in=script.scene.table.width_in,
        table_depth_in=script.scene.table.depth_in,
    )
    writer: cv2.VideoWriter | None = None
    rng = np.random.default_rng(seed)
    effects = Effects()
    cache_key: object = None
    clean = None
    image = None
    first_truth: FrameTruth | None = None
    n = round(script.duration_s * script.fps)
    for i in range(n):
        t = i / script.fps
        scene, hand, _carried = _state_at(script, t)
        key = (tuple((p.name, p.x_in, p.y_in, p.heading_deg) for p in scene.pieces), hand)
        if key != cache_key:
            clean, truth = render_clean(scene, camera, hand, frame=i, t=t)
            image = apply_effects(clean, effects, rng)
            cache_key = key
            if first_truth is None:
                first_truth = truth
        elif fresh_noise:
            assert clean is not None
            image = apply_effects(clean, effects, rng)
        if writer is None:
            h, w = image.shape[:2]
            writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), script.fps, (w, h))
        writer.write(image)
    assert writer is not None and first_truth is not None
    writer.release()
    return truth_moves(script, first_truth), first_truth


def battle_truth(script: BattleScript) -> list[dict]:
    """The true moves of a script without rendering the clip (one still for the tag poses)."""
    camera = Camera.overhead(
        script.resolution,
        table_width_in=script.scene.table.width_in,
        table_depth_in=script.scene.table.depth_in,
    )
    _, first = render_clean(script.scene, camera)
    return truth_moves(script, first)


def standard_battle(fps: float = 8.0, resolution: str = "1080p") -> BattleScript:
    """Twelve pieces; three moves toward the middle, a hover over other pieces; the figures
    of some pieces hide their tags for the whole clip."""
    scene = random_scene(5, n_pieces=12, base_diameter_mm=32.0, tag_size_mm=16.0, first_id=16)
    p = {pc.name: pc for pc in scene.pieces}
    names = sorted(p)

    def toward_middle(name: str, step_in: float, heading: float) -> tuple[float, float, float]:
        x, y = p[name].x_in, p[name].y_in
        d = math.hypot(12.0 - x, 12.0 - y) or 1.0
        return x + (12.0 - x) / d * step_in, y + (12.0 - y) / d * step_in, heading

    moves = [
        PieceMoveScript(names[0], toward_middle(names[0], 4.0, 30.0), 2.5, 3.8),
        PieceMoveScript(names[3], toward_middle(names[3], 3.5, 200.0), 6.3, 7.6),
        PieceMoveScript(names[6], toward_middle(names[6], 5.0, 90.0), 13.5, 14.7),
    ]
    hovers = [HoverScript((p[names[1]].x_in, p[names[1]].y_in), 9.5, 11.3, height_mm=50.0)]
    return BattleScript(scene, moves, hovers, duration_s=17.0, fps=fps, resolution=resolution)
