"""What a live game was waiting for when it was saved, so that ``--resume`` carries on from
exactly there.

A game waits for a model to be moved where an order said, for the player's declaration, for
dice or a card, or for fallen models to be taken off. The save keeps that wait: the stage, the
order given (its actions at full precision, its reason, the memory it leaves) and the rest of
a several-action order, the action waiting for dice, the models to take off, and which
once-only remarks were made. Restored, the game waits where it stopped; it neither decides
the order again (which would roll other dice or draw another card than the order the player
was given) nor says again what it had said.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assistant.session.game import LiveGame, Stage
from engine.actions import Action, Order
from engine.errors import EngineError
from engine.jsonvalue import freeze_pairs, pairs_to_json


def exact_action_json(action: Action) -> dict[str, Any]:
    """An action's JSON with full-precision path and heading, so a replay is exact."""
    out = action.to_json()
    if action.path:
        out["path"] = [[x, y] for x, y in action.path]
    if action.heading_deg is not None:
        out["heading"] = action.heading_deg
    return out


def order_json(order: Order | None) -> dict[str, Any] | None:
    """An order as the save keeps it (every field, at full precision)."""
    if order is None:
        return None
    return {
        "actions": [exact_action_json(a) for a in order.actions],
        "rule": order.rule,
        "reason": order.reason,
        "distance_in": order.distance_in,
        "target_distance_in": order.target_distance_in,
        "blocked": list(order.blocked),
        "rolls": [[purpose, result] for purpose, result in order.rolls],
        "memory": None if order.memory is None else pairs_to_json(order.memory),
    }


def order_from_json(raw: object) -> Order | None:
    """The order :func:`order_json` wrote; EngineError when it is not one."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise EngineError(f"not an order: {raw!r}")
    try:
        target = raw.get("target_distance_in")
        memory = raw.get("memory")
        return Order(
            tuple(Action.from_json(a) for a in raw["actions"]),
            str(raw["rule"]),
            str(raw["reason"]),
            float(raw.get("distance_in", 0.0)),
            None if target is None else float(target),
            tuple(str(b) for b in raw.get("blocked", ())),
            tuple((str(p), int(r)) for p, r in raw.get("rolls", ())),
            None if memory is None else freeze_pairs(memory),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise EngineError(f"not an order: {exc}") from None


def waiting_json(game: LiveGame) -> dict[str, Any]:
    """What the game waits for, for the save."""
    return {
        "stage": game.stage.value,
        "order": order_json(game.order),
        "whole_order": order_json(game._whole_order),
        "planned": [exact_action_json(a) for a in game.planned],
        "pending": None if game.pending is None else exact_action_json(game.pending),
        "pending_order": order_json(game._pending_order),
        "removals": sorted(game.removals),
        "asked": game.asked,
        "said": sorted(game._said_keys),
    }


def restore_waiting(game: LiveGame, raw: object) -> None:
    """Put a game just rebuilt from its steps back into the wait it was saved in (nothing to
    do for a save without one, from before waits were kept: that game decides again).
    EngineError, KeyError or ValueError when the saved wait is damaged."""
    if raw is None:
        return
    if not isinstance(raw, Mapping):
        raise EngineError(f"the saved wait is not an object: {raw!r}")
    stage = Stage(raw["stage"])
    if stage is Stage.SETUP:
        raise EngineError("a started game cannot wait for its set-up")
    game.order = order_from_json(raw.get("order"))
    game._whole_order = order_from_json(raw.get("whole_order"))
    game.planned = [Action.from_json(a) for a in raw.get("planned", ())]
    pending = raw.get("pending")
    game.pending = None if pending is None else Action.from_json(pending)
    game._pending_order = order_from_json(raw.get("pending_order"))
    game.removals = {str(u) for u in raw.get("removals", ())}
    for unit_id in game.removals:
        game.state.unit(unit_id)  # KeyError for a unit the game does not have
    game.asked = str(raw.get("asked", ""))
    game._said_keys = {str(k) for k in raw.get("said", ())}
    game.expected = None
    if stage is Stage.AI_ORDER:
        if game.order is None:
            raise EngineError("the saved game waits for an order's move but holds no order")
        game.expected = game.adapter.expectation(game.state, game.order)
    game.stage = stage
