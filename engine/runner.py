"""Playing a battle through: the ruleset asks, the controllers answer, the dice decide."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.actions import Action, Event, EventType, Order, event
from engine.decision import decide
from engine.dice import RandomSource
from engine.errors import EngineError
from engine.model import GameState, evolve
from engine.protocols import (
    Controller,
    Ruleset,
    UnknownNameError,
    find_controller,
    find_ruleset,
    plays,
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
    """The scenario's ruleset and its starting state (raises ScenarioError on bad cards).

    A unit entry's ``wounds`` (wounds carried over from an earlier battle of a campaign) are
    added to the unit's state; the ruleset's ``check_state`` then judges them (no more wounds
    than the card can hold)."""
    try:
        ruleset = find_ruleset(scenario.scenario.ruleset)
    except UnknownNameError as exc:
        raise ScenarioError(f"{scenario.source}: scenario.ruleset: {exc}") from None
    state = ruleset.new_game(scenario)
    carried = {spec.id: (i, spec.wounds) for i, spec in enumerate(scenario.units) if spec.wounds}
    if carried:
        units = tuple(
            evolve(u, wounds=u.wounds + carried[u.id][1]) if u.id in carried else u
            for u in state.units
        )
        state = evolve(state, units=units)
        problems = ruleset.check_state(state)
        if problems:
            i = min(index for index, _ in carried.values())
            raise ScenarioError(f"{scenario.source}: units[{i}].wounds: {'; '.join(problems)}")
    return ruleset, state


def controllers_for(scenario: Scenario, human: str | None = None) -> dict[str, Controller]:
    """One controller per side: the scenario's AI, and ``human`` (default: its autopilot)."""
    out: dict[str, Controller] = {}
    info = scenario.scenario
    for side in scenario.sides:
        if side.role == "human":
            field, name = "human_controller", human or info.human_controller
        elif side.role == "neutral" and info.neutral_controller:
            field, name = "neutral_controller", info.neutral_controller
        else:
            field, name = "ai_controller", info.ai_controller
        where = (
            f"{scenario.source}: scenario.{field}" if human is None or side.role != "human" else ""
        )
        try:
            controller = find_controller(name)
        except UnknownNameError as exc:
            raise ScenarioError(f"{where or 'controller'}: {exc}") from None
        if not plays(controller, scenario.scenario.ruleset):
            raise ScenarioError(
                f"{where or 'controller'}: controller {name!r} cannot play ruleset "
                f"{scenario.scenario.ruleset!r} (it plays: {', '.join(controller.rulesets)})"
            )
        out[side.name] = controller
    return out


def next_action(
    state: GameState,
    ruleset: Ruleset,
    controllers: Mapping[str, Controller],
    dice: RandomSource,
    planned: list[Action] | None = None,
) -> tuple[Action, Order | None] | None:
    """The action the controllers choose for the pending decision and the order behind it
    (None when the game is over): :func:`engine.decision.decide`, every side played by its
    controller. ``planned`` holds the rest of an order of several actions between calls."""
    decision = decide(state, ruleset, controllers, dice, planned)
    return None if decision is None else (decision.action, decision.order)


def acting_side(state: GameState, action: Action) -> str | None:
    """The side whose action this is: its unit's side, or the side named (a pass, a choice);
    None for a step of the game itself (a chance step)."""
    if action.unit_id and state.has_unit(action.unit_id):
        return state.unit(action.unit_id).side
    return action.side


def with_order_memory(state: GameState, side: str | None, order: Order | None) -> GameState:
    """``state`` with the controller memory the order leaves for ``side`` (RULES §1.7): a
    controller's deck, its Arch Foe or its last target live in the state."""
    if order is None or order.memory is None or side is None:
        return state
    return state.with_memory(side, order.memory)


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
    planned: list[Action] = []
    for _ in range(max_steps):
        chosen = next_action(state, ruleset, controllers, dice, planned)
        if chosen is None:
            break
        action, order = chosen
        outcome = ruleset.apply(state, action, dice)
        emitted = list(outcome.events)
        if order is not None:
            # The order reads best right after "X activates."
            at = 1 if emitted and emitted[0].type == EventType.ACTIVATION else 0
            emitted.insert(at, order_event(state, order, ruleset))
        state = with_order_memory(outcome.state, acting_side(state, action), order)
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
