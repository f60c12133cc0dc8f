"""Post-battle wound resolution, RULES D000-13 options A and B, with scripted and entered
dice (issue 16)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.campaign.resolve import entered_dice
from assistant.campaign.wounds import LOST, WOUNDED, BattleWounds, resolve, rolls_needed
from engine.dice import ScriptedDice
from tests.campaign.helpers import campaign_copy, cli, show

ASH = BattleWounds("ash", "Sergeant Ash", wounds=2, slots=2, fallen=False)
ROOK_FELL = BattleWounds("rook", "Shieldman Rook", wounds=1, slots=1, fallen=True)


def test_option_a_carries_wounds_and_fills_a_fallen_characters_slots() -> None:
    dice = ScriptedDice([])
    a = resolve("A", ASH, dice)
    assert (a.wounds, a.status, a.rolls) == (2, WOUNDED, ())
    fell = resolve("A", BattleWounds("ivy", "Ivy", 0, 3, True), dice)
    assert (fell.wounds, fell.status) == (3, WOUNDED)
    assert rolls_needed("A", [ASH, ROOK_FELL]) == 0


@pytest.mark.parametrize(("rolls", "carried"), [((4, 6), 0), ((3, 4), 1), ((1, 3), 2)])
def test_option_b_each_wound_heals_on_4_to_6(rolls: tuple[int, int], carried: int) -> None:
    r = resolve("B", ASH, ScriptedDice(rolls))
    assert (r.wounds, r.rolls) == (carried, rolls)


@pytest.mark.parametrize(
    ("roll", "status", "wounds"), [(1, LOST, 0), (2, LOST, 0), (3, WOUNDED, 1), (6, WOUNDED, 1)]
)
def test_option_b_fallen_lost_on_1_to_2(roll: int, status: str, wounds: int) -> None:
    r = resolve("B", ROOK_FELL, ScriptedDice([roll]))
    assert (r.status, r.wounds, r.rolls) == (status, wounds, (roll,))
    assert rolls_needed("B", [ASH, ROOK_FELL]) == 3


def test_entered_dice_ask_again_after_a_mistyped_result() -> None:
    answers = iter(["7", "x", "2"])
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    r = resolve("B", ROOK_FELL, entered_dice(ask))
    assert r.status == LOST and len(prompts) == 3
    assert prompts[0] == "Roll a d6 for Shieldman Rook: fallen, lost on 1-2: "


def test_resolve_with_physical_dice_typed_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``campaign resolve --dice physical``: the player rolls each d6 and types it (option B)."""
    db = tmp_path / "b.sqlite"
    cli(capsys, "campaign", "new", str(campaign_copy(tmp_path, "B")), "--db", str(db))
    cli(capsys, "campaign", "next", "--simulate", "--seed", "9", "--db", str(db))
    typed = iter(["5", "4"])  # Ivy fell: 5 returns her; Rook's wound: 4 heals it
    prompts: list[str] = []
    monkeypatch.setattr("builtins.input", lambda prompt: (prompts.append(prompt), next(typed))[1])
    args = ["campaign", "resolve", "--dice", "physical", "--speech", "off", "--db", str(db)]
    said = cli(capsys, *args)
    assert prompts == [
        "Roll a d6 for Crossbow Ivy: fallen, lost on 1-2: ",
        "Roll a d6 for Shieldman Rook: wound 1 heals on 4-6: ",
    ]
    assert (
        "Crossbow Ivy fell; rolled 5: returns unhurt (its card has no wound slots to fill)." in said
    )
    assert "Shieldman Rook rolled 4: every wound heals." in said
    assert all(c["status"] == "fit" for c in show(capsys, db)["roster"])
