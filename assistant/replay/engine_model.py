"""The likelihood model of a game read back from footage: a story's score is its log-probability.

A story is one reading of what happened (engine_story); the search (engine_replay) keeps the
likeliest. Its probability is the product of these terms, each a probability given what the
footage shows (the cost a story pays is minus its natural log, so costs add):

- **the dice and cards nobody saw**: each result at its exact chance under the rules (each
  face of a die 1/sides, each card its copies over the pile's size: the product
  :func:`engine.chance.draws_probability` gives), summed over the results that leave the same
  state (:mod:`assistant.replay.engine_branches`); the AI's choice where it takes a draw is
  spread the same way. A die read in the tray is exact (its face is given, a factor common to
  every story of the footage): a story that skips dice the tray showed pays
  :func:`dice_skipped`, as the reader's misreading them;
- **steps that leave no trace** (an activation that moves no model, a pass, a round that
  begins): :attr:`Parameters.unseen_step` each, or :attr:`Parameters.seen_step` when dice
  seen in the tray vouch for them: only a step that rolled them (a pass or a round begun
  beside it rolled none);
- **the footage against the rules** (the rules leave a unit elsewhere than the footage shows
  it, a move no legal action explains, a unit the rules took off that moves again):
  :attr:`Parameters.off_rules` each;
- **the tracker's misreadings** (a model taken off that the rules keep, a move out of turn, a
  model the rules take off that the footage keeps, seen dice skipped):
  :attr:`Parameters.misread` per misreading the story needs;
- **pose error**: a reading with a unit within the camera's error of its seen place, at
  distance d (inches), is weighed as a Gaussian, exp(-d^2 / 2 sigma^2), sigma being
  :attr:`Parameters.pose_sigma_share` of the camera's position tolerance (its measured
  accuracy, :class:`~assistant.tables.base.Tolerances`).

The five free parameters are read from ``replay_model.json`` beside this module, which
``benchmarks/fit_replay.py`` writes by maximum likelihood on the training battles; nothing
else in the replay sets what a story costs.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

from assistant.tables.base import Tolerances
from engine.actions import Event, EventType

PARAMETERS_FILE = Path(__file__).with_name("replay_model.json")
DEFAULT_POSITION_IN = Tolerances().position_in
"""The camera's position tolerance a replay takes when not told (inches)."""


@dataclass(frozen=True)
class Parameters:
    """The model's free parameters (probabilities, and a share of the camera's tolerance)."""

    unseen_step: float
    """An activation, pass or round the footage shows no trace of happened (per step)."""
    seen_step: float
    """The same, when the dice the tray showed meanwhile were all its dice (per step)."""
    off_rules: float
    """The footage shows a unit where no reading of the rules puts it (per unit)."""
    misread: float
    """The tracker misread one thing: a removal, a piece's presence, a turn, the tray."""
    pose_sigma_share: float
    """The pose error's standard deviation as a share of the camera's position tolerance."""


def load_parameters(path: Path = PARAMETERS_FILE) -> Parameters:
    """The parameters written in ``path`` (ValueError naming the file when one is missing or
    out of range)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    values: dict[str, float] = {}
    for f in fields(Parameters):
        value = data.get(f.name)
        if not isinstance(value, int | float) or value <= 0:
            raise ValueError(f"{path}: {f.name} must be a positive number, not {value!r}")
        if f.name != "pose_sigma_share" and value >= 1:
            raise ValueError(f"{path}: {f.name} is a probability, below 1, not {value!r}")
        values[f.name] = float(value)
    return Parameters(**values)


PARAMETERS = load_parameters()


def cost(p: float) -> float:
    """What a story pays for a term of probability ``p``: minus its natural log."""
    return -math.log(p) if p > 0 else math.inf


def probability(cost_: float) -> float:
    """The probability of a term of cost ``cost_`` (the inverse of :func:`cost`)."""
    return math.exp(-cost_)


def unseen_step(params: Parameters = PARAMETERS) -> float:
    """One step that leaves no trace (a pass on the way to a unit's turn)."""
    return cost(params.unseen_step)


def off_rules(params: Parameters = PARAMETERS) -> float:
    """The footage shows a unit where no reading of the rules puts it."""
    return cost(params.off_rules)


def misread(count: int = 1, params: Parameters = PARAMETERS) -> float:
    """``count`` misreadings of the tracker: a model taken off that the rules keep (1), a
    move out of turn (1), a model the rules take off while the footage keeps it on the table
    (3: it is seen there at every state after), seen dice skipped (:func:`dice_skipped`)."""
    return count * cost(params.misread)


UNSEEN_FALL_MISREADS = 3
"""Misreadings a story needs when the rules take off a model the footage keeps."""
SKIPPED_DICE_MISREADS = 2
"""Misreadings a story needs when it skips the dice the tray showed before a move (the reader
saw them, and saw them before this move)."""


def dice_skipped(params: Parameters = PARAMETERS) -> float:
    """No story on the seen dice reaches the unit's turn: they are skipped."""
    return misread(SKIPPED_DICE_MISREADS, params)


def pose_error(distance_in: float, position_in: float, params: Parameters = PARAMETERS) -> float:
    """A reading with a unit ``distance_in`` inches off its seen place, the camera's position
    tolerance being ``position_in`` inches: minus the log of the Gaussian's ratio to a reading
    at the place."""
    sigma_in = params.pose_sigma_share * position_in
    return distance_in**2 / (2.0 * sigma_in**2)


NEARBY_SHARE = 0.8
"""Where a reading within the camera's error is tried first: this share of its position
tolerance off the seen place (a shot at the very edge of its range read a little beyond it, a
line of sight past a base it grazes) ..."""
FAR_REACH_IN = 0.3
"""... then this much further (a place found from the picture, not from a tag, is this unsure).
Where the search looks, not what a reading costs (:func:`pose_error` does)."""


def error_reaches(
    position_in: float, params: Parameters = PARAMETERS
) -> tuple[tuple[float, float], ...]:
    """How far off the seen place a reading within the camera's error is tried, in turn, and
    what it costs: (inches, :func:`pose_error`) at :data:`NEARBY_SHARE` of the camera's
    position tolerance ``position_in``, then :data:`FAR_REACH_IN` further."""
    near_in = NEARBY_SHARE * position_in
    far_in = near_in + FAR_REACH_IN
    return (
        (near_in, pose_error(near_in, position_in, params)),
        (far_in, pose_error(far_in, position_in, params)),
    )


INFERRED_POSITION_IN = 0.6
"""How far a move found from the picture (its tag hidden at the new place: the figure's
outline, not its tag, says where it stands) may be from where the rules put it; a tag's own
sighting is held to the camera's tolerance."""


def footage_probability(
    known: str, position_in: float = DEFAULT_POSITION_IN, params: Parameters = PARAMETERS
) -> float:
    """How sure the replay is of what the footage itself shows (a move, a removal, a roll in
    the tray), by how it was known: read from its tag or die ("seen", or a roll "unknown"
    that could not be read but was there), 1 - :attr:`Parameters.misread`; found from the
    picture ("inferred"), the pose error of a place :data:`INFERRED_POSITION_IN` off, the
    camera's position tolerance being ``position_in`` inches."""
    if known == "inferred":
        return probability(pose_error(INFERRED_POSITION_IN, position_in, params))
    return 1.0 - params.misread


TRACELESS = (EventType.ACTIVATION, EventType.ROUND_START, "pass")
"""The events of a step that leaves no trace (one each)."""


def traceless_steps(events: Iterable[Event]) -> int:
    """The activations, passes and rounds begun among ``events``."""
    return sum(1 for ev in events if ev.type in TRACELESS)


def price(
    events: Sequence[Event],
    extra_cost: float,
    used: int,
    seen: int,
    rolled: Sequence[bool] = (),
    params: Parameters = PARAMETERS,
) -> float:
    """What a story pays for steps the footage does not show: each activation, pass and round
    begun at :attr:`Parameters.unseen_step`, or at :attr:`Parameters.seen_step` when its own
    step rolled dice the tray showed (``rolled``: per event, its step's dice were all seen)
    and the steps used every one of the ``seen`` dice the tray showed meanwhile (``used`` of
    them: those dice, not a guess, say that step happened; a pass or a round begun beside
    them rolls none, so they vouch for neither), and ``extra_cost``: the chance of their
    unseen results and the pose error of the steps read within the camera's error."""
    total = extra_cost
    for i, ev in enumerate(events):
        if ev.type in TRACELESS:
            vouched = i < len(rolled) and rolled[i]
            total += cost(traceless_probability(used, seen, vouched, params))
    return total


def traceless_probability(
    used: int, seen: int, rolled: bool, params: Parameters = PARAMETERS
) -> float:
    """The probability of one step that leaves no trace, among steps that used ``used`` of
    the ``seen`` dice the tray showed meanwhile, the step itself having rolled some of them
    (``rolled``) or none (:func:`price`)."""
    return params.seen_step if rolled and seen and used == seen else params.unseen_step
