"""What stands on the virtual table: the mat, corner tags, terrain pieces and based miniatures.

Poses are in table inches and degrees (heading clockwise from +y, as in the engine); shapes and
tag offsets are in millimetres. A piece's own frame: ``forward`` along its heading, ``right`` to
its right; with heading 0, right is +x and forward is +y.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from vision.render.camera import MM_PER_INCH
from vision.render.dice import TrayLook
from vision.render.grid_board import PrintedGrid
from vision.types import PieceSpec, TagId, TagMount

CORNER_TAG_IDS: tuple[int, int, int, int] = (0, 1, 2, 3)
"""Corner tag ids at (0, 0), (W, 0), (W, D), (0, D) of the play area."""

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class TableSpec:
    """The table: play area size in inches, its mat look and the corner tags."""

    width_in: float = 24.0
    depth_in: float = 24.0
    mat: str = "grass"
    """Mat look: "grass", "felt" or "desert"."""
    seed: int = 0
    """Seed of the procedural mat texture."""
    border_mm: float = 90.0
    """Plain table top around the play area (where the corner tags lie), millimetres."""
    corner_tags: bool = True
    corner_tag_mm: float = 40.0
    """Side of each corner tag's black square, millimetres."""
    corner_margin_mm: float = 5.0
    """White paper margin around each corner tag, millimetres."""
    board: PrintedGrid | None = None
    """A printed grid board laid on the play area (a square-grid game), or None."""

    @property
    def width_mm(self) -> float:
        """Play area width in millimetres."""
        return self.width_in * MM_PER_INCH

    @property
    def depth_mm(self) -> float:
        """Play area depth in millimetres."""
        return self.depth_in * MM_PER_INCH


@dataclass(frozen=True)
class Figure:
    """The miniature standing on a base: an elliptical body, millimetres, in the piece frame."""

    height_mm: float = 30.0
    width_mm: float = 15.0
    """Shoulder width, side to side."""
    depth_mm: float = 10.0
    """Front to back."""
    forward_mm: float = -6.5
    """Where it stands along the piece's facing from the base centre (negative: the rear)."""
    color_bgr: BGR = (60, 80, 150)


@dataclass(frozen=True)
class PlacedPiece:
    """A based miniature at a pose on the table."""

    spec: PieceSpec
    x_in: float
    y_in: float
    heading_deg: float = 0.0
    figure: Figure | None = field(default_factory=Figure)
    base_height_mm: float = 3.0
    base_color_bgr: BGR = (38, 52, 40)

    @property
    def name(self) -> str:
        """The piece's name (from its spec)."""
        return self.spec.name


@dataclass(frozen=True)
class Terrain:
    """A terrain piece: a prism over a footprint polygon, carrying tags on top.

    ``footprint_mm`` lists (right_mm, forward_mm) vertices relative to the reference point in the
    piece frame (with heading 0 that is (x, y) in table millimetres). Tags are given by the
    spec's mounts at their own ``height_mm`` (usually the prism's height).
    """

    spec: PieceSpec
    x_in: float
    y_in: float
    heading_deg: float
    footprint_mm: tuple[tuple[float, float], ...]
    height_mm: float = 40.0
    color_bgr: BGR = (70, 95, 110)

    @property
    def name(self) -> str:
        """The terrain piece's name (from its spec)."""
        return self.spec.name


@dataclass(frozen=True)
class Scene:
    """The whole table: the table spec, terrain and pieces (with their current poses)."""

    table: TableSpec = field(default_factory=TableSpec)
    pieces: tuple[PlacedPiece, ...] = ()
    terrain: tuple[Terrain, ...] = ()
    tray: TrayLook | None = None
    """A dice tray beside the table (drawn by ``render_sequence`` with its dice), or none."""

    def piece(self, name: str) -> PlacedPiece:
        """The piece called ``name``; ``KeyError`` naming it when absent."""
        for p in self.pieces:
            if p.name == name:
                return p
        raise KeyError(f"no piece named {name!r} in the scene")

    def with_piece_at(self, name: str, x_in: float, y_in: float, heading_deg: float) -> Scene:
        """The scene with piece ``name`` moved to (x_in, y_in) facing ``heading_deg``."""
        self.piece(name)
        moved = tuple(
            replace(p, x_in=x_in, y_in=y_in, heading_deg=heading_deg % 360.0)
            if p.name == name
            else p
            for p in self.pieces
        )
        return replace(self, pieces=moved)

    def without_piece(self, name: str) -> Scene:
        """The scene with piece ``name`` taken off the table."""
        self.piece(name)
        return replace(self, pieces=tuple(p for p in self.pieces if p.name != name))

    def tag_ids(self) -> list[int]:
        """Every tag id on the table (corner tags included when present)."""
        ids = list(CORNER_TAG_IDS) if self.table.corner_tags else []
        items: list[PlacedPiece | Terrain] = [*self.terrain, *self.pieces]
        for item in items:
            ids.extend(int(m.tag_id) for m in item.spec.tags)
        return ids


def piece_axes(heading_deg: float) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Unit (forward, right) vectors on the table for a heading clockwise from +y."""
    h = math.radians(heading_deg)
    return np.array([math.sin(h), math.cos(h)]), np.array([math.cos(h), -math.sin(h)])


def local_to_table_mm(
    x_in: float, y_in: float, heading_deg: float, forward_mm: float, right_mm: float
) -> npt.NDArray[np.float64]:
    """A point given in a piece frame to table millimetres (x, y)."""
    fwd, right = piece_axes(heading_deg)
    origin = np.array([x_in * MM_PER_INCH, y_in * MM_PER_INCH])
    return origin + forward_mm * fwd + right_mm * right


@dataclass(frozen=True)
class PlacedTag:
    """A tag at its true place: centre in table millimetres, heading, height and size."""

    tag_id: int
    piece: str | None
    """Owning piece or terrain name; None for corner tags."""
    x_mm: float
    y_mm: float
    heading_deg: float
    height_mm: float
    size_mm: float
    margin_mm: float

    def corners_mm(self, grow_mm: float = 0.0) -> npt.NDArray[np.float64]:
        """The four 3D corners (4, 3) of the black square (grown by ``grow_mm`` on each side),
        in OpenCV's order: top-left, top-right, bottom-right, bottom-left as printed."""
        up, right = piece_axes(self.heading_deg)
        s = self.size_mm / 2.0 + grow_mm
        c = np.array([self.x_mm, self.y_mm])
        pts = [c - right * s + up * s, c + right * s + up * s, c + right * s - up * s]
        pts.append(c - right * s - up * s)
        return np.array([[p[0], p[1], self.height_mm] for p in pts])


def place_mount(item: PlacedPiece | Terrain, mount: TagMount, margin_mm: float = 1.0) -> PlacedTag:
    """Where ``mount`` of ``item`` lies on the table."""
    c = local_to_table_mm(item.x_in, item.y_in, item.heading_deg, mount.forward_mm, mount.right_mm)
    return PlacedTag(
        tag_id=int(mount.tag_id),
        piece=item.name,
        x_mm=float(c[0]),
        y_mm=float(c[1]),
        heading_deg=(item.heading_deg + mount.rotation_deg) % 360.0,
        height_mm=mount.height_mm,
        size_mm=mount.size_mm,
        margin_mm=margin_mm,
    )


def corner_tags(table: TableSpec) -> list[PlacedTag]:
    """The four corner tags, inner corner of each black square on a play-area corner, up = +y."""
    if not table.corner_tags:
        return []
    h = table.corner_tag_mm / 2.0
    w, d = table.width_mm, table.depth_mm
    centres = [(-h, -h), (w + h, -h), (w + h, d + h), (-h, d + h)]
    return [
        PlacedTag(tid, None, cx, cy, 0.0, 0.0, table.corner_tag_mm, table.corner_margin_mm)
        for tid, (cx, cy) in zip(CORNER_TAG_IDS, centres, strict=True)
    ]


def scene_tags(scene: Scene) -> list[PlacedTag]:
    """Every tag of the scene at its true place: corners, terrain, then pieces."""
    tags = corner_tags(scene.table)
    items: list[PlacedPiece | Terrain] = [*scene.terrain, *scene.pieces]
    for item in items:
        tags.extend(place_mount(item, m) for m in item.spec.tags)
    return tags


def front_tag(tag_id: int, size_mm: float = 10.0, forward_mm: float = 5.0) -> TagMount:
    """A base tag ahead of the base centre, tag up = the piece's front (DESIGN §1)."""
    return TagMount(tag_id=TagId(tag_id), forward_mm=forward_mm, size_mm=size_mm)


def front_rear_tags(
    front_id: int, rear_id: int, size_mm: float = 10.0, base_diameter_mm: float = 25.0
) -> tuple[TagMount, TagMount]:
    """A front tag and a rear tag at the base rim, 0.5 mm in from the edge plus the 1 mm margin.

    The figure then stands between them at the base centre (``Figure(forward_mm=0)``); on a
    32 mm base two 10 mm tags leave 7 mm for its feet. The rear tag is turned 180 degrees.
    """
    reach = base_diameter_mm / 2.0 - size_mm / 2.0 - 1.5
    return (
        TagMount(tag_id=TagId(front_id), forward_mm=reach, size_mm=size_mm),
        TagMount(tag_id=TagId(rear_id), forward_mm=-reach, size_mm=size_mm, rotation_deg=180.0),
    )


def random_scene(
    seed: int,
    *,
    table: TableSpec | None = None,
    n_pieces: int = 24,
    base_diameter_mm: float = 25.0,
    tag_size_mm: float = 10.0,
    layout: str = "front",
    first_id: int = 4,
    figure: Figure | None = None,
    edge_clearance_mm: float = 20.0,
) -> Scene:
    """A seeded scene of ``n_pieces`` round bases at random, non-overlapping poses.

    ``layout`` is "front" (one tag ahead of the base centre, the figure on the rear half),
    "front_rear" (tags at the front and rear rims, the figure between them; see
    :func:`front_rear_tags`) or "none". ``figure`` overrides the figure (and where it stands). Ids run from ``first_id``; "front_rear" gives a
    piece ids ``first_id + 2k`` (front) and ``first_id + 2k + 1`` (rear).
    """
    if layout not in ("front", "front_rear", "none"):
        raise ValueError(f"unknown tag layout {layout!r}; expected front, front_rear or none")
    table = table or TableSpec(seed=seed)
    rng = np.random.default_rng(seed)
    radius = base_diameter_mm / 2.0
    # The front tag as far forward as its 1 mm margin allows (5.5 mm on a 25 mm base with a
    # 10 mm tag); the figure on the rear half, or between the tags of a front-and-rear pair.
    tag_forward = max(radius - tag_size_mm / 2.0 - 2.0, 0.0)
    if figure is None:
        rear = -(radius - Figure().depth_mm / 2.0 - 1.5)
        fig = Figure(forward_mm=0.0 if layout == "front_rear" else rear)
    else:
        fig = figure
    lo = radius + edge_clearance_mm
    placed: list[tuple[float, float]] = []
    pieces: list[PlacedPiece] = []
    attempts = 0
    while len(pieces) < n_pieces:
        attempts += 1
        if attempts > 20000:
            raise ValueError(f"cannot fit {n_pieces} bases of {base_diameter_mm} mm on the table")
        x = rng.uniform(lo, table.width_mm - lo)
        y = rng.uniform(lo, table.depth_mm - lo)
        if any(math.hypot(x - px, y - py) < 2 * radius + 3.0 for px, py in placed):
            continue
        k = len(pieces)
        heading = float(rng.uniform(0.0, 360.0))
        if layout == "front":
            mounts: tuple[TagMount, ...] = (
                front_tag(first_id + k, tag_size_mm, forward_mm=tag_forward),
            )
        elif layout == "front_rear":
            mounts = front_rear_tags(
                first_id + 2 * k, first_id + 2 * k + 1, tag_size_mm, base_diameter_mm
            )
        else:
            mounts = ()
        hue = rng.integers(40, 200, size=3)
        pieces.append(
            PlacedPiece(
                spec=PieceSpec(name=f"p{k:02d}", tags=mounts, base_diameter_mm=base_diameter_mm),
                x_in=x / MM_PER_INCH,
                y_in=y / MM_PER_INCH,
                heading_deg=heading,
                figure=replace(fig, color_bgr=(int(hue[0]), int(hue[1]), int(hue[2]))),
            )
        )
        placed.append((x, y))
    return Scene(table=table, pieces=tuple(pieces))
