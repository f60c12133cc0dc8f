"""The d20 system's Recovery action and multi-day rule through the campaign store (issue 16,
RULES §5.b, D003-22), by the engine's own hooks: Recovery once per character between two
battles (half the total wounds, rounded up), every wound healed at dawn."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.campaign.store import BattleResult, CampaignStore
from assistant.campaign.wounds import BattleWounds
from tests.campaign.helpers import campaign_copy, cli, show

CAMPAIGN = Path(__file__).with_name("d20-days.toml")


def _morning_fight(db: Path) -> None:
    """The first battle's result, written as the store writes any battle: Sir Aldo stands with
    2 of his 3 wounds, Hrolf was defeated (how a d20 battle goes is not this test's subject)."""
    with CampaignStore.open(db) as store:
        store.record_battle(
            BattleResult(
                node="day1-morning",
                scenario="d20-basic-battle",
                seed=None,
                outcome="draw",
                run_dir="",
                next_node="day1-evening",
                flags=(),
                units=(
                    (BattleWounds("aldo", "Sir Aldo", 2, 2, False), 1),
                    (BattleWounds("bryn", "Bryn the Archer", 0, 1, False), 0),
                    (BattleWounds("hrolf", "Hrolf", 1, 1, True), 0),
                ),
            )
        )


def _roster(capsys: pytest.CaptureFixture[str], db: Path) -> dict[str, dict[str, object]]:
    return {c["id"]: c for c in show(capsys, db)["roster"]}


def test_recovery_once_between_battles_and_a_full_heal_at_dawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d20.sqlite"
    cli(capsys, "campaign", "new", str(CAMPAIGN), "--db", str(db))
    _morning_fight(db)
    err = cli(capsys, "campaign", "recover", "Sir Aldo", "--speech", "off", "--db", str(db), code=2)
    assert "resolve the last battle's wounds first" in err
    cli(capsys, "campaign", "resolve", "--speech", "off", "--db", str(db))
    roster = _roster(capsys, db)
    assert (roster["aldo"]["wounds"], roster["aldo"]["wound_from"]) == (2, "the morning fight")
    assert roster["hrolf"]["wounds"] == 1  # defeated: back with every wound it can carry (A)

    out = cli(capsys, "campaign", "recover", "Sir Aldo", "--speech", "off", "--db", str(db))
    assert "Sir Aldo takes the Recovery action: 2 wounds before, 0 now." in out
    err = cli(capsys, "campaign", "recover", "aldo", "--speech", "off", "--db", str(db), code=2)
    assert "Sir Aldo has already recovered this session" in err
    roster = _roster(capsys, db)
    assert (roster["aldo"]["wounds"], roster["aldo"]["recovered"], roster["aldo"]["status"]) == (
        0,
        True,
        "fit",
    )
    cli(capsys, "campaign", "recover", "hrolf", "--speech", "off", "--db", str(db))
    assert _roster(capsys, db)["hrolf"]["wounds"] == 0  # 1 - ceil(2 / 2)
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
