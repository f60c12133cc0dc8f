"""A test-only ruleset on a grid: a card drawn each round decides which side chooses who starts
(a choice between named options), two actions per activation (one when pinned), a shot may pin
its target (the one status), and a unit shot at may react by ducking. Registered from this file only, through the engine's plug-in points."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.actions import Action, ActionKind, Event, IllegalActionError, Order, event
from engine.cards import Deck
from engine.dice import RandomSource, choice
from engine.model import GameState, RulesState, Side, Unit, UnitCard, UnitStatus
from engine.protocols import (
    ControllerBase,
    Outcome,
    Pending,
    PendingKind,
    Ruleset,
    RulesetBase,
    register_controller,
    register_ruleset,
)
from engine.scenario import Scenario, cell_name
from engine.scenario_setup import sides_of, table_of

NAME = "plugin-test"
DECK = "initiative"
CARDS = ("AH", "AS")
"""Hearts: the first side starts the round; spades: the second. Reshuffled when empty."""
PINNED = "pinned"
LAST_ROUND = 3
STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))


@dataclass(frozen=True)
class PluginState(RulesState):
    """Who acts now, how many actions it has left, and a pending reaction."""

    acting: str | None = None
    actions_left: int = 0
    reacting: str | None = None
    trigger: Event | None = None
    choosing: str | None = None
    """The side that chooses who starts the round (after the initiative card)."""


FIRST, SECOND = "we start", "they start"


def _cell(state: GameState, unit: Unit) -> tuple[int, int]:
    assert unit.cell is not None
    return unit.cell


class PluginRuleset(RulesetBase):
    """The test-only rules (cells, not inches)."""

    name = NAME
    title = "Plug-in test rules"
    source = "Plug-in test rules (tests only)"
    action_kinds = frozenset({"chance", "pass", "choose", "move", "shoot", "react_evade"})

    def new_game(self, scenario: Scenario) -> GameState:
        sides = sides_of(scenario)
        table = table_of(scenario)
        units = tuple(
            Unit(
                id=u.id,
                name=u.name,
                side=u.side,
                sheet_order=i,
                x=u.x,
                y=u.y,
                heading_deg=u.heading,
                card=UnitCard(),
                cell=table.cell_of((u.x, u.y)),
            )
            for i, u in enumerate(scenario.units)
        )
        return GameState(
            ruleset=NAME,
            scenario=scenario.scenario.name,
            table=table,
            sides=sides,
            units=units,
            decks=(Deck(DECK, CARDS),),
            rules=PluginState(),
        )

    def _rules(self, state: GameState) -> PluginState:
        assert isinstance(state.rules, PluginState)
        return state.rules

    def _ready(self, state: GameState, side: str) -> tuple[str, ...]:
        return tuple(
            u.id
            for u in state.units
            if u.side == side and u.status == UnitStatus.ACTIVE and not u.activated
        )

    def pending(self, state: GameState) -> Pending:
        rules = self._rules(state)
        if state.winner is not None:
            return Pending(PendingKind.OVER)
        if rules.choosing is not None:
            return Pending(
                PendingKind.CHOICE, side=rules.choosing, options=(FIRST, SECOND), purpose="start"
            )
        if rules.reacting is not None:
            side = state.unit(rules.reacting).side
            return Pending(
                PendingKind.REACTION,
                side=side,
                unit=rules.reacting,
                trigger=rules.trigger,
                candidates=(rules.reacting,),
            )
        if rules.acting is not None:
            side = state.unit(rules.acting).side
            return Pending(
                PendingKind.CONTINUE, side=side, unit=rules.acting, candidates=(rules.acting,)
            )
        if state.round == 0 or state.active_side is None:
            return Pending(PendingKind.CHANCE, purpose="initiative")
        for side in (state.active_side, *(s.name for s in state.sides)):
            ready = self._ready(state, side)
            if ready:
                return Pending(PendingKind.CHOOSE_UNIT, side=side, candidates=ready)
        return Pending(PendingKind.CHANCE, purpose="initiative")

    def validate(self, state: GameState, action: Action) -> list[str]:
        pending = self.pending(state)
        kind = str(action.kind)
        if pending.kind is PendingKind.OVER:
            return ["the game is over"]
        if pending.kind is PendingKind.CHANCE:
            return [] if kind == "chance" else [f"a chance step, not {kind}"]
        if pending.kind is PendingKind.CHOICE:
            ok = kind == "choose" and action.get("option") in pending.options
            return [] if ok else [f"{pending.side} chooses {FIRST!r} or {SECOND!r}"]
        if kind == "pass":
            return []
        if pending.kind is PendingKind.REACTION:
            return [] if kind == "react_evade" and action.unit_id == pending.unit else ["no"]
        unit_id = action.unit_id or ""
        if pending.kind is PendingKind.CHOOSE_UNIT and unit_id not in pending.candidates:
            return [f"{unit_id} cannot act now"]
        if pending.kind is PendingKind.CONTINUE and unit_id != pending.unit:
            return [f"{pending.unit} is acting"]
        unit = state.unit(unit_id)
        if kind == "move":
            cell = tuple(action.get("cell") or ())
            grid = state.table.grid
            here = _cell(state, unit)
            near = [(here[0] + dc, here[1] + dr) for dc, dr in STEPS]
            if grid is None or len(cell) != 2 or cell not in near or not grid.contains(cell):
                where = cell_name(cell) if len(cell) == 2 else str(list(cell))
                return [f"{where} is not a cell next to {unit.name}"]
            return []
        if kind == "shoot":
            target = state.unit(action.target_id or "") if action.target_id else None
            if target is None or target.side == unit.side or target.status != UnitStatus.ACTIVE:
                return ["no enemy to shoot"]
            return []
        return [f"{kind} is not an action of these rules"]

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        pending = self.pending(state)
        if pending.kind is PendingKind.REACTION:
            return [Action("react_evade", unit_id)]
        unit = state.unit(unit_id)
        here = _cell(state, unit)
        grid = state.table.grid
        assert grid is not None
        out = [
            Action(
                ActionKind.MOVE,
                unit_id,
                path=(unit.position, grid.centre(cell)),
                detail=(("cell", list(cell)),),
            )
            for cell in ((here[0] + dc, here[1] + dr) for dc, dr in STEPS)
            if grid.contains(cell)
        ]
        out += [
            Action(ActionKind.SHOOT, unit_id, target_id=u.id)
            for u in state.units
            if u.side != unit.side and u.status == UnitStatus.ACTIVE
        ]
        return [a for a in out if not self.validate(state, a)]

    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        problems = self.validate(state, action)
        if problems:
            raise IllegalActionError(problems, action, state.round, state.step)
        rules, kind = self._rules(state), str(action.kind)
        step = state.step + 1
        if kind == "chance":
            return self._new_round(replace(state, step=step), dice)
        pending = self.pending(state)
        if kind == "choose":
            chooser = pending.side or ""
            other = next(s.name for s in state.sides if s.name != chooser)
            first = chooser if action.get("option") == FIRST else other
            ev = event("choice", state.round, f"{chooser} choose: {first} start.", side=chooser)
            rules = replace(rules, choosing=None)
            return Outcome(replace(state, step=step, active_side=first, rules=rules), (ev,))
        if kind == "pass" and pending.kind is PendingKind.REACTION:
            return Outcome(replace(state, step=step, rules=replace(rules, reacting=None)), ())
        if kind == "pass" and pending.kind is PendingKind.CHOOSE_UNIT:
            units = tuple(
                replace(u, activated=True) if u.side == pending.side else u for u in state.units
            )
            ev = event("pass", state.round, f"{pending.side} passes.", side=pending.side)
            return self._after(replace(state, units=units, step=step), (ev,))
        unit_id = action.unit_id or ""
        unit = state.unit(unit_id)
        if pending.kind is PendingKind.CHOOSE_UNIT:
            left = 1 if PINNED in unit.statuses else 2
            unit = replace(unit, activated=True)
            state = replace(state, units=state.with_unit(unit).units)
            rules = replace(rules, acting=unit_id, actions_left=left)
        if kind == "pass":
            ev = event("pass", state.round, f"{unit.name} stops.", unit_id)
            rules = replace(rules, acting=None, actions_left=0)
            return self._after(replace(state, step=step, rules=rules), (ev,))
        left = rules.actions_left - 1 if kind != "react_evade" else rules.actions_left
        rules = replace(rules, actions_left=left, acting=rules.acting if left > 0 else None)
        if kind == "react_evade":
            roll = dice.roll(6, f"evade: {unit.name}")
            if roll >= 4:
                unit = replace(unit, statuses=unit.statuses - {PINNED})
            ev = event("react_evade", state.round, f"{unit.name} ducks ({roll}).", unit_id)
            rules = replace(rules, reacting=None, trigger=None)
            state = state.with_unit(unit)
            return self._after(replace(state, step=step, rules=rules), (ev,))
        if kind == "move":
            col, row = action.get("cell")
            grid = state.table.grid
            assert grid is not None
            x, y = grid.centre((col, row))
            start = (unit.x, unit.y)
            unit = replace(unit, x=x, y=y, cell=(col, row))
            ev = event(
                "move",
                state.round,
                f"{unit.name} moves.",
                unit_id,
                path=[list(start), [x, y]],
            )
            state = state.with_unit(unit)
            return self._after(replace(state, step=step, rules=rules), (ev,))
        target = state.unit(action.target_id or "")
        roll = dice.roll(6, f"shot: {unit.name} at {target.name}")
        hit = roll >= 4
        if hit and PINNED in target.statuses:
            target = replace(target, status=UnitStatus.FALLEN)
        elif hit:
            target = replace(target, statuses=target.statuses | {PINNED})
        ev = event(
            "shoot",
            state.round,
            f"{unit.name} shoots {target.name} ({roll}).",
            unit_id,
            target=target.id,
            roll=roll,
        )
        state = state.with_unit(target)
        if target.status == UnitStatus.ACTIVE:
            rules = replace(rules, reacting=target.id, trigger=ev)
        return self._after(replace(state, step=step, rules=rules), (ev,))

    def _new_round(self, state: GameState, dice: RandomSource) -> Outcome:
        if state.round >= LAST_ROUND:
            return self._end(state, "the last round is over")
        deck = state.decks[0]
        if not deck.draw_pile:
            deck = deck.shuffled(dice, "initiative deck")
        card, deck = deck.draw(dice, "initiative")
        chooser = state.sides[0 if card.endswith("H") else 1].name
        units = tuple(replace(u, activated=False) for u in state.units)
        state = replace(
            state,
            round=state.round + 1,
            active_side=chooser,
            units=units,
            decks=(deck.discarded(card),),
            rules=replace(self._rules(state), choosing=chooser),
        )
        ev = event("round", state.round, f"Round {state.round}: {chooser} choose ({card}).")
        return Outcome(state, (ev,))

    def _after(self, state: GameState, events: tuple[Event, ...]) -> Outcome:
        standing = {
            s.name
            for s in state.sides
            for u in state.units
            if u.side == s.name and u.status == UnitStatus.ACTIVE
        }
        if len(standing) < 2:
            return self._end(state, "one side has no unit left", events)
        return Outcome(state, events)

    def _end(self, state: GameState, reason: str, events: tuple[Event, ...] = ()) -> Outcome:
        def count(side: Side) -> int:
            return sum(u.side == side.name and u.status == UnitStatus.ACTIVE for u in state.units)

        winner = max(state.sides, key=count).name
        state = replace(state, winner=winner, end_reason=reason, rules=PluginState())
        end = event("end", state.round, f"{winner} win: {reason}.", winner=winner)
        return Outcome(state, (*events, end))

    def check_state(self, state: GameState) -> list[str]:
        problems = []
        for u in state.units:
            if u.status != UnitStatus.ACTIVE:
                continue
            if u.cell is None or state.table.grid is None or not state.table.grid.contains(u.cell):
                problems.append(f"{u.id} is off the grid")
            if u.statuses - {PINNED}:
                problems.append(f"{u.id} has an unknown status")
        deck = state.decks[0]
        if sorted(deck.draw_pile + deck.discard) != sorted(CARDS):
            problems.append("cards lost from the initiative deck")
        return problems


class PluginAI(ControllerBase):
    """Shoots the first enemy it can, ducks when shot at while pinned."""

    name = "plugin-ai"
    rulesets: tuple[str, ...] = (NAME,)

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        sample = ruleset.sample_actions(state, unit_id, dice)
        shots = [a for a in sample if a.kind == ActionKind.SHOOT]
        side = state.unit(unit_id).side
        last = dict(state.memory_of(side)).get("last_target")
        shots.sort(key=lambda a: a.target_id != last)  # the same target again, if it can
        if not shots:
            pick = choice(dice, sample, f"move for {unit_id}")
            return Order((pick,), "plan", "no enemy to shoot")
        memory = (("last_target", shots[0].target_id),)
        return Order((shots[0], shots[0]), "plan", "shoot twice", memory=memory)

    def choose(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str:
        pinned = any(
            PINNED in u.statuses for u in state.units if u.side == pending.side and u.on_table
        )
        return SECOND if pinned else FIRST

    def react(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> Order | None:
        unit = state.unit(pending.unit or "")
        if PINNED not in unit.statuses:
            return None
        return Order(Action("react_evade", unit.id), "duck", "it was pinned")


def register() -> None:
    """Register the ruleset and its controller (the random controller plays it too: it
    plays any ruleset, ``ANY_RULESET``). A real ruleset calls this at the end of its module,
    imported by ``engine/rulesets/__init__.py``; the tests call it inside a fixture so the
    shared registry is left as it was."""
    register_ruleset(NAME, PluginRuleset)
    register_controller(PluginAI.name, PluginAI)
