"""Actions that lead into a move, per rule system: a declaration the footage does not show on
its own, after which the rules wait for a move the footage does show (the 2D6 skirmish's
charge: declared at a target, its 2D6 reach rolled, then run). The move reader
(:mod:`assistant.replay.engine_moves`) reads a seen move as a plain move and, where the
system has such actions, also as one of them followed by the move it leads into.

Which of the rules' action kinds lead into a move is the ruleset's own answer
(``Ruleset.move_leads``); which of them are legal, what their dice give and whether the seen
move completes one are the engine's answers too (``Ruleset.sample_actions``,
``seen_outcomes`` on ``Ruleset.apply``, and the table adapter's ``replay_move`` in the state
the declaration leaves). Inches.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from assistant.replay.engine_branches import Seen, seen_outcomes
from assistant.replay.engine_game import ReplayGame
from assistant.session.observation import PieceSeen
from assistant.tables.base import ReplayMove
from engine.actions import Action
from engine.dice import SeededDice
from engine.errors import EngineError
from engine.model import GameState, Unit
from engine.protocols import Outcome

TARGETS = 1
"""Targets tried per seen move: the nearest to where the move ends (a run ends at, or toward,
its target)."""


@dataclass(frozen=True)
class Completion:
    """A declaration and one outcome of it that the seen move completes."""

    lead: Action
    outcome: Outcome
    used: int
    """Seen dice the declaration took."""
    all_seen: bool
    p: float
    """The chance of the declaration's unseen results."""
    moved: ReplayMove
    """The move the footage shows, read in the state the declaration left."""


def lead_ins(
    game: ReplayGame, state: GameState, unit: Unit, end: tuple[float, float]
) -> list[Action]:
    """The unit's legal actions (the rules' own sample) that lead into a move, at the
    :data:`TARGETS` targets nearest ``end`` (inches) that the move brings nearer."""
    kinds = game.ruleset.move_leads
    if not kinds:
        return []
    try:
        sampled = game.ruleset.sample_actions(state, unit.id, SeededDice(0))
    except EngineError:
        return []
    leads = [
        a for a in sampled if str(a.kind) in kinds and a.target_id and state.has_unit(a.target_id)
    ]
    near: dict[str, float] = {}
    for a in leads:
        target = state.unit(a.target_id or "")
        to_end = math.dist(target.position, end)
        if to_end < math.dist(target.position, unit.position):
            near[target.id] = to_end
    kept = set(sorted(near, key=near.__getitem__)[:TARGETS])
    return [a for a in leads if a.target_id in kept]


def completions(
    game: ReplayGame,
    state: GameState,
    unit: Unit,
    seen: PieceSeen,
    slack_in: float,
    dice: Seen | None,
    leads: list[Action] | None = None,
) -> Iterator[Completion]:
    """Each lead-in of ``unit`` (``leads``, or :func:`lead_ins`) and each outcome of it, on
    the seen dice ``dice``, after which the seen move ``seen`` is legal (within ``slack_in``
    inches) for the same unit."""
    if leads is None:
        leads = lead_ins(game, state, unit, (seen.x_in, seen.y_in))
    for lead in leads:
        # the outcomes the same move completes (a charge's reach long enough for the run seen)
        # are one reading, at their summed chance: the likeliest's state stands for them
        found: dict[tuple[tuple[Action, ...], int], Completion] = {}
        for outcome, used, all_seen, p in seen_outcomes(game.ruleset, state, lead, dice):
            after = outcome.state
            if not after.has_unit(unit.id) or not after.unit(unit.id).on_table:
                continue
            mover = after.unit(unit.id)
            moved = game.adapter.replay_move(after, game.ruleset, mover, seen, slack_in)
            if not moved.legal or not moved.actions:
                continue
            key = (moved.actions, used)
            if key in found:
                first = found[key]
                found[key] = Completion(
                    lead, first.outcome, used, first.all_seen, first.p + p, first.moved
                )
            else:
                found[key] = Completion(lead, outcome, used, all_seen, p, moved)
        yield from found.values()


def leads_into(
    game: ReplayGame, state: GameState, unit: Unit, action: Action, seen: PieceSeen, slack_in: float
) -> bool:
    """``action`` leads into a move and some outcome of it lets the seen move complete it."""
    if str(action.kind) not in game.ruleset.move_leads:
        return False
    return any(True for _ in completions(game, state, unit, seen, slack_in, None, [action]))
