"""A seeded battle as the footage reader would give it to the engine, with the tray's rolls:
the piece moves and removals of every action (timed as a player carries them out) and each
die the rules rolled, seen in the tray between them (issue 10)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assistant.replay.dice_seen import SeenRoll
from assistant.replay.engine_replay import EngineReplay, Removal
from assistant.replay.reconstruct import PieceMove
from assistant.scenarios import load_game
from engine.actions import EventType
from engine.dice import Roll, SeededDice
from engine.runner import controllers_for, next_action

MOVE_S = 1.2
"""How long a hand takes to carry a model (seconds)."""


@dataclass
class Footage:
    """What the footage reader gives the engine, and the log's own figures."""

    moves: list[PieceMove] = field(default_factory=list)
    removals: list[Removal] = field(default_factory=list)
    rolls: list[SeenRoll] = field(default_factory=list)
    rounds: int = 0
    activations: int = 0
    fallen: set[str] = field(default_factory=set)
    winner: str | None = None
    ai_moves: int = 0
    """Moves of the AI's units (each carries out an order)."""


def battle_footage(scenario_name: str, seed: int) -> Footage:
    """Play the seeded battle (as ``soloscope simulate``) and time its physical changes: an
    action's moves, then each of its dice seen in the tray, then the models taken off."""
    scenario, ruleset, state = load_game(scenario_name)
    controllers = controllers_for(scenario)
    ai_side = next(s.name for s in state.sides if s.role.value == "ai")
    dice = SeededDice(seed)
    out = Footage()
    t = 2.0
    for _ in range(5000):
        logged = len(dice.log)
        chosen = next_action(state, ruleset, controllers, dice)
        if chosen is None:
            break
        action, _ = chosen
        outcome = ruleset.apply(state, action, dice)
        after = outcome.state
        out.activations += sum(e.type == EventType.ACTIVATION for e in outcome.events)
        moved = False
        for unit in sorted(state.units, key=lambda u: u.id != action.unit_id):
            new = after.unit(unit.id)
            if not unit.on_table or not new.on_table:
                continue
            if (new.x, new.y) != (unit.x, unit.y) or new.heading_deg != unit.heading_deg:
                out.moves.append(
                    PieceMove(
                        unit.name,
                        unit.side,
                        (0,),
                        (unit.x, unit.y),
                        (new.x, new.y),
                        unit.heading_deg,
                        new.heading_deg,
                        t,
                        t + MOVE_S,
                    )
                )
                out.ai_moves += unit.side == ai_side and unit.id == action.unit_id
                t += MOVE_S + 0.6
                moved = True
        for entry in dice.log[logged:]:
            if isinstance(entry, Roll):
                out.rolls.append(SeenRoll(t, (entry.result,)))
                t += 0.8
        for unit in state.units:
            if unit.on_table and not after.unit(unit.id).on_table:
                t += 0.5
                out.removals.append(Removal(unit.name, t))
                out.fallen.add(unit.id)
        t += 1.0 if moved else 0.3
        state = after
    out.rounds = state.round
    out.winner = state.winner
    return out


def figures(result: EngineReplay) -> dict[str, Any]:
    """The engine's reading: rounds, activations, fallen, winner, and the order checks."""
    from assistant.replay.document import game_summary

    events = [dict(e) for e in result.events]
    game = game_summary(events, result)["game"]
    checks = [e for e in events if e["kind"] == "order_check"]
    game["orders"] = len(checks)
    game["followed"] = sum(1 for e in checks if e.get("followed"))
    return dict(game)
