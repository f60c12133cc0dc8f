"""Seed 003's narrative tools (RULES §5.b): what happens next, yes or no, and secrets.

Each is one logged d20 roll read on a table; the reading of a result (``oracle_outcome``,
``yes_no_outcome``, ``secret_outcome``) is a pure function of the die, so the odds are
enumerated through the same code the table uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.dice import RandomSource
from engine.errors import EngineError

ORACLE_DIE = 20
"""Every narrative tool rolls one d20."""

SECRET_THRESHOLD = 16
"""A secret is there on a d20 roll of this or more (P = 1/4)."""

YES_FROM = 11
"""A yes/no question is answered "yes" on this or more (P = 1/2)."""


class OracleError(EngineError, ValueError):
    """A narrative tool was given something it cannot read (a die that is not a d20 result)."""


class OracleOutcome(StrEnum):
    """The what-happens-next table (RULES §5.b); the value is the ``result`` the CLI prints."""

    OPPOSITE_WITH_PENALTY = "opposite-with-penalty"
    """d20 = 1: the opposite happens, and the heroes take an extra penalty."""
    DOES_NOT_HAPPEN = "does-not-happen"
    """2 to 6."""
    HAPPENS_WITH_BAD_TWIST = "happens-with-bad-twist"
    """7, 9 or 11: it happens, with a twist against the heroes (odd roll)."""
    HAPPENS_WITH_GOOD_TWIST = "happens-with-good-twist"
    """8, 10 or 12: it happens, with a twist in the heroes' favour (even roll)."""
    HAPPENS = "happens"
    """13 to 18."""
    HAPPENS_WITH_BENEFIT = "happens-with-benefit"
    """19 or 20: it happens, with an extra benefit for the heroes."""

    @property
    def happens(self) -> bool:
        """Whether the stated event takes place in some form (rolls 7 to 20)."""
        return self not in (OracleOutcome.OPPOSITE_WITH_PENALTY, OracleOutcome.DOES_NOT_HAPPEN)


ORACLE_WORDS: dict[OracleOutcome, str] = {
    OracleOutcome.OPPOSITE_WITH_PENALTY: "the opposite happens, with an extra penalty for the heroes",
    OracleOutcome.DOES_NOT_HAPPEN: "it does not happen",
    OracleOutcome.HAPPENS_WITH_BAD_TWIST: "it happens, but with a bad twist",
    OracleOutcome.HAPPENS_WITH_GOOD_TWIST: "it happens, with a good twist",
    OracleOutcome.HAPPENS: "it happens",
    OracleOutcome.HAPPENS_WITH_BENEFIT: "it happens, with an extra benefit for the heroes",
}
"""Each oracle outcome in words, for the page, the speech and the command line."""


class SecretOutcome(StrEnum):
    """What one search for a secret finds (RULES §5.b, D003-26)."""

    FOUND = "found"
    """The d20 showed 16 or more: the secret is here."""
    NOT_HERE = "not-here"
    """Not found here; other places are left to search."""
    FOUND_IN_LAST_PLACE = "found-in-last-place"
    """The roll failed, but this was the last possible place and the secret must exist: it is here."""
    DOES_NOT_EXIST = "does-not-exist"
    """Not found in the last possible place and the secret need not exist: there is none."""

    @property
    def found(self) -> bool:
        """Whether the secret is here."""
        return self in (SecretOutcome.FOUND, SecretOutcome.FOUND_IN_LAST_PLACE)


SECRET_WORDS: dict[SecretOutcome, str] = {
    SecretOutcome.FOUND: "the secret is here",
    SecretOutcome.NOT_HERE: "nothing here",
    SecretOutcome.FOUND_IN_LAST_PLACE: (
        "not found by the roll, but this is the last possible place, so the secret is here"
    ),
    SecretOutcome.DOES_NOT_EXIST: (
        "nothing here, and every place has now been searched: the secret does not exist"
    ),
}
"""Each secret outcome in words."""


@dataclass(frozen=True)
class OracleAnswer:
    """One roll on the what-happens-next table."""

    question: str
    """The event the player stated ("Does the bridge hold?"); may be empty."""
    roll: int
    """The d20, 1..20."""
    outcome: OracleOutcome


@dataclass(frozen=True)
class YesNoAnswer:
    """One yes/no question."""

    question: str
    roll: int
    """The d20, 1..20."""
    yes: bool


@dataclass(frozen=True)
class SecretCheck:
    """One search of one place for a secret."""

    secret: str
    """What is searched for ("a hidden door"); may be empty."""
    roll: int
    """The d20, 1..20."""
    outcome: SecretOutcome


def _check_roll(roll: int) -> None:
    if not 1 <= roll <= ORACLE_DIE:
        raise OracleError(f"a d20 shows 1 to 20, not {roll}")


def oracle_outcome(roll: int) -> OracleOutcome:
    """The what-happens-next result for a d20 roll (RULES §5.b)."""
    _check_roll(roll)
    if roll == 1:
        return OracleOutcome.OPPOSITE_WITH_PENALTY
    if roll <= 6:
        return OracleOutcome.DOES_NOT_HAPPEN
    if roll <= 12:
        return (
            OracleOutcome.HAPPENS_WITH_GOOD_TWIST
            if roll % 2 == 0
            else OracleOutcome.HAPPENS_WITH_BAD_TWIST
        )
    if roll <= 18:
        return OracleOutcome.HAPPENS
    return OracleOutcome.HAPPENS_WITH_BENEFIT


def yes_no_outcome(roll: int) -> bool:
    """True ("yes") on 11 to 20, False ("no") on 1 to 10."""
    _check_roll(roll)
    return roll >= YES_FROM


def secret_outcome(
    roll: int, *, last_place: bool = False, mandatory: bool = False
) -> SecretOutcome:
    """What a search finds with this d20 (RULES §5.b, D003-26).

    ``last_place``: every other possible place has been searched without success.
    ``mandatory``: the scenario says the secret exists (flag ``secret_mandatory``); a failed
    search of the last place then finds it there anyway; otherwise it does not exist.
    """
    _check_roll(roll)
    if roll >= SECRET_THRESHOLD:
        return SecretOutcome.FOUND
    if not last_place:
        return SecretOutcome.NOT_HERE
    return SecretOutcome.FOUND_IN_LAST_PLACE if mandatory else SecretOutcome.DOES_NOT_EXIST


def _purpose(tool: str, text: str) -> str:
    return f"{tool}: {text}" if text else tool


def what_happens_next(dice: RandomSource, question: str = "") -> OracleAnswer:
    """Roll the what-happens-next oracle for a stated event (one logged d20)."""
    roll = dice.roll(ORACLE_DIE, _purpose("oracle, what happens next", question))
    return OracleAnswer(question, roll, oracle_outcome(roll))


def ask_yes_no(dice: RandomSource, question: str = "") -> YesNoAnswer:
    """Answer a yes/no question (one logged d20)."""
    roll = dice.roll(ORACLE_DIE, _purpose("oracle, yes or no", question))
    return YesNoAnswer(question, roll, yes_no_outcome(roll))


def search_for_secret(
    dice: RandomSource, secret: str = "", *, last_place: bool = False, mandatory: bool = False
) -> SecretCheck:
    """Search one place for a secret (one logged d20; see :func:`secret_outcome`)."""
    roll = dice.roll(ORACLE_DIE, _purpose("secret", secret))
    return SecretCheck(
        secret, roll, secret_outcome(roll, last_place=last_place, mandatory=mandatory)
    )


def search_places(
    dice: RandomSource, places: int, secret: str = "", *, mandatory: bool = False
) -> tuple[SecretCheck, ...]:
    """Search ``places`` possible places in turn until the secret is found or none is left.

    The last search applies the last-place rule (D003-26). Returns every search made.
    """
    if places < 1:
        raise OracleError(f"a secret needs at least one place to search, not {places}")
    checks: list[SecretCheck] = []
    for i in range(places):
        check = search_for_secret(dice, secret, last_place=i == places - 1, mandatory=mandatory)
        checks.append(check)
        if check.outcome is not SecretOutcome.NOT_HERE:
            break
    return tuple(checks)
