"""What the assistant says at a firefight-lite table: orders spoken with their card, events
with what to do with the real deck (shuffle, set a card aside, place a token)."""

from __future__ import annotations

from assistant.session.announce import event_text
from assistant.tables.base import Turn
from engine.actions import Action, Event, Order
from engine.cards import JOKER
from engine.model import GameState, Unit
from engine.rulesets.firefight_lite.board import squares
from engine.rulesets.firefight_lite.deck import EVENTS, card_name
from engine.rulesets.firefight_lite.sequence import rules
from engine.scenario import cell_name

INTENTS = {
    "aimed_fire": "aimed fire",
    "move_and_fire": "move and fire",
    "assault": "assault",
    "move": "move",
    "stay_frosty": "stay frosty",
    "hold": "hold",
    "return_fire": "return fire",
    "run_for_cover": "run for cover",
    "overwatch_fire": "overwatch fire",
    "pass": "armour",
    "reshuffle": "Joker",
}


def _cell(action: Action) -> tuple[int, int] | None:
    raw = action.get("cell")
    return (int(raw[0]), int(raw[1])) if raw is not None else None


def where(state: GameState, at: tuple[int, int]) -> str:
    """ "the hedge at E5", or "E5" in the open."""
    name = squares(state).names.get(at)
    return f"{name} at {cell_name(at)}" if name else cell_name(at)


def unit_at(unit: Unit) -> str:
    """ "the Varlet at D6"."""
    return f"{unit.name} at {cell_name(unit.cell)}" if unit.cell else unit.name


def _what(state: GameState, action: Action, unit: Unit) -> str:
    kind = str(action.kind)
    to = _cell(action)
    moves = to is not None and to != unit.cell
    target = state.unit(action.target_id).name if action.target_id else ""
    if kind == "aimed_fire":
        return f"it fires at {target}"
    if kind == "move_and_fire":
        if moves and to is not None:
            return f"it moves to {where(state, to)} and fires at {target}"
        return f"it fires at {target} without moving"
    if kind == "assault":
        if moves and to is not None:
            return f"it charges {target} from {where(state, to)}"
        return f"it fights {target}"
    if kind in ("move", "run_for_cover", "move_with") and to is not None:
        verb = {"move": "moves", "run_for_cover": "runs for cover", "move_with": "moves"}[kind]
        return f"it {verb} to {where(state, to)}" if moves else "it stays where it is"
    if kind == "stay_frosty":
        return "it stays frosty and fires at the first enemy to act in its sight"
    if kind == "return_fire":
        return f"it fires back at {target}"
    if kind == "overwatch_fire":
        return f"it fires at {target} as it starts to act"
    if kind == "pass":
        return "it trusts its armour"
    if kind == "serve":
        return f"it offers {target} a synth-meat pie"
    if kind == "leave":
        return "it leaves the table: take its token off"
    return "it holds"


def order_sentence(state: GameState, order: Order) -> str:
    """The spoken order, with its card: "Queen of hearts for the Varlet at D6: move and fire —
    it moves to the hedge at E5 and fires at the Sergeant." """
    action = order.action
    unit = state.unit(action.unit_id or "")
    kind = str(action.kind)
    drawn = action.get("card")
    if kind == "reshuffle":
        return (
            f"Joker for {unit_at(unit)}: shuffle the discard pile and both Jokers back into the "
            "deck (the cards set aside stay out), then draw again."
        )
    what = _what(state, action, unit)
    if drawn:
        return f"{card_name(drawn)} for {unit_at(unit)}: {INTENTS.get(kind, kind)} — {what}."
    name = unit_at(unit)
    return f"{name[0].upper()}{name[1:]}: {what}."


def describe(state: GameState, action: Action) -> str:
    """A short description: "Trooper Vance: move and fire — it moves to E5 and fires at ..."."""
    unit = state.unit(action.unit_id or "") if action.unit_id else None
    if unit is None:
        return str(action.kind)
    return f"{unit.name}: {INTENTS.get(str(action.kind), str(action.kind))} — {_what(state, action, unit)}"


def event_list(done: tuple[str, ...]) -> list[str]:
    """The events that have happened, by card ("K♠ sniper")."""
    return [f"{card_name(c)}: {EVENTS[c]}" for c in done]


def event_words(state: GameState, event: Event) -> str | None:
    """What is said for an engine event: the deck's instructions with the real cards."""
    kind = event.type
    drawn = event.get("card")
    if kind == "random_event" and drawn:
        return (
            f"Random event, {card_name(drawn)}: {event.get('event')}! "
            f"Set the {card_name(drawn)} aside for the rest of the game."
        )
    if kind == "no_event" and drawn == JOKER:
        return "Event card: a Joker. Shuffle the discard pile and both Jokers back into the deck; no event."
    if kind == "no_event" and drawn:
        return f"Event card: {card_name(drawn)}, no event. Put it on the discard pile."
    if kind == "joker":
        return None  # the order said it
    if kind == "selection":
        return f"{event.text} Shuffle every card back into the deck except those set aside."
    if kind == "deck_refilled":
        return "The draw pile is empty: shuffle the discard pile to make a new draw pile."
    if kind == "round_start" and state.round == 1 and "shuffled" in event.text:
        return "Shuffle the deck of 52 cards and both Jokers. Turn 1."
    if kind == "move" and event.get("by") == "event":  # no order or declaration moved it
        return f"{event.text[:-1]}: move the model there."
    if kind == "move":
        return None  # an order or the player's own declaration said it
    return event_text(event)


def turn_prompt(state: GameState, turn: Turn) -> str:
    """What to tell the player on their turn or reaction."""
    r = rules(state)
    if r.reacting is not None:
        unit = state.unit(r.reacting)
        if r.reaction == "defence":
            attacker = state.unit(r.trigger.get("attacker")) if r.trigger else None
            who = attacker.name if attacker else "an enemy"
            return (
                f"{who} attacks {unit.name}, who has not acted yet: armour, return fire, or "
                "run for cover (move it first)?"
            )
        if r.reaction == "event":
            return f"{unit.name} is hit: armour, or run for cover (move it up to half its move)?"
        if r.reaction == "move_with":
            return f"{unit.name} may move with the passing figure: move it next to it, or pass."
        return f"{unit.name} is on overwatch: fire, or hold?"
    if turn.candidates and turn.side and turn.kind == "human":
        if rules(state).phase == "order":
            return "You won the initiative: act first or second?"
        names = ", ".join(state.unit(u).name for u in turn.candidates[:4])
        return f"Your turn: move one of your figures ({names}) square by square, then declare its action."
    return "Your choice."


def declare_prompt(state: GameState, turn: Turn) -> str:
    """The page's question while the player declares."""
    if rules(state).reacting is not None:
        return turn_prompt(state, turn)
    return "Move one figure, then declare: done, aimed fire, move and fire, assault, stay frosty or hold."
