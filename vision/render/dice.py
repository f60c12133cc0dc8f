"""Dice in a tray for the renderer: what a die looks like, where it lies, and seeded rolls.

A roll is a :class:`DiceScene`: the tray (a printed sheet or a walled box, light or dark, felt,
wood grain or paper), the light, and the dice on it. :func:`random_roll` makes seeded rolls with
everything a real photograph holds: mixed sizes and colours, touching clumps, slight tilts,
worn pips, glare, and dice cocked against a wall or another die. Rendering is in
:mod:`vision.render.dice_draw` (``render_dice``).

World frame as for the table renderer: millimetres from the play area's left front corner,
+x right, +y away from the player, z up; yaw in degrees clockwise from +y.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
from shapely.geometry import Polygon

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class DieLook:
    """How a six-sided pip die looks (sizes as fractions of its side unless named in mm)."""

    name: str
    body_bgr: BGR
    pip_bgr: BGR
    pip_diameter: float = 0.18
    """Pip diameter over the die's side."""
    pip_offset: float = 0.27
    """Distance of the corner pips from the face centre along each axis, over the side."""
    edge_radius: float = 0.12
    """Radius of the rounded edges and corners, over the side."""
    one_pip_scale: float = 1.0
    """Diameter of the single pip of the 1 face relative to the other pips (big red ones)."""


#: The looks the renderer knows: white, cream and coloured dice with black, red, blue or white
#: pips.
LOOKS: dict[str, DieLook] = {
    "white": DieLook("white", (236, 237, 234), (28, 28, 30)),
    "cream": DieLook("cream", (196, 226, 240), (40, 40, 168), one_pip_scale=1.35),
    "red": DieLook("red", (48, 40, 178), (232, 232, 228), pip_diameter=0.19),
    "yellow": DieLook("yellow", (58, 205, 232), (140, 62, 24)),
    "blue": DieLook("blue", (168, 92, 34), (236, 236, 232)),
    "green": DieLook("green", (80, 150, 62), (26, 26, 26), pip_offset=0.28),
}


@dataclass(frozen=True)
class PlacedDie:
    """One die on the tray: size, look, pose and the face on top."""

    x_mm: float
    """Centre of the die's footprint, world millimetres."""
    y_mm: float
    value: int
    """The face that points up (1-6); for a cocked die the face most nearly up."""
    size_mm: float = 16.0
    look: DieLook = LOOKS["white"]
    yaw_deg: float = 0.0
    """Turn of the die about the vertical, degrees clockwise from +y."""
    tilt_deg: float = 0.0
    """Tip of the top face from level, degrees (slight on a cloth; cocked when large)."""
    tilt_dir_deg: float = 0.0
    """Direction the top face tips toward, degrees clockwise from +y."""
    worn: float = 0.0
    """0: crisp pips; up to 1: pip paint rubbed toward the body colour."""
    glare: float = 0.0
    """Strength of a specular spot on the top face (0: none, 1: white)."""
    glare_at: tuple[float, float] = (0.1, -0.1)
    """Where the spot lies on the top face, fractions of the side from its centre."""
    floor_mm: float = 0.0
    """Height the die rests on (the tray's floor), millimetres."""

    @property
    def cocked(self) -> bool:
        """Tipped too far to lie flat: a player re-rolls it."""
        return self.tilt_deg > COCKED_DEG

    def footprint(self) -> Polygon:
        """The die's square footprint on the floor (shapely, world millimetres)."""
        return Polygon(square_corners(self.x_mm, self.y_mm, self.size_mm, self.yaw_deg))


COCKED_DEG = 8.0
"""A die tipped more than this is cocked (a player would re-roll it); below, it lies flat on
an uneven cloth."""


def square_corners(
    x_mm: float, y_mm: float, side_mm: float, yaw_deg: float
) -> list[tuple[float, float]]:
    """The four corners of a square centred at (x, y), turned by ``yaw_deg``, millimetres."""
    a = math.radians(yaw_deg)
    u = np.array([math.cos(a), -math.sin(a)])
    v = np.array([math.sin(a), math.cos(a)])
    h = side_mm / 2.0
    c = np.array([x_mm, y_mm])
    return [tuple(float(t) for t in c + h * (su * u + sv * v)) for su, sv in _SIGNS]  # type: ignore[misc]


_SIGNS = ((-1, -1), (1, -1), (1, 1), (-1, 1))


@dataclass(frozen=True)
class TrayLook:
    """A dice tray: a rectangle to roll into, with two corner tags naming it.

    The rolling area is ``width_mm`` x ``depth_mm`` with its near-left corner at (x, y) and its
    sides along the yaw. Tag ``tag_ids[0]`` lies just outside the near-left corner (its
    inner corner touching it), ``tag_ids[1]`` just outside the far-right corner; both point
    "up" along the tray's depth.
    """

    x_mm: float
    y_mm: float
    width_mm: float = 240.0
    depth_mm: float = 170.0
    yaw_deg: float = 0.0
    surface: str = "felt"
    """"felt" (cloth fibres), "wood" (grain) or "paper" (smooth print)."""
    surface_bgr: BGR = (46, 58, 40)
    tags: bool = True
    tag_ids: tuple[int, int] = (48, 49)
    tag_mm: float = 20.0
    tag_margin_mm: float = 3.0
    wall_mm: float = 0.0
    """Height of a rim around the rolling area (0: a flat sheet)."""
    wall_bgr: BGR = (52, 70, 96)
    wall_thick_mm: float = 8.0
    seed: int = 0
    """Seed of the surface texture."""

    def axes(self) -> tuple[np.ndarray, np.ndarray]:
        """Unit vectors (right, up) of the tray on the table."""
        a = math.radians(self.yaw_deg)
        return np.array([math.cos(a), -math.sin(a)]), np.array([math.sin(a), math.cos(a)])

    def to_world(self, u_mm: float, v_mm: float) -> tuple[float, float]:
        """A point given from the tray's near-left corner (right, up) to world millimetres."""
        r, up = self.axes()
        p = np.array([self.x_mm, self.y_mm]) + u_mm * r + v_mm * up
        return float(p[0]), float(p[1])

    def corners_mm(self) -> list[tuple[float, float]]:
        """The rolling area's corners, world millimetres: near-left, near-right, far-right,
        far-left."""
        w, d = self.width_mm, self.depth_mm
        return [self.to_world(u, v) for u, v in ((0, 0), (w, 0), (w, d), (0, d))]

    def polygon(self) -> Polygon:
        """The rolling area (shapely, world millimetres)."""
        return Polygon(self.corners_mm())


#: Tray looks for tests: light and dark, three textures.
TRAY_SURFACES: dict[str, tuple[str, BGR]] = {
    "dark_felt": ("felt", (46, 58, 40)),
    "black_felt": ("felt", (34, 32, 32)),
    "light_paper": ("paper", (196, 200, 202)),
    "light_wood": ("wood", (150, 186, 212)),
    "dark_wood": ("wood", (44, 66, 98)),
}


@dataclass(frozen=True)
class Lighting:
    """The room's light on the tray."""

    light_mm: tuple[float, float, float] = (150.0, 250.0, 1400.0)
    """Position of the main lamp, world millimetres."""
    ambient: float = 0.5
    """Share of light coming from everywhere (0-1); the rest comes from the lamp."""
    shadow: float = 0.45
    """How dark a die's shadow is on the floor (0-1)."""
    shadow_soft_mm: float = 2.5
    """Blur of the shadow's edge, millimetres."""
    uneven: float = 0.0
    """Amplitude of a slow random brightness change over the view (0: even light)."""
    seed: int = 0


@dataclass(frozen=True)
class DiceScene:
    """A tray with dice on it, lit."""

    tray: TrayLook
    dice: tuple[PlacedDie, ...] = ()
    lighting: Lighting = field(default_factory=Lighting)


def tray_beside_table(
    table_width_mm: float = 609.6,
    *,
    side: str = "right",
    width_mm: float = 200.0,
    depth_mm: float = 150.0,
    y_mm: float = 230.0,
    gap_mm: float = 90.0,
    **look: object,
) -> TrayLook:
    """A tray off the play area, beside it (``side`` "right" or "left"), where a player rolls.

    ``gap_mm`` is the distance from the play area's edge to the tray's near tag.
    """
    tag = float(look.get("tag_mm", 20.0))  # type: ignore[arg-type]
    if side == "right":
        x = table_width_mm + gap_mm + tag
    elif side == "left":
        x = -gap_mm - tag - width_mm
    else:
        raise ValueError(f"side must be 'right' or 'left', not {side!r}")
    return TrayLook(x_mm=x, y_mm=y_mm, width_mm=width_mm, depth_mm=depth_mm, **look)  # type: ignore[arg-type]


def random_roll(
    seed: int,
    tray: TrayLook,
    n: int,
    *,
    looks: tuple[str, ...] = ("white",),
    sizes_mm: tuple[float, ...] = (16.0,),
    touching: float = 0.3,
    tilt_max_deg: float = 2.5,
    cocked: int = 0,
    worn: float = 0.0,
    glare: float = 0.0,
    edge_clearance_mm: float = 3.0,
) -> tuple[PlacedDie, ...]:
    """``n`` dice at random on ``tray`` (seeded): values, yaws, looks and sizes drawn from the
    given choices; about ``touching`` of them pushed against another die; ``cocked`` of them
    tipped 25-40 degrees against a neighbour; worn pips and glare up to the given
    strengths on some dice. Raises ValueError when they do not fit."""
    rng = np.random.default_rng(seed)
    area = tray.polygon().buffer(-edge_clearance_mm)
    placed: list[PlacedDie] = []
    feet: list[Polygon] = []
    attempts = 0
    while len(placed) < n:
        attempts += 1
        if attempts > 200 * (n + 5):
            raise ValueError(f"cannot fit {n} dice in a {tray.width_mm}x{tray.depth_mm} mm tray")
        size = float(rng.choice(sizes_mm))
        die = PlacedDie(
            x_mm=0.0,
            y_mm=0.0,
            value=int(rng.integers(1, 7)),
            size_mm=size,
            look=LOOKS[str(rng.choice(looks))],
            yaw_deg=float(rng.uniform(0.0, 360.0)),
            tilt_deg=float(rng.uniform(0.0, tilt_max_deg)),
            tilt_dir_deg=float(rng.uniform(0.0, 360.0)),
            worn=float(rng.uniform(0.3, 1.0)) * worn if worn > 0 and rng.random() < 0.5 else 0.0,
            glare=float(rng.uniform(0.4, 1.0)) * glare if glare > 0 and rng.random() < 0.3 else 0.0,
            glare_at=(float(rng.uniform(-0.3, 0.3)), float(rng.uniform(-0.3, 0.3))),
        )
        want_cocked = len(placed) >= n - cocked
        if placed and (want_cocked or rng.random() < touching):
            die = _next_to(rng, die, placed[int(rng.integers(0, len(placed)))])
        else:
            x, y = tray.to_world(
                float(rng.uniform(0, tray.width_mm)), float(rng.uniform(0, tray.depth_mm))
            )
            die = replace(die, x_mm=x, y_mm=y)
        if want_cocked:
            die = _cocked(rng, die, placed)
        foot = die.footprint()
        if die.cocked:
            if not area.contains(foot.centroid) or any(
                foot.buffer(-0.3 * die.size_mm).intersects(f) for f in feet
            ):
                continue
        elif not area.contains(foot) or any(
            foot.intersects(f) and foot.intersection(f).area > 0.05 for f in feet
        ):
            continue
        placed.append(die)
        feet.append(foot)
    return tuple(placed)


def _next_to(rng: np.random.Generator, die: PlacedDie, other: PlacedDie) -> PlacedDie:
    """``die`` pushed against a side of ``other`` (nearly the same yaw, slid along the side)."""
    yaw = other.yaw_deg + float(rng.uniform(-6.0, 6.0)) + 90.0 * int(rng.integers(0, 4))
    side = int(rng.integers(0, 4))
    a = math.radians(other.yaw_deg + 90.0 * side)
    normal = np.array([math.sin(a), math.cos(a)])
    along = np.array([normal[1], -normal[0]])
    reach = (die.size_mm + other.size_mm) / 2.0 + float(rng.uniform(0.1, 0.8))
    slide = float(rng.uniform(-0.35, 0.35)) * min(die.size_mm, other.size_mm)
    c = np.array([other.x_mm, other.y_mm]) + reach * normal + slide * along
    return replace(die, x_mm=float(c[0]), y_mm=float(c[1]), yaw_deg=yaw % 360.0)


def _cocked(rng: np.random.Generator, die: PlacedDie, placed: list[PlacedDie]) -> PlacedDie:
    """``die`` tipped 25-40 degrees, leaning on its nearest neighbour."""
    tilt = float(rng.uniform(25.0, 40.0))
    if placed:
        near = min(placed, key=lambda d: math.hypot(d.x_mm - die.x_mm, d.y_mm - die.y_mm))
        toward = math.degrees(math.atan2(near.x_mm - die.x_mm, near.y_mm - die.y_mm))
    else:
        toward = float(rng.uniform(0.0, 360.0))
    # leaning on it: the foot steps back so the tipped body rests against the neighbour's edge
    a = math.radians(toward)
    back = 0.6 * die.size_mm * math.sin(math.radians(tilt))
    x = die.x_mm - back * math.sin(a)
    y = die.y_mm - back * math.cos(a)
    return replace(die, x_mm=x, y_mm=y, tilt_deg=tilt, tilt_dir_deg=toward % 360.0)


def cocked_against_wall(
    tray: TrayLook, die: PlacedDie, wall: str = "top", tilt_deg: float = 25.0
) -> PlacedDie:
    """``die`` leaning on one wall of the tray ("top", "bottom", "left", "right")."""
    r, up = tray.axes()
    u, v = tray.width_mm / 2.0, tray.depth_mm / 2.0
    reach = die.size_mm * 0.55
    if wall == "top":
        v, direction = tray.depth_mm - reach, up
    elif wall == "bottom":
        v, direction = reach, -up
    elif wall == "left":
        u, direction = reach, -r
    elif wall == "right":
        u, direction = tray.width_mm - reach, r
    else:
        raise ValueError(f"wall must be top, bottom, left or right, not {wall!r}")
    x, y = tray.to_world(u, v)
    toward = math.degrees(math.atan2(direction[0], direction[1])) % 360.0
    return replace(die, x_mm=x, y_mm=y, tilt_deg=tilt_deg, tilt_dir_deg=toward, yaw_deg=toward)
