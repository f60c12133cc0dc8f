"""The Random Events phase (RULES §4.c step 1, §4.l, D002-12/13/16): the top card of the
deck; A-10 discarded, a Joker reshuffles, J/Q/K an event that happens once per game (its card
removed from the game).

Neutral figures (monks, the addled citizen, the dispenser bot, the citizen mob, the air mine)
and the NPC's reinforcement are units of the scenario kept in reserve until their event
brings them on; the scenario lists them so the camera knows their tokens.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Event, event
from engine.boards.grid import table_grid
from engine.cards import JOKER, card_rank
from engine.dice import RandomSource
from engine.geometry.grid import Cell, chebyshev
from engine.model import GameState, Role, TerrainPiece, UnitStatus, evolve
from engine.rulesets.firefight_lite import arrivals as arrivals
from engine.rulesets.firefight_lite.board import (
    cell,
    run_for_cover_square,
)
from engine.rulesets.firefight_lite.combat import dodge, take_hit
from engine.rulesets.firefight_lite.deck import (
    EVENTS,
    card_name,
    deal_selection,
    joker_reshuffle,
    ready,
)
from engine.rulesets.firefight_lite.sequence import (
    combatant_sides,
    move_unit,
    rules,
    turn_done_all,
    with_rules,
)
from engine.rulesets.firefight_lite.state import DECK

Result = tuple[GameState, list[Event]]


def event_phase(state: GameState, dice: RandomSource) -> Result:
    """Draw the top card and act on it (§4.c step 1)."""
    state, drawn, head = draw_event_card(with_rules(state, phase="initiative"), dice)
    if drawn is None:
        return state, head
    state = with_rules(state, events_done=(*rules(state).events_done, drawn))
    state, more = HANDLERS[drawn](state, dice)
    state = state.with_deck(state.deck(DECK).with_removed(drawn))
    return state, [*head, *more]


def draw_event_card(
    state: GameState, dice: RandomSource, turn: str = "turn"
) -> tuple[GameState, str | None, list[Event]]:
    """The Random Events card (§4.c step 1, any host; ``turn``: the host's word for a turn): a
    Joker reshuffles the deck (D002-03) and A-10 are discarded, with no event (None); J, Q or K
    is returned with its ``random_event`` line, for the caller to resolve and then remove from
    the game."""
    deck = ready(state.deck(DECK), dice)
    drawn, deck = deck.draw(dice, f"event card, {turn} {state.round}")
    state = state.with_deck(deck)
    if drawn == JOKER:
        state = state.with_deck(joker_reshuffle(state.deck(DECK).discarded(drawn), dice))
        said = "Joker: the deck is reshuffled; no event."
        return state, None, [event("no_event", state.round, said, card=drawn)]
    if card_rank(drawn) not in ("J", "Q", "K"):
        state = state.with_deck(state.deck(DECK).discarded(drawn))
        said = f"{card_name(drawn)}: no event."
        return state, None, [event("no_event", state.round, said, card=drawn)]
    name = EVENTS[drawn]
    head = event(
        "random_event", state.round, f"{card_name(drawn)}: {name}!", card=drawn, event=name
    )
    return state, drawn, [head]


def select(
    state: GameState, dice: RandomSource, ids: list[str], why: str
) -> tuple[GameState, str | None, list[Event]]:
    """§4.h random selection among ``ids`` by dealing cards (then the deck is reshuffled,
    D002-14)."""
    if not ids:
        return state, None, []
    names = {u: state.unit(u).name for u in ids}
    chosen, deck, dealt = deal_selection(state.deck(DECK), dice, ids, why, names)
    state = state.with_deck(deck)
    said = ", ".join(f"{state.unit(u).name} {c}" for u, c in dealt)
    ev = event(
        "selection",
        state.round,
        f"Cards dealt ({said}): {state.unit(chosen).name}.",
        chosen,
        dealt=[[u, c] for u, c in dealt],
    )
    return state, chosen, [ev]


def player_ids(state: GameState) -> list[str]:
    """The player's figures on the table (D002-16: the events that hit \"your\" figures)."""
    human = state.side_of_role(Role.HUMAN)
    return [u.id for u in state.units_of(human.name)] if human else []


def _combatant_ids(state: GameState) -> list[str]:
    return [u.id for side in combatant_sides(state) for u in state.units_of(side)]


HitWaits = Callable[[GameState, str, tuple[int, ...], str], Result]
"""How a host waits for the answer of a figure an event hits (target, hit strengths, what)."""


def sniper(state: GameState, dice: RandomSource) -> Result:
    """K♠ (see :func:`sniper_shot`)."""
    return sniper_shot(state, dice, _event_hit)


def sniper_shot(state: GameState, dice: RandomSource, waits: HitWaits) -> Result:
    """K♠ on any host: 1d6 per player figure; any 6 and a random player figure takes one
    strength-2 hit; it may defend, but not by Return Fire (D002-16: the player chooses)."""
    ids = player_ids(state)
    rolls = [dice.roll(6, f"sniper: {state.unit(u).name}") for u in ids]
    if 6 not in rolls:
        return state, [event("event_effect", state.round, "The sniper finds no shot.", rolls=rolls)]
    state, target, evs = select(state, dice, ids, "sniper target")
    if target is None:
        return state, evs
    state, more = waits(state, target, (2,), "The sniper's laser")
    return state, [*evs, *more]


def booby_trap(state: GameState, dice: RandomSource) -> Result:
    """J♠ (see :func:`booby_trap_hits`)."""
    return booby_trap_hits(state, dice, _event_hit)


def booby_trap_hits(state: GameState, dice: RandomSource, waits: HitWaits) -> Result:
    """J♠ on any host: a random player figure; two dice, each 6 a strength-1 hit (no Return
    Fire)."""
    state, target, evs = select(state, dice, player_ids(state), "booby trap")
    if target is None:
        return state, evs
    rolls = [dice.roll(6, f"booby trap: {state.unit(target).name}") for _ in range(2)]
    hits = rolls.count(6)
    evs.append(
        event(
            "event_effect",
            state.round,
            f"The booby trap: {rolls[0]}, {rolls[1]}: {hits} hit{'s' if hits != 1 else ''}.",
            target,
            rolls=rolls,
            hits=hits,
        )
    )
    if not hits:
        return state, evs
    state, more = waits(state, target, (1,) * hits, "The booby trap")
    return state, [*evs, *more]


def hit_trigger(
    state: GameState, target: str, hits: tuple[int, ...], what: str, **extra: object
) -> Event:
    """The ``event_hit`` line that asks the hit figure for its answer (any host)."""
    said = f"{what} hits {state.unit(target).name}: armour or run for cover?"
    return event("event_hit", state.round, said, target, hits=list(hits), **extra)


def _event_hit(state: GameState, target: str, hits: tuple[int, ...], what: str) -> Result:
    trigger = hit_trigger(state, target, hits, what)
    state = with_rules(
        state, reacting=target, reaction="event", trigger=trigger, event_hits=hits, phase="event"
    )
    return state, [trigger]


def barrage(state: GameState, dice: RandomSource) -> Result:
    """Q♠: 1d6 per figure on the table (6: killed) and per terrain item (6: destroyed, left
    as rubble); everyone Turn Done, the turn ends (§4.c)."""
    evs: list[Event] = []
    for unit in [u for u in state.units if u.on_table]:
        roll = dice.roll(6, f"barrage: {unit.name}")
        if roll == 6:
            state = state.with_unit(evolve(unit, status=UnitStatus.FALLEN))
            evs.append(
                event(
                    "fall",
                    state.round,
                    f"{unit.name} is killed by the barrage.",
                    unit.id,
                    roll=roll,
                )
            )
    terrain = []
    for piece in state.terrain:
        if piece.kind in ("road", "hole", "rubble"):
            terrain.append(piece)
            continue
        roll = dice.roll(6, f"barrage: {piece.name}")
        if roll == 6:
            terrain.append(
                evolve(
                    piece,
                    name=f"rubble of {piece.name}",
                    kind="rubble",
                    blocks_los=False,
                    impassable=False,
                    cover="soft",
                )
            )
            evs.append(
                event(
                    "terrain_destroyed",
                    state.round,
                    f"{piece.name} is destroyed.",
                    terrain=piece.id,
                    roll=roll,
                )
            )
        else:
            terrain.append(piece)
    state = turn_done_all(evolve(state, terrain=tuple(terrain)))
    sides = combatant_sides(state)
    state = with_rules(state, phase="sides", first=sides[0], acting_side=sides[0])
    evs.append(event("event_effect", state.round, "Everyone is Turn Done; the turn ends."))
    return state, evs


def fire_bomb(state: GameState, dice: RandomSource) -> Result:
    """Q♣: a random combatant is the target of a Ranged 2 heavy-weapon throw from the nearest
    edge (D002-12): d6 + 2 >= 5 hits its square, else it scatters d3 squares in a d8
    direction; AOE 1, strength 2: every figure within one square takes a hit."""
    state, target, evs = select(state, dice, _combatant_ids(state), "fire bomb target")
    if target is None:
        return state, evs
    aim = cell(state.unit(target))
    roll = dice.roll(6, "fire bomb: to hit")
    impact = aim
    if roll + 2 < 5:
        way = dice.roll(8, "fire bomb: scatter direction")
        far = dice.roll(3, "fire bomb: scatter distance")
        steps = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
        dc, dr = steps[way - 1]
        grid = table_grid(state)
        impact = (
            min(max(aim[0] + dc * far, 0), grid.cols - 1),
            min(max(aim[1] + dr * far, 0), grid.rows - 1),
        )
    from engine.scenario import cell_name

    evs.append(
        event(
            "event_effect",
            state.round,
            f"The fire bomb ({roll}) lands on {cell_name(impact)}.",
            target,
            roll=roll,
            cell=list(impact),
        )
    )
    for unit in [
        u for u in state.units if u.on_table and u.cell and chebyshev(u.cell, impact) <= 1
    ]:
        state, more = take_hit(state, unit.id, 2, dice, "fire bomb")
        evs += more
    return state, evs


def _rubble(state: GameState, at: Cell, kind: str) -> GameState:
    grid = table_grid(state)
    x, y = grid.centre(at)
    h = grid.cell_in / 2
    from engine.scenario import cell_name

    name = f"{'rubble' if kind == 'rubble' else 'hole'} at {cell_name(at)}"
    piece = TerrainPiece(
        id=f"{kind}-{at[0]}-{at[1]}",
        name=name,
        kind=kind,
        polygon=((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)),
        impassable=kind == "hole",
        cover="soft" if kind == "rubble" else "none",
    )
    kept = tuple(t for t in state.terrain if t.id != piece.id)
    return evolve(state, terrain=(*kept, piece))


def _run_or_fall(
    state: GameState, dice: RandomSource, uid: str, fate: str, avoid: Cell | None
) -> Result:
    unit = state.unit(uid)
    ok, roll = dodge(dice, unit, fate)
    evs = [
        event(
            "dodge",
            state.round,
            f"{unit.name} {'dodges' if ok else 'fails to dodge'} ({roll}).",
            uid,
            roll=roll,
            dodged=ok,
        )
    ]
    if not ok:
        state = state.with_unit(evolve(unit, status=UnitStatus.FALLEN))
        evs.append(event("fall", state.round, f"{unit.name} is {fate}.", uid))
        return state, evs
    state, more = _run_for_cover(state, uid, fate, avoid)
    return state, [*evs, *more]


def _run_for_cover(state: GameState, uid: str, fate: str, avoid: Cell | None) -> Result:
    """The event's Run-for-Cover move, then Turn Done. A figure standing in the square it must
    leave (``avoid``: the road rupture's hole) with no free square within half its move has
    nowhere to run: it meets the event's fate (decision: it falls into the hole, swept away;
    it never stays standing in impassable ground)."""
    unit = state.unit(uid)
    to = run_for_cover_square(state, unit, avoid)
    if to == cell(unit) == avoid:
        state = state.with_unit(evolve(unit, status=UnitStatus.FALLEN))
        return state, [
            event("fall", state.round, f"{unit.name} has nowhere to run and is {fate}.", uid)
        ]
    state = state.with_unit(evolve(unit, activated=True))
    if to == cell(unit):
        return state, []
    state, ev = move_unit(state, uid, to, "runs for cover", by_event=True)
    return state, [ev]


def dead_fall(state: GameState, dice: RandomSource) -> Result:
    """J♣: a random living combatant must dodge: buried (removed) or it runs for cover, Turn
    Done; a rubble pile where it began the turn."""
    state, target, evs = select(state, dice, _combatant_ids(state), "dead fall")
    if target is None:
        return state, evs
    start = cell(state.unit(target))
    state, more = _run_or_fall(state, dice, target, "buried under the rubble", None)
    return _rubble(state, start, "rubble"), [*evs, *more]


def road_rupture(state: GameState, dice: RandomSource) -> Result:
    """J♦: a random combatant's square gives way: one die for a hit (5+); hit and no dodge:
    swept away; otherwise it runs for cover, Turn Done (with nowhere to run: swept away). The
    square is an impassable hole."""
    state, target, evs = select(state, dice, _combatant_ids(state), "road rupture")
    if target is None:
        return state, evs
    start = cell(state.unit(target))
    roll = dice.roll(6, "road rupture: the weak spot's hit")
    evs.append(
        event(
            "event_effect",
            state.round,
            f"The weak spot rolls {roll}: {'a hit' if roll >= 5 else 'no hit'}.",
            target,
            roll=roll,
        )
    )
    if roll >= 5:
        state, more = _run_or_fall(state, dice, target, "swept away", start)
    else:
        state, more = _run_for_cover(state, target, "swept away", start)
    return _rubble(state, start, "hole"), [*evs, *more]


HANDLERS: dict[str, Callable[[GameState, RandomSource], Result]] = {
    "KS": sniper,
    "QS": barrage,
    "JS": booby_trap,
    "KH": arrivals.procession,
    "QH": arrivals.addled_citizen,
    "JH": arrivals.dispenser_bot,
    "KC": arrivals.citizen_frenzy,
    "QC": fire_bomb,
    "JC": dead_fall,
    "KD": arrivals.reinforcement,
    "QD": arrivals.air_mine,
    "JD": road_rupture,
}


procession = arrivals.procession
addled_citizen = arrivals.addled_citizen
dispenser_bot = arrivals.dispenser_bot
citizen_frenzy = arrivals.citizen_frenzy
air_mine = arrivals.air_mine
reinforcement = arrivals.reinforcement
