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
        "unknown option (allowed: contact_tol_in, max_rounds, random_events)",
    ),
    (
        "bad-round-limit",
        "max_rounds = 10",
        "max_rounds = 2.5",
        "options.max_rounds",
        "2.5 is not allowed (allowed: a whole number from 1 to 100)",
    ),
    (
        "round-limit-out-of-range",
        "max_rounds = 10",
        "max_rounds = 1e12",
        "options.max_rounds",
        "1e+12 is not allowed (allowed: a whole number from 1 to 100)",
    ),
    (
        "nan-heading",
        "y = 4.0\nheading = 0",
        "y = 4.0\nheading = nan",
        "units[0].heading",
        "nan is not a number that can be used (give a finite number)",
    ),
    (
        "infinite-card-number",
        "card = { move_in = 6, attack = 2, defence = 1, wound_slots = 1 }",
        "card = { move_in = inf, attack = 2, defence = 1, wound_slots = 1 }",
        "units[0].card.move_in",
        "inf is not a number that can be used (give a finite number)",
    ),
    (
        "heading-out-of-range",
        "y = 4.0\nheading = 0",
        "y = 4.0\nheading = 4000",
        "units[0].heading",
        "4000 is out of range (allowed: -360 or more and at most 360)",
    ),
    (
        "tag-offset-out-of-range",
        SERGEANT_TAG,
        "tags = [{ id = 16, size_mm = 14, forward_mm = 1e9 }]",
        "units[0].tags[0].forward_mm",
        "1e+09 is out of range (allowed: -300 or more and at most 300)",
    ),
    (
        "terrain-too-tall",
        "height_in = 3\n",
        "height_in = 1e12\n",
        "terrain[0].height_in",
        "1e+12 is out of range (allowed: 0 or more and at most 120)",
    ),
    (
        "self-intersecting-terrain",
        "polygon = [[10.5, 10.5], [13.5, 10.5], [13.5, 13.5], [10.5, 13.5]]",
        "polygon = [[10.5, 10.5], [13.5, 13.5], [13.5, 10.5], [10.5, 13.5]]",
        "terrain[0].polygon",
        "the outline of 'shrine' crosses itself near (12, 12) (allowed: corners listed in order "
        "around it, edges meeting only at corners)",
    ),
    (
        "flat-terrain",
        "polygon = [[4, 12], [6, 12], [6, 13.5], [4, 13.5]]",
        "polygon = [[4, 12], [5, 12], [6, 12]]",
        "terrain[1].polygon",
        "the outline of 'boulder' has no area (its corners lie on one line)",
    ),
    (
        "terrain-far-off-the-table",
        "polygon = [[17, 11], [20, 11], [20, 14], [17, 14]]",
        "polygon = [[17, 11], [2000, 11], [20, 14], [17, 14]]",
        "terrain[2].polygon",
        "corner (2000, 11) of 'thicket' is off the 24 x 24 in table (allowed: corners within 12 "
        "in of the table)",
    ),
    (
        "self-intersecting-deployment",
        "deployment = [[0, 0], [24, 0], [24, 6], [0, 6]]",
        "deployment = [[0, 0], [24, 6], [24, 0], [0, 6]]",
        "sides[0].deployment",
        "the outline of 'Road Wardens' crosses itself near (12, 3)",
    ),
    (
        "objective-off-the-table",
        "x = 12.0\ny = 8.0",
        "x = 12.0\ny = 80.0",
        "objectives[0].x, y",
        "'relic' at (12, 80) is off the 24 x 24 in table (allowed: x 0 to 24, y 0 to 24)",
    ),
    (
        "missing-side",
        '[[sides]]\nname = "Goblins"\nrole = "ai"\nedge = "back"\n'
        "deployment = [[0, 16], [24, 16], [24, 24], [0, 24]]\n",
        "",
        "sides",
        "1 [[sides]] entry given (allowed: 2 to 4)",
    ),
    (
        "a-word-for-a-number",
        "width_in = 24\n",
        'width_in = "wide"\n',
        "table.width_in",
        "a number is needed, not 'wide' (allowed: more than 0 and at most 240)",
    ),
    (
        "a-word-not-allowed",
        'role = "ai"',
        'role = "robot"',
        "sides[1].role",
        "'robot' is not allowed (allowed: 'ai', 'human' or 'neutral')",
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


@pytest.mark.parametrize(("name", "heading"), [("dungeon-crawl", 315), ("bosworth-street", 0)])
def test_a_nan_heading_is_refused_in_every_rule_system(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, heading: int
) -> None:
    """Before, the dungeon crashed on it (ValueError) and the card AI's street played on."""
    text = (BASE.parent / f"{name}.toml").read_text(encoding="utf-8")
    path = tmp_path / "nan.toml"
    path.write_text(text.replace(f"heading = {heading}\n", "heading = nan\n", 1), encoding="utf-8")
    assert main(["simulate", str(path), "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"{path}: units[0].heading: nan is not a number that can be used" in err, err


def test_a_file_nested_thousands_deep_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for depth, where in ((5000, ""), (40, "units[0].card.deep")):
        path = tmp_path / f"deep-{depth}.toml"
        nested = "[" * depth + "]" * depth
        text = BASE.read_text(encoding="utf-8")
        if where:
            text = text.replace("wound_slots = 1 }", f"wound_slots = 1, deep = {nested} }}", 1)
        else:
            text += f"\ndeep = {nested}\n"
        path.write_text(text, encoding="utf-8")
        assert main(["simulate", str(path), "--seed", "1"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert f"{path}: {where + ': ' if where else ''}tables or lists are nested too deep" in err
