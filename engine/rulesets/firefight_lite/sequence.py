"""Firefight-lite's turn flow and the resolution of its actions (RULES §4.c, §4.g, D002-11,
D002-17): whole-side turns, Turn Done marks, Stay Frosty overwatch, defensive reactions of a
figure attacked before it has acted, and the end of the game.

Functions of a state and the dice returning the new state and the events; the ruleset
(``firefight_lite.py``) validates first.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Event, event
from engine.boards.grid import table_grid
from engine.dice import RandomSource
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState, Role, Unit, UnitStatus, evolve
from engine.rulesets.firefight_lite.board import cell, figures, monk_shielded, sees
from engine.rulesets.firefight_lite.combat import melee, shoot
from engine.rulesets.firefight_lite.deck import JOKER, joker_reshuffle, ready
from engine.rulesets.firefight_lite.state import (
    DECK,
    FROSTY,
    FFState,
    FFUnit,
    card,
    hostile,
    is_combatant,
)
from engine.turns import Choice, Continuing, Reacting, TurnOrder

ATTACKS = frozenset({"aimed_fire", "move_and_fire", "assault"})
STARTS = frozenset({"move", "aimed_fire", "move_and_fire", "assault"})
"""Actions that spend a General die: an overwatcher may fire as they start (§4.f Stay Frosty)."""
DEFAULT_ROUNDS = 8


def rules(state: GameState) -> FFState:
    """The ruleset's part of the state."""
    assert isinstance(state.rules, FFState)
    return state.rules


def with_rules(state: GameState, **changes: Any) -> GameState:
    """The state with some of its rules fields changed."""
    return evolve(state, rules=evolve(rules(state), **changes))


def combatant_sides(state: GameState) -> tuple[str, ...]:
    """The NPC's and the player's sides, in scenario order."""
    return tuple(s.name for s in state.sides if s.role is not Role.NEUTRAL)


def neutral_side(state: GameState) -> str | None:
    """The neutral side's name, if the scenario has one."""
    side = state.side_of_role(Role.NEUTRAL)
    return side.name if side else None


def place(state: GameState, unit: Unit, at: Cell, heading: float | None = None) -> GameState:
    """The unit standing in square ``at`` (on the table)."""
    x, y = table_grid(state).centre(at)
    moved = evolve(
        unit,
        x=x,
        y=y,
        cell=at,
        status=UnitStatus.ACTIVE,
        heading_deg=unit.heading_deg if heading is None else heading % 360.0,
    )
    return state.with_unit(moved)


def heading_of(a: Cell, b: Cell) -> float | None:
    """The grid facing (multiple of 45 degrees) of the step from ``a`` towards ``b``."""
    dc, dr = (b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1])
    steps = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
    return None if (dc, dr) == (0, 0) else 45.0 * steps.index((dc, dr))


def move_unit(
    state: GameState, unit_id: str, to: Cell, word: str = "moves", *, by_event: bool = False
) -> tuple[GameState, Event]:
    """The unit moved to square ``to`` (the path was validated), with its move event;
    ``by_event``: a random event moved it (no order or declaration did: the player is told)."""
    from engine.scenario import cell_name

    unit = state.unit(unit_id)
    start = unit.position
    state = place(state, unit, to, heading_of(cell(unit), to))
    end = state.unit(unit_id).position
    ev = event(
        "move",
        state.round,
        f"{unit.name} {word} to {cell_name(to)}.",
        unit_id,
        path=[list(start), list(end)],
        cell=list(to),
        **({"by": "event"} if by_event else {}),
    )
    return state, ev


def discard_card(state: GameState, action: Action) -> GameState:
    """The card an action names (an AI's action or defence card) put on the discard pile."""
    drawn = action.get("card")
    if not drawn or not state.decks:
        return state
    deck = state.deck(DECK)
    pile = list(deck.draw_pile)
    pile.remove(drawn)
    state = state.with_deck(evolve(deck, draw_pile=tuple(pile)).discarded(drawn))
    if action.unit_id and state.has_unit(action.unit_id):
        unit = state.unit(action.unit_id)
        if isinstance(unit.rules, FFUnit):
            state = state.with_unit(evolve(unit, rules=evolve(unit.rules, last_card=drawn)))
    return state


def reshuffle(state: GameState, dice: RandomSource) -> GameState:
    """A Joker named by a ``reshuffle`` action: discarded, then D002-03's reshuffle."""
    state = discard_card(state, Action("reshuffle", detail=(("card", JOKER),)))
    return state.with_deck(joker_reshuffle(state.deck(DECK), dice))


def keep_deck_ready(state: GameState, dice: RandomSource) -> GameState:
    """An empty draw pile is refilled from the discard pile (D002-04) before anyone draws."""
    if not state.decks:
        return state
    deck = state.deck(DECK)
    return state if deck.draw_pile else state.with_deck(ready(deck, dice))


def can_defend(state: GameState, target: Unit) -> bool:
    """An attacked figure reacts when it is a combatant not yet Turn Done (D002-11)."""
    return target.on_table and is_combatant(target) and not target.activated


def begin(state: GameState, action: Action, dice: RandomSource) -> tuple[GameState, list[Event]]:
    """A unit starts an action: its Turn Done mark, the overwatchers that see it fire first
    (Stay Frosty; not one that a monk could shield the figure from, K♥), then the action
    itself."""
    unit = state.unit(action.unit_id or "")
    if not unit.activated or FROSTY in unit.statuses:
        unit = evolve(unit, activated=True, statuses=unit.statuses - {FROSTY})
        state = state.with_unit(unit)
    if str(action.kind) in STARTS and is_combatant(unit):
        for watcher in state.units:
            if (
                watcher.on_table
                and FROSTY in watcher.statuses
                and watcher.id not in rules(state).asked
                and hostile(watcher, unit)
                and chebyshev(cell(watcher), cell(unit)) <= card(watcher).range
                and sees(state, watcher, unit)
                and not monk_shielded(state, cell(watcher), cell(unit))
            ):
                trigger = event(
                    "overwatch",
                    state.round,
                    f"{unit.name} starts an action in sight of {watcher.name}, on overwatch.",
                    unit.id,
                    watcher=watcher.id,
                )
                state = with_rules(
                    state, reacting=watcher.id, reaction="overwatch", trigger=trigger, held=action
                )
                return state, [trigger]
    state = with_rules(state, asked=())
    return carry_out(state, action, dice)


def carry_out(
    state: GameState, action: Action, dice: RandomSource
) -> tuple[GameState, list[Event]]:
    """The action after any overwatch: its move part, then its attack (which may wait for the
    target's defence)."""
    kind = str(action.kind)
    unit = state.unit(action.unit_id or "")
    events: list[Event] = []
    if not unit.on_table:
        return state, events
    to = action.get("cell")
    if kind in ("move", "move_and_fire", "assault") and to is not None and not action.get("moved"):
        target_cell = (int(to[0]), int(to[1]))
        if target_cell != cell(unit):
            state, ev = move_unit(state, unit.id, target_cell)
            events.append(ev)
        action = evolve(action, detail=(*action.detail, ("moved", True)))
    if kind == "stay_frosty":
        unit = state.unit(unit.id)
        state = state.with_unit(evolve(unit, statuses=unit.statuses | {FROSTY}))
        events.append(event("stay_frosty", state.round, f"{unit.name} stays frosty.", unit.id))
    if kind == "hold":
        events.append(event("hold", state.round, f"{unit.name} holds.", unit.id))
    if kind == "serve":
        state, ev = serve(state, unit.id, action.target_id or "")
        events.append(ev)
    if kind not in ATTACKS:
        return state, events
    target = state.unit(action.target_id or "")
    if not target.on_table:
        return state, events
    if can_defend(state, target):
        trigger = event(
            "attacked",
            state.round,
            f"{state.unit(unit.id).name} attacks {target.name}, who has not acted yet.",
            target.id,
            attacker=unit.id,
            attack=kind,
        )
        state = with_rules(
            state, reacting=target.id, reaction="defence", trigger=trigger, held=action
        )
        return state, [*events, trigger]
    state, more = attack(state, action, dice)
    return state, [*events, *more]


def attack(state: GameState, action: Action, dice: RandomSource) -> tuple[GameState, list[Event]]:
    """The attack part of an action: an Aimed Fire (+1), a Move and Fire shot or a melee."""
    kind = str(action.kind)
    if kind == "assault":
        return melee(state, action.unit_id or "", action.target_id or "", dice)
    return shoot(
        state, action.unit_id or "", action.target_id or "", dice, aimed=kind == "aimed_fire"
    )


def attack_still_possible(state: GameState, action: Action) -> bool:
    """Whether the attacker can still carry the attack out (sight and range for a shot,
    contact for a melee)."""
    shooter = state.unit(action.unit_id or "")
    target = state.unit(action.target_id or "")
    if not shooter.on_table or not target.on_table:
        return False
    gap = chebyshev(cell(shooter), cell(target))
    if str(action.kind) == "assault":
        return gap <= 1
    return gap <= card(shooter).range and sees(state, shooter, target)


def serve(state: GameState, bot_id: str, target_id: str) -> tuple[GameState, Event]:
    """The dispenser bot offers a snack to an adjacent figure (J♥); once every living figure
    has been served, its list starts again."""
    bot = state.unit(bot_id)
    target = state.unit(target_id)
    served = bot.rules.served if isinstance(bot.rules, FFUnit) else ()
    served = (*served, target_id)
    living = {u.id for u in state.units if u.on_table and is_combatant(u)}
    if living <= set(served):
        served = ()
    rules_now = bot.rules if isinstance(bot.rules, FFUnit) else FFUnit()
    state = state.with_unit(evolve(bot, rules=evolve(rules_now, served=served)))
    text = f"{bot.name} offers {target.name} a synth-meat pie."
    return state, event("serve", state.round, text, bot_id, target=target_id)


def sight_ok(state: GameState, shooter: Unit, at: Cell, target: Unit) -> bool:
    """Sight and range from square ``at`` to the target."""
    return chebyshev(at, cell(target)) <= card(shooter).range and figures(state).sees(
        shooter, at, cell(target)
    )


def end_check(state: GameState) -> tuple[GameState, list[Event]]:
    """The game ends when a combatant side has no figure on the table (the other wins, or a
    draw when both are gone)."""
    if state.winner is not None:
        return state, []
    standing = [s for s in combatant_sides(state) if state.units_of(s)]
    if len(standing) == 2:
        return state, []
    winner = standing[0] if standing else "draw"
    reason = "the other side has no figure left" if standing else "no figure is left"
    return finish(state, winner, reason)


def finish(state: GameState, winner: str, reason: str) -> tuple[GameState, list[Event]]:
    """The end of the game, with its ``end`` event."""
    state = evolve(
        state,
        winner=winner,
        end_reason=reason,
        rules=evolve(rules(state), phase="over", reacting=None, held=None, acting=None),
    )
    said = "The game is a draw" if winner == "draw" else f"{winner} win"
    return state, [event("end", state.round, f"{said}: {reason}.", winner=winner)]


def end_of_rounds(state: GameState) -> tuple[GameState, list[Event]]:
    """After the last turn: the side with more figures standing wins (equal: a draw)."""
    counts = {s: len(state.units_of(s)) for s in combatant_sides(state)}
    ordered = sorted(counts.items(), key=lambda kv: -kv[1])
    if len(ordered) == 2 and ordered[0][1] == ordered[1][1]:
        return finish(state, "draw", "the last turn is over with equal numbers standing")
    return finish(state, ordered[0][0], "the last turn is over and it has more figures standing")


def new_turn(state: GameState, events_on: bool) -> GameState:
    """End of turn: Turn Done marks cleared (§4.c step 5); the next turn starts with its
    Random Events phase (or the initiative when events are off)."""
    units = tuple(
        evolve(
            u,
            activated=False,
            rules=evolve(u.rules, turn_start=u.cell)
            if isinstance(u.rules, FFUnit)
            else FFUnit(turn_start=u.cell),
        )
        for u in state.units
    )
    return evolve(
        state,
        round=state.round + 1,
        units=units,
        rules=evolve(
            rules(state),
            phase="event" if events_on else "initiative",
            first=None,
            acting_side=None,
            initiative_winner=None,
        ),
    )


def settle(
    state: GameState, dice: RandomSource, events_on: bool, max_rounds: int
) -> tuple[GameState, list[Event]]:
    """Skip the phases that have nothing to wait for: a neutral phase with nobody to move, a
    half-turn with nobody left to act, the end of a turn; the game's end."""
    out: list[Event] = []
    if state.decks and not state.deck(DECK).draw_pile:
        state = keep_deck_ready(state, dice)
        out.append(
            event(
                "deck_refilled",
                state.round,
                "The draw pile is empty: the discard pile is shuffled into a new draw pile.",
            )
        )
    state, ended = end_check(state)
    if ended:
        return state, [*out, *ended]
    for _ in range(8):
        r = rules(state)
        if r.reacting or r.acting or r.phase in ("setup", "event", "initiative", "order", "over"):
            break
        if r.phase == "neutral":
            side = neutral_side(state)
            if side and any(not u.activated for u in state.units_of(side)):
                break
            state = with_rules(state, phase="sides", acting_side=r.first)
            continue
        side = r.acting_side or ""
        if any(not u.activated for u in state.units_of(side)):
            break
        if side == r.first:
            other = next(s for s in combatant_sides(state) if s != side)
            state = with_rules(state, acting_side=other)
            continue
        if state.round >= max_rounds:
            state, ended = end_of_rounds(state)
            return state, [*out, *ended]
        state = new_turn(state, events_on)
        out.append(event("round_start", state.round, f"Turn {state.round}."))
    return state, out


def turn_done_all(state: GameState) -> GameState:
    """Every figure marked Turn Done (the artillery barrage, Q♠)."""
    return evolve(state, units=tuple(evolve(u, activated=True) for u in state.units))


_CHANCE_PHASES = {"setup": "shuffle the deck", "event": "random event", "initiative": "initiative"}


def _reacting(state: GameState) -> Reacting | None:
    r = rules(state)
    return None if r.reacting is None else Reacting(r.reacting, r.trigger, r.reaction)


def _acting(state: GameState) -> Continuing | None:
    acting = rules(state).acting
    return None if acting is None else Continuing(acting, may_pass=False)


def _chance_due(state: GameState) -> str | None:
    return _CHANCE_PHASES.get(rules(state).phase)


def _order_choice(state: GameState) -> Choice | None:
    r = rules(state)
    if r.phase != "order":
        return None
    return Choice(r.initiative_winner, ("first", "second"), "initiative: act first or second")


def _sides(state: GameState) -> tuple[str, ...]:
    """The neutral movers' side in the neutral phase, else the side acting."""
    r = rules(state)
    side = neutral_side(state) if r.phase == "neutral" else r.acting_side
    return () if side is None else (side,)


def _ready(state: GameState, side: str) -> tuple[str, ...]:
    return tuple(u.id for u in state.units_of(side) if not u.activated)


TURNS = TurnOrder(
    sides=_sides,
    ready=_ready,
    choice=_order_choice,
    reacting=_reacting,
    acting=_acting,
    chance=_chance_due,
    remember=True,
)
"""The FF-lite turn (§4.c): the deck's shuffle, the Random Events phase and the initiative
(chance steps), the winner's choice to act first or second, the neutral movers, then each
side activates all its figures; a figure attacked reacts first, a figure drawing again after
a Joker continues (``advance`` moves the phases on, so a side asked always has a figure
ready)."""
