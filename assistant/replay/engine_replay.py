"""The game reconstructed from footage alone: activations, the AI's orders, legality of moves.

With a scenario but no session log, the piece moves the footage shows are walked in time order
against the scenario's engine state. Each move is one activation of its unit (an activation
without a move, a shot from where it stands or a melee fought on the spot, leaves nothing in the
footage). For a unit of the AI side the AI's order at that moment is worked out and the real
move compared with it; for a unit of the human side the move is checked against the rules.
Pieces taken off the table leave the game; a unit that moves again right after an enemy in
contact with it was taken off takes a bonus activation. The unit then stands where the footage
shows it. Rounds: a new one begins when a unit activates again, or when every unit on the
table has activated.

What needs dice (attack results, rout checks, the AI's choices that take a roll) cannot be
derived: one event says so. Inches, degrees and seconds throughout.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from assistant.replay.reconstruct import PieceMove, Roster, piece_moves, piece_positions
from assistant.replay.timeline import Timeline
from assistant.scenarios import load_game
from assistant.session.game import Tolerances, expectation
from assistant.session.moves import observed_path
from assistant.session.observation import PieceSeen
from assistant.tables import find_adapter
from engine.dice import SeededDice
from engine.errors import EngineError
from engine.geometry import wrap180
from engine.model import GameState, Objective, Phase, Role, Unit, UnitStatus
from engine.protocols import Controller, Ruleset, find_controller
from engine.scenario import Scenario

SOURCE = "engine"
DICE_NOTE = (
    "Attack results need the session log or the dice: the footage shows who moved where, "
    "not the rolls, so hits, wounds, rout checks and who fell to what are not derived here "
    "(a piece taken off the table leaves the game)."
)
UNSEEN_NOTE = (
    "Activations without a move (a shot from where it stands, a melee fought on the spot, "
    "holding ground) leave no trace in the footage and are not counted."
)


@dataclass(frozen=True)
class Removal:
    """A piece taken off the table: its name and when it was last seen (seconds)."""

    piece: str
    t: float


@dataclass(frozen=True)
class EngineReplay:
    """What the engine made of the footage: timeline events and the activation steps."""

    events: tuple[dict[str, Any], ...]
    """{"t", "kind", "text", "unit", "source": "engine", ...} in time order."""
    activations: tuple[dict[str, Any], ...]
    """Steps for the viewer: {"index", "t", "t_start", "label", "tags"}."""


class GameReplayer:
    """The scenario's engine, ready to walk a footage's moves (build once, replay often)."""

    def __init__(self, scenario_name: str, tolerances: Tolerances | None = None) -> None:
        scenario, ruleset, state = load_game(scenario_name)
        self.scenario: Scenario = scenario
        self.ruleset: Ruleset = ruleset
        self.initial: GameState = state
        self.ai: Controller = find_controller(scenario.scenario.ai_controller)
        self.tolerances = tolerances or Tolerances()
        self.unit_of_piece: dict[str, str] = {u.name: u.id for u in scenario.units}
        for u in scenario.units:
            self.unit_of_piece.setdefault(u.id, u.id)

    def replay(
        self,
        moves: Sequence[PieceMove],
        removals: Sequence[Removal] = (),
        start: Mapping[str, tuple[float, float, float]] | None = None,
    ) -> EngineReplay:
        """Walk ``moves`` and ``removals`` in time order; ``start`` gives the pieces' poses
        (x in, y in, heading degrees) by piece name as the footage first shows them."""
        walk = _Walk(self)
        if start:
            walk.place_start(start)
        items: list[tuple[float, int, PieceMove | Removal]] = [
            (m.t_end, 1, m) for m in moves if m.piece in self.unit_of_piece
        ]
        items += [(r.t, 0, r) for r in removals if r.piece in self.unit_of_piece]
        items.sort(key=lambda item: (item[0], item[1]))
        for _, _, item in items:
            if isinstance(item, Removal):
                walk.removed(item)
            else:
                walk.moved(item)
        if walk.events:
            first_t = walk.events[0]["t"]
            walk.events.append(walk.event(first_t, "note", UNSEEN_NOTE))
            walk.events.append(walk.event(first_t, "note", DICE_NOTE))
        walk.events.sort(key=lambda e: e["t"])
        steps = []
        for i, s in enumerate(walk.steps):
            steps.append({**s, "index": i})
        return EngineReplay(tuple(walk.events), tuple(steps))


class _Walk:
    """One pass over the footage's moves (mutable bookkeeping of a replay)."""

    def __init__(self, game: GameReplayer) -> None:
        self.game = game
        self.state = replace(game.initial, round=1, phase=Phase.ACTIVATION)
        self.events: list[dict[str, Any]] = []
        self.steps: list[dict[str, Any]] = []
        self.per_side: dict[str, int] = {s.name: 0 for s in self.state.sides}
        self.started = False
        self.last_unit: str | None = None
        """The unit of the last activation seen."""
        self.felled_since: list[Unit] = []
        """Units taken off since the last activation (as they stood)."""

    def event(
        self, t: float, kind: str, text: str, unit: str | None = None, **extra: Any
    ) -> dict[str, Any]:
        """One timeline event from the engine (seconds)."""
        item: dict[str, Any] = {"t": round(t, 3), "kind": kind, "text": text}
        if unit is not None:
            item["unit"] = unit
        item["source"] = SOURCE
        item.update(extra)
        return item

    def place_start(self, start: Mapping[str, tuple[float, float, float]]) -> None:
        """Stand the units where the footage first shows them."""
        for name, (x, y, heading) in start.items():
            uid = self.game.unit_of_piece.get(name)
            if uid is None or not self.state.has_unit(uid):
                continue
            unit = self.state.unit(uid)
            self.state = self.state.with_unit(replace(unit, x=x, y=y, heading_deg=heading % 360))

    # --------------------------------------------------------------- rounds
    def _activate(self, unit: Unit, move: PieceMove) -> None:
        on_table = [u for u in self.state.units if u.on_table]
        if self.started and (unit.activated or all(u.activated for u in on_table)):
            why = (
                "every unit on the table has activated"
                if all(u.activated for u in on_table)
                else f"{unit.name} activates again"
            )
            self.state = replace(
                self.state,
                round=self.state.round + 1,
                units=tuple(replace(u, activated=False) for u in self.state.units),
            )
            self.per_side = dict.fromkeys(self.per_side, 0)
            self.events.append(
                self.event(
                    move.t_start,
                    "round_start",
                    f"Round {self.state.round} begins ({why}).",
                    round=self.state.round,
                )
            )
        elif not self.started:
            self.events.append(self.event(move.t_start, "round_start", "Round 1 begins.", round=1))
        self.started = True
        self.per_side[unit.side] = self.per_side.get(unit.side, 0) + 1
        n = self.per_side[unit.side]
        text = (
            f"Round {self.state.round}: {unit.name} activates "
            f"(activation {n} of {unit.side} this round)."
        )
        self.events.append(
            self.event(
                move.t_start,
                "activation",
                text,
                unit.id,
                side=unit.side,
                round=self.state.round,
                side_activation=n,
            )
        )
        self.steps.append(
            {
                "t": round(move.t_end, 3),
                "t_start": round(move.t_start, 3),
                "label": f"{unit.name} moves {move.distance_in:.1f} in (round {self.state.round}",
                "tags": [int(t) for t in move.tags],
                "unit": unit.id,
            }
        )

    def _felled_by(self, unit: Unit) -> Unit | None:
        """The enemy this unit felled in melee, when it moves again right after its last
        activation and an enemy in base contact with it has been taken off since."""
        if self.last_unit != unit.id:
            return None
        reach = _contact_tol_in(self.state) + self.game.tolerances.position_in
        for enemy in self.felled_since:
            if enemy.side == unit.side:
                continue
            gap = math.dist(unit.position, enemy.position) - unit.radius_in - enemy.radius_in
            if gap <= reach:
                return enemy
        return None

    def _bonus(self, unit: Unit, felled: Unit, move: PieceMove) -> GameState:
        """A bonus activation after felling an enemy in melee: half a move, no new activation
        (the state as the engine has it then)."""
        half = float(getattr(unit.card, "move_in", 0.0)) / 2.0
        text = (
            f"{unit.name} felled {felled.name} in melee and takes a bonus activation "
            f"of {half:g} in."
        )
        self.events.append(
            self.event(
                move.t_start,
                "bonus_activation",
                text,
                unit.id,
                side=unit.side,
                round=self.state.round,
                move_in=half,
            )
        )
        self.steps.append(
            {
                "t": round(move.t_end, 3),
                "t_start": round(move.t_start, 3),
                "label": f"{unit.name} moves {move.distance_in:.1f} in "
                f"(round {self.state.round}, bonus",
                "tags": [int(t) for t in move.tags],
                "unit": unit.id,
            }
        )
        return replace(
            self.state,
            phase=Phase.BONUS,
            active_side=unit.side,
            bonus_unit=unit.id,
            bonus_move_in=half,
            bonus_toward=felled.position,
        )

    def _acting(self, side: str) -> GameState:
        """The state as the engine has it when ``side`` activates a character."""
        return replace(
            self.state,
            phase=Phase.ACTIVATION,
            active_side=side,
            bonus_unit=None,
            bonus_toward=None,
        )

    # ---------------------------------------------------------------- moves
    def moved(self, move: PieceMove) -> None:
        uid = self.game.unit_of_piece[move.piece]
        unit = self.state.unit(uid)
        if not unit.on_table:
            # Its tag was only hidden (by its own figure, say): it is back in the game.
            unit = replace(unit, status=UnitStatus.ACTIVE)
            self.events.append(
                self.event(
                    move.t_start,
                    "returned",
                    f"{unit.name} moves again: it was hidden, not taken off; back in the game.",
                    unit.id,
                )
            )
        unit = replace(
            unit, x=move.from_in[0], y=move.from_in[1], heading_deg=move.heading_from_deg % 360
        )
        self.state = self.state.with_unit(unit)
        felled = self._felled_by(unit)
        if felled is None:
            self._activate(unit, move)
            acting = self._acting(unit.side)
        else:
            acting = self._bonus(unit, felled, move)
        self.last_unit, self.felled_since = unit.id, []
        side = self.state.side(unit.side)
        pick_up: str | None = None
        if side.role is Role.AI:
            pick_up = self._check_ai(acting, unit, move)
        else:
            pick_up = self._check_human(acting, unit, move)
        verdict = self.events[-1]
        if verdict.get("kind") == "order_check":
            said = "followed the order" if verdict.get("followed") else "differs from the order"
            self.steps[-1]["label"] += f", {said}"
        elif verdict.get("kind") == "legality":
            self.steps[-1]["label"] += ", legal" if verdict.get("legal") else ", not legal"
        self.steps[-1]["label"] += ")"
        self._place(unit.id, move, pick_up)

    def _check_ai(self, state: GameState, unit: Unit, move: PieceMove) -> str | None:
        game = self.game
        try:
            order = game.ai.decide(state, game.ruleset, unit.id, SeededDice(0))
        except EngineError as exc:
            self.events.append(
                self.event(move.t_end, "order", f"No AI order for {unit.name}: {exc}", unit.id)
            )
            return None
        said = find_adapter(state.ruleset).order_text(state, order)
        extra = ""
        if order.rolls:
            extra = " (its choice took a die roll, rolled here; the real roll may differ)"
        self.events.append(
            self.event(
                move.t_start,
                "order",
                f"AI order: {said} Rule: {order.rule}.{extra}",
                unit.id,
                rule=order.rule,
                reason=order.reason,
                order=order.to_json(),
            )
        )
        exp = expectation(state, order)
        off_in = math.dist((exp.x_in, exp.y_in), move.to_in)
        off_deg = abs(wrap180(move.heading_to_deg - exp.heading_deg))
        tol = game.tolerances
        ordered = {
            "ordered_to": [round(exp.x_in, 3), round(exp.y_in, 3), round(exp.heading_deg, 1)]
        }
        figures = {"off_in": round(off_in, 3), "off_deg": round(off_deg, 1)}
        if exp.off_table:
            text = (
                f"{unit.name} was ordered off the table, but the footage shows it set down at "
                f"({move.to_in[0]:.1f}, {move.to_in[1]:.1f}) in."
            )
            self.events.append(
                self.event(move.t_end, "order_check", text, unit.id, followed=False, **ordered)
            )
        elif off_in <= tol.position_in and off_deg <= tol.facing_deg:
            text = (
                f"{unit.name} followed the order ({off_in:.2f} in and {off_deg:.0f} degrees "
                "from where it was told)."
            )
            self.events.append(
                self.event(
                    move.t_end, "order_check", text, unit.id, followed=True, **ordered, **figures
                )
            )
        else:
            parts = []
            if off_in > tol.position_in:
                parts.append(f"{off_in:.1f} in")
            if off_deg > tol.facing_deg:
                parts.append(f"{off_deg:.0f} degrees of facing")
            text = (
                f"{unit.name} differs from the order by {' and '.join(parts)}: told to "
                f"({exp.x_in:.1f}, {exp.y_in:.1f}) facing {exp.heading_deg:.0f}, set down at "
                f"({move.to_in[0]:.1f}, {move.to_in[1]:.1f}) facing {move.heading_to_deg:.0f}."
            )
            self.events.append(
                self.event(
                    move.t_end, "order_check", text, unit.id, followed=False, **ordered, **figures
                )
            )
        return order.action.pick_up

    def _check_human(self, state: GameState, unit: Unit, move: PieceMove) -> str | None:
        path, why, nudged = self._legal_path(state, unit, move)
        if path is not None:
            text = f"{unit.name}'s move of {move.distance_in:.1f} in is legal"
            if nudged:
                text += f" (within the {self.game.tolerances.position_in:g} in the camera allows)"
            text += "."
            self.events.append(self.event(move.t_end, "legality", text, unit.id, legal=True))
        else:
            text = f"{unit.name}'s move is not legal: {why}."
            self.events.append(
                self.event(move.t_end, "legality", text, unit.id, legal=False, reason=why)
            )
        if unit.carrying is not None:
            return None
        near = _objective_next_to(state, unit)
        return near.id if near is not None else None

    def _legal_path(
        self, state: GameState, unit: Unit, move: PieceMove
    ) -> tuple[tuple[tuple[float, float], ...] | None, str, bool]:
        """A legal path for the observed move, or why there is none; the end may lie up to the
        position tolerance (inches) beyond a legal spot, as the camera measures. The last item
        says whether that allowance was needed."""
        seen = PieceSeen(move.to_in[0], move.to_in[1], move.heading_to_deg)
        try:
            path, why = observed_path(state, self.game.ruleset, unit, seen)
            if path is not None:
                return path, "", False
            slack = self.game.tolerances.position_in
            length = move.distance_in
            if length > slack:
                k = (length - slack) / length
                fx, fy = move.from_in
                near = PieceSeen(
                    fx + (move.to_in[0] - fx) * k,
                    fy + (move.to_in[1] - fy) * k,
                    move.heading_to_deg,
                )
                nearer, _ = observed_path(state, self.game.ruleset, unit, near)
                if nearer is not None:
                    return nearer, "", True
        except EngineError as exc:
            return None, str(exc), False
        return None, why, False

    def _place(self, uid: str, move: PieceMove, pick_up: str | None) -> None:
        """Stand the unit where the footage shows it, activated, with what it picked up."""
        unit = self.state.unit(uid)
        state = self.state
        if pick_up is not None and unit.carrying is None:
            objective = _loose(state, pick_up)
            if objective is not None:
                unit = replace(unit, carrying=objective.id)
                state = state.with_objective(replace(objective, carried_by=unit.id))
                self.events.append(
                    self.event(
                        move.t_start,
                        "pick_up",
                        f"{unit.name} picks up {objective.name}.",
                        unit.id,
                    )
                )
        unit = replace(
            unit,
            x=move.to_in[0],
            y=move.to_in[1],
            heading_deg=move.heading_to_deg % 360,
            activated=True,
        )
        state = state.with_unit(unit)
        if unit.carrying is not None:
            state = state.with_objective(
                replace(state.objective(unit.carrying), x=unit.x, y=unit.y)
            )
        self.state = state

    # ------------------------------------------------------------- removals
    def removed(self, removal: Removal) -> None:
        uid = self.game.unit_of_piece[removal.piece]
        unit = self.state.unit(uid)
        if not unit.on_table:
            return
        state = self.state
        text = (
            f"{unit.name} is out of the game: its model was taken off the table "
            f"(last seen at {removal.t:.1f} s)."
        )
        if unit.carrying is not None:
            objective = state.objective(unit.carrying)
            state = state.with_objective(replace(objective, carried_by=None, x=unit.x, y=unit.y))
            text += f" It carried {objective.name}, dropped where it stood or carried off."
        self.felled_since.append(unit)
        self.state = state.with_unit(replace(unit, status=UnitStatus.FALLEN, carrying=None))
        self.events.append(self.event(removal.t, "removed", text, unit.id))


def _contact_tol_in(state: GameState) -> float:
    """Base-contact tolerance of the game, inches (the narrative ruleset's, when it is one)."""
    if state.ruleset != "narrative":
        return 0.0
    from engine.rulesets.narrative_board import contact_tol

    return contact_tol(state)


def _loose(state: GameState, objective_id: str) -> Objective | None:
    for o in state.objectives:
        if o.id == objective_id and o.carried_by is None and o.scored_by is None:
            return o
    return None


def _objective_next_to(state: GameState, unit: Unit) -> Objective | None:
    """The loose objective the unit picks up before it moves (narrative rules), if any."""
    if state.ruleset != "narrative":
        return None
    from engine.controllers.narrative_tactics import objective_next_to

    return objective_next_to(state, unit)


def engine_replay(
    timeline: Timeline,
    roster: Roster,
    replayer: GameReplayer,
    moves: Sequence[PieceMove] | None = None,
) -> EngineReplay:
    """The engine's reading of a whole timeline: its piece moves (``moves``, or grouped from
    the tag moves), the pieces taken off (a piece with several tags once all of them are
    gone) and the poses of the first settled state."""
    if moves is None:
        moves = piece_moves(timeline.moves, roster)
    removals: list[Removal] = []
    gone: dict[str, set[int]] = {}
    for e in sorted(timeline.events, key=lambda e: e.t):
        if e.kind != "removed" or e.tag_id is None:
            continue
        found = roster.piece_of_tag(e.tag_id)
        if found is None:
            continue
        piece = found[0]
        tags = gone.setdefault(piece.name, set())
        tags.add(e.tag_id)
        if tags >= {int(m.tag_id) for m in piece.tags}:
            removals.append(Removal(piece.name, e.t))
            tags.clear()
    start: dict[str, tuple[float, float, float]] = {}
    if timeline.states:
        for p in piece_positions(timeline.states[0], roster):
            start[p["name"]] = (p["x"], p["y"], p["heading"])
    return replayer.replay(moves, removals, start)
