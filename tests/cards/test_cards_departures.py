"""Rule departures of the card AI's host, firefight-lite, found by independent checks (issue
22): reaction fire at a figure a monk could cover (§4.l K♥), sight pinched between two figures
corner to corner (G-03), a road-rupture victim with nowhere to run (§4.l J♦), a monk that
reaches the far edge with a die left (§4.l K♥), and the wording of the card AI's orders."""

from __future__ import annotations

from dataclasses import replace

from engine.actions import Action, event
from engine.cards import JOKER
from engine.controllers import cards_neutral
from engine.controllers.cards_suits import SuitPlan, defence_order
from engine.dice import ScriptedDice, SeededDice
from engine.model import GameState, UnitStatus
from engine.protocols import PendingKind
from engine.rulesets.firefight_lite import events as ev
from engine.rulesets.firefight_lite.board import sees, square_cover
from engine.rulesets.firefight_lite.combat import shoot
from engine.rulesets.firefight_lite.deck import FULL_DECK
from engine.rulesets.firefight_lite.state import FROSTY
from tests.cards.positions import NPC, PLAYER, position, ruleset, wall
from tests.cards.test_cards_events import RESERVES, SOLDIER

NON_JOKERS = tuple(c for c in FULL_DECK if c != JOKER)
RIFLE = {"move": 4, "ranged": 1, "range": 24}


def _stand(state: GameState, uid: str, square: str) -> GameState:
    """``uid`` standing (on the table) in the named square."""
    grid = state.table.grid
    assert grid is not None
    col = ord(square[0]) - ord("A")
    x, y = grid.centre((col, int(square[1:]) - 1))
    return state.with_unit(replace(state.unit(uid), x=x, y=y, status=UnitStatus.ACTIVE))


def _monk_beside_the_player() -> GameState:
    """The NPC at F2, the player's figure at F9 and a monk at F8, between them and next to
    the player's figure: the NPC may not name the player's figure (a monk could cover it)."""
    units = [("npc", NPC, "F2", RIFLE), ("foe", PLAYER, "F9", RIFLE), *RESERVES]
    state = position(units, neutral=True, acting=PLAYER)
    return _stand(state, "monk-0", "F8")


# -- §4.l K♥: no attack, reaction fire included, at a figure a monk could cover -----------------


def test_return_fire_is_refused_at_a_figure_a_monk_could_cover() -> None:
    state = _monk_beside_the_player()
    assert ruleset().validate(state, Action("aimed_fire", "npc", target_id="foe"))
    attack = Action("aimed_fire", "foe", target_id="npc")
    assert not ruleset().validate(state, attack)
    out = ruleset().apply(state, attack, ScriptedDice([]))
    pending = ruleset().pending(out.state)
    assert pending.kind is PendingKind.REACTION and pending.purpose == "defence"
    answer = Action("return_fire", "npc", target_id="foe", detail=(("card", "7S"),))
    problems = ruleset().validate(out.state, answer)
    assert any("monk" in p for p in problems), problems
    # The card AI reads its Return Fire card as Armour instead.
    attacker = out.state.unit("foe")
    order = defence_order(
        out.state, ruleset(), out.state.unit("npc"), "7S", attacker, SeededDice(1)
    )
    assert order.action.kind == "pass"


def test_overwatch_fire_is_not_offered_at_a_figure_a_monk_could_cover() -> None:
    state = _monk_beside_the_player()
    npc = state.unit("npc")
    state = state.with_unit(replace(npc, activated=True, statuses=npc.statuses | {FROSTY}))
    # The foe steps to E9: the monk at F8 still stands between it and the watcher, next to it.
    move = Action("move", "foe", detail=(("cell", [4, 8]),))
    assert not ruleset().validate(state, move)
    out = ruleset().apply(state, move, ScriptedDice([]))
    assert ruleset().pending(out.state).kind is not PendingKind.REACTION
    assert out.state.unit("foe").cell == (4, 8)
    # Asked anyway, the shot is refused.
    trigger = event("overwatch", 1, "x", "foe", watcher="npc")
    asked = replace(
        state,
        rules=replace(
            state.rules, reacting="npc", reaction="overwatch", trigger=trigger, held=move
        ),
    )
    problems = ruleset().validate(asked, Action("overwatch_fire", "npc", target_id="foe"))
    assert any("monk" in p for p in problems), problems


# -- G-03: a diagonal line through the corner between two figures is blocked ---------------------


def _pinched() -> GameState:
    """The NPC at C3 looks diagonally at the player's figure at E5; two other player figures
    stand corner to corner at D3 and C4, the line passing exactly through their shared corner."""
    units = [
        ("npc", NPC, "C3", RIFLE),
        ("foe", PLAYER, "E5", RIFLE),
        ("left", PLAYER, "D3", RIFLE),
        ("right", PLAYER, "C4", RIFLE),
    ]
    return position(units)


def test_sight_through_the_corner_between_two_hostile_figures_is_blocked() -> None:
    state = _pinched()
    assert not sees(state, state.unit("npc"), state.unit("foe"))
    problems = ruleset().validate(state, Action("aimed_fire", "npc", target_id="foe"))
    assert any("cannot see" in p for p in problems), problems
    # The figures do not block the foe's own friends (G-03 as for seed 003): only hostiles do.
    assert sees(state, state.unit("foe"), state.unit("left"))
    # One figure alone at the corner does not block (a grazed corner).
    alone = _stand(state, "right", "A1")
    assert sees(alone, alone.unit("npc"), alone.unit("foe"))


def test_sight_through_the_corner_between_a_figure_and_a_wall_is_blocked() -> None:
    units = [("npc", NPC, "C3", RIFLE), ("foe", PLAYER, "E5", RIFLE), ("left", PLAYER, "D3", RIFLE)]
    block = [("pillar", "pillar", wall(2, 8, 3, 9), {"blocks_los": True, "impassable": True})]
    state = position(units, block)
    assert not sees(state, state.unit("npc"), state.unit("foe"))


def test_a_square_seen_only_through_a_pinched_corner_is_hidden() -> None:
    """D002-09's cover of a square reads sight the same way: the NPC at E5, seen by the player's
    figure at C3 only through the corner between two NPC figures at D3 and C4, is out of sight."""
    units = [
        ("foe", PLAYER, "C3", RIFLE),
        ("npc", NPC, "E5", RIFLE),
        ("left", NPC, "D3", RIFLE),
        ("right", NPC, "C4", RIFLE),
    ]
    state = position(units)
    npc = state.unit("npc")
    assert npc.cell is not None
    assert square_cover(state, npc, npc.cell) == 3  # HIDDEN


# -- §4.l J♦: a victim with nowhere to run falls into the hole -----------------------------------


def test_a_road_rupture_victim_with_nowhere_to_run_is_swept_away() -> None:
    """p1 (a move of 1: it runs for cover one square) at A12 in the corner, boxed in by its own
    side's figures: the ground gives way under it, the weak spot misses (2), but no square it
    could run to is free."""
    boxed = [
        ("p1", PLAYER, "A12", {**SOLDIER, "move": 1}),
        ("b1", PLAYER, "A11", SOLDIER),
        ("b2", PLAYER, "B11", SOLDIER),
        ("b3", PLAYER, "B12", SOLDIER),
        ("v1", NPC, "F2", SOLDIER),
    ]
    state = position(boxed, events=True, acting=NPC)
    # Only p1 is dealt a card that can win the selection: the highest card, the Ace of spades.
    deck = ("AS", *[c for c in NON_JOKERS if c != "AS"])
    after, events = ev.road_rupture(state, ScriptedDice([2, 1, 1, 1, 1, 1, 1], deck))
    assert after.unit("p1").status is UnitStatus.FALLEN, [e.text for e in events]
    assert not ruleset().check_state(after)
    assert any("nowhere to run" in e.text for e in events)


# -- §4.l K♥: leaving the table costs one General die ---------------------------------------------


def test_a_monk_with_a_die_left_at_the_far_edge_leaves_this_turn() -> None:
    """A monk two squares from the far edge, walking north with three General dice: two take
    it to the edge square, the third takes it off the table."""
    units = [("p1", PLAYER, "A12", SOLDIER), ("v1", NPC, "L1", SOLDIER), *RESERVES]
    state = position(units, neutral=True, acting=NPC)
    state = _stand(state, "monk-0", "F3")
    state = replace(state, rules=replace(state.rules, phase="neutral"))
    monk = state.unit("monk-0")
    assert monk.heading_deg == 0.0
    order = cards_neutral.monk(state, monk, SeededDice(1))
    assert order.action.kind == "leave", order
    assert not ruleset().validate(state, order.action)
    out = ruleset().apply(state, order.action, ScriptedDice([]))
    assert out.state.unit("monk-0").status is UnitStatus.ROUTED_OFF
    # Three squares from the edge, it walks to the edge square and leaves next turn.
    far = _stand(state, "monk-0", "F4")
    order = cards_neutral.monk(far, far.unit("monk-0"), SeededDice(1))
    assert order.action.kind == "move" and order.action.get("cell") == [5, 0]
    # A leave with a move takes at most two squares before the die that leaves.
    too_far = Action("leave", "monk-0", detail=(("cell", [5, 0]),))
    assert ruleset().validate(far, too_far)


# -- wording -------------------------------------------------------------------------------------


def test_card_ai_orders_name_their_units_and_cover_in_words() -> None:
    units = [("npc", NPC, "F2", RIFLE), ("foe", PLAYER, "F12", RIFLE)]
    hedge = [("hedge", "hedge", wall(4, 7, 7, 7.3), {"cover": "soft"})]
    state = position(units, hedge)
    order = SuitPlan(state, ruleset(), state.unit("npc"), "2H", SeededDice(1)).decide()
    assert order.action.kind == "move"
    assert order.reason.startswith("it moves to the hedge at "), order.reason
    assert " squares from the nearest enemy, in soft cover" in order.reason, order.reason
    # Diamonds: a withdrawal into the open says so in words.
    units = [("npc", NPC, "F6", RIFLE), ("foe", PLAYER, "F12", RIFLE)]
    state = position(units)
    order = SuitPlan(state, ruleset(), state.unit("npc"), "2D", SeededDice(1)).decide()
    assert order.action.kind == "move"
    assert "(none)" not in order.reason and "in the open" in order.reason, order.reason
    # An Armour card's pass is logged as the armour it reads as.
    armour = Action("pass", "npc", side=NPC, detail=(("card", "7C"),))
    assert ruleset().action_word(armour) == "armour"
    # A shot's line says "no cover", never "none cover".
    _, events = shoot(state, "npc", "foe", ScriptedDice([1]))
    assert "none cover" not in events[0].text and "no cover" in events[0].text
