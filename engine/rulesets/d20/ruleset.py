"""The d20 solitaire rules (seed 003, RULES §5): simple basic d20 combat for any army or
skirmish game, with the enemy statuses of §5.k kept by the rules.

Sequence (§5.d): each round starts with chance steps of one die each (``sequence``): in
round 1 the rolled tactics (§5.l), every enemy marked Prepared (a ``status`` event each);
the initiative d20 of every side (ties re-rolled); then (option ``enemy_action``) the random
enemy action d20 (purpose "enemy action": one random figure, half the units rounded up, all,
or all plus a defeated figure returning Alerted at its start, D003-07). Then the sides take
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

The scenario schema (card fields and options) is in :mod:`engine.rulesets.d20.state`; the
board (spaces on a grid or on an open table) in :mod:`engine.rulesets.d20.board`.
Each generic scenario's own end and special rules (option ``scenario``: Ambush, Escape,
Fortress Assault, Infiltrate, Spawning with its "spawn" chance step, Transport's pick-up) are
in :mod:`engine.rulesets.d20.victory_kinds`.

Recovery (§5.b, D003-22) is never legal in a battle (combat lasts from the first initiative
to the last enemy defeated): the campaign calls :func:`engine.rulesets.d20.combat.recovery`
between battles (half the wounds back, conditions cleared, once per session),
:func:`~engine.rulesets.d20.combat.new_session` at a new session and
:func:`~engine.rulesets.d20.combat.morning_rest` each morning of a multi-day adventure.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.actions import Action, Event, IllegalActionError, event
from engine.boards.open import open_terrain
from engine.dice import RandomSource
from engine.model import GameState, Role, Unit, evolve
from engine.protocols import Outcome, Pending, RulesetBase, register_ruleset
from engine.query import TableQuery
from engine.rulesets.d20.board import move_allowance, move_problem, occupied, visible
from engine.rulesets.d20.combat import (
    dangerous_roll,
    morale_checks,
    non_combat,
    status_change,
)
from engine.rulesets.d20.query import D20Query
from engine.rulesets.d20.ranges import in_reach
from engine.rulesets.d20.resolve import activate, alert_checks, attack, move, weapon_of
from engine.rulesets.d20.sample import sample
from engine.rulesets.d20.sequence import TURNS, candidates, chance_step, start_round
from engine.rulesets.d20.setup import new_game
from engine.rulesets.d20.state import (
    ALERTED,
    NAME,
    PREPARED,
    RETREATING,
    D20State,
    Weapon,
    card_of,
    rules_of,
)
from engine.rulesets.d20.victory import final_result, last_round, standing_sides
from engine.rulesets.d20.victory_kinds import (
    after_action,
    attack_structure,
    elimination_reason,
    instant_result,
    option_problems,
    pick_up,
    pickup_problem,
    spawn_due,
    spawn_step,
    structure_problem,
    waiting,
    with_reserves,
)
from engine.scenario import Scenario, ScenarioError
from engine.turns import prologue

OTHER_KINDS = ("attack", "ability", "heal", "interact")


class D20Ruleset(RulesetBase):
    """Seed 003's simple basic combat with its statuses (see the module docstring)."""

    name = NAME
    title = "d20 solitaire rules"
    source = "Domino Writing Solitaire Gaming Rules"
    action_kinds = frozenset({"chance", "pass", "move", "attack", "ability", "heal", "interact"})
    options: Mapping[str, str] = {
        "battlefield": '"small" or "large" (default from the table size)',
        "space_in": "size of a space on a table without a grid, inches (default 1)",
        "patrol": "Prepared enemies patrol with the d20 table (true/false, default true)",
        "enemy_action": "roll the random enemy action each round (true/false, default true)",
        "victory": '"basic" (Basic Battle, 5 rounds) or "objectives" (VP after 4 rounds)',
        "dangerous_die": "the dangerous-terrain die, 6 or 20 (default 6)",
        "morale_recheck": "check morale again after each loss below half (default false)",
        "scenario": "the generic scenario of the d20 scenario table whose own end applies (default basic-battle)",
        "ambushers": "Ambush: the side that acts first in round 1",
        "assaulters": "Fortress Assault: the side attacking the fortress",
        "fortress": "Fortress Assault: the fortress's terrain id",
        "fortress_wounds": "Fortress Assault: wounds the fortress takes (default 5)",
        "spawners": "Spawning: the side whose reserve figures come on by the spawn die",
        "cargo": "Transport: the cargo's objective id",
    }

    # ------------------------------------------------------------------ setup
    def new_game(self, scenario: Scenario) -> GameState:
        """Cards, sides, the table (grid or not), enemies facing the heroes (``setup``)."""
        problems = option_problems(dict(scenario.options), {s.name for s in scenario.sides})
        if problems:
            raise ScenarioError(f"{scenario.source}: {problems[0]}")
        return with_reserves(new_game(scenario), scenario)

    # ------------------------------------------------------------------ sequence
    def _rules(self, state: GameState) -> D20State:
        assert isinstance(state.rules, D20State)
        return state.rules

    def candidates(self, state: GameState, side: str) -> tuple[str, ...]:
        """The d20 units of ``side`` that may act now (their first figures, sheet order)."""
        return candidates(state, side)

    def pending(self, state: GameState) -> Pending:
        """Chance (a new round), a side choosing a unit, or the acting unit continuing."""
        return TURNS.pending(state)

    # ------------------------------------------------------------------ legality
    def validate(self, state: GameState, action: Action) -> list[str]:
        """Plain sentences; empty when the action is legal now."""
        pending = self.pending(state)
        opening = prologue(state, pending, action, self.action_kinds)
        if opening is not None:
            return opening
        kind = str(action.kind)
        unit_id = action.unit_id or ""
        unit = state.unit(unit_id)
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
            if action.get("task") == "pick up":
                problem = pickup_problem(state, unit)
                return [problem] if problem else []
            return [] if action.get("task") else ["say what the figure tries (detail.task)"]
        return [f"{kind} is not an action of the d20 rules"]

    def _attack_problems(self, state: GameState, unit: Unit, action: Action) -> list[str]:
        target_id = action.target_id or ""
        if action.get("structure"):
            problem = structure_problem(state, unit, str(action.get("structure")))
            return [problem] if problem else []
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
        if not visible(state, unit, target):
            return [f"{unit.name} cannot see {target.name}"]
        return []

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        """Attacks, abilities, heals, a few moves and the pass (see ``sample``)."""
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
        state = evolve(state, step=state.step + 1)
        kind = str(action.kind)
        if kind == "chance":
            return self._chance(state, dice)
        pending = self.pending(state)
        rules = self._rules(state)
        if kind == "pass" and action.unit_id is None:
            side = pending.side or ""
            units = tuple(
                evolve(u, activated=True) if u.side == side and u.on_table else u
                for u in state.units
            )
            state = evolve(state, units=units)
            ev = event("pass", state.round, f"{side} pass for the rest of the round.", side=side)
            return self._after(state, [ev], None, dice)
        unit = state.unit(action.unit_id or "")
        events: list[Event] = []
        if rules.acting != unit.id:
            state, events = activate(state, unit)
            unit = state.unit(unit.id)
            rules = self._rules(state)
        if kind == "pass":
            events.append(event("pass", state.round, f"{unit.name} ends its turn.", unit.id))
            return self._end_turn(state, events, dice)
        cause: Unit | None = None
        if kind == "move":
            second = rules.moved
            state, evs = move(state, unit, action, dice)
            events += evs
            rules = self._rules(state)
            rules = evolve(rules, moved=True, other=rules.other or second)
        else:
            rules = evolve(rules, other=True)
            if kind == "attack" and action.get("structure"):
                state, evs = attack_structure(state, unit, dice)
                events += evs
            elif kind == "attack":
                state, evs = attack(state, unit, action, dice)
                events += evs
                cause = unit
            elif kind == "ability":
                ability = str(action.get("ability"))
                own = rules_of(unit)
                state = state.with_unit(
                    evolve(unit, rules=evolve(own, buffs_used=(*own.buffs_used, ability)))
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
                state = state.with_unit(evolve(target, wounds=target.wounds - 1))
                own = rules_of(state.unit(unit.id))
                healer = state.unit(unit.id)
                state = state.with_unit(
                    evolve(healer, rules=evolve(own, heals_used=own.heals_used + 1))
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
            elif action.get("task") == "pick up":
                state, ev = pick_up(state, unit)
                events.append(ev)
            else:
                _, _, ev = non_combat(state, unit, str(action.get("task")), dice)
                events.append(ev)
            rules = evolve(self._rules(state), other=True, moved=rules.moved)
        state = evolve(state, rules=rules)
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

    def _after(
        self, state: GameState, events: list[Event], cause: Unit | None, dice: RandomSource
    ) -> Outcome:
        """Morale (the first drop below half, D003-17; with ``morale_recheck`` again after each
        further loss), instant victory, alert checks."""
        rules = self._rules(state)
        starting = {s.name: sum(u.side == s.name for u in state.units) for s in state.sides}
        again = state.option_value("morale_recheck", False) is True
        fallen = {state.unit(e.unit).side for e in events if e.type == "fall" and e.unit}
        for s in state.sides:
            if s.name in rules.morale_checked and not (again and s.name in fallen):
                continue
            left = len(state.units_of(s.name)) + len(waiting(state, s.name))
            if 2 * left < starting[s.name] and left > 0:
                checked = tuple(dict.fromkeys((*rules.morale_checked, s.name)))
                rules = evolve(rules, morale_checked=checked)
                state = evolve(state, rules=rules)
                state, evs = morale_checks(state, s.name, cause, dice)
                events += evs
                rules = self._rules(state)
        state, evs = after_action(state)
        events += evs
        own = instant_result(state)
        if own is not None:
            return self._end(state, events, own[0], own[1])
        standing = standing_sides(state)
        if len(standing) <= 1:
            winner = standing[0] if standing else "draw"
            return self._end(state, events, winner, elimination_reason(state, winner))
        state, evs = alert_checks(state)
        events += evs
        return Outcome(state, tuple(events))

    def alert_checks(self, state: GameState) -> tuple[GameState, list[Event]]:
        """Prepared enemies that see a hero become Alerted (``resolve``)."""
        return alert_checks(state)

    def _end_turn(self, state: GameState, events: list[Event], dice: RandomSource) -> Outcome:
        rules = self._rules(state)
        unit = state.unit(rules.acting or "")
        if (
            unit.on_table
            and unit.id not in rules.dangerous_rolled
            and open_terrain(state).dangerous_at(unit.position)
        ):
            # Ending the turn in dangerous ground without having rolled on entering (§5.f).
            state, evs = dangerous_roll(state, unit, dice)
            outcome = self._after(state, events + evs, None, dice)
            if outcome.state.winner is not None:
                return outcome
            state, events = outcome.state, list(outcome.events)
            unit = state.unit(unit.id)
        if unit.on_table and RETREATING in unit.statuses and rules.moved:
            if state.side(unit.side).role is Role.AI:
                state, ev = status_change(state, unit, ALERTED)
            else:
                steady = evolve(unit, statuses=unit.statuses - {RETREATING})
                state = state.with_unit(steady)
                ev = event(
                    "status", state.round, f"{unit.name} steadies.", unit.id, status="steady"
                )
            events.append(ev)
        order = rules.order
        turn = (order.index(unit.side) + 1) % len(order) if unit.side in order else 0
        rules = evolve(self._rules(state), acting=None, moved=False, other=False, turn=turn)
        return Outcome(evolve(state, rules=rules), tuple(events))

    def _chance(self, state: GameState, dice: RandomSource) -> Outcome:
        """One die of the round's start (``sequence``); a new round, or the end after the
        last one."""
        events: list[Event] = []
        if spawn_due(state) is not None and not self._rules(state).stage:
            state, more = spawn_step(state, dice)
            return self._after(state, more, None, dice)
        if not self._rules(state).stage:
            if state.round >= last_round(state):
                winner, reason = final_result(state, _contact(state))
                return self._end(state, events, winner, reason)
            state, events = start_round(state)
        state, more = chance_step(state, dice)
        return Outcome(state, tuple(events + more))

    def _end(self, state: GameState, events: list[Event], winner: str, reason: str) -> Outcome:
        rules = evolve(self._rules(state), acting=None)
        state = evolve(state, winner=winner, end_reason=reason, rules=rules)
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


register_ruleset(NAME, D20Ruleset)
