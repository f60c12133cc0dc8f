"""The autopilot: plays the human side of a narrative (seed 000) battle sensibly.

Used by simulations, the demo and the tests. It weighs each ready character's options by
the chance of wounding (and felling) an enemy, grabs objectives it can reach, and
otherwise advances; it activates the character with the best option first.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action, ActionKind, Order
from engine.board import contact_tol, in_contact_with_anyone, nearest_key
from engine.dice import RandomSource, SeededDice
from engine.geometry import (
    Edge,
    Point,
    centre_distance_in,
    path_cost_in,
    point_gap_in,
    within_in,
)
from engine.model import GameState, Unit, evolve
from engine.protocols import ControllerBase, Pending, Ruleset, register_controller
from engine.rulesets.narrative.board import (
    OBJECTIVE_REACH_IN,
    board,
    can_shoot_from,
    card_of,
    contacting_enemies,
    gap_between,
    move_toward,
    p_wound,
)
from engine.rulesets.narrative.legality import edge_roll_detail
from engine.rulesets.narrative.state import carrying, is_routing
from engine.rulesets.narrative.tactics import (
    contact_path,
    firing_position,
    loose_objectives,
    objective_next_to,
    shortened,
)

NAME = "autopilot"
#: Values of the non-attack plans (attacks are worth their chance to wound times the gain).
_OBJECTIVE_REACHED = 0.7
_OBJECTIVE_SEEN = 0.15
_ADVANCE = 0.05


@dataclass(frozen=True)
class _Plan:
    value: float
    order: Order
    stand_in_roll: bool = False
    """Planned with a stand-in die (a nearest-edge tie): decide() plans again with the real one."""


class Autopilot(ControllerBase):
    """A sensible human stand-in for the narrative ruleset."""

    name: str = NAME
    rulesets: tuple[str, ...] = ("narrative",)

    def __init__(self) -> None:
        # Keyed by id(state) but holding the state itself: while an entry lives its state
        # cannot be collected, so its id cannot be reused by another state.
        self._cache: dict[tuple[int, str], tuple[GameState, _Plan]] = {}

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        """The ready character with the most promising action (sheet order breaks ties)."""
        if not pending.candidates:
            return None
        if len(pending.candidates) == 1:
            return pending.candidates[0]
        # Planning needs no dice except for exact nearest-edge ties: plan with a throwaway die.
        # Branch and bound: plan the characters in order of a cheap upper bound of their value
        # and stop once no bound can beat the best plan found (the same choice as planning all).
        bounded = sorted(
            (
                (
                    _Planner(state, ruleset, state.unit(uid), None).upper_bound(),
                    -state.unit(uid).sheet_order,
                ),
                uid,
            )
            for uid in pending.candidates
        )
        best_key: tuple[float, int] | None = None
        best = pending.candidates[0]
        for bound_key, uid in reversed(bounded):
            if best_key is not None and bound_key < best_key:
                break
            key = (self._plan(state, ruleset, uid, None).value, bound_key[1])
            if best_key is None or key > best_key:
                best_key, best = key, uid
        return best

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        """The best order found for this character."""
        return self._plan(state, ruleset, unit_id, dice).order

    # ---------------------------------------------------------------- plans
    def _plan(
        self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource | None
    ) -> _Plan:
        key = (id(state), unit_id)
        hit = self._cache.get(key)
        if hit is not None and hit[0] is state and (dice is None or not hit[1].stand_in_roll):
            return hit[1]
        planner = _Planner(state, ruleset, state.unit(unit_id), dice)
        plan = planner.best()
        if planner.stand_in_roll:
            plan = evolve(plan, stand_in_roll=True)
        if len(self._cache) > 256:
            self._cache.clear()
        self._cache[key] = (state, plan)
        return plan


class _Planner:
    def __init__(
        self, state: GameState, ruleset: Ruleset, unit: Unit, dice: RandomSource | None
    ) -> None:
        self.state, self.ruleset, self.unit, self.dice = state, ruleset, unit, dice
        self.card = card_of(unit)
        self.move_in = ruleset.query(state).movement_allowance_in(unit)
        self.pick_up: str | None = None
        self.stand_in_roll = False
        self.rolls: list[tuple[str, int]] = []

    def order(
        self,
        kind: ActionKind,
        rule: str,
        reason: str,
        path: tuple[Point, ...] = (),
        target: Unit | None = None,
    ) -> Order:
        action = Action(
            kind,
            self.unit.id,
            path=path,
            target_id=target.id if target else None,
            pick_up=self.pick_up,
        )
        tgap = None
        if target is not None:
            tgap = gap_between(self.unit, target, path[-1] if path else None)
        distance = path_cost_in(path) if path else 0.0
        return Order(action, rule, reason, distance, tgap, rolls=tuple(self.rolls))

    def legal(self, order: Order) -> bool:
        return not self.ruleset.validate(self.state, order.action)

    def kill_value(self, target: Unit) -> float:
        """How much wounding this target is worth: more if the wound fells it."""
        tcard = card_of(target)
        return 1.0 + (1.5 if target.wounds >= tcard.wound_slots else 0.0) + 0.1 * tcard.attack_mod

    def delta(self, target: Unit, moved: bool) -> int:
        return self.card.attack_mod - card_of(target).defence_mod - (1 if moved else 0)

    def upper_bound(self) -> float:
        """A value no plan of this character can exceed, found without any path search."""
        state, unit = self.state, self.unit
        if is_routing(state, unit):
            return 0.0
        engaged = contacting_enemies(state, unit)
        if engaged:
            return max(p_wound(self.delta(e, False)) * self.kill_value(e) * 1.2 for e in engaged)
        bound = 0.0
        if carrying(unit) is not None or objective_next_to(state, unit) is not None:
            bound = 2.0
        enemies = state.enemies_of(self.unit)
        if enemies:
            bound = max(bound, _ADVANCE)
        shoot_in = self.card.shoot_range_in
        tol = contact_tol(state)
        for e in enemies:
            gap = gap_between(unit, e)
            charge = within_in(gap, self.move_in + tol) and not in_contact_with_anyone(state, e)
            if not charge and (shoot_in is None or not within_in(gap, shoot_in + self.move_in)):
                continue
            value = p_wound(self.delta(e, False)) * self.kill_value(e)
            bound = max(bound, value * 1.15 if charge else value)
        reach = self.move_in + unit.radius_in + OBJECTIVE_REACH_IN + 1e-6
        for o in loose_objectives(state):
            near = centre_distance_in(unit.position, o.position) <= reach
            bound = max(bound, _OBJECTIVE_REACHED if near else _OBJECTIVE_SEEN)
        return bound

    def best(self) -> _Plan:
        state, unit = self.state, self.unit
        if is_routing(state, unit):
            edge, roll = self._edge_roll()
            path, _ = board(state).flee_path(unit, Edge(edge), self.move_in)
            order = self.order(ActionKind.FLEE, "forced", "its company is routing", path)
            flight = evolve(order.action, detail=edge_roll_detail(roll))
            return _Plan(0.0, evolve(order, actions=(flight,)))
        engaged = contacting_enemies(state, unit)
        if engaged:
            target = max(
                engaged,
                key=lambda e: (p_wound(self.delta(e, False)) * self.kill_value(e), -e.sheet_order),
            )
            return _Plan(
                p_wound(self.delta(target, False)) * self.kill_value(target) * 1.2,
                self.order(ActionKind.CONTINUE_MELEE, "forced", "it is in melee", target=target),
            )
        if carrying(unit) is None:
            near = objective_next_to(state, unit)
            if near is not None:
                self.pick_up = near.id
        if carrying(unit) is not None or self.pick_up is not None:
            # Like a router's flight, a carrier's run is straight at the nearest edge (G-05)
            # and stops where it is blocked; one blocked at once does something else instead.
            edge = self._edge()
            path, _ = board(state).flee_path(unit, Edge(edge), self.move_in, keep_clear=True)
            order = self.order(
                ActionKind.MOVE, "carry", f"it carries an objective to the {edge} edge", path
            )
            if len(path) > 1 and self.legal(order):
                return _Plan(2.0, order)
        # The best plan is the first of highest value in the order attacks, objective moves,
        # advance; a later group is only searched when it could still beat what was found.
        legal = self._attacks()
        best = max((p.value for p in legal), default=-1.0)
        if best < _OBJECTIVE_REACHED:
            legal += self._objective_moves(reachable_only=best >= _OBJECTIVE_SEEN)
            best = max((p.value for p in legal), default=-1.0)
        if best < _ADVANCE:
            legal += self._advance()
        if legal:
            return max(legal, key=lambda p: p.value)
        return _Plan(0.0, self.order(ActionKind.MOVE, "hold", "it has nothing useful to do"))

    def _edge(self) -> str:
        return self._edge_roll()[0]

    def _edge_roll(self) -> tuple[str, int | None]:
        """G-05's nearest edge and the tie roll that chose it (None: no tie to roll)."""
        query = self.ruleset.query(self.state)
        if self.dice is not None:
            edge, roll = query.nearest_edge(self.unit, self.dice)
            if roll is not None:
                self.rolls.append((f"nearest-edge tie for {self.unit.name}", roll))
            return edge.value, roll
        stand_in = SeededDice(0)
        planned, roll = query.nearest_edge(self.unit, stand_in)
        self.stand_in_roll = self.stand_in_roll or bool(stand_in.rolls)
        return planned.value, roll

    def _attacks(self) -> list[_Plan]:
        """Legal attack plans, in a fixed order: shots, else moves to shoot, then charges.

        The best plan is the first of highest value, so a search is skipped when its plan
        could not beat a legal plan found before it.
        """
        plans: list[_Plan] = []
        best = -1.0

        def add(value: float, order: Order) -> None:
            nonlocal best
            if self.legal(order):
                plans.append(_Plan(value, order))
                best = max(best, value)

        enemies = self.state.enemies_of(self.unit)
        if self.card.shoot_range_in is not None:
            shots = False
            for e in enemies:
                if can_shoot_from(self.state, self.unit, e):
                    shots = True
                    value = p_wound(self.delta(e, False)) * self.kill_value(e)
                    add(
                        value,
                        self.order(
                            ActionKind.SHOOT, "shoot", f"a clear shot at {e.name}", target=e
                        ),
                    )
            if not shots:
                for e in sorted(enemies, key=lambda e: nearest_key(self.unit, e))[:3]:
                    value = p_wound(self.delta(e, True)) * self.kill_value(e) * 0.95
                    if value <= best:
                        continue
                    path = firing_position(self.state, self.unit, e, self.move_in)
                    if path is not None:
                        add(
                            value,
                            self.order(
                                ActionKind.MOVE_AND_SHOOT,
                                "move and shoot",
                                f"a shot at {e.name} after moving",
                                path,
                                e,
                            ),
                        )
        for e in enemies:
            if in_contact_with_anyone(self.state, e):
                continue
            if not within_in(gap_between(self.unit, e), self.move_in + contact_tol(self.state)):
                continue
            value = p_wound(self.delta(e, False)) * self.kill_value(e) * 1.15
            if value <= best:
                continue
            path = contact_path(self.state, self.unit, e, self.move_in)
            if path is not None:
                add(
                    value,
                    self.order(
                        ActionKind.MOVE_INTO_MELEE, "charge", f"a charge at {e.name}", path, e
                    ),
                )
        return plans

    def _objective_moves(self, reachable_only: bool = False) -> list[_Plan]:
        """Moves toward each loose objective. Ties go to the earlier plan, so once a plan of
        some value is found, only objectives that could be worth more are searched."""
        plans: list[_Plan] = []
        reach = self.move_in + self.unit.radius_in + OBJECTIVE_REACH_IN + 1e-6
        for o in loose_objectives(self.state):
            if plans and plans[0].value >= _OBJECTIVE_REACHED:
                break
            if (reachable_only or plans) and centre_distance_in(
                self.unit.position, o.position
            ) > reach:
                continue  # cannot be reached this move, so worth no more than what was found
            stop = self.unit.radius_in + OBJECTIVE_REACH_IN / 2
            path = move_toward(self.state, self.unit, o.position, stop, self.move_in)
            if len(path) < 2:
                continue
            reached = within_in(
                point_gap_in(path[-1], self.unit.radius_in, o.position), OBJECTIVE_REACH_IN
            )
            value = _OBJECTIVE_REACHED if reached else _OBJECTIVE_SEEN
            for p in (path, *shortened(path)):
                order = self.order(ActionKind.MOVE, "objective", f"heads for {o.name}", p)
                if self.legal(order):
                    plans.append(_Plan(value, order))
                    break
        return plans

    def _advance(self) -> list[_Plan]:
        enemies = self.state.enemies_of(self.unit)
        if not enemies:
            return []
        target = min(enemies, key=lambda e: nearest_key(self.unit, e))
        keep = self.card.shoot_range_in if self.card.shoot_range_in is not None else 0.0
        stop = (
            self.unit.radius_in + target.radius_in + max(contact_tol(self.state) + 0.2, keep * 0.8)
        )
        path = move_toward(self.state, self.unit, target.position, stop, self.move_in)
        plans = []
        for p in (path, *shortened(path)):
            order = self.order(ActionKind.MOVE, "advance", f"advances on {target.name}", p)
            if len(p) > 1 and self.legal(order):
                plans.append(_Plan(_ADVANCE, order))
                break
        return plans


register_controller(NAME, Autopilot)
