"""The set-up a player can follow (issue 23): the voice says only what changed, one short
sentence per piece, never the whole list again; the page has the whole checklist.

The strike system's table is rendered at 1080p by the project's renderer and read by the real
detector and tracker: two models stand outside their zones and Shaman Ulk is not on the table
(its tag unseen, as the far-edge tag of the 1080p strike footage is). Each announcement is then
spoken to a WAV file by the speech engine (espeak-ng through pyttsx3) and measured.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from assistant.footage import battle_scene, overhead_camera
from assistant.live_commands import Command
from assistant.scenarios import load_game
from assistant.session.by_hand import OFFER_AFTER_S
from assistant.session.game import Stage
from assistant.session.reader import TableReader
from assistant.session.view import build_view
from assistant.speech import Speaker, wav_duration_s
from assistant.table_fit import profile_from_frames
from tests.session.live_games import live_game
from vision.detector import Detector
from vision.render.frame import render_frame
from vision.types import Frame

SCENARIO = "strike-causeway"
HIDDEN = "marauder-shaman"
"""Not on the table: the camera never sees its tag."""
OUT_OF_ZONE = {"ranger-gunner": 3.0, "marauder-brute": -3.5}
"""Models set out this many inches (y) outside their deployment zones."""
LONGEST_S = 8.0
"""No set-up announcement may take longer than this to say, seconds."""
FPS = 10.0

Image = npt.NDArray[np.uint8]


@pytest.fixture(scope="module")
def tables() -> tuple[Image, Image]:
    """The table with two models outside their zones, and as the scenario wants it (Shaman
    Ulk left off both)."""
    scenario, _, state = load_game(SCENARIO)
    scene = battle_scene(scenario, state)
    scene = replace(scene, pieces=tuple(p for p in scene.pieces if p.name != HIDDEN))
    camera = overhead_camera(scenario, "1080p")
    bad = scene
    for name, dy in OUT_OF_ZONE.items():
        piece = scene.piece(name)
        bad = bad.with_piece_at(name, piece.x_in, piece.y_in + dy, piece.heading_deg)
    return render_frame(bad, camera)[0], render_frame(scene, camera)[0]


def _frames(images: list[tuple[Image, float]]) -> Iterator[Frame]:
    index = 0
    for image, seconds in images:
        for _ in range(round(seconds * FPS)):
            yield Frame(index, index / FPS, image)
            index += 1


def test_set_up_speech_says_each_change_once_in_short_sentences(
    tables: tuple[Image, Image], tmp_path: Path
) -> None:
    bad, good = tables
    scenario, _, state = load_game(SCENARIO)
    names = {u.id: u.name for u in state.units}
    profile = profile_from_frames(_frames([(good, 0.3)]), Detector(), 24, 24)[0]
    said: list[str] = []
    game = live_game(SCENARIO, 1, said)[0]
    reader = TableReader(scenario, profile)
    for frame in _frames([(bad, OFFER_AFTER_S + 1.0), (good, 2.0), (good, 2.0)]):
        game.observe(reader.read(frame))
    assert game.stage is Stage.SETUP

    shaman, gunner, brute = names[HIDDEN], names["ranger-gunner"], names["marauder-brute"]
    # Changes: two models out of their zones, Shaman Ulk unseen for a few seconds, the two
    # models put in. One sentence each, said once; nothing that did not change is said.
    unseen = (
        f"{shaman}: I cannot see its tag. Is it covered? Uncover it, or place it by hand on the "
        "page."
    )
    assert len(said) == 5, said
    # At the first look: the two models outside their zones, which way from the player's seat.
    assert sorted(m.split(":")[0] for m in said[:2]) == [
        f"Move {brute} into its deployment zone",
        f"Move {gunner} into its deployment zone",
    ]
    assert any(m.endswith("away from you.") and brute in m for m in said[:2])
    assert any(m.endswith("toward you.") and gunner in m for m in said[:2])
    assert said[2] == unseen  # once it has stayed unseen for a few seconds
    assert sorted(said[3:]) == [f"{brute} is in place.", f"{gunner} is in place."]
    # The page has the whole checklist: every model and tagged terrain piece.
    view = build_view(game)
    assert len(view.checklist) == len(state.units) + len([t for t in scenario.terrain if t.tags])
    assert {c.name: c.state for c in view.checklist}[shaman] == "unseen"
    assert sum(c.state == "ok" for c in view.checklist) == len(view.checklist) - 1
    assert [u.place_offered for u in view.units if u.id == HIDDEN] == [True]

    # Placed by hand on the page: said once, and the battle begins.
    hidden = state.unit(HIDDEN)
    game.command(Command("place", unit_id=HIDDEN, x_in=hidden.x, y_in=hidden.y, heading_deg=180))
    assert said[5:7] == [
        f"{shaman} is placed by hand.",
        "The table matches The Broken Causeway. Let battle begin.",
    ]
    assert game.stage is not Stage.SETUP and game.state.round >= 1

    # Every set-up announcement names one piece (never the list) and is short when spoken.
    setup = said[:6]
    for text in setup:
        assert sum(name in text for name in names.values()) == 1, text
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (make sysdeps-runtime): durations not measured")
    with Speaker("wav", tmp_path, echo=None) as speaker:
        for text in setup:
            speaker.say(text)
    spoken = speaker.announcements
    assert [a.text for a in spoken] == setup
    durations = [wav_duration_s(a.wav_path) for a in spoken if a.wav_path is not None]
    assert len(durations) == len(setup)
    assert all(0.5 < d <= LONGEST_S for d in durations), list(zip(setup, durations, strict=True))
