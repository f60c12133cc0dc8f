"""Steps of the game the footage does not show, played by the engine to reach what it shows next.

A melee fought on the spot, a shot from where a unit stands, a round that ends and the next
that begins: none of them moves a model, so the footage has no trace of them. When the table
next shows a model taken off that the rules still have on it (or the footage ends with the
battle not over), the engine plays such steps, on every result the unseen dice could give,
until the rules take that model off (or the battle ends): the AI's own orders for its units,
the actions that leave a player's unit where it stands, passes. A step may move no model the
footage leaves in place (beyond the camera's position tolerance), and may take off no model the footage leaves on the table. The
shortest such story is kept (the footage cannot tell how many misses came before the hit).
Every rule is the engine's (``pending``/``validate``/``apply`` through the table adapter).
:func:`reach_turn` is the short search before a move: the chance steps, choices and passes
that lead to the turn of the unit the footage shows moving.

With the dice the camera saw in the tray (``seen``), the steps take the seen faces in order
instead of branching; ``exact`` asks the steps to use every one of them (the rolls seen
between two moves are the rolls of the steps between them), so a melee fought for rounds
without a fall is played out roll by roll. The search then goes up to
:data:`MAX_SEEN_STEPS` steps (the seen dice pin the story down: it hardly branches) and keeps
first the stories that used most of the seen dice. Their dice events are known "seen".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from assistant.replay import engine_model as model
from assistant.replay.engine_branches import Seen, seen_branches, seen_outcomes
from assistant.replay.engine_checks import event
from assistant.replay.engine_game import ReplayGame, UnseenStep
from assistant.replay.engine_model import error_reaches
from engine.actions import Action, ActionKind, Event, EventType
from engine.decision import activations, by_controller, decision_point, unseen_steps
from engine.dice import SeededDice
from engine.errors import EngineError
from engine.model import GameState, Role, Unit
from engine.protocols import PendingKind

#: Unseen steps tried to reach a turn of the unit the footage shows moving (chance steps,
#: passes, choices: no activation).
MAX_HIDDEN_STEPS = 6
#: Game states followed at once in that search (a re-roll of several dice has hundreds).
REACH_WIDTH = 30
#: Unseen steps tried at most to reach what the footage shows next.
MAX_UNSEEN_STEPS = 12
#: The same with the dice seen (every roll known: the search hardly branches).
MAX_SEEN_STEPS = 48
#: Game states followed at once in that search.
WIDTH = 30
#: Stories kept of those that reach what the footage shows next in the fewest steps.
MAX_RESULTS = 6
#: Events whose result came from dice the footage cannot show.
DICE_EVENTS = frozenset({"attack", "wound", "rout_check", "roll", "initiative", "chance"})
_RESERVED = frozenset({"t", "kind", "text", "unit", "source"})


@dataclass(frozen=True)
class Unseen:
    """Steps the footage does not show: the state they reach, the engine's events and the
    units that acted (in order)."""

    state: GameState
    events: tuple[Event, ...]
    acted: tuple[str, ...]
    used: int = 0
    """Seen dice the steps used."""
    dice_seen: tuple[bool, ...] = ()
    """Per event: every die of its step was seen (empty: none seen)."""
    extra_cost: float = 0.0
    """What the steps cost besides their count (:mod:`~assistant.replay.engine_model`): the
    chance of the results of their unseen dice and cards, and the pose error of the steps
    read with the acting unit within the camera's error of its seen place."""
    event_p: tuple[float, ...] = ()
    """Per event: the probability of its step's unseen results and pose error."""


def play_unseen(
    game: ReplayGame,
    state: GameState,
    goal: Callable[[GameState], bool],
    may_leave: frozenset[str] = frozenset(),
    seen: Seen | None = None,
    exact: bool = False,
    this_round: bool = False,
) -> list[Unseen]:
    """The stories of fewest unseen steps from ``state`` to a state where ``goal`` holds (at
    most :data:`MAX_RESULTS`, one per state; empty when none within
    :data:`MAX_UNSEEN_STEPS`). Only units in ``may_leave`` may leave the table; no unit
    moves. ``seen``: the seen dice the steps take in order (``exact``: all of them);
    ``this_round``: no step begins a new round (the search goes no further there)."""
    frontier: list[Unseen] = [Unseen(state, (), ())]
    visited: set[tuple[GameState, int]] = {(state, 0)}
    # a step closing a gap the camera cannot see (a charge into contact) moves no model
    still_in = game.tolerances.position_in
    for _ in range(MAX_UNSEEN_STEPS if seen is None else MAX_SEEN_STEPS):
        if not frontier:
            return []
        nxt: list[Unseen] = []
        reached: list[Unseen] = []
        for story in frontier:
            rest = None if seen is None else seen[story.used :]
            for after, events, actor, used, all_seen, extra in steps_from(game, story.state, rest):
                key = (after, story.used + used)
                if key in visited or not _still(story.state, after, may_leave, still_in):
                    continue
                visited.add(key)
                if this_round and any(ev.type == EventType.ROUND_START for ev in events):
                    continue
                acted = story.acted + ((actor,) if actor else ())
                known = (used > 0 and all_seen,) * len(events)
                child = Unseen(
                    after,
                    story.events + tuple(events),
                    acted,
                    story.used + used,
                    story.dice_seen + known,
                    story.extra_cost + extra,
                    story.event_p + (model.probability(extra),) * len(events),
                )
                done = goal(after) and not (exact and seen is not None and key[1] < len(seen))
                (reached if done else nxt).append(child)
        if reached:
            # the likeliest first (stable: the rules' own order among equals)
            return sorted(reached, key=lambda u: u.extra_cost)[:MAX_RESULTS]
        if seen is not None:
            nxt.sort(key=lambda u: -u.used)  # stable: the rules' own order among equals
        frontier = nxt[:WIDTH]
    return []


def reach_turn(
    game: ReplayGame, state: GameState, uid: str, dice: Seen | None = None
) -> list[tuple[GameState, float, tuple[Event, ...], int]]:
    """States where ``uid`` may act, reached by steps the footage does not show (the engine's
    :func:`~engine.decision.unseen_steps`: chance steps, every option of a choice, declined
    reactions, passes), with their cost, the engine's events on the way and the seen dice
    used (with ``dice``: all of them)."""
    Step = tuple[GameState, float, tuple[Event, ...], int]
    frontier: list[Step] = [(state, 0.0, (), 0)]
    found: list[Step] = []
    for _ in range(MAX_HIDDEN_STEPS + 1):
        nxt: list[Step] = []
        seen: set[tuple[GameState, int]] = set()
        for st, cost, events, used in frontier:
            point = decision_point(st, game.ruleset)
            if point.kind is PendingKind.OVER:
                continue
            if uid in activations(point):
                if dice is None or used == len(dice):
                    found.append((st, cost, events, used))
                continue
            passing = point.kind in (PendingKind.CHOOSE_UNIT, PendingKind.CONTINUE)
            side = point.side if passing else None
            steps = unseen_steps(
                point, None if side is None else game.adapter.pass_action(st, side)
            )
            extra = model.unseen_step() if passing else 0.0
            rest = None if dice is None else dice[used:]
            for action in steps:
                for outcome, n, _, p in seen_outcomes(game.ruleset, st, action, rest):
                    if (outcome.state, used + n) not in seen:
                        seen.add((outcome.state, used + n))
                        step = cost + extra + model.cost(p)
                        nxt.append((outcome.state, step, events + outcome.events, used + n))
        if found:
            break
        nxt.sort(key=lambda step: step[1])  # the likeliest kept (stable among equals)
        frontier = nxt[:REACH_WIDTH]
    return found


def price(unseen: Unseen, seen: Seen | None) -> float:
    """What a story pays for ``unseen`` steps on the ``seen`` dice
    (:func:`~assistant.replay.engine_model.price`)."""
    seen_n = len(seen or ())
    return model.price(unseen.events, unseen.extra_cost, unseen.used, seen_n, unseen.dice_seen)


def steps_from(game: ReplayGame, state: GameState, seen: Seen | None = None) -> list[UnseenStep]:
    """:func:`_steps`, remembered in ``game.unseen_steps`` for the replay under way: the
    searches for the footage's removals and moves reach the same states on the same seen dice
    again (half of their steps, in a whole battle). The steps are a function of the state and
    the seen dice alone (``GameState`` equality covers everything the rules read), so a
    remembered answer is the one the search would work out again."""
    key = (state, None if seen is None else tuple(seen))
    try:
        return game.unseen_steps[key]
    except KeyError:
        pass
    found = _steps(game, state, seen)
    game.unseen_steps[key] = found
    return found


def _steps(game: ReplayGame, state: GameState, seen: Seen | None = None) -> list[UnseenStep]:
    """Every unseen step the rules allow now, on every result of its dice (the seen dice
    ``seen`` first): (state after, events, acting unit, seen dice used, all dice seen, the
    step's cost: its unseen results' chance and the pose error of a step read within the
    camera's error of the seen place)."""
    point = decision_point(state, game.ruleset)
    if point.kind is PendingKind.OVER:
        return []
    people = {s.name for s in state.sides if s.role is Role.HUMAN}
    # (action, unit, seen dice its choice used, all of them seen, a player's stand-in, the
    # chance of the AI's choice)
    actions: list[tuple[Action, str, int, bool, bool, float]] = []
    for uid in activations(point):
        if by_controller(point, people):
            try:
                found = seen_branches(partial(game.ai.decide, state, game.ruleset, uid), seen, 64)
            except EngineError:
                continue
            actions += [
                (order.action, uid, dice.used, dice.all_seen, False, dice.probability)
                for order, dice in found
            ]
        else:
            stand_ins = stand_in_actions(game, state, state.unit(uid))
            actions += [(a, uid, 0, True, True, 1.0) for a in stand_ins]
    passing = point.kind in (PendingKind.CHOOSE_UNIT, PendingKind.CONTINUE)
    side_pass = game.adapter.pass_action(state, point.side) if passing and point.side else None
    actions += [(a, a.unit_id or "", 0, True, False, 1.0) for a in unseen_steps(point, side_pass)]
    out: list[UnseenStep] = []
    done: list[tuple[Action, int]] = []  # compared, not hashed: a detail may hold lists
    for action, uid, chose, chose_seen, stand_in, chose_p in actions:
        if (action, chose) in done:
            continue
        done.append((action, chose))
        rest = None if seen is None else seen[chose:]
        acting, extra = state, 0.0
        try:
            if game.ruleset.validate(state, action):
                nearer = within_error(game, state, action) if stand_in else None
                if nearer is None:
                    continue
                acting, extra = nearer
            results = seen_outcomes(game.ruleset, acting, action, rest)
        except EngineError:
            continue
        for o, n, k, p in results:
            after = (
                o.state
                if acting is state
                else stand_back(game, state, o.state, (uid, action.target_id))
            )
            step = extra + model.cost(chose_p * p)
            events = with_activation(game, state, action, o.events)
            out.append((after, events, uid, chose + n, chose_seen and k, step))
    return out


def with_activation(
    game: ReplayGame, state: GameState, action: Action, events: Sequence[Event]
) -> tuple[Event, ...]:
    """``events`` of ``action`` taken in ``state``, led by an activation event where the
    table adapter says the action begins an activation its rules do not report
    (:meth:`~assistant.tables.base.TableAdapter.activation_begun`: the Dungeon Crawl's)."""
    uid = game.adapter.activation_begun(state, action)
    if uid is None or not state.has_unit(uid):
        return tuple(events)
    begun = Event(EventType.ACTIVATION, state.round, f"{state.unit(uid).name} activates.", uid)
    return (begun, *events)


def stand_in_actions(game: ReplayGame, state: GameState, unit: Unit) -> tuple[Action, ...]:
    """The actions a player's unit may take where it stands, unseen: the table adapter's
    (:meth:`~assistant.tables.base.TableAdapter.stand_in_actions`), or where it names none
    (the grid games, the card AI's host), the rules' own sample of the unit's legal actions
    that carry no move: its attacks, heals, abilities and pass (``Ruleset.sample_actions``)."""
    own = game.adapter.stand_in_actions(state, unit)
    if own:
        return own
    try:
        sampled = game.ruleset.sample_actions(state, unit.id, SeededDice(0))
    except EngineError:
        return ()
    return tuple(a for a in sampled if a.kind != ActionKind.MOVE and len(a.path) <= 1)


def within_error(
    game: ReplayGame, state: GameState, action: Action
) -> tuple[GameState, float] | None:
    """``state`` with the acting unit or its target moved within the camera's error, where
    the rules allow ``action`` that they refuse at the places the footage shows (a shot at
    the very edge of its range, or past a base its line of sight grazes), and the extra cost
    of that reading; None when there is none. Tried in turn, :data:`~assistant.replay.engine_model.NEARBY_SHARE` of the
    camera's position tolerance away, then :data:`~assistant.replay.engine_model.FAR_REACH_IN` further: the unit nearer
    its target, the target to either side of the line between them, the unit to either
    side. :func:`stand_back` puts them back after the action."""
    if action.unit_id is None or action.target_id is None:
        return None
    if not state.has_unit(action.target_id):
        return None
    unit, target = state.unit(action.unit_id), state.unit(action.target_id)
    gap_in = math.dist(unit.position, target.position)
    if gap_in <= 0.0 or not target.on_table:
        return None
    ux, uy = (target.x - unit.x) / gap_in, (target.y - unit.y) / gap_in
    for reach_in, cost in error_reaches(game.tolerances.position_in):
        tries = (
            (unit, ux, uy),
            (target, -uy, ux),
            (target, uy, -ux),
            (unit, -uy, ux),
            (unit, uy, -ux),
        )
        for moved, dx, dy in tries:
            x, y = moved.x + dx * reach_in, moved.y + dy * reach_in
            there = game.adapter.place(state, moved.id, x, y, moved.heading_deg)
            if not game.ruleset.validate(there, action):
                return there, cost
    return None


def stand_back(
    game: ReplayGame, seen: GameState, after: GameState, units: Sequence[str | None]
) -> GameState:
    """``after`` with ``units`` back where ``seen`` has them (those still on the table,
    facing as the rules left them)."""
    for uid in units:
        if uid is None or not seen.has_unit(uid) or not after.unit(uid).on_table:
            continue
        x, y = seen.unit(uid).position
        after = game.adapter.place(after, uid, x, y, after.unit(uid).heading_deg)
    return after


def _still(before: GameState, after: GameState, may_leave: frozenset[str], still_in: float) -> bool:
    """No model moved more than ``still_in`` inches; none left the table but those in
    ``may_leave``."""
    for unit in before.units:
        if not unit.on_table:
            continue
        now = after.unit(unit.id)
        if not now.on_table:
            if unit.id in may_leave:
                continue
            return False
        if math.dist(now.position, unit.position) > still_in:
            return False
    return True


def unseen_events(
    unseen: Unseen,
    state: GameState,
    t: float,
    per_side: dict[str, int],
    seen: Seen | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Timeline events and activation steps for unseen steps dated ``t`` (seconds), taken on
    the ``seen`` dice: the rounds and activations are known from the rules, the dice results
    are unknown. Each event's ``p`` is the model's probability of its step (its unseen
    results, its pose error and, for an activation or a round begun, that it left no trace)."""
    events: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    current = state
    rnd = state.round
    for i, ev in enumerate(unseen.events):
        kind = str(ev.type)
        p = unseen.event_p[i] if i < len(unseen.event_p) else 1.0
        rolled = i < len(unseen.dice_seen) and unseen.dice_seen[i]
        traceless = model.traceless_probability(unseen.used, len(seen or ()), rolled)
        if ev.type == EventType.ROUND_START:
            rnd = ev.round
            per_side.update(dict.fromkeys(per_side, 0))
            events.append(
                event(
                    t,
                    "round_start",
                    f"Round {ev.round} begins.",
                    round=ev.round,
                    known="rules",
                    p=p * traceless,
                )
            )
            continue
        if ev.type == EventType.ACTIVATION and ev.unit:
            unit = current.unit(ev.unit) if current.has_unit(ev.unit) else None
            if unit is None:
                continue
            n = per_side.get(unit.side, 0) + 1
            per_side[unit.side] = n
            text = (
                f"Round {rnd}: {unit.name} activates (activation {n} of {unit.side} this "
                "round; not seen: it moved no model)."
            )
            events.append(
                event(
                    t,
                    "activation",
                    text,
                    unit.id,
                    side=unit.side,
                    round=rnd,
                    side_activation=n,
                    known="rules",
                    how="the rules' next step; the footage shows no move",
                    p=p * traceless,
                )
            )
            steps.append(
                {
                    "t": round(t, 3),
                    "t_start": round(t, 3),
                    "label": f"{unit.name} acts where it stands (round {rnd}, not seen)",
                    "tags": [],
                    "unit": unit.id,
                    "known": "rules",
                }
            )
            continue
        details = {k: v for k, v in ev.data if k not in _RESERVED}
        known = "rules"
        if kind in DICE_EVENTS:
            known = "seen" if i < len(unseen.dice_seen) and unseen.dice_seen[i] else "unknown"
        text = ev.text + (" (the dice were not seen)" if known == "unknown" else "")
        events.append(event(t, kind, text, ev.unit, known=known, p=p, **details))
    return events, steps
