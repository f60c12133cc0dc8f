"""The d20 solitaire rules (seed 003, RULES §5): simple basic d20 combat for any army or
skirmish game, with the enemy statuses of §5.k kept by the rules.

Sequence (§5.d): each round starts with one chance step — the initiative d20 of every side
(ties re-rolled), then (option ``enemy_action``) the random enemy action d20 (purpose
"enemy action": one random figure, half the units rounded up, all, or all plus a defeated
figure returning Alerted at its start, D003-07). In round 1 that step also settles rolled
tactics (§5.l) and marks every enemy Prepared (a ``status`` event each). Then the sides take
turns in initiative order with one d20 unit at a time (D003-01: a side out of units is
skipped). A unit has a move action and one other action, in either order (§5.e): ``move``
(a path; a second move uses the other action), ``attack`` (``detail.weapon``),
``ability`` (a buff), ``heal``, ``interact`` (a non-combat task, ``detail.task``) or
``pass`` (ends its turn). A stunned figure loses the next round; a Retreating one (a failed
morale check) has one move and no other action, then is Alerted again (§5.k, T003-17).

Statuses: enemies start Prepared and become Alerted once the heroes have moved, when they
see a hero (any direction, D003-05) or are attacked; the Arch Foe alerted alerts all
(D003-06). Every change is an event ``{"type": "status", "unit", "status"}``.

Multi-figure units: figures with the same ``company`` form one d20 unit; its first figure
acts, and after it moves the others are placed in a chain touching it (D003-03: none
farther into the battlefield than it), and each of them that reaches the target attacks too.

The scenario schema (card fields and options) is in :mod:`engine.rulesets.d20_state`; the
board (spaces on a grid or on an open table) in :mod:`engine.rulesets.d20_board`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from pydantic import ValidationError

from engine.actions import Action, Event, IllegalActionError, event
from engine.dice import RandomSource
from engine.geometry import Edge, Table, bearing_deg
from engine.model import GameState, Objective, Role, Side, TerrainPiece, Unit
from engine.protocols import Outcome, Pending, PendingKind, RulesetBase, register_ruleset
from engine.query import TableQuery
from engine.rulesets.d20_board import (
    card_of,
    enters_dangerous,
    in_reach,
    move_allowance,
    move_problem,
    occupied,
    rules_of,
    visible,
)
from engine.rulesets.d20_chain import place_chain
from engine.rulesets.d20_combat import (
    dangerous_roll,
    morale_checks,
    non_combat,
    resolve_attack,
    status_change,
)
from engine.rulesets.d20_query import D20Query
from engine.rulesets.d20_round import candidates, chance_step, start_round
from engine.rulesets.d20_sample import sample
from engine.rulesets.d20_state import (
    ALERTED,
    MOVE_UNIT,
    NAME,
    PREPARED,
    RETREATING,
    TACTICS,
    CardSpec,
    D20Card,
    D20State,
    D20Unit,
    Weapon,
)
from engine.rulesets.d20_victory import final_result, last_round, standing_sides
from engine.scenario import ObjectiveSpec, Scenario, ScenarioError, TerrainSpec, card_error

OTHER_KINDS = ("attack", "ability", "heal", "interact")


def weapon_of(unit: Unit, name: object) -> Weapon | None:
    """The unit's weapon of that name (None: no such weapon)."""
    return next((w for w in card_of(unit).weapons if w.name == name), None)


class D20Ruleset(RulesetBase):
    """Seed 003's simple basic combat with its statuses (see the module docstring)."""

    name = NAME
    title = "d20 solitaire rules"
    source = "Domino Writing Solitaire Gaming Rules"
    action_kinds = frozenset({"chance", "pass", "move", "attack", "ability", "heal", "interact"})
    options: Mapping[str, str] = {
        "battlefield": '"small" or "large" (§5.f; default from the table size)',
        "space_in": "size of a space on a table without a grid, inches (default 1)",
        "patrol": "Prepared enemies patrol with the d20 table (true/false, default true)",
        "enemy_action": "roll the random enemy action each round (true/false, default true)",
        "victory": '"basic" (Basic Battle, 5 rounds) or "objectives" (VP after 4 rounds)',
        "dangerous_die": "the dangerous-terrain die, 6 or 20 (default 6)",
    }

    # ------------------------------------------------------------------ setup
    def new_game(self, scenario: Scenario) -> GameState:
        """Cards, sides, the table (grid or not), figures facing the other side."""
        opts = scenario.options
        if opts.get("battlefield", "small") not in ("small", "large"):
            raise ScenarioError(f'{scenario.source}: options.battlefield: "small" or "large"')
        if opts.get("victory", "basic") not in ("basic", "objectives"):
            raise ScenarioError(f'{scenario.source}: options.victory: "basic" or "objectives"')
        if opts.get("dangerous_die", 6) not in (6, 20):
            raise ScenarioError(f"{scenario.source}: options.dangerous_die: 6 or 20")
        for key in ("patrol", "enemy_action"):
            if not isinstance(opts.get(key, True), bool):
                raise ScenarioError(f"{scenario.source}: options.{key}: true or false")
        space = opts.get("space_in", 1.0)
        if isinstance(space, bool) or not isinstance(space, int | float) or not 0 < space <= 6:
            raise ScenarioError(f"{scenario.source}: options.space_in: inches, above 0 up to 6")
        if any(s.role == "neutral" for s in scenario.sides):
            raise ScenarioError(f"{scenario.source}: sides: the d20 rules have no neutral side")
        table = Table(scenario.table.width_in, scenario.table.depth_in, scenario.table.grid_shape())
        large = opts.get("battlefield") == "large" or (
            "battlefield" not in opts and max(table.width_in, table.depth_in) > 24.0 + 1e-6
        )
        sides = tuple(Side(s.name, Role(s.role), Edge(s.edge)) for s in scenario.sides)
        ai = next(s.name for s in sides if s.role is Role.AI)
        units: list[Unit] = []
        arch = [u.id for u in scenario.units if u.card.get("arch_foe") and u.side == ai]
        if len(arch) > 1:
            raise ScenarioError(f"{scenario.source}: units: only one Arch Foe ({', '.join(arch)})")
        first_ai = next(u.id for u in scenario.units if u.side == ai)
        for i, spec in enumerate(scenario.units):
            try:
                card = CardSpec.model_validate(spec.card)
            except ValidationError as exc:
                raise card_error(scenario, i, exc, CardSpec) from None
            for field, value in (
                ("tactic", card.tactic),
                ("previous_tactic", card.previous_tactic),
            ):
                allowed = ("", "roll", *TACTICS) if field == "tactic" else ("", *TACTICS)
                if value not in allowed:
                    raise ScenarioError(
                        f"{scenario.source}: units[{i}].card.{field}: {value!r} is not a tactic "
                        f"(allowed: {', '.join(a for a in allowed if a)}, or empty)"
                    )
            move = card.move
            if move is None:
                move = MOVE_UNIT[card.size][0 if large else 1] - (1 if card.heavy_armour else 0)
            is_arch = spec.id in arch or (not arch and spec.id == first_ai)
            d20card = D20Card(
                wounds=card.wounds,
                move=max(0, move),
                weapons=tuple(Weapon(**w.model_dump()) for w in card.weapons),
                attack_twice=card.attack_twice,
                defend_twice=card.defend_twice,
                talented=card.talented,
                buffs=card.buffs,
                heals=card.heals,
                points=card.points,
                power=card.points if card.power is None else card.power,
                arch_foe=is_arch,
                leader=card.leader,
                tactic=card.tactic,
                partner=card.partner,
                previous_tactic=card.previous_tactic,
            )
            tactic = card.tactic
            if tactic == "unexpected":
                tactic = "roll"  # rolled again before each encounter (T003-05)
            units.append(
                Unit(
                    id=spec.id,
                    name=spec.name,
                    side=spec.side,
                    sheet_order=i,
                    x=spec.x,
                    y=spec.y,
                    heading_deg=spec.heading,
                    card=d20card,
                    base_diameter_in=spec.base_diameter_in,
                    cell=table.cell_of((spec.x, spec.y)),
                    rules=D20Unit(
                        group=spec.company or spec.id,
                        start=(spec.x, spec.y),
                        tactic=tactic,
                    ),
                )
            )
        heroes = [u for u in units if u.side != ai]
        hx = sum(u.x for u in heroes) / len(heroes)
        hy = sum(u.y for u in heroes) / len(heroes)
        units = [
            replace(u, heading_deg=round(bearing_deg(u.position, (hx, hy)), 6))
            if u.side == ai
            else u
            for u in units
        ]
        return GameState(
            ruleset=NAME,
            scenario=scenario.scenario.name,
            table=table,
            sides=sides,
            units=tuple(units),
            objectives=tuple(_objective(o) for o in scenario.objectives),
            terrain=tuple(_terrain(t) for t in scenario.terrain),
            options=tuple(sorted(scenario.options.items())),
            rules=D20State(),
        )

    # ------------------------------------------------------------------ sequence
    def _rules(self, state: GameState) -> D20State:
        assert isinstance(state.rules, D20State)
        return state.rules

    def candidates(self, state: GameState, side: str) -> tuple[str, ...]:
        """The d20 units of ``side`` that may act now (their first figures, sheet order)."""
        return candidates(state, side)

    def pending(self, state: GameState) -> Pending:
        """Chance (a new round), a side choosing a unit, or the acting unit continuing."""
        if state.winner is not None:
            return Pending(PendingKind.OVER)
        rules = self._rules(state)
        if rules.acting is not None:
            unit = state.unit(rules.acting)
            return Pending(
                PendingKind.CONTINUE, side=unit.side, unit=unit.id, candidates=(unit.id,)
            )
        if state.round == 0:
            return Pending(PendingKind.CHANCE, purpose="initiative")
        if rules.stage:
            return Pending(PendingKind.CHANCE, purpose=rules.stage)
        n = len(rules.order)
        for k in range(n):
            side = rules.order[(rules.turn + k) % n]
            ready = self.candidates(state, side)
            if ready:
                return Pending(PendingKind.CHOOSE_UNIT, side=side, candidates=ready)
        return Pending(PendingKind.CHANCE, purpose="initiative")

    # ------------------------------------------------------------------ legality
    def validate(self, state: GameState, action: Action) -> list[str]:
        """Plain sentences; empty when the action is legal now."""
        pending = self.pending(state)
        kind = str(action.kind)
        if pending.kind is PendingKind.OVER:
            return ["the battle is over"]
        if pending.kind is PendingKind.CHANCE:
            return [] if kind == "chance" else [f"the dice decide the {pending.purpose} first"]
        if kind == "chance":
            return [f"it is {pending.side}'s turn, not a roll"]
        if kind not in self.action_kinds:
            return [f"{kind} is not an action of the d20 rules"]
        if kind == "pass" and action.unit_id is None:
            if pending.kind is PendingKind.CHOOSE_UNIT and action.side == pending.side:
                return []
            return [f"{action.side or 'nobody'} cannot pass now"]
        unit_id = action.unit_id or ""
        if not state.has_unit(unit_id):
            return [f"there is no figure {unit_id!r}"]
        unit = state.unit(unit_id)
        if pending.kind is PendingKind.CHOOSE_UNIT and unit_id not in pending.candidates:
            names = ", ".join(state.unit(c).name for c in pending.candidates)
            return [f"{unit.name} cannot act now (may act: {names})"]
        if pending.kind is PendingKind.CONTINUE and unit_id != pending.unit:
            return [f"{state.unit(pending.unit or '').name} is taking its turn"]
        rules = self._rules(state)
        acting = rules.acting == unit_id
        moved, other = (rules.moved, rules.other) if acting else (False, False)
        retreating = RETREATING in unit.statuses
        if kind == "pass":
            return []
        if kind == "move":
            if retreating and moved:
                return [f"{unit.name} is retreating: one move and nothing else"]
            if moved and other:
                return [f"{unit.name} has used both its actions"]
            problem = move_problem(state, unit, action.path or (unit.position,))
            return [problem] if problem else []
        if retreating:
            return [f"{unit.name} is retreating: it only moves this turn"]
        if other:
            return [f"{unit.name} has used its other action"]
        if kind == "attack":
            return self._attack_problems(state, unit, action)
        if kind == "ability":
            ability = action.get("ability")
            if ability not in card_of(unit).buffs:
                return [f"{unit.name} has no ability {ability!r}"]
            if ability in rules_of(unit).buffs_used:
                return [f"{unit.name} has already used {ability}"]
            return []
        if kind == "heal":
            if rules_of(unit).heals_used >= card_of(unit).heals:
                return [f"{unit.name} has no healing left"]
            target = (
                state.unit(action.target_id)
                if action.target_id and state.has_unit(action.target_id)
                else None
            )
            if target is None or target.side != unit.side or not target.on_table:
                return ["heal an ally on the table"]
            if target.wounds == 0:
                return [f"{target.name} is not wounded"]
            if target.id != unit.id and not in_reach(state, unit, Weapon("touch", "melee"), target):
                return [f"{target.name} is not next to {unit.name}"]
            return []
        if kind == "interact":
            return [] if action.get("task") else ["say what the figure tries (detail.task)"]
        return [f"{kind} is not an action of the d20 rules"]

    def _attack_problems(self, state: GameState, unit: Unit, action: Action) -> list[str]:
        target_id = action.target_id or ""
        if not state.has_unit(target_id):
            return ["name the figure attacked"]
        target = state.unit(target_id)
        if target.side == unit.side or not target.on_table:
            return [f"{target.name} is not an enemy on the table"]
        weapons = card_of(unit).weapons
        weapon = weapon_of(unit, action.get("weapon")) if action.get("weapon") else weapons[0]
        if weapon is None:
            names = ", ".join(w.name for w in weapons)
            return [f"{unit.name} has no weapon {action.get('weapon')!r} (has: {names})"]
        if not in_reach(state, unit, weapon, target):
            return [f"{target.name} is out of reach of the {weapon.name} ({weapon.kind})"]
        if weapon.ranged and not visible(state, unit, target):
            return [f"{unit.name} cannot see {target.name}"]
        return []

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        """Attacks, abilities, heals, a few moves and the pass (see ``d20_sample``)."""
        return [a for a in sample(state, unit_id, dice) if not self.validate(state, a)]

    def query(self, state: GameState) -> TableQuery:
        """Spaces, sight and cover of the d20 rules."""
        return D20Query(state)

    # ------------------------------------------------------------------ resolution
    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        """Resolve a legal action (see the module docstring)."""
        problems = self.validate(state, action)
        if problems:
            raise IllegalActionError(problems, action, state.round, state.step)
        state = replace(state, step=state.step + 1)
        kind = str(action.kind)
        if kind == "chance":
            return self._chance(state, dice)
        pending = self.pending(state)
        rules = self._rules(state)
        if kind == "pass" and action.unit_id is None:
            side = pending.side or ""
            units = tuple(
                replace(u, activated=True) if u.side == side and u.on_table else u
                for u in state.units
            )
            state = replace(state, units=units)
            ev = event("pass", state.round, f"{side} pass for the rest of the round.", side=side)
            return self._after(state, [ev], None, dice)
        unit = state.unit(action.unit_id or "")
        events: list[Event] = []
        if rules.acting != unit.id:
            state, events = self._activate(state, unit)
            unit = state.unit(unit.id)
            rules = self._rules(state)
        if kind == "pass":
            events.append(event("pass", state.round, f"{unit.name} ends its turn.", unit.id))
            return self._end_turn(state, events, dice)
        cause: Unit | None = None
        if kind == "move":
            second = rules.moved
            state, evs = self._move(state, unit, action, dice)
            events += evs
            rules = self._rules(state)
            rules = replace(rules, moved=True, other=rules.other or second)
        else:
            rules = replace(rules, other=True)
            if kind == "attack":
                state, evs = self._attack(state, unit, action, dice)
                events += evs
                cause = unit
            elif kind == "ability":
                ability = str(action.get("ability"))
                own = rules_of(unit)
                state = state.with_unit(
                    replace(unit, rules=replace(own, buffs_used=(*own.buffs_used, ability)))
                )
                events.append(
                    event(
                        "ability",
                        state.round,
                        f"{unit.name} uses {ability}.",
                        unit.id,
                        ability=ability,
                    )
                )
            elif kind == "heal":
                target = state.unit(action.target_id or "")
                state = state.with_unit(replace(target, wounds=target.wounds - 1))
                own = rules_of(state.unit(unit.id))
                healer = state.unit(unit.id)
                state = state.with_unit(
                    replace(healer, rules=replace(own, heals_used=own.heals_used + 1))
                )
                events.append(
                    event(
                        "heal",
                        state.round,
                        f"{unit.name} heals {target.name}.",
                        unit.id,
                        target=target.id,
                    )
                )
            else:
                _, _, ev = non_combat(state, unit, str(action.get("task")), dice)
                events.append(ev)
            rules = replace(self._rules(state), other=True, moved=rules.moved)
        state = replace(state, rules=rules)
        outcome = self._after(state, events, cause, dice)
        state, events = outcome.state, list(outcome.events)
        if state.winner is not None:
            return outcome
        rules = self._rules(state)
        mover = state.unit(unit.id)
        done = (
            (rules.moved and rules.other)
            or not mover.on_table
            or (RETREATING in mover.statuses and rules.moved)
        )
        if done:
            return self._end_turn(state, events, dice)
        return Outcome(state, tuple(events))

    def _activate(self, state: GameState, unit: Unit) -> tuple[GameState, list[Event]]:
        rules = self._rules(state)
        group = rules_of(unit).group
        units = tuple(
            replace(u, activated=True)
            if u.on_table and rules_of(u).group == group and u.side == unit.side
            else u
            for u in state.units
        )
        ai = state.side(unit.side).role is Role.AI
        rules = replace(
            rules,
            acting=unit.id,
            moved=False,
            other=False,
            ai_acted=rules.ai_acted + (1 if ai else 0),
            dangerous_rolled=(),
        )
        state = replace(state, units=units, rules=rules)
        return state, [event("activation", state.round, f"{unit.name} takes its turn.", unit.id)]

    def _move(
        self, state: GameState, unit: Unit, action: Action, dice: RandomSource
    ) -> tuple[GameState, list[Event]]:
        path = action.path or (unit.position,)
        end = path[-1]
        heading = action.heading_deg
        if heading is None:
            heading = (
                bearing_deg(path[-2], end)
                if len(path) > 1 and path[-2] != end
                else unit.heading_deg
            )
        moved = replace(unit, x=end[0], y=end[1], heading_deg=heading % 360.0)
        state = state.with_unit(moved)
        events: list[Event] = [
            event(
                "move",
                state.round,
                f"{unit.name} moves.",
                unit.id,
                path=[[round(x, 4), round(y, 4)] for x, y in path],
                heading=round(heading % 360.0, 3),
            )
        ]
        state, placed = place_chain(state, moved)
        events += placed
        rules = self._rules(state)
        if state.side(unit.side).role is Role.HUMAN and len(path) > 1 and not rules.heroes_moved:
            state = replace(state, rules=replace(rules, heroes_moved=True))
        if len(path) > 1 and enters_dangerous(state, path):
            state, evs = dangerous_roll(state, state.unit(unit.id), dice)
            events += evs
        return state, events

    def _attack(
        self, state: GameState, unit: Unit, action: Action, dice: RandomSource
    ) -> tuple[GameState, list[Event]]:
        target = state.unit(action.target_id or "")
        weapons = card_of(unit).weapons
        weapon = weapon_of(unit, action.get("weapon")) if action.get("weapon") else weapons[0]
        assert weapon is not None
        facing = replace(unit, heading_deg=bearing_deg(unit.position, target.position) % 360.0)
        state = state.with_unit(facing)
        state, events = resolve_attack(state, facing, target, weapon, dice)
        group = rules_of(unit).group
        for mate in state.units_of(unit.side):
            if mate.id == unit.id or rules_of(mate).group != group:
                continue
            current = state.unit(target.id)
            if not current.on_table:
                break
            if in_reach(
                state, mate, weapon_of(mate, weapon.name) or card_of(mate).weapons[0], current
            ):
                mw = weapon_of(mate, weapon.name) or card_of(mate).weapons[0]
                state, evs = resolve_attack(state, mate, current, mw, dice)
                events += evs
        return state, events

    def _after(
        self, state: GameState, events: list[Event], cause: Unit | None, dice: RandomSource
    ) -> Outcome:
        """Morale (the first drop below half, D003-17), instant victory, alert checks."""
        rules = self._rules(state)
        starting = {s.name: sum(u.side == s.name for u in state.units) for s in state.sides}
        for s in state.sides:
            if s.name in rules.morale_checked:
                continue
            left = len(state.units_of(s.name))
            if 2 * left < starting[s.name] and left > 0:
                rules = replace(rules, morale_checked=(*rules.morale_checked, s.name))
                state = replace(state, rules=rules)
                state, evs = morale_checks(state, s.name, cause, dice)
                events += evs
                rules = self._rules(state)
        standing = standing_sides(state)
        if len(standing) <= 1:
            winner = standing[0] if standing else "draw"
            return self._end(state, events, winner, "every opposing figure is defeated")
        state, evs = self.alert_checks(state)
        events += evs
        return Outcome(state, tuple(events))

    def alert_checks(self, state: GameState) -> tuple[GameState, list[Event]]:
        """Prepared enemies that see a hero become Alerted, once the heroes have moved
        (D003-05, T003-16); the Arch Foe alerted alerts every enemy (D003-06)."""
        rules = self._rules(state)
        events: list[Event] = []
        if not rules.heroes_moved:
            return state, events
        ai = state.side_of_role(Role.AI)
        if ai is None:
            return state, events
        heroes = [u for u in state.units if u.on_table and u.side != ai.name]
        for enemy in state.units_of(ai.name):
            if PREPARED in enemy.statuses and any(visible(state, enemy, h) for h in heroes):
                state, ev = status_change(state, enemy, ALERTED)
                events.append(ev)
        arch = next((u for u in state.units_of(ai.name) if card_of(u).arch_foe), None)
        if arch is not None and PREPARED not in arch.statuses:
            for enemy in state.units_of(ai.name):
                if PREPARED in enemy.statuses:
                    state, ev = status_change(state, enemy, ALERTED)
                    events.append(ev)
        return state, events

    def _end_turn(self, state: GameState, events: list[Event], dice: RandomSource) -> Outcome:
        rules = self._rules(state)
        unit = state.unit(rules.acting or "")
        if unit.on_table and RETREATING in unit.statuses and rules.moved:
            if state.side(unit.side).role is Role.AI:
                state, ev = status_change(state, unit, ALERTED)
            else:
                steady = replace(unit, statuses=unit.statuses - {RETREATING})
                state = state.with_unit(steady)
                ev = event(
                    "status", state.round, f"{unit.name} steadies.", unit.id, status="steady"
                )
            events.append(ev)
        order = rules.order
        turn = (order.index(unit.side) + 1) % len(order) if unit.side in order else 0
        rules = replace(self._rules(state), acting=None, moved=False, other=False, turn=turn)
        return Outcome(replace(state, rules=rules), tuple(events))

    def _chance(self, state: GameState, dice: RandomSource) -> Outcome:
        """One die of the round's start (``d20_round``); a new round, or the end after the
        last one."""
        events: list[Event] = []
        if not self._rules(state).stage:
            if state.round >= last_round(state):
                winner, reason = final_result(state, _contact(state))
                return self._end(state, events, winner, reason)
            state, events = start_round(state)
        state, more = chance_step(state, dice)
        return Outcome(state, tuple(events + more))

    def _end(self, state: GameState, events: list[Event], winner: str, reason: str) -> Outcome:
        rules = replace(self._rules(state), acting=None)
        state = replace(state, winner=winner, end_reason=reason, rules=rules)
        text = "The battle is a draw" if winner == "draw" else f"{winner} win"
        events.append(event("end", state.round, f"{text}: {reason}.", winner=winner))
        return Outcome(state, tuple(events))

    def check_state(self, state: GameState) -> list[str]:
        """Figures on the table, one per cell on a grid, wounds below the card's, one status."""
        problems = []
        grid = state.table.grid
        cells: dict[object, str] = {}
        for u in state.units:
            if not u.on_table:
                continue
            if not state.table.contains_base(u.position, u.radius_in - 1e-6):
                problems.append(f"{u.id} is off the table")
            if grid is not None:
                cell = grid.cell_at(u.position)
                if cell in cells:
                    problems.append(f"{u.id} and {cells[cell]} share a cell")
                cells[cell] = u.id
            if u.wounds >= card_of(u).wounds:
                problems.append(f"{u.id} has {u.wounds} wounds and is still on the table")
            if len(u.statuses & {PREPARED, ALERTED, RETREATING}) > 1:
                problems.append(f"{u.id} has two statuses")
        return problems

    def move_allowance(self, state: GameState, unit: Unit) -> float:
        """The Move Unit (cells on a grid, inches otherwise)."""
        return move_allowance(state, unit)


def _contact(state: GameState) -> float:
    return state.option("contact_tol_in", 0.1)


def _blocked(state: GameState, unit: Unit) -> bool:
    return occupied(state, unit.position, unit) is not None


def _objective(spec: ObjectiveSpec) -> Objective:
    return Objective(spec.id, spec.name, spec.x, spec.y)


def _terrain(spec: TerrainSpec) -> TerrainPiece:
    return TerrainPiece(
        id=spec.id,
        name=spec.name,
        kind=spec.kind,
        polygon=tuple(spec.polygon),
        blocks_los=spec.blocks_los,
        impassable=spec.impassable,
        difficult=spec.difficult,
        cover=spec.cover,
        dangerous=spec.dangerous,
        height_in=spec.height_in,
    )


register_ruleset(NAME, D20Ruleset)
