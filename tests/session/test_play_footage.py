"""The live assistant on rendered footage: the whole battle (the README's command), a misplaced AI
move corrected, an illegal player move flagged, an unknown tag, and footage that ends mid-game
then resumes.

Footage comes from the project's table renderer (the virtual camera) and the bundled sample
clip; frames go through the real detector and tracker.
"""

from __future__ import annotations

import json
import re
import shlex
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.footage import battle_scene, overhead_camera
from assistant.scenarios import load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame, Stage
from assistant.session.start import SessionOptions, run_session
from assistant.session.store import load_saved
from engine.dice import SeededDice
from engine.protocols import find_controller
from engine.runner import controllers_for, play_battle
from tests.browser import CHROMIUM, CHROMIUM_ARGS
from tests.resumed_sample import SCENARIO_FILE, ResumedRun
from tests.session.clips import sample_meta
from tests.session.terminal import LivePlay
from tests.session.virtual_table import VirtualTable
from vision.render.clip import write_clip
from vision.render.effects import Effects
from vision.render.scene import PlacedPiece
from vision.render.sequence import HandLeave, Lift, Place, Wait, render_sequence
from vision.types import PieceSpec, TagId, TagMount

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SCENARIO = "crossroads-ambush"


def _first_order_game(seed: int) -> LiveGame:
    """A live game at a virtual table, advanced to its first AI order or player turn."""
    scenario, ruleset, state = load_game(SCENARIO)
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=AutoDice(seed),
        say=lambda text: None,
        initial=state,
    )
    VirtualTable(game).step()
    return game


def _seed_where(stage: Stage) -> int:
    for seed in range(1, 50):
        game = _first_order_game(seed)
        if game.stage is stage and (stage is not Stage.AI_ORDER or game.expected.moves):  # type: ignore[union-attr]
            return seed
    raise AssertionError(f"no seed starts with {stage}")


def _render(tmp: Path, script: list, extra: tuple[PlacedPiece, ...] = ()) -> Path:
    scenario, _, state = load_game(SCENARIO)
    scene = battle_scene(scenario, state)
    scene = replace(scene, pieces=scene.pieces + extra)
    camera = overhead_camera(scenario, "1080p")
    frames = render_sequence(
        scene, camera, script, 10.0, effects=Effects(noise_sigma=1.5, jpeg_quality=None)
    )
    video = tmp / "clip.mp4"
    write_clip(video, tmp / "clip.truth.json", frames, fps=10.0, scene=scene, camera=camera)
    return video


def _play(tmp: Path, video: Path, seed: int, **extra: object) -> tuple[LiveGame, list[str]]:
    opts = SessionOptions(
        source=str(video),
        scenario=SCENARIO,
        seed=seed,
        speech="off",
        serve=False,
        out=tmp / "run",
        **extra,
    )
    result = run_session(opts, echo=lambda text: None)
    return result.game, [a.text for a in result.game.announcements]


def test_misplaced_ai_move_is_corrected_on_footage(tmp_path: Path) -> None:
    seed = _seed_where(Stage.AI_ORDER)
    exp = _first_order_game(seed).expected
    assert exp is not None
    script = [
        Wait(2.0),
        Lift(exp.unit_id),
        Place(exp.x_in + 1.0, exp.y_in, exp.heading_deg),
        HandLeave(),
        Wait(2.5),
        Lift(exp.unit_id),
        Place(exp.x_in, exp.y_in, exp.heading_deg),
        HandLeave(),
        Wait(2.5),
    ]
    game, said = _play(tmp_path, _render(tmp_path, script), seed)
    corrections = [s for s in said if s.startswith("Move ") and "to the left" in s]
    assert corrections, said
    assert len(game.steps) >= 2, said  # initiative, then the AI's order carried out
    assert said.index(corrections[0]) < len(said) - 1


def test_illegal_player_move_is_flagged_on_footage(tmp_path: Path) -> None:
    seed = _seed_where(Stage.HUMAN)
    state = load_game(SCENARIO)[2]
    unit = state.unit("crossbow")
    script = [
        Wait(2.0),
        Lift(unit.id),
        Place(unit.x, unit.y + 9.0, unit.heading_deg),
        HandLeave(),
        Wait(2.5),
    ]
    game, said = _play(tmp_path, _render(tmp_path, script), seed)
    flagged = [s for s in said if "not legal" in s]
    assert flagged and "more than its 6 inch move" in flagged[0], said
    assert game.stage is not Stage.OVER and len(game.steps) == 1  # only the initiative roll


def test_unknown_tag_is_reported_once(tmp_path: Path) -> None:
    stranger = PlacedPiece(
        PieceSpec("stranger", (TagMount(TagId(37), forward_mm=0.0, size_mm=14.0),), 32.0),
        21.5,
        6.0,
        0.0,
        figure=None,
    )
    seed = _seed_where(Stage.HUMAN)
    _, said = _play(tmp_path, _render(tmp_path, [Wait(6.0)], extra=(stranger,)), seed)
    mentions = [s for s in said if "tag 37" in s]
    assert len(mentions) == 1 and "not part of this scenario" in mentions[0]


def test_footage_ending_mid_game_is_saved_and_resumes(
    resumed_sample_run: ResumedRun, capsys: pytest.CaptureFixture[str]
) -> None:
    """The footage stops mid-battle; ``play --resume`` carries on from another working
    directory (the scenario was a relative path), keeps every announcement, and the two
    recording folders hold every step and announcement once, in order."""
    played = resumed_sample_run
    meta, run, first = played.meta, played.run, played.first_game
    code, _, err = played.first
    assert code == 0, err
    said_first = [text for _, text in first["announcements"]]
    assert first["scenario"] == str(played.table / SCENARIO_FILE)
    assert said_first[-1].startswith("The camera feed ended before the battle did.")

    code, out, err = played.resumed
    assert code == 0, err
    final = json.loads((run / "game.json").read_text())
    said = [text for _, text in final["announcements"]]
    assert said[: len(said_first)] == said_first  # nothing said before the crash is lost
    assert any(s.startswith(f"The battle is over: {meta['winner']} win") for s in said)
    resumed, _, _ = load_saved(run / "game.json", lambda text: None)
    assert resumed.state.winner == meta["winner"]
    logs = [run / "recording" / "events.jsonl", run / "recording-2" / "events.jsonl"]
    assert f"Event logs, one per part of the battle, in order: {logs[0]}, {logs[1]}" in out

    events = [
        [json.loads(line) for line in log.read_text().splitlines() if line.strip()] for log in logs
    ]
    sessions = [part[0] for part in events]
    assert [s["type"] for s in sessions] == ["session", "session"]
    assert [s["part"] for s in sessions] == [1, 2]
    assert sessions[1]["steps_before"] == len(first["steps"])
    assert sessions[1]["announcements_before"] == len(said_first)
    assert [part[-1]["type"] for part in events] == ["session_end", "session_end"]
    every = events[0] + events[1]
    logged_steps = [e["action"]["kind"] for e in every if e["type"] == "step"]
    assert logged_steps == [s["action"]["kind"] for s in final["steps"]]
    assert [e["text"] for e in every if e["type"] == "announcement"] == said

    # A finished battle is not resumed again (that would only repeat its last announcement).
    code = main(["play", "--resume", str(run), "--source", str(played.part_b), "--no-page"])
    assert code == 2
    assert f"is already over ({meta['winner']} win); there is nothing to resume" in (
        capsys.readouterr().err
    )
    assert not (run / "recording-3").exists()


def test_readme_footage_command_plays_the_battle_and_keeps_the_page(tmp_path: Path) -> None:
    """The README's ``play`` command on the sample footage, run from a terminal: the battle
    reaches the simulated outcome, then the page keeps showing the final board, log and outcome
    (also after a reload) until Ctrl-C."""
    meta = sample_meta()
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^soloscope play --source sample_footage/.*$", readme, re.MULTILINE)
    assert len(commands) == 1, commands
    argv = shlex.split(commands[0])
    scenario, ruleset, state = load_game(meta["scenario"])
    simulated = play_battle(state, ruleset, controllers_for(scenario), SeededDice(meta["seed"]))
    run = tmp_path / "run"
    with LivePlay([*argv[1:], "--speech", "off", "--port", "0", "--out", str(run)]) as play:
        url = play.wait_for(r"The table page: (\S+)").group(1)
        over = play.wait_for(r"The battle is over: (.+)\. The page stays at (\S+) — press Ctrl-C")
        assert over.group(1) == f"{meta['winner']} win" and over.group(2) == url
        assert play.seen(f"Saved game: {run / 'game.json'}")  # the summary came first

        game, _, _ = load_saved(run / "game.json", lambda text: None)
        assert game.state.winner == simulated.final.winner == meta["winner"]
        assert game.state.round == simulated.final.round
        assert [u.status for u in game.state.units] == [u.status for u in simulated.final.units]

        # The page still answers after the battle, with the final board and outcome.
        with urllib.request.urlopen(url + "api/view", timeout=30) as response:
            view = json.loads(response.read())["view"]
        assert view["outcome"].startswith(f"{meta['winner']} win")
        assert view["announcements"][-1]["text"].startswith("The battle is over:")
        fallen = {u.id for u in game.state.units if u.status.value == "fallen"}
        assert fallen and {u["id"] for u in view["units"] if u["status"] == "fallen"} == fallen
        if CHROMIUM.exists():
            standing = [u.id for u in game.state.units if u.on_table]
            _page_reload_shows_the_outcome(url, meta["winner"], standing)
        play.interrupt()
        assert play.wait() == 0
        assert play.seen("Stopped; the page is closed.")
    with pytest.raises(OSError):
        urllib.request.urlopen(url + "api/view", timeout=5)


def _page_reload_shows_the_outcome(url: str, winner: str, standing: list[str]) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            for load in (page.goto, lambda _: page.reload()):
                load(url)
                page.wait_for_function(
                    "document.querySelector('#log').textContent.includes('The battle is over')",
                    timeout=30_000,
                )
                assert winner in (page.locator("body").text_content() or "")
                for unit_id in standing:  # the final board: every model still on the table
                    assert page.locator(f'#overlay [data-unit-id="{unit_id}"]').count() == 1
        finally:
            browser.close()
