"""Slow speech never holds up the camera loop or the page: announcements queue behind a
player that does not finish until the test lets it, while frames keep being processed and the
page keeps answering. No clock is involved: the player is held by a gate file, so the test
proves the loop did not wait for speech however loaded the machine is."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from assistant.live_hub import LiveHub
from assistant.scenarios import load_game
from assistant.session.dice import AutoDice
from assistant.session.game import LiveGame
from assistant.session.live import run_loop
from assistant.session.reader import TableReader
from assistant.session.start import fit_profile
from assistant.speech import Speaker
from assistant.web import serve
from engine.protocols import find_controller
from tests.session.test_play_footage import _render
from vision.render.sequence import Wait
from vision.sources import open_source


def test_camera_loop_and_page_go_on_while_speech_is_slow(tmp_path: Path) -> None:
    video = _render(tmp_path, [Wait(4.0)])
    scenario, ruleset, state = load_game("crossroads-ambush")
    # A real audio "device" that cannot finish playing until the gate file exists.
    gate = tmp_path / "gate"
    speaker = Speaker(
        "on",
        tmp_path / "speech",
        player=["sh", "-c", f'while [ ! -e "{gate}" ]; do sleep 0.05; done', "player"],
        echo=None,
    )
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=AutoDice(4),
        say=speaker.say,
        initial=state,
    )
    reader = TableReader(scenario, fit_profile(str(video), 24, 24))
    hub = LiveHub()
    handle = serve(hub, port=0)
    try:
        with open_source(str(video)) as source:
            stats = run_loop(source, reader, game, hub=hub)
        said = len(game.announcements)
        assert said >= 3, [a.text for a in game.announcements]
        # Every frame was processed while the first announcement was still being played.
        assert stats.frames == 41  # 4 s at 10 fps, both ends included
        assert speaker.pending >= 1
        # The page answers while the speaker is still busy.
        with urllib.request.urlopen(handle.url.rstrip("/") + "/api/view", timeout=60) as response:
            view = json.loads(response.read())["view"]
        assert speaker.pending >= 1
        assert view["round"] == 1 and len(view["announcements"]) == said
        # ...and has the rectified top-down picture of the table.
        version, jpeg = hub.latest_frame()
        assert version >= 1 and jpeg is not None and jpeg[:2] == b"\xff\xd8"
    finally:
        gate.touch()
        handle.stop()
        hub.close()
        assert speaker.close(timeout=120)
    # Nothing was cut off: every announcement was delivered, in order.
    assert [a.text for a in speaker.announcements] == [
        " ".join(a.text.split()) for a in game.announcements
    ]
