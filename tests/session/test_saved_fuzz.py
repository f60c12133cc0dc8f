"""Saved games, declarations files, table profiles and recording manifests mutated at random
(hypothesis): each is read or refused in one line naming the file, never with a traceback."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.recorder import read_recording_info
from assistant.session.game import Stage
from assistant.session.start import read_declarations
from assistant.session.store import load_saved, saver
from calibration.profile import load_profile
from tests.fuzz import FUZZ, check_refusal, judge, mutated
from tests.session.test_live_game import _game
from tests.session.virtual_table import VirtualTable


def _saved_game() -> dict[str, Any]:
    """A card-AI game saved while an order waits for its move (every part of a save filled)."""
    game, _, _ = _game("crossroads-cards", 2)
    with tempfile.TemporaryDirectory() as folder:
        save_file = Path(folder) / "game.json"
        game.on_saved = saver(save_file, "crossroads-cards", 2)
        table = VirtualTable(game)
        for _ in range(6):
            table.step()
        table.run_until(Stage.AI_ORDER)
        game.flush()
        data: dict[str, Any] = json.loads(save_file.read_text(encoding="utf-8"))
    return data


SAVED = _saved_game()
DECLARATIONS = [
    {"kind": "move", "unit": "crossbow", "path": [[8.0, 3.0], [8.5, 5.0]], "heading": 10.0},
    {"kind": "shoot", "unit": "crossbow", "target": "goblin-stabber"},
    {"kind": "pass", "side": "Road Wardens"},
]


@FUZZ
@given(data=st.data())
def test_a_mutated_saved_game_resumes_or_is_refused_in_one_line(
    tmp_path: Path, data: st.DataObject
) -> None:
    saved = data.draw(mutated(SAVED))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    judge(path, lambda p: load_saved(p, lambda text: None))


@FUZZ
@given(data=st.data())
def test_a_mutated_declarations_file_is_read_or_refused_in_one_line(
    tmp_path: Path, data: st.DataObject
) -> None:
    lines = data.draw(mutated(DECLARATIONS))
    path = tmp_path / "plan.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    judge(path, read_declarations)


@pytest.fixture(scope="module")
def profile_data() -> dict[str, Any]:
    """A table profile fitted to the sample footage, as saved."""
    from assistant.session.start import fit_profile
    from tests.session.clips import SAMPLE, sample_meta

    meta = sample_meta()
    profile = fit_profile(str(SAMPLE / meta["video"]), 24, 24)
    data: dict[str, Any] = profile.to_dict()
    return data


@FUZZ
@given(data=st.data())
def test_a_mutated_profile_loads_or_is_refused_in_one_line(
    tmp_path: Path, data: st.DataObject, profile_data: dict[str, Any]
) -> None:
    profile = data.draw(mutated(profile_data))
    path = tmp_path / "table.json"
    path.write_text(json.dumps(profile), encoding="utf-8")
    judge(path, load_profile)


@FUZZ
@given(data=st.data())
def test_a_mutated_recording_manifest_is_read_or_refused_in_one_line(
    tmp_path: Path, data: st.DataObject
) -> None:
    base = {"version": 1, "kind": "soloscope-recording", "format": "jpeg-records-1",
            "segment_s": 10.0, "fps": 30.0, "created": "2025-01-01T00:00:00Z", "closed": True}  # fmt: skip
    manifest = data.draw(mutated(base))
    folder = tmp_path / "recording"
    folder.mkdir(exist_ok=True)
    (folder / "recording.json").write_text(json.dumps(manifest), encoding="utf-8")
    judge(folder, read_recording_info)


def _with_nan_position() -> dict[str, Any]:
    """The saved positions with one unit's x not a number (json writes NaN)."""
    positions = dict(SAVED["positions"])
    unit, pose = next(iter(positions.items()))
    positions[unit] = [float("nan"), *pose[1:]]
    return {"positions": positions}


def _with_nan_path() -> dict[str, Any]:
    """The saved steps with the first move's path point not a number."""
    steps = [dict(step) for step in SAVED["steps"]]
    first = next(s for s in steps if s["action"].get("path"))
    first["action"] = {**first["action"], "path": [[float("nan"), 0.0]]}
    return {"steps": steps}


def test_what_the_fuzz_found_is_one_line_naming_the_file(
    tmp_path: Path, profile_data: dict[str, Any]
) -> None:
    """Found by the tests above (each a traceback before)."""
    plan = tmp_path / "plan.jsonl"
    for line in ('{"kind": "move", "unit": "crossbow", "path": 0}', "5", '{"kind": 0}'):
        plan.write_text(line + "\n", encoding="utf-8")
        with pytest.raises(Exception, match=f"^{plan}: line 1 is not a declaration") as caught:
            read_declarations(plan)
        check_refusal(caught.value)
    saved = tmp_path / "game.json"
    for change, says in (
        ({"scenario": "0"}, "the saved game's scenario cannot be read: no scenario named '0'"),
        ({"seed": float("inf")}, "the saved game is damaged"),
        (_with_nan_position(), "the saved game is damaged .the position of .* is not a number"),
        (_with_nan_path(), "the saved game is damaged .*not a finite number"),
    ):
        saved.write_text(json.dumps({**SAVED, **change}), encoding="utf-8")
        with pytest.raises(Exception, match=f"^{saved}: {says}") as caught:
            load_saved(saved, lambda text: None)
        check_refusal(caught.value)
    saved.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(Exception, match=f"^{saved} is not a saved game") as caught:
        load_saved(saved, lambda text: None)
    folder = tmp_path / "recording"
    folder.mkdir()
    (folder / "recording.json").write_text('{"version": 1, "segment_s": ""}', encoding="utf-8")
    with pytest.raises(Exception, match=f"^{folder}: recording.json is damaged") as caught:
        read_recording_info(folder)
    check_refusal(caught.value)
    profile = tmp_path / "table.json"
    for change in ({"tray": 3}, {"homography": [[float("nan")] * 3] * 3}, {"fit": 1}):
        profile.write_text(json.dumps({**profile_data, **change}), encoding="utf-8")
        with pytest.raises(Exception, match=f"^profile {profile}: ") as caught:
            load_profile(profile)
        check_refusal(caught.value)
