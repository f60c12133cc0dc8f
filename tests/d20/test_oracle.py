"""Seed 003's narrative tools (RULES §5.b, T003-01, T003-02, D003-26), enumerated exactly
through the real functions with scripted dice."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from engine.dice import ScriptedDice
from engine.tools.oracle import (
    OracleError,
    OracleOutcome,
    SecretOutcome,
    ask_yes_no,
    oracle_outcome,
    search_for_secret,
    search_places,
    what_happens_next,
)

D20 = range(1, 21)


def _oracle_odds() -> dict[OracleOutcome, Fraction]:
    counts = Counter(what_happens_next(ScriptedDice([r])).outcome for r in D20)
    return {o: Fraction(n, 20) for o, n in counts.items()}


def test_t003_01_oracle_probabilities() -> None:
    odds = _oracle_odds()
    assert odds == {
        OracleOutcome.OPPOSITE_WITH_PENALTY: Fraction(1, 20),
        OracleOutcome.DOES_NOT_HAPPEN: Fraction(1, 4),
        OracleOutcome.HAPPENS_WITH_GOOD_TWIST: Fraction(3, 20),
        OracleOutcome.HAPPENS_WITH_BAD_TWIST: Fraction(3, 20),
        OracleOutcome.HAPPENS: Fraction(3, 10),
        OracleOutcome.HAPPENS_WITH_BENEFIT: Fraction(1, 10),
    }
    assert sum(p for o, p in odds.items() if o.happens) == Fraction(7, 10)
    twist = odds[OracleOutcome.HAPPENS_WITH_GOOD_TWIST] + odds[OracleOutcome.HAPPENS_WITH_BAD_TWIST]
    assert twist == Fraction(6, 20)


@pytest.mark.parametrize(
    ("roll", "outcome"),
    [
        (1, OracleOutcome.OPPOSITE_WITH_PENALTY),
        (2, OracleOutcome.DOES_NOT_HAPPEN),
        (6, OracleOutcome.DOES_NOT_HAPPEN),
        (7, OracleOutcome.HAPPENS_WITH_BAD_TWIST),
        (8, OracleOutcome.HAPPENS_WITH_GOOD_TWIST),
        (11, OracleOutcome.HAPPENS_WITH_BAD_TWIST),
        (12, OracleOutcome.HAPPENS_WITH_GOOD_TWIST),
        (13, OracleOutcome.HAPPENS),
        (18, OracleOutcome.HAPPENS),
        (19, OracleOutcome.HAPPENS_WITH_BENEFIT),
        (20, OracleOutcome.HAPPENS_WITH_BENEFIT),
    ],
)
def test_t003_01_oracle_boundaries(roll: int, outcome: OracleOutcome) -> None:
    dice = ScriptedDice([roll])
    answer = what_happens_next(dice, "Does the bridge hold?")
    assert (answer.roll, answer.outcome) == (roll, outcome)
    assert [(r.sides, r.result) for r in dice.rolls] == [(20, roll)]
    assert dice.rolls[0].purpose == "oracle, what happens next: Does the bridge hold?"


def test_t003_01_yes_no_is_even_with_its_boundary_at_11() -> None:
    answers = {r: ask_yes_no(ScriptedDice([r]), "Is the gate locked?").yes for r in D20}
    assert Fraction(sum(answers.values()), 20) == Fraction(1, 2)
    assert not answers[10] and answers[11] and not answers[1] and answers[20]
    dice = ScriptedDice([11])
    ask_yes_no(dice, "Is the gate locked?")
    assert dice.rolls[0].purpose == "oracle, yes or no: Is the gate locked?"


def test_t003_02_secret_is_there_on_16_or_more() -> None:
    found = {r: search_for_secret(ScriptedDice([r]), "a hidden door").outcome for r in D20}
    assert Fraction(sum(o.found for o in found.values()), 20) == Fraction(1, 4)
    assert found[15] is SecretOutcome.NOT_HERE and found[16] is SecretOutcome.FOUND
    dice = ScriptedDice([16])
    search_for_secret(dice, "a hidden door")
    assert dice.rolls[0].purpose == "secret: a hidden door"


@pytest.mark.parametrize("k", [1, 2, 3])
def test_t003_02_found_within_k_checks(k: int) -> None:
    """Every sequence of k d20s through a search of k places (the last one applies D003-26)."""
    outcomes: Counter[SecretOutcome] = Counter()
    for rolls in product(D20, repeat=k):
        outcomes[search_places(ScriptedDice(rolls), k, "the traitor")[-1].outcome] += 1
    total = 20**k
    assert Fraction(outcomes[SecretOutcome.FOUND], total) == 1 - Fraction(3, 4) ** k
    assert Fraction(outcomes[SecretOutcome.DOES_NOT_EXIST], total) == Fraction(3, 4) ** k
    if k == 3:
        assert Fraction(outcomes[SecretOutcome.FOUND], total) == Fraction(37, 64)


def test_d003_26_last_place_rule() -> None:
    # Not found anywhere, the secret optional: it does not exist (searches stop there).
    checks = search_places(ScriptedDice([3, 15, 10]), 3)
    assert [c.outcome for c in checks] == [
        SecretOutcome.NOT_HERE,
        SecretOutcome.NOT_HERE,
        SecretOutcome.DOES_NOT_EXIST,
    ]
    # The scenario says it exists: the failed last search finds it there.
    last = search_places(ScriptedDice([3, 15, 10]), 3, mandatory=True)[-1]
    assert last.outcome is SecretOutcome.FOUND_IN_LAST_PLACE and last.outcome.found
    # Found early: the search stops, the later places are never rolled.
    dice = ScriptedDice([17, 1, 1])
    assert [c.outcome for c in search_places(dice, 3)] == [SecretOutcome.FOUND]
    assert dice.remaining == 2
    # With the secret mandatory, every sequence of three rolls ends with it found.
    assert all(
        search_places(ScriptedDice(r), 3, mandatory=True)[-1].outcome.found
        for r in product(D20, repeat=3)
    )


def test_bad_die_and_places_are_named() -> None:
    with pytest.raises(OracleError, match="a d20 shows 1 to 20, not 21"):
        oracle_outcome(21)
    with pytest.raises(OracleError, match="at least one place"):
        search_places(ScriptedDice([1]), 0)
