"""The scenario a clip's metadata file names (``NAME.json`` beside ``NAME.mp4``): the replay
uses it when no --scenario is given (issue 22)."""

from __future__ import annotations

import json
from pathlib import Path

from assistant.replay.run import footage_scenario

SAMPLE = Path(__file__).resolve().parents[2] / "sample_footage" / "crossroads-seed3.mp4"


def test_the_sample_clip_names_its_scenario() -> None:
    assert footage_scenario(SAMPLE) == "crossroads-ambush"


def test_metadata_naming_another_video_or_nothing_is_not_used(tmp_path: Path) -> None:
    video = tmp_path / "battle.mp4"
    video.write_bytes(b"")
    assert footage_scenario(video) is None  # no metadata file
    meta = tmp_path / "battle.json"
    for data, expected in [
        ({"version": 1, "scenario": "ford-at-dawn", "video": "battle.mp4"}, "ford-at-dawn"),
        ({"version": 1, "scenario": "ford-at-dawn"}, "ford-at-dawn"),
        ({"version": 1, "scenario": "ford-at-dawn", "video": "other.mp4"}, None),
        (
            {"version": 1, "scenario": "mine.toml", "video": "battle.mp4"},
            str(tmp_path / "mine.toml"),
        ),
        ({"version": 1, "video": "battle.mp4"}, None),
        (["not", "an", "object"], None),
    ]:
        meta.write_text(json.dumps(data), encoding="utf-8")
        assert footage_scenario(video) == expected, data
    meta.write_text("{not json", encoding="utf-8")
    assert footage_scenario(video) is None
    assert footage_scenario(tmp_path) is None  # a folder of images has no such file
