"""Latency from the board settling to the start of the announcement, measured on footage.

For every moment the ground truth says the board settles (the hand has left and nothing moves),
this finds the announcement the live assistant makes in response, and measures

    latency = (time of the frame on which it spoke - true settle time)   # the camera/tracker's lag
            + wall-clock time to process that frame                      # detection, tracking, AI
            + time to synthesise the speech (text queued -> audio ready) # the speech engine

which is the delay a player at the table would notice, apart from the camera's own exposure
latency (35-130 ms for webcams). Run:

    .venv/bin/python benchmarks/live_latency.py [--clip sample_footage/crossroads-seed3.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.scenarios import load_game  # noqa: E402
from assistant.session.dice import AutoDice  # noqa: E402
from assistant.session.game import LiveGame, Stage  # noqa: E402
from assistant.session.reader import TableReader  # noqa: E402
from assistant.session.start import fit_profile, read_declarations  # noqa: E402
from assistant.speech import Speaker  # noqa: E402
from engine.protocols import find_controller  # noqa: E402
from vision.sources import open_source  # noqa: E402


def settle_times(truth: dict) -> list[float]:
    """Seconds at which the true board goes from unsettled to settled."""
    out, before = [], True
    for frame in truth["frames"]:
        if frame["settled"] and not before:
            out.append(float(frame["t"]))
        before = frame["settled"]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clip", default=str(ROOT / "sample_footage" / "crossroads-seed3.json"))
    args = parser.parse_args()
    meta_path = Path(args.clip)
    meta = json.loads(meta_path.read_text())
    folder = meta_path.parent
    truth = json.loads((folder / meta["truth"]).read_text())
    video = str(folder / meta["video"])

    scenario, ruleset, state = load_game(meta["scenario"])
    said_at: list[float] = []
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=AutoDice(int(meta["seed"])),
        say=lambda text: None,
        initial=state,
        human_plan=read_declarations(folder / meta["declarations"]),
        confirm_hidden=True,
    )
    reader = TableReader(
        scenario, fit_profile(video, scenario.table.width_in, scenario.table.depth_in)
    )
    frame_ms: dict[float, float] = {}
    with open_source(video) as source:
        for frame in source:
            started = time.perf_counter()
            before = len(game.announcements)
            game.observe(reader.read(frame))
            frame_ms[frame.t] = (time.perf_counter() - started) * 1000.0
            if len(game.announcements) > before:
                said_at.append(frame.t)
            if game.stage is Stage.OVER:
                break

    with tempfile.TemporaryDirectory() as tmp:
        speaker = Speaker("wav", tmp, echo=None)
        for said in game.announcements[:20]:
            speaker.say(said.text)
        speaker.close(timeout=120)
        synth_ms = [
            (a.ready_at_s - a.queued_at_s) * 1000.0
            for a in speaker.announcements
            if a.ready_at_s is not None and a.queued_at_s is not None
        ]
    synth_median = statistics.median(synth_ms) if synth_ms else 0.0

    lags: list[float] = []
    settles = settle_times(truth)
    for i, t_settle in enumerate(settles):
        next_move = settles[i + 1] if i + 1 < len(settles) else float("inf")
        spoken = [t for t in said_at if t_settle <= t < next_move]
        if spoken:
            t_say = spoken[0]
            lags.append((t_say - t_settle) * 1000.0 + frame_ms[t_say])
    if not lags:
        print("No announcement followed a settle: nothing to measure.")
        return 1
    with_speech = [lag + synth_median for lag in lags]
    per_frame = sorted(frame_ms.values())
    print(f"Footage: {video} ({len(frame_ms)} frames, {meta['fps']} fps)")
    print(f"Settles answered by an announcement: {len(lags)} of {len(settles)}")
    print(
        f"Settle -> announcement text: median {statistics.median(lags):.0f} ms, "
        f"worst {max(lags):.0f} ms"
    )
    print(
        f"Speech synthesis (text -> audio ready), {len(synth_ms)} announcements: "
        f"median {synth_median:.0f} ms, worst {max(synth_ms, default=0):.0f} ms"
    )
    print(
        f"Settle -> start of speech: median {statistics.median(with_speech):.0f} ms, "
        f"worst {max(with_speech):.0f} ms"
    )
    print(
        f"Processing per frame: median {statistics.median(per_frame):.1f} ms, "
        f"worst {per_frame[-1]:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
