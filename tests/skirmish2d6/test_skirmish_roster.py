"""``soloscope roster new --ruleset skirmish2d6 FILE``: a new warband file from the template,
then checked; each refusal explained (T001B-09); bad files and unknown rulesets in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.cli import main

BAD = """
[[fighters]]
name = "Gorm"
skill = 3
speed = 3
armor = 1
role = "wizard"
weapons = ["maul", "shield"]

[[fighters]]
name = "Captain"
skill = 1
speed = 2
armor = 3
role = "hunter"
weapons = ["longsword", "longaxe"]
"""


def test_a_new_warband_is_written_and_checks_legal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "red-hand.toml"
    assert main(["roster", "new", "--ruleset", "skirmish2d6", str(path), "--name", "Red Hand"]) == 0
    assert "Wrote a new warband" in capsys.readouterr().out
    assert main(["roster", "new", "--ruleset", "skirmish2d6", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "  1. Captain: Skill 4, Speed 2, Armor 3; Champion; sword and shield"
    assert out[-1] == "Red Hand: 3 fighters, all legal."


def test_each_refusal_is_explained(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "red-hand.toml"
    assert main(["roster", "new", "--ruleset", "skirmish2d6", str(path)]) == 0
    path.write_text(path.read_text(encoding="utf-8") + BAD, encoding="utf-8")
    capsys.readouterr()
    assert main(["roster", "new", "--ruleset", "skirmish2d6", str(path)]) == 2
    out = capsys.readouterr().out
    assert "4. Gorm: refused: skill, speed and armor must be 1, 2 and 3" in out
    assert "role 'wizard' is not a role" in out
    assert "the two-handed maul leaves no hand for the shield" in out
    assert "5. Captain: refused: the name 'Captain' is used twice" in out
    assert "the two-handed longsword leaves no hand for the longaxe" in out
    assert out.splitlines()[-1] == "My Warband: 2 of 5 fighters refused."
    assert main(["roster", "new", "--ruleset", "skirmish2d6", str(path), "--json"]) == 2
    doc = json.loads(capsys.readouterr().out)
    assert doc["legal"] is False
    assert [f["legal"] for f in doc["fighters"]] == [True, True, True, False, False]
    assert doc["fighters"][0]["skill"] == 4


def test_bad_files_and_rulesets_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "w.toml"
    path.write_text("[warband\n", encoding="utf-8")
    assert main(["roster", "new", "--ruleset", "skirmish2d6", str(path)]) == 2
    assert "not valid TOML" in capsys.readouterr().out
    path.write_text('[warband]\nname = "X"\n', encoding="utf-8")
    assert main(["roster", "new", "--ruleset", "skirmish2d6", str(path)]) == 2
    assert "list at least one fighter" in capsys.readouterr().out
    assert main(["roster", "new", "--ruleset", "chess", str(path)]) == 2
    err = capsys.readouterr().err
    assert (
        err.strip()
        == "soloscope roster: no roster builder for ruleset 'chess' (known: skirmish2d6)"
    )
