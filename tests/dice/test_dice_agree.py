"""One reading decided from the pip reader's and the learned reader's (vision.dice.agree)."""

from __future__ import annotations

from vision.dice.agree import ALONE, PIPS_OVER_UNSURE, agree, decide
from vision.dice.types import SURE, DiceRead, DieFound, DieUnread, Unreadable


def _found(value: int, confidence: float, x: float = 100.0) -> DieFound:
    return DieFound(value, x, 50.0, confidence, side_px=30.0)


def _unsure(guess: int, confidence: float, x: float = 100.0) -> DieUnread:
    return DieUnread(Unreadable.UNSURE, x, 50.0, guess=guess, confidence=confidence)


def test_two_readers_agreeing_give_the_value() -> None:
    for tray in (False, True):
        got = decide(_found(4, 0.95), _found(4, 0.99), tray)
        assert isinstance(got, DieFound) and got.value == 4 and got.confidence >= SURE
        got = decide(_unsure(5, 0.6), _unsure(5, 0.8), tray)
        assert isinstance(got, DieFound) and got.value == 5 and got.confidence >= SURE


def test_two_values_that_differ_make_the_die_unsure() -> None:
    got = decide(_found(5, 0.95), _found(6, 0.99))
    assert isinstance(got, DieUnread) and got.reason is Unreadable.UNSURE
    assert got.guess == 6 and got.confidence < SURE


def test_a_learned_guess_against_a_pip_value_counts_in_a_picture_only() -> None:
    photo = decide(_found(5, 0.95), _unsure(6, 0.8), tray=False)
    assert isinstance(photo, DieUnread) and photo.guess == 5 and photo.confidence < SURE
    tray = decide(_found(5, 0.95), _unsure(6, 0.8), tray=True)
    assert isinstance(tray, DieFound) and tray.value == 5


def test_a_very_sure_pip_value_stands_against_an_unsure_learned_guess() -> None:
    """In a picture, a value the pip reader gives at PIPS_OVER_UNSURE or more is not made
    unsure by a learned guess under SURE (a four of a tuning photo guessed a six at 0.47)."""
    got = decide(_found(4, PIPS_OVER_UNSURE), _unsure(6, 0.47), tray=False)
    assert isinstance(got, DieFound) and got.value == 4 and got.confidence >= SURE
    below = decide(_found(4, PIPS_OVER_UNSURE - 0.02), _unsure(6, 0.47), tray=False)
    assert isinstance(below, DieUnread) and below.confidence < SURE
    both = decide(_found(4, 0.99), _found(6, 0.95), tray=False)  # both give a value: unsure
    assert isinstance(both, DieUnread) and both.confidence < SURE


def test_the_learned_reader_alone_gives_a_value_only_when_very_sure() -> None:
    assert decide(None, _found(3, ALONE - 0.01)) is None
    got = decide(None, _found(3, ALONE))
    assert isinstance(got, DieFound) and got.value == 3
    assert decide(None, _found(3, 0.999), tray=True) is None  # the tray reader finds dice
    assert decide(None, _unsure(3, 0.8)) is None
    unread = DieUnread(Unreadable.TOUCHING, 100.0, 50.0)
    got = decide(unread, _found(2, ALONE - 0.05))
    assert isinstance(got, DieUnread) and got.guess == 2 and got.confidence < SURE


def test_a_cocked_die_stays_cocked() -> None:
    cocked = DieUnread(Unreadable.COCKED, 100.0, 50.0)
    assert decide(cocked, _found(6, 0.99)) == cocked


def test_dice_are_matched_by_place() -> None:
    pips = DiceRead((_found(2, 0.99, x=100.0), _found(3, 0.99, x=200.0)), ())
    learned = DiceRead((_found(3, 0.99, x=204.0), _found(1, 0.99, x=300.0)), ())
    got = agree(pips, learned, tray=False)
    assert sorted(got.values) == [1, 2, 3] and not got.unreadable
    assert sorted(agree(pips, learned, tray=True).values) == [2, 3]


def test_a_die_the_readers_place_apart_is_one_die() -> None:
    """A slanted die: the pip reader centres it between its top and side faces, the learned
    reader on its top face, more than half a side apart. One die is reported, not two; dice
    a side apart (touching) stay two."""
    pips = DiceRead((_found(6, 0.92, x=100.0),), ())
    learned = DiceRead((_found(6, ALONE, x=100.0 + 0.6 * 30.0),), ())
    assert agree(pips, learned, tray=False).count == 1
    learned = DiceRead((_found(3, ALONE, x=100.0 + 30.0),), ())
    assert agree(pips, learned, tray=False).count == 2
