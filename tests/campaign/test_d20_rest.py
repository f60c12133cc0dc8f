"""The d20 system's Recovery action and multi-day rule through the campaign store (issue 16,
RULES §5.b, D003-22), by the engine's own hooks: Recovery once per character between two
battles (half the total wounds, rounded up), every wound healed at dawn."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.campaign.helpers import campaign_copy, cli, show

CAMPAIGN = Path(__file__).with_name("d20-days.toml")
ALDO_ENDS_WITH_TWO_WOUNDS = 7  # a draw: Sir Aldo 2 wounds, Hrolf defeated


def _roster(capsys: pytest.CaptureFixture[str], db: Path) -> dict[str, dict[str, object]]:
    return {c["id"]: c for c in show(capsys, db)["roster"]}


def test_recovery_once_between_battles_and_a_full_heal_at_dawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d20.sqlite"
    cli(capsys, "campaign", "new", str(CAMPAIGN), "--db", str(db))
    seed = str(ALDO_ENDS_WITH_TWO_WOUNDS)
    cli(capsys, "campaign", "next", "--simulate", "--seed", seed, "--db", str(db))
    err = cli(capsys, "campaign", "recover", "Sir Aldo", "--speech", "off", "--db", str(db), code=2)
    assert "resolve the last battle's wounds first" in err
    cli(capsys, "campaign", "resolve", "--speech", "off", "--db", str(db))
    roster = _roster(capsys, db)
    assert (roster["aldo"]["wounds"], roster["aldo"]["wound_from"]) == (2, "the morning fight")
    assert roster["hrolf"]["wounds"] == 1  # defeated: back with every wound it can carry (A)

    out = cli(capsys, "campaign", "recover", "Sir Aldo", "--speech", "off", "--db", str(db))
    assert "Sir Aldo takes the Recovery action: 2 wound(s) before, 0 now." in out
    err = cli(capsys, "campaign", "recover", "aldo", "--speech", "off", "--db", str(db), code=2)
    assert "Sir Aldo has already recovered this session" in err
    cli(capsys, "campaign", "recover", "hrolf", "--speech", "off", "--db", str(db))
    roster = _roster(capsys, db)
    assert (roster["aldo"]["wounds"], roster["aldo"]["recovered"], roster["aldo"]["status"]) == (
        0,
        True,
        "fit",
    )
    before_evening = show(capsys, db)

    cli(capsys, "campaign", "next", "--simulate", "--seed", "4", "--db", str(db))
    assert not any(c["recovered"] for c in _roster(capsys, db).values())  # a new session
    said = cli(capsys, "campaign", "resolve", "--speech", "off", "--db", str(db))
    assert "Dawn before day2: a new day; every character rests, heals fully" in said
    roster = _roster(capsys, db)
    assert all(c["wounds"] == 0 and c["status"] == "fit" for c in roster.values())
    # Undo takes the evening back, the morning's Recovery with it as it was.
    cli(capsys, "campaign", "undo", "--db", str(db))
    assert show(capsys, db) == before_evening


def test_rules_without_recovery_refuse_it_and_a_dawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "n.sqlite"
    cli(capsys, "campaign", "new", "wardens-road", "--db", str(db))
    err = cli(capsys, "campaign", "recover", "ash", "--speech", "off", "--db", str(db), code=2)
    assert "the 'narrative' rules have no Recovery action" in err
    path = campaign_copy(tmp_path)
    text = path.read_text(encoding="utf-8").replace(
        'place = "the ford"\n', 'place = "the ford"\ndawn = true\n'
    )
    path.write_text(text, encoding="utf-8")
    err = cli(capsys, "campaign", "new", str(path), "--db", str(tmp_path / "x.sqlite"), code=2)
    assert "battles[1].dawn: the 'narrative' rules have no multi-day rule" in err
