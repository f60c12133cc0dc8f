"""The likeliest leaves of a step's draws, found best first (engine/chance.py ``likeliest``):
what the replay weighs an Oracle pool of many dice by, when every pool is too many to walk."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from engine import chance
from engine.chance import likeliest, outcomes_of, roll_pool, walk
from engine.dice import RandomSource


def _two_pools(dice: RandomSource) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two sides' pools of eight d6 each (strike's Oracle phase): 1,287 pools a side."""
    return roll_pool(dice, 8, 6, "a {}".format), roll_pool(dice, 8, 6, "b {}".format)


def test_a_small_step_is_walked_whole_likeliest_first() -> None:
    def run(dice: RandomSource) -> int:
        return dice.roll(6, "a") + dice.roll(6, "b")

    leaves, complete = likeliest(run, count=36)
    assert complete and len(leaves) == 36
    merged: dict[int, Fraction] = {}
    for leaf in leaves:
        merged[leaf.value] = merged.get(leaf.value, Fraction(0)) + leaf.probability
    assert merged == dict(outcomes_of(run))
    assert [lf.probability for lf in leaves] == sorted(
        (lf.probability for lf in leaves), reverse=True
    )


def test_a_chain_of_single_dice_is_not_cut_by_the_order_of_the_faces() -> None:
    # every way of eight d6 is as likely as every other: keeping "the likeliest" 32 would keep
    # the first faces in order, so none is kept and the caller searches otherwise
    leaves, complete = likeliest(lambda d: [d.roll(6, "x") for _ in range(8)], count=32)
    assert not complete and not leaves


def test_a_step_cut_at_its_limit_says_it_is_not_complete() -> None:
    leaves, complete = likeliest(_two_pools, count=10, limit=5)
    assert not complete and len(leaves) <= 5


def test_two_large_pools_give_their_likeliest_pools_within_a_few_runs() -> None:
    leaves, complete = likeliest(_two_pools, count=10, limit=200)
    assert not complete and len(leaves) == 10
    probabilities = [lf.probability for lf in leaves]
    assert probabilities == sorted(probabilities, reverse=True)
    # the likeliest pool of eight d6 holds two pairs and four singles (8!/(2!2!) orders)
    best = Fraction(10080, 6**8)
    assert probabilities[0] == best * best
    a, _ = leaves[0].value
    assert sorted(a.count(f) for f in range(1, 7)) == [1, 1, 1, 1, 2, 2]
    assert len(leaves[0].draws) == 16 and leaves[0].draws[:8] == a


def test_the_ways_a_pool_can_fall_are_worked_out_once_per_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # every run of the step meets the same two pools: their 1,287 ways each are worked out
    # once per search and shared by the runs, not once per run
    made: list[tuple[int, int]] = []
    real = chance._pool_options

    def counted(n: int, sides: int) -> list[tuple[object, Fraction]]:
        made.append((n, sides))
        return real(n, sides)

    monkeypatch.setattr(chance, "_pool_options", counted)
    leaves, _ = likeliest(_two_pools, count=8)
    assert leaves and made == [(8, 6)]
    made.clear()
    assert outcomes_of(lambda d: roll_pool(d, 3, 6, "c {}".format)) and made == [(3, 6)]


def _beam(run: Callable[[RandomSource], object], count: int) -> list[tuple[object, Fraction]]:
    """The search :func:`likeliest` makes, written plainly: after each draw, every way so far
    ranked by its exact chance (equal ones in the order met), the first ``count`` followed."""
    frontier: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    found: list[tuple[object, Fraction]] = []
    while frontier:
        children = []
        for prefix, probability in frontier:
            leaves = list(walk(run, depth=len(prefix) + 1, given=prefix))
            if len(leaves[0].draws) == len(prefix):
                found.append((leaves[0].value, probability))
                continue
            children += [
                (lf.draws[: len(prefix) + 1], probability * lf.probability) for lf in leaves
            ]
        children.sort(key=lambda child: -child[1])
        even = bool(children) and children[0][1] == children[-1][1]
        frontier = [] if len(children) > count and even else children[:count]
    return sorted(found, key=lambda f: -f[1])


def test_the_likeliest_ways_are_the_plain_beam_s_in_its_order() -> None:
    # a die whose face decides how many more are rolled, each weighted 1-3 twice as often
    # as 4-6: uneven chances, ties among them, and draws that depend on earlier ones
    def run(dice: RandomSource) -> tuple[int, ...]:
        first = dice.roll(3, "how many")
        weights = ("1", "1", "2", "2", "3", "3", "4", "5", "6")
        return (first, *(int(dice.draw("w", weights, f"die {k}")) for k in range(first)))

    for count in (0, 1, 4, 9, 30):
        leaves, _ = likeliest(run, count=count)
        assert [(lf.value, lf.probability) for lf in leaves] == _beam(run, count)
