"""Every file soloscope writes goes through the one atomic writer (``calibration.safe_files``):
a scan of the source finds no other way of writing a file than the few listed here, each
with the reason it is safe."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("assistant", "calibration", "vision", "engine")

WRITING_CALLS = frozenset(
    {"write_text", "write_bytes", "imwrite", "VideoWriter", "save", "mkstemp", "NamedTemporaryFile"}
)
"""Calls that write a named file (``save``: a PDF document's), or make a temporary one to
rename over another by hand."""

ALLOWED: dict[tuple[str, str], str] = {
    ("calibration/safe_files.py", "write_bytes"): "the atomic writer itself, on its temporary",
    ("calibration/safe_files.py", "mkstemp"): "the atomic writer's temporary",
    ("calibration/safe_files.py", "open(rb+)"): "the atomic writer flushing its temporary",
    ("assistant/recorder.py", "open(a)"): "the event log: append-only, fsync'd line by line",
    ("assistant/recorder.py", "open(wb)"): "a footage segment: append-only records with CRCs",
    ("assistant/session/start.py", "open(a)"): "error.log: append-only details of a defect",
    ("assistant/speech_worker.py", "open(w)"): "os.devnull",
    ("assistant/commands/render.py", "imwrite"): "onto atomic_path's temporary",
    ("calibration/kit.py", "imwrite"): "onto atomic_path's temporary",
    ("calibration/kit_tray.py", "save"): "onto atomic_path's temporary",
    ("calibration/kit_grid.py", "save"): "onto atomic_path's temporary",
    ("assistant/replay/video.py", "VideoWriter"): "onto atomic_path's temporary",
    ("vision/render/clip.py", "VideoWriter"): "onto atomic_path's temporary",
    ("vision/dice/train/fit.py", "save"): "onto atomic_path's temporary",
}
"""(file, call) -> why it is safe."""


def _mode(call: ast.Call) -> str | None:
    """The mode of an ``open(path, mode)`` or ``path.open(mode)`` call, when written out."""
    func = call.func
    at = 1 if isinstance(func, ast.Name) or getattr(func, "attr", "") == "fdopen" else 0
    mode = call.args[at] if len(call.args) > at else None
    for keyword in call.keywords:
        if keyword.arg == "mode":
            mode = keyword.value
    return mode.value if isinstance(mode, ast.Constant) and isinstance(mode.value, str) else None


def _writers() -> set[tuple[str, str]]:
    found = set()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in WRITING_CALLS:
                    found.add((where, name))
                elif name in ("open", "fdopen") and any(c in (_mode(node) or "r") for c in "wax+"):
                    found.add((where, f"{name}({_mode(node)})"))
    return found


def test_every_file_is_written_through_the_atomic_writer() -> None:
    unexpected = sorted(_writers() - set(ALLOWED))
    assert unexpected == [], (
        "write these through calibration.safe_files (write_atomic, write_json_atomic or "
        f"atomic_path), or list them here with the reason they are safe: {unexpected}"
    )
