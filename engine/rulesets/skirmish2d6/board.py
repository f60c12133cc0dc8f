"""The table of the 2D6 skirmish on the open-table kit (:mod:`engine.boards.open`): its policy
(the viewer's own side's models block sight, D001B-12), straight-leg moves, a charge's run,
the 1 in and 3 in drive-backs (D001B-07), the Guardian aura and who holds each objective
(D001B-12). Inches throughout; distances between models are edge to edge (G-01).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from engine.board import contacting_enemies as contacting_enemies
from engine.board import touching
from engine.boards.open import OpenBoard, OpenPolicy, open_board
from engine.geometry import Point, centre_distance_in, within_in
from engine.model import GameState, Unit
from engine.rulesets.skirmish2d6.fighters import GUARDIAN_REACH_IN, card_of

gap = OpenBoard.gap_in
"""Edge-to-edge distance, inches (G-01), with ``a`` optionally standing at ``at``."""
in_contact = touching
"""Base contact (G-04), with ``a`` optionally standing at ``at``."""


def guarded(state: GameState, unit: Unit) -> bool:
    """Whether a Guardian (itself, or an ally within 2 in) protects the unit (§3.2.h)."""
    for u in state.units:
        if u.side != unit.side or not u.on_table or card_of(u).role != "guardian":
            continue
        if u.id == unit.id or within_in(gap(u, unit), GUARDIAN_REACH_IN):
            return True
    return False


# ---------------------------------------------------------------------------------- sight
POLICY = OpenPolicy(figures_block="friends")
"""The kit's policy here: the viewer's own side's models block sight, enemies do not
(D001B-12); cover is the kit's default (crossed or under)."""


def board(state: GameState) -> OpenBoard:
    """The state's open table under this ruleset's policy."""
    return open_board(state, POLICY)


def visible(state: GameState, viewer: Unit, target: Unit) -> bool:
    """The centre line between the two is clear (G-03 primary test, D001B-12)."""
    ends = (viewer.id, target.id)
    return board(state).centre_clear(viewer, viewer.position, target.position, ends)


def sight_blocked_by(state: GameState, viewer: Unit, target: Unit) -> tuple[str, ...]:
    """Names of what blocks the centre line, nearest the viewer first."""
    ends = (viewer.id, target.id)
    return board(state).blocked_by(viewer, viewer.position, target.position, ends)


# ------------------------------------------------------------------------------- movement
path_length_in = OpenBoard.path_length_in


def path_problem(state: GameState, unit: Unit, path: Sequence[Point], limit_in: float) -> str:
    """Why the path is not a legal move of at most ``limit_in`` inches; empty when it is.

    Straight legs, each clear of impassable terrain and other bases, the base wholly on the
    table; the legs together no longer than the limit (RULES §1.5)."""
    if not path or centre_distance_in(path[0], unit.position) > 1e-3:
        return f"a move of {unit.name} must start where it stands"
    length = path_length_in(path)
    if length > limit_in + 1e-6:
        return f"{unit.name} may move {limit_in:g} in, not {length:.2f} in"
    field, names = board(state).field(unit)
    for a, b in itertools.pairwise(path):
        hit = field.blocker(a, b, names)
        if hit == "the table edge":
            return f"{unit.name}'s base would leave the table"
        if hit:
            return f"the path runs into {hit}"
    return ""


def charge_path(state: GameState, unit: Unit, target: Unit, reach_in: float) -> tuple[Point, ...]:
    """The charge's run: up to ``reach_in`` toward the target, stopping in base contact
    (D001B-06); the full distance toward it when the roll is short."""
    stop = unit.radius_in + target.radius_in
    return board(state).slide_toward(unit, target.position, stop, reach_in)


def push_path(
    state: GameState, pushed: Unit, away_from: Unit, distance_in: float
) -> tuple[Point, ...]:
    """The drive-back: ``distance_in`` straight along the centre line away from ``away_from``,
    stopped by impassable terrain, other bases or the table edge with no further effect
    (D001B-07). ``(start,)`` when it cannot move at all."""
    dx, dy = pushed.x - away_from.x, pushed.y - away_from.y
    d = math.hypot(dx, dy)
    if d == 0.0:
        return (pushed.position,)
    return board(state).slide(pushed, dx / d, dy / d, distance_in)
