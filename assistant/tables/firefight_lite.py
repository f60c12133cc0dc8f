"""firefight-lite at the table (the ``firefight-lite`` ruleset's adapter), played by the card AI
of "Alone on the Streets".

Orders are spoken with the card that made them ("Queen of hearts for the Varlet at D6: move
and fire — it moves to the hedge at E5 and fires at the Sergeant."); the player moves a
figure square by square and declares its action (move, aimed fire, move and fire, assault,
stay frosty, hold) or, when one of theirs is attacked before it has acted, its defence
(armour, return fire, run for cover). A unit card shows the last card drawn for the figure,
the deck's counts and the events that have happened. Wording: :mod:`.firefight_lite_words`.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from assistant.errors import UserError
from assistant.live_view import SightLineView
from assistant.session.observation import PieceSeen
from assistant.tables import firefight_lite_words as words
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
    unit_status,
)
from engine.actions import Action, ActionKind, Event, Order
from engine.geometry import Point
from engine.geometry.grid import chebyshev
from engine.model import GameState, Role, Unit
from engine.odds import firefight_card_fires, firefight_shot
from engine.protocols import Ruleset
from engine.rulesets.firefight_lite.board import cover_between, figures, move_path, reach, sees
from engine.rulesets.firefight_lite.deck import card_name
from engine.rulesets.firefight_lite.ruleset import attackable, half_move
from engine.rulesets.firefight_lite.sequence import rules
from engine.rulesets.firefight_lite.state import DECK, FROSTY, NAME, FFUnit, card
from engine.scenario import cell_name

LINE_FRACTION = 0.1
"""A base centre closer than this (in squares) to a line between squares is on that line."""
MOVING = ("move", "move_and_fire", "assault", "run_for_cover", "move_with")
"""Declarations that take the square the camera saw the figure move to."""


class FirefightLiteAdapter(BaseAdapter):
    """The firefight-lite table side (squares; no facing)."""

    name = NAME
    replayed_events = frozenset({"round_start", "initiative", "initiative_choice"})
    odds_help = (
        "A shot's chance to hit and to wound, and the card AI's chance to fire at a distance: "
        "'odds firefight-lite --ranged 1 --cover soft --armour 1 --distance 4'."
    )

    # ---------------------------------------------------------------- turns
    def pass_action(self, state: GameState, side: str) -> Action:
        r = rules(state)
        if r.reacting is not None:
            return Action(ActionKind.PASS, r.reacting, side=side)
        return Action(ActionKind.PASS, side=side)

    # --------------------------------------------------------------- orders
    def order_instruction(self, state: GameState, order: Order) -> str:
        return words.order_sentence(state, order)

    def order_text(self, state: GameState, order: Order) -> str:
        return words.order_sentence(state, order)

    def describe_action(self, state: GameState, action: Action) -> str:
        return words.describe(state, action)

    def expectation(self, state: GameState, order: Order) -> Expectation:
        action = order.action
        unit = state.unit(action.unit_id or "")
        grid = state.table.grid
        if str(action.kind) == "leave":
            return Expectation(unit.id, unit.x, unit.y, unit.heading_deg, off_table=True)
        raw = action.get("cell")
        to = (int(raw[0]), int(raw[1])) if raw is not None else unit.cell
        if grid is None or to is None:
            return Expectation(unit.id, unit.x, unit.y, unit.heading_deg, moves=False)
        x, y = grid.centre(to)
        return Expectation(
            unit.id,
            x,
            y,
            unit.heading_deg,
            moves=to != unit.cell,
            cell=to,
            facing_tol_deg=180.0,
        )

    def event_words(self, state: GameState, event: Event) -> str | None:
        return words.event_words(state, event)

    # ------------------------------------------------------ the player's side
    def turn_prompt(self, state: GameState, turn: Turn) -> str:
        return words.turn_prompt(state, turn)

    def declare_prompt(self, state: GameState, turn: Turn) -> str:
        return words.declare_prompt(state, turn)

    def declarations(
        self, state: GameState, turn: Turn, moved: str | None
    ) -> tuple[Declaration, ...]:
        r = rules(state)
        if r.reacting is not None:
            if r.reaction == "defence":
                attacker = r.trigger.get("attacker") if r.trigger else None
                return (
                    Declaration("armour"),
                    Declaration("return_fire", (attacker,) if attacker else ()),
                    Declaration("run_for_cover"),
                )
            if r.reaction == "event":
                return (Declaration("armour"), Declaration("run_for_cover"))
            if r.reaction == "overwatch":
                mover = r.trigger.unit if r.trigger else None
                return (
                    Declaration("overwatch_fire", (mover,) if mover else ()),
                    Declaration("pass"),
                )
            return (Declaration("move_with"), Declaration("pass"))
        someone = state.unit(moved or (turn.candidates[0] if turn.candidates else ""))
        targets = tuple(
            u.id
            for u in state.units
            if u.on_table and u.side != turn.side and attackable(someone, u)
        )
        return (
            Declaration("done"),
            Declaration("aimed_fire", targets),
            Declaration("move_and_fire", targets),
            Declaration("assault", targets),
            Declaration("stay_frosty"),
            Declaration("hold"),
            Declaration("pass"),
        )

    def moved_prompt(self, state: GameState, unit: Unit, distance_in: float) -> str:
        return (
            f"{unit.name} moved. Declare: done (a move), move and fire, or assault; or put it back."
        )

    def placement_problem(self, state: GameState, unit: Unit, seen: PieceSeen) -> str:
        """A model whose base centre is within a tenth of a square of a line between squares
        is asked to be centred (its square is never guessed)."""
        grid = state.table.grid
        if grid is None:
            return ""
        fx, fy = seen.x_in / grid.cell_in, seen.y_in / grid.cell_in
        near_line = min(fx % 1.0, 1.0 - fx % 1.0, fy % 1.0, 1.0 - fy % 1.0) < LINE_FRACTION
        if not near_line:
            return ""
        name = unit.name[0].upper() + unit.name[1:]
        return f"{name} stands on a line between squares: centre it in one square."

    def _allowance(self, state: GameState, unit: Unit) -> int:
        r = rules(state)
        if r.reacting == unit.id and r.reaction in ("defence", "event"):
            return half_move(unit)
        return card(unit).move

    def observed_path(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen
    ) -> tuple[tuple[Point, ...] | None, str]:
        to = state.table.cell_of((seen.x_in, seen.y_in))
        if to is None:
            return None, f"{unit.name} is off the grid"
        if to == unit.cell:
            return (unit.position,), ""
        allowance = self._allowance(state, unit)
        if to not in reach(state, unit, allowance):
            return None, f"{unit.name} cannot reach {cell_name(to)} in {allowance} squares"
        return move_path(state, unit, to), ""

    def observed_action(
        self,
        state: GameState,
        ruleset: Ruleset,
        what: str,
        target: str | None,
        move: ObservedMove | None,
        unit_id: str | None,
    ) -> Action | str:
        r = rules(state)
        pending = ruleset.pending(state)
        uid = (move[0] if move else None) or unit_id or pending.unit
        if uid is None and len(pending.candidates) == 1:
            uid = pending.candidates[0]
        if uid is None:
            return "Move one of your figures (or tap its card), then declare its action."
        unit = state.unit(uid)
        to = unit.cell
        if move is not None and move[1]:
            end = move[1][-1]
            to = state.table.cell_of(end) or to
        detail: tuple[tuple[str, object], ...] = (("cell", [to[0], to[1]]),) if to else ()
        path = move_path(state, unit, to) if to else ()
        kind = {"done": "move", "armour": "pass"}.get(what, what)
        if kind == "pass":
            return Action(ActionKind.PASS, uid if r.reacting else None, side=unit.side)
        if kind in ("aimed_fire", "move_and_fire", "assault", "overwatch_fire") and not target:
            return f"Say which enemy {unit.name} attacks."
        if kind == "return_fire":
            attacker = r.trigger.get("attacker") if r.trigger else None
            return Action("return_fire", uid, target_id=attacker)
        if kind in MOVING and kind != "move_and_fire" and to == unit.cell and kind != "assault":
            return f"Move {unit.name} first, then declare."
        if kind in MOVING:
            return Action(kind, uid, path=path, target_id=target, detail=detail)
        return Action(kind, uid, target_id=target)

    # -------------------------------------------------------------- the page
    def unit_card(self, state: GameState, unit: Unit) -> UnitCard:
        c = card(unit)
        values: list[CardValue] = []
        extra = unit.rules if isinstance(unit.rules, FFUnit) else FFUnit()
        if extra.last_card:
            values.append(CardValue("last card", card_name(extra.last_card)))
        if c.neutral:
            values.append(CardValue("figure", c.neutral))
        statuses = []
        if FROSTY in unit.statuses:
            statuses.append("stay frosty")
        if unit.activated and unit.on_table and not c.neutral:
            statuses.append("Turn Done")
        return UnitCard(
            status=unit_status(unit),
            statuses=tuple(statuses),
            values=tuple(values),
            wound_slots=max(0, c.wounds - 1),
            ranges_in=(float(c.range),) if c.range else (),
        )

    def sight_lines(self, state: GameState, unit: Unit) -> tuple[SightLineView, ...]:
        """Sight from the figure to each hostile figure on the table, square to square, with
        the cover the target has against a shot from there (soft, hard) and the range in
        squares (drawn by the page in squares on the grid)."""
        grid = state.table.grid
        if unit.cell is None or grid is None:
            return ()
        out = []
        for enemy in figures(state).enemies(unit):
            if enemy.cell is None:
                continue
            cover = ("none", "soft", "hard")[min(2, cover_between(state, unit.cell, enemy.cell))]
            out.append(
                SightLineView(
                    from_id=unit.id,
                    to_id=enemy.id,
                    clear=sees(state, unit, enemy),
                    cover=cover,
                    range_in=chebyshev(unit.cell, enemy.cell) * grid.cell_in,
                )
            )
        return tuple(out)

    def side_values(self, state: GameState, side: str) -> tuple[CardValue, ...]:
        """The AI side's deck, shown once: cards to draw, discarded and set aside, the last
        card played onto the discard pile, and the events that happened."""
        if state.side(side).role is not Role.AI or not state.decks:
            return ()
        deck = state.deck(DECK)
        values = [
            CardValue(
                "deck",
                f"{len(deck.draw_pile)} to draw, {len(deck.discard)} discarded, "
                f"{len(deck.removed)} set aside",
            )
        ]
        if deck.discard:
            values.append(CardValue("last card drawn", card_name(deck.discard[-1])))
        done = rules(state).events_done
        if done:
            values.append(CardValue("events", ", ".join(words.event_list(done))))
        return tuple(values)

    # -------------------------------------------------------------- odds
    def add_odds_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--ranged", type=int, default=1, help="the shooter's ranged (0-5)")
        parser.add_argument("--cover", default="none", help="the target's cover: none, soft, hard")
        parser.add_argument("--aimed", action="store_true", help="an Aimed Fire (+1)")
        parser.add_argument("--armour", type=int, default=1, help="the target's armour (0-5)")
        parser.add_argument("--strength", type=int, default=1, help="the hit's strength (1-4)")
        parser.add_argument(
            "--distance",
            type=int,
            help="squares to the closest enemy: the card AI's chance to fire",
        )

    def odds(self, args: argparse.Namespace) -> str:
        covers = {"none": 0, "open": 0, "soft": 1, "hard": 2}
        if args.cover not in covers:
            raise UserError(f"--cover takes none, soft or hard, not {args.cover!r}")
        for name, low, high in (("ranged", 0, 5), ("armour", 0, 5), ("strength", 1, 4)):
            value = getattr(args, name)
            if not low <= value <= high:
                raise UserError(f"--{name} takes a whole number from {low} to {high}, not {value}")
        shot = firefight_shot(
            args.ranged, covers[args.cover], args.aimed, args.armour, args.strength
        )
        hit, wound = shot.hit, shot.wound
        line = f"a shot hits {float(hit):.1%} ({hit}) and wounds {float(wound):.1%} ({wound})"
        if args.distance is not None:
            if args.distance < 1:
                raise UserError(f"--distance takes squares from 1 up, not {args.distance}")
            chance = firefight_card_fires(args.distance)
            line += (
                f"; the card AI fires at {args.distance} squares on {float(chance):.1%} "
                f"({chance}) of its cards"
            )
        return line

    # ------------------------------------------------------ reading footage
    def replay_move(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen, slack_in: float
    ) -> ReplayMove:
        path, reason = self.observed_path(state, ruleset, unit, seen)
        if path is None or len(path) < 2:
            return ReplayMove((), False, reason or "no move")
        to = state.table.cell_of(path[-1])
        assert to is not None
        action = Action("move", unit.id, path=path, detail=(("cell", [to[0], to[1]]),))
        return ReplayMove((action,), not ruleset.validate(state, action))

    def place(
        self, state: GameState, unit_id: str, x: float, y: float, heading: float
    ) -> GameState:
        grid = state.table.grid
        unit = state.unit(unit_id)
        if grid is None:
            return super().place(state, unit_id, x, y, heading)
        cx, cy = grid.centre(grid.cell_at((x, y)))
        return state.with_unit(replace(unit, x=cx, y=cy, heading_deg=heading % 360.0))


def register() -> None:
    """Make the adapter findable by the ruleset's name."""
    register_adapter(NAME, FirefightLiteAdapter)


register()
