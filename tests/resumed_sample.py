"""The bundled sample battle played as an interrupted and resumed run, made once per test run
for the tests that check the run itself (tests/session/test_play_footage.py) and its replay
(tests/replay/test_resumed_run.py).

The sample footage is cut in two at a settled moment in the middle, on a key frame, without
re-encoding it (tests/mp4_cut.py): each part shows the sample's own pictures. ``soloscope play`` plays
the first part from a table folder (the scenario a relative path, ``scenarios/ambush.toml``,
with no page) and stops mid-battle; ``soloscope play --resume`` plays the second part to the
end from another working directory, its page served but nobody at a terminal. Both run in
this process (``assistant.cli.main``), not interactive.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from assistant.cli import main
from assistant.scenarios import scenario_path
from tests.mp4_cut import cut_mp4, key_frames
from tests.session.clips import SAMPLE, sample_meta

SCENARIO_FILE = Path("scenarios") / "ambush.toml"
"""Where the table folder holds its copy of the sample's scenario (relative to that folder)."""


@dataclass(frozen=True)
class ResumedRun:
    """What the two ``play`` commands did and left behind."""

    meta: dict[str, Any]
    """The sample clip's metadata (scenario, seed, winner, ...)."""
    table: Path
    """The folder the first part was played from (it holds SCENARIO_FILE)."""
    run: Path
    """The run folder: game.json, recording/ and recording-2/."""
    part_a: Path
    part_b: Path
    cut_s: float
    """Where the footage was cut (seconds of the sample)."""
    first_game: dict[str, Any]
    """game.json as the first part left it."""
    first: tuple[int, str, str]
    """The first ``play``: exit code, standard output, standard error."""
    resumed: tuple[int, str, str]
    """``play --resume``: exit code, standard output, standard error."""


def _soloscope(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def play_resumed(folder: Path) -> ResumedRun:
    """Play the sample in two parts in ``folder`` (see the module's docstring)."""
    meta = sample_meta()
    truth = json.loads((SAMPLE / meta["truth"]).read_text(encoding="utf-8"))
    middle = len(truth["frames"]) // 2
    keys = set(key_frames(SAMPLE / meta["video"]))
    at = next(f["frame"] for f in truth["frames"][middle:] if f["settled"] and f["frame"] in keys)
    fps = float(truth["fps"])
    part_a, part_b = folder / "part_a.mp4", folder / "part_b.mp4"
    cut_mp4(SAMPLE / meta["video"], [(part_a, 0, at), (part_b, at, None)])
    declarations = str(SAMPLE / meta["declarations"])
    table = folder / "table"
    (table / SCENARIO_FILE).parent.mkdir(parents=True)
    shutil.copy(scenario_path(meta["scenario"]), table / SCENARIO_FILE)
    elsewhere = folder / "elsewhere"
    elsewhere.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdin", io.StringIO(""))  # not interactive, even under pytest -s
        mp.chdir(table)
        first = _soloscope(
            ["play", "--source", str(part_a), "--scenario", str(SCENARIO_FILE),
             "--seed", str(meta["seed"]), "--declarations", declarations, "--speech", "off",
             "--no-page", "--out", "run"]
        )  # fmt: skip
        run = table / "run"
        first_game = json.loads((run / "game.json").read_text(encoding="utf-8"))
        mp.chdir(elsewhere)
        # The page is served, but nobody sits at a terminal: the run ends with the battle.
        resumed = _soloscope(
            ["play", "--resume", str(run), "--source", str(part_b), "--declarations",
             declarations, "--speech", "off", "--port", "0"]
        )  # fmt: skip
    return ResumedRun(meta, table, run, part_a, part_b, at / fps, first_game, first, resumed)
