"""The seed-000 AI: the exact priority list of RULES §2.k.

Characters activate in sheet order; the AI never passes while it has characters ready.
Each activation runs the pre-activation checks (routing, melee, pick-up) and then the
first step of the list that applies; the order says which step fired and why.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar

from engine.actions import Action, ActionKind, Order
from engine.board import contact_tol, in_contact_with_anyone, pick_nearest, ranked_with_ties
from engine.dice import RandomSource
from engine.geometry import (
    Edge,
    Point,
    bearing_deg,
    path_cost_in,
    point_gap_in,
    within_in,
)
from engine.model import GameState, Objective, Unit
from engine.protocols import ControllerBase, Pending, Ruleset, register_controller
from engine.rulesets.narrative.board import (
    OBJECTIVE_REACH_IN,
    board,
    can_shoot_from,
    card_of,
    contacting_enemies,
    forward_path,
    gap_between,
    in_shooting_range,
    move_toward,
    sight_between,
)
from engine.rulesets.narrative.legality import edge_roll_detail
from engine.rulesets.narrative.state import carrying, in_bonus, is_routing, rules_of
from engine.rulesets.narrative.tactics import (
    clockwise_from_heading,
    contact_path,
    d6_pick,
    firing_position,
    loose_objectives,
    nearest,
    objective_next_to,
    pivot_toward,
    shortened,
    viewable,
)

NAME = "narrative-ai"
T = TypeVar("T")


class NarrativeAI(ControllerBase):
    """Seed 000's AI general."""

    name: str = NAME
    rulesets: tuple[str, ...] = ("narrative",)

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        """The first ready character on the sheet; never a pass while one is ready."""
        return pending.candidates[0] if pending.candidates else None

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        """The order for this activation, following the priority list."""
        return _Activation(state, ruleset, state.unit(unit_id), dice).decide()


class _Activation:
    """One AI activation's reasoning (a small object to keep the steps readable)."""

    def __init__(self, state: GameState, ruleset: Ruleset, unit: Unit, dice: RandomSource) -> None:
        self.state = state
        self.ruleset = ruleset
        self.unit = unit
        self.dice = dice
        self.card = card_of(unit)
        rules = rules_of(state)
        self.bonus = in_bonus(state)
        self.bonus_toward = rules.bonus_toward
        self.move_in = rules.bonus_move_in if self.bonus else self.card.move_in
        self.rolls: list[tuple[str, int]] = []
        self.pick_up: str | None = None

    def _roll_note(self, purpose: str, result: int | None) -> None:
        if result is not None:
            self.rolls.append((purpose, result))

    def order(
        self,
        kind: ActionKind,
        rule: str,
        reason: str,
        path: tuple[Point, ...] = (),
        target: Unit | None = None,
        heading: float | None = None,
        blocked: tuple[str, ...] = (),
        detail: tuple[tuple[str, int], ...] = (),
    ) -> Order:
        action = Action(
            kind,
            self.unit.id,
            path=path,
            heading_deg=heading,
            target_id=target.id if target else None,
            pick_up=self.pick_up,
            detail=detail,
        )
        end = path[-1] if path else None
        tgap = gap_between(self.unit, target, end) if target is not None else None
        return Order(
            action,
            rule,
            reason,
            distance_in=path_cost_in(path) if path else 0.0,
            target_distance_in=tgap,
            blocked=blocked,
            rolls=tuple(self.rolls),
        )

    def legal(self, order: Order) -> bool:
        return not self.ruleset.validate(self.state, order.action)

    # ----------------------------------------------------------- the list
    def decide(self) -> Order:
        state, unit = self.state, self.unit
        if is_routing(state, unit):
            edge, roll = self.ruleset.query(state).nearest_edge(unit, self.dice)
            self._roll_note(f"nearest-edge tie for {unit.name}", roll)
            path, _ = board(state).flee_path(unit, edge, self.move_in)
            return self.order(
                ActionKind.FLEE,
                "P1: routing",
                f"its company is routing toward the {edge.value} edge",
                path,
                detail=edge_roll_detail(roll),
            )
        engaged = contacting_enemies(state, unit)
        if engaged:
            return self._continue_melee(engaged)
        if carrying(unit) is None:
            objective = objective_next_to(state, unit)
            if objective is not None:
                self.pick_up = objective.id
        if carrying(unit) is not None or self.pick_up is not None:
            return self._carry_off()
        if self.bonus and self.bonus_toward is not None:
            # D000-08: turn to where the felled enemy stood, then the steps with half a move.
            self.unit = unit = pivot_toward(unit, self.bonus_toward)
        for step in (
            self._step3_shoot,
            self._step4_move_and_shoot,
            self._step5_objective_in_reach,
            self._step6_charge,
            self._step7_objective_in_sight,
            self._step8_enemy_in_sight,
        ):
            found = step()
            if found is not None:
                return found
        if self.bonus:
            # D000-08: straight on toward where the felled enemy stood, stopping where blocked.
            path = forward_path(state, unit, self.move_in)
            if len(path) > 1:
                forward = self.order(
                    ActionKind.MOVE,
                    "bonus: forward",
                    "nothing else applies, so it presses on",
                    path,
                )
                if self.legal(forward):
                    return forward
            return self.order(
                ActionKind.MOVE,
                "bonus: forward",
                "nothing else applies and the way ahead is blocked",
                heading=unit.heading_deg,
            )
        return self._step9_face_nearest()

    def _nearest_edge(self) -> Edge:
        """G-05's nearest edge; a tie the own edge does not settle is rolled and noted."""
        edge, roll = self.ruleset.query(self.state).nearest_edge(self.unit, self.dice)
        self._roll_note(f"nearest-edge tie for {self.unit.name}", roll)
        return edge

    def _carry_off(self) -> Order:
        edge = self._nearest_edge()
        path, leaves = board(self.state).flee_path(self.unit, edge, self.move_in, keep_clear=True)
        what = carrying(self.unit) or self.pick_up
        name = self.state.objective(what or "").name
        reason = f"it carries {name} and runs for the {edge.value} edge"
        if leaves:
            reason += ", off the table"
        if len(path) > 1:
            order = self.order(ActionKind.MOVE, "step 1: carry the objective off", reason, path)
            if self.legal(order):
                return order
        # G-05: straight at the edge or not at all; the way is blocked, so it stays put.
        return self.order(ActionKind.MOVE, "step 1: carry the objective off", reason + " (blocked)")

    def _continue_melee(self, engaged: tuple[Unit, ...]) -> Order:
        ordered = clockwise_from_heading(self.unit, engaged)
        index, rolls = d6_pick(len(ordered), self.dice, f"melee target for {self.unit.name}")
        for r in rolls:
            self.rolls.append((f"melee target for {self.unit.name}", r))
        target = ordered[index]
        reason = f"it is in melee with {target.name}"
        if len(ordered) > 1:
            reason += f" (picked by d6 {rolls[-1]} among {len(ordered)})"
        return self.order(
            ActionKind.CONTINUE_MELEE, "step 2: continue melee", reason, target=target
        )

    def _enemies(self) -> tuple[Unit, ...]:
        return self.state.enemies_of(self.unit)

    def _step3_shoot(self) -> Order | None:
        if self.card.shoot_range_in is None:
            return None
        shootable = [e for e in self._enemies() if can_shoot_from(self.state, self.unit, e)]
        if not shootable:
            return None
        target, roll = pick_nearest(
            nearest(self.unit, shootable), self.dice, f"nearest-target tie for {self.unit.name}"
        )
        self._roll_note(f"nearest-target tie for {self.unit.name}", roll)
        gap = gap_between(self.unit, target)
        return self.order(
            ActionKind.SHOOT,
            "step 3: stand and shoot the nearest enemy in range",
            f"{target.name} is the nearest enemy in range, {gap:.1f} in away",
            target=target,
        )

    def _blocked_names(self) -> tuple[str, ...]:
        names: list[str] = []
        rng = self.card.shoot_range_in
        for e in self._enemies():
            if rng is not None and in_shooting_range(self.unit, e):
                for name in sight_between(self.state, self.unit, e).blocked_by:
                    if name not in names:
                        names.append(name)
        return tuple(names)

    def _step4_move_and_shoot(self) -> Order | None:
        if self.card.shoot_range_in is None:
            return None
        for enemy in self._ranked(nearest(self.unit, self._enemies()), "closest-target tie"):
            path = firing_position(self.state, self.unit, enemy, self.move_in)
            if path is None:
                continue
            order = self.order(
                ActionKind.MOVE_AND_SHOOT,
                "step 4: move and shoot the closest enemy it can reach a shot at",
                f"{enemy.name} is the closest enemy it can get a shot at",
                path,
                target=enemy,
                blocked=self._blocked_names(),
            )
            if self.legal(order):
                return order
        return None

    def _step5_objective_in_reach(self) -> Order | None:
        for objective in self._objectives_by_distance(viewable_only=True):
            stop = self.unit.radius_in + OBJECTIVE_REACH_IN / 2
            path = move_toward(self.state, self.unit, objective.position, stop, self.move_in)
            if within_in(
                point_gap_in(path[-1], self.unit.radius_in, objective.position),
                OBJECTIVE_REACH_IN,
            ):
                order = self._move_order(
                    path,
                    "step 5: move to a visible objective in reach",
                    f"{objective.name} is in sight and within its move",
                )
                if order is not None and order.action.path:
                    return order
        return None

    def _objectives_by_distance(self, viewable_only: bool) -> Iterator[Objective]:
        found = [
            o
            for o in loose_objectives(self.state)
            if not viewable_only or viewable(self.state, self.unit, o.position)
        ]
        keyed = [
            ((round(point_gap_in(self.unit.position, self.unit.radius_in, o.position), 9),), o)
            for o in found
        ]
        return self._ranked(keyed, "nearest-objective tie")

    def _ranked(self, keyed: Sequence[tuple[tuple[float, ...], T]], what: str) -> Iterator[T]:
        """Nearest first; exact ties in an order drawn with logged rolls (G-07)."""
        purpose = f"{what} for {self.unit.name}"
        for item, roll in ranked_with_ties(keyed, self.dice, purpose):
            self._roll_note(purpose, roll)
            yield item

    def _step6_charge(self) -> Order | None:
        unengaged = [e for e in self._enemies() if not in_contact_with_anyone(self.state, e)]
        reach = self.move_in + contact_tol(self.state)
        in_reach = [e for e in unengaged if within_in(gap_between(self.unit, e), reach)]
        for enemy in self._ranked(nearest(self.unit, in_reach), "closest-target tie"):
            path = contact_path(self.state, self.unit, enemy, self.move_in)
            if path is None:
                continue
            order = self.order(
                ActionKind.MOVE_INTO_MELEE,
                "step 6: charge the closest unengaged enemy in reach",
                f"{enemy.name} is the closest enemy it can reach",
                path,
                target=enemy,
            )
            if self.legal(order):
                return order
        return None

    def _step7_objective_in_sight(self) -> Order | None:
        for objective in self._objectives_by_distance(viewable_only=True):
            stop = self.unit.radius_in + OBJECTIVE_REACH_IN / 2
            path = move_toward(self.state, self.unit, objective.position, stop, self.move_in)
            order = self._move_order(
                path,
                "step 7: move toward the nearest objective in sight",
                f"{objective.name} is the nearest objective in sight",
            )
            if order is not None and len(order.action.path) > 1:
                return order
        return None

    def _step8_enemy_in_sight(self) -> Order | None:
        seen = [e for e in self._enemies() if viewable(self.state, self.unit, e.position, e)]
        for enemy in self._ranked(nearest(self.unit, seen), "nearest-target tie"):
            stop = self.unit.radius_in + enemy.radius_in + contact_tol(self.state) + 0.1
            path = move_toward(self.state, self.unit, enemy.position, stop, self.move_in)
            order = self._move_order(
                path,
                "step 8: move toward the nearest enemy in sight",
                f"{enemy.name} is the nearest enemy in sight",
            )
            if order is not None and len(order.action.path) > 1:
                return order
        return None

    def _step9_face_nearest(self) -> Order:
        enemies = self._enemies()
        if not enemies:
            return self.order(ActionKind.MOVE, "step 9: hold", "there is no enemy left to face")
        enemy = next(self._ranked(nearest(self.unit, enemies), "nearest-enemy tie"))
        heading = bearing_deg(self.unit.position, enemy.position)
        return self.order(
            ActionKind.MOVE,
            "step 9: nothing in sight, face the nearest enemy",
            f"nothing is in sight, so it turns to face {enemy.name}",
            heading=heading,
        )

    def _move_order(self, path: tuple[Point, ...], rule: str, reason: str) -> Order | None:
        """A MOVE along ``path`` if legal, else along the path cut short; None if neither."""
        candidates = [path, *shortened(path)] if len(path) > 1 else [path]
        for p in candidates:
            order = self.order(ActionKind.MOVE, rule, reason, p)
            if self.legal(order):
                return order
        return None


register_controller(NAME, NarrativeAI)
