"""The model of a game read back from footage: what each thing the footage does not show, or
shows against the rules, costs a story (the cheapest story is reported).

Every term of a story's cost is here, named in one place; the reader (engine_moves,
engine_checks), the unseen steps (engine_unseen) and the search (engine_replay) only add them
up. Inches and seconds.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.actions import Event, EventType

POSE_COST = 4.0
"""The rules leave the unit elsewhere than the footage shows it (it is stood there)."""
STAND_IN_COST = 4.0
"""No legal action explains the move: the unit is stood there and acts in place."""
UNSEEN_FALL_COST = 30.0
"""The rules take a unit off that the footage leaves on the table (per unit)."""
RETURN_COST = 3.0
"""A unit the rules took off moves again (it was hidden, not taken off)."""
DICE_MISS_COST = 20.0
"""No story on the seen dice reaches the unit's turn: the seen dice up to the move are
skipped and the steps taken on unseen dice."""
NO_TURN_COST = 10.0
"""No steps reach the unit's turn: it moves out of turn."""
REMOVAL_COST = 10.0
"""The footage takes a unit off that the rules do not (per unit)."""
PASS_COST = 1.0
"""What a story pays for each unseen pass on the way to a unit's turn."""
SEEN_STEP_SHARE = 0.2
"""The share of an unseen step's cost paid when the seen dice force it."""
NEARBY_SHARE = 0.8
"""Readings within the camera's error: a unit, or the target of its action, may stand this
share of the camera's position tolerance off the place the footage shows (a shot at the very
edge of its range read a little beyond it, a line of sight past a base it grazes) ..."""
NEARBY_COST = 0.05
"""... at this cost more than a reading at the seen place (each story pays it once per
step read so); ..."""
FAR_REACH_IN = 0.3
"""... or this much further still (a place found from the picture, not from a tag, is this
unsure) ..."""
FAR_NEARBY_COST = 0.3
"""... at this cost."""


def unseen_cost(events: Iterable[Event], nearby_cost: float) -> float:
    """What a story pays for steps the footage does not show: each activation and pass, and
    each round begun, costs 1; a step read within the camera's error of the seen place a
    little more (``nearby_cost``, from :func:`error_reaches`)."""
    counted = (EventType.ACTIVATION, EventType.ROUND_START, "pass")
    steps = sum(1 for ev in events if ev.type in counted)
    return float(steps) + nearby_cost


def price(events: Iterable[Event], nearby_cost: float, used: int, seen: int) -> float:
    """What a story pays for unseen steps (:func:`unseen_cost`), or :data:`SEEN_STEP_SHARE`
    of that when they used every one of the ``seen`` dice seen meanwhile (``used`` of them;
    the dice, not a guess, say they happened: a long melee on seen dice is no dearer than a
    removal left unexplained)."""
    cost = unseen_cost(events, nearby_cost)
    return cost * SEEN_STEP_SHARE if seen and used == seen else cost


def error_reaches(position_in: float) -> tuple[tuple[float, float], ...]:
    """How far off the seen place a reading within the camera's error is tried, in turn, and
    what it costs: (inches, cost) for :data:`NEARBY_SHARE` of the camera's position tolerance
    ``position_in``, then :data:`FAR_REACH_IN` further."""
    near_in = NEARBY_SHARE * position_in
    return ((near_in, NEARBY_COST), (near_in + FAR_REACH_IN, FAR_NEARBY_COST))
