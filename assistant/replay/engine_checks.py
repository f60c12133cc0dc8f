"""The footage's moves checked against the rules, for a replay without a log: the AI's order
at that moment and how the real move compares with it; whether a player's move is legal.

Both also name the legal actions the move could have been (the table adapter's reading), for
the engine to resolve. Inches, degrees and seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from assistant.replay.engine_branches import branches, seen_branches
from assistant.replay.engine_game import ReplayGame
from assistant.replay.engine_leads import leads_into
from assistant.replay.engine_model import INFERRED_POSITION_IN
from assistant.replay.reconstruct import PieceMove
from assistant.replay.records import SEEN
from assistant.session.observation import PieceSeen
from assistant.tables.base import Tolerances
from engine.actions import Action, Order
from engine.decision import activations, decision_point
from engine.errors import EngineError
from engine.geometry import wrap180
from engine.model import GameState, Unit

SOURCE = "engine"


def event(t: float, kind: str, text: str, unit: str | None = None, **extra: Any) -> dict[str, Any]:
    """One timeline event from the engine (seconds); ``p`` among ``extra``: how sure the
    replay is of it (the likelihood model's probability of the step that gave it; 1, when not
    given, for what follows from the rules and the footage alone)."""
    item: dict[str, Any] = {"t": round(t, 3), "kind": kind, "text": text}
    if unit is not None:
        item["unit"] = unit
    item["source"] = SOURCE
    item["p"] = sure(float(extra.pop("p", 1.0)))
    item.update(extra)
    return item


def sure(p: float) -> float:
    """A probability as the timeline writes it: three significant figures, at most 1."""
    return float(f"{min(p, 1.0):.3g}")


@dataclass(frozen=True)
class Check:
    """What the footage says about one move before the engine resolves it."""

    events: tuple[dict[str, Any], ...]
    verdict: str
    """The step label's ending: ", followed the order", ", legal" ..."""
    actions: tuple[Action, ...]
    unfollowed: tuple[Action, ...] = ()
    """The AI's order where the move does not carry out what it expects: its dice may still
    leave the unit where the footage shows it (a monster that rolls a 1 and retreats, a
    blow that pushes its striker back), so it is tried, and kept only where it does."""
    carried: tuple[dict[str, Any], ...] = ()
    """The events told instead of ``events`` where ``unfollowed`` is what the move carried
    out: the order, then that the unit followed it where its dice left it."""


def check_ai(game: ReplayGame, state: GameState, unit: Unit, move: PieceMove) -> Check:
    """The AI's order for the unit (on the die results that fit the footage best, when its
    choice takes a roll) and how the real move compares with it."""
    tol = tolerances_for(game, move)
    try:
        if unit.id not in activations(decision_point(state, game.ruleset)):
            # the story reached the move off the rules' turn order (a misread): the AI
            # decides only for a unit the rules let act
            raise EngineError("the rules do not let it act now")
        found = branches(lambda dice: game.ai.decide(state, game.ruleset, unit.id, dice), 64)
    except EngineError as exc:
        text = f"No AI order for {unit.name}: {exc}"
        note = event(move.t_end, "order", text, unit.id)
        moved = game.adapter.replay_move(state, game.ruleset, unit, seen_at(move), tol.position_in)
        return Check((note,), "", moved.actions)
    sampled = not found
    if sampled:
        # too many results to try them all (a random move, then a card): a few spread ones,
        # kept when the move carries one out
        try:
            spread = seen_branches(
                lambda dice: game.ai.decide(state, game.ruleset, unit.id, dice),
                None,
                64,
                spread=True,
            )
        except EngineError:
            spread = []
        found = [(order, ()) for order, _ in spread if _fits(game, state, order, move, tol)]
    if not found:
        # the order turns on cards or dice the footage cannot show: the move is judged by the
        # rules, as a player's is
        judged = check_human(game, state, unit, move)
        text = (
            f"The AI's order for {unit.name} is not worked out: it turns on cards or dice "
            "the footage does not show. The move is checked against the rules."
        )
        note = event(move.t_start, "order", text, unit.id)
        return Check((note, *judged.events), judged.verdict, judged.actions)

    def miss(order: Order) -> tuple[bool, float, float]:
        exp = game.adapter.expectation(state, order)
        off_in = math.dist((exp.x_in, exp.y_in), move.to_in)
        fits = _fits(game, state, order, move, tol)
        return (not fits, off_in, facing_off(move, exp.heading_deg))

    order = min((o for o, _ in found), key=miss)
    exp = game.adapter.expectation(state, order)
    said = game.adapter.order_text(state, order)
    extra = ""
    if sampled:
        extra = (
            " (its choice turns on cards or dice the footage does not show; this is one they "
            "could give, and the move carries it out)"
        )
    elif len(found) > 1 or order.rolls:
        extra = (
            " (its choice took a die roll; of the results the die could give, the one "
            "that fits the footage best is shown)"
        )
    events = [
        event(
            move.t_start,
            "order",
            f"AI order: {said} Rule: {order.rule}.{extra}",
            unit.id,
            rule=order.rule,
            reason=order.reason,
            order=order.to_json(),
        )
    ]
    off_in = math.dist((exp.x_in, exp.y_in), move.to_in)
    off_deg = facing_off(move, exp.heading_deg)
    etol = exp.tolerances(tol)
    ordered = {"ordered_to": [round(exp.x_in, 3), round(exp.y_in, 3), round(exp.heading_deg, 1)]}
    figures: dict[str, Any] = {"off_in": round(off_in, 3), "off_deg": round(off_deg, 1)}
    if not move.facing_known:
        # Its tag was hidden at the new place: where it stands is known, its facing is not.
        figures = {"off_in": round(off_in, 3), "facing_known": False}
    facing_note = "" if move.facing_known else " (its facing there could not be seen)"
    followed = False
    if exp.off_table:
        text = (
            f"{unit.name} was ordered off the table, but the footage shows it set down at "
            f"({move.to_in[0]:.1f}, {move.to_in[1]:.1f}) in."
        )
        events.append(event(move.t_end, "order_check", text, unit.id, followed=False, **ordered))
    elif leads_into(game, state, unit, order.action, seen_at(move), tol.position_in):
        followed = True
        text = (
            f"{unit.name} followed the order: the move is the run it leads into, ending "
            f"({move.to_in[0]:.1f}, {move.to_in[1]:.1f}) in."
        )
        events.append(event(move.t_end, "order_check", text, unit.id, followed=True, **ordered))
    elif off_in <= etol.position_in and off_deg <= etol.facing_deg:
        followed = True
        text = (
            f"{unit.name} followed the order ({off_in:.2f} in and {off_deg:.0f} degrees "
            "from where it was told)."
            if move.facing_known
            else f"{unit.name} followed the order ({off_in:.2f} in from where it was told"
            f"{facing_note})."
        )
        events.append(
            event(move.t_end, "order_check", text, unit.id, followed=True, **ordered, **figures)
        )
    else:
        parts = []
        if off_in > etol.position_in:
            parts.append(f"{off_in:.1f} in")
        if off_deg > etol.facing_deg:
            parts.append(f"{off_deg:.0f} degrees of facing")
        text = (
            f"{unit.name} differs from the order by {' and '.join(parts)}: told to "
            f"({exp.x_in:.1f}, {exp.y_in:.1f}) facing {exp.heading_deg:.0f}, set down at "
            f"({move.to_in[0]:.1f}, {move.to_in[1]:.1f})"
            + (f" facing {move.heading_to_deg:.0f}." if move.facing_known else f"{facing_note}.")
        )
        events.append(
            event(move.t_end, "order_check", text, unit.id, followed=False, **ordered, **figures)
        )
    moved = game.adapter.replay_move(state, game.ruleset, unit, seen_at(move), tol.position_in)
    actions = ((order.action,) if followed else ()) + moved.actions
    verdict = ", followed the order" if followed else ", differs from the order"
    unfollowed: tuple[Action, ...] = ()
    carried: tuple[dict[str, Any], ...] = ()
    if not followed and order.action not in actions:
        unfollowed = (order.action,)
        text = (
            f"{unit.name} followed the order: a result of its dice moves it, as the rules "
            f"say, to ({move.to_in[0]:.1f}, {move.to_in[1]:.1f}) in, where it was set down."
        )
        check = event(move.t_end, "order_check", text, unit.id, followed=True, **ordered)
        carried = (events[0], check)
    return Check(tuple(events), verdict, actions, unfollowed, carried)


def _fits(
    game: ReplayGame, state: GameState, order: Order, move: PieceMove, tol: Tolerances
) -> bool:
    """The move the footage shows carries out ``order`` (within the camera's tolerances)."""
    exp = game.adapter.expectation(state, order)
    etol = exp.tolerances(tol)
    return (
        not exp.off_table
        and math.dist((exp.x_in, exp.y_in), move.to_in) <= etol.position_in
        and facing_off(move, exp.heading_deg) <= etol.facing_deg
    )


def check_human(game: ReplayGame, state: GameState, unit: Unit, move: PieceMove) -> Check:
    """Whether the player's move is legal, and the actions it could have been."""
    slack_in = tolerances_for(game, move).position_in
    moved = game.adapter.replay_move(state, game.ruleset, unit, seen_at(move), slack_in)
    if moved.legal:
        text = f"{unit.name}'s move of {move.distance_in:.1f} in is legal"
        if moved.nudged:
            text += f" (within the {slack_in:g} in the camera allows)"
        verdict_event = event(move.t_end, "legality", text + ".", unit.id, legal=True)
    else:
        text = f"{unit.name}'s move is not legal: {moved.reason}."
        verdict_event = event(
            move.t_end, "legality", text, unit.id, legal=False, reason=moved.reason
        )
    verdict = ", legal" if moved.legal else ", not legal"
    return Check((verdict_event,), verdict, moved.actions)


def tolerances_for(game: ReplayGame, move: PieceMove) -> Tolerances:
    """The camera's tolerances for judging ``move``: wider in position when its place was
    found from the picture rather than read from its tag."""
    tol = game.tolerances
    if move.known == SEEN or tol.position_in >= INFERRED_POSITION_IN:
        return tol
    return replace(tol, position_in=INFERRED_POSITION_IN)


def facing_off(move: PieceMove, heading_deg: float) -> float:
    """Degrees between the facing the footage shows and ``heading_deg``; 0 when the footage
    could not show the facing at the new place (it is not judged)."""
    if not move.facing_known:
        return 0.0
    return abs(wrap180(move.heading_to_deg - heading_deg))


def seen_at(move: PieceMove) -> PieceSeen:
    """Where and how the footage shows the piece set down."""
    return PieceSeen(move.to_in[0], move.to_in[1], move.heading_to_deg)
