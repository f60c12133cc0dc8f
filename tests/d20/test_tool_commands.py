"""The command-line contract of seed 003's tools: ``oracle`` (``{"roll", "result"}``),
``secret``, ``generate terrain`` (``{"pieces": [{"size", "type", "section", "x", "y",
"polygon", ...}]}``, ``--out FILE.toml`` entries a scenario takes), and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Point, Polygon

from assistant.cli import main
from assistant.generators import generator_modules
from assistant.scenarios import load_scenario
from calibration.kit_ids import TERRAIN_IDS
from engine.scenario import TerrainSpec
from engine.tools.oracle import oracle_outcome

PIECE_FIELDS = {"size", "type", "section", "x", "y", "polygon"}
ATTRIBUTES = {"kind", "blocks_los", "impassable", "difficult", "cover", "dangerous"}
ATTRIBUTES |= {"height_levels", "destructible", "is_objective"}


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_oracle_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, ["oracle", "Does the bridge hold?", "--seed", "5", "--json"])
    answer = json.loads(out)
    assert code == 0 and err == "" and set(answer) == {"roll", "result"}
    assert 1 <= answer["roll"] <= 20
    assert answer["result"] == oracle_outcome(answer["roll"]).value
    assert _run(capsys, ["oracle", "Does the bridge hold?", "--seed", "5", "--json"])[1] == out


def test_oracle_reads_a_physical_roll_and_answers_yes_no(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(capsys, ["oracle", "Is it raining?", "--yes-no", "--roll", "11", "--json"])
    assert code == 0 and json.loads(out) == {"roll": 11, "result": "yes"}
    _, out, _ = _run(capsys, ["oracle", "Is it raining?", "--yes-no", "--roll", "10", "--json"])
    assert json.loads(out) == {"roll": 10, "result": "no"}
    _, out, _ = _run(capsys, ["oracle", "Does the bridge hold?", "--roll", "7"])
    assert out == "Does the bridge hold?\nd20 = 7: it happens, but with a bad twist.\n"


def test_a_fresh_seed_is_said_only_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, ["oracle", "Is the door trapped?"])
    assert code == 0 and err == "" and "seed" not in out
    code, out, err = _run(capsys, ["oracle", "--json", "--show-seed"])
    assert code == 0 and err.startswith("seed ") and err.count("\n") == 1
    seed = err.split()[1]
    assert _run(capsys, ["oracle", "--json", "--seed", seed])[1] == out


@pytest.mark.parametrize(
    ("argv", "result", "found"),
    [
        (["--roll", "16"], "found", True),
        (["--roll", "15"], "not-here", False),
        (["--roll", "15", "--last-place"], "does-not-exist", False),
        (["--roll", "15", "--last-place", "--mandatory"], "found-in-last-place", True),
        (["--roll", "20", "--last-place"], "found", True),
    ],
)
def test_secret(
    capsys: pytest.CaptureFixture[str], argv: list[str], result: str, found: bool
) -> None:
    code, out, _ = _run(capsys, ["secret", "a hidden door", *argv, "--json"])
    assert code == 0
    assert json.loads(out) == {"roll": int(argv[1]), "result": result, "found": found}


def _terrain(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    code, out, err = _run(capsys, ["generate", "terrain", "--seed", "3", "--json", *extra])
    assert code == 0 and err == ""
    data: dict[str, Any] = json.loads(out)
    return data


def test_generate_terrain_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    data = _terrain(capsys)
    assert set(data) == {"pieces"} and data["pieces"]
    for piece in data["pieces"]:
        assert set(piece) >= PIECE_FIELDS | ATTRIBUTES
        assert piece["size"] in ("small", "large") and isinstance(piece["type"], str)
        col, row = piece["section"]
        assert isinstance(col, int) and isinstance(row, int) and 0 <= col < 2 and 0 <= row < 2
        assert all(isinstance(piece[k], float | int) for k in ("x", "y"))
        poly = Polygon(piece["polygon"])
        assert len(piece["polygon"]) >= 3 and poly.is_valid
        assert poly.centroid.distance(Point(piece["x"], piece["y"])) < 2e-3
        assert piece["cover"] in ("none", "soft", "hard")
    assert _terrain(capsys) == data  # same seed, same table
    tags = [p["tag"] for p in data["pieces"] if p["tag"] is not None]
    assert tags == list(TERRAIN_IDS)[: len(tags)] and len(tags) == min(8, len(data["pieces"]))
    assert all(p["tag"] is None for p in _terrain(capsys, "--no-tags")["pieces"])


def test_generate_terrain_table_size(capsys: pytest.CaptureFixture[str]) -> None:
    data = _terrain(capsys, "--width", "48", "--depth", "36")
    sections = {tuple(p["section"]) for p in data["pieces"]}
    assert max(c for c, _ in sections) <= 3 and max(r for _, r in sections) <= 2
    for p in data["pieces"]:
        assert all(-1e-3 <= x <= 48.001 and -1e-3 <= y <= 36.001 for x, y in p["polygon"])


SCENARIO_HEAD = """version = 1

[scenario]
name = "generated-terrain"
ruleset = "narrative"
ai_controller = "narrative-ai"

[options]
max_rounds = 2

[[sides]]
name = "Wardens"
role = "human"
edge = "front"

[[sides]]
name = "Raiders"
role = "ai"
edge = "back"
"""


def _clear_spot(terrain: list[dict[str, Any]], y: float) -> float:
    """An x along the line y where a 1-in base stands clear of every impassable piece."""
    blocks = [Polygon(t["polygon"]) for t in terrain if t["impassable"]]
    for tenth in range(5, 236):
        x = tenth / 10
        if all(b.distance(Point(x, y)) > 0.6 for b in blocks):
            return x
    raise AssertionError(f"no clear spot on y = {y}")


def _unit(uid: str, side: str, x: float, y: float, tag: int) -> str:
    return (
        f'\n[[units]]\nid = "{uid}"\nname = "{uid}"\nside = "{side}"\nx = {x}\ny = {y}\n'
        f"tags = [{{ id = {tag} }}]\n"
        "card = { move_in = 6, attack = 1, defence = 0, wound_slots = 1 }\n"
    )


def test_generate_terrain_out_is_scenario_terrain(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "terrain.toml"
    code, text, err = _run(capsys, ["generate", "terrain", "--seed", "3", "--out", str(out)])
    assert code == 0 and err == ""
    assert f"[[terrain]] entries to {out}" in text and "tags 8-15 on the first 8" in text
    fragment = out.read_text(encoding="utf-8")
    entries = tomllib.loads(fragment)["terrain"]
    specs = [TerrainSpec.model_validate(e) for e in entries]
    assert len(specs) == len(_terrain(capsys)["pieces"]) > 8
    tagged = [s for s in specs if s.tags]
    assert [s.tags[0].id for s in tagged] == list(TERRAIN_IDS) and specs[:8] == tagged
    assert fragment.startswith("# Generated by: soloscope generate terrain --seed 3")
    # Appended to a scenario, it loads (kit tags checked, cards validated by the ruleset) and
    # a battle is played on it.
    y_near, y_far = 0.5, 23.5
    units = _unit("warden", "Wardens", _clear_spot(entries, y_near), y_near, 16)
    units += _unit("raider", "Raiders", _clear_spot(entries, y_far), y_far, 17)
    scenario_file = tmp_path / "generated.toml"
    scenario_file.write_text(SCENARIO_HEAD + units + "\n" + fragment, encoding="utf-8")
    scenario = load_scenario(str(scenario_file))
    assert [t.id for t in scenario.terrain] == [e["id"] for e in entries]
    code, log, err = _run(capsys, ["simulate", str(scenario_file), "--seed", "1", "--json"])
    assert code == 0 and err == "" and json.loads(log.splitlines()[0])["type"] == "setup"


def test_generate_lists_its_generators(capsys: pytest.CaptureFixture[str]) -> None:
    assert "terrain" in [m.NAME for m in generator_modules()]
    with pytest.raises(SystemExit):
        main(["generate", "--help"])
    assert "terrain" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["generate", "terrain", "--width", "-3"], "--width must be more than 0 and at most 240"),
        (["generate", "terrain", "--depth", "0"], "--depth must be more than 0"),
        (["generate", "terrain", "--width", "wide"], "--width must be a number of inches"),
        (["generate", "terrain", "--seed", "abc"], "--seed must be a whole number, got 'abc'"),
        (["generate", "terrain", "--seed", "-1"], "--seed must be from 0 to"),
        (["generate", "terrain", "--out", "terrain.txt"], "--out must name a .toml file"),
        (["oracle", "--seed", "1.5"], "--seed must be a whole number"),
        (["oracle", "--roll", "0"], "--roll must be from 1 to 20, got 0"),
        (["oracle", "--roll", "3", "--seed", "2"], "give --roll or --seed, not both"),
        (["secret", "--roll", "twenty"], "--roll must be a whole number"),
    ],
)
def test_bad_input_gets_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = _run(capsys, argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
    assert err.startswith(f"soloscope {argv[0]}: ")


def test_bad_width_from_the_real_command_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "assistant.cli", "generate", "terrain", "--width", "-3"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=120,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
