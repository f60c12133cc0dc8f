"""The replay's chance search: breadth first, so every outcome of a short re-roll chain is
found; seen dice taken in order instead of branching (issue 10)."""

from __future__ import annotations

from assistant.replay.engine_branches import BranchingDice, branches, seen_branches
from engine.rulesets.dungeon.tactics import roll_patrol
from tests.dungeon.boards import started


def test_every_outcome_of_a_d8_table_with_a_re_roll_chain_is_found_in_64_branches() -> None:
    # the d8 patrol table rolls again for the turn after a 3, while the re-roll shows 1 to 3
    figures = [("e", "goblin", (4, 4), 0, "enemy"), ("h", "thief", (0, 7), 0, "hero")]
    unit = started(8, 8, figures).unit("e")
    found = branches(lambda dice: roll_patrol(unit, dice)[:2], 64)
    results = {value for value, _ in found}
    # 7 rolls without a turn re-roll, and a 3 followed by each of the 5 turns 4..8
    assert results == {(r, None) for r in (1, 2, 4, 5, 6, 7, 8)} | {(3, t) for t in range(4, 9)}


def test_seen_dice_are_taken_in_order_and_a_die_of_another_size_branches() -> None:
    def attempt(dice: BranchingDice) -> tuple[int, int, int]:
        return dice.roll(6, "a"), dice.roll(4, "b"), dice.roll(6, "c")

    found = seen_branches(attempt, (5, 2))
    assert [v for v, _ in found] == [(5, b, 2) for b in range(1, 5)]
    assert all(d.used == 2 and not d.all_seen for _, d in found)
    # more d6 asked than seen: no story of this footage
    assert seen_branches(attempt, (5,)) == []
    # an unread roll branches on its die but is still one of the seen dice
    unread = seen_branches(lambda d: (d.roll(6, "a"), d.roll(6, "b")), (None, 3))
    assert [v for v, _ in unread] == [(a, 3) for a in range(1, 7)]
    # with no seen dice at all, every die branches as before
    assert len(seen_branches(attempt, None)) == 6 * 4 * 6
