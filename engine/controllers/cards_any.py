"""The card AI driving a ruleset of its own vocabulary (the narrative rules, RULES §1.7
cross-pairing, D002-01's seed-000 column): its deck lives in the side's controller memory,
and each card's intent picks among the ruleset's sample of legal actions, measured with the
ruleset's table queries (1 square = 1 inch, D002-02).

Aimed Fire -> shoot; Move and Fire -> move and shoot (the move only into the cover its suit
asks for, else a shot standing); Assault -> move into melee; Move -> the move ending nearest
the nearest enemy (Diamonds: farthest); Stay Frosty -> hold (pass).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, ActionKind, Order
from engine.cards import Deck
from engine.dice import RandomSource, choice
from engine.geometry import Point
from engine.model import GameState, Unit
from engine.protocols import Pending, Ruleset
from engine.query import TableQuery
from engine.rulesets.firefight_lite_deck import FULL_DECK, card_name, draw_reading, trigger_squares
from engine.scenario import cell_name

COVER = {"none": 0, "soft": 1, "hard": 2}
MEMORY_DECK = "cards"


def memory_deck(state: GameState, side: str, dice: RandomSource) -> Deck:
    """The side's deck from its controller memory (a fresh shuffled deck the first time)."""
    memory = dict(state.memory_of(side))
    if "draw" not in memory:
        return Deck(
            MEMORY_DECK, dice.shuffle(MEMORY_DECK, FULL_DECK, "set-up: shuffle the card AI's deck")
        )
    return Deck(
        MEMORY_DECK,
        tuple(memory["draw"]),
        tuple(memory.get("discard", ())),
        tuple(memory.get("removed", ())),
    )


def deck_memory(state: GameState, side: str, deck: Deck) -> tuple[tuple[str, object], ...]:
    """The side's memory with the deck written into it."""
    memory = dict(state.memory_of(side))
    memory.update(draw=deck.draw_pile, discard=deck.discard, removed=deck.removed)
    return tuple(sorted(memory.items()))


def _end(unit: Unit, action: Action) -> Point:
    return action.path[-1] if action.path else unit.position


def choose_unit(
    state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
) -> str | None:
    """§4.d with the ruleset's own sight and distance: figures seeing an enemy first, nearest
    first; ties by a roll."""
    query = ruleset.query(state)
    keyed = []
    for uid in pending.candidates:
        unit = state.unit(uid)
        enemies = state.enemies_of(unit)
        seeing = any(query.visible(unit, e) for e in enemies)
        gap = min((query.distance_in(unit, e) for e in enemies), default=0.0)
        keyed.append(((0 if seeing else 1, round(gap, 6)), uid))
    if not keyed:
        return None
    top = min(k for k, _ in keyed)
    return choice(dice, [u for k, u in keyed if k == top], "activation order tie")


def _nearest_gap(query: TableQuery, unit: Unit, at: Point, enemies: Sequence[Unit]) -> float:
    from engine.geometry import edge_gap_in

    return min(
        (edge_gap_in(at, unit.radius_in, e.position, e.radius_in) for e in enemies), default=0.0
    )


def _named(unit: Unit) -> str:
    """ "the Varlet at D6" (its square on a grid), else its name."""
    return f"{unit.name} at {cell_name(unit.cell)}" if unit.cell is not None else unit.name


def decide(state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
    """The figure's card, read through the ruleset's vocabulary."""
    unit = state.unit(unit_id)
    sample = ruleset.sample_actions(state, unit.id, dice)
    if not sample:
        return Order(Action(ActionKind.PASS, unit.id, side=unit.side), "no action", "nothing to do")
    kinds = {str(a.kind) for a in sample}
    if kinds & {str(ActionKind.FLEE), str(ActionKind.CONTINUE_MELEE)}:
        return Order(sample[0], "forced", "the rules decide this action (no card is drawn)")
    deck = memory_deck(state, unit.side, dice)
    drawn, deck, _ = draw_reading(deck, dice, f"action card for {_named(unit)}")
    memory = deck_memory(state, unit.side, deck)
    action, rule, reason = _pick(state, ruleset, unit, drawn, sample)
    return Order(action, f"{card_name(drawn)}: {rule}", reason, memory=memory)


def _pick(
    state: GameState, ruleset: Ruleset, unit: Unit, drawn: str, sample: list[Action]
) -> tuple[Action, str, str]:
    query = ruleset.query(state)
    enemies = state.enemies_of(unit)
    shots = [a for a in sample if a.kind == ActionKind.SHOOT]
    mas = [a for a in sample if a.kind == ActionKind.MOVE_AND_SHOOT]
    charges = [a for a in sample if a.kind == ActionKind.MOVE_INTO_MELEE]
    moves = [a for a in sample if a.kind == ActionKind.MOVE and a.path]
    hold = next((a for a in sample if a.kind == ActionKind.PASS), sample[0])
    n = trigger_squares(drawn)
    suit = drawn[-1]

    def gap(e_id: str | None) -> float:
        return query.distance_in(unit, state.unit(e_id or ""))

    fire = [a for a in shots if n is None or gap(a.target_id) <= n]
    fire_mas = [a for a in mas if n is None or gap(a.target_id) <= n]
    if fire or fire_mas:
        closest = min(gap(a.target_id) for a in [*fire, *fire_mas])
        target = next(a.target_id for a in [*fire, *fire_mas] if gap(a.target_id) == closest)
        name = state.unit(target or "").name
        standing = next((a for a in fire if a.target_id == target), None)
        if suit == "S" and standing is not None:
            return standing, "aimed fire", f"{name} is in sight"
        need = {"S": 0, "H": 1, "C": 2, "D": 2}[suit]
        here = _nearest_gap(query, unit, unit.position, enemies)
        covered = [
            a
            for a in fire_mas
            if a.target_id == target
            and COVER.get(
                query.cover_at(_end(unit, a), state.unit(target or ""), unit.radius_in), 0
            )
            >= need
            and (suit != "D" or _nearest_gap(query, unit, _end(unit, a), enemies) > here)
        ]
        if covered:
            return covered[0], "move and fire", f"it moves into cover and fires at {name}"
        if standing is not None:
            return standing, "move and fire", f"it fires at {name} without moving"
        pick = next(a for a in fire_mas if a.target_id == target)
        return pick, "move and fire", f"it fires at {name}"
    if suit == "S" and n is not None:
        near = [a for a in charges if gap(a.target_id) <= n]
        if near:
            return near[0], "assault", "an enemy is within reach out of sight"
    if suit == "C" or not moves:
        return hold, "stay frosty", "no enemy in sight within the card's distance"
    if suit == "D":
        here = _nearest_gap(query, unit, unit.position, enemies)
        away = [a for a in moves if _nearest_gap(query, unit, _end(unit, a), enemies) > here]
        if not away:
            return hold, "stay frosty", "it is already as far as it can get"
        best = max(away, key=lambda a: _nearest_gap(query, unit, _end(unit, a), enemies))
        return best, "move away", "discretion: it falls back"
    need = 1 if suit == "H" else 0
    ok = [
        a
        for a in moves
        if not enemies
        or COVER.get(
            query.cover_at(
                _end(unit, a),
                min(enemies, key=lambda e: query.distance_in(unit, e)),
                unit.radius_in,
            ),
            0,
        )
        >= need
    ]
    if not ok:
        return hold, "stay frosty", "no move ends in cover"
    best = min(ok, key=lambda a: _nearest_gap(query, unit, _end(unit, a), enemies))
    return best, "move", "it closes on the nearest enemy"
