"""Exact chance outcomes (engine/chance.py, ``Ruleset.chance_outcomes``): the walk itself, every
system's chance steps and rolling actions in a seeded battle, and the derived odds of RULES.md
(T000-01, T001A-01, T001B-01/03, T002-01, T003-06, the seed-004 patrol table and wound chances)
read from the outcomes of the real ``apply``."""

from __future__ import annotations

from fractions import Fraction

import pytest

from assistant.scenarios import load_game
from engine.actions import Action, ActionKind, EventType
from engine.chance import (
    ChanceLimitError,
    ChanceMismatchError,
    chance_of,
    draws_probability,
    log_probability,
    outcomes_of,
    picks_of,
    reroll_until,
    roll_pool,
    walk,
)
from engine.dice import RandomSource, ScriptedDice, SeededDice, Shuffle
from engine.errors import EngineError
from engine.model import GameState
from engine.protocols import PendingKind, Ruleset
from engine.runner import acting_side, controllers_for, next_action, with_order_memory


def _two_d6(dice: RandomSource) -> int:
    return dice.roll(6, "first") + dice.roll(6, "second")


# ------------------------------------------------------------------------- the walk
def test_two_dice_sum_is_the_triangle_in_exact_fractions() -> None:
    outcomes = dict(outcomes_of(_two_d6))
    assert outcomes == {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}
    assert all(isinstance(p, Fraction) for p in outcomes.values())


def test_a_draw_weighs_copies_and_a_shuffle_is_one_hidden_outcome() -> None:
    def run(dice: RandomSource) -> tuple[str, str]:
        pile = dice.shuffle("d", ("joker", "AS", "joker", "KH"), "shuffle")
        first = dice.draw("d", pile, "first")
        rest = list(pile)
        rest.remove(first)
        return first, dice.draw("d", rest, "second")

    leaves = list(walk(run))
    assert sum(lf.probability for lf in leaves) == 1
    firsts = dict(outcomes_of(run, key=lambda v: v[0]))
    assert {v[0]: p for v, p in firsts.items()} == {
        "joker": Fraction(1, 2),
        "AS": Fraction(1, 4),
        "KH": Fraction(1, 4),
    }
    both_jokers = chance_of(outcomes_of(run), lambda v: v == ("joker", "joker"))
    assert both_jokers == Fraction(1, 2) * Fraction(1, 3)


def test_a_pool_branches_over_multisets_with_the_chances_of_single_dice() -> None:
    pooled = dict(outcomes_of(lambda d: roll_pool(d, 3, 6, "die {}".format)))
    single = dict(outcomes_of(lambda d: tuple(sorted(d.roll(6, f"die {k}") for k in range(3)))))
    assert pooled == single
    assert len(pooled) == 56  # C(8, 3) multisets, not 216 orders
    # Seeded dice roll the pool one die at a time: the same stream as three rolls.
    a, b = SeededDice(7), SeededDice(7)
    assert roll_pool(a, 3, 6, "die {}".format) == tuple(sorted(b.roll(6, "x") for _ in range(3)))


def test_a_reroll_loop_is_finite_and_exact() -> None:
    def roll_off(dice: RandomSource) -> str:
        (a, b), _ = reroll_until(
            dice, lambda d: (d.roll(6, "a"), d.roll(6, "b")), lambda p: p[0] != p[1]
        )
        return "a" if a > b else "b"

    assert dict(outcomes_of(roll_off)) == {"a": Fraction(1, 2), "b": Fraction(1, 2)}
    # Weighing a story with two ties before the result counts every die.
    assert draws_probability(roll_off, [3, 3, 5, 5, 6, 1]) == Fraction(1, 6**6)
    dice = ScriptedDice([2, 2, 4, 1])
    assert reroll_until(dice, lambda d: (d.roll(6, "a"), d.roll(6, "b")), lambda p: p[0] != p[1]) == ((4, 1), ((2, 2),))  # fmt: skip


def test_the_walk_stops_at_its_limit_with_a_named_error() -> None:
    with pytest.raises(ChanceLimitError, match="eight dice.*more than 100 runs"):
        outcomes_of(lambda d: [d.roll(6, "x") for _ in range(8)], limit=100, what="eight dice")


def test_a_depth_walk_is_exact_for_the_first_draws() -> None:
    leaves = list(walk(lambda d: [d.roll(6, "x") for _ in range(8)], depth=1))
    assert len(leaves) == 6 and sum(lf.probability for lf in leaves) == 1
    assert [lf.draws for lf in leaves][2] == (3, 1, 1, 1, 1, 1, 1, 1)


def test_draws_probability_weighs_impossible_and_mismatched_stories() -> None:
    assert draws_probability(_two_d6, [6, 6]) == Fraction(1, 36)
    assert draws_probability(_two_d6, [7, 1]) == 0
    assert log_probability(Fraction(0)) == float("-inf")
    with pytest.raises(ChanceMismatchError, match="more than the 1 draws"):
        draws_probability(_two_d6, [6])
    with pytest.raises(ChanceMismatchError, match="makes 2 draws, not the 3 given"):
        draws_probability(_two_d6, [6, 6, 6])


# ------------------------------------------------------------ every system, in a battle
BATTLES = {
    "narrative": ("crossroads-ambush", {"chance", "shoot", "move_into_melee"}),
    "narrative card AI": ("crossroads-cards", {"chance"}),
    "strike": ("strike-causeway", {"choose"}),
    "skirmish2d6": ("skirmish-cairns", {"chance", "charge"}),
    "firefight-lite": ("bosworth-street", {"chance", "move_and_fire"}),
    "d20": ("d20-basic-battle", {"chance"}),
    "dungeon": ("dungeon-crawl", {"chance", "attack"}),
}
LIMIT = 1500
"""Runs a step's walk may take here (larger trees are skipped: the limit test covers them)."""


def _replayed(ruleset: Ruleset, state: GameState, action: Action, draws: tuple[object, ...]):  # type: ignore[no-untyped-def]
    dice = ScriptedDice(
        [d for d in draws if isinstance(d, int)], [d for d in draws if isinstance(d, str)]
    )
    outcome = ruleset.apply(state, action, dice)
    assert dice.remaining == 0
    return outcome


@pytest.mark.parametrize("system", sorted(BATTLES))
def test_every_random_step_of_a_battle_has_exact_outcomes_that_apply_reproduces(
    system: str,
) -> None:
    """For each step of a seeded battle whose apply draws: the outcomes sum to exactly 1, each
    outcome's draws replayed through apply give its state and events, the battle's own result
    is one of them (when no shuffle hid the order), and its draws weigh what the walk says."""
    name, kinds = BATTLES[system]
    scenario, ruleset, state = load_game(name)
    controllers = controllers_for(scenario)
    dice = SeededDice(1)
    planned: list[Action] = []
    seen: set[str] = set()
    for _ in range(70):
        chosen = next_action(state, ruleset, controllers, dice, planned)
        if chosen is None:
            break
        action, order = chosen
        before = len(dice.log)
        outcome = ruleset.apply(state, action, dice)
        log = dice.log[before:]
        if log:
            try:
                outcomes = ruleset.chance_outcomes(state, action, limit=LIMIT)
            except ChanceLimitError:
                outcomes = None
            if outcomes is not None:
                seen.add(str(action.kind))
                assert sum(p for _, p in outcomes) == 1
                assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
                for result, p in outcomes[:40]:
                    again = _replayed(ruleset, state, action, result.draws[0])
                    assert (again.state, again.events) == (result.state, result.events)
                    # Each draw sequence is one way to it (a pool or a re-roll loop adds more).
                    weights = [ruleset.draws_probability(state, action, d) for d in result.draws]
                    assert all(w > 0 for w in weights) and sum(weights) <= p
                if not any(isinstance(e, Shuffle) for e in log):
                    mine = [
                        p
                        for r, p in outcomes
                        if r.state == outcome.state and r.events == outcome.events
                    ]
                    assert len(mine) == 1, f"{action.kind}: the battle's own outcome is not listed"
            assert ruleset.draws_probability(state, action, picks_of(log)) > 0
        state = with_order_memory(outcome.state, acting_side(state, action), order)
    assert kinds <= seen, f"{name}: walked {sorted(seen)}"


def test_a_step_without_draws_has_one_outcome_and_a_decision_is_not_a_chance_step() -> None:
    _scenario, ruleset, state = load_game("crossroads-ambush")
    outcomes = ruleset.chance_outcomes(state)  # the initiative roll
    assert [p for _, p in outcomes] == [Fraction(1, 2)] * 2 or len(outcomes) == 6
    assert sum(p for _, p in outcomes) == 1
    after = outcomes[0][0].state
    assert ruleset.pending(after).kind is not PendingKind.CHANCE
    with pytest.raises(EngineError, match="not a chance step"):
        ruleset.chance_outcomes(after)
    passing = Action(ActionKind.PASS, side=ruleset.pending(after).side)
    if not ruleset.validate(after, passing):
        (only,) = ruleset.chance_outcomes(after, passing)
        assert only[1] == 1 and only[0].draws == ((),)
