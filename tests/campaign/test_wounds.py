"""Post-battle wound resolution, RULES D000-13 options A and B, with scripted and entered
dice (issue 16)."""

from __future__ import annotations

import pytest

from assistant.campaign.resolve import entered_dice
from assistant.campaign.wounds import LOST, WOUNDED, BattleWounds, resolve, rolls_needed
from engine.dice import ScriptedDice

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
