"""Each of the twelve random events of §4.l has its effect (scripted dice and decks), and the
neutral figures behave as the events say (monks shield and cannot be targeted, the addled
citizen and the bot may be attacked and moved with, the mob attacks, the mine explodes)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.actions import Action
from engine.cards import JOKER
from engine.controllers.cards import CardsAI
from engine.dice import ScriptedDice, SeededDice
from engine.model import GameState, UnitStatus
from engine.protocols import PendingKind
from engine.rulesets.firefight_lite import events as ev
from engine.rulesets.firefight_lite.deck import FULL_DECK
from tests.cards.positions import NEUTRAL, NPC, PLAYER, position, ruleset, wall

NON_JOKERS = tuple(c for c in FULL_DECK if c != JOKER)
SOLDIER = {"move": 4, "ranged": 1, "range": 24, "armour": 0}
VARLET = {**SOLDIER, "troop": "Varlet"}
PRIVATE = {**SOLDIER, "troop": "Private"}
RESERVES: list[tuple[str, str, str, dict[str, Any]]] = [
    *[
        (f"monk-{i}", NEUTRAL, f"{'ABCDEF'[i]}12", {"neutral": "monk", "move": 3, "range": 0})
        for i in range(6)
    ],
    ("citizen", NEUTRAL, "G12", {"neutral": "citizen", "move": 3, "range": 0, "melee": 3}),
    ("bot", NEUTRAL, "H12", {"neutral": "bot", "move": 4, "range": 0}),
    *[
        (
            f"mob-{i}",
            NEUTRAL,
            f"{'ABCDEF'[i]}11",
            {"neutral": "mob", "move": 4, "range": 0, "melee": 2},
        )
        for i in range(6)
    ],
    ("mine", NEUTRAL, "I12", {"neutral": "mine", "move": 4, "range": 0}),
    ("spare", NPC, "L1", {**VARLET, "reserve": True}),
]


def street(*extra: tuple[str, str, str, dict[str, Any]], terrain: list[Any] = ()) -> GameState:  # type: ignore[assignment]
    units = [
        ("p1", PLAYER, "C9", SOLDIER),
        ("p2", PLAYER, "F9", SOLDIER),
        ("v1", NPC, "C2", VARLET),
        ("v2", NPC, "F2", VARLET),
        ("pr", NPC, "I2", PRIVATE),
        *extra,
        *RESERVES,
    ]
    return position(units, terrain, events=True, neutral=True, acting=NPC)


def test_sniper_hit_waits_for_the_players_defence_without_return_fire() -> None:
    state = street()
    after, _events = ev.sniper(state, ScriptedDice([6, 1, 1], NON_JOKERS))
    pending = ruleset().pending(after)
    assert pending.kind is PendingKind.REACTION and pending.unit == "p1" and pending.side == PLAYER
    assert ruleset().validate(after, Action("return_fire", "p1", target_id="v1"))
    out = ruleset().apply(after, Action("pass", "p1", side=PLAYER), ScriptedDice([1]))
    assert out.state.unit("p1").status is UnitStatus.FALLEN  # a strength-2 hit, save failed
    assert [e.get("reaction") for e in out.events if e.type == "reaction"] == ["armour"]


def test_barrage_ends_the_turn_through_the_event_phase() -> None:
    state = street()
    state = replace(state, rules=replace(state.rules, phase="event"))
    out = ruleset().apply(state, Action("chance"), ScriptedDice([1] * 30, ["QS"]))
    assert [e.get("event") for e in out.events if e.type == "random_event"] == ["artillery barrage"]
    assert out.state.round == 2 and out.state.rules.phase == "event"  # type: ignore[attr-defined]
    assert not any(u.activated for u in out.state.units)
    assert "QS" in out.state.deck("cards").removed


def test_procession_enters_in_single_file_and_shields_figures() -> None:
    state = street()
    after, _events = ev.procession(state, ScriptedDice([3, 1]))  # three monks, the front edge
    monks = [u for u in after.units if u.id.startswith("monk") and u.on_table]
    assert len(monks) == 3
    cols = {u.cell[0] for u in monks if u.cell}
    rows = sorted(u.cell[1] for u in monks if u.cell)
    assert len(cols) == 1 and rows == [9, 10, 11]  # a file up from the front edge
    assert all(u.heading_deg == 0.0 for u in monks)
    monk = monks[0]
    assert ruleset().validate(after, Action("aimed_fire", "v1", target_id=monk.id))
    # A player figure with a monk between it and the shooter, next to it, cannot be targeted.
    assert monk.cell is not None
    col, row = monk.cell
    for uid, at in (("p2", (col + 1, row)), ("v2", (0, row))):
        x, y = after.table.grid.centre(at)  # type: ignore[union-attr]
        after = after.with_unit(replace(after.unit(uid), x=x, y=y))
    problems = ruleset().validate(after, Action("aimed_fire", "v2", target_id="p2"))
    assert any("monk" in p for p in problems)


def test_addled_citizen_walks_straight_across_first_and_has_no_save() -> None:
    state = street()
    after, _ = ev.addled_citizen(state, ScriptedDice([2]))  # the left edge
    citizen = after.unit("citizen")
    assert citizen.on_table and citizen.cell is not None and citizen.cell[0] == 0
    order = CardsAI()._neutral(after, ruleset(), "citizen", "citizen", SeededDice(1))
    assert order.action.get("cell")[0] == 3  # three squares straight across  # type: ignore[index]
    from engine.rulesets.firefight_lite.combat import take_hit

    hit, events = take_hit(after, "citizen", 1, ScriptedDice([]), "shot")
    assert hit.unit("citizen").status is UnitStatus.FALLEN and not any(
        e.type == "save" for e in events
    )


def test_dispenser_bot_serves_and_can_be_moved_with() -> None:
    state = street()
    after, _ = ev.dispenser_bot(state, ScriptedDice([4]))  # the right edge
    bot = after.unit("bot")
    assert bot.on_table and bot.cell is not None and bot.cell[0] == 11
    # Put a player figure beside it: the bot offers it a snack.
    p1 = after.unit("p1")
    x, y = after.table.grid.centre((10, bot.cell[1]))  # type: ignore[union-attr]
    after = after.with_unit(replace(p1, x=x, y=y))
    order = CardsAI()._neutral(after, ruleset(), "bot", "bot", SeededDice(1))
    assert order.action.kind == "serve" and order.action.target_id == "p1"


def test_citizen_frenzy_mob_charges_the_nearest_figure() -> None:
    state = street()
    after, _ = ev.citizen_frenzy(state, ScriptedDice([2, 3]))  # two citizens, the far edge
    after = replace(after, rules=replace(after.rules, phase="neutral"))
    mob = [u for u in after.units if u.id.startswith("mob") and u.on_table]
    assert len(mob) == 2 and all(u.cell and u.cell[1] == 0 for u in mob)
    order = CardsAI()._neutral(after, ruleset(), mob[0].id, "mob", SeededDice(1))
    assert order.action.kind == "assault" and order.action.target_id in ("v1", "v2", "pr")


def test_fire_bomb_hits_everyone_within_one_square_of_the_impact() -> None:
    state = street(("p3", PLAYER, "D9", SOLDIER))
    # A♠ dealt to p1 selects it; a 6 hits its square; every save fails (armour 0 needs 6+).
    after, _events = ev.fire_bomb(state, ScriptedDice([6, 1, 1, 1, 1], NON_JOKERS))
    assert after.unit("p1").status is UnitStatus.FALLEN
    assert after.unit("p3").status is UnitStatus.FALLEN  # next to p1
    assert after.unit("p2").on_table  # three squares away


def test_dead_fall_buries_or_sends_to_cover_and_leaves_rubble() -> None:
    state = street()
    buried, _ = ev.dead_fall(state, ScriptedDice([1], NON_JOKERS))
    assert buried.unit("p1").status is UnitStatus.FALLEN
    assert any(t.kind == "rubble" for t in buried.terrain)
    ran, events = ev.dead_fall(state, ScriptedDice([6], NON_JOKERS))
    runner = ran.unit("p1")
    assert runner.on_table and runner.activated and runner.cell != (2, 8)
    assert any(t.kind == "rubble" and t.id == "rubble-2-8" for t in ran.terrain)
    moved = [e for e in events if e.type == "move"]
    assert moved and moved[0].get("by") == "event"  # the player is told to move the model


def test_reinforcement_brings_on_the_majority_troop_at_a_deployment_square() -> None:
    state = street()
    x, y = state.table.grid.centre((2, 5))  # type: ignore[union-attr]
    state = state.with_unit(replace(state.unit("v1"), x=x, y=y))  # C2 is free again
    after, _ = ev.reinforcement(state, ScriptedDice([]))
    spare = after.unit("spare")
    assert spare.on_table and spare.card.troop == "Varlet"  # type: ignore[attr-defined]
    assert spare.cell == (2, 1)  # the one free square of the initial deployment


def test_air_mine_enters_by_a_road_and_explodes_next_to_a_figure() -> None:
    road = [("road", "road", wall(0, 5, 12, 6), {})]
    state = street(terrain=road)
    after, _ = ev.air_mine(state, ScriptedDice([1]))
    mine = after.unit("mine")
    assert mine.on_table and mine.cell in {(0, 6), (11, 6)}
    # Move it beside v1 and let it act: it explodes (AOE 1, strength 2) and is gone.
    v1 = after.unit("v1")
    assert v1.cell is not None
    x, y = after.table.grid.centre((v1.cell[0] + 2, v1.cell[1]))  # type: ignore[union-attr]
    after = after.with_unit(replace(mine, x=x, y=y))
    after = replace(after, rules=replace(after.rules, phase="neutral"))
    to = [v1.cell[0] + 1, v1.cell[1]]
    out = ruleset().apply(
        after, Action("move", "mine", detail=(("cell", to),)), ScriptedDice([1] * 5)
    )
    assert out.state.unit("mine").status is UnitStatus.FALLEN
    assert any(e.type == "explosion" for e in out.events)
    assert out.state.unit("v1").status is UnitStatus.FALLEN


def test_road_rupture_leaves_an_impassable_hole() -> None:
    state = street()
    swept, _ = ev.road_rupture(state, ScriptedDice([5, 1], NON_JOKERS))
    assert swept.unit("p1").status is UnitStatus.FALLEN
    hole = next(t for t in swept.terrain if t.kind == "hole")
    assert hole.impassable
    from engine.rulesets.firefight_lite.board import squares

    assert (2, 8) in squares(swept).board.walls
    spared, _ = ev.road_rupture(state, ScriptedDice([2], NON_JOKERS))
    assert spared.unit("p1").on_table and spared.unit("p1").cell != (2, 8)
    assert spared.unit("p1").activated


def test_only_the_mob_fights_only_the_bot_serves_only_monks_leave() -> None:
    """Found by random play: an air mine 'assaulting' a figure exploded while the figure's
    defence waited, and the defence then looked for an attacker no longer on the table."""
    state = street()
    after, _ = ev.air_mine(state, ScriptedDice([1]))
    after = replace(after, rules=replace(after.rules, phase="neutral"))
    mine = after.unit("mine")
    v1 = after.unit("v1")
    assert v1.cell is not None and mine.cell is not None
    x, y = after.table.grid.centre((v1.cell[0] + 1, v1.cell[1]))  # type: ignore[union-attr]
    after = after.with_unit(replace(mine, x=x, y=y))
    here = [v1.cell[0] + 1, v1.cell[1]]
    assault = Action("assault", "mine", target_id="v1", detail=(("cell", here),))
    assert ruleset().validate(after, assault) == ["assault is not an action of mine"]
    assert ruleset().validate(after, Action("leave", "mine"))
