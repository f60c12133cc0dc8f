"""firefight-lite: a small square-grid skirmish host for the playing-card AI of "Alone on the
Streets" (RULES §4; its host rulebook, Firefight 2.0, is absent, so this is D002-01's FF-lite
column).

* 1-inch squares, Chebyshev distance (D002-02, G-08); sight through terrain squares and
  hostile figures (G-03 as for seed 003); cover open < soft < hard (D002-10).
* A turn (§4.c): the Random Events phase (option ``random_events``, default on), the
  initiative (1d6 per side, ties re-rolled; the winner chooses to act first or second,
  D002-05), the neutral movers, then each side activates all its figures (D002-17); the
  Turn Done marks are cleared at the end of the turn.
* Actions: Move (full move), Aimed Fire (stand and shoot, +1), Move and Fire (half move, then
  shoot), Assault (move into contact and melee), Stay Frosty (overwatch: fire at the first
  hostile figure that starts an action in sight and range), Hold. A figure attacked before it
  has acted reacts (D002-11): Return Fire (simultaneous shot), Armour (the normal save) or
  Run for Cover (half move first; the attack is lost if it can no longer be made); the first
  and last mark it Turn Done.
* The card AI's deck is in the state (``decks``, named "cards"): the event draws and random
  selections happen here; the AI's action and defence cards are drawn by the ``cards``
  controller and named in its actions (``detail.card``), which put them on the discard pile;
  a Joker is a ``reshuffle`` action (D002-03); an empty draw pile is refilled from the
  discard pile (D002-04).
* The game ends when a combatant side has no figure left, or after ``max_rounds`` turns
  (default 8): more figures standing wins, equal numbers draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from pydantic import ValidationError

from engine.actions import Action, Event, IllegalActionError, event
from engine.cards import JOKER, Deck
from engine.dice import RandomSource
from engine.geometry import Edge, Table
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState, Role, Side, TerrainPiece, Unit, UnitStatus
from engine.protocols import Outcome, Pending, PendingKind, RulesetBase, register_ruleset
from engine.rulesets import firefight_lite_flow as flow
from engine.rulesets.firefight_lite_board import (
    card,
    cell,
    hostile,
    is_combatant,
    monk_shielded,
    reach,
    sees_from,
    squares,
)
from engine.rulesets.firefight_lite_deck import FULL_DECK, deck_problems
from engine.rulesets.firefight_lite_events import event_phase
from engine.rulesets.firefight_lite_state import (
    DECK,
    NAME,
    UNTARGETABLE,
    FFCard,
    FFCardModel,
    FFState,
    FFUnit,
)
from engine.scenario import Scenario, ScenarioError, card_error, cell_name

COMBAT_KINDS = ("move", "aimed_fire", "move_and_fire", "assault", "stay_frosty", "hold")
REACTIONS = ("return_fire", "run_for_cover", "overwatch_fire", "move_with")
NEUTRAL_KINDS = ("move", "assault", "serve", "leave", "hold")


def half_move(unit: Unit) -> int:
    """Squares of a Move and Fire or a Run for Cover move (half the move, at least 1)."""
    return max(1, card(unit).move // 2)


def attackable(attacker: Unit, target: Unit) -> bool:
    """Whether ``attacker`` may name ``target``: a hostile figure, or the addled citizen and
    the dispenser bot (anyone may attack them, Q♥ J♥); never a monk or the air mine."""
    if not target.on_table or card(target).neutral in UNTARGETABLE:
        return False
    if hostile(attacker, target):
        return True
    return is_combatant(attacker) and card(target).neutral in ("citizen", "bot")


def _cell_of(action: Action) -> Cell | None:
    raw = action.get("cell")
    if raw is None or len(raw) != 2:
        return None
    return (int(raw[0]), int(raw[1]))


class FirefightLite(RulesetBase):
    """The FF-lite host ruleset (see the module docstring)."""

    name = NAME
    title = "Firefight-lite (host for the Alone on the Streets card AI)"
    source = "Alone on the Streets: a solo system for Firefight 2.0"
    action_kinds = frozenset(
        {"chance", "choose", "pass", "reshuffle", *COMBAT_KINDS, *REACTIONS, *NEUTRAL_KINDS}
    )
    options: Mapping[str, str] = MappingProxyType(
        {"random_events": "the Random Events phase each turn (true or false, default true)"}
    )

    # -- setup -----------------------------------------------------------------------------

    def new_game(self, scenario: Scenario) -> GameState:
        grid = scenario.table.grid_shape()
        if grid is None:
            raise ScenarioError(
                f"{scenario.source}: table.grid: {self.title} plays on a square grid"
            )
        events = scenario.options.get("random_events", True)
        if not isinstance(events, bool):
            raise ScenarioError(
                f"{scenario.source}: options.random_events: true or false, got {events!r}"
            )
        table = Table(scenario.table.width_in, scenario.table.depth_in, grid)
        sides = tuple(Side(s.name, Role(s.role), Edge(s.edge)) for s in scenario.sides)
        units = []
        for i, spec in enumerate(scenario.units):
            try:
                model = FFCardModel.model_validate(spec.card)
            except ValidationError as exc:
                raise card_error(scenario, i, exc, FFCardModel) from None
            role = next(s.role for s in scenario.sides if s.name == spec.side)
            if model.neutral and role != "neutral":
                raise ScenarioError(
                    f"{scenario.source}: units[{i}].card.neutral: only figures of the neutral side are {model.neutral!r}"
                )
            if role == "neutral" and not model.neutral:
                raise ScenarioError(
                    f"{scenario.source}: units[{i}].card.neutral: a figure of the neutral side says what it is (monk, citizen, bot, mob or mine)"
                )
            reserve = model.reserve or role == "neutral"
            at = table.cell_of((spec.x, spec.y))
            units.append(
                Unit(
                    id=spec.id,
                    name=spec.name,
                    side=spec.side,
                    sheet_order=i,
                    x=spec.x,
                    y=spec.y,
                    heading_deg=spec.heading % 360.0,
                    card=FFCard(**model.model_dump()),
                    base_diameter_in=spec.base_diameter_in,
                    status=UnitStatus.RESERVE if reserve else UnitStatus.ACTIVE,
                    cell=None if reserve else at,
                    rules=FFUnit(turn_start=None if reserve else at),
                )
            )
        ai = next(s for s in sides if s.role is Role.AI)
        initial = [u for u in units if u.side == ai.name and u.status is UnitStatus.ACTIVE]
        spec_cells = scenario.side_spec(ai.name).deployment_cells
        deploy = tuple(u.cell for u in initial if u.cell is not None)
        if spec_cells:
            from engine.scenario import parse_cell

            deploy = tuple(parse_cell(ref, grid) for ref in spec_cells)
        rules = FFState(
            initial_ai=tuple(card(u).troop or u.name for u in initial),
            deploy_cells=deploy,
        )
        options = tuple(sorted(scenario.options.items()))
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
        state = GameState(
            ruleset=NAME,
            scenario=scenario.scenario.name,
            table=table,
            sides=sides,
            units=tuple(units),
            terrain=terrain,
            options=options,
            decks=(Deck(DECK, FULL_DECK),),
            rules=rules,
        )
        return state

    def _events_on(self, state: GameState) -> bool:
        return bool(state.option_value("random_events", True))

    def _max_rounds(self, state: GameState) -> int:
        return int(state.option("max_rounds", flow.DEFAULT_ROUNDS))

    # -- decision points --------------------------------------------------------------------

    def pending(self, state: GameState) -> Pending:
        r = flow.rules(state)
        if state.winner is not None:
            return Pending(PendingKind.OVER)
        if r.reacting is not None:
            unit = state.unit(r.reacting)
            return Pending(
                PendingKind.REACTION,
                side=unit.side,
                unit=unit.id,
                candidates=(unit.id,),
                trigger=r.trigger,
                purpose=r.reaction,
            )
        if r.acting is not None:
            unit = state.unit(r.acting)
            return Pending(
                PendingKind.CONTINUE,
                side=unit.side,
                unit=unit.id,
                candidates=(unit.id,),
                may_pass=False,
            )
        if r.phase in ("setup", "event", "initiative"):
            purpose = {
                "setup": "shuffle the deck",
                "event": "random event",
                "initiative": "initiative",
            }
            return Pending(PendingKind.CHANCE, purpose=purpose[r.phase])
        if r.phase == "order":
            return Pending(
                PendingKind.CHOICE,
                side=r.initiative_winner,
                options=("first", "second"),
                purpose="initiative: act first or second",
            )
        side = flow.neutral_side(state) if r.phase == "neutral" else r.acting_side
        ready = tuple(u.id for u in state.units_of(side or "") if not u.activated)
        return Pending(PendingKind.CHOOSE_UNIT, side=side, candidates=ready, may_pass=True)

    # -- legality ----------------------------------------------------------------------------

    def validate(self, state: GameState, action: Action) -> list[str]:
        pending = self.pending(state)
        kind = str(action.kind)
        if pending.kind is PendingKind.OVER:
            return ["the game is over"]
        if pending.kind is PendingKind.CHANCE:
            return (
                []
                if kind == "chance"
                else [f"the game waits for the {pending.purpose}, not {kind}"]
            )
        if pending.kind is PendingKind.CHOICE:
            option = action.get("option")
            if kind != "choose" or option not in pending.options:
                return [f"{pending.side} chooses to act first or second"]
            return []
        if kind == "pass" and pending.kind is PendingKind.CHOOSE_UNIT:
            return []
        unit_id = action.unit_id or ""
        if not state.has_unit(unit_id):
            return [f"there is no figure {unit_id!r}"]
        unit = state.unit(unit_id)
        if pending.kind is PendingKind.REACTION:
            if unit_id != pending.unit:
                return [f"{state.unit(pending.unit or '').name} is the one to react"]
            return self._check_reaction(state, unit, action, pending.purpose)
        if pending.kind is PendingKind.CONTINUE and unit_id != pending.unit:
            return [f"{state.unit(pending.unit or '').name} is acting"]
        if pending.kind is PendingKind.CHOOSE_UNIT and unit_id not in pending.candidates:
            return [f"{unit.name} cannot act now"]
        if kind == "reshuffle":
            return self._check_joker(state, unit, action)
        return self._check_action(state, unit, action)

    def _check_card(self, state: GameState, unit: Unit, action: Action) -> list[str]:
        drawn = action.get("card")
        if drawn is None:
            return []
        if not is_combatant(unit):
            return [f"{unit.name} draws no cards"]
        if drawn == JOKER:
            return ["a Joker is not read: reshuffle the deck and draw again"]
        if drawn not in state.deck(DECK).draw_pile:
            return [f"{drawn} is not in the draw pile"]
        return []

    def _check_joker(self, state: GameState, unit: Unit, action: Action) -> list[str]:
        if action.get("card") != JOKER or JOKER not in state.deck(DECK).draw_pile:
            return ["a reshuffle needs a Joker drawn from the draw pile"]
        if not is_combatant(unit):
            return [f"{unit.name} draws no cards"]
        return []

    def _check_reaction(self, state: GameState, unit: Unit, action: Action, why: str) -> list[str]:
        kind = str(action.kind)
        trigger = flow.rules(state).trigger
        if kind == "pass":
            return self._check_card(state, unit, action)
        if kind == "reshuffle" and why == "defence":
            return self._check_joker(state, unit, action)
        problems = self._check_card(state, unit, action)
        if kind == "return_fire" and why == "defence":
            attacker = state.unit(trigger.get("attacker") if trigger else "")
            if not flow.sight_ok(state, unit, cell(unit), attacker) or card(unit).range == 0:
                problems.append(f"{unit.name} cannot see {attacker.name} in range to return fire")
            return problems
        if kind == "run_for_cover" and why in ("defence", "event"):
            to = _cell_of(action)
            if to is None or (to != cell(unit) and to not in reach(state, unit, half_move(unit))):
                problems.append(
                    f"{unit.name} runs for cover to a square within {half_move(unit)} it can reach"
                )
            return problems
        if kind == "overwatch_fire" and why == "overwatch":
            if trigger is None or action.target_id != trigger.unit:
                problems.append("overwatch fire is at the figure starting its action")
            return problems
        if kind == "move_with" and why == "move_with":
            mover = state.unit(trigger.unit if trigger and trigger.unit else "")
            to = _cell_of(action)
            if (
                to is None
                or chebyshev(to, cell(mover)) != 1
                or to not in reach(state, unit, card(unit).move)
            ):
                problems.append(
                    f"{unit.name} moves with {mover.name} to a square next to it that it can reach"
                )
            return problems
        return [f"{kind.replace('_', ' ')} is not an answer here ({why})"]

    def _check_action(self, state: GameState, unit: Unit, action: Action) -> list[str]:
        kind = str(action.kind)
        neutral = card(unit).neutral
        allowed = NEUTRAL_KINDS if neutral else COMBAT_KINDS
        if kind not in allowed:
            return [f"{kind.replace('_', ' ')} is not an action of {unit.name}"]
        problems = self._check_card(state, unit, action)
        if problems:
            return problems
        here = cell(unit)
        to = _cell_of(action) or here
        if kind == "move":
            if _cell_of(action) is None or (
                to != here and to not in reach(state, unit, card(unit).move)
            ):
                return [
                    f"{unit.name} cannot reach {cell_name(to)} with a move of {card(unit).move}"
                ]
            return []
        if kind in ("stay_frosty", "hold"):
            return []
        if kind == "leave":
            grid = state.table.grid
            assert grid is not None
            if here[0] in (0, grid.cols - 1) or here[1] in (0, grid.rows - 1):
                return []
            return [f"{unit.name} is not on an edge square"]
        target_id = action.target_id or ""
        if not state.has_unit(target_id):
            return [f"{kind.replace('_', ' ')} needs a target"]
        target = state.unit(target_id)
        if kind == "serve":
            if (
                neutral != "bot"
                or not target.on_table
                or not is_combatant(target)
                or chebyshev(here, cell(target)) != 1
            ):
                return ["the bot serves a figure next to it"]
            return []
        if not attackable(unit, target):
            return [f"{target.name} cannot be attacked"]
        if kind == "move_and_fire" and to != here and to not in reach(state, unit, half_move(unit)):
            return [f"{unit.name} moves at most {half_move(unit)} squares before firing"]
        if kind == "assault" and to != here and to not in reach(state, unit, card(unit).move):
            return [f"{unit.name} cannot reach {cell_name(to)}"]
        if monk_shielded(state, to, cell(target)):
            return [f"a monk could shield {target.name}: no attack may target it"]
        if kind == "assault":
            if chebyshev(to, cell(target)) != 1:
                return [f"{unit.name} must end next to {target.name} to assault it"]
            return []
        if card(unit).range == 0:
            return [f"{unit.name} has no ranged weapon"]
        if chebyshev(to, cell(target)) > card(unit).range:
            return [f"{target.name} is out of range"]
        if not sees_from(state, unit, to, cell(target)):
            return [f"{unit.name} cannot see {target.name} from {cell_name(to)}"]
        return []

    # -- resolution --------------------------------------------------------------------------

    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        problems = self.validate(state, action)
        if problems:
            raise IllegalActionError(problems, action, state.round, state.step)
        pending = self.pending(state)
        state = replace(state, step=state.step + 1)
        kind = str(action.kind)
        events: list[Event]
        if pending.kind is PendingKind.CHANCE:
            state, events = self._chance(state, dice)
        elif pending.kind is PendingKind.CHOICE:
            first = action.get("option") == "first"
            winner = pending.side or ""
            other = next(s for s in flow.combatant_sides(state) if s != winner)
            lead = winner if first else other
            state = flow.with_rules(state, phase="neutral", first=lead, acting_side=lead)
            events = [
                event(
                    "initiative_choice",
                    state.round,
                    f"{winner} choose to act {'first' if first else 'second'}.",
                    side=winner,
                    first=lead,
                )
            ]
        elif kind == "reshuffle":
            state = flow.reshuffle(state, dice)
            if pending.kind is PendingKind.CHOOSE_UNIT:
                state = flow.with_rules(state, acting=action.unit_id)
            events = [
                event(
                    "joker",
                    state.round,
                    "Joker: the deck is reshuffled and a new card drawn.",
                    action.unit_id,
                    card=JOKER,
                )
            ]
        elif pending.kind is PendingKind.REACTION:
            state, events = self._react(state, action, dice)
        elif kind == "pass":
            side = pending.side or ""
            units = tuple(
                replace(u, activated=True) if u.side == side and u.on_table else u
                for u in state.units
            )
            state = replace(state, units=units)
            events = [event("pass", state.round, f"{side} end their half-turn.", side=side)]
        else:
            state = flow.with_rules(state, acting=None)
            state = flow.discard_card(state, action)
            state, events = self._act(state, action, dice)
        state, more = flow.settle(state, dice, self._events_on(state), self._max_rounds(state))
        return Outcome(state, tuple([*events, *more]))

    def _chance(self, state: GameState, dice: RandomSource) -> tuple[GameState, list[Event]]:
        r = flow.rules(state)
        if r.phase == "setup":
            deck = state.deck(DECK).shuffled(dice, "set-up: shuffle the deck")
            state = flow.new_turn(state.with_deck(deck), self._events_on(state))
            return state, [event("turn", state.round, "The deck is shuffled. Turn 1.")]
        if r.phase == "event":
            return event_phase(state, dice)
        sides = flow.combatant_sides(state)
        pair = [dice.roll(6, f"initiative: {s}") for s in sides]
        said = ", ".join(f"{s} {v}" for s, v in zip(sides, pair, strict=True))
        if pair[0] == pair[1]:  # D002-05: a tie is rolled again (its own chance step)
            return state, [
                event("initiative_tie", state.round, f"Initiative: {said}: roll again.", rolls=pair)
            ]
        winner = sides[0] if pair[0] > pair[1] else sides[1]
        state = flow.with_rules(state, phase="order", initiative_winner=winner)
        text = f"Initiative: {said}: {winner} choose."
        rolls = [pair]
        return state, [event("initiative", state.round, text, winner=winner, rolls=rolls)]

    def _react(
        self, state: GameState, action: Action, dice: RandomSource
    ) -> tuple[GameState, list[Event]]:
        why = flow.rules(state).reaction
        if why == "defence":
            return flow.answer_defence(state, action, dice)
        if why == "overwatch":
            return flow.answer_overwatch(state, action, dice)
        if why == "event":
            state = flow.discard_card(state, action)
            return flow.answer_event_hit(state, action, dice)
        return self._answer_move_with(state, action)

    def _answer_move_with(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
        r = flow.rules(state)
        unit = state.unit(r.reacting or "")
        events: list[Event] = []
        if str(action.kind) == "move_with":
            to = _cell_of(action)
            assert to is not None
            state, ev = flow.move_unit(state, unit.id, to, "moves with the mover")
            state = state.with_unit(replace(state.unit(unit.id), activated=True))
            events = [flow.reaction_event(state, unit, "move_with", action), ev]
        rest = r.watchers[1:]
        if rest:
            state = flow.with_rules(state, reacting=rest[0], watchers=rest)
        else:
            state = flow.with_rules(state, reacting=None, reaction="", trigger=None, watchers=())
        return state, events

    def _act(
        self, state: GameState, action: Action, dice: RandomSource
    ) -> tuple[GameState, list[Event]]:
        unit = state.unit(action.unit_id or "")
        kind = str(action.kind)
        neutral = card(unit).neutral
        if kind == "leave":
            state = state.with_unit(replace(unit, status=UnitStatus.ROUTED_OFF, activated=True))
            return state, [
                event("left_table", state.round, f"{unit.name} leaves the table.", unit.id)
            ]
        start = cell(unit)
        state, events = flow.begin(state, action, dice)
        moved = state.unit(unit.id)
        if neutral == "mine":
            state, more = self._mine(state, moved, dice)
            events += more
        elif neutral in ("citizen", "bot") and kind == "move" and moved.cell != start:
            watchers = tuple(
                u.id
                for u in state.units
                if u.on_table
                and is_combatant(u)
                and not u.activated
                and chebyshev(cell(u), start) == 1
            )
            if watchers and events:
                state = flow.with_rules(
                    state,
                    reacting=watchers[0],
                    reaction="move_with",
                    trigger=events[-1],
                    watchers=watchers,
                )
        return state, events

    def _mine(
        self, state: GameState, mine: Unit, dice: RandomSource
    ) -> tuple[GameState, list[Event]]:
        """D002-12: the air mine explodes on touching a figure: AOE 1, strength 2."""
        near = [
            u
            for u in state.units
            if u.on_table and u.id != mine.id and u.cell and chebyshev(u.cell, cell(mine)) <= 1
        ]
        if not any(is_combatant(u) for u in near):
            return state, []
        state = state.with_unit(replace(mine, status=UnitStatus.FALLEN))
        events = [
            event(
                "explosion",
                state.round,
                f"{mine.name} explodes at {cell_name(cell(mine))}.",
                mine.id,
                cell=list(cell(mine)),
            )
        ]
        from engine.rulesets.firefight_lite_combat import take_hit

        for u in near:
            state, more = take_hit(state, u.id, 2, dice, "air mine")
            events += more
        return state, events

    # -- checks and samples -------------------------------------------------------------------

    def check_state(self, state: GameState) -> list[str]:
        problems: list[str] = []
        grid = state.table.grid
        taken: dict[Cell, str] = {}
        impassable = squares(state).impassable
        for u in state.units:
            if not u.on_table:
                continue
            if u.cell is None or grid is None or not grid.contains(u.cell):
                problems.append(f"{u.id} is off the grid")
                continue
            if u.cell in taken:
                problems.append(f"{u.id} and {taken[u.cell]} share {cell_name(u.cell)}")
            if u.cell in impassable:
                problems.append(f"{u.id} stands in impassable terrain")
            taken[u.cell] = u.id
        deck = state.deck(DECK)
        problems += deck_problems(deck)
        if state.winner is None and not deck.draw_pile:
            problems.append("the draw pile is empty between steps")
        return problems

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        from engine.rulesets.firefight_lite_sample import sample

        return sample(self, state, unit_id, dice)

    def action_word(self, action: Action) -> str:
        return str(action.kind)


def register() -> None:
    """Register the ruleset."""
    register_ruleset(NAME, FirefightLite)


register()
