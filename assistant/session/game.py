"""The live game: a state machine between the table (observations), the engine and the player.

It never touches a camera, a speaker or a web page: it is fed :class:`Observation` values
and page commands, and it speaks through the ``say`` callback. A model the camera cannot see
may be placed by hand on the page (``assistant.session.by_hand``): play never waits on a tag it
cannot read. Stages:

* SETUP — until the pieces on the table match the scenario (said piece by piece as they change:
  ``assistant.session.setup_check.SetupWatch``);
* AI_ORDER — an order was announced; waiting for the model to be moved where it was told;
* HUMAN — the player moves one of their characters and declares its action;
* DICE — waiting for the player to enter a physical die result;
* REMOVAL — waiting for fallen models to be taken off the table;
* OVER.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from assistant.live_commands import Command
from assistant.session import setup_check, tools
from assistant.session.announce import back_words
from assistant.session.by_hand import HandPlacements
from assistant.session.dice import AutoDice, NeedCard, NeedRoll, QueuedDice, card_prompt
from assistant.session.observation import Observation, PieceSeen
from assistant.session.setup_check import SetupWatch, terrain_places
from assistant.tables import adapter_for, find_adapter
from assistant.tables.base import Expectation, ObservedMove, TableAdapter, Tolerances
from engine.actions import Action, ActionKind, Event, IllegalActionError, Order
from engine.decision import choice_action, decide
from engine.dice import Draw, Roll
from engine.geometry import wrap180
from engine.history import History
from engine.jsonvalue import Memory
from engine.model import GameState, Role, Unit
from engine.protocols import Controller, PendingKind, Ruleset, find_controller
from engine.runner import acting_side, with_order_memory
from engine.scenario import Scenario

Dice = AutoDice | QueuedDice


class Stage(StrEnum):
    """What the live game is waiting for."""

    SETUP = "setup"
    RUNNING = "running"
    AI_ORDER = "ai_order"
    HUMAN = "human"
    DICE = "dice"
    REMOVAL = "removal"
    OVER = "over"


__all__ = ["Expectation", "LiveGame", "Stage", "Tolerances", "expectation"]


@dataclass(frozen=True)
class AppliedStep:
    """An action the engine applied, and the dice results it consumed (for saving)."""

    action: Action
    rolls: tuple[Roll, ...]
    memory: tuple[str, Memory] | None = None
    """The controller memory the action's order left for its side (side, memory), if any."""
    cards: tuple[str, ...] = ()
    """The cards the rules drew while applying it (so a resumed game draws the same)."""


@dataclass
class Said:
    """One announcement."""

    t: float
    """Source time (seconds) of the observation that caused it."""
    text: str


@dataclass
class LiveGame:
    """One battle at the table."""

    scenario: Scenario
    ruleset: Ruleset
    ai: Controller
    dice: Dice
    say: Callable[[str], None]
    initial: GameState
    human_plan: Sequence[Action] = ()
    """Declarations of the human side read from a file (the demo); empty at a real table."""
    plan_rolls: Sequence[tuple[int, ...]] = ()
    """For each declaration of ``human_plan``, the dice (their sides) its stand-in player
    rolled on the game's dice to make up its mind in ``simulate``: rolled again (and not used)
    as the declaration is made, so the game's dice run as in the simulated battle."""
    tolerances: Tolerances = field(default_factory=Tolerances)
    confirm_hidden: bool = False
    """Stand-in player (footage demo): confirm a model whose tags the camera cannot see, as a
    player would on the page."""

    stage: Stage = Stage.SETUP
    history: History = field(init=False)
    adapter: TableAdapter = field(init=False)
    """The ruleset's table adapter: everything ruleset-specific the session says or reads."""
    steps: list[AppliedStep] = field(default_factory=list)
    announcements: list[Said] = field(default_factory=list)
    order: Order | None = None
    expected: Expectation | None = None
    pending: Action | None = None
    """An action waiting for physical dice (None: a decision is waiting)."""
    removals: set[str] = field(default_factory=set)
    plan_index: int = 0
    now: float = 0.0
    on_saved: Callable[[LiveGame], None] | None = None
    roll_prompt: Callable[[NeedRoll], str] | None = None
    """What to say when physical dice are needed (the camera dice say where to roll them)."""
    _said_keys: set[str] = field(default_factory=set)
    _human_move: ObservedMove | None = None
    _redo_steps: list[AppliedStep] = field(default_factory=list)
    _unsaved: bool = False
    _pending_order: Order | None = None
    _whole_order: Order | None = None
    """The last order given in full (the later actions of an order are spoken as its steps)."""
    undos: int = 0
    """How many steps were undone so far (the event log records each undo)."""
    controllers: dict[str, Controller] = field(default_factory=dict)
    """The controller of each side the assistant plays (the AI's, and a neutral side's when
    the scenario names a ``neutral_controller``)."""
    planned: list[Action] = field(default_factory=list)
    """The rest of the current AI order of several actions (RULES §1.7 ``decide -> [actions]``)."""
    asked: str = ""
    """The last request for dice or a card (said again when a saved game resumes)."""
    placements: HandPlacements = field(default_factory=HandPlacements)
    """Models the camera cannot see, and those placed by hand on the page."""
    setup_watch: SetupWatch = field(default_factory=SetupWatch)
    """The set-up checklist and what of it was said."""
    _settled: Observation | None = None
    """The last settled frame as seen (before pieces placed by hand are laid over it)."""

    def __post_init__(self) -> None:
        self.history = History(self.initial, self.dice.get_state())
        self.adapter = adapter_for(self.ruleset)
        self.placements.terrain_names = {p.id: p.name for p in terrain_places(self.scenario)}
        neutral = self.scenario.scenario.neutral_controller
        for side in self.initial.sides:
            if side.role is Role.NEUTRAL and neutral:
                self.controllers.setdefault(side.name, find_controller(neutral))
            else:
                self.controllers.setdefault(side.name, self.ai)

    # ------------------------------------------------------------ helpers
    @property
    def human_move_unit(self) -> str | None:
        """The player's character the camera saw move this activation, if any."""
        return self._human_move[0] if self._human_move else None

    @property
    def state(self) -> GameState:
        """The engine's current game state."""
        return self.history.state

    def announce(self, text: str) -> None:
        """Say something and log it (saved with the game at the end of the current input)."""
        self.announcements.append(Said(self.now, text))
        self._unsaved = True
        self.say(text)

    def announce_once(self, key: str, text: str) -> None:
        """Say something only the first time for this key (nagging helps nobody)."""
        if key not in self._said_keys:
            self._said_keys.add(key)
            self.announce(text)

    def _forget(self, prefix: str) -> None:
        self._said_keys = {k for k in self._said_keys if not k.startswith(prefix)}

    # -------------------------------------------------------- observations
    def observe(self, obs: Observation) -> None:
        """Take in one frame's view of the table."""
        try:
            self._observe(obs)
        finally:
            self.flush()

    def _observe(self, obs: Observation) -> None:
        self.now = obs.t
        self.placements.watch(obs, self.state)  # seen again: no longer by hand (the page shows)
        for warning in obs.warnings:
            self.announce_once(f"warn:{warning}", warning)
        for tag in obs.duplicate_tags:
            self.announce_once(
                f"dup:{tag}",
                f"Tag {tag} is on the table twice; I trust neither copy. Remove the extra one.",
            )
        for tag in obs.unknown_tags:
            self.announce_once(
                f"unknown:{tag}",
                f"I see tag {tag}, which is not part of this scenario; I will ignore it.",
            )
        for button in obs.buttons:
            self.command(button_command(button))
        if not obs.settled or self.stage is Stage.OVER:
            return
        self._settled = obs
        self._check_stage(self._with_hand(obs))

    def _with_hand(self, obs: Observation) -> Observation:
        """The frame with the pieces placed by hand standing where they were placed."""
        return self.placements.overlay(obs)

    def _check_stage(self, obs: Observation, placed: str | None = None) -> None:
        """Check a settled frame against what the game waits for (``placed``: the unit just
        placed by hand, judged where it was placed)."""
        self._check_fallen_back(obs)
        if self.stage is Stage.SETUP:
            self._check_setup(obs)
        elif self.stage is Stage.AI_ORDER:
            self._check_ordered_move(obs, placed)
        elif self.stage is Stage.HUMAN:
            self._check_human(obs)
        elif self.stage is Stage.REMOVAL:
            self._check_removals(obs)

    def _check_fallen_back(self, obs: Observation) -> None:
        for unit in self.state.units:
            seen = obs.pieces.get(unit.id)
            if (
                not unit.on_table
                and seen is not None
                and seen.visible
                and unit.id not in self.removals
            ):
                self.announce_once(
                    f"back:{unit.id}:{self.state.step}",
                    f"{unit.name} is out of the battle, but its model is on the table: please take it off.",
                )

    def _check_setup(self, obs: Observation) -> None:
        offered = {
            *self.placements.offered,
            *(f"terrain:{t}" for t in self.placements.terrain_offered),
        }
        checks = setup_check.piece_checks(self.scenario, self.state, obs, offered)
        for text in self.setup_watch.update(checks):
            self.announce(text)
        if any(c.state in ("move", "unseen") for c in checks):
            if self.confirm_hidden and all(c.state != "move" for c in checks):
                # Footage does not wait: the stand-in player takes the unseen pieces as set
                # out as soon as nothing else keeps the table from matching.
                self._take_unseen_as_set_out(checks)
            return
        self.initial = adopt_positions(self.state, obs, self.tolerances)
        self.history = History(self.initial, self.dice.get_state())
        title = self.scenario.scenario.title or self.scenario.scenario.name
        self.announce(f"The table matches {title}. Let battle begin.")
        self.stage = Stage.RUNNING
        self._save()
        self._advance()

    def _check_ordered_move(self, obs: Observation, placed: str | None = None) -> None:
        exp, order = self.expected, self.order
        if exp is None or order is None:
            self.stage = Stage.RUNNING
            self._advance()
            return
        unit = self.state.unit(exp.unit_id)
        seen = obs.pieces.get(exp.unit_id)
        if seen is not None and seen.by_hand and placed != unit.id:
            seen = None  # by hand where it stood: the camera cannot say it was moved
        if exp.off_table:
            if seen is None or not seen.visible:
                self._carry_out(order)
            return
        if seen is None:
            if exp.moves:
                self.announce_once(
                    f"hidden:{unit.id}:{self.state.step}",
                    f"I can't see {unit.name}'s tag. Nudge the model so its tag shows, "
                    "or press confirm, or place it by hand on the page.",
                )
                if self.confirm_hidden:
                    self._confirm()
            return
        unclear = self.adapter.placement_problem(self.state, unit, seen)
        if unclear:  # e.g. on the line between two squares: asked to fix, never guessed
            self.announce_once(
                f"place:{unit.id}:{round(seen.x_in * 4)}:{round(seen.y_in * 4)}", unclear
            )
            return
        dx, dy = exp.x_in - seen.x_in, exp.y_in - seen.y_in
        dh = wrap180(exp.heading_deg - seen.heading_deg)
        tol = exp.tolerances(self.tolerances)
        if math.hypot(dx, dy) <= tol.position_in and abs(dh) <= tol.facing_deg:
            self._carry_out(order)
            return
        untouched = (
            math.dist((seen.x_in, seen.y_in), unit.position) <= self.tolerances.position_in
            and abs(wrap180(seen.heading_deg - unit.heading_deg)) <= self.tolerances.facing_deg
        )
        if untouched:
            return
        key = f"fix:{unit.id}:{round(dx * 4)}:{round(dy * 4)}:{round(dh / 10)}"
        self.announce_once(
            key, self.adapter.correction(self.state, unit, exp, seen, tol.facing_deg)
        )

    def _carry_out(self, order: Order) -> None:
        self.expected = None
        self.stage = Stage.RUNNING
        if self._apply(order.action, order):
            self.order = None
        self._advance()

    def _check_human(self, obs: Observation) -> None:
        turn = self.adapter.turn(self.state, self.ruleset)
        moved = moved_units(self.state, obs, self.tolerances)
        own = [u for u in moved if u.side == turn.side]
        strays = [u for u in moved if u.id not in turn.candidates]
        for u in strays:
            if u.side == turn.side:
                self.announce_once(
                    f"stray:{u.id}:{self.state.step}",
                    f"{u.name} cannot activate now; put it back where it was.",
                )
        movers = [u for u in own if u.id in turn.candidates]
        if self.human_plan and self.plan_index < len(self.human_plan):
            self._follow_plan(obs, movers)
            return
        if len(movers) > 1:
            names = " and ".join(u.name for u in movers[:2])
            self.announce_once(
                f"two:{self.state.step}:{names}",
                f"Only one character moves per activation, but {names} both moved.",
            )
            return
        if not movers:
            self._human_move = None
            return
        unit = movers[0]
        seen = obs.pieces[unit.id]
        unclear = self.adapter.placement_problem(self.state, unit, seen)
        if unclear:
            self._human_move = (unit.id, None, unclear, seen.heading_deg)
            self.announce_once(
                f"place:{unit.id}:{round(seen.x_in * 4)}:{round(seen.y_in * 4)}", unclear
            )
            return
        path, problem = self.adapter.observed_path(self.state, self.ruleset, unit, seen)
        self._human_move = (unit.id, path, problem, seen.heading_deg)
        if problem:
            self.announce_once(
                f"illegal:{unit.id}:{round(seen.x_in * 4)}:{round(seen.y_in * 4)}",
                f"That move is not legal: {problem}. Put {unit.name} back, or move it somewhere it can reach.",
            )
        else:
            dist = math.dist(unit.position, (seen.x_in, seen.y_in))
            self.announce_once(
                f"moved:{unit.id}:{round(seen.x_in * 4)}:{round(seen.y_in * 4)}",
                self.adapter.moved_prompt(self.state, unit, dist),
            )

    def _follow_plan(self, obs: Observation, movers: list[Unit]) -> None:
        """Demo mode: the player's declarations come from a file; declare when the table agrees."""
        action = self.human_plan[self.plan_index]
        if action.kind == ActionKind.PASS or not action.unit_id:  # a pass, a choice
            self._next_declaration()
            if self._apply(action):
                self._advance()
            return
        unit = self.state.unit(action.unit_id or "")
        path = action.path
        moves = len(path) > 1 and math.dist(path[0], path[-1]) > 0.05
        if moves and not self._planned_move_made(unit, path[-1], obs.pieces.get(unit.id)):
            return
        problems = self.ruleset.validate(self.state, action)
        if problems:
            self.announce_once(
                f"plan:{self.plan_index}",
                f"The declarations file does not fit this game at declaration {self.plan_index + 1}: "
                + "; ".join(problems)
                + ".",
            )
            return
        self._next_declaration()
        self.announce(f"Declared: {self.adapter.describe_action(self.state, action)}.")
        if self._apply(action):
            self._advance()

    def _next_declaration(self) -> None:
        """Take the next declaration of the plan, rolling the dice its stand-in rolled."""
        if self.plan_index < len(self.plan_rolls) and isinstance(self.dice, AutoDice):
            for sides in self.plan_rolls[self.plan_index]:
                self.dice.roll(sides, "the stand-in player makes up its mind")
        self.plan_index += 1

    def _planned_move_made(
        self, unit: Unit, end: tuple[float, float], seen: PieceSeen | None
    ) -> bool:
        """Whether the table shows the planned move carried out."""
        if seen is not None and seen.by_hand:
            seen = None  # by hand where it stood: the camera cannot see it moved
        if not self.state.table.contains_base(end, unit.radius_in):
            return seen is None or not seen.visible
        if seen is None:
            # Moved, and now its own figure hides its tag: the stand-in confirms it.
            self.announce(
                f"I can't see {unit.name}'s tag; the player confirms the move on the page."
            )
            return True
        return math.dist((seen.x_in, seen.y_in), end) <= self.tolerances.position_in

    def _check_removals(self, obs: Observation) -> None:
        still = [uid for uid in self.removals if uid in obs.pieces and obs.pieces[uid].visible]
        if still:
            return
        self.removals.clear()
        self.stage = Stage.RUNNING
        self._advance()

    def resume(self) -> None:
        """Carry on a game restored from a save. A game saved while it waited (for a move, a
        declaration, dice, a removal) says again what it waits for, without logging it a
        second time; one saved moving on moves on, announcing what comes next."""
        if self.stage is Stage.RUNNING:
            self._advance()
        else:
            words = self.waiting_words()
            if words:
                self.say(words)
        self.flush()

    def waiting_words(self) -> str | None:
        """What the game waits for, as it was said (None: nothing to say)."""
        if self.stage is Stage.AI_ORDER and self.order is not None:
            return self.adapter.order_text(self.state, self.order)
        if self.stage is Stage.HUMAN:
            return self.adapter.turn_prompt(self.state, self.adapter.turn(self.state, self.ruleset))
        if self.stage is Stage.REMOVAL and self.removals:
            names = " and ".join(sorted(self.state.unit(u).name for u in self.removals))
            return f"Take {names} off the table."
        if self.stage is Stage.DICE:
            return self.asked or None
        return None

    def flush(self) -> None:
        """Save the game if something was said since the last save (an undo, a correction)."""
        if self._unsaved:
            self._save()

    # ------------------------------------------------------------- commands
    def command(self, cmd: Command) -> None:
        """A command from the page or a button tag."""
        try:
            self._command(cmd)
        finally:
            self.flush()

    def _command(self, cmd: Command) -> None:
        if cmd.kind == "repeat":
            if self.announcements:
                self.say(self.announcements[-1].text)
        elif cmd.kind == "undo":
            self.undo()
        elif cmd.kind == "redo":
            self.redo()
        elif cmd.kind == "dice":
            self._dice_entered(cmd.value or 0)
        elif cmd.kind == "confirm":
            self._confirm()
        elif cmd.kind == "pass":
            self.declare("pass", None)
        elif cmd.kind == "declare":
            self.declare(cmd.action or "", cmd.target, cmd.unit_id)
        elif cmd.kind == "place":
            self.place(cmd.unit_id or "", cmd.x_in or 0.0, cmd.y_in or 0.0, cmd.heading_deg or 0.0)
        elif cmd.kind in tools.TOOL_KINDS:
            self.announce(tools.tool_text(cmd, self.scenario))

    def place(self, unit_id: str, x_in: float, y_in: float, heading_deg: float) -> None:
        """The player placed a model by hand on the page: it stands there (marked "placed by
        hand") until the camera sees its tag again, and the game is checked at once."""
        if not self.state.has_unit(unit_id) or not self.state.unit(unit_id).on_table:
            self.announce("That piece is not on the table; nothing was placed.")
            return
        self.placements.place(unit_id, x_in, y_in, heading_deg)
        settled = self._settled or Observation(self.now, True)
        if self.stage is not Stage.OVER:
            self._check_stage(self._with_hand(settled), placed=unit_id)

    def _confirm(self) -> None:
        if self.stage is Stage.SETUP:
            self._take_unseen_as_set_out(self.setup_watch.checks)
        elif self.stage is Stage.AI_ORDER and self.order is not None:
            self.announce(
                f"Confirmed: {self.state.unit(self.order.action.unit_id or '').name} is in place."
            )
            exp = self.expected
            seen = self._settled.pieces.get(exp.unit_id) if self._settled and exp else None
            if exp is not None and not exp.off_table and (seen is None or not seen.visible):
                # Confirmed where the camera cannot see it: it stands there by hand.
                self.placements.place(exp.unit_id, exp.x_in, exp.y_in, exp.heading_deg)
            self._carry_out(self.order)
        elif self.stage is Stage.REMOVAL:
            self.removals.clear()
            self.stage = Stage.RUNNING
            self._advance()

    def _take_unseen_as_set_out(self, checks: Sequence[setup_check.PieceCheck]) -> None:
        """Set-up, on confirm: every piece the camera cannot see stands where the scenario
        puts it (models placed by hand there, terrain taken as set out)."""
        unseen = {c.key for c in checks if c.state == "unseen"}
        for unit in self.state.units:
            if f"unit:{unit.id}" in unseen:
                self.placements.place(unit.id, unit.x, unit.y, unit.heading_deg)
        for place in terrain_places(self.scenario):
            if f"terrain:{place.id}" in unseen:
                self.placements.take_as_set_out(place.id, place.x_in, place.y_in)
        if unseen and self._settled is not None:
            self._check_stage(self._with_hand(self._settled))

    def declare(self, what: str, target: str | None, unit_id: str | None = None) -> None:
        """The player declares their character's action: shoot, melee, done (move only) or pass."""
        if self.stage is not Stage.HUMAN:
            self.announce("It is not your turn to declare an action.")
            return
        pending = self.ruleset.pending(self.state)
        if pending.kind is PendingKind.CHOICE:
            if what not in pending.options:
                self.announce(f"Choose one of: {', '.join(pending.options)}.")
            elif self._apply(choice_action(pending.side, what)):
                self._advance()
            return
        if what == "pass":
            side = self.adapter.turn(self.state, self.ruleset).side or ""
            if self._apply(self.adapter.pass_action(self.state, side)):
                self._advance()
            return
        move = self._human_move
        if move is not None and move[2]:
            self.announce(f"First fix the move: {move[2]}.")
            return
        action = self.adapter.observed_action(self.state, self.ruleset, what, target, move, unit_id)
        if isinstance(action, str):
            self.announce(action)
            return
        problems = self.ruleset.validate(self.state, action)
        if problems:
            self.announce("Not allowed: " + "; ".join(problems) + ".")
            return
        self._human_move = None
        for note in self.adapter.declared_notes(self.state, action):
            self.announce(note)
        if self._apply(action):
            self._advance()

    def _dice_entered(self, value: int) -> None:
        if self.stage is not Stage.DICE or not isinstance(self.dice, QueuedDice):
            self.announce("No dice roll is needed right now.")
            return
        self.dice.entered.append(value)
        self.stage = Stage.RUNNING
        if self.pending is not None:
            action, self.pending = self.pending, None
            order, self._pending_order = self._pending_order, None
            if self._apply(action, order):
                self._advance()
        else:
            self._advance()

    def undo(self) -> None:
        """Step back one applied action; the table has to be put back by hand."""
        if not self.history.can_undo:
            self.announce("There is nothing to undo.")
            return
        after = self.state
        snapshot = self.history.undo()
        assert snapshot is not None
        self.dice.set_state(snapshot.dice_state)
        self._redo_steps.append(self.steps.pop())
        self.undos += 1
        self.placements.follow(self.state)
        self._reset_waits()
        moved = [
            u
            for u in self.state.units
            if after.has_unit(u.id) and after.unit(u.id).position != u.position
        ]
        where = "; ".join(back_words(self.state, u, u.name) for u in moved[:3])
        self.announce("Undone." + (f" Put {where}." if where else ""))
        self._advance()

    def redo(self) -> None:
        """Redo an undone action."""
        snapshot = self.history.redo()
        if snapshot is None:
            self.announce("There is nothing to redo.")
            return
        self.dice.set_state(snapshot.dice_state)
        self.steps.append(self._redo_steps.pop())
        self.placements.follow(self.state)
        self._reset_waits()
        self.announce("Redone.")
        self._save()
        self._advance()

    def _reset_waits(self) -> None:
        self.order = None
        self.expected = None
        self.pending = None
        self.removals.clear()
        self._human_move = None
        self.planned.clear()
        self.stage = Stage.RUNNING
        self._forget("")

    # -------------------------------------------------------------- engine
    def _apply(self, action: Action, order: Order | None = None) -> bool:
        """Apply an action (and the memory its order leaves for its side); True when it went
        through (False: waiting for dice, or illegal)."""
        before, logged = len(self.dice.rolls), len(self.dice.log)
        self.dice.begin()
        try:
            outcome = self.ruleset.apply(self.state, action, self.dice)
        except NeedRoll as need:
            self.pending = action
            self._pending_order = order
            self._ask_for_roll(need)
            return False
        except IllegalActionError as exc:
            self.announce(f"That is not allowed: {exc.reason}.")
            self.stage = Stage.HUMAN if self._human_turn() else Stage.RUNNING
            return False
        self.dice.commit()
        was_on = [u.id for u in self.state.units if u.on_table]
        side = acting_side(self.state, action)
        new_state = with_order_memory(outcome.state, side, order)
        memory = (side, order.memory) if order and order.memory is not None and side else None
        self.history.push(new_state, self.dice.get_state(), action, outcome.events)
        drawn = tuple(e.card for e in self.dice.log[logged:] if isinstance(e, Draw))
        self.steps.append(AppliedStep(action, tuple(self.dice.rolls[before:]), memory, drawn))
        self._redo_steps.clear()
        self.placements.follow(self.state)
        self.stage = Stage.RUNNING
        self._announce_events(outcome.events)
        gone = {uid for uid in was_on if not self.state.unit(uid).on_table}
        if gone:  # fallen, fled or carried off: the player takes the models off
            self.removals |= gone
            self.stage = Stage.REMOVAL
        self._save()
        return True

    def _announce_events(self, events: Sequence[Event]) -> None:
        for ev in events:
            text = self.adapter.event_words(self.state, ev)
            if text:
                self.announce(text)

    def _ask_for_roll(self, need: NeedRoll) -> None:
        self.stage = Stage.DICE
        if isinstance(need, NeedCard):  # a card from the player's real deck
            self.asked = card_prompt(need)
        elif self.roll_prompt is not None:
            self.asked = self.roll_prompt(need)
        else:
            self.asked = (
                f"Roll a {need.sides}-sided die for {need.purpose}, and enter the result on the "
                "page."
            )
        self.announce(self.asked)

    def _human_turn(self) -> bool:
        return self.adapter.turn(self.state, self.ruleset).kind == "human"

    def _save(self) -> None:
        if self.on_saved is not None:
            self.on_saved(self)
            self._unsaved = False

    def _advance(self) -> None:
        """Move the game on until it has to wait for the table or the player."""
        for _ in range(200):
            if self.stage is not Stage.RUNNING:
                return
            turn = self.adapter.turn(self.state, self.ruleset)
            if turn.kind == "over":
                self.stage = Stage.OVER
                self.announce_once("over", self._summary())
                return
            if turn.kind == "auto" and turn.action is not None:
                self._apply(turn.action)
                continue
            if turn.kind in ("ai", "forced"):
                self._give_order()
                continue
            self.stage = Stage.HUMAN
            self.announce_once(
                f"turn:{self.state.step}", self.adapter.turn_prompt(self.state, turn)
            )
            return

    def _give_order(self) -> None:
        """The assistant's side decides (RULES §1.7) through the engine's decision driver
        (:func:`engine.decision.decide`): an order is said (and awaited on the table when it
        moves a model); a pass, a declined reaction or a choice is applied at once."""
        if self._whole_order is None:
            self.planned.clear()  # a game saved without the order its plan belongs to
        people = {s.name for s in self.state.sides if s.role is Role.HUMAN}
        self.dice.begin()
        try:
            decision = decide(
                self.state, self.ruleset, self.controllers, self.dice, self.planned, people
            )
        except NeedRoll as need:
            self.pending = None
            self._ask_for_roll(need)
            return
        self.dice.commit()
        if decision is None:
            return
        order = decision.order
        if decision.continued and self._whole_order is not None:
            whole = self._whole_order
            order = Order((decision.action, *self.planned), whole.rule, whole.reason)
        if order is None:
            self._apply(decision.action)
            return
        self.order = order
        self.announce(self._order_words(order))
        self.expected = self.adapter.expectation(self.state, order)
        if self.expected.moves or self.expected.off_table or self._pivot_needed():
            self.stage = Stage.AI_ORDER
            return
        self.expected = None
        if self._apply(order.action, order):
            self.order = None

    def _order_words(self, order: Order) -> str:
        """The spoken order: in full for a new order, the next step for its later actions."""
        if (
            order.memory is None
            and self._whole_order is not None
            and (
                order.actions == self._whole_order.actions[-len(order.actions) :]
                and len(order.actions) < len(self._whole_order.actions)
            )
        ):
            return "Next: " + self.adapter.order_instruction(self.state, order)
        self._whole_order = order
        return self.adapter.order_text(self.state, order)

    def _pivot_needed(self) -> bool:
        exp = self.expected
        if exp is None:
            return False
        unit = self.state.unit(exp.unit_id)
        facing = exp.tolerances(self.tolerances).facing_deg
        return abs(wrap180(exp.heading_deg - unit.heading_deg)) > facing

    def _summary(self) -> str:
        state = self.state
        if state.winner in (None, "draw"):
            return f"The battle is over: a draw after {state.round} rounds ({state.end_reason})."
        return f"The battle is over: {state.winner} win after {state.round} rounds ({state.end_reason})."


def button_command(button: str) -> Command:
    """What pressing a button tag means: "done" declares the moved character's action done."""
    if button == "done":
        return Command(kind="declare", action="done")
    if button in ("undo", "repeat", "confirm", "redo", "pass"):
        return Command(kind=button)  # type: ignore[arg-type]
    return Command(kind="repeat")


def expectation(state: GameState, order: Order) -> Expectation:
    """Where the ordered model must stand (and face) once the player has moved it (asked of
    the table adapter of the ruleset the state belongs to)."""
    return find_adapter(state.ruleset).expectation(state, order)


def moved_units(state: GameState, obs: Observation, tol: Tolerances) -> list[Unit]:
    """Units on the table whose models stand away from where the engine has them."""
    out = []
    for unit in state.units:
        seen = obs.pieces.get(unit.id)
        if not unit.on_table or seen is None or not seen.visible:
            continue
        far = math.dist((seen.x_in, seen.y_in), unit.position) > tol.position_in
        turned = abs(wrap180(seen.heading_deg - unit.heading_deg)) > tol.facing_deg
        if far or turned:
            out.append(unit)
    return out


def adopt_positions(state: GameState, obs: Observation, tol: Tolerances) -> GameState:
    """The starting state with each unit where its model stands (or exactly where the
    scenario puts it, when the model is within tolerance of that)."""
    from dataclasses import replace

    units = []
    for unit in state.units:
        seen: PieceSeen | None = obs.pieces.get(unit.id)
        if seen is None:
            units.append(unit)
            continue
        close = math.dist((seen.x_in, seen.y_in), unit.position) <= tol.position_in
        facing = abs(wrap180(seen.heading_deg - unit.heading_deg)) <= tol.facing_deg
        if close and facing:
            units.append(unit)
        else:
            units.append(
                replace(unit, x=seen.x_in, y=seen.y_in, heading_deg=seen.heading_deg % 360)
            )
    return replace(state, units=tuple(units))
