"""Generated terrain (``engine.generators.terrain``) as JSON and as scenario [[terrain]] entries.

Tags: the kit prints eight terrain tags (ids 8 to 15, ``calibration.kit_ids.TERRAIN_IDS``), so
at most the first eight pieces of a layout get one, in layout order (rivers and roads, then
large pieces, then small ones); the others carry none and the camera does not check them. A
tag sits at the centroid of its piece (``forward_mm = 0``), on top of the model.
"""

from __future__ import annotations

import json
from typing import Any

from calibration.kit_ids import TERRAIN_IDS
from engine.generators.terrain import TerrainLayout, TerrainPiece

MM_PER_IN = 25.4

TAG_MIN_MM = 20.0
TAG_MAX_MM = 30.0
"""Generated terrain tags are 20 to 30 mm (the kit prints terrain tags of 10 to 40 mm): a 10 mm
tag is 17 px on a 1080p camera over a 2 ft table and often missed, which would keep the set-up
check waiting for it; 20 mm (34 px) is read. On a narrow piece (a low wall) it overhangs onto
a card."""

FLAT_TAG_HEIGHT_MM = 3.0
"""A tag on a flat piece (pool, river, road, pit) or on the base of a wood stands this high."""


def piece_tags(layout: TerrainLayout, with_tags: bool = True) -> dict[str, int]:
    """Piece id -> kit terrain tag id, for the first eight pieces (none when not ``with_tags``)."""
    if not with_tags:
        return {}
    return {p.id: tag for p, tag in zip(layout.pieces, TERRAIN_IDS, strict=False)}


def tag_size_mm(piece: TerrainPiece) -> float:
    """A tag side that fits the piece's narrow side: 4/5 of it, in 5 mm steps, 10 to 30 mm."""
    size = (0.8 * piece.short_in * MM_PER_IN) // 5 * 5
    return min(TAG_MAX_MM, max(TAG_MIN_MM, size))


def tag_height_mm(piece: TerrainPiece) -> float:
    """Where the tag stands: on top of a solid piece, on the base of a wood or a flat piece."""
    if piece.type.kind == "woods" or piece.type.height_in <= 0:
        return FLAT_TAG_HEIGHT_MM
    return round(piece.type.height_in * MM_PER_IN, 1)


def piece_json(piece: TerrainPiece, tag: int | None) -> dict[str, Any]:
    """One entry of ``generate terrain --json``'s ``pieces`` list."""
    kind = piece.type
    rolled = piece.rolled
    return {
        "id": piece.id,
        "name": piece.name,
        "size": rolled.size.value,
        "type": kind.id,
        "section": [rolled.section.col, rolled.section.row],
        "x": piece.x,
        "y": piece.y,
        "heading": round(piece.heading_deg, 3),
        "long_in": piece.long_in,
        "short_in": piece.short_in,
        "polygon": [[x, y] for x, y in piece.polygon],
        "roll": sum(rolled.dice_2d6),
        "scatter": rolled.scatter,
        "distance_in": rolled.distance_in,
        "moved_in": piece.moved_in,
        "scale": piece.scale,
        "kind": kind.kind,
        "blocks_los": kind.blocks_los,
        "impassable": kind.impassable,
        "difficult": kind.difficult,
        "cover": kind.cover,
        "dangerous": kind.dangerous,
        "height_levels": kind.height_levels,
        "destructible": kind.destructible,
        "is_objective": kind.is_objective,
        "height_in": kind.height_in,
        "tag": tag,
    }


def layout_json(layout: TerrainLayout, with_tags: bool = True) -> dict[str, Any]:
    """``{"pieces": [...]}``, the whole of ``generate terrain --json``."""
    tags = piece_tags(layout, with_tags)
    return {"pieces": [piece_json(p, tags.get(p.id)) for p in layout.pieces]}


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}" if value == int(value) and abs(value) < 1e15 else repr(value)
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)  # a TOML basic string


def terrain_toml(layout: TerrainLayout, header: str = "", with_tags: bool = True) -> str:
    """The layout as scenario ``[[terrain]]`` entries (engine.scenario.TerrainSpec fields),
    ready to paste into or append to a scenario file; ``header`` becomes leading comments."""
    tags = piece_tags(layout, with_tags)
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    for piece in layout.pieces:
        kind = piece.type
        polygon = ", ".join(f"[{_toml_value(x)}, {_toml_value(y)}]" for x, y in piece.polygon)
        fields: list[tuple[str, object]] = [
            ("id", piece.id),
            ("name", piece.name),
            ("kind", kind.kind),
        ]
        lines += ["", "[[terrain]]"] + [f"{k} = {_toml_value(v)}" for k, v in fields]
        lines.append(f"polygon = [{polygon}]")
        for key, value in (
            ("blocks_los", kind.blocks_los),
            ("impassable", kind.impassable),
            ("difficult", kind.difficult),
            ("cover", kind.cover),
            ("dangerous", kind.dangerous),
            ("height_in", kind.height_in),
        ):
            lines.append(f"{key} = {_toml_value(value)}")
        if piece.id in tags:
            tag = (
                f"{{ id = {tags[piece.id]}, forward_mm = 0, "
                f"size_mm = {_toml_value(tag_size_mm(piece))}, "
                f"height_mm = {_toml_value(tag_height_mm(piece))} }}"
            )
            lines.append(f"tags = [{tag}]")
    return "\n".join(lines) + "\n"
