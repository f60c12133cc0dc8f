"""Campaign files are validated like scenarios: one line naming the file, the field and what
is allowed; the roster must find a place in every battle's scenario (issue 16)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.campaign.files import load_campaign
from assistant.campaign.model import BattleNode, flags_set, next_battle
from tests.campaign.helpers import campaign_copy, cli


def test_bundled_campaign_loads_four_battles_deep_with_a_branch() -> None:
    loaded = load_campaign("wardens-road")
    info = loaded.campaign
    assert info.campaign.ruleset == "narrative" and len(info.roster) == 3
    shrine = info.node(info.campaign.start)
    assert {shrine.next["win"], shrine.next["lose"]} == {"ford", "ditch"}
    for branch in ("ford", "ditch"):
        assert info.node(branch).next["win"] == "tower"
    assert info.node("tower").next["win"] == "home"


def test_next_battle_reads_keys_in_order() -> None:
    node = BattleNode(
        id="a",
        scenario="x",
        flags={"relic": "scored:relic", "beaten": "lose"},
        next={"relic": "c", "win": "b", "lose": "end"},
    )
    assert next_battle(node, "win", set()) == "b"
    assert next_battle(node, "win", {"relic"}) == "c"
    assert next_battle(node, "lose", set()) is None
    assert next_battle(node, "draw", set()) is None  # no key: the campaign ends
    assert flags_set(node, "lose", {"relic"}, set()) == ["relic", "beaten"]
    assert flags_set(node, "win", set(), {"relic"}) == []


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("[campaign]", "[campagne]", "campaign: missing (a campaign file has a [campaign] table)"),
        ('start = "shrine"', 'start = "moon"', "campaign.start: 'moon' is not a battle"),
        (
            'wounds = "A"',
            'wounds = "C"',
            "campaign.wounds: 'C' is not allowed (allowed: 'A' or 'B')",
        ),
        ("tag = 17", "tag = 16", "roster[1].tag: tag 16 is already on 'Sergeant Ash'"),
        (
            "tag = 17",
            "tag = 3",
            "roster[1].tag: 3 is out of range (allowed: 16 or more and at most 49)",
        ),
        ('lose = "ditch"', 'lost = "ditch"', "battles[0].next.lost: not an outcome or a flag"),
        ('win = "ford"', 'win = "fjord"', "battles[0].next.win: 'fjord' is not a battle"),
        ('"scored:relic"', '"found:relic"', "battles[0].flags.relic-saved: 'found:relic' is not"),
        (
            'scenario = "ford-at-dawn"',
            'scenario = "nowhere"',
            "battles[1].scenario: no bundled scenario named 'nowhere'",
        ),
        ("tag = 18", "tag = 21", "battles[0].scenario: with the campaign's roster"),
        ("move_in = 5,", "move_in = -5,", "battles[0].scenario: with the campaign's roster"),
    ],
)
def test_bad_campaign_files_get_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, expected: str
) -> None:
    path = campaign_copy(tmp_path)
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    db = tmp_path / "c.sqlite"
    err = cli(capsys, "campaign", "new", str(path), "--db", str(db), code=2)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert expected in err, err
    assert not db.exists()


def test_a_fourth_character_finds_no_place_in_a_three_place_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = campaign_copy(tmp_path)
    extra = '\n[[roster]]\nname = "Archer Fen"\ntag = 19\ncard = { move_in = 6, attack = 1, defence = 0, wound_slots = 0 }\n'
    text = path.read_text(encoding="utf-8").replace("\n[[battles]]", extra + "\n[[battles]]", 1)
    path.write_text(text, encoding="utf-8")
    err = cli(capsys, "campaign", "new", str(path), "--db", str(tmp_path / "c.sqlite"), code=2)
    assert "Archer Fen has no place on the Road Wardens side" in err
