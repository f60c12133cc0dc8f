"""``strike-ai``: the generic AI of RULES §3.3.1 for the strike system.

Which soldier: among the unactivated soldiers whose Type face is in the pool, the one with the
best plan (:mod:`engine.controllers.strike_plan`), sheet order on a tie; it never passes while
a die matches a waiting soldier (step 6). What it does: the plan's move (a straight leg) and,
when the plan removes an enemy, the strike (from where it stands first, then the move, when it
can already remove one). Action dice beyond the activation die go on the soldier's sprint
skill only when no removal is in reach without them and some is with them, using dice no
waiting soldier needs (step 5, at most its Initiative).

In a large battle only the soldiers whose quick screen looks best are searched in full
(``SEARCHED``; ``SEARCHED_LARGE`` past ``LARGE`` soldiers), so that a decision stays fast at
100 soldiers a side.
"""

from __future__ import annotations

import math

from engine.actions import Action, ActionKind, Order
from engine.controllers.strike_plan import Plan, Planner
from engine.dice import RandomSource
from engine.model import GameState, Unit
from engine.protocols import ControllerBase, Pending, PendingKind, Ruleset, register_controller
from engine.rulesets.strike.oracle import short_types
from engine.rulesets.strike.state import HOLD, KEEP, NAME, REROLL, STRIKE, card_of, rules_of

AI_NAME = "strike-ai"
MIN_MOVE_IN = 0.05
"""Shorter moves are not worth ordering: the soldier stays put."""
SEARCHED = 6
"""Soldiers searched in full per choice; the others are ranked by the quick screen."""
SEARCHED_LARGE = 4
"""As many in a large battle (more than ``LARGE`` soldiers on the side), to stay fast."""
LARGE = 20


class StrikeAI(ControllerBase):
    """The strike system's AI general (§3.3.1)."""

    name = AI_NAME
    rulesets: tuple[str, ...] = (NAME,)

    def __init__(self) -> None:
        self._last: tuple[GameState, str, Plan | None] | None = None
        """The plan found while choosing the soldier (the very state it was found in)."""

    # ------------------------------------------------------------ which soldier
    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        """The candidate with the best plan (never a pass while one can activate)."""
        if not pending.candidates:
            return None
        planner = Planner(state)
        units = [state.unit(uid) for uid in pending.candidates]
        limit = SEARCHED_LARGE if len(state.units_of(pending.side or "")) > LARGE else SEARCHED
        if len(units) > limit:
            units = sorted(units, key=lambda u: self._screen(planner, u), reverse=True)[:limit]
            units.sort(key=lambda u: u.sheet_order)
        best: tuple[tuple[float, ...], int, str, Plan | None] | None = None
        for u in units:
            plan = self._plan(planner, state, u, fresh=True)
            key = plan.key if plan else (-math.inf,)
            if best is None or key > best[0] or (key == best[0] and u.sheet_order < best[1]):
                best = (key, u.sheet_order, u.id, plan)
        assert best is not None
        self._last = (state, best[2], best[3])
        return best[2]

    def _screen(self, planner: Planner, unit: Unit) -> tuple[float, ...]:
        """A quick look: could it remove an enemy after a full move (distance alone, and the
        support that enemy already has), and how near its goal is."""
        card = card_of(unit)
        reach = card.speed_in + card.threat_in + 2 * unit.radius_in
        kill = 0.0
        for enemy in planner.enemies[unit.side]:
            if math.dist(enemy.position, unit.position) - enemy.radius_in > reach:
                continue
            support = sum(c.weight for c in planner.support(enemy, unit.id))
            if support + card.weight >= card_of(enemy).toughness:
                kill = max(kill, 1.0 + card_of(enemy).points)
        goal = planner.goal(unit)
        near = -math.dist(goal, unit.position) if goal else 0.0
        return (kill, near)

    def _plan(self, planner: Planner, state: GameState, unit: Unit, fresh: bool) -> Plan | None:
        used = frozenset() if fresh else rules_of(state).used
        may_move, may_strike = "move" not in used, STRIKE not in used
        plan = planner.plan(unit, may_move, may_strike)
        if plan is None or plan.target is not None or not may_move or not may_strike:
            return plan
        spare = self._spare_dice(state, unit, fresh)
        if not spare or card_of(unit).sprint_in <= 0:
            return plan
        for n in range(1, len(spare) + 1):
            longer = planner.plan(unit, True, True, tuple(spare[:n]))
            if longer is not None and longer.target is not None:
                return longer
        return plan

    def _spare_dice(self, state: GameState, unit: Unit, fresh: bool) -> list[int]:
        """Dice no waiting soldier of the side needs (most plentiful faces first), at most the
        soldier's Initiative less the skill dice already spent."""
        rules = rules_of(state)
        pool = list(rules.pool(unit.side))
        if fresh:
            pool.remove(card_of(unit).face)
        waiting = [
            card_of(u).face
            for u in state.units_of(unit.side)
            if not u.activated and u.id != unit.id
        ]
        spare: list[int] = []
        for face in sorted(set(pool), key=lambda f: (-(pool.count(f) - waiting.count(f)), f)):
            spare += [face] * max(0, pool.count(face) - waiting.count(face))
        room = card_of(unit).initiative - (0 if fresh else rules.skill_dice)
        return spare[: max(0, room)]

    def choose(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str:
        """The Oracle re-roll (§3.3.1 "Oracle"): roll the spare dice again when some soldier
        has no die to activate with (a re-roll can only mend that); else keep the pool."""
        side = pending.side or ""
        if REROLL in pending.options and short_types(state, side) > 0:
            return REROLL
        return KEEP if KEEP in pending.options else pending.options[0]

    # ------------------------------------------------------------ what it does
    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        """The soldier's move and strike for its plan; a hold or a stop when nothing helps."""
        unit = state.unit(unit_id)
        fresh = ruleset.pending(state).kind is PendingKind.CHOOSE_UNIT
        last = self._last
        if fresh and last is not None and last[0] is state and last[1] == unit_id:
            plan = last[2]
        else:
            plan = self._plan(Planner(state), state, unit, fresh)
        self._last = None
        stop = Action(HOLD if fresh else ActionKind.PASS, unit_id, side=unit.side)
        if plan is None:
            return Order(stop, "(d) hold", "nothing within reach helps")
        moved = math.dist(plan.end, unit.position) > MIN_MOVE_IN
        path = (unit.position, plan.end) if moved else ()
        sprint = (("sprint_dice", list(plan.sprint)),) if plan.sprint and moved else ()
        actions: list[Action] = []
        if plan.target is not None:
            # A strike after a move is one action (with its path); a strike from where it
            # stands comes first, and its move is planned afterwards.
            actions.append(Action(STRIKE, unit_id, path=path, target_id=plan.target, detail=sprint))
        elif moved:
            actions.append(Action(ActionKind.MOVE, unit_id, path=path, detail=sprint))
        if not actions and not fresh:
            return Order(stop, "(e) end of the activation", "nothing more to do")
        if not actions:
            return Order(stop, plan.rule, plan.reason)
        target_gap = None
        if plan.target is not None:
            target = state.unit(plan.target)
            target_gap = max(
                0.0, math.dist(plan.end, target.position) - unit.radius_in - target.radius_in
            )
        return Order(
            actions,
            plan.rule,
            plan.reason,
            distance_in=math.dist(plan.end, unit.position),
            target_distance_in=target_gap,
        )


register_controller(AI_NAME, StrikeAI)
