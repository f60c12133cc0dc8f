"""The engine's possible outcomes when the dice are unknown, or seen in the dice tray.

:class:`BranchingDice` is a random source for one branch of a game read back from footage:
it gives the results of that branch, and when the rules ask for one more it stops and lists
every result that die (or draw) could give. :func:`outcomes` applies an action on every branch
and returns the distinct results, so the replay can keep the ones that fit what the table
shows next. No rule is decided here: every result comes from ``Ruleset.apply``.

Dice the camera saw (issue 10): given the seen dice still to come (``seen``, one entry per
die, None for a die whose roll was not read), a die of :data:`SEEN_SIDES` sides takes the next
seen value instead of branching (a die of another size, or an unread one, branches as
before); a story that asks for more dice than were seen is no story of this footage
(:class:`NoSeenRoll`, the branch is dropped). :func:`seen_outcomes` says how many seen dice
each outcome used and whether all its dice were seen.

The branches are tried breadth first (every result of the first unknown die before any of the
second), so a short chain of re-rolls (a table that rolls again on one face) has all its
outcomes found within :data:`MAX_BRANCHES` even when a longer chain does not end there.

When one step has more outcomes than :data:`MAX_BRANCHES` (a pool of many dice rolled at once:
6^n results), they are not enumerated: the search also tries :data:`SAMPLES` *spread* results,
in which the unknown dice show every face in turn (the k-th sample gives its j-th unknown die
the face k + j, cycling), so that a pool of six dice or more holds every face and a shorter
one a run of consecutive faces. Each is a result the rules can give (every state reached is
the engine's own), not the one rolled: the replay keeps the one that fits the moves the
footage shows next, and its dice events stay "unknown". This is sound (no state the rules
could not reach) but not complete (a pool the footage needs may be none of the samples); with
the dice seen in the tray there is nothing to guess.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import TypeVar

from engine.actions import Action
from engine.chance import likeliest
from engine.dice import Draw, RandomEvent, RandomSource, Roll, Shuffle
from engine.errors import EngineError
from engine.model import GameState
from engine.protocols import Outcome, Ruleset

Result = int | str
"""A die result, or a card drawn."""

#: At most this many branches are tried for one action (a d6 attack, a d6 rout check and a
#: nearest-edge roll come to 6 x 6 x 4).
MAX_BRANCHES = 256
#: The likeliest exact outcomes of one step kept (the search keeps the likeliest stories).
KEPT_OUTCOMES = 30
#: Spread results tried when a step has more outcomes than :data:`MAX_BRANCHES`.
SAMPLES = 6
#: The sides of the dice read in the tray (the kit's dice are d6).
SEEN_SIDES = 6

Seen = Sequence[int | None]
"""Seen dice still to come, one per die: its face, or None when the roll was not read."""

T = TypeVar("T")


class UnknownResult(Exception):
    """The rules asked for a result this branch does not give: ``choices`` are the possible
    ones."""

    def __init__(self, choices: tuple[Result, ...], purpose: str) -> None:
        super().__init__(purpose)
        self.choices = choices
        self.purpose = purpose


class NoSeenRoll(Exception):
    """The rules asked for a die the footage did not show (more dice than were seen)."""


class BranchingDice:
    """The results of one branch, then :class:`UnknownResult` listing the next possible ones.

    With ``seen`` (not None), a d6 takes the next seen face (see the module docstring).
    Shuffles keep the pile's order (a draw lists every card of the pile anyway)."""

    def __init__(
        self, prefix: Sequence[Result] = (), seen: Seen | None = None, spread: int | None = None
    ) -> None:
        self.prefix = tuple(prefix)
        self._next = 0
        self.spread = spread
        """Past the prefix, the j-th unknown result is choice (spread + j) cycling (None:
        :class:`UnknownResult` instead)."""
        self.seen = seen
        self.used = 0
        """Seen dice taken so far."""
        self.all_seen = True
        """No result of this branch was guessed."""
        self.probability = 1.0
        """The chance of the results this branch guessed (each face 1/sides, each card its
        copies over the pile's size; a seen die's face is given): the product
        :func:`engine.chance.draws_probability` gives for them."""
        self.rolls: list[Roll] = []
        self.log: list[RandomEvent] = []

    def _take(self, choices: tuple[Result, ...], purpose: str) -> Result:
        self.all_seen = False
        if self._next >= len(self.prefix):
            if self.spread is not None:
                self.spread += 1
                return choices[(self.spread - 1) % len(choices)]
            raise UnknownResult(choices, purpose)
        result = self.prefix[self._next]
        self._next += 1
        return result

    def roll(self, sides: int, purpose: str) -> int:
        face: int | None = None
        if self.seen is not None and sides == SEEN_SIDES:
            if self.used >= len(self.seen):
                raise NoSeenRoll(purpose)
            face = self.seen[self.used]
            self.used += 1
        if face is None:
            result = self._take(tuple(range(1, sides + 1)), purpose)
            self.probability /= sides
        else:
            result = face
        assert isinstance(result, int)
        entry = Roll(purpose, sides, result)
        self.rolls.append(entry)
        self.log.append(entry)
        return result

    def shuffle(self, deck: str, cards: Sequence[str], purpose: str) -> tuple[str, ...]:
        self.log.append(Shuffle(purpose, deck, len(cards)))
        return tuple(cards)

    def draw(self, deck: str, pile: Sequence[str], purpose: str) -> str:
        card = self._take(tuple(dict.fromkeys(pile)), purpose)
        assert isinstance(card, str)
        self.probability *= pile.count(card) / len(pile)
        self.log.append(Draw(purpose, deck, card))
        return card

    def get_state(self) -> object:
        return None

    def set_state(self, state: object) -> None:
        return None


def branches(
    attempt: Callable[[BranchingDice], T], limit: int = MAX_BRANCHES
) -> list[tuple[T, tuple[RandomEvent, ...]]]:
    """``attempt`` run on every branch of the unknown results it asks for (breadth first,
    results in order), with each branch's logged results; at most ``limit`` branches."""
    return [(value, tuple(dice.log)) for value, dice in seen_branches(attempt, None, limit)]


def seen_branches(
    attempt: Callable[[BranchingDice], T],
    seen: Seen | None,
    limit: int = MAX_BRANCHES,
    spread: bool = False,
) -> list[tuple[T, BranchingDice]]:
    """``attempt`` run on every branch of the unknown results it asks for, the seen dice
    ``seen`` taken first (breadth first, results in order), with each branch's dice (its log,
    the seen dice it used); at most ``limit`` branches tried, then (``spread``) the spread
    results when not every branch was tried."""
    done: list[tuple[T, BranchingDice]] = []
    todo: deque[tuple[Result, ...]] = deque([()])
    tried = 0
    while todo and tried < limit:
        prefix = todo.popleft()
        tried += 1
        dice = BranchingDice(prefix, seen)
        try:
            value = attempt(dice)
        except UnknownResult as more:
            todo.extend((*prefix, choice) for choice in more.choices)
            continue
        except NoSeenRoll:
            continue
        done.append((value, dice))
    if todo and spread:  # too many outcomes to enumerate: a few spread ones (module docstring)
        for k in range(SAMPLES):
            dice = BranchingDice((), seen, spread=k)
            try:
                done.append((attempt(dice), dice))
            except NoSeenRoll:
                continue
    return done


def outcomes(
    ruleset: Ruleset, state: GameState, action: Action, limit: int = MAX_BRANCHES
) -> list[Outcome]:
    """Every distinct outcome of ``action`` over the results the dice could give (empty when
    the rules refuse the action)."""
    return [o for o, _, _, _ in seen_outcomes(ruleset, state, action, None, limit)]


def seen_outcomes(
    ruleset: Ruleset,
    state: GameState,
    action: Action,
    seen: Seen | None,
    limit: int = MAX_BRANCHES,
) -> list[tuple[Outcome, int, bool, float]]:
    """Every distinct outcome of ``action`` on the seen dice ``seen`` (None: no dice seen)
    and the results the other dice could give: (outcome, seen dice used, all its dice seen,
    its probability: the sum over the branches that reach it of their results' chance, given
    the seen faces). Empty when the rules refuse the action.

    With no dice seen, the outcomes are found likeliest first (:func:`engine.chance.likeliest`,
    at the rules' exact odds: a pool at its multinomial chance), within ``limit`` runs of the
    step: every one when there are few; else the likeliest found, and the spread results
    (module docstring) beside them; where no way is likelier than another (a chain of single
    dice), the branch search as with seen dice. The likeliest :data:`KEPT_OUTCOMES` are
    returned, likeliest first."""
    if seen is None:
        return _likeliest(ruleset, state, action, limit)
    try:
        found = seen_branches(
            lambda dice: ruleset.apply(state, action, dice), seen, limit, spread=True
        )
    except EngineError:
        return []
    out: dict[tuple[GameState, int], tuple[Outcome, int, bool, float]] = {}
    for outcome, dice in found:
        key = (outcome.state, dice.used)
        if key in out:
            first, used, all_seen, p = out[key]
            out[key] = (first, used, all_seen, p + dice.probability)
        else:
            out[key] = (outcome, dice.used, dice.all_seen, dice.probability)
    return list(out.values())


def _likeliest(
    ruleset: Ruleset, state: GameState, action: Action, limit: int
) -> list[tuple[Outcome, int, bool, float]]:
    """:func:`seen_outcomes` with no dice seen (see there)."""

    def run(dice: RandomSource) -> Outcome:
        return ruleset.apply(state, action, dice)

    try:
        leaves, complete = likeliest(run, count=KEPT_OUTCOMES, limit=limit)
        if not leaves:
            # every way as likely as the next (a chain of single dice): the branch search
            found = [
                (value, dice.probability, dice.all_seen)
                for value, dice in seen_branches(run, None, limit, spread=True)
            ]
        else:
            found = [(leaf.value, float(leaf.probability), not leaf.draws) for leaf in leaves]
        if leaves and not complete:
            for k in range(SAMPLES):
                dice = BranchingDice((), None, spread=k)
                found.append((run(dice), dice.probability, dice.all_seen))
    except EngineError:
        return []
    out: dict[GameState, tuple[Outcome, int, bool, float]] = {}
    for outcome, p, all_seen in found:
        if outcome.state in out:
            first, _, seen_all, q = out[outcome.state]
            out[outcome.state] = (first, 0, seen_all, q + p)
        else:
            out[outcome.state] = (outcome, 0, all_seen, p)
    ranked = sorted(out.values(), key=lambda o: -o[3])  # stable: the rules' order among equals
    return ranked[:KEPT_OUTCOMES]
