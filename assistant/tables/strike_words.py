"""The strike system's orders and strike counts in words, as said at the table.

"Reaver Mott: take a 2 from the Marauders' dice; move 5 inches toward Captain Idris and strike
Captain Idris: count 4 against Toughness 3 (Reaver Mott 3, Slinger Vey 1; not counted: Brute
Gol, the first ally it is obscured to). Captain Idris is removed." Inches throughout.
"""

from __future__ import annotations

import math

from assistant.live_view import SightLineView
from assistant.session.announce import inches, landmark
from engine.actions import Action, ActionKind, Order
from engine.geometry import path_cost_in
from engine.model import GameState
from engine.rulesets.strike.count import COVER, OBSCURED, Counted, StrikeCount
from engine.rulesets.strike.state import HOLD, STRIKE, TYPES, card_of, rules_of

CLASS_WORDS = {"clear": "clear", OBSCURED: "obscured", COVER: "in cover"}


def who(state: GameState, entry: Counted) -> str:
    """An ally in a count: "Reaver Mott 3"."""
    return f"{state.unit(entry.unit).name} {entry.weight}"


def count_words(state: GameState, count: StrikeCount) -> str:
    """ "count 4 against Toughness 3 (A 1, B 3; not counted: C, obscured, D, in cover)"."""
    counted = ", ".join(who(state, c) for c in count.counted) or "nobody"
    text = f"count {count.total} against Toughness {count.toughness} ({counted}"
    if count.disregarded:
        dropped = ", ".join(
            f"{state.unit(d.unit).name} ({CLASS_WORDS[d.cls]})" for d in count.disregarded
        )
        text += f"; not counted: {dropped}"
    return text + ")"


def dice_words(faces: list[int]) -> str:
    """ "a 5 and a 6"."""
    said = [f"a {f}" for f in faces]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def action_words(state: GameState, action: Action, count: StrikeCount | None) -> str:
    """What the soldier does (without its name)."""
    unit = state.unit(action.unit_id or "")
    parts: list[str] = []
    path = action.path
    if len(path) > 1 and path_cost_in(path) > 0.05:
        target = state.unit(action.target_id) if action.target_id else None
        toward = target.name if target else landmark(state, path[-1], unit.id)
        parts.append(f"move {inches(path_cost_in(path))} toward {toward}")
        sprint = action.get("sprint_dice") or []
        if sprint:
            skill = next((s.name for s in card_of(unit).skills), "its sprint")
            parts[-1] += f", spending {dice_words(list(sprint))} on {skill}"
    if action.kind == STRIKE and action.target_id:
        target = state.unit(action.target_id)
        strike = f"strike {target.name}"
        if count is not None:
            verdict = f"{target.name} is removed" if count.removed else f"{target.name} stands"
            strike += f": {count_words(state, count)}. {verdict}"
        parts.append(strike)
    elif action.kind == HOLD:
        parts.append("stay where it is")
    elif action.kind == ActionKind.PASS:
        parts.append("end its activation")
    elif not parts:
        parts.append("stay where it is")
    return " and ".join(parts)


def order_instruction(state: GameState, order: Order, count: StrikeCount | None) -> str:
    """The spoken order; a fresh activation first says which die to take."""
    action = order.action
    unit = state.unit(action.unit_id or "")
    lead = ""
    if rules_of(state).acting is None:
        face = card_of(unit).face
        lead = f"take a {face} ({TYPES[face - 1]}) from the {unit.side} dice; "
    return f"{unit.name}: {lead}{action_words(state, action, count)}."


def count_lines(state: GameState, count: StrikeCount) -> tuple[SightLineView, ...]:
    """Each ally's sight line to the target, with whether and how it counts."""
    out = []
    dropped = {d.unit: d for d in count.disregarded}
    gaps = {c.unit: c for c in (*count.counted, *count.disregarded)}
    for seen in count.sightings:
        entry = gaps.get(seen.viewer)
        if entry is None:
            continue
        if seen.viewer in dropped:
            note = f"not counted: {dropped[seen.viewer].reason}"
        else:
            note = f"counts {entry.weight} ({CLASS_WORDS[entry.cls]})"
        cover = "none"
        if seen.cls == COVER and seen.cover_by is not None:
            piece = next((t for t in state.terrain if t.name == seen.cover_by), None)
            cover = piece.cover if piece is not None else "soft"
        out.append(
            SightLineView(
                from_id=seen.viewer,
                to_id=seen.target,
                clear=True,
                cover=cover,
                range_in=round(entry.gap_in, 2),
                note=note,
            )
        )
    return tuple(out)


def moved_distance(action: Action) -> float:
    """Inches the action moves its soldier."""
    return path_cost_in(action.path) if len(action.path) > 1 else 0.0


def straight(a: tuple[float, float], b: tuple[float, float]) -> tuple[tuple[float, float], ...]:
    """A one-leg path (or the spot itself)."""
    return (a, b) if math.dist(a, b) > 0.05 else (a,)
