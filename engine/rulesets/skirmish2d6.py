"""The 2D6 skirmish with roles and weapons (RULES §3.2, seed 001 part B): ruleset ``skirmish2d6``.

Each round opens with a roll-off (a CHANCE step; D001B-13); the sides then alternate single
activations (CHOOSE_UNIT), each model once a round; an activated model has three actions
(CONTINUE while it has some left): Move (4 + Speed in, D001B-02), Shoot (Bow), Aim (Bow, +1 to
the next shot this activation), Charge (declare: 2d6 reach is rolled; then the run at the
target, a CONTINUE that may not be passed, and the fight on contact; D001B-06) and Recover (two
actions, Skill vs 7). Drive-backs are carried out by the player one model at a time (a CONTINUE
of the driven model). After round 4 the side with more VP wins (kills + 3 per objective held).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from engine.actions import Action, ActionKind, Event, IllegalActionError, event
from engine.dice import RandomSource
from engine.geometry import Edge, Table, bearing_deg, centre_distance_in
from engine.model import GameState, Objective, Role, Side, TerrainPiece, Unit
from engine.protocols import Outcome, Pending, PendingKind, RulesetBase, register_ruleset
from engine.query import TableQuery
from engine.rulesets.skirmish2d6_board import (
    charge_path,
    gap,
    in_contact,
    move_toward,
    path_length_in,
    path_problem,
    visible,
)
from engine.rulesets.skirmish2d6_checks import RECOVER_DIFFICULTY, basic_check, roll_2d6
from engine.rulesets.skirmish2d6_combat import Fight, attack
from engine.rulesets.skirmish2d6_fighters import (
    RECOVER_ORDER,
    STAGGERED,
    STATUSES,
    WEAPONS,
    build_problems,
    card_from,
    card_of,
    melee_weapon,
    move_allowance_in,
    skill_of,
)
from engine.rulesets.skirmish2d6_query import SkirmishQuery
from engine.rulesets.skirmish2d6_state import (
    ACTIONS_PER_ACTIVATION,
    BOW_RANGE_IN,
    LAST_ROUND,
    SkirmishState,
    held_objectives,
    kills,
    rules_of,
    victory_points,
)
from engine.scenario import Scenario, ScenarioError

NAME = "skirmish2d6"
MOVE, SHOOT, AIM, CHARGE, RUN, RECOVER, DRIVE = (
    "move",
    "shoot",
    "aim",
    "charge",
    "charge_move",
    "recover",
    "drive_back",
)
BREAK = "break"
MAX_CHARGE_IN = 12.0
"""No 2d6 roll reaches further: a charge at an enemy further away cannot be declared."""
STYLES = ("", "hook", "blow_away")
CHARGE_SLACK_IN = 0.5
"""A charge that falls short may end this much short of the full run (measuring at a table)."""
_STYLE_WEAPON = {"hook": "axe", "blow_away": "maul"}


class _Card(BaseModel):
    """A fighter as a scenario writes it (checked in full by ``build_problems``)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _legal_build(cls, data: object) -> object:
        if not isinstance(data, dict):
            raise ValueError("a fighter card is a table: skill, speed, armor, role, weapons")
        problems = build_problems(data)
        if problems:
            raise ValueError("; ".join(problems))
        return data


class SkirmishRuleset(RulesetBase):
    """RULES §3.2 (see the module docstring)."""

    name = NAME
    title = "2D6 skirmish with roles and weapons"
    source = "Wargame (Version 4), second rules"
    action_kinds = frozenset(
        {"chance", "pass", MOVE, SHOOT, AIM, CHARGE, RUN, RECOVER, DRIVE, BREAK}
    )
    options: Mapping[str, str] = {
        "bow_range_in": "Bow range in inches (D001B-10; default 18)",
        "wounded_again_kills": "true: a Wounded fighter Wounded again dies (D001B-05; default)",
    }

    def query(self, state: GameState) -> TableQuery:
        """The skirmish's own sight, moves and targets (:mod:`.skirmish2d6_query`)."""
        return SkirmishQuery(state)

    # ------------------------------------------------------------------------------ setup
    def new_game(self, scenario: Scenario) -> GameState:
        """Fighters deployed with their cards; round 0 waits for the first roll-off."""
        for i, s in enumerate(scenario.sides):
            if s.role == "neutral":
                raise ScenarioError(
                    f"{scenario.source}: sides[{i}]: the 2D6 skirmish has no neutral side"
                )
        for name in ("bow_range_in",):
            value = scenario.options.get(name, BOW_RANGE_IN)
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise ScenarioError(
                    f"{scenario.source}: options.{name}: the Bow's range in inches, above 0 "
                    f"(got {value!r})"
                )
        if not isinstance(scenario.options.get("wounded_again_kills", True), bool):
            raise ScenarioError(f"{scenario.source}: options.wounded_again_kills: true or false")
        units = []
        for i, spec in enumerate(scenario.units):
            try:
                _Card.model_validate(spec.card)
            except ValidationError as exc:
                first = exc.errors()[0]
                msg = str(first.get("ctx", {}).get("error", first["msg"]))
                raise ScenarioError(f"{scenario.source}: units[{i}].card: {msg}") from None
            units.append(
                Unit(
                    id=spec.id,
                    name=spec.name,
                    side=spec.side,
                    sheet_order=i,
                    x=spec.x,
                    y=spec.y,
                    heading_deg=spec.heading % 360.0,
                    card=card_from(spec.card),
                    base_diameter_in=spec.base_diameter_in,
                )
            )
        return GameState(
            ruleset=NAME,
            scenario=scenario.scenario.name,
            table=Table(scenario.table.width_in, scenario.table.depth_in),
            sides=tuple(Side(s.name, Role(s.role), Edge(s.edge)) for s in scenario.sides),
            units=tuple(units),
            terrain=_terrain(scenario),
            objectives=_objectives(scenario),
            options=tuple(sorted(scenario.options.items())),
            rules=SkirmishState(),
        )

    # --------------------------------------------------------------------------- sequence
    def __init__(self) -> None:
        self._last_pending: tuple[GameState, Pending] | None = None
        self._last_check: tuple[GameState, Action, tuple[str, ...]] | None = None

    def pending(self, state: GameState) -> Pending:
        """See the module docstring for the order of the decision points (the last answer is
        kept for the same state object: the runner, the AI and ``apply`` all ask)."""
        last = self._last_pending
        if last is not None and last[0] is state:
            return last[1]
        answer = self._pending(state)
        self._last_pending = (state, answer)
        return answer

    def _pending(self, state: GameState) -> Pending:
        if state.winner is not None:
            return Pending(PendingKind.OVER)
        rules = rules_of(state)
        if rules.drives:
            unit = state.unit(rules.drives[0][0])
            return Pending(
                PendingKind.CONTINUE,
                side=unit.side,
                unit=unit.id,
                candidates=(unit.id,),
                may_pass=False,
                purpose="drive back",
            )
        if rules.acting is not None:
            unit = state.unit(rules.acting)
            running = rules.charge_target is not None
            return Pending(
                PendingKind.CONTINUE,
                side=unit.side,
                unit=unit.id,
                candidates=(unit.id,),
                may_pass=not running,
                purpose="charge" if running else "action",
            )
        side = self._next_side(state)
        if state.round == 0 or side is None:
            return Pending(PendingKind.CHANCE, purpose="roll-off")
        return Pending(
            PendingKind.CHOOSE_UNIT, side=side, candidates=self._ready(state, side), may_pass=False
        )

    def _ready(self, state: GameState, side: str) -> tuple[str, ...]:
        return tuple(u.id for u in state.units_of(side) if not u.activated)

    def _next_side(self, state: GameState) -> str | None:
        order = [state.active_side] + [s.name for s in state.sides if s.name != state.active_side]
        return next((s for s in order if s is not None and self._ready(state, s)), None)

    # ------------------------------------------------------------------------- legality
    def validate(self, state: GameState, action: Action) -> list[str]:
        """Plain sentences; empty when legal (the last answer is kept for the same state
        object and action: the runner checks a planned action, then ``apply`` checks it)."""
        last = self._last_check
        if last is not None and last[0] is state and last[1] == action:
            return list(last[2])
        problems = self._validate(state, action)
        self._last_check = (state, action, tuple(problems))
        return problems

    def _validate(self, state: GameState, action: Action) -> list[str]:
        pending = self.pending(state)
        kind = str(action.kind)
        if pending.kind is PendingKind.OVER:
            return ["the game is over"]
        if pending.kind is PendingKind.CHANCE:
            return [] if kind == "chance" else [f"the roll-off comes first, not {kind}"]
        if kind == "chance":
            return ["no roll is due now"]
        unit_id = action.unit_id or ""
        if not state.has_unit(unit_id):
            return [f"no fighter {unit_id!r} in this game"] if unit_id else ["name the fighter"]
        unit = state.unit(unit_id)
        rules = rules_of(state)
        if pending.kind is PendingKind.CHOOSE_UNIT and unit_id not in pending.candidates:
            return [f"{unit.name} cannot activate now ({pending.side} activate a fighter)"]
        if pending.kind is PendingKind.CONTINUE and unit_id != pending.unit:
            who = state.unit(pending.unit or "").name
            return [f"{who} must act first"]
        if pending.purpose == "drive back":
            return self._check_drive(state, unit, action)
        if pending.purpose == "charge":
            return (
                self._check_run(state, unit, action)
                if kind == RUN
                else [f"{unit.name} must now run at its charge target"]
            )
        if kind == ActionKind.PASS:
            return []
        left = (
            rules.actions_left if pending.kind is PendingKind.CONTINUE else ACTIONS_PER_ACTIVATION
        )
        return self._check_action(
            state, unit, action, left, rules.aimed and pending.kind is PendingKind.CONTINUE
        )

    def _check_action(
        self, state: GameState, unit: Unit, action: Action, left: int, aimed: bool
    ) -> list[str]:
        kind, card = str(action.kind), card_of(unit)
        if kind == MOVE:
            if STAGGERED in unit.statuses:
                return [f"{unit.name} is Staggered and cannot move"]
            moves = move_actions(action)
            if isinstance(moves, str):
                return [moves]
            if moves > left:
                return [f"{moves} Moves need {moves} actions; {unit.name} has {left} left"]
            problem = path_problem(state, unit, action.path, moves * move_allowance_in(unit))
            return [problem] if problem else []
        if kind == AIM:
            if not card.has("bow"):
                return [f"{unit.name} has no bow to aim"]
            return [f"{unit.name} has already aimed"] if aimed else []
        if kind in (SHOOT, CHARGE):
            target = self._enemy(state, unit, action.target_id)
            if isinstance(target, str):
                return [target]
            if kind == SHOOT:
                return self._check_shot(state, unit, target)
            return self._check_charge(state, unit, target, action)
        if kind == RECOVER:
            if left < 2:
                return [f"Recover takes two actions; {unit.name} has {left} left"]
            if not unit.statuses:
                return [f"{unit.name} has no status effect to recover from"]
            named = action.get("status")
            if named is not None and named not in unit.statuses:
                return [f"{unit.name} is not {named}"]
            return []
        if kind == BREAK:
            return ["Break has no defined effect in the rules yet (D001B-09)"]
        return [f"{kind} is not an action of the 2D6 skirmish"]

    def _enemy(self, state: GameState, unit: Unit, target_id: str | None) -> Unit | str:
        if not target_id or not state.has_unit(target_id):
            return "name an enemy fighter as the target"
        target = state.unit(target_id)
        if target.side == unit.side or not target.on_table:
            return f"{target.name} is not an enemy on the table"
        return target

    def _check_shot(self, state: GameState, unit: Unit, target: Unit) -> list[str]:
        if not card_of(unit).has("bow"):
            return [f"{unit.name} has no bow"]
        reach = state.option("bow_range_in", BOW_RANGE_IN)
        if gap(unit, target) > reach + 1e-9:
            return [f"{target.name} is {gap(unit, target):.1f} in away, beyond {reach:g} in"]
        if not visible(state, unit, target):
            return [f"{unit.name} cannot see {target.name}"]
        return []

    def _check_charge(
        self, state: GameState, unit: Unit, target: Unit, action: Action
    ) -> list[str]:
        if STAGGERED in unit.statuses:
            return [f"{unit.name} is Staggered and cannot charge"]
        problems = self._check_weapon(unit, action)
        if problems:
            return problems
        if gap(unit, target) > MAX_CHARGE_IN:
            return [f"{target.name} is beyond any charge ({gap(unit, target):.1f} in)"]
        return []

    def _check_weapon(self, unit: Unit, action: Action) -> list[str]:
        style = action.get("style", "")
        if style not in STYLES:
            return [f"{style!r} is not an attack style (hook, blow_away)"]
        name = action.get("weapon")
        weapon = melee_weapon(unit, name)
        if weapon is None:
            return [f"{unit.name} has no {name} to fight with"]
        if style and weapon.name != _STYLE_WEAPON[style]:
            return [f"{style.replace('_', ' ')} needs the {_STYLE_WEAPON[style]}"]
        return []

    def _check_run(self, state: GameState, unit: Unit, action: Action) -> list[str]:
        rules = rules_of(state)
        target = state.unit(rules.charge_target or "")
        path = action.path or (unit.position,)
        problem = path_problem(state, unit, path, rules.charge_reach_in)
        if problem:
            return [problem]
        before = centre_distance_in(unit.position, target.position)
        if centre_distance_in(path[-1], target.position) > before + 1e-6:
            return [f"a charge runs toward {target.name}, not away"]
        if in_contact(state, unit, target, path[-1]):
            return []
        # Short of contact: the charge runs the whole roll (D001B-06), as far as the rules'
        # own run gets (an obstacle may stop it), within the table's measuring slack.
        full = path_length_in(self.charge_run(state))
        if path_length_in(path) < full - CHARGE_SLACK_IN:
            return [
                f"{unit.name} did not reach {target.name}: a charge runs its whole "
                f"{rules.charge_reach_in:g} in toward it ({full:.1f} in here)"
            ]
        return []

    def _check_drive(self, state: GameState, unit: Unit, action: Action) -> list[str]:
        if str(action.kind) != DRIVE:
            return [f"{unit.name} must first be driven back"]
        return []

    # ---------------------------------------------------------------------------- apply
    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        """Resolve a legal action (every die through ``dice``)."""
        problems = self.validate(state, action)
        if problems:
            raise IllegalActionError(problems, action, state.round, state.step)
        pending = self.pending(state)
        kind = str(action.kind)  # the step is counted where the outcome is settled
        if kind == "chance":
            return self._new_round(state, dice)
        rules = rules_of(state)
        if pending.purpose == "drive back":
            uid, _, end = rules.drives[0]
            driven = state.unit(uid)
            state = state.with_unit(replace(driven, x=end[0], y=end[1]))
            return self._settle(state, [], replace(rules, drives=rules.drives[1:]))
        unit = state.unit(action.unit_id or "")
        events: list[Event] = []
        if pending.kind is PendingKind.CHOOSE_UNIT:
            unit = replace(unit, activated=True)
            state = state.with_unit(unit)
            rules = replace(rules, acting=unit.id, actions_left=ACTIONS_PER_ACTIVATION, aimed=False)
            events.append(
                event(
                    "activation",
                    state.round,
                    f"{unit.name} activates.",
                    unit.id,
                    side=unit.side,
                    statuses=sorted(unit.statuses),
                )
            )
        if kind == ActionKind.PASS:
            events.append(event("pass", state.round, f"{unit.name} ends its activation.", unit.id))
            return self._settle(state, events, replace(rules, actions_left=0))
        if kind == RUN:
            return self._run(state, rules, unit, action, dice, events)
        cost = 2 if kind == RECOVER else (_moves(action) if kind == MOVE else 1)
        aimed = {AIM: True, SHOOT: False}.get(kind, rules.aimed)
        bonus = 1 if rules.aimed else 0
        rules = replace(rules, actions_left=rules.actions_left - cost, aimed=aimed)
        fight = Fight(state, dice, events, wounded_again_kills=self._stacking(state))
        if kind == MOVE:
            self._move(fight, unit, action.path, MOVE, cost)
        elif kind == AIM:
            fight.events.append(
                event("aim", state.round, f"{unit.name} aims (+1 to its next shot).", unit.id)
            )
        elif kind == SHOOT:
            attack(fight, unit.id, action.target_id or "", WEAPONS["bow"], ranged=True, bonus=bonus)
        elif kind == RECOVER:
            self._recover(fight, unit, action.get("status"))
        else:
            return self._charge(fight, unit, action, dice, rules)
        return self._finish(fight, rules)

    def _stacking(self, state: GameState) -> bool:
        value = state.option_value("wounded_again_kills", True)
        return bool(value)

    def _move(
        self,
        fight: Fight,
        unit: Unit,
        path: tuple[tuple[float, float], ...],
        word: str,
        moves: int = 1,
    ) -> None:
        end = path[-1] if path else unit.position
        heading = unit.heading_deg
        if len(path) > 1 and path[-2] != path[-1]:
            heading = bearing_deg(path[-2], path[-1])
        moved = replace(unit, x=end[0], y=end[1], heading_deg=heading)
        fight.state = fight.state.with_unit(moved)
        length = path_length_in(path)
        fight.events.append(
            event(
                "move",
                fight.state.round,
                f"{unit.name} {'charges' if word == RUN else 'moves'} {length:.1f} in"
                + (f" ({moves} Moves)." if moves > 1 else "."),
                unit.id,
                path=[list(p) for p in path],
                distance_in=round(length, 3),
                action=word,
                actions=moves,
            )
        )

    def _recover(self, fight: Fight, unit: Unit, named: str | None) -> None:
        check = basic_check(
            fight.dice,
            unit.id,
            "skill",
            skill_of(unit),
            RECOVER_DIFFICULTY,
            f"recover: {unit.name}",
        )
        fight.check_event(
            check,
            f"{unit.name} tries to recover: {check.total} vs {RECOVER_DIFFICULTY}, {check.result}.",
        )
        if check.result == "success":
            status = named or next(s for s in RECOVER_ORDER if s in unit.statuses)
            fight.set_status(unit, status, False)

    def _charge(
        self, fight: Fight, unit: Unit, action: Action, dice: RandomSource, rules: SkirmishState
    ) -> Outcome:
        target = fight.state.unit(action.target_id or "")
        weapon = melee_weapon(unit, action.get("weapon"))
        assert weapon is not None
        style = str(action.get("style", ""))
        if in_contact(fight.state, unit, target):
            fight.events.append(
                event(
                    "charge",
                    fight.state.round,
                    f"{unit.name} fights {target.name}.",
                    unit.id,
                    target=target.id,
                    reach_in=0,
                    weapon=weapon.name,
                    style=style,
                )
            )
            attack(fight, unit.id, target.id, weapon, style=style)
            return self._finish(fight, rules)
        rolls = roll_2d6(dice, f"charge: {unit.name}")
        reach = float(sum(rolls))
        fight.events.append(
            event(
                "charge",
                fight.state.round,
                f"{unit.name} charges {target.name}: {reach:g} in ({rolls[0]}+{rolls[1]}).",
                unit.id,
                target=target.id,
                rolls=list(rolls),
                reach_in=reach,
                weapon=weapon.name,
                style=style,
            )
        )
        rules = replace(
            rules,
            charge_target=target.id,
            charge_reach_in=reach,
            charge_weapon=weapon.name,
            charge_style=style,
        )
        return self._finish(fight, rules)

    def _run(
        self,
        state: GameState,
        rules: SkirmishState,
        unit: Unit,
        action: Action,
        dice: RandomSource,
        events: list[Event],
    ) -> Outcome:
        target = state.unit(rules.charge_target or "")
        ran = replace(
            rules, charge_target=None, charge_reach_in=0.0, charge_weapon=None, charge_style=""
        )
        fight = Fight(state, dice, events, wounded_again_kills=self._stacking(state))
        path = action.path or (unit.position,)
        if len(path) > 1:
            self._move(fight, unit, path, RUN)
        unit = fight.state.unit(unit.id)
        if in_contact(fight.state, unit, target):
            weapon = melee_weapon(unit, rules.charge_weapon)
            assert weapon is not None
            attack(fight, unit.id, target.id, weapon, style=rules.charge_style)
        else:
            fight.events.append(
                event(
                    "charge_short",
                    state.round,
                    f"{unit.name} falls short of {target.name}.",
                    unit.id,
                    target=target.id,
                )
            )
        return self._finish(fight, ran)

    def charge_run(self, state: GameState) -> tuple[tuple[float, float], ...]:
        """The run the rules propose for the rolled charge: straight at the target up to the
        reach, stopping in base contact (what the AI orders and the player is told)."""
        rules = rules_of(state)
        unit = state.unit(rules.acting or "")
        target = state.unit(rules.charge_target or "")
        return charge_path(state, unit, target, rules.charge_reach_in)

    def _finish(self, fight: Fight, rules: SkirmishState) -> Outcome:
        """Queue the drive-backs for the table: each driven model stands where it stood
        until its ``drive_back`` step moves it (a model killed meanwhile is not driven)."""
        state = fight.state
        drives = []
        for uid, start, end in fight.drives:
            unit = state.unit(uid)
            if unit.on_table:
                state = state.with_unit(replace(unit, x=start[0], y=start[1]))
                drives.append((uid, start, end))
        if drives:
            rules = replace(rules, drives=(*rules.drives, *drives))
        return self._settle(state, fight.events, rules)

    def _settle(self, state: GameState, events: list[Event], rules: SkirmishState) -> Outcome:
        """Count the step and put the rules' part in (``rules``: as the action left it); end
        the activation, the round or the game when they are over."""
        step = state.step + 1
        standing = {u.side for u in state.units if u.on_table}
        if len(standing) < len(state.sides):
            over = replace(state, step=step, rules=rules)
            return self._end(over, events, "a side has no fighter left")
        acting = state.unit(rules.acting) if rules.acting else None
        if acting is not None and not acting.on_table:
            rules = replace(rules, actions_left=0, charge_target=None)
        if rules.drives or rules.charge_target is not None:
            return Outcome(replace(state, rules=rules, step=step), tuple(events))
        active = state.active_side
        if rules.acting is not None and rules.actions_left <= 0:
            side = state.unit(rules.acting).side
            rules = replace(rules, acting=None, actions_left=0, aimed=False)
            active = state.other_side(side)
        state = replace(state, rules=rules, active_side=active, step=step)
        last = state.round >= self._last_round(state)
        if rules.acting is None and last and self._next_side(state) is None:
            return self._end(state, events, f"round {state.round} is over")
        return Outcome(state, tuple(events))

    def _last_round(self, state: GameState) -> int:
        return int(state.option("max_rounds", LAST_ROUND))

    def _new_round(self, state: GameState, dice: RandomSource) -> Outcome:
        round_ = state.round + 1
        units = tuple(replace(u, activated=False) for u in state.units)
        a, b = (s.name for s in state.sides[:2])
        ra, rb = dice.roll(6, f"roll-off: {a}"), dice.roll(6, f"roll-off: {b}")
        if ra != rb:
            first = a if ra > rb else b
        else:  # a tie: one more die between the two (a bounded re-roll, D001B-13)
            first = (a, b)[dice.roll(2, f"roll-off tie: {a} or {b}") - 1]
        state = replace(
            state,
            step=state.step + 1,
            round=round_,
            units=units,
            active_side=first,
            rules=replace(rules_of(state), first_side=first),
        )
        events = (
            event("round_start", round_, f"Round {round_} begins.", first=first),
            event(
                "initiative",
                round_,
                f"Roll-off: {a} {ra}, {b} {rb}; {first} activate first.",
                side=first,
                rolls={a: ra, b: rb},
            ),
        )
        return Outcome(state, events)

    def _end(self, state: GameState, events: list[Event], reason: str) -> Outcome:
        vp = victory_points(state)
        ranked = sorted(vp.items(), key=lambda kv: -kv[1])
        winner = "draw" if len(ranked) > 1 and ranked[0][1] == ranked[1][1] else ranked[0][0]
        held = held_objectives(state)
        state = replace(
            state,
            winner=winner,
            end_reason=reason,
            rules=replace(
                rules_of(state),
                drives=(),
                acting=None,
                actions_left=0,
                aimed=False,
                charge_target=None,
                charge_reach_in=0.0,
                charge_weapon=None,
                charge_style="",
            ),
        )
        scores = ", ".join(f"{side} {points} VP" for side, points in vp.items())
        text = f"{'Draw' if winner == 'draw' else winner + ' win'}: {scores} ({reason})."
        end = event(
            "end",
            state.round,
            text,
            winner=winner,
            reason=reason,
            vp=vp,
            kills={s.name: kills(state, s.name) for s in state.sides},
            objectives=held,
        )
        return Outcome(state, (*events, end))

    # --------------------------------------------------------------------------- checks
    def check_state(self, state: GameState) -> list[str]:
        """Invariants of every reachable state."""
        problems = []
        rules = rules_of(state)
        for u in state.units:
            if u.statuses - set(STATUSES):
                problems.append(f"{u.id} has an unknown status {sorted(u.statuses)}")
            if u.on_table and not state.table.contains_base(u.position, u.radius_in - 1e-6):
                problems.append(f"{u.id} is off the table at {u.position}")
        for i, a in enumerate(state.units):
            for b in state.units[i + 1 :]:
                if a.on_table and b.on_table and gap(a, b) < -1e-3:
                    problems.append(f"{a.id} and {b.id} overlap")
        if not 0 <= rules.actions_left <= ACTIONS_PER_ACTIVATION:
            problems.append(f"actions left {rules.actions_left}")
        if rules.acting is not None and not state.unit(rules.acting).activated:
            problems.append(f"{rules.acting} acts without being activated")
        if rules.acting is None and (rules.actions_left or rules.charge_target or rules.aimed):
            problems.append("actions left, a charge or an Aim with nobody acting")
        if rules.charge_target is not None and not state.unit(rules.charge_target).on_table:
            problems.append(f"a charge at {rules.charge_target}, who is off the table")
        for uid, _, end in rules.drives:
            driven = state.unit(uid)
            if not driven.on_table or not state.table.contains_base(end, driven.radius_in - 1e-6):
                problems.append(f"a drive-back of {uid} off the table or of a fallen model")
        if state.winner is None and state.round > self._last_round(state):
            problems.append(f"round {state.round} is past the last")
        return problems

    # ------------------------------------------------------------------------- samples
    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        """Every shot, charge (each weapon and style), aim, recover and pass, and moves in
        eight directions at the full allowance (random lengths drawn with ``dice``)."""
        pending = self.pending(state)
        unit = state.unit(unit_id)
        if pending.purpose == "drive back":
            return [self.drive_action(state)]
        if pending.purpose == "charge":
            return [Action(RUN, unit_id, path=self.charge_run(state))]
        out: list[Action] = [Action(ActionKind.PASS, unit_id, side=unit.side)]
        allowance = move_allowance_in(unit)
        if allowance > 0:
            for k in range(8):
                dist = allowance * dice.roll(4, f"random move length for {unit.name}") / 4
                ang = math.radians(45 * k)
                goal = (unit.x + 10 * math.sin(ang), unit.y + 10 * math.cos(ang))
                path = move_toward(state, unit, goal, 0.0, dist)
                if len(path) > 1:
                    out.append(Action(MOVE, unit_id, path=path))
        for enemy in state.enemies_of(unit):
            out.append(Action(SHOOT, unit_id, target_id=enemy.id))
            for weapon in card_of(unit).melee_weapons:
                for style in STYLES:
                    if style and _STYLE_WEAPON[style] != weapon.name:
                        continue
                    detail = (("weapon", weapon.name),) + ((("style", style),) if style else ())
                    out.append(Action(CHARGE, unit_id, target_id=enemy.id, detail=detail))
        out.append(Action(AIM, unit_id))
        out.append(Action(RECOVER, unit_id))
        return [a for a in out if not self.validate(state, a)]

    def drive_action(self, state: GameState) -> Action:
        """The drive-back the player must carry out next (its path: from, to)."""
        uid, start, end = rules_of(state).drives[0]
        return Action(DRIVE, uid, path=(start, end))


def move_actions(action: Action) -> int | str:
    """How many Move actions one ``move`` spends (detail ``actions``, default 1): Moves in a
    row make one path of up to that many times 4 + Speed inches (D001B-13: repeats allowed);
    a sentence when the number is not one of 1, 2, 3."""
    n = action.get("actions", 1)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= ACTIONS_PER_ACTIVATION:
        return f"a move spends 1 to {ACTIONS_PER_ACTIVATION} actions, not {n!r}"
    return n


def _moves(action: Action) -> int:
    n = move_actions(action)
    return n if isinstance(n, int) else 1


def _terrain(scenario: Scenario) -> tuple[TerrainPiece, ...]:
    return tuple(
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


def _objectives(scenario: Scenario) -> tuple[Objective, ...]:
    return tuple(Objective(o.id, o.name, o.x, o.y) for o in scenario.objectives)


register_ruleset(NAME, SkirmishRuleset)
