"""Seed 000, the Solo Narrative Minis Ruleset, as decided in RULES.md §2.

Rounds start with an initiative d6 (1-3 the AI side first, 4-6 the human side); sides
alternate activating one character at a time; a pass gives up only the current
opportunity and two passes in a row end the round. Attacks: d6 + ATK - DEF (-1 after a
move) wounds on more than 3, a 1 always misses, a 6 always wounds.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import replace

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.actions import Action, ActionKind, Event, EventType, IllegalActionError, event
from engine.dice import RandomSource
from engine.errors import EngineError
from engine.geometry import (
    Edge,
    Point,
    Table,
    bearing_deg,
    check_path,
    normalize_deg,
    path_cost_in,
    point_gap_in,
    within_in,
    wrap180,
)
from engine.model import (
    GameState,
    Objective,
    Role,
    Side,
    TerrainPiece,
    Unit,
    UnitStatus,
)
from engine.protocols import Outcome, Pending, PendingKind, RulesetBase, register_ruleset
from engine.rulesets.narrative_board import (
    MIN_STEP_IN,
    OBJECTIVE_REACH_IN,
    NarrativeCard,
    can_shoot_from,
    card_of,
    clip_to_table,
    contacting_enemies,
    flee_path,
    gap_between,
    in_shooting_range,
    move_area,
    move_patterns,
    touching,
)
from engine.rulesets.narrative_query import NarrativeQuery
from engine.rulesets.narrative_sample import candidate_actions
from engine.rulesets.narrative_stalemate import stalemate
from engine.rulesets.narrative_state import (
    NarrativeState,
    NarrativeUnit,
    carrying,
    company_of,
    is_routing,
    rules_of,
    with_carrying,
    with_rules,
)
from engine.scenario import Scenario, ScenarioError, card_error

NAME = "narrative"
_POS_TOL_IN = 1e-3
#: A move's stated final heading may differ this much (degrees) from its last leg's direction
#: (rounding of the path's points); any more is a pivot after the leg, which §2.e does not allow.
HEADING_TOL_DEG = 0.1


class _CardSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    move_in: float = Field(gt=0, le=48)
    attack: int = Field(ge=-10, le=10)
    defence: int = Field(ge=-10, le=10)
    wound_slots: int = Field(ge=0, le=20)
    shoot_range_in: float | None = Field(default=None, gt=0, le=240)
    wounds: int = Field(default=0, ge=0, le=21)
    """Starting wound tokens carried over from earlier battles."""


def rout_threshold(company_size: int) -> int:
    """Losses at which a company of this size first checks for rout: floor(N/2) + 1 (§2.i)."""
    return company_size // 2 + 1


def wound_roll(roll: int, delta: int) -> bool:
    """Whether a d6 result wounds at ATK - DEF - penalty = ``delta`` (§2.g)."""
    if roll == 1:
        return False
    if roll == 6:
        return True
    return roll + delta > 3


def final_heading(start_deg: float, path: Sequence[Point], stated_deg: float | None) -> float:
    """Where a figure faces after moving along ``path`` (§2.e): along its last leg. A last leg of
    length zero is a pivot without movement, so it faces ``stated_deg`` (when given), else along
    the last leg that moved; a figure that did not move faces ``stated_deg`` or ``start_deg``."""
    legs = list(itertools.pairwise(path))
    if legs and math.dist(*legs[-1]) >= MIN_STEP_IN:
        return bearing_deg(*legs[-1])
    if stated_deg is not None:
        return normalize_deg(stated_deg)
    for a, b in reversed(legs):
        if math.dist(a, b) >= MIN_STEP_IN:
            return bearing_deg(a, b)
    return start_deg


class NarrativeRuleset(RulesetBase):
    """The seed-000 rules."""

    name = NAME
    title = "Solo Narrative Minis Ruleset"
    source = "Solo Narrative Minis Ruleset"
    action_kinds: frozenset[str] = frozenset(
        {
            ActionKind.CHANCE,
            ActionKind.PASS,
            ActionKind.MOVE,
            ActionKind.SHOOT,
            ActionKind.MOVE_AND_SHOOT,
            ActionKind.MOVE_INTO_MELEE,
            ActionKind.CONTINUE_MELEE,
            ActionKind.FLEE,
        }
    )
    """The action kinds of seed 000 (a flight is ``flee``; its log word is "rout")."""

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        """Legal actions of the character now: its forced action, or shots, firing positions,
        charges, a carrier's run, pivots and random moves (:mod:`.narrative_sample`)."""
        unit = state.unit(unit_id)
        legal = [a for a in candidate_actions(state, unit, dice) if not self.validate(state, a)]
        if not legal:
            pivot = Action(ActionKind.MOVE, unit.id, heading_deg=unit.heading_deg)
            legal = [pivot] if not self.validate(state, pivot) else []
        return legal

    def query(self, state: GameState) -> NarrativeQuery:
        """Seed-000 table queries for controllers."""
        return NarrativeQuery(state)

    def action_word(self, action: Action) -> str:
        """The word orders and logs use for the action's kind: seed 000 calls a flight a rout."""
        return "rout" if action.kind == ActionKind.FLEE else str(action.kind)

    # ----------------------------------------------------------------- setup
    def new_game(self, scenario: Scenario) -> GameState:
        """The starting state: characters deployed, cards read, round 0 awaiting initiative."""
        for i, s in enumerate(scenario.sides):
            if s.role == "neutral":
                raise ScenarioError(
                    f"{scenario.source}: sides[{i}].role: the {self.title} has no neutral side "
                    "(allowed: ai, human)"
                )
        sides = tuple(
            Side(s.name, Role(s.role), Edge(s.edge), tuple(s.generals)) for s in scenario.sides
        )
        table = Table(scenario.table.width_in, scenario.table.depth_in, scenario.table.grid_shape())
        units = []
        for i, spec in enumerate(scenario.units):
            try:
                card = _CardSpec.model_validate(spec.card)
            except ValidationError as exc:
                raise card_error(scenario, i, exc, _CardSpec) from None
            if card.wounds > card.wound_slots:
                raise ScenarioError(
                    f"{scenario.source}: units[{i}].card.wounds: {card.wounds} starting wounds "
                    f"but only {card.wound_slots} wound slots"
                )
            units.append(
                Unit(
                    id=spec.id,
                    name=spec.name,
                    side=spec.side,
                    sheet_order=i,
                    x=spec.x,
                    y=spec.y,
                    heading_deg=normalize_deg(spec.heading),
                    card=NarrativeCard(
                        move_in=card.move_in,
                        attack_mod=card.attack,
                        defence_mod=card.defence,
                        wound_slots=card.wound_slots,
                        shoot_range_in=card.shoot_range_in,
                    ),
                    base_diameter_in=spec.base_diameter_in,
                    wounds=card.wounds,
                    general=spec.general,
                    cell=table.cell_of((spec.x, spec.y)),
                    rules=NarrativeUnit(company=spec.company or spec.side),
                )
            )
        terrain = tuple(
            TerrainPiece(
                id=t.id,
                name=t.name,
                kind=t.kind,
                polygon=tuple(t.polygon),
                blocks_los=t.blocks_los,
                impassable=t.impassable,
                difficult=t.difficult,
                cover=t.cover,
                dangerous=t.dangerous,
                height_in=t.height_in,
            )
            for t in scenario.terrain
        )
        objectives = tuple(Objective(o.id, o.name, o.x, o.y) for o in scenario.objectives)
        sizes: dict[str, int] = {}
        for u in units:
            sizes[company_of(u)] = sizes.get(company_of(u), 0) + 1
        return GameState(
            ruleset=NAME,
            scenario=scenario.scenario.name,
            table=table,
            sides=sides,
            units=tuple(units),
            terrain=terrain,
            objectives=objectives,
            options=tuple(sorted(scenario.options.items())),
            rules=NarrativeState(company_sizes=tuple(sorted(sizes.items()))),
        )

    # --------------------------------------------------------------- pending
    def pending(self, state: GameState) -> Pending:
        """What the battle waits for next."""
        rules = rules_of(state)
        if rules.waiting is PendingKind.OVER:
            return Pending(PendingKind.OVER)
        if rules.waiting is PendingKind.CHANCE:
            return Pending(PendingKind.CHANCE, purpose="initiative")
        if rules.waiting is PendingKind.CONTINUE and rules.bonus_unit is not None:
            unit = state.unit(rules.bonus_unit)
            return Pending(
                PendingKind.CONTINUE, side=unit.side, candidates=(unit.id,), unit=unit.id
            )
        side = state.active_side or state.sides[0].name
        general, candidates = self._candidates(state, side)
        return Pending(PendingKind.CHOOSE_UNIT, side=side, general=general, candidates=candidates)

    def _candidates(self, state: GameState, side: str) -> tuple[str | None, tuple[str, ...]]:
        ready = [u for u in state.units_of(side) if not u.activated]
        generals = state.side(side).generals
        if not generals:
            return None, tuple(u.id for u in ready)
        # Co-operative play: human generals take turns (§2.c); skip one with nobody left.
        for k in range(len(generals)):
            general = generals[(rules_of(state).general_turn + k) % len(generals)]
            own = [u.id for u in ready if u.general in (general, None)]
            if own:
                return general, tuple(own)
        return None, ()

    # -------------------------------------------------------------- validate
    def validate(self, state: GameState, action: Action) -> list[str]:
        """Why ``action`` is illegal now, as plain sentences (empty: legal)."""
        pending = self.pending(state)
        kind = action.kind
        if pending.kind is PendingKind.OVER:
            return ["the battle is over"]
        if kind not in self.action_kinds:
            known = ", ".join(sorted(self.action_kinds))
            return [f"{kind!r} is not an action of this ruleset (its actions: {known})"]
        if pending.kind is PendingKind.CHANCE:
            return [] if kind == ActionKind.CHANCE else ["roll for initiative first"]
        if kind == ActionKind.CHANCE:
            return ["initiative has already been rolled this round"]
        if kind == ActionKind.PASS:
            if action.side not in (None, pending.side):
                return [f"it is not {action.side}'s turn"]
            return []
        if action.unit_id is None or not state.has_unit(action.unit_id):
            return [f"no character {action.unit_id!r} in this battle"]
        unit = state.unit(action.unit_id)
        if unit.id not in pending.candidates:
            if not unit.on_table:
                return [f"{unit.name} is no longer on the table"]
            if unit.activated and pending.kind is PendingKind.CHOOSE_UNIT:
                return [f"{unit.name} has already activated this round"]
            return [f"it is not {unit.name}'s turn to activate"]
        return self._unit_action_problems(state, unit, action)

    def _unit_action_problems(self, state: GameState, unit: Unit, action: Action) -> list[str]:
        card = card_of(unit)
        kind = action.kind
        rules = rules_of(state)
        move_in = rules.bonus_move_in if rules.waiting is PendingKind.CONTINUE else card.move_in
        if is_routing(state, unit):
            if kind != ActionKind.FLEE:
                return [f"{unit.name} is routing and must flee"]
            if action.pick_up is not None:
                return [f"{unit.name} is routing and cannot pick anything up"]
            if action.path and self._flight_edge(state, unit, action.path) is None:
                edges = " or ".join(e.value for e in self.flight_edges(state, unit))
                return [f"{unit.name} must flee straight toward the nearest edge ({edges})"]
            return []
        if kind == ActionKind.FLEE:
            return [f"{unit.name} is not routing"]
        engaged = contacting_enemies(state, unit)
        if engaged:
            if kind != ActionKind.CONTINUE_MELEE:
                return [f"{unit.name} is in melee and must continue the melee"]
            if action.pick_up is not None:
                return [f"{unit.name} is in melee and cannot pick anything up"]
            if action.target_id not in {e.id for e in engaged}:
                names = ", ".join(e.name for e in engaged)
                return [f"{unit.name} can only attack an enemy in contact ({names})"]
            return []
        if kind == ActionKind.CONTINUE_MELEE:
            return [f"{unit.name} is not in melee"]
        problems: list[str] = []
        carried = carrying(unit)
        if action.pick_up is not None:
            problems += self._pick_up_problems(state, unit, action.pick_up)
            carried = action.pick_up
        target = None
        if action.target_id is not None:
            if not state.has_unit(action.target_id):
                return [f"no character {action.target_id!r} in this battle"]
            target = state.unit(action.target_id)
            if target.side == unit.side or not target.on_table:
                return [f"{target.name} is not an enemy on the table"]
        moving = kind in (
            ActionKind.MOVE,
            ActionKind.MOVE_AND_SHOOT,
            ActionKind.MOVE_INTO_MELEE,
        )
        end = unit.position
        if moving:
            path_problem = self._path_problem(state, unit, action.path, move_in, carried)
            if path_problem:
                problems.append(path_problem)
            elif action.path:
                end = action.path[-1]
            if not problems:
                problems += self._facing_problems(unit, action)
        if kind in (ActionKind.SHOOT, ActionKind.MOVE_AND_SHOOT):
            if card.shoot_range_in is None:
                return [f"{unit.name} has no shooting range"]
            if target is None:
                return [*problems, "a shot needs a target"]
            if not problems:
                if not in_shooting_range(unit, target, end):
                    gap = gap_between(unit, target, end)
                    problems.append(
                        f"{target.name} is {gap:.1f} in away, beyond the {card.shoot_range_in:g} in range"
                    )
                elif not can_shoot_from(state, unit, target, end):
                    problems.append(f"{unit.name} cannot see {target.name}")
            if not problems and kind == ActionKind.MOVE_AND_SHOOT:
                problems += self._contact_problems(state, unit, end, "shoot")
        elif kind == ActionKind.MOVE_INTO_MELEE:
            if target is None:
                return [*problems, "a charge needs a target"]
            if not problems and not touching(state, unit, target, end):
                problems.append(f"the move does not reach base contact with {target.name}")
        elif kind == ActionKind.MOVE and not problems:
            if state.table.contains_base(end, unit.radius_in):
                problems += self._contact_problems(state, unit, end, "move")
        elif kind != ActionKind.MOVE:
            problems.append(f"{kind} is not an action of this ruleset")
        return problems

    def _pick_up_problems(self, state: GameState, unit: Unit, objective_id: str) -> list[str]:
        try:
            objective = state.objective(objective_id)
        except EngineError:
            return [f"no objective {objective_id!r}"]
        if carrying(unit) is not None:
            return [f"{unit.name} already carries an objective"]
        if objective.carried_by is not None or objective.scored_by is not None:
            return [f"{objective.name} is not on the ground"]
        if not within_in(
            point_gap_in(unit.position, unit.radius_in, objective.position), OBJECTIVE_REACH_IN
        ):
            return [f"{unit.name} is not next to {objective.name}"]
        return []

    def _contact_problems(self, state: GameState, unit: Unit, end: Point, what: str) -> list[str]:
        """A Move or a Move-and-shoot may not end in base contact with an enemy (D000-16)."""
        touched = contacting_enemies(state, unit, end)
        if not touched:
            return []
        if what == "move":
            return [
                f"the move ends in contact with {touched[0].name}: "
                "declare a move into melee instead"
            ]
        return [
            f"the move ends in contact with {touched[0].name}: a move and shoot may not end "
            "in base contact (only a move into melee may)"
        ]

    def _facing_problems(self, unit: Unit, action: Action) -> list[str]:
        """§2.e: pivots come only before a leg, so a move ends facing along its last leg; a
        different final heading needs a last leg of length zero (a pivot, then no movement)."""
        path = action.path
        if action.heading_deg is None or len(path) < 2:
            return []
        a, b = path[-2], path[-1]
        if math.dist(a, b) < MIN_STEP_IN:
            return []
        along = bearing_deg(a, b)
        if abs(wrap180(action.heading_deg - along)) <= HEADING_TOL_DEG:
            return []
        return [
            f"{unit.name} ends the move facing along its last leg ({round(along) % 360} degrees), "
            f"not {round(normalize_deg(action.heading_deg)) % 360}: a pivot comes only before a leg"
        ]

    def _path_problem(
        self,
        state: GameState,
        unit: Unit,
        path: tuple[Point, ...],
        move_in: float,
        carrying: str | None,
    ) -> str:
        if not path:
            return ""
        start = path[0]
        if abs(start[0] - unit.x) > _POS_TOL_IN or abs(start[1] - unit.y) > _POS_TOL_IN:
            return f"the path must start where {unit.name} stands"
        area = move_area(state, unit)
        leaving = carrying is not None and not state.table.contains_base(path[-1], unit.radius_in)
        checked = path
        if leaving:
            # A carrier may run off an edge: the path up to the edge must be legal.
            if len(path) < 2:
                return f"{unit.name} is not moving"
            checked = (*path[:-1], clip_to_table(path[-2], path[-1], unit.radius_in, state.table))
        reasons = []
        for legs in move_patterns(move_in):
            if len(checked) - 1 > len(legs):
                continue
            limits = legs[: max(1, len(checked) - 1)]
            result = check_path(checked, limits, area)
            if result.legal:
                if leaving and path_cost_in(path) > sum(legs) + 1e-6:
                    reasons.append(f"the move is longer than {sum(legs):g} in")
                    continue
                return ""
            reasons.append(result.reason)
        # The first pattern that fits the path says it best (one leg: the full-move pattern).
        return reasons[0] if reasons else f"a move has at most two legs for {unit.name}"

    # ----------------------------------------------------------------- apply
    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        """Resolve a legal action; raises IllegalActionError with the reasons otherwise."""
        problems = self.validate(state, action)
        if problems:
            raise IllegalActionError(problems, action, state.round, state.step)
        state = replace(state, step=state.step + 1)
        if action.kind == ActionKind.CHANCE:
            return self._initiative(state, dice)
        if action.kind == ActionKind.PASS:
            return self._pass(state)
        return self._activation(state, action, dice)

    def _initiative(self, state: GameState, dice: RandomSource) -> Outcome:
        rnd = state.round + 1
        events: list[Event] = []
        limit = state.option("max_rounds", 0.0)
        if limit >= 1 and rnd > limit:
            return self._finish_on_points(state, int(limit))
        stuck = stalemate(state)
        if stuck:
            return Outcome(self._end(state, events, "draw", stuck), tuple(events))
        units = tuple(replace(u, activated=False) if u.activated else u for u in state.units)
        state = with_rules(replace(state, round=rnd, units=units), passes_in_row=0)
        events.append(event(EventType.ROUND_START, rnd, f"Round {rnd} begins."))
        roll = dice.roll(6, "initiative: 1-3 the AI side starts, 4-6 the human side")
        ai = state.side_of_role(Role.AI)
        human = state.side_of_role(Role.HUMAN)
        assert ai is not None and human is not None
        first = ai.name if roll <= 3 else human.name
        events.append(
            event(
                EventType.INITIATIVE,
                rnd,
                f"Initiative roll {roll}: {first} activate first.",
                roll=roll,
                side=first,
            )
        )
        state = with_rules(replace(state, active_side=first), waiting=PendingKind.CHOOSE_UNIT)
        return self._settle_turn(state, first, events)

    def _pass(self, state: GameState) -> Outcome:
        rules = rules_of(state)
        if rules.waiting is PendingKind.CONTINUE:
            unit = state.unit(rules.bonus_unit or "")
            ev = event(
                EventType.PASS, state.round, f"{unit.name} ends the bonus activation.", unit.id
            )
            state = with_rules(
                state, waiting=PendingKind.CHOOSE_UNIT, bonus_unit=None, bonus_toward=None
            )
            return self._end_activation(state, unit, [ev])
        side = state.active_side or ""
        general, _ = self._candidates(state, side)
        if general is None:
            events = [event(EventType.PASS, state.round, f"{side} pass.", side=side)]
        else:
            # Co-operative play: the pass is this general's; the rotation moves on (§2.c).
            text = f"{general} ({side}) passes."
            events = [event(EventType.PASS, state.round, text, side=side, general=general)]
            state = with_rules(state, general_turn=rules.general_turn + 1)
        passes = rules.passes_in_row + 1
        state = with_rules(state, passes_in_row=passes)
        # D000-06: the round ends when every general who could still act has passed in
        # succession (two generals: two passes in a row).
        ready = self._generals_ready(state)
        if passes >= ready:
            why = {1: "the only general with characters ready passed", 2: "both generals passed"}
            return self._end_round(state, events, why.get(ready, f"all {ready} generals passed"))
        other = state.other_side(side)
        if self._candidates(state, other)[1]:
            return Outcome(replace(state, active_side=other), tuple(events))
        return Outcome(replace(state, active_side=side), tuple(events))

    def _generals_ready(self, state: GameState) -> int:
        """How many generals have a character ready (each co-operative general counts)."""
        count = 0
        for side in state.sides:
            ready = [u for u in state.units_of(side.name) if not u.activated]
            if not side.generals:
                count += 1 if ready else 0
            else:
                count += sum(1 for g in side.generals if any(u.general in (g, None) for u in ready))
        return count

    def _settle_turn(
        self, state: GameState, side: str, events: list[Event], fallback: bool = True
    ) -> Outcome:
        """Give the turn to ``side``, or to the other side if it has nobody ready."""
        if self._candidates(state, side)[1]:
            return Outcome(replace(state, active_side=side), tuple(events))
        other = state.other_side(side)
        if fallback and self._candidates(state, other)[1]:
            return Outcome(replace(state, active_side=other), tuple(events))
        return self._end_round(state, events, "no one is left to activate")

    def _end_round(self, state: GameState, events: list[Event], why: str) -> Outcome:
        events.append(event(EventType.ROUND_END, state.round, f"Round {state.round} ends: {why}."))
        return Outcome(
            with_rules(
                replace(state, active_side=None), waiting=PendingKind.CHANCE, passes_in_row=0
            ),
            tuple(events),
        )

    def _activation(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        unit = state.unit(action.unit_id or "")
        rnd = state.round
        events: list[Event] = []
        bonus = rules_of(state).waiting is PendingKind.CONTINUE
        if not bonus:
            events.append(
                event(EventType.ACTIVATION, rnd, f"{unit.name} activates.", unit.id, side=unit.side)
            )
            unit = replace(unit, activated=True)
            state = state.with_unit(unit)
        state = with_rules(
            state,
            passes_in_row=0,
            waiting=PendingKind.CHOOSE_UNIT,
            bonus_unit=None,
            bonus_toward=None,
        )
        if action.pick_up is not None:
            state, unit = self._pick_up(state, unit, action.pick_up, events)
        kind = action.kind
        felled: Unit | None = None
        if kind == ActionKind.FLEE:
            state, unit = self._rout(state, unit, action.path, dice, events)
        elif kind in (ActionKind.MOVE, ActionKind.MOVE_AND_SHOOT, ActionKind.MOVE_INTO_MELEE):
            state, unit = self._move(state, unit, action, events, dice)
        if unit.on_table and action.target_id is not None and kind != ActionKind.MOVE:
            target = state.unit(action.target_id)
            if kind in (ActionKind.SHOOT, ActionKind.MOVE_AND_SHOOT):
                heading = bearing_deg(unit.position, target.position)
                unit = replace(unit, heading_deg=heading)
                state = state.with_unit(unit)
            moved = kind == ActionKind.MOVE_AND_SHOOT
            state, felled = self._attack(state, unit, target, moved, dice, events)
        elif kind == ActionKind.MOVE and action.heading_deg is not None and not action.path:
            unit = replace(unit, heading_deg=normalize_deg(action.heading_deg))
            state = state.with_unit(unit)
        state, over = self._check_end(state, events)
        if over:
            return Outcome(state, tuple(events))
        unit = state.unit(unit.id)
        melee = kind in (ActionKind.MOVE_INTO_MELEE, ActionKind.CONTINUE_MELEE)
        if felled is not None and melee and unit.on_table:
            half = card_of(unit).move_in / 2.0
            events.append(
                event(
                    EventType.BONUS_ACTIVATION,
                    rnd,
                    f"{unit.name} felled {felled.name} and gets a bonus activation of {half:g} in.",
                    unit.id,
                    move_in=half,
                )
            )
            state = with_rules(
                state,
                waiting=PendingKind.CONTINUE,
                bonus_unit=unit.id,
                bonus_move_in=half,
                bonus_toward=felled.position,
            )
            return Outcome(state, tuple(events))
        return self._end_activation(state, unit, events)

    def _end_activation(self, state: GameState, unit: Unit, events: list[Event]) -> Outcome:
        side = state.side(unit.side)
        if side.role is Role.HUMAN and side.generals:
            state = with_rules(state, general_turn=rules_of(state).general_turn + 1)
        return self._settle_turn(state, state.other_side(unit.side), events)

    def _pick_up(
        self, state: GameState, unit: Unit, objective_id: str, events: list[Event]
    ) -> tuple[GameState, Unit]:
        objective = state.objective(objective_id)
        unit = with_carrying(unit, objective.id)
        state = state.with_unit(unit).with_objective(replace(objective, carried_by=unit.id))
        events.append(
            event(
                EventType.PICK_UP,
                state.round,
                f"{unit.name} picks up {objective.name}.",
                unit.id,
                objective=objective.id,
            )
        )
        return state, unit

    def _move(
        self,
        state: GameState,
        unit: Unit,
        action: Action,
        events: list[Event],
        dice: RandomSource,
    ) -> tuple[GameState, Unit]:
        path = action.path or (unit.position,)
        end = path[-1]
        heading = final_heading(unit.heading_deg, path, action.heading_deg)
        distance = path_cost_in(path)
        if carrying(unit) is not None and not state.table.contains_base(end, unit.radius_in):
            return self._leave_table(state, unit, end, True, events, dice)
        state, unit = self._place(state, unit, end, heading)
        events.append(
            event(
                EventType.MOVE,
                state.round,
                f"{unit.name} moves {distance:.1f} in."
                if distance > 0.0
                else f"{unit.name} turns on the spot to face {round(heading) % 360} degrees.",
                unit.id,
                path=[[round(x, 3), round(y, 3)] for x, y in path],
                heading=round(heading, 2),
                distance_in=round(distance, 3),
            )
        )
        return state, unit

    def flight_edges(self, state: GameState, unit: Unit) -> tuple[Edge, ...]:
        """The edges a routing or carrying unit may head for (G-05): the nearest, or its own
        edge among tied nearest ones, or every tied one (then a roll chooses)."""
        tied = state.table.nearest_edges(unit.position)
        own = state.side(unit.side).edge
        return (own,) if len(tied) > 1 and own in tied else tied

    def _flight_edge(self, state: GameState, unit: Unit, path: Sequence[Point]) -> Edge | None:
        """The flight edge whose flight path is ``path`` (the one the order announced), if any."""
        for edge in self.flight_edges(state, unit):
            flight, _ = flee_path(state, unit, edge, card_of(unit).move_in)
            if len(flight) == len(path) and all(
                math.dist(a, b) <= _POS_TOL_IN for a, b in zip(flight, path, strict=True)
            ):
                return edge
        return None

    def _rout(
        self,
        state: GameState,
        unit: Unit,
        path: Sequence[Point],
        dice: RandomSource,
        events: list[Event],
    ) -> tuple[GameState, Unit]:
        # An announced flight (the AI's order, which rolled any tie) fixes the edge; otherwise
        # a tie is rolled now.
        edge = self._flight_edge(state, unit, path) if path else None
        roll = None
        if edge is None:
            edge, roll = self.nearest_edge_roll(state, unit, dice)
        if roll is not None:
            others = " and ".join(e.value for e in self.flight_edges(state, unit) if e is not edge)
            events.append(
                event(
                    EventType.TIE,
                    state.round,
                    f"{unit.name} is as near the {others} edge as the {edge.value} edge: "
                    f"rolled {roll}, it flees toward the {edge.value} edge.",
                    unit.id,
                    purpose="nearest-edge tie",
                    roll=roll,
                    edge=edge.value,
                )
            )
        path, leaves = flee_path(state, unit, edge, card_of(unit).move_in)
        if leaves:
            return self._leave_table(state, unit, path[-1], False, events, dice)
        end = path[-1]
        heading = (
            bearing_deg(path[-2], end) if len(path) > 1 and path[-2] != end else unit.heading_deg
        )
        state, unit = self._place(state, unit, end, heading)
        events.append(
            event(
                EventType.MOVE,
                state.round,
                f"{unit.name} flees {path_cost_in(path):.1f} in toward the {edge.value} edge.",
                unit.id,
                path=[[round(x, 3), round(y, 3)] for x, y in path],
                heading=round(unit.heading_deg, 2),
                routing=True,
            )
        )
        return state, unit

    def _place(
        self, state: GameState, unit: Unit, end: Point, heading_deg: float
    ) -> tuple[GameState, Unit]:
        """The unit standing at ``end`` facing ``heading_deg``, with any objective it carries."""
        unit = replace(unit, x=end[0], y=end[1], heading_deg=heading_deg)
        state = state.with_unit(unit)
        carried = carrying(unit)
        if carried is not None:
            state = state.with_objective(replace(state.objective(carried), x=end[0], y=end[1]))
        return state, unit

    def nearest_edge(self, state: GameState, unit: Unit, dice: RandomSource) -> Edge:
        """G-05: the nearest table edge; ties go to the side's own edge, then a logged d-roll."""
        return self.nearest_edge_roll(state, unit, dice)[0]

    def nearest_edge_roll(
        self, state: GameState, unit: Unit, dice: RandomSource
    ) -> tuple[Edge, int | None]:
        """G-05: the nearest table edge and the roll that chose it among tied edges (None when
        there was no tie left to roll: a single nearest edge, or the side's own edge among them).

        The roll is logged with the purpose "nearest-edge tie for <name>"; the edges are listed
        front, right, back, left and a d-N result picks the N-th.
        """
        return NarrativeQuery(state).nearest_edge(unit, dice)

    def _leave_table(
        self,
        state: GameState,
        unit: Unit,
        where: Point,
        escaped: bool,
        events: list[Event],
        dice: RandomSource,
    ) -> tuple[GameState, Unit]:
        rnd = state.round
        routing = is_routing(state, unit)
        status = UnitStatus.ROUTED_OFF if routing or not escaped else UnitStatus.ESCAPED
        carried = carrying(unit)
        if carried is not None:
            objective = state.objective(carried)
            state = state.with_objective(
                replace(objective, carried_by=None, scored_by=unit.side, x=where[0], y=where[1])
            )
            events.append(
                event(
                    EventType.SCORE,
                    rnd,
                    f"{unit.name} carries {objective.name} off the table: scored for {unit.side}.",
                    unit.id,
                    objective=objective.id,
                    side=unit.side,
                )
            )
        unit = replace(with_carrying(unit, None), status=status, x=where[0], y=where[1])
        state = state.with_unit(unit)
        events.append(
            event(
                EventType.LEFT_TABLE,
                rnd,
                f"{unit.name} leaves the table.",
                unit.id,
                status=status.value,
            )
        )
        if status is UnitStatus.ROUTED_OFF:
            state = self._removal(state, unit, events, dice)
        return state, unit

    def _attack(
        self,
        state: GameState,
        attacker: Unit,
        target: Unit,
        moved: bool,
        dice: RandomSource,
        events: list[Event],
    ) -> tuple[GameState, Unit | None]:
        rnd = state.round
        acard, tcard = card_of(attacker), card_of(target)
        delta = acard.attack_mod - tcard.defence_mod - (1 if moved else 0)
        in_contact = target.id in {e.id for e in contacting_enemies(state, attacker)}
        verb = "attacks" if in_contact else "shoots"
        roll = dice.roll(6, f"attack: {attacker.name} {verb} {target.name}")
        wounded = wound_roll(roll, delta)
        score = roll + delta
        how = "wounds" if wounded else "misses"
        events.append(
            event(
                EventType.ATTACK,
                rnd,
                f"{attacker.name} {verb} {target.name}: rolled {roll}, score {score}: {how}.",
                attacker.id,
                target=target.id,
                roll=roll,
                delta=delta,
                score=score,
                moved=moved,
                wound=wounded,
            )
        )
        if not wounded:
            return state, None
        if target.wounds < tcard.wound_slots:
            target = replace(target, wounds=target.wounds + 1)
            events.append(
                event(
                    EventType.WOUND,
                    rnd,
                    f"{target.name} takes a wound ({target.wounds} of {tcard.wound_slots} slots).",
                    target.id,
                    wounds=target.wounds,
                    slots=tcard.wound_slots,
                )
            )
            return state.with_unit(target), None
        fallen = replace(with_carrying(target, None), status=UnitStatus.FALLEN)
        state = state.with_unit(fallen)
        events.append(
            event(EventType.FALL, rnd, f"{target.name} falls: remove the model.", target.id)
        )
        dropped = carrying(target)
        if dropped is not None:
            objective = state.objective(dropped)
            state = state.with_objective(
                replace(objective, carried_by=None, x=target.x, y=target.y)
            )
            events.append(
                event(
                    EventType.DROP,
                    rnd,
                    f"{objective.name} drops where {target.name} fell.",
                    target.id,
                    objective=objective.id,
                )
            )
        state = self._removal(state, fallen, events, dice)
        return state, target

    def _removal(
        self, state: GameState, removed: Unit, events: list[Event], dice: RandomSource
    ) -> GameState:
        """Rout check after a loss (§2.i, D000-01)."""
        company = company_of(removed)
        rules = rules_of(state)
        if company in rules.routing_companies:
            return state
        size = dict(rules.company_sizes).get(company, 1)
        lost = sum(
            1
            for u in state.units
            if company_of(u) == company and u.status in (UnitStatus.FALLEN, UnitStatus.ROUTED_OFF)
        )
        if lost * 2 <= size:
            return state
        roll = dice.roll(6, f"rout check: {company} ({lost} of {size} lost; 1-3 routs)")
        routs = roll <= 3
        events.append(
            event(
                EventType.ROUT_CHECK,
                state.round,
                f"{company} have lost {lost} of {size}: rout check {roll}, "
                + ("they rout!" if routs else "they hold."),
                None,
                company=company,
                roll=roll,
                routs=routs,
            )
        )
        if routs:
            state = with_rules(state, routing_companies=rules.routing_companies | {company})
            events.append(
                event(
                    EventType.ROUTING,
                    state.round,
                    f"{company} are routing: they flee toward the nearest edge.",
                    None,
                    company=company,
                )
            )
        return state

    def _check_end(self, state: GameState, events: list[Event]) -> tuple[GameState, bool]:
        standing = {s.name: len(state.units_of(s.name)) for s in state.sides}
        beaten = [name for name, n in standing.items() if n == 0]
        if not beaten:
            return state, False
        if len(beaten) == 2:
            winner, why = self._points_winner(state), "both sides have left the field"
        else:
            winner = state.other_side(beaten[0])
            why = f"{beaten[0]} have no characters left on the table"
        return self._end(state, events, winner, why), True

    def _points_winner(self, state: GameState) -> str:
        def key(side: Side) -> tuple[int, int]:
            scored = sum(1 for o in state.objectives if o.scored_by == side.name)
            return scored, len(state.units_of(side.name))

        ranked = sorted(state.sides, key=key, reverse=True)
        if key(ranked[0]) == key(ranked[1]):
            return "draw"
        return ranked[0].name

    def _finish_on_points(self, state: GameState, limit: int) -> Outcome:
        events: list[Event] = []
        winner = self._points_winner(state)
        why = f"{limit} rounds played; decided by objectives scored, then characters standing"
        return Outcome(self._end(state, events, winner, why), tuple(events))

    def _end(self, state: GameState, events: list[Event], winner: str, why: str) -> GameState:
        scored = {
            s.name: [o.id for o in state.objectives if o.scored_by == s.name] for s in state.sides
        }
        text = "The battle ends in a draw" if winner == "draw" else f"{winner} win the battle"
        events.append(
            event(
                EventType.END,
                state.round,
                f"{text}: {why}.",
                None,
                winner=winner,
                reason=why,
                scored=[[k, len(v)] for k, v in sorted(scored.items())],
            )
        )
        state = replace(state, winner=winner, end_reason=why, active_side=None)
        return with_rules(state, waiting=PendingKind.OVER)

    # ---------------------------------------------------------- invariants
    def check_state(self, state: GameState) -> list[str]:
        """Problems with a state that the rules should never produce."""
        problems = []
        on_table = [u for u in state.units if u.on_table]
        for u in on_table:
            if not state.table.contains_base(u.position, u.radius_in - 1e-6):
                problems.append(f"{u.name} at ({u.x:.2f}, {u.y:.2f}) is off the table")
            card = card_of(u)
            if not 0 <= u.wounds <= card.wound_slots:
                problems.append(f"{u.name} has {u.wounds} wounds for {card.wound_slots} slots")
        for i, a in enumerate(on_table):
            for b in on_table[i + 1 :]:
                overlap = a.radius_in + b.radius_in - math.dist(a.position, b.position)
                if overlap > 0.02:
                    problems.append(f"{a.name} and {b.name} overlap by {overlap:.2f} in")
        for o in state.objectives:
            if o.carried_by is not None:
                carrier = state.unit(o.carried_by)
                if carrying(carrier) != o.id or not carrier.on_table:
                    problems.append(f"{o.name} is carried by {carrier.name}, who does not hold it")
        for u in state.units:
            held = carrying(u)
            if held is not None and state.objective(held).carried_by != u.id:
                problems.append(f"{u.name} holds {held}, which does not know it")
        rules = rules_of(state)
        if rules.waiting is PendingKind.CONTINUE:
            if rules.bonus_unit is None:
                problems.append("bonus phase without a bonus unit")
            elif not state.unit(rules.bonus_unit).on_table:
                problems.append(f"bonus activation for {rules.bonus_unit}, who is off the table")
        if (rules.waiting is PendingKind.OVER) != (state.winner is not None):
            problems.append(f"waiting for {rules.waiting.value} with winner {state.winner!r}")
        for o in state.objectives:
            if o.scored_by is not None and o.carried_by is not None:
                problems.append(f"{o.name} is both scored and carried")
        companies = {company_of(u) for u in state.units}
        for company in sorted(rules.routing_companies - companies):
            problems.append(f"routing company {company!r} has no characters")
        return problems


register_ruleset(NAME, NarrativeRuleset)
