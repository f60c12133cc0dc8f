"""The Solo Narrative Minis Ruleset at the table (the ``narrative`` ruleset's adapter).

Initiative is rolled by the assistant; a routing character's flight (the engine's forced
decision point) is ordered for the player like an AI order; the player declares shoot, melee,
done (a move) or pass; a card shows wounds, routing and the objective carried. Orders and moves: :mod:`.narrative_orders` and
:mod:`.narrative_moves`.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from assistant.errors import UserError
from assistant.live_view import SightLineView
from assistant.session.announce import cover_areas
from assistant.session.observation import PieceSeen
from assistant.tables import firefight_lite_words as card_words
from assistant.tables import narrative_moves as moves
from assistant.tables import narrative_orders as orders
from assistant.tables import register_adapter
from assistant.tables.base import (
    BaseAdapter,
    CardValue,
    Declaration,
    Expectation,
    ObservedMove,
    ReplayMove,
    Turn,
    UnitCard,
    targets_of,
    unit_status,
)
from engine.actions import Action, ActionKind, Event, Order
from engine.geometry import Point, cover_between
from engine.model import GameState, Unit, UnitStatus
from engine.odds import (
    NARRATIVE_MODIFIER_RANGE,
    narrative_modifier_error,
    narrative_wound_chance,
)
from engine.protocols import Ruleset
from engine.rulesets.firefight_lite.state import FROSTY
from engine.rulesets.narrative.board import card_of, gap_between, sight_between
from engine.rulesets.narrative.state import (
    bonus_move_for,
    card_host,
    carrying,
    is_routing,
    with_carrying,
)

NAME = "narrative"
CARD_EVENTS = frozenset({"random_event", "no_event", "selection", "deck_refilled", "joker"})
"""Events of the card AI's deck, said with what to do with the real cards."""


class NarrativeAdapter(BaseAdapter):
    """The narrative ruleset's table side."""

    name = NAME
    replayed_events = frozenset({"round_start", "activation", "pick_up", "bonus_activation"})
    odds_help = (
        "The chance that one attack wounds: 'odds narrative --attack 1 --defence 0 --moved'."
    )

    # ---------------------------------------------------------------- turns
    def pass_action(self, state: GameState, side: str) -> Action:
        """A pass; in a reaction (the card AI's events), the reacting figure's Armour."""
        reacting = card_reaction(state)
        if reacting is not None:
            return Action(ActionKind.PASS, reacting.id, side=side)
        return Action(ActionKind.PASS, side=side)

    def turn_prompt(self, state: GameState, turn: Turn) -> str:
        reacting = card_reaction(state)
        if reacting is None:
            return super().turn_prompt(state, turn)
        return (
            f"{reacting.name} is hit: armour (pass), or run for cover (move it up to half its "
            "move, then declare run for cover)?"
        )

    def declare_prompt(self, state: GameState, turn: Turn) -> str:
        if card_reaction(state) is not None:
            return self.turn_prompt(state, turn)
        return super().declare_prompt(state, turn)

    def event_words(self, state: GameState, event: Event) -> str | None:
        """The card AI's deck instructions as on firefight-lite; a move the rules made (an
        event's run for cover) is said with where to put the model."""
        if event.type in CARD_EVENTS:
            return card_words.event_words(state, event)
        if event.type == "move" and event.get("by") == "event":
            return event.text
        return super().event_words(state, event)

    # --------------------------------------------------------------- orders
    def order_instruction(self, state: GameState, order: Order) -> str:
        return orders.order_instruction(state, order)

    def expectation(self, state: GameState, order: Order) -> Expectation:
        return orders.shot_heading(state, order, super().expectation(state, order))

    def describe_action(self, state: GameState, action: Action) -> str:
        return orders.describe_action(state, action)

    def declared_notes(self, state: GameState, action: Action) -> tuple[str, ...]:
        return orders.declared_notes(state, action)

    # ------------------------------------------------------ the player's side
    def declarations(
        self, state: GameState, turn: Turn, moved: str | None
    ) -> tuple[Declaration, ...]:
        if card_reaction(state) is not None:
            return (Declaration("armour"), Declaration("run_for_cover"))
        enemies = targets_of(state, turn.side)
        options = [Declaration("done"), Declaration("melee", enemies), Declaration("pass")]
        if any(card_of(state.unit(u)).shoot_range_in for u in turn.candidates):
            options.insert(0, Declaration("shoot", enemies))
        return tuple(options)

    def moved_prompt(self, state: GameState, unit: Unit, distance_in: float) -> str:
        return f"{unit.name} moved {distance_in:.1f} inches. Declare its action: shoot, melee, or done."

    def observed_path(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen
    ) -> tuple[tuple[Point, ...] | None, str]:
        return moves.observed_path(state, unit, seen)

    def observed_action(
        self,
        state: GameState,
        ruleset: Ruleset,
        what: str,
        target: str | None,
        move: ObservedMove | None,
        unit_id: str | None,
    ) -> Action | str:
        reacting = card_reaction(state)
        if reacting is not None:
            return _reaction(reacting, what, move)
        return moves.observed_action(state, ruleset, what, target, move, unit_id)

    # -------------------------------------------------------------- the page
    def unit_card(self, state: GameState, unit: Unit) -> UnitCard:
        card = card_of(unit)
        status = unit_status(unit)
        values = ()
        carried = carrying(unit)
        if carried is not None:
            values = (CardValue("carries", state.objective(carried).name),)
        statuses = ["routing"] if status == "active" and is_routing(state, unit) else []
        if FROSTY in unit.statuses:
            statuses.append("stay frosty")
        return UnitCard(
            status=status,
            statuses=tuple(statuses),
            values=values,
            wound_slots=card.wound_slots,
            ranges_in=(card.shoot_range_in,) if card.shoot_range_in else (),
            front_arc_deg=180.0,
        )

    def sight_lines(self, state: GameState, unit: Unit) -> tuple[SightLineView, ...]:
        areas = cover_areas(state)
        out = []
        for enemy in state.enemies_of(unit):
            sight = sight_between(state, unit, enemy)
            cover, giver = cover_between(unit.position, enemy.position, enemy.radius_in, areas)
            note = "blocked by " + ", ".join(sight.blocked_by) if sight.blocked_by else ""
            if giver:
                note = (note + "; " if note else "") + f"cover from {giver}"
            out.append(
                SightLineView(
                    from_id=unit.id,
                    to_id=enemy.id,
                    clear=sight.centre_clear,
                    cover=cover.value,
                    range_in=round(gap_between(unit, enemy), 2),
                    note=note,
                )
            )
        return tuple(out)

    # ------------------------------------------------------------------ odds
    def add_odds_arguments(self, parser: argparse.ArgumentParser) -> None:
        low, high = NARRATIVE_MODIFIER_RANGE[0], NARRATIVE_MODIFIER_RANGE[-1]
        parser.add_argument(
            "--attack",
            type=int,
            required=True,
            help=f"attacker's attack modifier ({low} to {high})",
        )
        parser.add_argument(
            "--defence",
            "--defense",
            type=int,
            required=True,
            help=f"defender's defence modifier ({low} to {high})",
        )
        parser.add_argument(
            "--moved", action="store_true", help="the shot follows a move (-1 attack)"
        )

    def odds(self, args: argparse.Namespace) -> str:
        for name, value in (("--attack", args.attack), ("--defence", args.defence)):
            problem = narrative_modifier_error(name, value)
            if problem is not None:
                raise UserError(problem)
        chance = narrative_wound_chance(args.attack, args.defence, args.moved)
        delta = args.attack - args.defence - (1 if args.moved else 0)
        return (
            f"Chance of a wound (attack {args.attack}, defence {args.defence}"
            f"{', after moving' if args.moved else ''}; modifier {delta:+d}): "
            f"{chance.numerator}/{chance.denominator} = {float(chance) * 100:.1f}%"
        )

    # ------------------------------------------------------ reading footage
    def replay_move(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen, slack_in: float
    ) -> ReplayMove:
        return moves.replay_move(state, ruleset, unit, seen, slack_in)

    def stand_in_actions(self, state: GameState, unit: Unit) -> tuple[Action, ...]:
        return moves.stand_in_actions(state, unit)

    def place(
        self, state: GameState, unit_id: str, x: float, y: float, heading: float
    ) -> GameState:
        state = super().place(state, unit_id, x, y, heading)
        carried = carrying(state.unit(unit_id))
        if carried is not None:
            state = state.with_objective(replace(state.objective(carried), x=x, y=y))
        return state

    def take_off(self, state: GameState, unit_id: str) -> GameState:
        unit = state.unit(unit_id)
        carried = carrying(unit)
        if carried is not None:
            objective = state.objective(carried)
            state = state.with_objective(replace(objective, carried_by=None, x=unit.x, y=unit.y))
        return state.with_unit(replace(with_carrying(unit, None), status=UnitStatus.FALLEN))

    def activation_note(self, state: GameState, unit: Unit) -> str:
        return "bonus" if bonus_move_for(state, unit) is not None else ""


def card_reaction(state: GameState) -> Unit | None:
    """The player's figure answering an event's hit, in a battle with the card AI."""
    host = card_host(state)
    if host is None or host.reacting is None or host.reaction != "event":
        return None
    return state.unit(host.reacting)


def _reaction(unit: Unit, what: str, move: ObservedMove | None) -> Action | str:
    """Armour (a pass) or Run for Cover (the move the camera saw) against an event's hit."""
    if what in ("armour", "pass", "done") and (move is None or not move[1] or len(move[1]) < 2):
        return Action(ActionKind.PASS, unit.id, side=unit.side)
    if what in ("run_for_cover", "done"):
        if move is None or not move[1] or len(move[1]) < 2:
            return f"Move {unit.name} up to half its move toward cover first, then declare."
        return Action(ActionKind.REACT_EVADE, unit.id, path=move[1])
    return f"{unit.name} answers the hit with armour or run for cover, not {what}."


register_adapter(NAME, NarrativeAdapter)
