"""The 2D6 skirmish with roles and weapons (RULES §3.2, seed 001 part B): ruleset ``ruleset``.

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

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from engine.actions import Action, ActionKind, Event, IllegalActionError, event
from engine.dice import RandomSource
from engine.geometry import Table
from engine.model import GameState, Objective, TerrainPiece, evolve
from engine.protocols import Outcome, Pending, PendingKind, RulesetBase, register_ruleset
from engine.query import TableQuery
from engine.rulesets.skirmish2d6 import legality as legal
from engine.rulesets.skirmish2d6 import resolve as resolve
from engine.rulesets.skirmish2d6.board import board
from engine.rulesets.skirmish2d6.combat import Fight, attack
from engine.rulesets.skirmish2d6.fighters import (
    STATUSES,
    WEAPONS,
    build_problems,
    card_from,
    card_of,
    move_allowance_in,
)
from engine.rulesets.skirmish2d6.legality import (
    AIM,
    BREAK,
    CHARGE,
    DRIVE,
    MOVE,
    RECOVER,
    RUN,
    SHOOT,
    STYLES,
    move_actions,
)
from engine.rulesets.skirmish2d6.query import SkirmishQuery
from engine.rulesets.skirmish2d6.state import (
    ACTIONS_PER_ACTIVATION,
    BOW_RANGE_IN,
    SkirmishState,
    rules_of,
)
from engine.scenario import Scenario, ScenarioError
from engine.scenario_setup import objectives_of, sides_of, terrain_of, unit_from_spec
from engine.turns import Continuing, TurnOrder, prologue

__all__ = [
    "AIM",
    "BREAK",
    "CHARGE",
    "DRIVE",
    "MOVE",
    "NAME",
    "RECOVER",
    "RUN",
    "SHOOT",
    "STYLES",
    "SkirmishRuleset",
    "move_actions",
]

NAME = "skirmish2d6"


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


def _acting(state: GameState) -> Continuing | None:
    """A driven-back fighter first (the player moves it), then the fighter activating: its
    charge's run may not be passed."""
    rules = rules_of(state)
    if rules.drives:
        return Continuing(rules.drives[0][0], may_pass=False, purpose="drive back")
    if rules.acting is None:
        return None
    running = rules.charge_target is not None
    return Continuing(rules.acting, not running, "charge" if running else "action")


def _roll_off_due(state: GameState) -> str | None:
    return "roll-off" if state.round == 0 else None


def _sides(state: GameState) -> list[str]:
    """The active side, then the other."""
    active = state.active_side
    return ([] if active is None else [active]) + [s.name for s in state.sides if s.name != active]


TURNS = TurnOrder(
    sides=_sides,
    ready=resolve.ready,
    new_round="roll-off",
    acting=_acting,
    chance=_roll_off_due,
    may_pass=False,
    remember=True,
)
"""The skirmish order: the round's roll-off, then single activations alternating (a side
with no fighter ready is skipped), a fighter continuing while it has actions, a drive-back
first (the answer is kept in the game's memo for the state object: the runner, the AI and
``apply`` all ask)."""


class SkirmishRuleset(RulesetBase):
    """RULES §3.2 (see the module docstring)."""

    name = NAME
    title = "2D6 skirmish with roles and weapons"
    source = "Wargame (Version 4), second rules"
    action_kinds = frozenset(
        {"chance", "pass", MOVE, SHOOT, AIM, CHARGE, RUN, RECOVER, DRIVE, BREAK}
    )
    options: Mapping[str, str] = {
        "bow_range_in": "Bow range in inches (default 18)",
        "wounded_again_kills": "true: a Wounded fighter Wounded again dies (the default)",
    }
    table_in = (36.0, 36.0)
    """§3.2.b: a 36 x 36 in table unless the scenario names another (G-06)."""
    move_leads = frozenset({CHARGE})
    """A charge is declared where the fighter stands, its reach rolled, then run."""

    def query(self, state: GameState) -> TableQuery:
        """The skirmish's own sight, moves and targets (:mod:`.query`)."""
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
                unit_from_spec(
                    spec,
                    i,
                    card=card_from(spec.card),
                )
            )
        return GameState(
            ruleset=NAME,
            memo=scenario.game_memo(NAME),
            scenario=scenario.scenario.name,
            table=Table(scenario.table.width_in, scenario.table.depth_in),
            sides=sides_of(scenario),
            units=tuple(units),
            terrain=_terrain(scenario),
            objectives=_objectives(scenario),
            options=tuple(sorted(scenario.options.items())),
            rules=SkirmishState(),
        )

    # --------------------------------------------------------------------------- sequence
    def pending(self, state: GameState) -> Pending:
        """See the module docstring for the order of the decision points (``TURNS``)."""
        return TURNS.pending(state)

    # ------------------------------------------------------------------------- legality
    def validate(self, state: GameState, action: Action) -> list[str]:
        """Plain sentences; empty when legal (the last answer for a state object is kept in
        the game's memo: the runner checks a planned action, then ``apply`` checks it)."""
        answers = state.memo.answers_for(state)
        last: tuple[Action, tuple[str, ...]] | None = answers.get(("skirmish-check",))
        if last is not None and last[0] == action:
            return list(last[1])
        problems = self._validate(state, action)
        answers[("skirmish-check",)] = (action, tuple(problems))
        return problems

    def _validate(self, state: GameState, action: Action) -> list[str]:
        pending = self.pending(state)
        opening = prologue(state, pending, action, self.action_kinds)
        if opening is not None:
            return opening
        kind, unit, rules = str(action.kind), state.unit(action.unit_id or ""), rules_of(state)
        if pending.purpose == "drive back":
            return legal.check_drive(state, unit, action)
        if pending.purpose == "charge":
            return (
                legal.check_run(state, unit, action)
                if kind == RUN
                else [f"{unit.name} must now run at its charge target"]
            )
        if kind == ActionKind.PASS:
            return []
        left = (
            rules.actions_left if pending.kind is PendingKind.CONTINUE else ACTIONS_PER_ACTIVATION
        )
        return legal.check_action(
            state, unit, action, left, rules.aimed and pending.kind is PendingKind.CONTINUE
        )

    # ---------------------------------------------------------------------------- apply
    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        """Resolve a legal action (every die through ``dice``)."""
        problems = self.validate(state, action)
        if problems:
            raise IllegalActionError(problems, action, state.round, state.step)
        pending = self.pending(state)
        kind = str(action.kind)  # the step is counted where the outcome is settled
        if kind == "chance":
            return resolve.new_round(state, dice)
        rules = rules_of(state)
        if pending.purpose == "drive back":
            uid, _, end = rules.drives[0]
            driven = state.unit(uid)
            state = state.with_unit(evolve(driven, x=end[0], y=end[1]))
            return resolve.settle(state, [], evolve(rules, drives=rules.drives[1:]))
        unit = state.unit(action.unit_id or "")
        events: list[Event] = []
        if pending.kind is PendingKind.CHOOSE_UNIT:
            unit = evolve(unit, activated=True)
            state = state.with_unit(unit)
            rules = evolve(rules, acting=unit.id, actions_left=ACTIONS_PER_ACTIVATION, aimed=False)
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
            return resolve.settle(state, events, evolve(rules, actions_left=0))
        if kind == RUN:
            return resolve.run(state, rules, unit, action, dice, events)
        cost = 2 if kind == RECOVER else (legal.moves_spent(action) if kind == MOVE else 1)
        aimed = {AIM: True, SHOOT: False}.get(kind, rules.aimed)
        bonus = 1 if rules.aimed else 0
        rules = evolve(rules, actions_left=rules.actions_left - cost, aimed=aimed)
        fight = Fight(state, dice, events, wounded_again_kills=resolve.stacking(state))
        if kind == MOVE:
            resolve.move(fight, unit, action.path, MOVE, cost)
        elif kind == AIM:
            fight.events.append(
                event("aim", state.round, f"{unit.name} aims (+1 to its next shot).", unit.id)
            )
        elif kind == SHOOT:
            attack(fight, unit.id, action.target_id or "", WEAPONS["bow"], ranged=True, bonus=bonus)
        elif kind == RECOVER:
            resolve.recover(fight, unit, action.get("status"))
        else:
            return resolve.charge(fight, unit, action, dice, rules)
        return resolve.finish(fight, rules)

    def charge_run(self, state: GameState) -> tuple[tuple[float, float], ...]:
        """The run the rules propose for the rolled charge: straight at the target up to the
        reach, stopping in base contact (what the AI orders and the player is told)."""
        return legal.charge_run(state)

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
                reach = (a.base_diameter_in + b.base_diameter_in) / 2.0
                if a.on_table and b.on_table and math.dist(a.position, b.position) < reach - 1e-3:
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
        if state.winner is None and state.round > resolve.last_round(state):
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
                path = board(state).slide_toward(unit, goal, 0.0, dist)
                if len(path) > 1:
                    out.append(Action(MOVE, unit_id, path=path))
        for enemy in state.enemies_of(unit):
            out.append(Action(SHOOT, unit_id, target_id=enemy.id))
            for weapon in card_of(unit).melee_weapons:
                for style in STYLES:
                    if style and legal.STYLE_WEAPON[style] != weapon.name:
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


def _terrain(scenario: Scenario) -> tuple[TerrainPiece, ...]:
    return terrain_of(scenario)


def _objectives(scenario: Scenario) -> tuple[Objective, ...]:
    return objectives_of(scenario)


register_ruleset(NAME, SkirmishRuleset)
