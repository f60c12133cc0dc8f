"""Scene files for ``soloscope render``: a table, a camera, pieces, terrain and a script (JSON or TOML).

Example (TOML)::

    [table]                       # TableSpec fields; all optional
    width_in = 24
    depth_in = 24
    mat = "grass"                 # grass | felt | desert

    [camera]                      # Camera.overhead() arguments; all optional
    resolution = "1080p"          # 720p | 1080p | 4k
    height_mm = 800
    tilt_deg = 1.0
    dist = [-0.06, 0.02, 0, 0, 0]

    [effects]                     # Effects fields; all optional ("clean = true" for none)
    noise_sigma = 2.0

    [random]                      # random_scene() arguments: pieces at random poses
    seed = 3
    n_pieces = 12

    [[pieces]]                    # or pieces one by one
    name = "orc-1"
    x_in = 5.0
    y_in = 6.0
    heading_deg = 90
    base_diameter_mm = 25
    figure_height_mm = 30         # 0 for no figure; also figure_width_mm (15),
    figure_forward_mm = -6.5      # figure_depth_mm (10) and where it stands
    tags = [{id = 4, forward_mm = 5.5, size_mm = 10}]

    [[terrain]]
    name = "tower"
    x_in = 18.0
    y_in = 18.0
    footprint_mm = [[-30, -30], [30, -30], [30, 30], [-30, 30]]
    height_mm = 50
    tags = [{id = 40, forward_mm = 0, size_mm = 25, height_mm = 50}]

    [[script]]                    # optional: a clip instead of a still
    action = "move"               # move | remove | wait | hand_to | hover | lift | carry |
    piece = "orc-1"               # place | hand_leave | fallen | nudge_camera
    x_in = 8.0
    y_in = 9.0
    heading_deg = 0
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from vision.errors import VisionError
from vision.render.camera import WEBCAM_DISTORTION, Camera
from vision.render.effects import Effects
from vision.render.scene import Figure, PlacedPiece, Scene, TableSpec, Terrain, random_scene
from vision.render.sequence import (
    Action,
    Carry,
    HandLeave,
    HandTo,
    Hover,
    Lift,
    NudgeCamera,
    PieceMove,
    PieceRemoval,
    Place,
    Remove,
    Wait,
    moves_script,
)
from vision.types import PieceSpec, TagId, TagMount


@dataclass(frozen=True)
class SceneFile:
    """What a scene file describes."""

    scene: Scene
    camera: Camera
    effects: Effects
    script: tuple[Action, ...]
    """Empty for a still."""


_ACTIONS: dict[str, type] = {
    "wait": Wait,
    "hand_to": HandTo,
    "hover": Hover,
    "lift": Lift,
    "carry": Carry,
    "place": Place,
    "hand_leave": HandLeave,
    "fallen": Remove,
    "nudge_camera": NudgeCamera,
}


def load_scene_file(path: str | Path) -> SceneFile:
    """Read a scene file (.json or .toml); VisionError naming the file and field when bad."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise VisionError(f"cannot read scene file {path}: {exc.strerror or exc}") from exc
    try:
        data = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise VisionError(
            f"scene file {path} is not valid {path.suffix[1:].upper()}: {exc}"
        ) from exc
    if not isinstance(data, dict):
        raise VisionError(f"scene file {path}: expected a table of sections at the top level")
    try:
        return _parse(data)
    except _FieldError as exc:
        raise VisionError(f"scene file {path}: {exc}") from exc


class _FieldError(Exception):
    pass


def _kwargs(section: str, data: Any, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _FieldError(f"[{section}] must be a table of fields")
    unknown = set(data) - allowed
    if unknown:
        raise _FieldError(
            f"[{section}] has unknown field(s) {sorted(unknown)}; allowed: {sorted(allowed)}"
        )
    return {k: tuple(map(_tuple, v)) if isinstance(v, list) else v for k, v in data.items()}


def _tuple(v: Any) -> Any:
    return tuple(_tuple(x) for x in v) if isinstance(v, list) else v


def _names(cls: type) -> set[str]:
    return {f.name for f in fields(cls)}


def _mounts(where: str, raw: Any) -> tuple[TagMount, ...]:
    if not isinstance(raw, list):
        raise _FieldError(f"{where}.tags must be a list of tag tables")
    out = []
    for i, m in enumerate(raw):
        kw = _kwargs(f"{where}.tags[{i}]", m, _names(TagMount) - {"tag_id"} | {"id"})
        if "id" not in kw:
            raise _FieldError(f"{where}.tags[{i}] needs an id")
        tag_id = TagId(int(kw.pop("id")))
        out.append(TagMount(tag_id=tag_id, **kw))
    return tuple(out)


def _parse(data: dict[str, Any]) -> SceneFile:
    known = {"table", "camera", "effects", "random", "pieces", "terrain", "script"}
    if set(data) - known:
        raise _FieldError(
            f"unknown section(s) {sorted(set(data) - known)}; allowed: {sorted(known)}"
        )
    table = TableSpec(**_kwargs("table", data.get("table", {}), _names(TableSpec)))
    cam_kw = _kwargs(
        "camera",
        data.get("camera", {}),
        {"resolution", "height_mm", "vfov_deg", "tilt_deg", "yaw_deg", "roll_deg", "dist"},
    )
    cam_kw.setdefault("dist", WEBCAM_DISTORTION)
    try:
        camera = Camera.overhead(
            table_width_in=table.width_in, table_depth_in=table.depth_in, **cam_kw
        )
    except (TypeError, ValueError) as exc:
        raise _FieldError(f"[camera]: {exc}") from exc
    eff_kw = _kwargs("effects", data.get("effects", {}), _names(Effects) | {"clean"})
    effects = Effects.clean() if eff_kw.pop("clean", False) else Effects(**eff_kw)

    pieces: list[PlacedPiece] = []
    if "random" in data:
        allowed = {"seed", "n_pieces", "base_diameter_mm", "tag_size_mm", "layout", "first_id"}
        rnd = _kwargs("random", data["random"], allowed)
        try:
            pieces.extend(random_scene(table=table, **{"seed": 0, **rnd}).pieces)
        except (TypeError, ValueError) as exc:
            raise _FieldError(f"[random]: {exc}") from exc
    for i, raw in enumerate(data.get("pieces", [])):
        where = f"pieces[{i}]"
        allowed = {"name", "x_in", "y_in", "heading_deg", "base_diameter_mm", "tags"}
        figure_fields = {"figure_height_mm", "figure_forward_mm", "figure_depth_mm"}
        kw = _kwargs(where, raw, allowed | figure_fields | {"figure_width_mm"})
        try:
            fig_h = float(kw.pop("figure_height_mm", 30.0))
            fig_fwd = float(kw.pop("figure_forward_mm", -6.5))
            fig_w = float(kw.pop("figure_width_mm", 15.0))
            fig_d = float(kw.pop("figure_depth_mm", 10.0))
            spec = PieceSpec(
                name=str(kw["name"]),
                tags=_mounts(where, raw.get("tags", [])),
                base_diameter_mm=float(kw.get("base_diameter_mm", 25.0)),
            )
            pieces.append(
                PlacedPiece(
                    spec=spec,
                    x_in=float(kw["x_in"]),
                    y_in=float(kw["y_in"]),
                    heading_deg=float(kw.get("heading_deg", 0.0)),
                    figure=Figure(fig_h, fig_w, fig_d, fig_fwd) if fig_h > 0 else None,
                )
            )
        except KeyError as exc:
            raise _FieldError(f"{where} needs {exc}") from exc
    terrain: list[Terrain] = []
    for i, raw in enumerate(data.get("terrain", [])):
        where = f"terrain[{i}]"
        allowed = {"name", "x_in", "y_in", "heading_deg", "footprint_mm", "height_mm", "tags"}
        kw = _kwargs(where, raw, allowed | {"color_bgr"})
        try:
            terrain.append(
                Terrain(
                    spec=PieceSpec(str(kw["name"]), _mounts(where, raw.get("tags", [])), 0.0),
                    x_in=float(kw["x_in"]),
                    y_in=float(kw["y_in"]),
                    heading_deg=float(kw.get("heading_deg", 0.0)),
                    footprint_mm=tuple(tuple(map(float, p)) for p in kw["footprint_mm"]),  # type: ignore[misc]
                    height_mm=float(kw.get("height_mm", 40.0)),
                    color_bgr=tuple(kw.get("color_bgr", (70, 95, 110))),
                )
            )
        except KeyError as exc:
            raise _FieldError(f"{where} needs {exc}") from exc
    names = [p.name for p in pieces] + [t.name for t in terrain]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise _FieldError(f"duplicate piece name(s) {dupes}")
    scene = Scene(table=table, pieces=tuple(pieces), terrain=tuple(terrain))
    return SceneFile(scene, camera, effects, _script(data.get("script", [])))


def _script(raw: Any) -> tuple[Action, ...]:
    if not isinstance(raw, list):
        raise _FieldError("[[script]] must be a list of actions")
    out: list[Action] = []
    for i, step in enumerate(raw):
        if not isinstance(step, dict) or "action" not in step:
            raise _FieldError(f"script[{i}] needs an action field")
        step = dict(step)
        name = step.pop("action")
        if name in ("move", "remove"):
            cls: type = PieceMove if name == "move" else PieceRemoval
            kw = _kwargs(f"script[{i}] ({name})", step, _names(cls) | {"settle_s"})
            settle = float(kw.pop("settle_s", 1.0))
            try:
                out.extend(moves_script([cls(**kw)], settle_s=settle, start_s=0.0)[1:])
            except TypeError as exc:
                raise _FieldError(f"script[{i}] ({name}): {exc}") from exc
            continue
        if name not in _ACTIONS:
            allowed = sorted([*_ACTIONS, "move", "remove"])
            raise _FieldError(f"script[{i}]: unknown action {name!r}; allowed: {allowed}")
        cls = _ACTIONS[name]
        kw = _kwargs(f"script[{i}] ({name})", step, _names(cls))
        try:
            out.append(cls(**kw))
        except TypeError as exc:
            raise _FieldError(f"script[{i}] ({name}): {exc}") from exc
    return tuple(out)
