"""Playing a battle through: the ruleset asks, the controllers answer, the dice decide."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.actions import Action, ActionKind, Event, EventType, Order, event
from engine.dice import RandomSource
from engine.errors import EngineError
from engine.model import GameState
from engine.protocols import (
    Controller,
    PendingKind,
    Ruleset,
    UnknownNameError,
    find_controller,
    find_ruleset,
)
from engine.scenario import Scenario, ScenarioError

#: Safety net: no seed-000 battle comes near this many steps.
MAX_STEPS = 5000


@dataclass
class BattleRecord:
    """Everything a played battle produced."""

    initial: GameState
    final: GameState
    events: list[Event] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    orders: list[Order | None] = field(default_factory=list)
    """The order behind each action (None for initiative rolls and passes)."""


def order_event(state: GameState, order: Order, ruleset: Ruleset) -> Event:
    """The log entry for an order a controller gave (the kind in the ruleset's word)."""
    unit = state.unit(order.action.unit_id or "")
    word = ruleset.action_word(order.action)
    return event(
        EventType.ORDER,
        state.round,
        f"{unit.name}: {word.replace('_', ' ')} ({order.rule}): {order.reason}.",
        unit.id,
        action=word,
        rule=order.rule,
        target=order.action.target_id,
        distance_in=round(order.distance_in, 3),
    )


def start_game(scenario: Scenario) -> tuple[Ruleset, GameState]:
    """The scenario's ruleset and its starting state (raises ScenarioError on bad cards)."""
    try:
        ruleset = find_ruleset(scenario.scenario.ruleset)
    except UnknownNameError as exc:
        raise ScenarioError(f"{scenario.source}: scenario.ruleset: {exc}") from None
    return ruleset, ruleset.new_game(scenario)


def controllers_for(scenario: Scenario, human: str | None = None) -> dict[str, Controller]:
    """One controller per side: the scenario's AI, and ``human`` (default: its autopilot)."""
    out: dict[str, Controller] = {}
    for side in scenario.sides:
        field = "ai_controller" if side.role == "ai" else "human_controller"
        name = (
            scenario.scenario.ai_controller
            if side.role == "ai"
            else (human or scenario.scenario.human_controller)
        )
        where = f"{scenario.source}: scenario.{field}" if human is None or side.role == "ai" else ""
        try:
            controller = find_controller(name)
        except UnknownNameError as exc:
            raise ScenarioError(f"{where or 'controller'}: {exc}") from None
        if scenario.scenario.ruleset not in controller.rulesets:
            raise ScenarioError(
                f"{where or 'controller'}: controller {name!r} cannot play ruleset "
                f"{scenario.scenario.ruleset!r} (it plays: {', '.join(controller.rulesets)})"
            )
        out[side.name] = controller
    return out


def next_action(
    state: GameState, ruleset: Ruleset, controllers: Mapping[str, Controller], dice: RandomSource
) -> tuple[Action, Order | None] | None:
    """The action the controllers choose for the pending decision (None when the game is over)."""
    pending = ruleset.pending(state)
    if pending.kind is PendingKind.OVER:
        return None
    if pending.kind is PendingKind.INITIATIVE:
        return Action(ActionKind.CHANCE), None
    controller = controllers[pending.side or ""]
    unit_id = controller.choose_unit(state, ruleset, pending)
    if unit_id is None:
        return Action(ActionKind.PASS, side=pending.side), None
    order = controller.decide(state, ruleset, unit_id, dice)
    return order.action, order


def play_battle(
    state: GameState,
    ruleset: Ruleset,
    controllers: Mapping[str, Controller],
    dice: RandomSource,
    on_event: Callable[[Event], None] | None = None,
    max_steps: int = MAX_STEPS,
) -> BattleRecord:
    """Play until the ruleset says the battle is over."""
    record = BattleRecord(initial=state, final=state)
    for _ in range(max_steps):
        chosen = next_action(state, ruleset, controllers, dice)
        if chosen is None:
            break
        action, order = chosen
        outcome = ruleset.apply(state, action, dice)
        emitted = list(outcome.events)
        if order is not None:
            # The order reads best right after "X activates."
            at = 1 if emitted and emitted[0].type == EventType.ACTIVATION else 0
            emitted.insert(at, order_event(state, order, ruleset))
        state = outcome.state
        record.actions.append(action)
        record.orders.append(order)
        for ev in emitted:
            record.events.append(ev)
            if on_event is not None:
                on_event(ev)
    else:
        raise EngineError(f"the battle did not end within {max_steps} steps")
    record.final = state
    return record
