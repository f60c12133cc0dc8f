"""The strike AI's search (RULES §3.3.1): for one soldier, sample destinations within its move
and score each by the fixed priority list: (a) a strike that removes an enemy (the most
valuable: points, then lowest Toughness, then nearest), (b) reaching an objective, (c) set-up
value minus exposure, (d) advance toward the nearest objective or enemy, ending in cover
when possible, with the soldier type's flavour as a tie-breaker.

One :class:`Planner` serves one decision: the support each enemy already has from the other
allies (who sees it, how, within their threat range) is worked out once and shared by every
destination of every soldier weighed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from engine.geometry import Edge, Point
from engine.model import GameState, Objective, Unit, evolve
from engine.rulesets.strike.board import Pose, StrikeBoard, pose_of
from engine.rulesets.strike.count import CLEAR, Counted, apply_disregard
from engine.rulesets.strike.state import RANGE_TOL_IN, card_of
from engine.rulesets.strike.victory import CONTACT_TOL_IN, holder, objective_value

DIRECTIONS = 16
FRACTIONS = (0.25, 0.5, 0.75, 1.0)
SUPPORT_RADIUS_IN = 6.0
ARTILLERY_STANDOFF_IN = 12.0
MIN_STEP_IN = 0.05
"""Shorter moves are not sampled (the soldier stays put instead)."""


def _depth(edge: Edge, p: Point) -> float:
    """How far from its own table edge a point lies, inches."""
    return {Edge.FRONT: p[1], Edge.BACK: -p[1], Edge.LEFT: p[0], Edge.RIGHT: -p[0]}[edge]


@dataclass(frozen=True)
class Plan:
    """What one soldier would do: where it ends, whom it strikes, why, and its score."""

    unit: str
    end: Point
    target: str | None
    key: tuple[float, ...]
    rule: str
    reason: str
    sprint: tuple[int, ...] = ()


@dataclass
class Planner:
    """The search for one decision (see the module docstring)."""

    state: GameState
    board: StrikeBoard = field(init=False)
    _support: dict[tuple[str, str], list[Counted]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.board = StrikeBoard(self.state)
        self.holders = {o.id: holder(self.state, o) for o in self.state.objectives}
        self.enemies = {
            s.name: tuple(u for u in self.board.units if u.side != s.name) for s in self.state.sides
        }
        self._arrays = {
            side: (
                np.array([u.x for u in units], dtype=np.float64),
                np.array([u.y for u in units], dtype=np.float64),
                np.array([u.radius_in + card_of(u).threat_in for u in units], dtype=np.float64),
            )
            for side, units in self.enemies.items()
        }

    # ------------------------------------------------------------ support
    def support(self, target: Unit, without: str) -> list[Counted]:
        """The allies of ``without``'s side (other than it) that see ``target`` within their
        threat range, with their class and weight (§3.1.g steps 2-4)."""
        key = (target.id, without)
        if key not in self._support:
            tpose = pose_of(target)
            side = self.state.unit(without).side
            out = []
            for ally in self.board.units:
                if ally.side != side or ally.id == without:
                    continue
                pose = pose_of(ally)
                gap = self.board.gap_in(pose, tpose)
                if gap > card_of(ally).threat_in + RANGE_TOL_IN:
                    continue
                seen = self.board.sighting(pose, tpose)
                if seen.cls is not None:
                    out.append(Counted(ally.id, card_of(ally).weight, seen.cls, gap))
            self._support[key] = out
        return self._support[key]

    def count_with(self, unit: Unit, at: Pose, target: Unit) -> int | None:
        """The count against ``target`` with ``unit`` striking from ``at`` (None: it cannot
        strike it from there)."""
        tpose = pose_of(target)
        gap = self.board.gap_in(at, tpose)
        card = card_of(unit)
        if gap > card.threat_in + RANGE_TOL_IN:
            return None
        seen = self.board.sighting(at, tpose)
        if seen.cls is None:
            return None
        entries = [*self.support(target, unit.id), Counted(unit.id, card.weight, seen.cls, gap)]
        counted, _ = apply_disregard(entries)
        return sum(c.weight for c in counted)

    def threat_against(self, unit: Unit, at: Pose) -> tuple[int, int]:
        """(exposure, cover seen): how many enemies could remove ``unit`` standing at ``at``
        on their next activation (their count reaches its Toughness), and how many enemies see
        it obscured or in cover there rather than clear."""
        entries: list[Counted] = []
        hidden = 0
        enemies = self.enemies[unit.side]
        ex, ey, reach = self._arrays[unit.side]
        gaps = np.hypot(ex - at[1], ey - at[2]) - at[3]
        for i in np.nonzero(gaps <= reach + RANGE_TOL_IN)[0]:
            enemy = enemies[int(i)]
            epose = pose_of(enemy)
            gap = max(0.0, float(gaps[i]) - enemy.radius_in)
            seen = self.board.sighting(epose, at)
            if seen.cls is None:
                continue
            hidden += seen.cls != CLEAR
            entries.append(Counted(enemy.id, card_of(enemy).weight, seen.cls, gap))
        counted, _ = apply_disregard(entries)
        total = sum(c.weight for c in counted)
        return (len(counted) if total >= card_of(unit).toughness else 0), hidden

    # ------------------------------------------------------------ destinations
    def destinations(self, unit: Unit, reach_in: float) -> list[Point]:
        """The spot it stands on, 16 directions x quarter steps of its move, and the contact
        points of objectives within reach (legal straight moves only)."""
        out: list[Point] = [unit.position]
        for k in range(DIRECTIONS):
            angle = 2 * math.pi * k / DIRECTIONS
            for f in FRACTIONS:
                out.append(
                    (
                        unit.x + reach_in * f * math.sin(angle),
                        unit.y + reach_in * f * math.cos(angle),
                    )
                )
        for o in self.state.objectives:
            d = math.dist(unit.position, o.position)
            if 1e-9 < d <= reach_in + unit.radius_in:
                frac = (d - unit.radius_in) / d
                out.append((unit.x + (o.x - unit.x) * frac, unit.y + (o.y - unit.y) * frac))
        legal = [unit.position]
        for p in out[1:]:
            step = math.dist(p, unit.position)
            if MIN_STEP_IN <= step <= reach_in + 1e-9 and not self.board.leg_problem(
                unit, unit.position, p
            ):
                legal.append(p)
        return legal

    # ------------------------------------------------------------ scoring
    def best_kill(
        self, unit: Unit, at: Pose, enemies: list[Unit]
    ) -> tuple[tuple[float, ...], Unit] | None:
        """The most valuable enemy the soldier would remove striking from ``at``."""
        best: tuple[tuple[float, ...], Unit] | None = None
        for enemy in enemies:
            total = self.count_with(unit, at, enemy)
            if total is None or total < card_of(enemy).toughness:
                continue
            gap = self.board.gap_in(at, pose_of(enemy))
            value = (float(card_of(enemy).points), -float(card_of(enemy).toughness), -gap)
            if best is None or value > best[0]:
                best = (value, enemy)
        return best

    def setup_value(self, unit: Unit, at: Pose, enemies: list[Unit]) -> int:
        """Enemies whose count, with this soldier counting from ``at``, reaches Toughness - 1."""
        n = 0
        for enemy in enemies:
            total = self.count_with(unit, at, enemy)
            if total is not None and total >= card_of(enemy).toughness - 1:
                n += 1
        return n

    def objective_at(self, unit: Unit, p: Point) -> tuple[int, Objective | None]:
        """The value of an objective the soldier would touch at ``p`` that no other ally of
        its side touches already."""
        best: tuple[int, Objective | None] = (0, None)
        for o in self.state.objectives:
            if math.dist(p, o.position) - unit.radius_in > CONTACT_TOL_IN:
                continue
            others = [
                a
                for a in self.state.units_of(unit.side)
                if a.id != unit.id
                and math.dist(a.position, o.position) - a.radius_in <= CONTACT_TOL_IN
            ]
            if others:
                continue
            value = objective_value(self.state, unit.side, o)
            if value > best[0]:
                best = (value, o)
        return best

    def goal(self, unit: Unit) -> Point | None:
        """Where it advances: the nearest objective its side does not hold, else the nearest
        enemy."""
        free = [o for o in self.state.objectives if self.holders[o.id] != unit.side]
        if free:
            return min(free, key=lambda o: math.dist(o.position, unit.position)).position
        enemies = self.enemies[unit.side]
        if enemies:
            return min(enemies, key=lambda e: math.dist(e.position, unit.position)).position
        return None

    def flavour(self, unit: Unit, p: Point, hidden: int) -> float:
        """The soldier type's tie-breaker (§3.3.1 step 4), higher is better."""
        kind = card_of(unit).type
        enemies = self.enemies[unit.side]
        if kind == "artillery" and enemies:
            near = min(math.dist(p, e.position) - e.radius_in - unit.radius_in for e in enemies)
            return 1.0 if near >= ARTILLERY_STANDOFF_IN else near / ARTILLERY_STANDOFF_IN
        if kind == "heavy" and self.state.objectives:
            return -min(math.dist(p, o.position) for o in self.state.objectives)
        if kind == "skirmish":
            return float(hidden)
        if kind == "support":
            allies = self.state.units_of(unit.side)
            return float(
                sum(
                    1
                    for a in allies
                    if a.id != unit.id and math.dist(a.position, p) <= SUPPORT_RADIUS_IN + 1
                )
            )
        if kind == "command":
            others = [a for a in self.state.units_of(unit.side) if a.id != unit.id]
            if not others:
                return 0.0
            centroid = (
                float(np.mean([a.x for a in others])),
                float(np.mean([a.y for a in others])),
            )
            edge = self.state.side(unit.side).edge
            return 1.0 if _depth(edge, p) <= _depth(edge, centroid) else 0.0
        if kind == "assault":
            return -math.dist(p, unit.position)
        return 0.0

    def plan(
        self, unit: Unit, may_move: bool, may_strike: bool, sprint: tuple[int, ...] = ()
    ) -> Plan | None:
        """The best plan for the soldier (None: nothing worth doing)."""
        card = card_of(unit)
        reach = card.speed_in + len(sprint) * card.sprint_in if may_move else 0.0
        spots = self.destinations(unit, reach) if may_move else [unit.position]
        enemies = list(self.enemies[unit.side])
        scope = reach + card.threat_in + 2.0
        nearby = [e for e in enemies if math.dist(e.position, unit.position) <= scope]
        goal = self.goal(unit)
        here_gap = math.dist(unit.position, goal) if goal else 0.0
        best: Plan | None = None
        for p in spots:
            at = (unit.id, p[0], p[1], unit.radius_in)
            kill = self.best_kill(unit, at, nearby) if may_strike else None
            candidate = self._scored(unit, p, kill, nearby, goal, here_gap, sprint)
            if best is not None and candidate.key <= best.key:
                continue
            if kill is not None and not self.removes(unit, p, kill[1]):
                candidate = self._scored(unit, p, None, nearby, goal, here_gap, sprint)
                if best is not None and candidate.key <= best.key:
                    continue
            best = candidate
        return best

    def removes(self, unit: Unit, p: Point, target: Unit) -> bool:
        """The exact count (on the board with the soldier moved to ``p``) removes the target:
        the estimate leaves out how the moved base itself hides the target from allies."""
        moved = evolve(unit, x=p[0], y=p[1])
        board = StrikeBoard(self.state.with_unit(moved))
        return board.count(moved, target).removed

    def _scored(
        self,
        unit: Unit,
        p: Point,
        kill: tuple[tuple[float, ...], Unit] | None,
        nearby: list[Unit],
        goal: Point | None,
        here_gap: float,
        sprint: tuple[int, ...],
    ) -> Plan:
        at = (unit.id, p[0], p[1], unit.radius_in)
        obj_value, objective = self.objective_at(unit, p)
        exposure, hidden = self.threat_against(unit, at)
        setup = self.setup_value(unit, at, nearby) if kill is None else 0
        progress = here_gap - (math.dist(p, goal) if goal else 0.0)
        near = min(nearby, key=lambda e: math.dist(e.position, p)) if nearby else None
        in_cover = near is not None and self.board.kit.cover(near.position, p, at[3])[1] is not None
        key = (
            1.0 if kill else 0.0,
            *(kill[0] if kill else (0.0, 0.0, 0.0)),
            float(obj_value),
            float(setup - exposure),
            round(progress * 2.0) / 2.0,
            1.0 if in_cover else 0.0,
            self.flavour(unit, p, hidden),
            progress,
            -math.dist(p, unit.position),
        )
        if kill:
            rule, reason = "(a) a strike that removes", f"it removes {kill[1].name}"
        elif obj_value:
            assert objective is not None
            verb = "holds" if p == unit.position else "takes"
            rule, reason = "(b) reach an objective", f"it {verb} {objective.name}"
        elif setup - exposure > 0:
            who = "an enemy" if setup == 1 else f"{setup} enemies"
            rule, reason = "(c) set up a strike", f"{who} one short of removal from there"
        elif p != unit.position:
            rule, reason = "(d) advance", "toward the nearest objective or enemy"
        else:
            rule, reason = "(d) hold", "no better place within reach"
        return Plan(
            unit.id,
            p,
            kill[1].id if kill else None,
            key,
            rule,
            reason,
            sprint,
        )
