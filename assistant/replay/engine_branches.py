"""The engine's possible outcomes when the dice are unknown (footage shows moves, not rolls).

:class:`BranchingDice` is a random source for one branch of a game read back from footage:
it gives the results of that branch, and when the rules ask for one more it stops and lists
every result that die (or draw) could give. :func:`outcomes` applies an action on every branch
and returns the distinct results, so the replay can keep the ones that fit what the table
shows next. No rule is decided here: every result comes from ``Ruleset.apply``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from engine.actions import Action
from engine.dice import Draw, RandomEvent, Roll, Shuffle
from engine.errors import EngineError
from engine.model import GameState
from engine.protocols import Outcome, Ruleset

Result = int | str
"""A die result, or a card drawn."""

#: At most this many branches are tried for one action (a d6 attack, a d6 rout check and a
#: nearest-edge roll come to 6 x 6 x 4).
MAX_BRANCHES = 256

T = TypeVar("T")


class UnknownResult(Exception):
    """The rules asked for a result this branch does not give: ``choices`` are the possible
    ones."""

    def __init__(self, choices: tuple[Result, ...], purpose: str) -> None:
        super().__init__(purpose)
        self.choices = choices
        self.purpose = purpose


class BranchingDice:
    """The results of one branch, then :class:`UnknownResult` listing the next possible ones.

    Shuffles keep the pile's order (a draw lists every card of the pile anyway)."""

    def __init__(self, prefix: Sequence[Result] = ()) -> None:
        self.prefix = tuple(prefix)
        self._next = 0
        self.rolls: list[Roll] = []
        self.log: list[RandomEvent] = []

    def _take(self, choices: tuple[Result, ...], purpose: str) -> Result:
        if self._next >= len(self.prefix):
            raise UnknownResult(choices, purpose)
        result = self.prefix[self._next]
        self._next += 1
        return result

    def roll(self, sides: int, purpose: str) -> int:
        result = self._take(tuple(range(1, sides + 1)), purpose)
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
        self.log.append(Draw(purpose, deck, card))
        return card

    def get_state(self) -> object:
        return None

    def set_state(self, state: object) -> None:
        return None


def branches(
    attempt: Callable[[BranchingDice], T], limit: int = MAX_BRANCHES
) -> list[tuple[T, tuple[RandomEvent, ...]]]:
    """``attempt`` run on every branch of the unknown results it asks for (depth first, results
    in order), with each branch's logged results; at most ``limit`` branches."""
    done: list[tuple[T, tuple[RandomEvent, ...]]] = []
    todo: list[tuple[Result, ...]] = [()]
    tried = 0
    while todo and tried < limit:
        prefix = todo.pop(0)
        tried += 1
        dice = BranchingDice(prefix)
        try:
            value = attempt(dice)
        except UnknownResult as more:
            todo[:0] = [(*prefix, choice) for choice in more.choices]
            continue
        done.append((value, tuple(dice.log)))
    return done


def outcomes(
    ruleset: Ruleset, state: GameState, action: Action, limit: int = MAX_BRANCHES
) -> list[Outcome]:
    """Every distinct outcome of ``action`` over the results the dice could give (empty when
    the rules refuse the action)."""
    try:
        found = branches(lambda dice: ruleset.apply(state, action, dice), limit)
    except EngineError:
        return []
    out: list[Outcome] = []
    seen: set[GameState] = set()
    for outcome, _ in found:
        if outcome.state not in seen:
            seen.add(outcome.state)
            out.append(outcome)
    return out
