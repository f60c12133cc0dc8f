"""Render benchmark (not a test; issue 23): how fast demo footage is made, and the frame rate
the tracker needs to read it.

1. Speed. The first ``--frames`` frames of two demos' footage (strike-causeway, filmed in 4K;
   dungeon-crawl, 1080p) drawn by the frame pipeline (``vision.render.pipeline``: the board
   once per board state, the hand per frame in its region, still frames repeated) and, for
   comparison, drawn whole frame by frame as before (``render_clean`` and the effects on
   every frame); then the same frames encoded to mp4. CPU milliseconds per frame of this
   process (``resource.getrusage``: the encoder's threads included, other jobs on a shared
   machine not).
2. Frame rate. A cut of a demo (its first ``--actions`` actions) rendered at each of
   ``--fps`` and played through the camera as the demo plays it: does the table reach the
   state ``simulate`` reaches after as many actions? The demo's rate
   (``assistant.demo_clips.DEMO_FPS``) is the lowest that does with a frame to spare.

Figures come from the project's own renderer (its synthetic table), not from a real camera.

Run: ``.venv/bin/python benchmarks/render_bench.py [--frames 200] [--fps 2 3 4 5]
[--actions 12] [--scenario strike-causeway] [--skip-rate]``.
"""

from __future__ import annotations

import argparse
import itertools
import resource
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from assistant.demo_clips import (
    DEMO_FPS,
    SETTLE_S,
    START_S,
    Clip,
    Outcome,
    demo_clip,
)
from assistant.demo_kit import choose_kit
from assistant.footage import battle_moves, battle_scene, settle_rests
from assistant.pieces import apply_kit
from assistant.scenarios import load_game
from assistant.session.start import run_session
from vision.render.effects import Effects, apply_effects
from vision.render.frame import render_clean
from vision.render.sequence import Sequence, moves_script, render_sequence

FOOTAGE_EFFECTS = Effects(noise_sigma=1.5, jpeg_quality=None)
"""The effects battle footage is rendered with (assistant.footage)."""


def cpu_s() -> float:
    """CPU seconds used by this process so far (all its threads)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def demo_sequence(name: str) -> tuple[Sequence, str]:
    """The demo's script for the scenario (its kit and camera), and the camera's name."""
    scenario, ruleset, state = load_game(name)
    kit = choose_kit(scenario)
    scenario = apply_kit(scenario, kit.kit)
    battle = battle_moves(scenario, ruleset, state, 1)
    scene = battle_scene(scenario, state)
    rests = settle_rests(scene, kit.camera, battle.moves, SETTLE_S)
    script = moves_script(battle.moves, settle_s=SETTLE_S, start_s=START_S, rests=rests)
    return Sequence(scene, kit.camera, script), kit.resolution


def speed(name: str, frames: int, work: Path) -> None:
    """Milliseconds per frame: the pipeline, whole frames, the encoder."""
    seq, resolution = demo_sequence(name)
    fps = DEMO_FPS
    n = min(frames, seq.n_frames(fps))
    start = cpu_s()
    stream = render_sequence(
        seq.initial_scene, seq.initial_camera, seq, fps, effects=FOOTAGE_EFFECTS
    )
    drawn = [next(stream)]
    setup_s = cpu_s() - start  # the mat, the lens maps, the background, the first board
    start = cpu_s()
    drawn += list(itertools.islice(stream, n - 1))
    pipeline_ms = (cpu_s() - start) / (n - 1) * 1000
    distinct = len({id(frame.image) for frame, _ in drawn})
    start = cpu_s()
    for frame, _ in drawn[1:]:
        st = seq.state_at(frame.t)
        image, _ = render_clean(st.scene, st.camera, st.hand, off_table=st.off_table)
        apply_effects(image, FOOTAGE_EFFECTS, rng_for(frame.index))
    whole_ms = (cpu_s() - start) / (n - 1) * 1000
    h, w = drawn[0][0].image.shape[:2]
    writer = cv2.VideoWriter(str(work / "speed.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
    start = cpu_s()
    for frame, _ in drawn:
        writer.write(frame.image)
    writer.release()
    encode_ms = (cpu_s() - start) / n * 1000
    print(
        f"{name} ({resolution}, {fps:g} fps, {n} of {seq.n_frames(fps)} frames, {distinct} drawn, "
        f"the rest repeated): pipeline {setup_s:.1f} s for the first frame (the layers set "
        f"up), then {pipeline_ms:.0f} ms/frame; whole frames "
        f"{whole_ms:.0f} ms/frame ({whole_ms / pipeline_ms:.1f}x), encoding {encode_ms:.0f} "
        "ms/frame (CPU)"
    )


def rng_for(index: int) -> np.random.Generator:
    """The sensor noise's random source for a frame drawn whole."""
    return np.random.default_rng(index)


def frame_rate(name: str, seed: int, actions: int, rates: list[float], work: Path) -> None:
    """Whether a cut of the demo rendered at each rate reaches simulate's state."""
    for fps in rates:
        start = cpu_s()
        folder, clip_name = demo_clip(name, seed, work / "cache", max_actions=actions, fps=fps)
        render_cpu = cpu_s() - start
        clip = Clip.read(folder, clip_name)
        start = cpu_s()
        result = run_session(
            clip.session_options(work / f"run-{fps:g}", speech="off", serve=False),
            echo=lambda text: None,
        )
        play_cpu = cpu_s() - start
        try:
            played = Outcome.of(result.game.state)
            steps = len(result.game.steps)
        finally:
            result.close()
        same = played == clip.simulated()
        print(
            f"{name} seed {seed}, first {actions} actions at {fps:g} fps: {steps} steps, "
            f"{'the simulated state' if same else 'NOT the simulated state'}; render "
            f"{render_cpu:.0f} s, play {play_cpu:.0f} s (CPU)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200, help="frames timed per scenario")
    parser.add_argument("--fps", type=float, nargs="+", default=[2.0, 3.0, 4.0, 5.0])
    parser.add_argument("--actions", type=int, default=12, help="actions in the cut")
    parser.add_argument("--scenario", default="strike-causeway", help="for the frame rate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-rate", action="store_true", help="only the speed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="render-bench-") as tmp:
        work = Path(tmp)
        for name in ("strike-causeway", "dungeon-crawl"):
            speed(name, args.frames, work)
        if not args.skip_rate:
            frame_rate(args.scenario, args.seed, args.actions, args.fps, work)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
