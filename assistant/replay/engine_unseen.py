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
from typing import TYPE_CHECKING, Any

from assistant.replay.engine_branches import Seen, seen_branches, seen_outcomes
from assistant.replay.engine_checks import event
from engine.actions import Action, Event, EventType
from engine.errors import EngineError
from engine.model import GameState
from engine.protocols import PendingKind
from engine.runner import choice_actions, decline_action

if TYPE_CHECKING:
    from assistant.replay.engine_replay import GameReplayer

#: Unseen steps tried to reach a turn of the unit the footage shows moving (chance steps,
#: passes, choices: no activation).
MAX_HIDDEN_STEPS = 6
#: Game states followed at once in that search (a re-roll of several dice has hundreds).
REACH_WIDTH = 30
PASS_COST = 1.0
"""What a story pays for each unseen pass on the way to a unit's turn."""
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


def play_unseen(
    game: GameReplayer,
    state: GameState,
    goal: Callable[[GameState], bool],
    may_leave: frozenset[str] = frozenset(),
    seen: Seen | None = None,
    exact: bool = False,
) -> list[Unseen]:
    """The stories of fewest unseen steps from ``state`` to a state where ``goal`` holds (at
    most :data:`MAX_RESULTS`, one per state; empty when none within
    :data:`MAX_UNSEEN_STEPS`). Only units in ``may_leave`` may leave the table; no unit
    moves. ``seen``: the seen dice the steps take in order (``exact``: all of them)."""
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
            for after, events, actor, used, all_seen in _steps(game, story.state, rest):
                key = (after, story.used + used)
                if key in visited or not _still(story.state, after, may_leave, still_in):
                    continue
                visited.add(key)
                acted = story.acted + ((actor,) if actor else ())
                known = (used > 0 and all_seen,) * len(events)
                child = Unseen(
                    after,
                    story.events + tuple(events),
                    acted,
                    story.used + used,
                    story.dice_seen + known,
                )
                done = goal(after) and not (exact and seen is not None and key[1] < len(seen))
                (reached if done else nxt).append(child)
        if reached:
            return reached[:MAX_RESULTS]
        if seen is not None:
            nxt.sort(key=lambda u: -u.used)  # stable: the rules' own order among equals
        frontier = nxt[:WIDTH]
    return []


def reach_turn(
    game: GameReplayer, state: GameState, uid: str, dice: Seen | None = None
) -> list[tuple[GameState, float, tuple[Event, ...], int]]:
    """States where ``uid`` may act, reached by steps the footage does not show (chance
    steps, passes), with their cost, the engine's events on the way and the seen dice
    used (with ``dice``: all of them)."""
    Step = tuple[GameState, float, tuple[Event, ...], int]
    frontier: list[Step] = [(state, 0.0, (), 0)]
    found: list[Step] = []
    for _ in range(MAX_HIDDEN_STEPS + 1):
        nxt: list[Step] = []
        seen: set[tuple[GameState, int]] = set()
        for st, cost, events, used in frontier:
            turn = game.adapter.turn(st, game.ruleset)
            if turn.kind == "over":
                continue
            if uid in turn.movers:
                if dice is None or used == len(dice):
                    found.append((st, cost, events, used))
                continue
            pending = game.ruleset.pending(st)
            if pending.kind is PendingKind.CHOICE:  # unseen: every option is a branch
                steps, extra = list(choice_actions(pending)), 0.0
            elif pending.kind is PendingKind.REACTION:  # unseen: declined
                steps, extra = [decline_action(pending)], 0.0
            elif turn.kind == "auto" and turn.action is not None:
                steps, extra = [turn.action], 0.0
            elif turn.may_pass and turn.side is not None:
                steps, extra = [game.adapter.pass_action(st, turn.side)], PASS_COST
            else:
                continue
            rest = None if dice is None else dice[used:]
            for action in steps:
                for outcome, n, _ in seen_outcomes(game.ruleset, st, action, rest):
                    if (outcome.state, used + n) not in seen:
                        seen.add((outcome.state, used + n))
                        nxt.append((outcome.state, cost + extra, events + outcome.events, used + n))
        if found:
            break
        frontier = nxt[:REACH_WIDTH]
    return found


def unseen_cost(unseen: Unseen) -> float:
    """What a story pays for steps the footage does not show: each activation and pass, and
    each round begun, costs 1."""
    counted = (EventType.ACTIVATION, EventType.ROUND_START, "pass")
    return float(sum(1 for ev in unseen.events if ev.type in counted))


def _steps(
    game: GameReplayer, state: GameState, seen: Seen | None = None
) -> list[tuple[GameState, Sequence[Event], str, int, bool]]:
    """Every unseen step the rules allow now, on every result of its dice (the seen dice
    ``seen`` first): (state after, events, acting unit, seen dice used, all dice seen)."""
    turn = game.adapter.turn(state, game.ruleset)
    if turn.kind == "over":
        return []
    # (action, unit, seen dice its choice used, all of them seen)
    actions: list[tuple[Action, str, int, bool]] = []
    if turn.action is not None:
        actions.append((turn.action, turn.action.unit_id or "", 0, True))
    elif turn.kind == "ai":
        for uid in turn.candidates:
            try:
                found = seen_branches(
                    lambda dice, uid=uid: game.ai.decide(state, game.ruleset, uid, dice),
                    seen,
                    64,
                )
            except EngineError:
                continue
            for order, dice in found:
                actions.append((order.action, uid, dice.used, dice.all_seen))
    else:
        for uid in turn.candidates:
            unit = state.unit(uid)
            actions += [(a, uid, 0, True) for a in game.adapter.stand_in_actions(state, unit)]
    if turn.may_pass and turn.side is not None and turn.action is None:
        actions.append((game.adapter.pass_action(state, turn.side), "", 0, True))
    out: list[tuple[GameState, Sequence[Event], str, int, bool]] = []
    done: list[tuple[Action, int]] = []  # compared, not hashed: a detail may hold lists
    for action, uid, chose, chose_seen in actions:
        if (action, chose) in done:
            continue
        done.append((action, chose))
        rest = None if seen is None else seen[chose:]
        try:
            if game.ruleset.validate(state, action):
                continue
            results = seen_outcomes(game.ruleset, state, action, rest)
        except EngineError:
            continue
        out += [(o.state, o.events, uid, chose + n, chose_seen and k) for o, n, k in results]
    return out


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
    unseen: Unseen, state: GameState, t: float, per_side: dict[str, int]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Timeline events and activation steps for unseen steps dated ``t`` (seconds): the rounds
    and activations are known from the rules, the dice results are unknown."""
    events: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    current = state
    rnd = state.round
    for i, ev in enumerate(unseen.events):
        kind = str(ev.type)
        if ev.type == EventType.ROUND_START:
            rnd = ev.round
            per_side.update(dict.fromkeys(per_side, 0))
            events.append(
                event(t, "round_start", f"Round {ev.round} begins.", round=ev.round, known="rules")
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
        events.append(event(t, kind, text, ev.unit, known=known, **details))
    return events, steps
