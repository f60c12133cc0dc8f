"""Every documented option of ``soloscope play`` and ``soloscope demo``, run through the command
line on a short piece of the sample footage (its first 8 seconds: the set-up, the initiative
roll and the player's first move), and the mistakes they refuse with one clear sentence."""

from __future__ import annotations

import json
import socket
from dataclasses import replace
from pathlib import Path

import pytest

from assistant.live_hub import LiveHub
from assistant.scenarios import load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame
from assistant.session.live import run_loop
from assistant.session.reader import TableReader
from assistant.session.start import _declaration_status, fit_profile, waiting_text
from calibration.profile import save_profile
from engine.protocols import find_controller
from tests.session.conftest import soloscope
from vision.sources import open_source

SCENARIO = "crossroads-ambush"
TOKEN = "table-token-1234567"


pytestmark = pytest.mark.usefixtures("no_terminal")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _saved(folder: Path) -> dict:
    return json.loads((folder / "game.json").read_text(encoding="utf-8"))


def _said(folder: Path) -> list[str]:
    return [text for _, text in _saved(folder)["announcements"]]


def test_play_footage_seed_dice_port_and_the_wait_for_a_declaration(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = _free_port()
    out_dir = tmp_path / "run"
    code, out, err = soloscope(
        capsys,
        "play", "--source", clips / "short.mp4", "--scenario", SCENARIO, "--seed", 3,
        "--dice", "auto", "--speech", "off", "--port", port, "--out", out_dir,
    )  # fmt: skip
    assert code == 0, err
    assert f"The table page: http://127.0.0.1:{port}/" in out
    saved = _saved(out_dir)
    assert saved["seed"] == 3 and saved["dice"] == "auto"
    said = _said(out_dir)
    assert "Initiative roll 4: Road Wardens activate first." in said  # what seed 3 rolls
    # The footage shows the player's move, but nobody declares: soloscope says what it waits for
    # (once), and the run ends cleanly with the game saved.
    waiting = waiting_text(str(clips / "short.mp4"))
    assert waiting.startswith(
        "Waiting for your declaration on the page, or pass --declarations FILE."
    )
    assert f"--declarations {clips / 'short.declarations.jsonl'}" in waiting
    assert out.count(waiting) == 2, out  # when it began to wait, and in the summary
    assert f"The footage ended before the declaration came. {waiting}" in out
    assert said[-1].startswith("The camera feed ended before the battle did. The game is saved")
    assert f"Event log: {out_dir / 'recording' / 'events.jsonl'}" in out
    # The defaults of the tolerances adopt the scenario's exact positions for models set out
    # close to them.
    assert saved["positions"]["sergeant"] == [12.0, 4.0, 0.0]


def test_the_page_shows_the_wait_for_a_declaration(clips: Path) -> None:
    scenario, ruleset, state = load_game(SCENARIO)
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=AutoDice(3),
        say=lambda text: None,
        initial=state,
    )
    source = str(clips / "short.mp4")
    reader = TableReader(scenario, fit_profile(source, 24, 24))
    hub = LiveHub()
    echoed: list[str] = []
    with open_source(source) as frames:
        run_loop(
            frames,
            reader,
            game,
            hub=hub,
            status=_declaration_status(game, source),
            echo=echoed.append,
        )
    view = hub.current_view()[1]
    assert view is not None
    assert [s.text for s in view.statuses] == [waiting_text(source)] == echoed


def test_play_declarations_profile_and_the_default_folder(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    profile = tmp_path / "table.json"
    save_profile(fit_profile(str(clips / "short.mp4"), 24, 24), profile)
    monkeypatch.chdir(tmp_path)
    drawn: list[float] = []
    monkeypatch.setattr(TableReader, "topdown_jpeg", lambda self, frame: drawn.append(frame.t))
    code, out, err = soloscope(
        capsys,
        "play", "--source", clips / "short.mp4", "--scenario", SCENARIO, "--seed", 3,
        "--declarations", clips / "short.declarations.jsonl", "--profile", profile,
        "--speech", "off", "--no-page",
    )  # fmt: skip
    assert code == 0, err
    assert "The table page" not in out
    assert drawn == []  # no page, so no top-down pictures drawn for it
    (run,) = (tmp_path / "runs").glob(f"*-{SCENARIO}")
    said = _said(run)
    assert "Declared: Crossbow Ivy moves and shoots Goblin Stabber." in said
    assert not any(s.startswith("Waiting for your declaration") for s in said)
    assert "Waiting for your declaration" not in out
    assert len(_saved(run)["steps"]) >= 2  # the initiative roll and the declared move-and-shoot


def test_play_physical_dice_listen_all_token_and_position_tolerance(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "run"
    code, out, err = soloscope(
        capsys,
        "play", "--source", clips / "short.mp4", "--scenario", SCENARIO, "--dice", "physical",
        "--listen-all", "--token", TOKEN, "--port", 0, "--tolerance", 0.0001,
        "--speech", "off", "--out", out_dir,
    )  # fmt: skip
    assert code == 0, err
    assert f"token={TOKEN}" in out
    saved = _saved(out_dir)
    assert saved["dice"] == "physical"
    assert any("Roll a 6-sided die for initiative" in s for s in _said(out_dir))
    # With a tolerance of 0.0001 in, no model stands "where the scenario says": each is taken
    # where the camera sees it.
    assert saved["positions"]["sergeant"] != [12.0, 4.0, 0.0]


def test_play_facing_tolerance(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "run"
    code, _, err = soloscope(
        capsys,
        "play", "--source", clips / "short.mp4", "--scenario", SCENARIO, "--seed", 3,
        "--facing-tolerance", 0.0001, "--speech", "off", "--no-page", "--out", out_dir,
    )  # fmt: skip
    assert code == 0, err
    sergeant = _saved(out_dir)["positions"]["sergeant"]
    assert sergeant != [12.0, 4.0, 0.0] and sergeant[2] != 0.0


def test_play_refuses_mistakes_before_writing_anything(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = clips / "short.mp4"
    out_dir = tmp_path / "run"
    wrong = tmp_path / "wrong.json"
    save_profile(replace(fit_profile(str(source), 24, 24), width_in=48.0, depth_in=48.0), wrong)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        cases = [
            ((), "give a --scenario"),
            (("--scenario", SCENARIO, "--tolerance", 0), "--tolerance 0 must be more than 0"),
            (("--scenario", SCENARIO, "--facing-tolerance", 200), "at most 180 degrees"),
            (("--scenario", SCENARIO, "--profile", wrong), "the profile is for a 48 x 48 in table"),
            (("--scenario", SCENARIO, "--port", port), f"cannot listen on 127.0.0.1:{port}"),
            (("--scenario", "no-such-scenario"), "no scenario named 'no-such-scenario'"),
            (("--scenario", SCENARIO, "--port", 70000), "--port 70000 is not a port (allowed: 1"),
            (("--scenario", SCENARIO, "--port", -1), "--port -1 is not a port (allowed: 1"),
        ]
        for extra, message in cases:
            code, _out, err = soloscope(
                capsys, "play", "--source", source, "--speech", "off", "--out", out_dir, *extra
            )
            assert code == 2 and message in err and "Traceback" not in err, (extra, err)
            assert not out_dir.exists(), extra
    code, _, err = soloscope(
        capsys, "play", "--source", tmp_path / "nothing.mp4", "--scenario", SCENARIO, "--no-page"
    )
    assert code == 2 and "Traceback" not in err and err.startswith("soloscope play: ")


def test_demo_footage_clip_out_serve_and_port(
    clips: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = _free_port()
    out_dir = tmp_path / "demo"
    code, out, err = soloscope(
        capsys,
        "demo", "--footage", clips, "--clip", "short", "--out", out_dir, "--speech", "off",
        "--serve", "--port", port,
    )  # fmt: skip
    # Not run from a terminal: the demo ends by itself.
    assert code == 0, err
    assert f"The table page: http://127.0.0.1:{port}/" in out
    assert "Declared: Crossbow Ivy moves and shoots Goblin Stabber." in _said(out_dir)
    assert (out_dir / "replay" / "index.html").is_file()
    assert "this run ended differently" in out  # 8 seconds are not the whole battle
    code, _, err = soloscope(capsys, "demo", "--footage", clips, "--clip", "nope")
    assert code == 2 and "no sample clip 'nope'" in err
