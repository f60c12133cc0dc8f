"""``soloscope render`` and the scene-file format."""

from __future__ import annotations

import json
import re

import cv2
import pytest

from assistant.cli import main
from vision.errors import VisionError
from vision.render.scenefile import load_scene_file

SCENE = """
[table]
mat = "felt"

[camera]
resolution = "720p"
tilt_deg = 1.0

[effects]
clean = true

[[pieces]]
name = "orc-1"
x_in = 5.0
y_in = 6.0
heading_deg = 90
base_diameter_mm = 40
figure_forward_mm = -10
tags = [{id = 4, forward_mm = 10, size_mm = 16}]

[[terrain]]
name = "tower"
x_in = 18.0
y_in = 18.0
footprint_mm = [[-30, -30], [30, -30], [30, 30], [-30, 30]]
height_mm = 50
tags = [{id = 40, forward_mm = 0, size_mm = 25, height_mm = 50}]

[[script]]
action = "move"
piece = "orc-1"
x_in = 8.0
y_in = 9.0
heading_deg = 0
settle_s = 0.2
"""


def test_a_still_and_its_truth(tmp_path, capsys):
    scene = tmp_path / "scene.toml"
    scene.write_text(SCENE)
    out = tmp_path / "still.png"
    assert main(["render", str(scene), "--out", str(out)]) == 0
    image = cv2.imread(str(out))
    assert image.shape == (720, 1280, 3)
    doc = json.loads(out.with_suffix(".json").read_text())
    tags = {t["id"]: t for t in doc["frames"][0]["tags"]}
    assert set(tags) == {0, 1, 2, 3, 4, 40}
    assert tags[40]["height_mm"] == 50 and tags[4]["visible"]
    assert "6 tags" in capsys.readouterr().out


def test_a_clip_from_the_script(tmp_path):
    scene = tmp_path / "scene.json"
    sf = load_scene_file(_as_toml(tmp_path))
    assert len(sf.script) >= 4
    scene.write_text(
        json.dumps(
            {
                "camera": {"resolution": "720p"},
                "random": {"n_pieces": 3},
                "script": [{"action": "wait", "seconds": 0.5}],
            }
        )
    )
    out = tmp_path / "clip.mp4"
    assert main(["render", str(scene), "--out", str(out), "--fps", "4"]) == 0
    doc = json.loads((tmp_path / "clip.json").read_text())
    assert len(doc["frames"]) == 3 and all(f["settled"] for f in doc["frames"])


def _as_toml(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text(SCENE)
    return p


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[camera]\nresolution = '8k'\n", "unknown resolution '8k'"),
        ("[table]\nwidht_in = 30\n", "unknown field(s) ['widht_in']"),
        ("[[script]]\naction = 'jump'\n", "unknown action 'jump'"),
        ("[[pieces]]\nname = 'a'\n", "pieces[0] needs 'x_in'"),
        ("[table\n", "not valid TOML"),
    ],
)
def test_bad_scene_files_name_the_field(tmp_path, capsys, text, message):
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    with pytest.raises(VisionError, match=re.escape(message)):
        load_scene_file(bad)
    assert main(["render", str(bad), "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and "Traceback" not in err


def test_the_bundled_example_scene_loads_and_its_script_compiles():
    from pathlib import Path

    from vision.render import Sequence

    example = Path(__file__).resolve().parents[2] / "vision" / "render" / "example_scene.toml"
    sf = load_scene_file(example)
    assert {p.name for p in sf.scene.pieces} == {"captain", "archer", "troll"}
    seq = Sequence(sf.scene, sf.camera, sf.script)
    assert seq.duration_s > 5.0
    assert {p.name for p in seq.final_scene.pieces} == {"captain", "troll"}
    assert seq.final_scene.piece("captain").heading_deg == 45.0
