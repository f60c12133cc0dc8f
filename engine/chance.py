"""Exact chance outcomes: every way the random draws of a step can fall, with its probability.

The walk runs the step itself (a ruleset's ``apply``, or any function of a random source)
again and again with a :class:`RandomSource` that replays a prefix of draws and branches at
the next one, so the outcomes are the rules' own, not a copy of them (OpenSpiel's
``chance_outcomes``). Each leaf has an exact :class:`~fractions.Fraction` probability; leaves
with an equal result are merged, and the probabilities of the merged list sum to exactly 1.

How each kind of draw is enumerated:

- a die roll of ``sides`` faces: each face at 1/sides;
- a card drawn from a pile: each distinct card at (copies in the pile)/(cards in the pile);
- a shuffle: ONE hidden outcome (probability 1) that keeps the pile as it is, as
  :class:`~engine.dice.ScriptedDice` and :class:`~engine.dice.PhysicalDice` do: a shuffled
  deck is a deck whose order nobody has seen, so every later draw is uniform over the unseen
  cards of the pile (the draw rule above), which is what a player expects of a shuffled deck;
- a pool rolled at once (:func:`roll_pool`): each multiset of faces at its multinomial chance
  (the pool is kept sorted, so the order of the dice does not matter);
- a re-roll loop (:func:`reroll_until`: ties rolled again, a patrol turn re-rolled while it
  shows 1-3): each accepted attempt at its chance given that the loop ends on it, which sums
  every run of rejected attempts before it; the leaf's draws and events are those of the run
  with no rejected attempt.

A walk that would need more than ``limit`` runs of the step raises :class:`ChanceLimitError`
(name the step and the limit); :func:`walk` streams the unmerged leaves lazily instead.
:func:`draws_probability` weighs one given sequence of draws without enumerating: the chance
of exactly those results in that order (every die of a pool and every rejected attempt of a
re-roll loop counted as it was rolled).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Generic, Protocol, TypeVar

from engine.actions import Event
from engine.dice import Draw, RandomEvent, RandomSource, Roll, Shuffle
from engine.errors import EngineError
from engine.model import GameState

T = TypeVar("T")
R = TypeVar("R")

Pick = int | str
"""One random result as a story writes it: a die's face, or the card drawn."""

PoolOptions = dict[tuple[int, int], list[tuple[object, Fraction]]]
"""The ways a pool can fall, by its number of dice and their sides (one walk's memo)."""

DEFAULT_LIMIT = 20_000
"""Runs of the step a chance walk may make before it gives up (:class:`ChanceLimitError`)."""


class ChanceLimitError(EngineError):
    """The chance walk of a step would need more runs than its limit allows."""


class ChanceMismatchError(EngineError):
    """Draws given to weigh do not match what the step asks for (too few or too many)."""


class _Branch(BaseException):
    """Raised by the walking source at the first draw past its prefix: the ways it can fall.

    A BaseException so that no ``except Exception`` in the rules can swallow it."""

    def __init__(self, options: list[tuple[object, Fraction]]) -> None:
        super().__init__("chance branch")
        self.options = options


@dataclass(frozen=True)
class Leaf(Generic[R]):
    """One way the draws of a step can fall: what the step returned, its exact probability,
    and the draws that led there (die faces and cards, in the order they were made)."""

    value: R
    probability: Fraction
    draws: tuple[Pick, ...]


def _flat(choice: object) -> tuple[Pick, ...]:
    """The draws one branching choice stands for (a face, a card, a pool or an attempt)."""
    if isinstance(choice, int | str):
        return (choice,)
    assert isinstance(choice, tuple)
    return tuple(p for c in choice for p in _flat(c))


class _Counter:
    """Runs of the step made by one walk, against its limit."""

    def __init__(self, limit: int, what: str) -> None:
        self.limit = limit
        self.what = what
        self.runs = 0

    def tick(self) -> None:
        self.runs += 1
        if self.runs > self.limit:
            raise ChanceLimitError(
                f"the chance outcomes of {self.what} need more than {self.limit} runs of the "
                "step; weigh a given story with draws_probability, or raise the limit"
            )


class _ChanceSource:
    """Base of the sources of this module (so :func:`roll_pool` and :func:`reroll_until`
    know them); logs like every random source."""

    def __init__(self) -> None:
        self.rolls: list[Roll] = []
        self.log: list[RandomEvent] = []

    def get_state(self) -> object:
        return None

    def set_state(self, state: object) -> None:
        return None

    def shuffle(self, deck: str, cards: Sequence[str], purpose: str) -> tuple[str, ...]:
        """One hidden outcome: the pile keeps its order (see the module docstring)."""
        self.log.append(Shuffle(purpose, deck, len(cards)))
        return tuple(cards)

    def _rolled(self, sides: int, result: int, purpose: str) -> int:
        entry = Roll(purpose, sides, result)
        self.rolls.append(entry)
        self.log.append(entry)
        return result

    def _drawn(self, deck: str, card: str, purpose: str) -> str:
        self.log.append(Draw(purpose, deck, card))
        return card


class _WalkSource(_ChanceSource):
    """Replays ``prefix`` (one choice per draw) and branches at the next draw."""

    def __init__(
        self,
        prefix: Sequence[object],
        counter: _Counter,
        depth: int | None,
        pools: PoolOptions | None = None,
    ) -> None:
        super().__init__()
        self._prefix = prefix
        self._at = 0
        self.counter = counter
        self._depth = depth
        self.settled: list[object] = []
        """Choices made past ``depth`` (the first way each later draw can fall)."""
        self.pools: PoolOptions = {} if pools is None else pools
        """The ways a pool can fall, by (dice, sides), shared by the runs of one walk."""

    def _next(self, options: Callable[[], list[tuple[object, Fraction]]]) -> object:
        if self._at < len(self._prefix):
            choice = self._prefix[self._at]
            self._at += 1
            return choice
        if self._depth is not None and self._at >= self._depth:
            self._at += 1
            self.settled.append(options()[0][0])
            return self.settled[-1]
        raise _Branch(options())

    def roll(self, sides: int, purpose: str) -> int:
        if sides < 1:
            raise EngineError(f"a die needs at least one side, not {sides} ({purpose})")
        each = Fraction(1, sides)
        result = self._next(lambda: [(face, each) for face in range(1, sides + 1)])
        if not isinstance(result, int) or not 1 <= result <= sides:
            raise EngineError(f"{result!r} is not a result of a {sides}-sided die ({purpose})")
        return self._rolled(sides, result, purpose)

    def draw(self, deck: str, pile: Sequence[str], purpose: str) -> str:
        if not pile:
            raise EngineError(f"the {deck} pile is empty ({purpose})")

        def options() -> list[tuple[object, Fraction]]:
            counts: dict[str, int] = {}
            for card in pile:
                counts[card] = counts.get(card, 0) + 1
            return [(card, Fraction(n, len(pile))) for card, n in counts.items()]

        card = self._next(options)
        if not isinstance(card, str) or card not in pile:
            raise EngineError(f"{card!r} is not a card left in the {deck} pile ({purpose})")
        return self._drawn(deck, card, purpose)

    @property
    def used(self) -> int:
        """Draws made so far."""
        return self._at

    def branch(self, options: Callable[[], list[tuple[object, Fraction]]]) -> object:
        """One branching choice of a compound draw (a pool, a re-roll loop)."""
        return self._next(options)


class _ReplaySource(_ChanceSource):
    """Gives the flat draws of one attempt exactly (a re-roll loop's accepted attempt), logged
    in the walk's own source."""

    def __init__(self, picks: Sequence[Pick], outer: _ChanceSource) -> None:
        super().__init__()
        self._picks = list(picks)
        self.rolls, self.log = outer.rolls, outer.log

    def roll(self, sides: int, purpose: str) -> int:
        result = self._picks.pop(0)
        assert isinstance(result, int)
        return self._rolled(sides, result, purpose)

    def draw(self, deck: str, pile: Sequence[str], purpose: str) -> str:
        card = self._picks.pop(0)
        assert isinstance(card, str)
        return self._drawn(deck, card, purpose)


class _ScoreSource(_ChanceSource):
    """Takes the given draws in order and multiplies their chances (no enumeration)."""

    def __init__(self, picks: Sequence[Pick], what: str) -> None:
        super().__init__()
        self._picks = list(picks)
        self._at = 0
        self._what = what
        self.probability = Fraction(1)

    def _take(self, purpose: str) -> Pick:
        if self._at >= len(self._picks):
            raise ChanceMismatchError(
                f"{self._what} makes more than the {len(self._picks)} draws given "
                f"(draw {self._at + 1}: {purpose})"
            )
        pick = self._picks[self._at]
        self._at += 1
        return pick

    @property
    def left(self) -> int:
        """Draws given but not used."""
        return len(self._picks) - self._at

    def roll(self, sides: int, purpose: str) -> int:
        result = self._take(purpose)
        if isinstance(result, str) or not 1 <= result <= sides:
            self.probability = Fraction(0)
            result = 1  # the story is impossible; finish the step with any face
        else:
            self.probability *= Fraction(1, sides)
        return self._rolled(sides, result, purpose)

    def draw(self, deck: str, pile: Sequence[str], purpose: str) -> str:
        if not pile:
            raise EngineError(f"the {deck} pile is empty ({purpose})")
        card = self._take(purpose)
        if not isinstance(card, str) or card not in pile:
            self.probability = Fraction(0)
            card = pile[0]
        else:
            self.probability *= Fraction(list(pile).count(card), len(pile))
        return self._drawn(deck, card, purpose)


# ------------------------------------------------------------------ compound draws
def roll_pool(
    dice: RandomSource, n: int, sides: int, purpose: Callable[[int], str]
) -> tuple[int, ...]:
    """``n`` dice of ``sides`` faces rolled together, as a sorted pool. Each die is rolled on
    its own (``purpose(k)`` words die k, counted from 1), so a seeded game is the same as rolling them
    one by one; a chance walk branches once over the pools (multisets), not 6^n times."""
    if not isinstance(dice, _WalkSource):
        return tuple(sorted(dice.roll(sides, purpose(k)) for k in range(1, n + 1)))

    walker = dice

    def options() -> list[tuple[object, Fraction]]:
        known = walker.pools.get((n, sides))
        if known is None:
            known = walker.pools[(n, sides)] = _pool_options(n, sides)
        return known

    pool = dice.branch(options)
    assert isinstance(pool, tuple)
    for k, face in enumerate(pool):
        dice._rolled(sides, int(face), purpose(k + 1))
    return tuple(int(f) for f in pool)


def _pool_options(n: int, sides: int) -> list[tuple[object, Fraction]]:
    """Every sorted pool of ``n`` dice of ``sides`` faces at its multinomial chance."""
    total = sides**n
    out: list[tuple[object, Fraction]] = []
    for pool in combinations_with_replacement(range(1, sides + 1), n):
        ways = math.factorial(n)
        for face in set(pool):
            ways //= math.factorial(pool.count(face))
        out.append((pool, Fraction(ways, total)))
    return out


def reroll_until(
    dice: RandomSource, attempt: Callable[[RandomSource], T], accept: Callable[[T], bool]
) -> tuple[T, tuple[T, ...]]:
    """A re-roll loop: ``attempt`` (a pure function of the dice) is made again until
    ``accept`` says its result stands. Returns the accepted result and the rejected ones before
    it, in order. With ordinary dice this is the plain loop; in a chance walk it is one branch
    over the accepted attempts, each at its chance given that the loop ends (the rejected runs
    are summed, exactly), so the walk stays finite."""
    if not isinstance(dice, _WalkSource):
        rejected: list[T] = []
        while True:
            result = attempt(dice)
            if accept(result):
                return result, tuple(rejected)
            rejected.append(result)
    walker = dice

    def options() -> list[tuple[object, Fraction]]:
        kept: list[tuple[object, Fraction]] = []
        lost = Fraction(0)
        for leaf in _leaves(attempt, walker.counter, pools=walker.pools):
            if accept(leaf.value):
                kept.append((leaf.draws, leaf.probability))
            else:
                lost += leaf.probability
        if not kept:
            raise EngineError("a re-roll loop whose attempts are never accepted")
        return [(draws, p / (1 - lost)) for draws, p in kept]

    picks = dice.branch(options)
    assert isinstance(picks, tuple)
    return attempt(_ReplaySource([p for p in picks if isinstance(p, int | str)], dice)), ()


# ------------------------------------------------------------------ the walk
def _leaves(
    run: Callable[[RandomSource], R],
    counter: _Counter,
    depth: int | None = None,
    given: Sequence[Pick] = (),
    pools: PoolOptions | None = None,
) -> Iterator[Leaf[R]]:
    """Every leaf of the draws ``run`` makes, depth first, unmerged (see :func:`walk`)."""
    stack: list[tuple[tuple[object, ...], Fraction]] = [(tuple(given), Fraction(1))]
    shared: PoolOptions = {} if pools is None else pools
    while stack:
        prefix, probability = stack.pop()
        counter.tick()
        source = _WalkSource(prefix, counter, depth, shared)
        try:
            value = run(source)
        except _Branch as branch:
            for choice, p in reversed(branch.options):
                stack.append(((*prefix, choice), probability * p))
            continue
        if source.used < len(given):
            raise ChanceMismatchError(
                f"{counter.what} makes {source.used} draws, fewer than the {len(given)} given"
            )
        draws = tuple(p for c in (*prefix, *source.settled) for p in _flat(c))
        yield Leaf(value, probability, draws)


def walk(
    run: Callable[[RandomSource], R],
    *,
    limit: int = DEFAULT_LIMIT,
    what: str = "the step",
    depth: int | None = None,
    given: Sequence[Pick] = (),
) -> Iterator[Leaf[R]]:
    """Stream every way the draws of ``run`` can fall (unmerged; the probabilities sum to 1).
    ``run`` must be pure apart from the source it is given; ``what`` names it in errors.

    With ``depth``, only the first ``depth`` draws branch: each leaf is one way those can fall,
    at its exact probability, with the step finished by the first face or card of every later
    draw (its value and draws say so). This is the exact distribution of whatever the first
    draws alone decide (a hit before its damage, the first card of a deck) when the whole
    tree is too large to walk.

    With ``given`` (faces and cards of single rolls and draws, not of a pool or a re-roll
    loop), the first draws are those: the leaves are the ways the rest can fall, at their
    chances given the first ones (a replay that saw some dice; a hit already rolled)."""
    return _leaves(run, _Counter(limit, what), depth, given)


def likeliest(
    run: Callable[[RandomSource], R], *, count: int = 32, limit: int = DEFAULT_LIMIT
) -> tuple[list[Leaf[R]], bool]:
    """The likeliest ways ``run``'s draws can fall, likeliest first, found draw by draw: after
    each draw only the ``count`` likeliest ways so far are followed (a beam); where every way
    is as likely as every other and they are more than ``count`` (a chain of single dice),
    none is (the order of the faces would choose). Where the
    draws are independent (two sides' pools of many dice) the leaves returned are exactly
    the likeliest; where a draw depends on earlier ones it is a close search. Stops after
    ``limit`` runs of the step. The flag says whether every leaf was found (no way was
    dropped: then the list is :func:`walk`'s, sorted). Unmerged."""
    # a way so far: its draws and its probability as an unreduced numerator and denominator
    # (multiplying and reducing fractions for every child dominated a replay)
    frontier: list[tuple[tuple[object, ...], int, int]] = [((), 1, 1)]
    found: list[Leaf[R]] = []
    complete = True
    runs = 0
    pools: PoolOptions = {}
    ranked: dict[int, tuple[list[tuple[object, Fraction]], list[_Ranked]]] = {}
    while frontier:
        # a child: its probability as a float (an integer division rounds exactly as the
        # reduced fraction's float does), its parent's index, its choice, its exact probability
        children: list[tuple[float, int, object, int, int]] = []
        born = 0
        least: tuple[float, int, int] | None = None
        for at, (prefix, num, den) in enumerate(frontier):
            if runs >= limit:
                return sorted(found, key=lambda lf: -lf.probability), False
            runs += 1
            source = _WalkSource(prefix, _Counter(limit, "the step"), None, pools)
            try:
                value = run(source)
            except _Branch as branch:
                order = _ranked_options(branch.options, ranked)
                born += len(order)
                # a parent's children rank as its options do: only its first ``count`` can
                # be among the ``count`` likeliest of all
                for _, c, pn, pd in order[:count]:
                    n, d = num * pn, den * pd
                    children.append((n / d, at, c, n, d))
                _, _, pn, pd = order[-1]
                n, d = num * pn, den * pd
                if least is None or n / d <= least[0]:
                    least = (n / d, n, d)
                continue
            flat = tuple(p for c in prefix for p in _flat(c))
            found.append(Leaf(value, Fraction(num, den), flat))
        children.sort(key=lambda child: -child[0])
        if born > count and least is not None:
            complete = False
            # no way likelier than another (a chain of single dice): none is followed
            first = children[0] if children else None
            even = first is not None and first[3] * least[2] == least[1] * first[4]
            children = [] if even else children[:count]
        frontier = [((*frontier[at][0], c), n, d) for _, at, c, n, d in children]
    return sorted(found, key=lambda lf: -lf.probability), complete


_Ranked = tuple[float, object, int, int]
"""An option of a draw: its probability as a float, its choice, its numerator, denominator."""


def _ranked_options(
    options: list[tuple[object, Fraction]],
    ranked: dict[int, tuple[list[tuple[object, Fraction]], list[_Ranked]]],
) -> list[_Ranked]:
    """A draw's options likeliest first (equal ones in their order), worked out once per
    options list in ``ranked`` (keyed by identity; the list is kept alive there)."""
    known = ranked.get(id(options))
    if known is not None and known[0] is options:
        return known[1]
    order = sorted(
        ((float(p), c, p.numerator, p.denominator) for c, p in options), key=lambda o: -o[0]
    )
    ranked[id(options)] = (options, order)
    return order


def outcomes_of(
    run: Callable[[RandomSource], R],
    *,
    key: Callable[[R], object] | None = None,
    limit: int = DEFAULT_LIMIT,
    what: str = "the step",
) -> list[tuple[R, Fraction]]:
    """The exact distribution of what ``run`` returns: leaves with an equal ``key`` (the
    value itself by default) merged, the first leaf's value kept, in the order first met."""
    merged = merge(walk(run, limit=limit, what=what), key)
    return [
        (leaves[0].value, sum((lf.probability for lf in leaves), Fraction(0))) for leaves in merged
    ]


def merge(
    leaves: Iterable[Leaf[R]], key: Callable[[R], object] | None = None
) -> list[list[Leaf[R]]]:
    """Leaves grouped by an equal key (hashable keys through a dict, others compared one by
    one), groups in the order first met."""
    groups: list[list[Leaf[R]]] = []
    hashed: dict[object, int] = {}
    unhashable: list[tuple[object, int]] = []
    for leaf in leaves:
        k = leaf.value if key is None else key(leaf.value)
        try:
            at = hashed.get(k)
            if at is None:
                hashed[k] = len(groups)
        except TypeError:
            at = next((i for other, i in unhashable if other == k), None)
            if at is None:
                unhashable.append((k, len(groups)))
        if at is None:
            groups.append([leaf])
        else:
            groups[at].append(leaf)
    return groups


def chance_of(outcomes: Iterable[tuple[T, Fraction]], test: Callable[[T], bool]) -> Fraction:
    """The total probability of the outcomes that pass ``test``."""
    return sum((p for value, p in outcomes if test(value)), Fraction(0))


def draws_probability(
    run: Callable[[RandomSource], object], draws: Sequence[Pick], *, what: str = "the step"
) -> Fraction:
    """The exact chance that ``run`` draws exactly ``draws`` (faces and cards, in order): the
    product of each draw's chance, 0 when a face or card cannot come. Raises
    :class:`ChanceMismatchError` when ``run`` makes more or fewer draws than given."""
    source = _ScoreSource(draws, what)
    run(source)
    if source.left:
        raise ChanceMismatchError(
            f"{what} makes {len(draws) - source.left} draws, not the {len(draws)} given"
        )
    return source.probability


class Resolved(Protocol):
    """What a step resolves to: :class:`engine.protocols.Outcome` (a state and its events)."""

    @property
    def state(self) -> GameState: ...

    @property
    def events(self) -> tuple[Event, ...]: ...


@dataclass(frozen=True)
class ChanceOutcome:
    """One distinct result of a step's draws: the state and events it leaves, and every
    sequence of draws that leads there (die faces and cards, in order; a merged outcome has
    several). Replaying any of them with :class:`~engine.dice.ScriptedDice` (faces as results,
    cards as cards) gives this state and these events."""

    state: GameState
    events: tuple[Event, ...]
    draws: tuple[tuple[Pick, ...], ...]


def step_outcomes(
    apply: Callable[[RandomSource], Resolved], *, limit: int = DEFAULT_LIMIT, what: str = "the step"
) -> list[tuple[ChanceOutcome, Fraction]]:
    """The exact outcomes of one step (``apply`` with the step's state and action bound):
    leaves with an equal state and equal events merged, in the order first met."""
    groups = merge(walk(apply, limit=limit, what=what), lambda o: (o.state, o.events))
    out: list[tuple[ChanceOutcome, Fraction]] = []
    for leaves in groups:
        first = leaves[0].value
        draws = tuple(leaf.draws for leaf in leaves)
        p = sum((leaf.probability for leaf in leaves), Fraction(0))
        out.append((ChanceOutcome(first.state, first.events, draws), p))
    return out


def log_probability(probability: Fraction) -> float:
    """The natural log of a probability (minus infinity for an impossible story)."""
    return math.log(probability) if probability > 0 else -math.inf


def picks_of(log: Iterable[RandomEvent]) -> tuple[Pick, ...]:
    """The draws of a random source's log, as :func:`draws_probability` takes them."""
    out: list[Pick] = []
    for entry in log:
        if isinstance(entry, Roll):
            out.append(entry.result)
        elif isinstance(entry, Draw):
            out.append(entry.card)
    return tuple(out)
