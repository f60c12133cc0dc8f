"""The bundled sample footage, and pieces cut from it, for tests that run ``play`` and ``demo``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import cv2
import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_footage"
CLIP = "crossroads-seed3"


def sample_meta() -> dict[str, Any]:
    """The sample clip's metadata (scenario, seed, file names, outcome); skips when missing."""
    path = SAMPLE / f"{CLIP}.json"
    if not path.is_file():
        pytest.skip(f"sample_footage/{CLIP}.json is missing")
    meta: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return meta


def cut(video: Path, parts: list[tuple[Path, int, int | None]]) -> None:
    """Write frames [start, stop) of ``video`` to each part's file (stop None: to the end)."""
    cap = cv2.VideoCapture(str(video))
    fps = cap.get(cv2.CAP_PROP_FPS)
    writers: list[cv2.VideoWriter] = []
    index = 0
    last = None if any(stop is None for _, _, stop in parts) else max(s for _, _, s in parts)
    while last is None or index < last:
        ok, image = cap.read()
        if not ok:
            break
        if not writers:
            h, w = image.shape[:2]
            fourcc = cv2.VideoWriter_fourcc(*"mp4v")
            writers = [cv2.VideoWriter(str(p), fourcc, fps, (w, h)) for p, _, _ in parts]
        for writer, (_, start, stop) in zip(writers, parts, strict=True):
            if index >= start and (stop is None or index < stop):
                writer.write(image)
        index += 1
    cap.release()
    for writer in writers:
        writer.release()


def short_clip_folder(folder: Path, frames: int = 80, name: str = "short") -> Path:
    """A clip folder as ``demo --footage`` reads it: the first ``frames`` frames of the sample
    (the set-up, the initiative roll and the player's first move), its metadata and the
    declarations file beside the video."""
    meta = sample_meta()
    folder.mkdir(parents=True, exist_ok=True)
    cut(SAMPLE / meta["video"], [(folder / f"{name}.mp4", 0, frames)])
    shutil.copy(SAMPLE / meta["declarations"], folder / f"{name}.declarations.jsonl")
    short = {
        **meta,
        "video": f"{name}.mp4",
        "declarations": f"{name}.declarations.jsonl",
        "frames": frames,
    }
    short.pop("truth", None)
    (folder / f"{name}.json").write_text(json.dumps(short), encoding="utf-8")
    return folder
