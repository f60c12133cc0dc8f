"""Writing rendered clips: an .mp4 video and its ground-truth JSON (version 1), and reading it back.

Ground truth, version 1::

    {"version": 1, "camera": {...Camera.to_dict()...}, "table": {...}, "fps": 30.0,
     "pieces": [{"name", "kind", "base_diameter_mm", "tags": [{"id", "forward_mm", ...}]}],
     "frames": [{"frame": i, "t": s, "settled": bool,
                 "tags": [{"id", "x_in", "y_in", "heading_deg", "height_mm", "visible",
                           "size_mm", "piece", "covered", "corners_px"}],   # the last four unless compact
                 "pieces": [{"name", "x_in", "y_in", "heading_deg", "on_table", "kind"}],
                 "camera": {...}  # only in frames where the camera moved from the header's
                }]}

A truth path ending in ``.gz`` is written and read gzip-compressed (long clips compress ~10x).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from queue import Full, Queue
from typing import Any, TypeVar

import cv2

from calibration.safe_files import atomic_path, write_atomic
from vision.errors import VisionError
from vision.render.camera import Camera
from vision.render.effects import Effects
from vision.render.frame import FrameTruth, PieceTruth, TagTruth
from vision.render.pipeline import Picture, PictureBuffer
from vision.render.scene import Scene, TableSpec
from vision.render.sequence import Action, Sequence, sequence_pictures
from vision.types import Frame, PieceSpec, TagId, TagMount

TRUTH_VERSION = 1

T = TypeVar("T")


@dataclass(frozen=True)
class ClipTruth:
    """A clip's ground truth as loaded from its JSON file."""

    camera: Camera
    """The camera at the start of the clip."""
    table: TableSpec
    fps: float
    pieces: tuple[PieceSpec, ...]
    frames: tuple[FrameTruth, ...]


def table_to_dict(table: TableSpec) -> dict[str, Any]:
    """A table spec as JSON-ready data."""
    return {
        "width_in": table.width_in,
        "depth_in": table.depth_in,
        "mat": table.mat,
        "seed": table.seed,
        "border_mm": table.border_mm,
        "corner_tags": table.corner_tags,
        "corner_tag_mm": table.corner_tag_mm,
        "corner_margin_mm": table.corner_margin_mm,
    }


def _mount_to_dict(m: TagMount) -> dict[str, Any]:
    return {
        "id": int(m.tag_id),
        "forward_mm": m.forward_mm,
        "right_mm": m.right_mm,
        "size_mm": m.size_mm,
        "rotation_deg": m.rotation_deg,
        "height_mm": m.height_mm,
    }


def pieces_to_list(scene: Scene) -> list[dict[str, Any]]:
    """The piece and terrain specs of a scene (tag mounts, base sizes) as JSON-ready data."""
    out: list[dict[str, Any]] = []
    for ter in scene.terrain:
        out.append(
            {
                "name": ter.name,
                "kind": "terrain",
                "base_diameter_mm": ter.spec.base_diameter_mm,
                "tags": [_mount_to_dict(m) for m in ter.spec.tags],
                "footprint_mm": [list(p) for p in ter.footprint_mm],
                "height_mm": ter.height_mm,
            }
        )
    for p in scene.pieces:
        out.append(
            {
                "name": p.name,
                "kind": "piece",
                "base_diameter_mm": p.spec.base_diameter_mm,
                "tags": [_mount_to_dict(m) for m in p.spec.tags],
            }
        )
    return out


def _r(v: float, nd: int = 4) -> float:
    return round(float(v), nd)


def frame_truth_to_dict(
    truth: FrameTruth, header_camera: Camera | None = None, *, compact: bool = False
) -> dict[str, Any]:
    """One frame's truth as JSON-ready data (the camera only when it differs from the header).

    ``compact`` leaves out each tag's size, piece, covered fraction and pixel corners."""
    d: dict[str, Any] = {
        "frame": truth.frame,
        "t": _r(truth.t, 6),
        "settled": truth.settled,
        "hand_over_table": truth.hand_over_table,
        "tags": [
            {
                "id": t.tag_id,
                "x_in": _r(t.x_in, 5),
                "y_in": _r(t.y_in, 5),
                "heading_deg": _r(t.heading_deg, 3),
                "height_mm": _r(t.height_mm, 3),
                "visible": t.visible,
                **(
                    {}
                    if compact
                    else {
                        "size_mm": t.size_mm,
                        "piece": t.piece,
                        "covered": _r(t.covered_fraction, 3),
                        "corners_px": [[_r(x, 3), _r(y, 3)] for x, y in t.corners_px],
                    }
                ),
            }
            for t in truth.tags
        ],
        "pieces": [
            {
                "name": p.name,
                "x_in": _r(p.x_in, 5),
                "y_in": _r(p.y_in, 5),
                "heading_deg": _r(p.heading_deg, 3),
                "on_table": p.on_table,
                "kind": p.kind,
            }
            for p in truth.pieces
        ],
    }
    if header_camera is not None and truth.camera != header_camera:
        d["camera"] = truth.camera.to_dict()
    return d


def write_clip(
    path_mp4: str | Path,
    path_truth_json: str | Path,
    frames: Iterable[tuple[Frame, FrameTruth]],
    *,
    fps: float,
    scene: Scene,
    camera: Camera,
    fourcc: str = "mp4v",
    compact: bool = False,
) -> int:
    """Write frames to an .mp4 (OpenCV's 'mp4v' by default) and their truth JSON; returns the
    number of frames written. Raises VisionError naming the path when it cannot be written."""
    pictures = ((Picture(frame.image), truth) for frame, truth in frames)
    return write_pictures(
        path_mp4,
        path_truth_json,
        pictures,
        fps=fps,
        scene=scene,
        camera=camera,
        fourcc=fourcc,
        compact=compact,
    )


def write_pictures(
    path_mp4: str | Path,
    path_truth_json: str | Path,
    pictures: Iterable[tuple[Picture, FrameTruth]],
    *,
    fps: float,
    scene: Scene,
    camera: Camera,
    fourcc: str = "mp4v",
    compact: bool = False,
) -> int:
    """Like :func:`write_clip` for the pipeline's pictures (``sequence_pictures``): each is
    painted into one buffer of the writer's, only the regions that change copied; the
    pictures are made on a thread of their own while the encoder writes."""
    path_mp4, path_truth_json = Path(path_mp4), Path(path_truth_json)
    writer: cv2.VideoWriter | None = None
    buffer = PictureBuffer()
    records: list[dict[str, Any]] = []
    with contextlib.ExitStack() as finish:  # on leaving: release, then rename into place
        for picture, truth in prefetched(pictures):
            image = buffer.paint(picture)
            if writer is None:
                h, w = image.shape[:2]
                tmp = finish.enter_context(atomic_path(path_mp4))
                writer = cv2.VideoWriter(str(tmp), cv2.VideoWriter_fourcc(*fourcc), fps, (w, h))
                finish.callback(writer.release)
                if not writer.isOpened():
                    raise VisionError(f"cannot write video {path_mp4} with codec {fourcc!r}")
            writer.write(image)
            records.append(frame_truth_to_dict(truth, camera, compact=compact))
    doc = {
        "version": TRUTH_VERSION,
        "camera": camera.to_dict(),
        "table": table_to_dict(scene.table),
        "fps": float(fps),
        "pieces": pieces_to_list(scene),
        "frames": records,
    }
    try:
        _write_text(path_truth_json, json.dumps(doc, separators=(",", ":")))
    except OSError as exc:
        raise VisionError(f"cannot write ground truth {path_truth_json}: {exc}") from exc
    return len(records)


_DONE = object()


def prefetched(items: Iterable[T], depth: int = 3) -> Iterator[T]:
    """``items`` made on a thread of their own, up to ``depth`` ahead of the consumer: frames
    are drawn while the video encoder (which lets other threads run) writes the ones before,
    so a clip's render keeps two cores busy. An error while making them is raised here."""
    queue: Queue[object] = Queue(maxsize=depth)
    stop = threading.Event()

    def put(item: object) -> bool:
        while not stop.is_set():
            try:
                queue.put(item, timeout=0.1)
                return True
            except Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put(item):
                    return
            put(_DONE)
        except BaseException as exc:  # handed to the consumer, raised there
            put(_Failed(exc))

    worker = threading.Thread(target=produce, name="render-frames", daemon=True)
    worker.start()
    try:
        while True:
            got = queue.get()
            if got is _DONE:
                return
            if isinstance(got, _Failed):
                raise got.error
            yield got  # type: ignore[misc]
    finally:
        stop.set()
        worker.join(timeout=5.0)


@dataclass(frozen=True)
class _Failed:
    error: BaseException


def render_clip(
    path_mp4: str | Path,
    path_truth_json: str | Path,
    scene: Scene,
    camera: Camera,
    script: Iterable[Action],
    fps: float = 30.0,
    *,
    effects: Effects | None = None,
    seed: int = 0,
    compact: bool = False,
) -> int:
    """Render a script and write its video and ground truth; returns the frame count."""
    seq = Sequence(scene, camera, script)
    pictures = sequence_pictures(scene, camera, seq, fps, effects=effects, seed=seed)
    return write_pictures(
        path_mp4,
        path_truth_json,
        ((picture, truth) for _, _, picture, truth in pictures),
        fps=fps,
        scene=scene,
        camera=camera,
        compact=compact,
    )


def load_truth(path: str | Path) -> ClipTruth:
    """Read a clip's ground-truth JSON (any known version)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
        if path.suffix == ".gz":
            raw = gzip.decompress(raw)
        doc = json.loads(raw.decode("utf-8"))
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise VisionError(f"cannot read ground truth {path}: {exc}") from exc
    version = doc.get("version") if isinstance(doc, dict) else None
    loaders = {1: _load_v1}
    if version not in loaders:
        raise VisionError(f"{path}: unknown ground-truth version {version!r}; known: 1")
    try:
        return loaders[version](doc)
    except (KeyError, TypeError, ValueError) as exc:
        raise VisionError(f"{path}: malformed ground truth (version 1): {exc}") from exc


def _write_text(path: Path, text: str) -> None:
    data = text.encode("utf-8")
    write_atomic(path, gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)


def _load_v1(doc: dict[str, Any]) -> ClipTruth:
    camera = Camera.from_dict(doc["camera"])
    table = TableSpec(**doc["table"])
    specs = tuple(
        PieceSpec(
            name=p["name"],
            tags=tuple(
                TagMount(
                    TagId(int(m["id"])),
                    m["forward_mm"],
                    m["right_mm"],
                    m["size_mm"],
                    m["rotation_deg"],
                    m["height_mm"],
                )
                for m in p["tags"]
            ),
            base_diameter_mm=p["base_diameter_mm"],
        )
        for p in doc["pieces"]
    )
    frames = []
    for f in doc["frames"]:
        cam = Camera.from_dict(f["camera"]) if "camera" in f else camera
        tags = tuple(
            TagTruth(
                tag_id=int(t["id"]),
                piece=t.get("piece"),
                x_in=t["x_in"],
                y_in=t["y_in"],
                heading_deg=t["heading_deg"],
                height_mm=t["height_mm"],
                size_mm=t.get("size_mm", 0.0),
                corners_px=tuple((float(x), float(y)) for x, y in t.get("corners_px", [])),
                visible=bool(t["visible"]),
                covered_fraction=t.get("covered", 0.0),
            )
            for t in f["tags"]
        )
        pieces = tuple(
            PieceTruth(
                p["name"], p["x_in"], p["y_in"], p["heading_deg"], bool(p["on_table"]), p["kind"]
            )
            for p in f["pieces"]
        )
        frames.append(
            FrameTruth(
                int(f["frame"]),
                float(f["t"]),
                bool(f["settled"]),
                tags,
                pieces,
                cam,
                hand_over_table=bool(f.get("hand_over_table", False)),
            )
        )
    return ClipTruth(camera, table, float(doc["fps"]), specs, tuple(frames))
