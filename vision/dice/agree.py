"""One reading from the dice reader's two readers of the same view: the pip reader (the tray
reader, :mod:`vision.dice.reader`, or the photo reader, :mod:`vision.dice.photo`) and the
learned reader (:mod:`vision.dice.learned`). Each die one of them sees is matched to the die
of the other that lies nearest it (within half a die's side); then, per die:

- both give the same value, or one gives it and the other guesses it: that value;
- one gives a value and the other guesses another, or both give different ones: unsure; but
  in a tray's view a value the pip reader gives stands unless the learned reader gives
  another (on the project's rendered trays the tray reader gives no wrong value, and the
  learned reader's guesses there are weaker than its guesses on photos), and in a whole
  picture so does one it gives at :data:`PIPS_OVER_UNSURE` or more;
- the learned reader gives a value where the pip reader saw nothing or nothing readable (no
  guess): the value only when the learned reader is :data:`ALONE` sure or more;
- neither gives a value but both guess the same one, the learned reader with at least
  :data:`AGREE_LEARNED` and the pip reader with :data:`AGREE_PIPS`: that value, at the
  confidence :data:`SURE`;
- a die the pip reader calls cocked stays cocked (the player re-rolls it);
- a die only the pip reader sees is reported as it says; a die only the learned reader sees is
  reported only in a whole picture, only when it gives a value (:data:`ALONE`) and only where
  it lies on no die already reported (:data:`SAME_DIE`): its unsure
  finds are mostly specks, and in a tray's view the pip reader alone finds the dice (it knows
  where a die's side faces lean into the view; the learned finder takes a side face that
  leans toward the camera for a second die).

:data:`ALONE`, :data:`AGREE_LEARNED` and :data:`AGREE_PIPS` were chosen on the tuning half of
the real photos (``vision.dice.train.realset``; the held-out half was not used): the least learned
confidence alone that gave no wrong value there. An unsure die carries the guess of the
reader surer of it, its confidence kept under :data:`SURE`.
"""

from __future__ import annotations

import math
import statistics

from vision.dice.types import SURE, DiceRead, DieFound, DieUnread, Unreadable

ALONE = 0.97
"""Least learned confidence for a value the pip reader has no guess for."""
AGREE_LEARNED = 0.7
"""Least learned confidence of a guess the pip reader's guess agrees with to give the value."""
AGREE_PIPS = 0.5
"""Least pip-reader confidence of that agreeing guess."""
PIPS_OVER_UNSURE = 0.97
"""Least pip-reader confidence of a value that stands where the learned reader is unsure and
guesses another (in a whole picture): on the tuning photos the photo reader gave 43 values
at 0.97 or more, none wrong (one wrong at 0.96), and two of them, both right, were made
unsure by such a guess (a four guessed a six at 0.47, a two guessed a one at 0.84)."""
SAME_DIE = 0.75
"""Dice whose centres lie closer than this many sides are one die (touching dice lie a side
or more apart)."""
UNSURE_CAP = SURE - 0.01
"""Highest confidence an unsure die is reported with."""
DEFAULT_SIDE_PX = 30.0
"""A die's side, image pixels, when neither reader measured one."""

Die = DieFound | DieUnread


def _guess(d: Die | None) -> int | None:
    if d is None:
        return None
    return d.value if isinstance(d, DieFound) else d.guess


def _typical_side(*readings: DiceRead) -> float:
    sides = [d.side_px for r in readings for d in r.dice if d.side_px > 0]
    return statistics.median(sides) if sides else DEFAULT_SIDE_PX


def _pairs(pips: list[Die], learned: list[Die], reach: float) -> list[tuple[int, int]]:
    """Index pairs (pip reader's die, learned reader's die), nearest first, each die once."""
    near = sorted(
        (math.hypot(a.x_px - b.x_px, a.y_px - b.y_px), i, j)
        for i, a in enumerate(pips)
        for j, b in enumerate(learned)
    )
    used_a: set[int] = set()
    used_b: set[int] = set()
    out = []
    for dist, i, j in near:
        if dist > reach:
            break
        if i in used_a or j in used_b:
            continue
        used_a.add(i)
        used_b.add(j)
        out.append((i, j))
    return out


def _unsure(at: Die, guess: int | None, confidence: float) -> DieUnread:
    return DieUnread(
        Unreadable.UNSURE,
        at.x_px,
        at.y_px,
        at.tray_mm,
        guess=guess,
        confidence=min(confidence, UNSURE_CAP) if guess is not None else 0.0,
    )


def _found(at: Die, value: int, confidence: float, side_px: float) -> DieFound:
    return DieFound(value, at.x_px, at.y_px, confidence, side_px=side_px, tray_mm=at.tray_mm)


def decide(p: Die | None, q: Die | None, tray: bool = False) -> Die | None:
    """One die from the pip reader's ``p`` and the learned reader's ``q`` (either may be
    None: not seen by that reader; where both saw it, it is where the pip reader saw it) in a
    tray's view (``tray``) or a whole picture; None: not reported."""
    if p is not None and q is None:
        return p
    assert q is not None
    if p is None:
        found_alone = isinstance(q, DieFound) and q.confidence >= ALONE
        return q if found_alone and not tray else None
    if isinstance(p, DieUnread) and p.reason is Unreadable.COCKED:
        return p
    pv, qv = _guess(p), _guess(q)
    side = max(d.side_px if isinstance(d, DieFound) else 0.0 for d in (p, q))
    if isinstance(p, DieFound) and isinstance(q, DieFound):
        if p.value == q.value:
            return _found(p, q.value, max(p.confidence, q.confidence), side)
        return _unsure(p, q.value if q.confidence >= p.confidence else p.value, 0.5)
    if isinstance(p, DieFound):
        if qv is None or qv == p.value or tray or p.confidence >= PIPS_OVER_UNSURE:
            return _found(p, p.value, p.confidence, side)
        return _unsure(p, p.value, p.confidence)
    if isinstance(q, DieFound):
        if (pv is None and q.confidence >= ALONE) or pv == q.value:
            return _found(p, q.value, q.confidence, side)
        return _unsure(p, q.value, q.confidence)
    if qv is not None and pv == qv and q.confidence >= AGREE_LEARNED and p.confidence >= AGREE_PIPS:
        return _found(p, qv, SURE, side)
    if isinstance(q, DieUnread) and q.reason is not Unreadable.UNSURE and qv is None:
        return q if pv is None else _unsure(p, pv, p.confidence)
    if qv is None:
        return _unsure(p, pv, p.confidence)
    return _unsure(p, qv, q.confidence)


def _side(d: Die, reach: float) -> float:
    """The die's side, image pixels (twice ``reach`` where it was not measured)."""
    return d.side_px if isinstance(d, DieFound) and d.side_px > 0 else 2.0 * reach


def _on_another(d: Die, dice: list[Die], side: float) -> bool:
    """Whether ``d`` lies on one of ``dice`` (its centre within :data:`SAME_DIE` of a side of
    theirs): one die the two readers placed apart (a slanted die's top face and the side face
    beside it), not two dice."""
    return any(math.hypot(d.x_px - o.x_px, d.y_px - o.y_px) < SAME_DIE * side for o in dice)


def agree(pips: DiceRead, learned: DiceRead, tray: bool) -> DiceRead:
    """The one reading of a view both readers read (image pixels): a tray's view (``tray``)
    or a whole picture."""
    a: list[Die] = [*pips.dice, *pips.unreadable]
    b: list[Die] = [*learned.dice, *learned.unreadable]
    reach = 0.5 * _typical_side(learned, pips)
    pairs = _pairs(a, b, reach)
    paired_a = {i for i, _ in pairs}
    paired_b = {j for _, j in pairs}
    out: list[Die | None] = [decide(a[i], b[j], tray) for i, j in pairs]
    out += [decide(d, None, tray) for i, d in enumerate(a) if i not in paired_a]
    kept = [d for d in out if d is not None]
    for j, d in enumerate(b):
        if j in paired_b:
            continue
        alone = decide(None, d, tray)
        if alone is not None and not _on_another(alone, kept, _side(d, reach)):
            out.append(alone)
    found = sorted((d for d in out if isinstance(d, DieFound)), key=lambda d: (d.y_px, d.x_px))
    unread = sorted((d for d in out if isinstance(d, DieUnread)), key=lambda d: (d.y_px, d.x_px))
    return DiceRead(tuple(found), tuple(unread), pips.tray_mm or learned.tray_mm)
