"""Run for Cover on the narrative table (RULES §4.g, D002-01's seed-000 column): the moves of
at most half a character's move a run for cover may take, and the cover a spot gives against
the enemies that could see it there. Inches and degrees.

A run is one straight leg (the seed-000 shapes with half the move: one leg of up to M/2, or
two of up to M/4; a straight run reaches as far as either) ending wholly on the table, clear
of base contact with an enemy (it is a move, D000-16) and of ground the event leaves
impassable (the road rupture's hole).
"""

from __future__ import annotations

from collections.abc import Sequence

from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from engine.geometry import Cover, Point, advance
from engine.model import GameState, Unit
from engine.rulesets.narrative.board import (
    board,
    card_of,
    contacting_enemies,
)
from engine.rulesets.narrative.legality import path_problem
from engine.rulesets.narrative.query import NarrativeQuery

HEADINGS = 16
"""Directions a run is tried in (every 22.5 degrees)."""
LENGTHS = (0.25, 0.5, 0.75, 1.0)
"""Lengths tried, as fractions of the half move."""
HIDDEN = 3
"""``spot_cover`` of a spot no enemy could see (better than hard cover)."""
LEVELS = {Cover.NONE: 0, Cover.SOFT: 1, Cover.HARD: 2}


def half_move_in(unit: Unit) -> float:
    """How far a run for cover may go: half the character's move, inches."""
    return card_of(unit).move_in / 2.0


def run_problem(state: GameState, unit: Unit, path: Sequence[Point]) -> str:
    """Why ``path`` is not a run for cover of the unit (empty: it is one)."""
    path = tuple(path)
    if len(path) < 2:
        return f"{unit.name} runs for cover along a path of at least one leg"
    half = half_move_in(unit)
    problem = path_problem(state, unit, path, half, None)
    if problem:
        return f"{problem} (a run for cover goes at most half the move, {half:g} in)"
    if not state.table.contains_base(path[-1], unit.radius_in):
        return f"{unit.name} may not run off the table"
    touched = contacting_enemies(state, unit, path[-1])
    if touched:
        return f"the run ends in contact with {touched[0].name}"
    return ""


def cover_runs(
    state: GameState, unit: Unit, avoid: Polygon | None = None
) -> list[tuple[Point, ...]]:
    """Runs for cover the unit could take (straight legs in 16 directions, four lengths),
    none ending on ``avoid``; shortest first."""
    half = half_move_in(unit)
    out: list[tuple[Point, ...]] = []
    for fraction in LENGTHS:
        for k in range(HEADINGS):
            end = advance(unit.position, 360.0 * k / HEADINGS, half * fraction)
            path = (unit.position, end)
            if avoid is not None and avoid.intersects(ShapelyPoint(end).buffer(unit.radius_in)):
                continue
            if not run_problem(state, unit, path):
                out.append(path)
    return out


def spot_cover(state: GameState, unit: Unit, at: Point, against: Sequence[Unit]) -> int:
    """The cover the unit would have standing at ``at`` (D002-09): the worst of its cover
    against each of ``against`` that could see it there (0 none, 1 soft, 2 hard), or
    ``HIDDEN`` (3) when none could."""
    query = NarrativeQuery(state)
    worst = HIDDEN
    for enemy in against:
        if not board(state).centre_clear(enemy, enemy.position, at, (enemy.id, unit.id)):
            continue
        worst = min(worst, LEVELS[Cover(query.cover_at(at, enemy, unit.radius_in))])
    return worst


def best_run(
    state: GameState, unit: Unit, against: Sequence[Unit], avoid: Polygon | None = None
) -> tuple[Point, ...] | None:
    """The run to the best cover against ``against`` (then the shortest, then the first
    direction clockwise from the far edge); None when the unit can run nowhere."""
    runs = cover_runs(state, unit, avoid)
    if not runs:
        return None
    return max(runs, key=lambda p: (spot_cover(state, unit, p[-1], against), -_length(p)))


def _length(path: Sequence[Point]) -> float:
    (x0, y0), (x1, y1) = path[0], path[-1]
    return float(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
