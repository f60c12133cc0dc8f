"""The card AI's Random Events phase on the narrative table (RULES §4.c step 1, §4.l, D002-01's
seed-000 column, D002-12/16): at the start of each round, before its initiative roll, the top
card of the game's deck; A-10 discarded, a Joker reshuffles, J/Q/K an event that happens once
per game (its card removed from the game). Inches.

On this table (D002-01, seed-000 column; decisions where RULES is silent in brackets):

* "a hit" / "a strength-n hit" is one attack with ATK n against the figure's DEF (§2.g:
  d6 + n - DEF above 3 wounds, a 1 always misses, a 6 always wounds).
* K♠ sniper: 1d6 per player figure; any 6 and a random player figure (§4.h) takes a
  strength-2 hit [as firefight-lite's laser rifle]; J♠ booby trap: a random player figure,
  two dice, a strength-1 hit for each 6. The player answers either with Armour or Run for
  Cover (a dodge, 1d6 >= 4, avoids every hit and the figure runs up to half its move); never
  Return Fire (D002-16).
* Q♠ barrage: 1d6 per figure on the table (6: killed) and per terrain piece (6: destroyed,
  left as rubble: soft cover, difficult, no longer blocking sight or movement); the round
  ends at once (everyone Turn Done).
* Q♣ fire bomb: a random figure of either side; the Ranged 2 thrower hits its spot on
  d6 + 2 >= 5, else the bomb scatters d3 inches in a d8 direction (1 toward the far edge,
  then clockwise by 45 degrees); every figure within 1 inch of the impact takes a
  strength-2 hit (AOE 1 = 1 square = 1 inch).
* J♣ dead fall: a random figure of either side dodges: buried (removed), or it runs for cover
  (half its move, to the best cover against its enemies) and is Turn Done; a rubble pile (a
  1-inch square, soft cover, difficult) where it stood.
* J♦ road rupture: a random figure's spot gives way: the weak spot hits on 5+; hit and a
  failed dodge: swept away; otherwise it runs for cover and is Turn Done [with nowhere to run,
  swept away]; the spot (a square as wide as its base) becomes an impassable hole.
* K♥ procession, Q♥ addled citizen, J♥ dispenser bot, K♣ citizen frenzy, Q♦ air mine and
  K♦ reinforcement bring on figures a narrative scenario does not set aside: [the card is
  used up, once per game, and nothing happens], as on firefight-lite when a scenario sets no
  such token aside.
"""

from __future__ import annotations

from collections.abc import Callable

from shapely.geometry import Polygon

from engine.actions import Event, event
from engine.dice import RandomSource
from engine.geometry import advance, point_gap_in
from engine.model import GameState, TerrainPiece, Unit, evolve
from engine.rulesets.firefight_lite.combat import dodge
from engine.rulesets.firefight_lite.deck import EVENTS
from engine.rulesets.firefight_lite.events import (
    booby_trap_hits,
    draw_event_card,
    hit_trigger,
    select,
    sniper_shot,
)
from engine.rulesets.firefight_lite.state import DECK
from engine.rulesets.narrative.board import card_of
from engine.rulesets.narrative.cover import best_run
from engine.rulesets.narrative.resolve import fall, place, wound, wound_roll
from engine.rulesets.narrative.sequence import check_end, end_round
from engine.rulesets.narrative.state import card_host, with_card_host

Result = tuple[GameState, list[Event]]
THROWER_RANGED = 2
"""The fire bomb's thrower (Q♣): Ranged 2; it hits on d6 + 2 >= 5 (as on firefight-lite)."""
HIT_ON = 5
BLAST_IN = 1.0
"""AOE 1: one square, one inch (D002-02)."""
NOT_HERE = {
    "KH": "No monks are set aside for this table: the procession does not come.",
    "QH": "No addled citizen is set aside for this table: nothing happens.",
    "JH": "No dispenser bot is set aside for this table: nothing happens.",
    "KC": "No citizens are set aside for this table: nothing happens.",
    "QD": "No air mine is set aside for this table: nothing happens.",
    "KD": "No reinforcement is set aside for this table: nothing happens.",
}
"""The events that bring on figures a narrative scenario does not set aside."""


def event_phase(state: GameState, dice: RandomSource) -> Result:
    """The round's event card and what it does (the round has just begun)."""
    state, drawn, head = draw_event_card(state, dice, "round")
    if drawn is None:
        return state, head
    host = card_host(state)
    assert host is not None
    state = with_card_host(state, events_done=(*host.events_done, drawn))
    state, more = HANDLERS[drawn](state, dice)
    state = state.with_deck(state.deck(DECK).with_removed(drawn))
    events = [*head, *more]
    state, _ = check_end(state, events)
    return state, events


def _figure_ids(state: GameState) -> list[str]:
    return [u.id for side in state.sides for u in state.units_of(side.name)]


def event_hit(
    state: GameState, target_id: str, strength: int, what: str, dice: RandomSource
) -> Result:
    """A strength-n hit of an event: one attack with ATK n against the figure's DEF."""
    unit = state.unit(target_id)
    if not unit.on_table:
        return state, []
    delta = strength - card_of(unit).defence_mod
    roll = dice.roll(6, f"{what}: a strength {strength} hit on {unit.name}")
    wounded = wound_roll(roll, delta)
    said = f"{what} hits at {unit.name}: rolled {roll}, score {roll + delta}: "
    events = [
        event(
            "event_attack",
            state.round,
            said + ("wounds." if wounded else "misses."),
            unit.id,
            what=what,
            strength=strength,
            roll=roll,
            score=roll + delta,
            wound=wounded,
        )
    ]
    if wounded:
        state, _ = wound(state, unit, dice, events)
    return state, events


def _hit_waits(state: GameState, target: str, hits: tuple[int, ...], what: str) -> Result:
    """The player's figure is hit: it answers (armour or run for cover) before the hits."""
    trigger = hit_trigger(state, target, hits, what, cause=what)
    state = with_card_host(
        state, reacting=target, reaction="event", trigger=trigger, event_hits=hits
    )
    return state, [trigger]


def sniper(state: GameState, dice: RandomSource) -> Result:
    """K♠: 1d6 per player figure; any 6 and a random player figure takes a strength-2 hit."""
    return sniper_shot(state, dice, _hit_waits)


def booby_trap(state: GameState, dice: RandomSource) -> Result:
    """J♠: a random player figure; two dice, a strength-1 hit for each 6."""
    return booby_trap_hits(state, dice, _hit_waits)


def barrage(state: GameState, dice: RandomSource) -> Result:
    """Q♠: 1d6 per figure (6: killed) and per terrain piece (6: rubble); the round ends."""
    evs: list[Event] = []
    for unit in [u for u in state.units if u.on_table]:
        roll = dice.roll(6, f"barrage: {unit.name}")
        if roll == 6:
            said = f"{unit.name} is killed by the barrage: remove the model."
            state = fall(state, state.unit(unit.id), dice, evs, said)
    terrain = []
    for piece in state.terrain:
        if piece.kind in ("rubble", "hole"):
            terrain.append(piece)
            continue
        roll = dice.roll(6, f"barrage: {piece.name}")
        if roll != 6:
            terrain.append(piece)
            continue
        terrain.append(
            evolve(
                piece,
                name=f"the rubble of {piece.name.removeprefix('the ')}",
                kind="rubble",
                blocks_los=False,
                impassable=False,
                difficult=True,
                cover="soft",
            )
        )
        evs.append(
            event(
                "terrain_destroyed",
                state.round,
                f"{piece.name} is destroyed: it is rubble now (soft cover, difficult ground).",
                terrain=piece.id,
                roll=roll,
            )
        )
    state = evolve(state, terrain=tuple(terrain))
    state, over = check_end(state, evs)
    if over:
        return state, evs
    state = evolve(state, units=tuple(evolve(u, activated=True) for u in state.units))
    state = with_card_host(state, initiative_due=False)
    return end_round(state, evs, "the barrage ends it").state, evs


def fire_bomb(state: GameState, dice: RandomSource) -> Result:
    """Q♣: a random figure of either side; hit or scatter; a strength-2 hit on every figure
    within 1 inch of the impact."""
    state, target, evs = select(state, dice, _figure_ids(state), "fire bomb target")
    if target is None:
        return state, evs
    aim = state.unit(target).position
    roll = dice.roll(6, "fire bomb: to hit")
    impact = aim
    how = "on target"
    if roll + THROWER_RANGED < HIT_ON:
        way = dice.roll(8, "fire bomb: scatter direction (1 toward the far edge, clockwise)")
        far = dice.roll(3, "fire bomb: scatter distance, inches")
        x, y = advance(aim, 45.0 * (way - 1), float(far))
        table = state.table
        impact = (min(max(x, 0.0), table.width_in), min(max(y, 0.0), table.depth_in))
        how = f"{far} in off target"
    evs.append(
        event(
            "event_effect",
            state.round,
            f"The fire bomb ({roll}) lands {how}.",
            target,
            roll=roll,
            at=[round(impact[0], 3), round(impact[1], 3)],
        )
    )
    for unit in [u for u in state.units if u.on_table]:
        if point_gap_in(unit.position, unit.radius_in, impact) <= BLAST_IN + 1e-9:
            state, more = event_hit(state, unit.id, 2, "The fire bomb", dice)
            evs += more
    return state, evs


def _pile(state: GameState, unit: Unit, kind: str, side_in: float) -> GameState:
    """A square of ``side_in`` inches centred where the unit stands: rubble (soft cover,
    difficult) or an impassable hole."""
    x, y = unit.position
    h = side_in / 2.0
    piece = TerrainPiece(
        id=f"{kind}-{unit.id}-{state.round}",
        name=f"the {kind} where {unit.name} stood",
        kind=kind,
        polygon=((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)),
        impassable=kind == "hole",
        difficult=kind == "rubble",
        cover="soft" if kind == "rubble" else "none",
    )
    return evolve(state, terrain=(*state.terrain, piece))


def _hole_of(unit: Unit) -> Polygon:
    x, y = unit.position
    h = max(unit.base_diameter_in, 1.0) / 2.0
    return Polygon(((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)))


def _run_for_cover(
    state: GameState, uid: str, fate: str, dice: RandomSource, avoid: Polygon | None
) -> Result:
    """The event's Run-for-Cover move (then Turn Done); a figure that must leave ``avoid``
    (the hole) and can run nowhere meets the event's fate."""
    unit = state.unit(uid)
    run = best_run(state, unit, state.enemies_of(unit), avoid)
    if run is None and avoid is not None:
        said = f"{unit.name} has nowhere to run and is {fate}: remove the model."
        evs: list[Event] = []
        return fall(state, unit, dice, evs, said), evs
    unit = evolve(unit, activated=True)
    state = state.with_unit(unit)
    if run is None:
        return state, []
    state, moved = place(state, unit, run[-1], unit.heading_deg)
    distance = point_gap_in(run[0], 0.0, run[-1])
    said = f"{unit.name} runs for cover, {distance:.1f} in: move the model there."
    return state, [
        event(
            "move",
            state.round,
            said,
            unit.id,
            path=[[round(x, 3), round(y, 3)] for x, y in run],
            heading=round(moved.heading_deg, 2),
            distance_in=round(distance, 3),
            by="event",
        )
    ]


def _dodge_or(state: GameState, uid: str, fate: str, dice: RandomSource) -> tuple[bool, Result]:
    unit = state.unit(uid)
    ok, roll = dodge(dice, unit, fate)
    said = f"{unit.name} {'dodges' if ok else 'fails to dodge'} ({roll})."
    evs = [event("dodge", state.round, said, uid, roll=roll, dodged=ok)]
    if not ok:
        state = fall(state, unit, dice, evs, f"{unit.name} is {fate}: remove the model.")
    return ok, (state, evs)


def dead_fall(state: GameState, dice: RandomSource) -> Result:
    """J♣: a random figure dodges: buried, or it runs for cover (Turn Done); rubble where it
    stood."""
    state, target, evs = select(state, dice, _figure_ids(state), "dead fall")
    if target is None:
        return state, evs
    stood = state.unit(target)
    ok, (state, more) = _dodge_or(state, target, "buried under the rubble", dice)
    evs += more
    if ok:
        state, more = _run_for_cover(state, target, "buried", dice, None)
        evs += more
    return _pile(state, stood, "rubble", 1.0), evs


def road_rupture(state: GameState, dice: RandomSource) -> Result:
    """J♦: a random figure's spot gives way: the weak spot hits on 5+; hit and no dodge:
    swept away; otherwise it runs for cover (Turn Done), or with nowhere to run is swept away.
    The spot becomes an impassable hole."""
    state, target, evs = select(state, dice, _figure_ids(state), "road rupture")
    if target is None:
        return state, evs
    stood = state.unit(target)
    roll = dice.roll(6, "road rupture: the weak spot's hit")
    hit = roll >= HIT_ON
    evs.append(
        event(
            "event_effect",
            state.round,
            f"The weak spot rolls {roll}: {'a hit' if hit else 'no hit'}.",
            target,
            roll=roll,
        )
    )
    ok = True
    if hit:
        ok, (state, more) = _dodge_or(state, target, "swept away", dice)
        evs += more
    if ok:
        state, more = _run_for_cover(state, target, "swept away", dice, _hole_of(stood))
        evs += more
    return _pile(state, stood, "hole", max(stood.base_diameter_in, 1.0)), evs


def _nothing(card: str) -> Callable[[GameState, RandomSource], Result]:
    def handler(state: GameState, dice: RandomSource) -> Result:
        return state, [event("event_effect", state.round, NOT_HERE[card], card=card)]

    handler.__doc__ = f"{EVENTS[card]} on a narrative table: nothing happens."
    return handler


HANDLERS: dict[str, Callable[[GameState, RandomSource], Result]] = {
    "KS": sniper,
    "QS": barrage,
    "JS": booby_trap,
    "QC": fire_bomb,
    "JC": dead_fall,
    "JD": road_rupture,
    **{card: _nothing(card) for card in NOT_HERE},
}
