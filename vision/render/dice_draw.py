"""Render dice in a tray through the virtual camera, with the truth of every die.

The tray and its dice are drawn into a layer over the table's rendering (same camera, same lens):
the paper sheet with its two tags, the tray's textured floor, soft shadows from the lamp, then
walls and dice from the farthest to the nearest. Each die is a cube with rounded edges lit by
the lamp (faces turned from it are darker), pips on every face the camera sees (side faces
near the edge of the view show theirs, foreshortened), worn pips and glare where the scene
asks. Uneven room light is laid over the finished image.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from vision.render.camera import Camera
from vision.render.dice import DiceScene, Lighting, PlacedDie, TrayLook
from vision.render.dice_geometry import (
    F64,
    FACE_FRAMES,
    DiePose,
    die_pose,
    hull_points,
    pip_discs,
    surface_patches,
    top_face_corners_mm,
)
from vision.render.dice_tray import PAPER_BGR, texture_to_world, tray_texture
from vision.render.draw import Canvas, aruco_dictionary
from vision.render.effects import Effects, apply_effects
from vision.render.frame import render_clean
from vision.render.scene import PlacedTag, Scene, TableSpec

Image = npt.NDArray[np.uint8]
_SHIFT = 4
_SCALE = float(1 << _SHIFT)


@dataclass(frozen=True)
class DieTruth:
    """The truth of one rendered die."""

    index: int
    value: int
    """The face most nearly up."""
    look: str
    size_mm: float
    x_mm: float
    """Centre of the top face, world millimetres."""
    y_mm: float
    centre_px: tuple[float, float]
    """Centre of the top face in the output image (lens applied), pixels."""
    top_corners_px: tuple[tuple[float, float], ...]
    """Corners of the top face (full side) in the output image, pixels."""
    tilt_deg: float
    cocked: bool
    touching: bool
    """Within 1 mm of another die."""
    visible: float
    """Fraction of the top face's flat square the camera sees (not hidden, inside the image)."""

    @property
    def readable(self) -> bool:
        """Lying flat and in full view: a reader must give its value."""
        return not self.cocked and self.visible >= 0.9


@dataclass(frozen=True)
class DiceTruth:
    """The truth of one rendered tray."""

    dice: tuple[DieTruth, ...]
    tray_corners_px: tuple[tuple[float, float], ...]
    """The rolling area's corners (near-left, near-right, far-right, far-left), pixels."""
    tags_px: dict[int, tuple[tuple[float, float], ...]]
    """The tray tags' corners in the output image, OpenCV order, pixels."""
    camera: Camera

    @property
    def readable(self) -> tuple[DieTruth, ...]:
        """The dice a reader must read."""
        return tuple(d for d in self.dice if d.readable)


def tray_tags(tray: TrayLook) -> list[PlacedTag]:
    """The tray's two tags: one just outside the near-left corner, one outside the far-right."""
    if not tray.tags:
        return []
    h = tray.tag_mm / 2.0 + (tray.wall_thick_mm if tray.wall_mm > 0 else 0.0)
    at = ((-h, -h), (tray.width_mm + h, tray.depth_mm + h))
    out = []
    for tag_id, (u, v) in zip(tray.tag_ids, at, strict=True):
        x, y = tray.to_world(u, v)
        out.append(
            PlacedTag(tag_id, None, x, y, tray.yaw_deg, 0.0, tray.tag_mm, tray.tag_margin_mm)
        )
    return out


def camera_over_tray(
    tray: TrayLook, resolution: str = "1080p", height_mm: float = 450.0, vfov_deg: float = 40.0
) -> Camera:
    """A camera straight above the tray's centre (a close-up photo of a roll)."""
    cam = Camera.overhead(resolution, height_mm=height_mm, vfov_deg=vfov_deg)
    c = tray.to_world(tray.width_mm / 2.0, tray.depth_mm / 2.0)
    return replace(cam, position_mm=(c[0], c[1], height_mm), yaw_deg=tray.yaw_deg)


def render_dice(
    scene: DiceScene,
    camera: Camera,
    *,
    table: Scene | None = None,
    effects: Effects | None = None,
    rng: np.random.Generator | None = None,
) -> tuple[Image, DiceTruth]:
    """Render the tray and its dice (over ``table``, default an empty 2 ft table) as a BGR
    image, with the truth of every die."""
    effects = Effects() if effects is None else effects
    rng = np.random.default_rng(0) if rng is None else rng
    base, _ = render_clean(table if table is not None else Scene(table=TableSpec()), camera)
    layer, poses = tray_layer(scene, camera)
    image = layer.composite(base)
    if scene.lighting.uneven > 0:
        image = _uneven(image, scene.lighting)
    truth = _truth(scene, camera, poses, layer)
    return apply_effects(image, effects, rng), truth


def tray_layer(scene: DiceScene, camera: Camera) -> tuple[_Layer, list[DiePose]]:
    """The tray, its tags and its dice drawn into a layer for ``camera`` (``layer.composite``
    lays it over a rendered table), with each die's pose."""
    layer = _Layer(camera)
    _draw_sheet(layer, scene.tray)
    _draw_floor(layer, scene.tray)
    for tag in tray_tags(scene.tray):
        layer.fill(layer.canvas.project(tag.corners_mm(tag.margin_mm)), PAPER_BGR)
        layer.canvas.draw_tag(tag, aruco_dictionary("DICT_4X4_50"))
    poses = [die_pose(d) for d in scene.dice]
    walls = _wall_boxes(scene.tray)
    _draw_shadows(layer, scene, poses, walls)
    eye = np.asarray(camera.position_mm)
    order: list[tuple[float, str, int]] = []
    for i, p in enumerate(poses):
        order.append((float(np.linalg.norm(eye - p.centre_mm)), "die", i))
    for j, box in enumerate(walls):
        order.append((float(np.linalg.norm(eye - box.mean(axis=0))), "wall", j))
    order.sort(key=lambda o: -o[0])
    feet = [d.footprint().buffer(0.5) for d in scene.dice]
    for _, kind, k in order:
        if kind == "die":
            near = [f for j, f in enumerate(feet) if j != k and f.distance(feet[k]) < 2.0]
            others = unary_union(near) if near else None
            _draw_die(layer, scene.dice[k], poses[k], scene.lighting, k, others)
        else:
            _draw_box(layer, walls[k], scene.tray.wall_bgr, scene.lighting, 10000 + k)
    return layer, poses


class _Layer:
    """The tray drawn on the camera's undistorted canvas: premultiplied colour, coverage and
    which object each pixel shows."""

    def __init__(self, camera: Camera) -> None:
        self.canvas = Canvas.for_camera(camera)
        self.canvas.image[:] = 0
        h, w = self.canvas.image.shape[:2]
        self.alpha = np.zeros((h, w), np.uint8)
        self.ids = np.full((h, w), -1, np.int16)

    def fill(self, pts_px: F64, colour: tuple[float, ...], obj: int | None = None) -> None:
        """Fill the convex hull of canvas points (anti-aliased), marking ``obj`` as on top."""
        if len(pts_px) < 3 or not np.isfinite(pts_px).all():
            return
        hull = cv2.convexHull((pts_px * _SCALE).astype(np.int32))
        c = tuple(float(min(255.0, max(0.0, v))) for v in colour)
        cv2.fillConvexPoly(self.canvas.image, hull, c, cv2.LINE_AA, _SHIFT)
        cv2.fillConvexPoly(self.alpha, hull, 255, cv2.LINE_AA, _SHIFT)
        if obj is not None:
            cv2.fillConvexPoly(self.ids, hull, obj, cv2.LINE_8, _SHIFT)

    def composite(self, base: Image) -> Image:
        """The layer through the lens, over ``base`` (the table's rendering)."""
        img, alpha = self.canvas.image, self.alpha
        maps = self.canvas.ideal.fixed_maps
        if maps is not None:
            img = cv2.remap(img, maps[0], maps[1], cv2.INTER_LINEAR)
            alpha = cv2.remap(alpha, maps[0], maps[1], cv2.INTER_LINEAR)
        a = alpha.astype(np.float32)[..., None] / 255.0
        out = base.astype(np.float32) * (1.0 - a) + img.astype(np.float32)
        return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _shade(normal: F64, point: F64, light: Lighting) -> float:
    """Brightness of a surface relative to the floor under the lamp (1: as lit as the floor)."""
    lamp = np.asarray(light.light_mm, dtype=np.float64)
    to_lamp = lamp - point
    to_lamp /= max(float(np.linalg.norm(to_lamp)), 1e-9)
    lit = light.ambient + (1.0 - light.ambient) * max(0.0, float(normal @ to_lamp))
    floor = light.ambient + (1.0 - light.ambient) * max(0.05, float(to_lamp[2]))
    return lit / floor


def _scaled(colour: tuple[int, int, int], k: float) -> tuple[float, float, float]:
    return (colour[0] * k, colour[1] * k, colour[2] * k)


def _draw_sheet(layer: _Layer, tray: TrayLook) -> None:
    """The paper under the tray and around it, where the tags are printed."""
    wall = tray.wall_thick_mm if tray.wall_mm > 0 else 0.0
    grow = wall + (tray.tag_mm + 2 * tray.tag_margin_mm if tray.tags else 4.0)
    pts = [
        tray.to_world(u, v)
        for u, v in (
            (-grow, -grow),
            (tray.width_mm + grow, -grow),
            (tray.width_mm + grow, tray.depth_mm + grow),
            (-grow, tray.depth_mm + grow),
        )
    ]
    colour = PAPER_BGR if tray.tags else tray.wall_bgr
    layer.fill(layer.canvas.project([(x, y, 0.0) for x, y in pts]), colour)


def _draw_floor(layer: _Layer, tray: TrayLook) -> None:
    """The tray's textured floor, warped into the canvas."""
    canvas = layer.canvas
    corners = canvas.project([(x, y, 0.0) for x, y in tray.corners_mm()])
    scale = float(np.clip(canvas.camera.px_per_mm_at_table() * 1.4, 1.0, 8.0))
    tex = tray_texture(tray, round(scale * 4) / 4)
    ppm = round(scale * 4) / 4
    h = canvas.plane_homography(0.0) @ texture_to_world(tray, ppm, tex.shape[0])
    x0 = max(int(np.floor(corners[:, 0].min())) - 2, 0)
    y0 = max(int(np.floor(corners[:, 1].min())) - 2, 0)
    x1 = min(int(np.ceil(corners[:, 0].max())) + 3, canvas.image.shape[1])
    y1 = min(int(np.ceil(corners[:, 1].max())) + 3, canvas.image.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]]) @ h
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(tex, shift, size, flags=cv2.INTER_LINEAR)
    cover = cv2.warpPerspective(np.full(tex.shape[:2], 255, np.uint8), shift, size)
    a = cover.astype(np.float32)[..., None] / 255.0
    roi = layer.canvas.image[y0:y1, x0:x1]
    roi[:] = np.clip(roi * (1.0 - a) + warped * a + 0.5, 0, 255).astype(np.uint8)
    layer.alpha[y0:y1, x0:x1] = np.maximum(layer.alpha[y0:y1, x0:x1], cover)


def _wall_boxes(tray: TrayLook) -> list[F64]:
    """The tray's rim as boxes (8 world corners each) of about 30 mm, so that the painter's
    order by distance works against dice."""
    if tray.wall_mm <= 0:
        return []
    t = tray.wall_thick_mm
    w, d = tray.width_mm, tray.depth_mm
    sides = [
        ((-t, -t), (w + t, 0.0)),
        ((-t, d), (w + t, d + t)),
        ((-t, 0.0), (0.0, d)),
        ((w, 0.0), (w + t, d)),
    ]
    boxes = []
    for (u0, v0), (u1, v1) in sides:
        long_u = (u1 - u0) > (v1 - v0)
        length = (u1 - u0) if long_u else (v1 - v0)
        n = max(1, math.ceil(length / 30.0))
        for k in range(n):
            if long_u:
                a0, a1 = u0 + (u1 - u0) * k / n, u0 + (u1 - u0) * (k + 1) / n
                quad = [(a0, v0), (a1, v0), (a1, v1), (a0, v1)]
            else:
                b0, b1 = v0 + (v1 - v0) * k / n, v0 + (v1 - v0) * (k + 1) / n
                quad = [(u0, b0), (u1, b0), (u1, b1), (u0, b1)]
            pts = [(*tray.to_world(u, v), z) for z in (0.0, tray.wall_mm) for u, v in quad]
            boxes.append(np.array(pts, dtype=np.float64))
    return boxes


_BOX_FACES = ((4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))


def _draw_box(
    layer: _Layer, box: F64, colour: tuple[int, int, int], light: Lighting, obj: int
) -> None:
    eye = np.asarray(layer.canvas.camera.position_mm)
    centre = box.mean(axis=0)
    for face in _BOX_FACES:
        pts = box[list(face)]
        mid = pts.mean(axis=0)
        normal = mid - centre
        normal[2] = normal[2] if face[0] == 4 else 0.0
        normal /= max(float(np.linalg.norm(normal)), 1e-9)
        if float(normal @ (eye - mid)) <= 0:
            continue
        k = _shade(normal, mid, light)
        layer.fill(layer.canvas.project(pts), _scaled(colour, k), obj)


def _shadow_points(pts: F64, light: Lighting, floor: float = 0.0) -> F64:
    """World points cast onto the floor from the lamp (x, y, floor), mm."""
    lamp = np.asarray(light.light_mm, dtype=np.float64)
    k = (lamp[2] - floor) / np.maximum(lamp[2] - pts[:, 2], 1e-6)
    xy = lamp[None, :2] + (pts[:, :2] - lamp[None, :2]) * k[:, None]
    return np.column_stack([xy, np.full(len(pts), floor)])


def _draw_shadows(layer: _Layer, scene: DiceScene, poses: list[DiePose], walls: list[F64]) -> None:
    """Soft shadows of dice and walls, and a dark contact line under each die, on the floor."""
    light = scene.lighting
    canvas = layer.canvas
    h, w = layer.alpha.shape
    mask = np.zeros((h, w), np.float32)
    contact = np.zeros((h, w), np.float32)
    for die, pose in zip(scene.dice, poses, strict=True):
        world = pose.to_world(hull_points(die))
        pts = canvas.project(_shadow_points(world, light))
        cv2.fillConvexPoly(mask, cv2.convexHull((pts * _SCALE).astype(np.int32)), 1.0, 8, _SHIFT)
        low = world[world[:, 2] < 0.25 * die.size_mm]
        foot = canvas.project(np.column_stack([low[:, :2], np.zeros(len(low))]))
        cv2.fillConvexPoly(
            contact, cv2.convexHull((foot * _SCALE).astype(np.int32)), 1.0, 8, _SHIFT
        )
    for box in walls:
        pts = canvas.project(_shadow_points(box, light))
        cv2.fillConvexPoly(mask, cv2.convexHull((pts * _SCALE).astype(np.int32)), 1.0, 8, _SHIFT)
    ppm = canvas.camera.px_per_mm_at_table()
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, light.shadow_soft_mm * ppm))
    contact = cv2.GaussianBlur(contact, (0, 0), max(0.5, 0.8 * ppm))
    dark = 1.0 - np.clip(light.shadow * mask + 0.35 * contact, 0.0, 0.9)
    layer.canvas.image[:] = np.clip(layer.canvas.image * dark[..., None] + 0.5, 0, 255).astype(
        np.uint8
    )


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (
        round(a[0] * (1 - t) + b[0] * t),
        round(a[1] * (1 - t) + b[1] * t),
        round(a[2] * (1 - t) + b[2] * t),
    )


EDGE_DARKEN = 0.85
"""Rounded edges catch less of the room's light than the flat faces (seen at a slant)."""
CREVICE_DARKEN = 0.55
"""A rounded edge facing a touching die lies in a crevice that little light reaches."""


def _draw_die(
    layer: _Layer,
    die: PlacedDie,
    pose: DiePose,
    light: Lighting,
    obj: int,
    others: Polygon | None = None,
) -> None:
    canvas = layer.canvas
    eye = np.asarray(canvas.camera.position_mm)
    body = die.look.body_bgr
    world_hull = pose.to_world(hull_points(die))
    layer.fill(canvas.project(world_hull), _scaled(body, 0.4), obj)
    edges, faces = surface_patches(die)
    for patch in edges:
        normal = pose.rotation @ patch.normal
        pts = pose.to_world(patch.points)
        mid = pts.mean(axis=0)
        if float(normal @ (eye - mid)) <= 0:
            continue
        k = EDGE_DARKEN * _shade(normal, mid, light)
        flat = normal[:2]
        if others is not None and float(np.linalg.norm(flat)) > 0.3:
            probe = mid[:2] + flat / float(np.linalg.norm(flat)) * 1.5
            if others.contains(Point(float(probe[0]), float(probe[1]))):
                k *= CREVICE_DARKEN
        layer.fill(canvas.project(pts), _scaled(body, k))
    rng = np.random.default_rng(obj * 7 + 11)
    up = pose.face_up()
    for value, patch in faces.items():
        normal = pose.rotation @ patch.normal
        pts = pose.to_world(patch.points)
        mid = pts.mean(axis=0)
        if float(normal @ (eye - mid)) <= 0:
            continue
        k = _shade(normal, mid, light)
        layer.fill(canvas.project(pts), _scaled(body, k))
        for disc in pip_discs(die, value):
            wear = die.worn * float(rng.uniform(0.5, 1.0)) if die.worn > 0 else 0.0
            colour = _mix(die.look.pip_bgr, body, min(wear, 0.85))
            layer.fill(canvas.project(pose.to_world(disc)), _scaled(colour, 0.9 * k))
        if value == up and die.glare > 0:
            _glare(layer, die, pose, value, pts)


def _glare(layer: _Layer, die: PlacedDie, pose: DiePose, value: int, face_pts: F64) -> None:
    """A soft specular spot on the top face, clipped to the face."""
    n, u, v = (np.array(x, dtype=np.float64) for x in FACE_FRAMES[value])
    s = die.size_mm
    gu, gv = die.glare_at
    centre = pose.to_world([s / 2 * n + gu * s * u + gv * s * v])
    c = layer.canvas.project(centre)[0]
    edge = layer.canvas.project(pose.to_world([s / 2 * n + (gu + 0.22) * s * u + gv * s * v]))[0]
    sigma = max(1.0, float(np.linalg.norm(edge - c)) / 1.5)
    r = int(3 * sigma) + 2
    x0, y0 = int(c[0]) - r, int(c[1]) - r
    h, w = layer.alpha.shape
    if x0 < 0 or y0 < 0 or x0 + 2 * r >= w or y0 + 2 * r >= h:
        return
    ys, xs = np.mgrid[y0 : y0 + 2 * r, x0 : x0 + 2 * r]
    g = np.exp(-((xs - c[0]) ** 2 + (ys - c[1]) ** 2) / (2 * sigma**2)).astype(np.float32)
    clip = np.zeros(g.shape, np.uint8)
    face = layer.canvas.project(face_pts) - np.array([x0, y0])
    cv2.fillConvexPoly(clip, cv2.convexHull((face * _SCALE).astype(np.int32)), 1, 8, _SHIFT)
    g *= clip * float(die.glare)
    roi = layer.canvas.image[y0 : y0 + 2 * r, x0 : x0 + 2 * r].astype(np.float32)
    roi += g[..., None] * (255.0 - roi)
    layer.canvas.image[y0 : y0 + 2 * r, x0 : x0 + 2 * r] = np.clip(roi + 0.5, 0, 255).astype(
        np.uint8
    )


def _uneven(image: Image, light: Lighting) -> Image:
    """Slow random brightness changes over the view (a lamp's pool of light, a window)."""
    rng = np.random.default_rng(light.seed + 101)
    h, w = image.shape[:2]
    small = rng.uniform(-1.0, 1.0, (3, 4)).astype(np.float32)
    field = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    gain = np.clip(1.0 + light.uneven * field, 0.2, 2.0)
    return np.clip(image.astype(np.float32) * gain[..., None] + 0.5, 0, 255).astype(np.uint8)


def _truth(scene: DiceScene, camera: Camera, poses: list[DiePose], layer: _Layer) -> DiceTruth:
    feet = [d.footprint() for d in scene.dice]
    dice = []
    for i, (die, pose) in enumerate(zip(scene.dice, poses, strict=True)):
        top = top_face_corners_mm(die, pose)
        corners = camera.project(top)
        centre = camera.project(top.mean(axis=0, keepdims=True))[0]
        h, w = camera.height_px, camera.width_px
        inside = bool(
            (corners[:, 0] >= 0).all()
            and (corners[:, 0] <= w - 1).all()
            and (corners[:, 1] >= 0).all()
            and (corners[:, 1] <= h - 1).all()
        )
        visible = _seen_fraction(layer, top, die, i) if inside else 0.0
        touching = any(j != i and feet[i].distance(f) < 1.0 for j, f in enumerate(feet))
        dice.append(
            DieTruth(
                index=i,
                value=pose.face_up(),
                look=die.look.name,
                size_mm=die.size_mm,
                x_mm=float(top[:, 0].mean()),
                y_mm=float(top[:, 1].mean()),
                centre_px=(float(centre[0]), float(centre[1])),
                top_corners_px=tuple((float(x), float(y)) for x, y in corners),
                tilt_deg=die.tilt_deg,
                cocked=die.cocked,
                touching=touching,
                visible=visible,
            )
        )
    tray_px = camera.project([(x, y, 0.0) for x, y in scene.tray.corners_mm()])
    tags = {t.tag_id: camera.project(t.corners_mm()) for t in tray_tags(scene.tray)}
    return DiceTruth(
        dice=tuple(dice),
        tray_corners_px=tuple((float(x), float(y)) for x, y in tray_px),
        tags_px={k: tuple((float(x), float(y)) for x, y in v) for k, v in tags.items()},
        camera=camera,
    )


def _seen_fraction(layer: _Layer, top_mm: F64, die: PlacedDie, obj: int) -> float:
    """Share of the top face (inset by its rounded edge) that shows this die in the canvas."""
    centre = top_mm.mean(axis=0)
    inset = 1.0 - 2.0 * die.look.edge_radius
    quad = layer.canvas.project(centre + (top_mm - centre) * inset)
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    h, w = layer.ids.shape
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    pts = ((quad - np.array([x0, y0])) * _SCALE).astype(np.int32)
    cv2.fillConvexPoly(mask, pts, 1, cv2.LINE_8, _SHIFT)
    area = int(mask.sum())
    if area == 0:
        return 0.0
    mine = (layer.ids[y0:y1, x0:x1] == obj) & (mask > 0)
    return float(mine.sum()) / area
