"""The narrative tools on the live page (issue 13, RULES §5.b): the Oracle, Yes/No and Secret
buttons in a real headless Chromium each roll a d20; the answer follows the tables
(T003-01/02, D003-26), is spoken (a real espeak-ng WAV), shown in the page's log and kept
with the game's announcements (its record)."""

from __future__ import annotations

import re
import shutil
import wave
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant.live_commands import Command, CommandError
from assistant.live_hub import LiveHub
from assistant.scenarios import load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame, Stage
from assistant.session.tools import tool_text
from assistant.session.view import build_view
from assistant.speech import Speaker
from assistant.web import serve
from engine.dice import ScriptedDice
from engine.protocols import find_controller
from engine.tools.oracle import ORACLE_WORDS, SECRET_WORDS, oracle_outcome, secret_outcome
from tests.browser import CHROMIUM, CHROMIUM_ARGS, MISSING

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

ROLL = re.compile(r"d20 = (\d+): (.+)\.$")


def _game(say: object) -> LiveGame:
    scenario, ruleset, state = load_game("crossroads-ambush")
    return LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=AutoDice(1),
        say=say,  # type: ignore[arg-type]
        initial=state,
    )


def test_tool_text_reads_the_tables() -> None:
    scenario = load_game("crossroads-ambush")[0]
    oracle = Command("oracle", text="Does the  bridge hold?")
    assert tool_text(oracle, scenario, ScriptedDice([7])) == (
        "Oracle: Does the bridge hold? d20 = 7: it happens, but with a bad twist."
    )
    assert tool_text(Command("yes-no"), scenario, ScriptedDice([11])) == "Yes or no: d20 = 11: yes."
    last = Command("secret", action="last-place", text="a hidden door")
    assert tool_text(last, scenario, ScriptedDice([15])).endswith(
        f"d20 = 15: {SECRET_WORDS[secret_outcome(15, last_place=True)]}."
    )
    with pytest.raises(CommandError, match="short text"):
        Command.from_dict({"kind": "oracle", "text": "x" * 201})
    assert Command.from_dict(
        {"kind": "secret", "text": "a door", "action": "last-place"}
    ) == last.__class__("secret", action="last-place", text="a door")


@pytest.fixture
def page() -> Iterator[sync_api.Page]:
    if not CHROMIUM.exists():
        pytest.skip(MISSING)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser.new_page(viewport={"width": 1280, "height": 900})
        browser.close()


def _pump(hub: LiveHub, game: LiveGame) -> str:
    """What the live loop does with a command from the page; the announcement it made."""
    command = hub.next_command(10)
    assert command is not None, "the page's command never arrived"
    before = len(game.announcements)
    game.command(command)
    hub.publish(build_view(game))
    assert len(game.announcements) == before + 1
    return game.announcements[-1].text


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_page_buttons_roll_speak_and_log(page: sync_api.Page, tmp_path: Path) -> None:
    speaker = Speaker.from_option(f"wav:{tmp_path / 'speech'}", echo=None)
    game = _game(speaker.say)
    assert game.stage is Stage.SETUP  # the tools work whatever the game waits for
    hub = LiveHub()
    hub.publish(build_view(game))
    handle = serve(hub, port=0, config={"SSE_POLL_S": 0.1})
    try:
        page.goto(handle.url)
        page.wait_for_function("Number(document.body.dataset.viewVersion || 0) > 0", timeout=60_000)
        page.fill("#tool-question", "Does the bridge hold?")
        page.click('[data-tool="oracle"]')
        said = _pump(hub, game)
        assert said.startswith("Oracle: Does the bridge hold? d20 = ")
        roll, words = ROLL.search(said).groups()  # type: ignore[union-attr]
        assert words == ORACLE_WORDS[oracle_outcome(int(roll))]

        page.fill("#tool-question", "Is the gate locked?")
        page.click('[data-tool="yes-no"]')
        said = _pump(hub, game)
        roll, words = ROLL.search(said).groups()  # type: ignore[union-attr]
        assert said.startswith("Yes or no: Is the gate locked?")
        assert words == ("yes" if int(roll) >= 11 else "no")

        page.fill("#tool-question", "a hidden door")
        page.check("#tool-last-place")
        page.click('[data-tool="secret"]')
        said = _pump(hub, game)
        roll, words = ROLL.search(said).groups()  # type: ignore[union-attr]
        assert said.startswith("Secret (the last place): a hidden door")
        assert words == SECRET_WORDS[secret_outcome(int(roll), last_place=True)]

        page.wait_for_function(
            "document.querySelector('#log').textContent.includes('Secret (the last place)')",
            timeout=60_000,
        )
        log = page.locator("#log").text_content() or ""
        assert "Oracle: Does the bridge hold?" in log and "Yes or no: Is the gate locked?" in log
    finally:
        handle.stop()
        hub.close()
    assert speaker.close(timeout=120)
    tools = [a.text for a in game.announcements]
    assert [t.split(":")[0] for t in tools] == ["Oracle", "Yes or no", "Secret (the last place)"]
    spoken = [a for a in speaker.announcements if a.text in tools]
    assert len(spoken) == 3
    for a in spoken:
        assert a.wav_path is not None
        with wave.open(str(a.wav_path), "rb") as wav:
            assert wav.getnframes() / wav.getframerate() > 1.0
