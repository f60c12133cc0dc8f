"""Scripted clips of a bundled scenario's table (vision.render.sequence), with ground truth.

The hand moves as in ``soloscope footage`` (it enters, stops to grasp, carries, stops to let
go, leaves); the script says what it does: lift, carry, place, hover, take off, nudge the
camera. Table inches, degrees, seconds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from assistant.footage import battle_scene, overhead_camera
from assistant.scenarios import load_game
from vision.render.clip import write_clip
from vision.render.effects import Effects
from vision.render.sequence import Action, Sequence, render_sequence


def render_scripted(
    scenario: str, script: list[Action], out_dir: Path, name: str, fps: float = 10.0
) -> tuple[Path, dict[str, Any]]:
    """Render ``script`` on the scenario's table to ``out_dir/NAME.mp4``; returns the video's
    path and its ground truth (truth.json version 1, as loaded JSON)."""
    loaded, _, state = load_game(scenario)
    scene = battle_scene(loaded, state)
    camera = overhead_camera(loaded)
    seq = Sequence(scene, camera, script)
    frames = render_sequence(
        scene, camera, seq, fps, effects=Effects(noise_sigma=1.5, jpeg_quality=None), seed=5
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    video, truth = out_dir / f"{name}.mp4", out_dir / f"{name}.truth.json"
    write_clip(video, truth, frames, fps=fps, scene=scene, camera=camera)
    return video, json.loads(truth.read_text())
