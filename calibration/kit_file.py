"""The kit file: which size each printed tag was given and where it sits on its piece, saved
beside the kit's PDF as versioned JSON with one loader per version.

Tag size is a property of the player's camera, not of the rules: ``soloscope markers`` sizes
every tag for a camera and writes this file; ``calibrate``, ``play``, ``track`` and ``replay``
read it (``--kit FILE``, or the kit a profile names). Version 1 layout::

    {"version": 1, "created": ISO time, "scenario": NAME or "",
     "camera": {"kind": "1080p" | "4k" | "720p" | "profile" | "manual" | "scenario",
                "words": "a 1080p webcam 0.80 m above the table", "px_per_mm": 1.39,
                "height_mm": 804, "profile": PATH (kind "profile" only)},
     "tags": [{"id", "piece", "name", "kind": "base" | "terrain", "base_mm", "size_mm",
               "forward_mm", "right_mm", "rotation_deg", "height_mm", "px_min",
               "status": "reliable" | "short" | "unknown"}]}

Millimetres for sizes and offsets (in the piece's own frame: forward along its facing, right
to its right); ``px_min`` is the tag's side in pixels at the worst place on the table for the
camera it was sized for (0 when no camera was measured).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from calibration.errors import CalibrationError
from calibration.safe_files import write_atomic

KIT_VERSION = 1
KIT_SUFFIX = ".kit.json"
"""A kit file's name ends so: ``kit.pdf`` gets ``kit.kit.json`` beside it."""

TagKind = Literal["base", "terrain"]
TagStatus = Literal["reliable", "short", "unknown"]
"""reliable: the tag spans the reliable side everywhere; short: it is read, but some
sightings will be missed; unknown: sized with no camera in mind (a scenario's default kit or
a size given by hand)."""


@dataclass(frozen=True)
class KitTag:
    """One printed tag: its id, what carries it, its size and place on that piece."""

    tag_id: int
    piece: str
    """The scenario id of the unit or terrain piece carrying it ("" in a kit with no scenario)."""
    name: str
    """The piece's name, for people."""
    kind: TagKind
    size_mm: float
    """Side of the black square, millimetres (printed with a 1 mm white margin)."""
    forward_mm: float = 0.0
    right_mm: float = 0.0
    rotation_deg: float = 0.0
    height_mm: float = 3.0
    """Height of the tag's plane above the table, millimetres."""
    base_mm: float = 0.0
    """Diameter of the base it is on, millimetres (0 for terrain)."""
    px_min: float = 0.0
    """Its side in pixels at the worst place on the table for the camera it was sized for."""
    status: TagStatus = "unknown"

    def to_dict(self) -> dict[str, Any]:
        """The tag's JSON object."""
        return {
            "id": self.tag_id,
            "piece": self.piece,
            "name": self.name,
            "kind": self.kind,
            "base_mm": self.base_mm,
            "size_mm": self.size_mm,
            "forward_mm": self.forward_mm,
            "right_mm": self.right_mm,
            "rotation_deg": self.rotation_deg,
            "height_mm": self.height_mm,
            "px_min": self.px_min,
            "status": self.status,
        }


@dataclass(frozen=True)
class KitCamera:
    """The camera a kit was sized for."""

    kind: str
    """"1080p", "4k", "720p" (a nominal webcam), "profile" (a calibrated one), "manual" (a size
    given by hand) or "scenario" (the scenario's own sizes)."""
    words: str = ""
    """For people: "a 1080p webcam 0.80 m above the table"."""
    px_per_mm: float = 0.0
    """The smallest scale a base-top tag gets on the table, pixels per millimetre (0: none
    measured)."""
    profile: str = ""
    """The profile it was measured from (kind "profile")."""
    height_mm: float = 0.0
    """The camera's height above the table, millimetres (0: none)."""

    def to_dict(self) -> dict[str, Any]:
        """The camera's JSON object."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "words": self.words,
            "px_per_mm": self.px_per_mm,
            "height_mm": self.height_mm,
        }
        if self.profile:
            out["profile"] = self.profile
        return out


@dataclass(frozen=True)
class Kit:
    """Every printed tag's size and place, and the camera they were chosen for."""

    tags: tuple[KitTag, ...]
    camera: KitCamera
    scenario: str = ""
    """The scenario the kit was made for ("" for a kit of plain base tags)."""
    created: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    def tag(self, tag_id: int) -> KitTag | None:
        """The kit's tag of that id, or None."""
        for t in self.tags:
            if t.tag_id == tag_id:
                return t
        return None

    @property
    def ids(self) -> tuple[int, ...]:
        """The kit's tag ids, in the kit's order."""
        return tuple(t.tag_id for t in self.tags)

    def to_dict(self) -> dict[str, Any]:
        """The current version's JSON object."""
        return {
            "version": KIT_VERSION,
            "created": self.created,
            "scenario": self.scenario,
            "camera": self.camera.to_dict(),
            "tags": [t.to_dict() for t in self.tags],
        }


def kit_path_for(pdf: Path) -> Path:
    """Where the kit file of a kit PDF goes: ``kit.pdf`` -> ``kit.kit.json``."""
    return pdf.with_name(pdf.stem + KIT_SUFFIX)


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` so that a crash leaves the old file or the new one, never half of one
    (``calibration.safe_files``); CalibrationError names the file when it cannot be written."""
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise CalibrationError(f"cannot write {path}: {exc.strerror}") from None


def save_kit(kit: Kit, path: Path) -> None:
    """Write the kit file (atomically)."""
    write_text_atomic(path, json.dumps(kit.to_dict(), indent=1) + "\n")


def _tag_v1(raw: Any) -> KitTag:
    if not isinstance(raw, dict):
        raise TypeError("a tag must be a JSON object")
    kind = str(raw.get("kind", "base"))
    if kind not in ("base", "terrain"):
        raise ValueError(f"tag kind {kind!r} (base or terrain)")
    status = str(raw.get("status", "unknown"))
    if status not in ("reliable", "short", "unknown"):
        raise ValueError(f"tag status {status!r}")
    size = float(raw["size_mm"])
    if not 0 < size <= 200:
        raise ValueError(f"size_mm {size:g} (0 to 200 mm)")
    return KitTag(
        tag_id=int(raw["id"]),
        piece=str(raw.get("piece", "")),
        name=str(raw.get("name", "")),
        kind=kind,  # type: ignore[arg-type]
        size_mm=size,
        forward_mm=float(raw.get("forward_mm", 0.0)),
        right_mm=float(raw.get("right_mm", 0.0)),
        rotation_deg=float(raw.get("rotation_deg", 0.0)),
        height_mm=float(raw.get("height_mm", 3.0)),
        base_mm=float(raw.get("base_mm", 0.0)),
        px_min=float(raw.get("px_min", 0.0)),
        status=status,  # type: ignore[arg-type]
    )


def _load_v1(data: dict[str, Any], where: str) -> Kit:
    try:
        cam = data.get("camera") or {}
        camera = KitCamera(
            kind=str(cam.get("kind", "scenario")),
            words=str(cam.get("words", "")),
            px_per_mm=float(cam.get("px_per_mm", 0.0)),
            profile=str(cam.get("profile", "")),
            height_mm=float(cam.get("height_mm", 0.0)),
        )
        raw_tags = data["tags"]
        if not isinstance(raw_tags, list):
            raise TypeError("'tags' must be a list")
        tags = tuple(_tag_v1(t) for t in raw_tags)
    except (KeyError, TypeError, ValueError) as exc:
        raise CalibrationError(f"kit file {where}: missing or malformed field {exc}") from None
    ids = [t.tag_id for t in tags]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise CalibrationError(f"kit file {where}: tag {twice[0]} is listed twice")
    return Kit(
        tags=tags,
        camera=camera,
        scenario=str(data.get("scenario", "")),
        created=str(data.get("created", "")),
    )


LOADERS: dict[int, Callable[[dict[str, Any], str], Kit]] = {1: _load_v1}
"""One loader per kit-file version."""


def load_kit(path: str | Path) -> Kit:
    """Read a kit file of any known version; CalibrationError names the file and the fault."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalibrationError(f"kit file {p} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationError(f"cannot read kit file {p}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"kit file {p} is not valid JSON (line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise CalibrationError(f"kit file {p} must hold a JSON object")
    version = data.get("version")
    loader = LOADERS.get(version) if isinstance(version, int) else None
    if loader is None:
        raise CalibrationError(
            f"kit file {p} has version {version!r}; this soloscope reads versions {sorted(LOADERS)}"
        )
    return loader(data, str(p))
