"""A test-only skirmish on an open table (the OpenBoard kit), registered from this file only: a
d6 a round says which side starts (1-3 the first), then the sides alternate a unit at a time.
A unit moves one leg of up to 3 in clear of impassable terrain and bases, or shoots an enemy
within 12 in seen past terrain and models (G-03): a d6 of 4+ removes it (5+ in soft cover, 6
in hard). After round 3 the side with more units standing wins."""

from __future__ import annotations

from dataclasses import replace

from engine import protocols as p
from engine.actions import Action, ActionKind, Event, IllegalActionError, Order, event
from engine.boards.open import OpenBoard, open_board
from engine.dice import RandomSource
from engine.geometry import Cover, advance, within_in
from engine.model import GameState, Unit, UnitCard, UnitStatus
from engine.scenario import Scenario
from engine.scenario_setup import sides_of, table_of, terrain_of, unit_from_spec

NAME = "plugin-test"
MOVE_IN, RANGE_IN, LAST_ROUND = 3.0, 12.0, 3
NEED = {Cover.NONE: 4, Cover.SOFT: 5, Cover.HARD: 6}  # the d6 a shot needs, by the target's cover


def shot_need(state: GameState, shooter: Unit, target: Unit) -> int:
    """The d6 a shot needs: 4, or 5/6 when the target is in soft/hard cover from the shooter."""
    return NEED[open_board(state).cover(shooter.position, target.position, target.radius_in)[0]]


def action_problem(state: GameState, unit: Unit, action: Action) -> str:
    """Why the unit may not take the action (empty: it may)."""
    board, path, target_id = open_board(state), tuple(action.path), action.target_id or ""
    if action.kind == ActionKind.MOVE:
        if len(path) != 2 or path[0] != unit.position:
            return f"a move of {unit.name} is one straight leg from where it stands"
        if not within_in(OpenBoard.path_length_in(path), MOVE_IN):
            return f"{unit.name} moves at most {MOVE_IN:g} in"
        if not state.table.contains_base(path[1], unit.radius_in):
            return f"{unit.name} would leave the table"
        hits = board.move_area(unit).blockers.leg_blockers(*path, unit.radius_in)
        return f"the move runs into {hits[0][1]}" if hits else ""
    if action.kind != ActionKind.SHOOT or not state.has_unit(target_id):
        return f"{action.kind} is not an action of these rules"
    target = state.unit(target_id)
    if target.side == unit.side or not target.on_table:
        return f"{target.name} is not an enemy on the table"
    if not within_in(board.gap_in(unit, target), RANGE_IN):
        return f"{target.name} is more than {RANGE_IN:g} in away"
    if not board.centre_clear(unit, unit.position, target.position, (unit.id, target_id)):
        return f"{unit.name} cannot see {target.name}"
    return ""


class PluginRuleset(p.RulesetBase):
    """The test-only rules (inches, an open table)."""

    name, title, source = NAME, "Plug-in test rules", "Plug-in test rules (tests only)"
    action_kinds = frozenset({"chance", "pass", "move", "shoot"})

    def new_game(self, scenario: Scenario) -> GameState:
        units = tuple(unit_from_spec(u, i, UnitCard()) for i, u in enumerate(scenario.units))
        table = (table_of(scenario), sides_of(scenario), units, terrain_of(scenario))
        return GameState(NAME, scenario.scenario.name, *table)

    def pending(self, state: GameState) -> p.Pending:
        if state.winner is not None:
            return p.Pending(p.PendingKind.OVER)
        fresh = [u for u in state.units if u.on_table and not u.activated]
        ready = {s.name: tuple(u.id for u in fresh if u.side == s.name) for s in state.sides}
        live = [side for side, ids in ready.items() if ids]
        if state.round == 0 or not live:
            return p.Pending(p.PendingKind.CHANCE, purpose="initiative")
        done = {side: sum(u.activated and u.side == side for u in state.units) for side in ready}
        side = min(live, key=lambda s: (done[s], s != state.active_side))  # the sides alternate
        return p.Pending(p.PendingKind.CHOOSE_UNIT, side=side, candidates=ready[side])

    def validate(self, state: GameState, action: Action) -> list[str]:
        pending, kind = self.pending(state), str(action.kind)
        if pending.kind is not p.PendingKind.CHOOSE_UNIT:  # over, or a chance step
            return [] if kind == str(pending.kind) == "chance" else [f"{kind} is not possible now"]
        if kind == "pass":
            return []
        if action.unit_id not in pending.candidates:
            return [f"{action.unit_id} cannot act now"]
        problem = action_problem(state, state.unit(action.unit_id or ""), action)
        return [problem] if problem else []

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        unit = state.unit(unit_id)
        out = [Action(ActionKind.SHOOT, unit_id, target_id=e.id) for e in state.enemies_of(unit)]
        ends = [advance(unit.position, h, d) for h in range(0, 360, 45) for d in (3.0, 1.5)]
        out += [Action(ActionKind.MOVE, unit_id, path=(unit.position, end)) for end in ends]
        return [a for a in out if not self.validate(state, a)]

    def apply(self, state: GameState, action: Action, dice: RandomSource) -> p.Outcome:
        if problems := self.validate(state, action):
            raise IllegalActionError(problems, action, state.round, state.step)
        pending, kind = self.pending(state), str(action.kind)
        state = replace(state, step=state.step + 1)
        if kind == "chance" and state.round >= LAST_ROUND:
            return self._end(state, "the last round is over", ())
        elif kind == "chance":
            roll = dice.roll(6, "initiative")
            first = state.sides[0 if roll <= 3 else 1].name
            units = tuple(replace(u, activated=False) for u in state.units)
            state = replace(state, round=state.round + 1, active_side=first, units=units)
            words = f"Round {state.round}: {first} start ({roll})."
            return p.Outcome(state, (event("round", state.round, words),))
        unit = replace(state.unit(action.unit_id or pending.candidates[0]), activated=True)
        if kind == "pass":  # a declined choice: the first ready unit stands this round
            state, ev = state.with_unit(unit), event("pass", state.round, f"{unit.name} stands.")
        elif kind == "move":
            unit = replace(unit, x=action.path[-1][0], y=action.path[-1][1])
            ev = event("move", state.round, f"{unit.name} moves.", unit.id, path=action.path)
            state = state.with_unit(unit)
        else:
            target = state.unit(action.target_id or "")
            need, roll = shot_need(state, unit, target), dice.roll(6, f"shot at {target.name}")
            if roll >= need:
                target = replace(target, status=UnitStatus.FALLEN)
            words = f"{unit.name} shoots {target.name}: {roll} (needs {need}+)."
            ev = event("shoot", state.round, words, unit.id, target=target.id, roll=roll, need=need)
            state = state.with_unit(unit).with_unit(target)
        if len({u.side for u in state.units if u.on_table}) < 2:
            return self._end(state, "one side has no unit left", (ev,))
        return p.Outcome(state, (ev,))

    def _end(self, state: GameState, reason: str, events: tuple[Event, ...]) -> p.Outcome:
        standing = [u.side for u in state.units if u.on_table]
        winner = max(state.sides, key=lambda s: standing.count(s.name)).name
        end = event("end", state.round, f"{winner} win: {reason}.", winner=winner)
        return p.Outcome(replace(state, winner=winner, end_reason=reason), (*events, end))

    def check_state(self, state: GameState) -> list[str]:
        off = [u for u in state.units if not state.table.contains_base(u.position, u.radius_in)]
        return [f"{u.id} is off the table" for u in off if u.on_table]


class PluginAI(p.ControllerBase):
    """Takes the likeliest shot; else moves nearest the nearest enemy."""

    name = "plugin-ai"
    rulesets: tuple[str, ...] = (NAME,)

    def decide(self, state: GameState, ruleset: p.Ruleset, uid: str, dice: RandomSource) -> Order:
        unit, sample = state.unit(uid), ruleset.sample_actions(state, uid, dice)
        foe = min(state.enemies_of(unit), key=lambda e: OpenBoard.gap_in(unit, e))

        def rank(a: Action) -> tuple[bool, float]:  # a shot first, the likeliest; else nearest
            if a.target_id:
                return False, shot_need(state, unit, state.unit(a.target_id))
            return True, OpenBoard.gap_in(unit, foe, a.path[-1])

        pick = min(sample, key=rank, default=Action(ActionKind.PASS, side=unit.side))
        return Order((pick,), "shoot" if pick.target_id else "close in", f"near {foe.name}")


def register() -> None:
    """Register the ruleset and its AI: a plug-in's one line (the tests' fixture calls it)."""
    p.register_ruleset(NAME, PluginRuleset)
    p.register_controller(PluginAI.name, PluginAI)
