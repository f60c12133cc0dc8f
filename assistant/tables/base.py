"""What the assistant needs to know about a rule system at the table: the table adapter.

The engine decides every rule. A :class:`TableAdapter` says how its ruleset looks and sounds
at a real table: how an order is spoken and drawn, what the player may declare, what the
camera should see once an order is carried out, how a move the camera saw becomes an action,
which units the assistant moves for the player (a forced flight), what a unit card shows, the
exact odds of its rolls, and how footage without a log is read back through the engine.

One module per ruleset under ``assistant/tables/`` implements it (most of it by subclassing
:class:`BaseAdapter`) and registers it by name in :mod:`assistant.tables`. Inches and degrees.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from assistant.live_view import GridView, OrderView, PoseView, SightLineView
from assistant.session.announce import correction_text, event_text, square_correction
from assistant.session.observation import PieceSeen
from engine.actions import Action, ActionKind, Event, Order
from engine.geometry import Point, bearing_deg, wrap180
from engine.model import GameState, Role, Unit, UnitStatus
from engine.protocols import PendingKind, Ruleset

ObservedMove = tuple[str, tuple[Point, ...] | None, str, float]
"""(unit id, legal path or None, reason it is illegal or "", observed heading in degrees)"""


@dataclass(frozen=True)
class Tolerances:
    """How close a model must be to where it was told to go."""

    position_in: float = 0.25
    facing_deg: float = 15.0


@dataclass(frozen=True)
class Expectation:
    """Where an ordered model should end up (what the camera should see)."""

    unit_id: str
    x_in: float
    y_in: float
    heading_deg: float
    off_table: bool = False
    """The order takes the model off the table."""
    moves: bool = True
    """False when only a pivot (or nothing) is asked of the model."""
    position_tol_in: float | None = None
    """How far from (x, y) the model may stand, inches; None: the session's tolerance."""
    facing_tol_deg: float | None = None
    """How far from the heading it may face, degrees; None: the session's tolerance (a
    ruleset without facing gives 180)."""
    cell: tuple[int, int] | None = None
    """The grid cell (column, row) it should stand in, on a gridded table."""

    def tolerances(self, default: Tolerances) -> Tolerances:
        """The tolerances to check this expectation with."""
        return Tolerances(
            default.position_in if self.position_tol_in is None else self.position_tol_in,
            default.facing_deg if self.facing_tol_deg is None else self.facing_tol_deg,
        )


TurnKind = Literal["over", "auto", "ai", "forced", "human"]


@dataclass(frozen=True)
class Turn:
    """What the game waits for, as the assistant acts on it."""

    kind: TurnKind
    """over: the battle is over; auto: the assistant applies ``action`` itself (a chance
    step such as an initiative roll); ai: the AI side acts with one of ``candidates``;
    forced: the assistant orders ``unit_id`` for the player (a flight); human: the player
    acts with one of ``candidates``."""
    side: str | None = None
    candidates: tuple[str, ...] = ()
    """Unit ids that may act now."""
    action: Action | None = None
    unit_id: str | None = None
    general: str | None = None
    """The human general whose turn it is (co-operative play)."""
    may_pass: bool = True

    @property
    def movers(self) -> tuple[str, ...]:
        """The units that may act now (the forced unit alone, when there is one)."""
        return (self.unit_id,) if self.kind == "forced" and self.unit_id else self.candidates


@dataclass(frozen=True)
class Declaration:
    """An action the player may declare now, with the unit ids it may target."""

    action: str
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class CardValue:
    """One labelled value on a unit card ("carries: the relic", "actions left: 2")."""

    label: str
    value: str


@dataclass(frozen=True)
class UnitCard:
    """What a unit's card on the page shows, whatever the ruleset."""

    status: Literal["active", "fallen", "off"]
    """On the table, fallen, or gone off it."""
    statuses: tuple[str, ...] = ()
    """The ruleset's statuses on it ("routing", "pinned", "alerted")."""
    values: tuple[CardValue, ...] = ()
    """Resources and counts: what it carries, actions left, a dice pool, cards in a deck."""
    wound_slots: int = 1
    ranges_in: tuple[float, ...] = ()
    front_arc_deg: float | None = None


@dataclass(frozen=True)
class ReplayMove:
    """How a move the footage shows could have been made: the legal actions that fit it, or
    why none does."""

    actions: tuple[Action, ...]
    """Legal actions (first: the likeliest) that leave the unit where the footage shows it."""
    legal: bool
    reason: str = ""
    """Why the move is not legal (when ``legal`` is False)."""
    nudged: bool = False
    """True when the end was only reached within the camera's position tolerance."""


class TableAdapter(Protocol):
    """A ruleset at the table (see the module docstring)."""

    name: str
    """The ruleset's registry name."""
    replayed_events: frozenset[str]
    """Engine event types a replay from footage reports (those the footage vouches for)."""
    compass_facings: bool
    """Its words name facings by the compass ("facing south"): the page draws a compass."""

    # -- whose turn --------------------------------------------------------------------------
    def turn(self, state: GameState, ruleset: Ruleset) -> Turn:
        """What the game waits for now."""
        ...

    def pass_action(self, state: GameState, side: str) -> Action:
        """The action by which ``side`` gives up its turn."""
        ...

    # -- orders ------------------------------------------------------------------------------
    def order_instruction(self, state: GameState, order: Order) -> str:
        """What the player does with the AI's piece ("Raider Chief: move 4 inches ...")."""
        ...

    def order_text(self, state: GameState, order: Order) -> str:
        """The full spoken order: what to do, then why."""
        ...

    def expectation(self, state: GameState, order: Order) -> Expectation:
        """Where the ordered model must stand (and face) once the player has moved it."""
        ...

    def order_view(self, state: GameState, order: Order, expected: Expectation) -> OrderView:
        """The order card and its picture on the page."""
        ...

    def describe_action(self, state: GameState, action: Action) -> str:
        """A short description: "Archer Wren shoots Brute Gorm"."""
        ...

    def declared_notes(self, state: GameState, action: Action) -> tuple[str, ...]:
        """What to say about a declared action before it is resolved (a shot's measures)."""
        ...

    # -- the player's side -------------------------------------------------------------------
    def turn_prompt(self, state: GameState, turn: Turn) -> str:
        """What to tell the player when it is their turn."""
        ...

    def declare_prompt(self, state: GameState, turn: Turn) -> str:
        """The page's question while the player declares."""
        ...

    def declarations(
        self, state: GameState, turn: Turn, moved: str | None
    ) -> tuple[Declaration, ...]:
        """The declaration buttons: what the player may declare now."""
        ...

    def moved_prompt(self, state: GameState, unit: Unit, distance_in: float) -> str:
        """What to say once the camera saw the player's unit moved (legally)."""
        ...

    def observed_path(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen
    ) -> tuple[tuple[Point, ...] | None, str]:
        """A legal path from where the unit stood to where its model now stands, or why
        there is none."""
        ...

    def observed_action(
        self,
        state: GameState,
        ruleset: Ruleset,
        what: str,
        target: str | None,
        move: ObservedMove | None,
        unit_id: str | None,
    ) -> Action | str:
        """The action the player declared after the move the camera saw, or a sentence
        saying what is missing."""
        ...

    # -- the page ----------------------------------------------------------------------------
    def unit_card(self, state: GameState, unit: Unit) -> UnitCard:
        """What the unit's card shows."""
        ...

    def sight_lines(self, state: GameState, unit: Unit) -> tuple[SightLineView, ...]:
        """Lines of sight from one unit to every enemy, with range and cover."""
        ...

    # -- odds --------------------------------------------------------------------------------
    odds_help: str
    """One line for ``soloscope odds RULESET --help``; empty: no odds for this ruleset."""

    def add_odds_arguments(self, parser: argparse.ArgumentParser) -> None:
        """The arguments of ``soloscope odds RULESET``."""
        ...

    def odds(self, args: argparse.Namespace) -> str:
        """The exact odds asked for, as the line to print (raises UserError on bad input)."""
        ...

    # -- reading footage back ----------------------------------------------------------------
    def replay_move(
        self, state: GameState, ruleset: Ruleset, unit: Unit, seen: PieceSeen, slack_in: float
    ) -> ReplayMove:
        """The legal actions that fit a move the footage shows (``unit`` stands at the start;
        the end may be up to ``slack_in`` beyond a legal spot)."""
        ...

    def stand_in_actions(self, state: GameState, unit: Unit) -> tuple[Action, ...]:
        """Actions that leave the unit where it stands (tried, first fitting one wins, when
        the footage shows a move no legal action explains: the unit is stood there first)."""
        ...

    def place(
        self, state: GameState, unit_id: str, x: float, y: float, heading: float
    ) -> GameState:
        """The unit (and what goes with it) stood where the footage shows it."""
        ...

    def take_off(self, state: GameState, unit_id: str) -> GameState:
        """The unit taken off the table with no rule saying why (footage shows it gone)."""
        ...

    def activation_note(self, state: GameState, unit: Unit) -> str:
        """A word for a step label when the unit's turn is not an ordinary activation
        ("bonus"); empty otherwise."""
        ...

    def activation_begun(self, state: GameState, action: Action) -> str | None:
        """The unit whose activation ``action`` begins in ``state``, for rules that report
        no activation event of their own (a replay counts it as one); None: none begins, or
        the rules' own events say so."""
        ...

    def event_words(self, state: GameState, event: Event) -> str | None:
        """What the assistant says for an engine event (None: nothing, e.g. what the order
        already said); ``state`` is the state after the event."""
        ...

    def grid_view(self, state: GameState) -> GridView | None:
        """The table's square grid as the page draws it (with the squares the rules treat as
        walls); None without a grid."""
        ...

    def placement_problem(self, state: GameState, unit: Unit, seen: PieceSeen) -> str:
        """A sentence asking the player to fix where a model stands before it is judged (a
        model on the line between two grid squares: "centre it"); empty when it is clear."""
        ...

    def correction(
        self,
        state: GameState,
        unit: Unit,
        expected: Expectation,
        seen: PieceSeen,
        facing_tol_deg: float,
    ) -> str:
        """How to fix an ordered model that stands away from where its order puts it: on a
        square grid by squares ("Put the Dragon on A8."), never inches; else in inches from
        the player's seat."""
        ...

    def piece_name(self, unit: Unit) -> str:
        """How a correction names the model ("Sergeant Ash"; a grid game may add its square)."""
        ...

    def side_values(self, state: GameState, side: str) -> tuple[CardValue, ...]:
        """What a side holds as a whole, shown once for the side on the page (a dice pool,
        a deck, the last card drawn); never repeated on its units' cards."""
        ...


class BaseAdapter:
    """Defaults every adapter may keep: generic orders, expectations and replay hooks.

    A ruleset's adapter subclasses it and overrides what its rules make different.
    """

    name = ""
    replayed_events: frozenset[str] = frozenset({"round_start", "activation", "pick_up"})
    odds_help = ""
    compass_facings = False

    def turn(self, state: GameState, ruleset: Ruleset) -> Turn:
        """The decision point as the assistant acts on it: the end, a chance step it takes
        itself, the player's side (``human``; ``forced`` when the rules force a unit's
        action, ordered for the player: ``Pending.forced``), or a side it plays (the AI's or
        a neutral side's: ``ai``)."""
        pending = ruleset.pending(state)
        if pending.kind is PendingKind.OVER:
            return Turn("over")
        if pending.kind is PendingKind.CHANCE:
            return Turn("auto", action=Action(ActionKind.CHANCE))
        side = pending.side or ""
        kind: TurnKind = "human" if state.side(side).role is Role.HUMAN else "ai"
        if kind == "human" and pending.forced is not None:  # the rules force it: no choice
            return Turn("forced", side, pending.candidates, unit_id=pending.forced, may_pass=False)
        return Turn(
            kind,
            side,
            pending.candidates,
            unit_id=pending.unit,
            general=pending.general,
            may_pass=pending.may_pass,
        )

    def pass_action(self, state: GameState, side: str) -> Action:
        return Action(ActionKind.PASS, side=side)

    def order_text(self, state: GameState, order: Order) -> str:
        instruction = self.order_instruction(state, order)  # type: ignore[attr-defined]
        return f"{instruction} Why: {order.reason}."

    def expectation(self, state: GameState, order: Order) -> Expectation:
        action = order.action
        unit = state.unit(action.unit_id or "")
        path = action.path
        end = path[-1] if path else unit.position
        heading = unit.heading_deg
        if len(path) > 1 and path[-2] != path[-1]:
            heading = bearing_deg(path[-2], path[-1])
        if action.heading_deg is not None:
            heading = action.heading_deg
        off = not state.table.contains_base(end, unit.radius_in)
        moves = math.dist(end, unit.position) > 0.05
        return Expectation(unit.id, end[0], end[1], heading % 360.0, off, moves)

    def order_view(self, state: GameState, order: Order, expected: Expectation) -> OrderView:
        return OrderView(
            unit_id=expected.unit_id,
            text=self.order_instruction(state, order),  # type: ignore[attr-defined]
            ghost=None
            if expected.off_table
            else PoseView(expected.x_in, expected.y_in, expected.heading_deg),
            path_in=tuple(order.action.path),
            target_id=order.action.target_id,
            reason=order.reason,
        )

    def declared_notes(self, state: GameState, action: Action) -> tuple[str, ...]:
        return ()

    def declare_prompt(self, state: GameState, turn: Turn) -> str:
        return "Move one character, then declare its action."

    def turn_prompt(self, state: GameState, turn: Turn) -> str:
        names = ", ".join(state.unit(u).name for u in turn.candidates[:4])
        who = f"{turn.general}, your" if turn.general else "Your"
        return f"{who} turn: move one of your characters ({names}), then declare its action."

    def sight_lines(self, state: GameState, unit: Unit) -> tuple[SightLineView, ...]:
        return ()

    def add_odds_arguments(self, parser: argparse.ArgumentParser) -> None:
        return None

    def odds(self, args: argparse.Namespace) -> str:
        from assistant.errors import UserError

        raise UserError(f"no odds for ruleset {self.name!r}")

    def stand_in_actions(self, state: GameState, unit: Unit) -> tuple[Action, ...]:
        return ()

    def place(
        self, state: GameState, unit_id: str, x: float, y: float, heading: float
    ) -> GameState:
        unit = state.unit(unit_id)
        return state.with_unit(replace(unit, x=x, y=y, heading_deg=heading % 360.0))

    def take_off(self, state: GameState, unit_id: str) -> GameState:
        return state.with_unit(replace(state.unit(unit_id), status=UnitStatus.FALLEN))

    def activation_note(self, state: GameState, unit: Unit) -> str:
        return ""

    def activation_begun(self, state: GameState, action: Action) -> str | None:
        return None

    def event_words(self, state: GameState, event: Event) -> str | None:
        return event_text(event)

    def placement_problem(self, state: GameState, unit: Unit, seen: PieceSeen) -> str:
        return ""

    def correction(
        self,
        state: GameState,
        unit: Unit,
        expected: Expectation,
        seen: PieceSeen,
        facing_tol_deg: float,
    ) -> str:
        grid = state.table.grid
        want = (expected.x_in, expected.y_in, expected.heading_deg)
        got = (seen.x_in, seen.y_in, seen.heading_deg)
        if grid is not None:
            return square_correction(self.piece_name(unit), grid, want, got, facing_tol_deg)
        dh = wrap180(want[2] - got[2]) if abs(wrap180(want[2] - got[2])) > facing_tol_deg else 0.0
        return correction_text(unit, want[0] - got[0], want[1] - got[1], dh)

    def piece_name(self, unit: Unit) -> str:
        """How a correction names the model ("Sergeant Ash"; a grid game may add its square)."""
        return unit.name

    def side_values(self, state: GameState, side: str) -> tuple[CardValue, ...]:
        return ()

    def grid_view(self, state: GameState) -> GridView | None:
        grid = state.table.grid
        return None if grid is None else GridView(grid.cols, grid.rows, grid.cell_in)


def unit_status(unit: Unit) -> Literal["active", "fallen", "off"]:
    """The unit's place in the battle as a card shows it."""
    if unit.status is UnitStatus.FALLEN:
        return "fallen"
    return "active" if unit.on_table else "off"


def targets_of(state: GameState, side: str | None) -> tuple[str, ...]:
    """Ids of every unit on the table not of ``side``."""
    return tuple(u.id for u in state.units if u.on_table and u.side != side)
