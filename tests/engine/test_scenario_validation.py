"""A mistake in a scenario file is reported, never accepted: tags the kit cannot print or the
camera cannot read on a model, a model standing in impassable terrain, a misspelt key. Each is
one line naming the file, the field and what is allowed, with a non-zero exit from every command
that loads a scenario (before, these played on and the game waited for a model it could never
see)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.cli import main
from assistant.scenarios import bundled_scenarios, load_scenario
from engine.scenario import ScenarioError, parse_scenario

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "assistant" / "data" / "scenarios" / "crossroads-ambush.toml"
FOOTAGE = ROOT / "sample_footage" / "crossroads-seed3.mp4"
SERGEANT_TAG = "tags = [{ id = 16, size_mm = 14 }]"
BOSS_AT = "x = 12.0\ny = 20.0"
SHRINE_TAG = "tags = [{ id = 8, forward_mm = 0"

# (name, text replaced, replacement, the field named, words of the message)
MISTAKES = [
    (
        "tag-outside-dictionary",
        SERGEANT_TAG,
        "tags = [{ id = 99, size_mm = 14 }]",
        "units[0].tags[0].id",
        "99 is not in DICT_4X4_50 (ids 0 to 49); allowed for a model: 16 to 49",
    ),
    (
        "corner-tag-on-a-model",
        SERGEANT_TAG,
        "tags = [{ id = 2, size_mm = 14 }]",
        "units[0].tags[0].id",
        "2 is the kit's corner tag (far right); allowed for a model: 16 to 49",
    ),
    (
        "button-tag-on-a-model",
        SERGEANT_TAG,
        "tags = [{ id = 5, size_mm = 14 }]",
        "units[0].tags[0].id",
        "5 is the kit's 'undo' button tag; allowed for a model: 16 to 49",
    ),
    (
        "terrain-id-on-a-model",
        SERGEANT_TAG,
        "tags = [{ id = 13, size_mm = 14 }]",
        "units[0].tags[0].id",
        "13 is one of the kit's terrain ids; allowed for a model: 16 to 49",
    ),
    (
        "model-id-on-terrain",
        SHRINE_TAG,
        "tags = [{ id = 30, forward_mm = 0",
        "terrain[0].tags[0].id",
        "30 is one of the kit's model ids; allowed for a terrain piece: 8 to 15",
    ),
    (
        "model-in-impassable-terrain",
        BOSS_AT,
        "x = 12.0\ny = 12.0",
        "units[3].x, y",
        "the base of 'goblin-boss' at (12, 12) stands in impassable terrain 'shrine'",
    ),
    (
        "base-reaching-into-impassable-terrain",
        BOSS_AT,
        "x = 12.0\ny = 14.0",  # the shrine ends at 13.5; the base's radius is 0.625
        "units[3].x, y",
        "stands in impassable terrain 'shrine'",
    ),
    (
        "misspelt-option",
        "max_rounds = 10",
        "max_round = 10",
        "options.max_round",
        "unknown option (allowed: contact_tol_in, max_rounds)",
    ),
    (
        "bad-round-limit",
        "max_rounds = 10",
        "max_rounds = 2.5",
        "options.max_rounds",
        "a whole number, 1 or more",
    ),
    (
        "misspelt-unit-key",
        "y = 4.0\nheading = 0",
        "y = 4.0\nheadng = 0",
        "units[0].headng",
        "unknown field (allowed: id, name, side, company, x, y, cell, heading, base_diameter_in",
    ),
    (
        "misspelt-tag-key",
        SERGEANT_TAG,
        "tags = [{ id = 16, size_mn = 14 }]",
        "units[0].tags[0].size_mn",
        "unknown field (allowed: id, forward_mm, right_mm, size_mm, rotation_deg, height_mm)",
    ),
    (
        "misspelt-card-key",
        "card = { move_in = 6, attack = 2, defence = 1, wound_slots = 1 }",
        "card = { move_in = 6, attack = 2, defence = 1, wound_slots = 1, atack = 3 }",
        "units[0].card.atack",
        "unknown field (allowed: move_in, attack, defence, wound_slots, shoot_range_in, wounds)",
    ),
    (
        "misspelt-table-key",
        "width_in = 24\n",
        "widht_in = 24\n",
        "table.widht_in",
        "unknown field (allowed: width_in, depth_in, grid)",
    ),
]


def _write(tmp_path: Path, old: str, new: str) -> Path:
    text = BASE.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "field", "says"), [m[1:] for m in MISTAKES], ids=[m[0] for m in MISTAKES]
)
def test_a_mistake_is_one_line_naming_file_field_and_what_is_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, field: str, says: str
) -> None:
    path = _write(tmp_path, old, new)
    assert main(["simulate", str(path), "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{path}: {field}: " in err and says in err, err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "{s}"],
        ["markers", "--out", "{tmp}/kit.pdf", "--scenario", "{s}"],
        ["footage", "{s}", "--out", "{tmp}/footage"],
        ["play", "--source", str(FOOTAGE), "--scenario", "{s}", "--out", "{tmp}/play"],
        ["replay", str(FOOTAGE), "--out", "{tmp}/replay", "--scenario", "{s}", "--quiet"],
    ],
    ids=lambda argv: argv[0],
)
def test_every_command_that_loads_a_scenario_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    path = _write(tmp_path, SERGEANT_TAG, "tags = [{ id = 99, size_mm = 14 }]")
    args = [a.format(s=path, tmp=tmp_path) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}: units[0].tags[0].id: 99 is not in" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml"]  # nothing written


def test_the_engine_checks_what_it_knows_without_the_kit() -> None:
    """Impassable terrain and options are the engine's own checks (it knows nothing of the
    kit's tag ids)."""
    text = BASE.read_text(encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"units\[3\]\.x, y: .* impassable terrain 'shrine'"):
        parse_scenario(text.replace(BOSS_AT, "x = 12.0\ny = 12.0"), "inside.toml")
    with pytest.raises(ScenarioError, match=r"options\.max_round: unknown option"):
        parse_scenario(text.replace("max_rounds = 10", "max_round = 10"), "option.toml")
    touching = text.replace(BOSS_AT, "x = 12.0\ny = 14.125")  # base edge on the shrine's wall
    assert parse_scenario(touching, "touching.toml").units[3].y == 14.125


@pytest.mark.parametrize("name", [s.name for s in bundled_scenarios()])
def test_every_bundled_scenario_loads(name: str) -> None:
    scenario = load_scenario(name)
    assert scenario.scenario.name == name
