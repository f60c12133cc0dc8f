"""The exact probabilities of RULES §6.j, by enumerating every die result through the rules'
own functions (Fractions, no sampling)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from engine.actions import Action
from engine.dice import ScriptedDice
from engine.model import UnitStatus
from engine.rulesets.dungeon.cards import PRESETS, read_card
from engine.rulesets.dungeon.resolve import patrol_run, patrol_turn
from engine.rulesets.dungeon.state import RETREATING, card_of
from engine.rulesets.dungeon.tactics import roll_patrol
from engine.scenario import parse_scenario
from tests.dungeon.boards import acting, r_chance, ruleset, started

SCENARIOS = Path(__file__).resolve().parents[2] / "assistant" / "data" / "scenarios"
EIGHTH = Fraction(1, 8)


def _reroll_distribution() -> dict[int, Fraction]:
    """The turn re-roll after a 3: every script [3, 1..3 repeated, 4..8] through roll_patrol
    gives its last die; each extra 1-3 multiplies by 3/8, so a final t has
    sum_k (3/8)^k * 1/8 = 1/5."""
    figures = [("e", "goblin", (4, 4), 0, "enemy"), ("h", "thief", (0, 7), 0, "hero")]
    unit = started(8, 8, figures).unit("e")
    out: dict[int, Fraction] = {}
    for t in range(4, 9):
        for lows in ((), (1,), (3, 2)):
            dice = ScriptedDice([3, *lows, t])
            assert roll_patrol(unit, dice)[1] == t and dice.remaining == 0
        out[t] = EIGHTH / (1 - Fraction(3, 8))
    return out


def patrol_outcomes() -> Counter[tuple[str, float]]:
    """(move: full / half / none, facing change) -> exact probability of one patrol."""
    figures = [("e", "goblin", (4, 4), 0, "enemy"), ("h", "thief", (0, 7), 0, "hero")]
    state = started(8, 8, figures)
    unit = state.unit("e")
    words = {2: "full", 1: "half", 0: "none"}
    odds: Counter[tuple[str, float]] = Counter()
    reroll = _reroll_distribution()
    for roll in range(1, 9):
        moved = words[len(patrol_run(state, unit, roll))]
        if roll == 3:
            for t, p in reroll.items():
                odds[(moved, patrol_turn(3, t))] += EIGHTH * p  # type: ignore[assignment]
        else:
            odds[(moved, patrol_turn(roll, None))] += EIGHTH  # type: ignore[assignment]
    return odds


def test_patrol_d8_full_distribution() -> None:
    odds = patrol_outcomes()
    assert dict(odds) == {
        ("full", 0.0): Fraction(1, 4),
        ("half", 0.0): Fraction(1, 20),
        ("half", 90.0): Fraction(1, 40),
        ("half", 180.0): Fraction(1, 40),
        ("half", 270.0): Fraction(1, 40),
        ("none", 0.0): Fraction(1, 4),
        ("none", 90.0): Fraction(1, 8),
        ("none", 180.0): Fraction(1, 8),
        ("none", 270.0): Fraction(1, 8),
    }
    assert sum(odds.values()) == 1


def test_patrol_aggregates_and_the_seed_003_cross_check() -> None:
    odds = patrol_outcomes()
    moves = sum(p for (m, _), p in odds.items() if m != "none")
    assert moves == Fraction(3, 8)
    assert sum(p for (m, _), p in odds.items() if m == "half") == Fraction(1, 8)
    turn: Counter[float] = Counter()
    for (_, t), p in odds.items():
        turn[t] += p
    assert turn == {
        0.0: Fraction(11, 20),
        90.0: Fraction(3, 20),
        180.0: Fraction(3, 20),
        270.0: Fraction(3, 20),
    }


@pytest.mark.parametrize(("move", "half"), [(3, 2), (2, 1), (4, 2), (1, 1)])
def test_half_move_rounds_up(move: int, half: int) -> None:
    card = f'{{ kind = "scout", move_sq = {move}, attacks = [{{ name = "bow", wound_on = 4 }}] }}'
    figures = [("e", card, (0, 7), 0, "enemy"), ("h", "thief", (7, 7), 0, "hero")]
    state = started(8, 8, figures)
    assert len(patrol_run(state, state.unit("e"), 3)) == half
    assert len(patrol_run(state, state.unit("e"), 1)) == move


def hits(weapon_on: int) -> Fraction:
    """P(wound) of one attack with a weapon wounding on ``weapon_on``+, every d6 applied."""
    figures = [("a", "fighting_man", (3, 3), 0, "hero"), ("t", "dragon", (3, 2), 180, "enemy")]
    card = '{ kind = "tester", attacks = [{ name = "w", wound_on = %d, adjacent_only = true }] }'
    figures[0] = ("a", card % weapon_on, (3, 3), 0, "hero")
    state = acting(started(8, 8, figures, heroes_have_moved=True), "a")
    wounded = 0
    for d6 in range(1, 7):
        out = ruleset().apply(
            state,
            Action("attack", "a", target_id="t", detail=(("weapon", "w"),)),
            ScriptedDice([d6]),
        )
        wounded += out.state.unit("t").wounds
    return Fraction(wounded, 6)


def test_per_attack_wound_chances_of_every_dungeon_weapon() -> None:
    expected = {3: Fraction(2, 3), 4: Fraction(1, 2), 5: Fraction(1, 3)}
    for need, p in expected.items():
        assert hits(need) == p
    chances = {}
    for kind in PRESETS:
        card = read_card({"kind": kind})
        for a in card.attacks:
            chances[(kind, a.name)] = Fraction(7 - a.wound_on, 6)
        if card.heal is not None:
            chances[(kind, "heal")] = Fraction(7 - card.heal.wound_on, 6)
    assert chances == {
        ("fighting_man", "sword"): Fraction(2, 3),
        ("magic_user", "fireball"): Fraction(1, 2),
        ("magic_user", "staff"): Fraction(1, 3),
        ("thief", "dagger"): Fraction(1, 2),
        ("priest", "mace"): Fraction(1, 2),
        ("priest", "heal"): Fraction(2, 3),
        ("goblin", "axe"): Fraction(1, 3),
        ("troll", "spear"): Fraction(1, 2),
        ("troll", "club"): Fraction(1, 3),
        ("dragon", "breath"): Fraction(2, 3),
        ("dragon", "claws"): Fraction(1, 2),
    }


@pytest.mark.parametrize(("attacks", "p"), [(2, Fraction(4, 9)), (3, Fraction(20, 27))])
def test_fighting_man_kills_a_troll_within_n_attacks(attacks: int, p: Fraction) -> None:
    r = ruleset()
    figures = [("fm", "fighting_man", (3, 3), 0, "hero"), ("t", "troll", (3, 2), 180, "enemy")]
    start = started(8, 8, figures, options={"monster_morale": False}, heroes_have_moved=True)
    sword = Action("attack", "fm", target_id="t", detail=(("weapon", "sword"),))
    dead = 0
    for rolls in product(range(1, 7), repeat=attacks):
        state = start
        for d6 in rolls:
            if not state.unit("t").on_table:
                break
            state = r.apply(acting(state, "fm"), sword, ScriptedDice([d6])).state
        dead += state.unit("t").status is UnitStatus.FALLEN
    assert Fraction(dead, 6**attacks) == p


@pytest.mark.parametrize("kind", ["goblin", "troll"])
def test_monster_retreat_chance_is_one_in_six_per_attack(kind: str) -> None:
    r = ruleset()
    figures = [("m", kind, (3, 3), 180, "enemy"), ("h", "fighting_man", (3, 4), 0, "hero")]
    state = acting(started(8, 8, figures, heroes_have_moved=True, alerted=("m",)), "m")
    weapon = "axe" if kind == "goblin" else "club"
    retreats = 0
    for d6 in range(1, 7):
        act = Action("attack", "m", target_id="h", detail=(("weapon", weapon),))
        events = r.apply(state, act, ScriptedDice([d6, 1])).events
        retreats += any(e.type == "status" and e.get("status") == RETREATING for e in events)
    assert Fraction(retreats, 6) == Fraction(1, 6)


def test_dragon_start_square_each_one_third() -> None:
    r = ruleset()
    path = SCENARIOS / "dungeon-crawl.toml"
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
    where: Counter[tuple[int, int] | None] = Counter()
    for d6 in range(1, 7):
        state = r.apply(r.new_game(scenario), r_chance(), ScriptedDice([d6])).state
        where[state.unit("dragon").cell] += 1
    assert {c: Fraction(n, 6) for c, n in where.items()} == {
        (0, 0): Fraction(1, 3),
        (7, 2): Fraction(1, 3),
        (0, 7): Fraction(1, 3),
    }


def test_minion_teams_of_the_dungeon_crawl() -> None:
    path = SCENARIOS / "dungeon-crawl.toml"
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
    state = ruleset().new_game(scenario)
    heroes = [u for u in state.units if u.side == "Heroes"]
    enemies = [u for u in state.units if u.side == "Monsters"]
    teams = Counter(card_of(u).minion_team for u in enemies if u.id != "dragon")
    assert len(teams) == len(heroes) + 1 == 5
    assert sorted(str(t) for t in teams) == [
        "goblins-1",
        "goblins-2",
        "goblins-3",
        "trolls-1",
        "trolls-2",
    ]
    assert all(n == 2 for n in teams.values())
    assert 3 <= len(enemies) == 11 <= 15
