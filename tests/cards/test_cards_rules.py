"""The card AI's derived tests T002-01..11 (RULES §4.o) by exact enumeration over the deck and
scripted decks, and each suit's procedure (§4.f) in constructed positions."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import permutations, product

import pytest

from engine.actions import Action, event
from engine.cards import JOKER, Deck
from engine.controllers.cards import CardsAI
from engine.controllers.cards_suits import SuitPlan, defence_order
from engine.dice import ScriptedDice, SeededDice
from engine.model import GameState
from engine.protocols import PendingKind
from engine.rulesets.firefight_lite import events as ev
from engine.rulesets.firefight_lite.deck import (
    EVENTS,
    FULL_DECK,
    deal_selection,
    draw_reading,
    is_picture,
    selection_value,
)
from engine.rulesets.firefight_lite.state import DECK, FFState
from tests.cards.positions import NPC, PLAYER, position, ruleset, wall

NON_JOKERS = tuple(c for c in FULL_DECK if c != JOKER)
RIFLE = {"move": 4, "ranged": 1, "range": 24}


def _duel(npc: str, enemy: str, terrain: list = (), **kw: object) -> GameState:  # type: ignore[assignment,type-arg]
    return position([("npc", NPC, npc, RIFLE), ("foe", PLAYER, enemy, RIFLE)], terrain, **kw)


def _plan(state: GameState, card: str, unit: str = "npc") -> tuple[str, dict[str, object]]:
    order = SuitPlan(state, ruleset(), state.unit(unit), card, SeededDice(1)).decide()
    action = order.action
    return str(action.kind), {"cell": action.get("cell"), "target": action.target_id}


# -- T002-01 / 02: the deck ------------------------------------------------------------------


def test_t002_01_first_event_draw_by_exact_enumeration() -> None:
    """Each of the 54 cards on top of a fresh deck, through the real event phase."""
    outcome: Counter[str] = Counter()
    for top in FULL_DECK:
        state = _duel("F2", "F10", events=True, neutral=False)
        state = replace(state, rules=replace(state.rules, phase="event"))
        rest = [c for c in FULL_DECK if c != top]
        dice = ScriptedDice([1] * 40, [top, *rest])
        _after, events = ev.event_phase(state.with_deck(Deck(DECK, (top, *rest))), dice)
        kinds = [e.type for e in events]
        outcome["event" if "random_event" in kinds else "joker" if top == JOKER else "none"] += 1
    total = sum(outcome.values())
    assert total == 54
    assert Fraction(outcome["event"], total) == Fraction(2, 9)
    assert Fraction(outcome["joker"], total) == Fraction(1, 27)
    assert Fraction(outcome["none"], total) == Fraction(20, 27)


def test_t002_02_action_draws_redraw_jokers_and_pictures_after_removals() -> None:
    # A Joker on top: the deck is reshuffled (a shuffle line) and the next card is read.
    dice = ScriptedDice([], [JOKER, "7H"])
    card, deck, jokers = draw_reading(Deck(DECK, (JOKER, "7H", *NON_JOKERS[:5])), dice, "action")
    assert (card, jokers) == ("7H", 1)
    assert [type(e).__name__ for e in dice.log] == ["Draw", "Shuffle", "Draw"]
    assert JOKER in deck.draw_pile  # the Joker went back in
    # Each non-Joker top card is read as itself: suits 13/52 each; after a Joker the full deck
    # is back, so P(suit) = 13/54 + 2/54 P(suit), i.e. 1/4.
    suits = Counter(c[-1] for c in NON_JOKERS)
    for suit in "SHCD":
        p = Fraction(suits[suit], 54) / (1 - Fraction(2, 54))
        assert p == Fraction(1, 4)
    assert Fraction(sum(is_picture(c) for c in NON_JOKERS), 52) == Fraction(3, 13)
    removed = ("KS", "QH", "JD")
    left = [c for c in NON_JOKERS if c not in removed]
    assert Fraction(sum(is_picture(c) for c in left), len(left)) == Fraction(9, 49)


# -- T002-03: the fire order against the distance ---------------------------------------------

EXPECTED_FIRE = {1: 13, 2: 12, 3: 11, 4: 10, 5: 9, 6: 8, 7: 7, 8: 6, 9: 5, 10: 4, 11: 3}


@pytest.mark.parametrize("distance", [1, 2, 5, 10, 11])
def test_t002_03_fire_orders_by_distance_over_all_52_cards(distance: int) -> None:
    state = _duel("F1", f"F{1 + distance}", size=14)
    kinds = Counter(_plan(state, card)[0] for card in NON_JOKERS)
    fire = kinds["aimed_fire"] + kinds["move_and_fire"]
    assert Fraction(fire, 52) == Fraction(EXPECTED_FIRE[distance], 13)
    # Of fire orders, spades are Aimed Fire (1/4), the others Move and Fire (3/4).
    assert Fraction(kinds["aimed_fire"], fire) == Fraction(1, 4)


# -- T002-04: defence ------------------------------------------------------------------------


def test_t002_04_defence_distribution_over_all_52_cards() -> None:
    state = _duel("F2", "F6")
    npc, foe = state.unit("npc"), state.unit("foe")
    state = replace(
        state,
        rules=replace(
            state.rules,
            reacting="npc",
            reaction="defence",
            trigger=event("attacked", 1, "", "npc", attacker="foe"),
        ),
    )
    got = Counter(
        str(defence_order(state, ruleset(), npc, c, foe, SeededDice(2)).action.kind)
        for c in NON_JOKERS
    )
    assert {k: Fraction(v, 52) for k, v in got.items()} == {
        "return_fire": Fraction(1, 2),
        "pass": Fraction(1, 4),
        "run_for_cover": Fraction(1, 4),
    }


# -- T002-05: selection ------------------------------------------------------------------------


def test_t002_05_selection_order_and_fairness() -> None:
    assert selection_value("AS") > selection_value("KD")
    assert selection_value("6H") > selection_value("6C")
    assert selection_value("KD") > selection_value("QS")
    assert min(NON_JOKERS, key=selection_value) == "2D"
    assert max(NON_JOKERS, key=selection_value) == "AS"
    assert len({selection_value(c) for c in NON_JOKERS}) == 52
    for n in (2, 3):
        wins: Counter[int] = Counter()
        for deal in permutations(NON_JOKERS, n):
            wins[max(range(n), key=lambda i: selection_value(deal[i]))] += 1
        total = sum(wins.values())
        assert all(Fraction(w, total) == Fraction(1, n) for w in wins.values())
    # Dealing through the deck: a Joker dealt is replaced, then the deck is reshuffled.
    dice = ScriptedDice([], ["3C", JOKER, "9D", "QS"])
    deck = Deck(DECK, ("3C", JOKER, "9D", "QS", *NON_JOKERS[20:30]))
    chosen, deck, dealt = deal_selection(deck, dice, ["a", "b", "c"], "test")
    assert dealt == (("a", "3C"), ("b", "9D"), ("c", "QS")) and chosen == "c"
    assert type(dice.log[-1]).__name__ == "Shuffle"
    assert all("selection" in e.purpose for e in dice.log[:-1])


# -- T002-06..08: events by exact enumeration --------------------------------------------------


def _players(n: int) -> GameState:
    units = [(f"p{i}", PLAYER, f"{'BDFHJ'[i]}10", RIFLE) for i in range(n)]
    units.append(("npc", NPC, "F2", RIFLE))
    return position(units, events=True)


@pytest.mark.parametrize(
    ("n", "expected"),
    [(1, Fraction(1, 6)), (2, Fraction(11, 36)), (3, Fraction(91, 216)), (4, Fraction(671, 1296))],
)
def test_t002_06_sniper_hits_with_one_six_among_n_dice(n: int, expected: Fraction) -> None:
    state = _players(n)
    hits = 0
    for rolls in product(range(1, 7), repeat=n):
        dice = ScriptedDice(list(rolls), NON_JOKERS)
        _, events = ev.sniper(state, dice)
        hits += any(e.type == "event_hit" for e in events)
    assert Fraction(hits, 6**n) == expected


def test_t002_07_booby_trap_hits_over_both_dice() -> None:
    state = _players(1)
    counts: Counter[int] = Counter()
    for rolls in product(range(1, 7), repeat=2):
        dice = ScriptedDice(list(rolls), NON_JOKERS)
        _after, events = ev.booby_trap(state, dice)
        hit = [e for e in events if e.type == "event_hit"]
        counts[len(hit[0].get("hits")) if hit else 0] += 1
    assert {k: Fraction(v, 36) for k, v in counts.items()} == {
        0: Fraction(25, 36),
        1: Fraction(5, 18),
        2: Fraction(1, 36),
    }


def test_t002_08_barrage_kills_each_figure_and_terrain_item_on_a_six() -> None:
    terrain = [
        (
            "hab",
            "building",
            wall(8, 8, 10, 10),
            {"blocks_los": True, "impassable": True, "cover": "hard"},
        )
    ]
    state = position([("p", PLAYER, "B10", RIFLE), ("npc", NPC, "F2", RIFLE)], terrain)
    fallen = destroyed = 0
    for r1, r2, r3 in product(range(1, 7), repeat=3):
        after, _ = ev.barrage(state, ScriptedDice([r1, r2, r3]))
        fallen += sum(not u.on_table for u in after.units)
        destroyed += after.terrain[0].kind == "rubble"
        assert all(u.activated for u in after.units)  # everyone Turn Done
    assert Fraction(fallen, 216) == Fraction(2, 6)  # two figures, n/6 expected
    assert Fraction(destroyed, 216) == Fraction(1, 6)


# -- T002-09: scripted suit logic ---------------------------------------------------------------


def test_t002_09_hearts_7_no_cover_in_sight_fires_without_moving() -> None:
    state = _duel("F2", "F7")
    kind, got = _plan(state, "7H")
    assert kind == "move_and_fire" and got["target"] == "foe"
    assert tuple(got["cell"]) == state.unit("npc").cell  # type: ignore[arg-type]


def test_t002_09_clubs_3_enemy_at_6_stays_frosty() -> None:
    assert _plan(_duel("F2", "F8"), "3C")[0] == "stay_frosty"


def test_t002_09_spades_4_enemy_behind_a_wall_at_3_is_assaulted() -> None:
    block = [
        (
            "block",
            "building",
            wall(5, 8, 6, 9),
            {"blocks_los": True, "impassable": True, "cover": "hard"},
        )
    ]
    state = _duel("F2", "F5", block)
    kind, got = _plan(state, "4S")
    assert kind == "assault" and got["target"] == "foe"


def test_t002_09_diamonds_2_in_the_furthest_hard_cover_stays_frosty() -> None:
    block = [
        (
            "block",
            "building",
            wall(1, 9, 3, 11),
            {"blocks_los": True, "impassable": True, "cover": "hard"},
        )
    ]
    state = _duel("A1", "L12", block)
    assert _plan(state, "2D")[0] == "stay_frosty"


# -- each suit in constructed positions ------------------------------------------------------


def test_spades_aimed_fire_within_the_card_and_a_move_to_close_otherwise() -> None:
    state = _duel("F2", "F7")
    assert _plan(state, "5S") == ("aimed_fire", {"cell": None, "target": "foe"})
    assert _plan(state, "KS")[0] == "aimed_fire"  # a picture: any distance
    kind, got = _plan(state, "2S")
    assert kind == "move"
    # As close as it can: 4 squares nearer (from 5 away to 1 away).
    assert got["cell"] is not None and abs(got["cell"][1] - 5) <= 0  # type: ignore[index]


def test_hearts_move_and_fire_ends_in_soft_cover_and_moves_to_cover_otherwise() -> None:
    hedge = [("hedge", "hedge", wall(7, 8.6, 9, 9.2), {"cover": "soft"})]
    state = _duel("F2", "F9", hedge)
    kind, got = _plan(state, "9H")
    assert kind == "move_and_fire" and tuple(got["cell"]) != state.unit("npc").cell  # type: ignore[arg-type]
    from engine.rulesets.firefight_lite.board import square_cover

    assert square_cover(state, state.unit("npc"), tuple(got["cell"])) >= 1  # type: ignore[arg-type]
    kind, got = _plan(state, "2H")
    assert kind == "move" and square_cover(state, state.unit("npc"), tuple(got["cell"])) >= 1  # type: ignore[arg-type]
    # No cover anywhere near: Stay Frosty.
    assert _plan(_duel("F2", "F9"), "2H")[0] == "stay_frosty"


def test_clubs_move_and_fire_only_into_hard_cover() -> None:
    low_wall = [("wall", "wall", wall(7, 8.6, 9, 9.0), {"cover": "hard"})]
    state = _duel("F2", "F9", low_wall)
    kind, got = _plan(state, "8C")
    from engine.rulesets.firefight_lite.board import square_cover

    assert kind == "move_and_fire"
    assert square_cover(state, state.unit("npc"), tuple(got["cell"])) == 2  # type: ignore[arg-type]
    hedge = [("hedge", "hedge", wall(7, 8.6, 9, 9.2), {"cover": "soft"})]
    soft = _duel("F2", "F9", hedge)
    kind, got = _plan(soft, "8C")
    assert kind == "move_and_fire" and tuple(got["cell"]) == soft.unit("npc").cell  # type: ignore[arg-type]


def test_diamonds_fall_back_to_cover_away_from_the_enemy() -> None:
    block = [
        (
            "block",
            "building",
            wall(4, 9, 8, 10),
            {"blocks_los": True, "impassable": True, "cover": "hard"},
        )
    ]
    state = _duel("F5", "F9", block)
    kind, got = _plan(state, "2D")
    assert kind == "move"
    from engine.controllers.cards_suits import nearest_enemy_gap

    assert nearest_enemy_gap(state, state.unit("npc"), tuple(got["cell"])) > 4  # type: ignore[arg-type]


# -- T002-10 / 11 ------------------------------------------------------------------------------


def test_t002_10_a_resolved_event_card_never_comes_back() -> None:
    state = _players(1)
    state = replace(state, rules=replace(state.rules, phase="event"))
    pile = ("KS", JOKER, *[c for c in NON_JOKERS if c != "KS"], JOKER)
    state = state.with_deck(Deck(DECK, pile))
    after, events = ev.event_phase(state, ScriptedDice([1] * 10, ["KS"]))
    assert any(e.type == "random_event" and e.get("card") == "KS" for e in events)
    deck = after.deck(DECK)
    assert deck.removed == ("KS",) and "KS" not in deck.draw_pile + deck.discard
    after = replace(after, rules=replace(after.rules, phase="event", reacting=None))
    again, events = ev.event_phase(after, SeededDice(3))
    deck = again.deck(DECK)
    assert "KS" not in deck.draw_pile + deck.discard and deck.removed == ("KS",)


@pytest.mark.parametrize(("seeing", "choice"), [(True, "first"), (False, "second")])
def test_t002_11_initiative_first_when_a_figure_sees_an_enemy(seeing: bool, choice: str) -> None:
    block = [
        (
            "block",
            "building",
            wall(0, 5, 12, 6),
            {"blocks_los": True, "impassable": True, "cover": "hard"},
        )
    ]
    state = _duel("F2", "F10", [] if seeing else block)
    state = replace(state, rules=replace(state.rules, phase="initiative"))
    rs = ruleset()
    tied = rs.apply(state, Action("chance"), ScriptedDice([3, 3]))  # a tie: roll again
    assert rs.pending(tied.state).kind is PendingKind.CHANCE
    rolled = rs.apply(tied.state, Action("chance"), ScriptedDice([2, 5]))  # the NPC wins
    pending = rs.pending(rolled.state)
    assert pending.kind is PendingKind.CHOICE and pending.side == NPC
    assert CardsAI().choose(rolled.state, rs, pending, SeededDice(1)) == choice
    assert isinstance(rolled.state.rules, FFState)


def test_event_table_has_twelve_picture_cards() -> None:
    assert sorted(EVENTS) == sorted(c for c in NON_JOKERS if is_picture(c))


def test_spades_assaults_only_an_enemy_out_of_sight() -> None:
    """D002-07/08: an enemy in sight within the card but beyond weapon range is no target,
    and not an assault either (it is in sight): the figure moves to close in."""
    state = position([("npc", NPC, "F2", {"move": 4, "range": 2}), ("foe", PLAYER, "F6", RIFLE)])
    assert _plan(state, "5S")[0] == "move"


def test_hearts_already_on_the_nearest_covered_square_stays_frosty() -> None:
    """Hearts 2: behind a wall that no move gets round in cover, it stays frosty."""
    barrier = [
        ("wall", "wall", wall(0, 9, 12, 10), {"cover": "hard", "impassable": True}),
    ]
    state = _duel("F2", "F9", barrier)
    assert _plan(state, "2H")[0] == "stay_frosty"


def test_d002_06_gap_field_is_the_chebyshev_gap_to_the_nearest_enemy() -> None:
    from engine.controllers.cards_suits import gap_field

    state = _duel("F5", "F9")
    grid = state.table.grid
    assert grid is not None
    enemies = frozenset({(1, 2), (7, 3), (4, 9)})
    field = gap_field(state, enemies)
    for col, row in grid.cells():
        want = min(max(abs(col - c), abs(row - r)) for c, r in enemies)
        assert field[row][col] == want
    assert gap_field(state, frozenset())[0][0] == 0


def test_a_scenarios_games_share_the_gap_field() -> None:
    """The field reads nothing but its grid and enemy squares: computed once for the games of
    one scenario (as its lru_cache did before issue 25), not once per game."""
    from pathlib import Path

    from engine.controllers.cards_suits import gap_field
    from engine.protocols import find_ruleset
    from engine.scenario import parse_scenario

    path = Path(__file__).parents[2] / "assistant/data/scenarios/bosworth-street.toml"
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
    rules = find_ruleset(scenario.scenario.ruleset)
    first, second = rules.new_game(scenario), rules.new_game(scenario)
    enemies = frozenset({(1, 2), (7, 3)})
    assert gap_field(first, enemies) is gap_field(second, enemies)
