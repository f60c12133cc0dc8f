"""Exact chance outcomes (engine/chance.py, ``Ruleset.chance_outcomes``): the walk itself, every
system's chance steps and rolling actions in a seeded battle, and the derived odds of RULES.md
(T000-01, T001A-01, T001B-01/03, T002-01, T003-06, the seed-004 patrol table and wound chances)
read from the outcomes of the real ``apply``."""

from __future__ import annotations

from fractions import Fraction

import pytest

from assistant.scenarios import load_game
from engine.actions import Action, ActionKind, EventType
from engine.chance import (
    ChanceLimitError,
    ChanceMismatchError,
    chance_of,
    draws_probability,
    log_probability,
    outcomes_of,
    picks_of,
    reroll_until,
    roll_pool,
    walk,
)
from engine.dice import RandomSource, ScriptedDice, SeededDice, Shuffle
from engine.errors import EngineError
from engine.model import GameState
from engine.protocols import PendingKind, Ruleset
from engine.runner import acting_side, controllers_for, next_action, with_order_memory


def _two_d6(dice: RandomSource) -> int:
    return dice.roll(6, "first") + dice.roll(6, "second")


# ------------------------------------------------------------------------- the walk
def test_two_dice_sum_is_the_triangle_in_exact_fractions() -> None:
    outcomes = dict(outcomes_of(_two_d6))
    assert outcomes == {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}
    assert all(isinstance(p, Fraction) for p in outcomes.values())


def test_a_draw_weighs_copies_and_a_shuffle_is_one_hidden_outcome() -> None:
    def run(dice: RandomSource) -> tuple[str, str]:
        pile = dice.shuffle("d", ("joker", "AS", "joker", "KH"), "shuffle")
        first = dice.draw("d", pile, "first")
        rest = list(pile)
        rest.remove(first)
        return first, dice.draw("d", rest, "second")

    leaves = list(walk(run))
    assert sum(lf.probability for lf in leaves) == 1
    firsts = dict(outcomes_of(run, key=lambda v: v[0]))
    assert {v[0]: p for v, p in firsts.items()} == {
        "joker": Fraction(1, 2),
        "AS": Fraction(1, 4),
        "KH": Fraction(1, 4),
    }
    both_jokers = chance_of(outcomes_of(run), lambda v: v == ("joker", "joker"))
    assert both_jokers == Fraction(1, 2) * Fraction(1, 3)


def test_a_pool_branches_over_multisets_with_the_chances_of_single_dice() -> None:
    pooled = dict(outcomes_of(lambda d: roll_pool(d, 3, 6, "die {}".format)))
    single = dict(outcomes_of(lambda d: tuple(sorted(d.roll(6, f"die {k}") for k in range(3)))))
    assert pooled == single
    assert len(pooled) == 56  # C(8, 3) multisets, not 216 orders
    # Seeded dice roll the pool one die at a time: the same stream as three rolls.
    a, b = SeededDice(7), SeededDice(7)
    assert roll_pool(a, 3, 6, "die {}".format) == tuple(sorted(b.roll(6, "x") for _ in range(3)))


def test_a_reroll_loop_is_finite_and_exact() -> None:
    def roll_off(dice: RandomSource) -> str:
        (a, b), _ = reroll_until(
            dice, lambda d: (d.roll(6, "a"), d.roll(6, "b")), lambda p: p[0] != p[1]
        )
        return "a" if a > b else "b"

    assert dict(outcomes_of(roll_off)) == {"a": Fraction(1, 2), "b": Fraction(1, 2)}
    # Weighing a story with two ties before the result counts every die.
    assert draws_probability(roll_off, [3, 3, 5, 5, 6, 1]) == Fraction(1, 6**6)
    dice = ScriptedDice([2, 2, 4, 1])
    assert reroll_until(dice, lambda d: (d.roll(6, "a"), d.roll(6, "b")), lambda p: p[0] != p[1]) == ((4, 1), ((2, 2),))  # fmt: skip


def test_the_walk_stops_at_its_limit_with_a_named_error() -> None:
    with pytest.raises(ChanceLimitError, match=r"eight dice.*more than 100 runs"):
        outcomes_of(lambda d: [d.roll(6, "x") for _ in range(8)], limit=100, what="eight dice")


def test_a_depth_walk_is_exact_for_the_first_draws() -> None:
    leaves = list(walk(lambda d: [d.roll(6, "x") for _ in range(8)], depth=1))
    assert len(leaves) == 6 and sum(lf.probability for lf in leaves) == 1
    assert [lf.draws for lf in leaves][2] == (3, 1, 1, 1, 1, 1, 1, 1)


def test_draws_probability_weighs_impossible_and_mismatched_stories() -> None:
    assert draws_probability(_two_d6, [6, 6]) == Fraction(1, 36)
    assert draws_probability(_two_d6, [7, 1]) == 0
    assert log_probability(Fraction(0)) == float("-inf")
    with pytest.raises(ChanceMismatchError, match="more than the 1 draws"):
        draws_probability(_two_d6, [6])
    with pytest.raises(ChanceMismatchError, match="makes 2 draws, not the 3 given"):
        draws_probability(_two_d6, [6, 6, 6])


# ------------------------------------------------------------ every system, in a battle
BATTLES = {
    "narrative": ("crossroads-ambush", {"chance", "shoot", "move_into_melee"}),
    "narrative card AI": ("crossroads-cards", {"chance"}),
    "strike": ("strike-causeway", {"choose"}),
    "skirmish2d6": ("skirmish-cairns", {"chance", "charge"}),
    "firefight-lite": ("bosworth-street", {"chance", "move_and_fire"}),
    "d20": ("d20-basic-battle", {"chance"}),
    "dungeon": ("dungeon-crawl", {"chance", "attack"}),
}
LIMIT = 600
"""Runs a step's walk may take here (larger trees are skipped: the limit test covers them)."""


def _replayed(ruleset: Ruleset, state: GameState, action: Action, draws: tuple[object, ...]):  # type: ignore[no-untyped-def]
    dice = ScriptedDice(
        [d for d in draws if isinstance(d, int)], [d for d in draws if isinstance(d, str)]
    )
    outcome = ruleset.apply(state, action, dice)
    assert dice.remaining == 0
    return outcome


@pytest.mark.parametrize("system", sorted(BATTLES))
def test_every_random_step_of_a_battle_has_exact_outcomes_that_apply_reproduces(
    system: str,
) -> None:
    """For each step of a seeded battle whose apply draws: the outcomes sum to exactly 1, each
    outcome's draws replayed through apply give its state and events, the battle's own result
    is one of them (when no shuffle hid the order), and its draws weigh what the walk says."""
    name, kinds = BATTLES[system]
    scenario, ruleset, state = load_game(name)
    controllers = controllers_for(scenario)
    dice = SeededDice(1)
    planned: list[Action] = []
    seen: set[str] = set()
    for _ in range(70):
        if kinds <= seen:
            break
        chosen = next_action(state, ruleset, controllers, dice, planned)
        if chosen is None:
            break
        action, order = chosen
        before = len(dice.log)
        outcome = ruleset.apply(state, action, dice)
        log = dice.log[before:]
        if log:
            try:
                outcomes = ruleset.chance_outcomes(state, action, limit=LIMIT)
            except ChanceLimitError:
                outcomes = None
            if outcomes is not None:
                seen.add(str(action.kind))
                assert sum(p for _, p in outcomes) == 1
                assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
                for result, p in outcomes[:40]:
                    again = _replayed(ruleset, state, action, result.draws[0])
                    assert (again.state, again.events) == (result.state, result.events)
                    # Each draw sequence is one way to it (a pool or a re-roll loop adds more).
                    weights = [ruleset.draws_probability(state, action, d) for d in result.draws]
                    assert all(w > 0 for w in weights) and sum(weights) <= p
                if system == "dungeon" and action.kind == "attack" and action.target_id:
                    _dungeon_wound_chance(state, action, outcome.events, outcomes)
                if not any(isinstance(e, Shuffle) for e in log):
                    mine = [
                        p
                        for r, p in outcomes
                        if r.state == outcome.state and r.events == outcome.events
                    ]
                    assert len(mine) == 1, f"{action.kind}: the battle's own outcome is not listed"
            assert ruleset.draws_probability(state, action, picks_of(log)) > 0
        state = with_order_memory(outcome.state, acting_side(state, action), order)
    assert kinds <= seen, f"{name}: walked {sorted(seen)}"


def _dungeon_wound_chance(state, action, events, outcomes) -> None:  # type: ignore[no-untyped-def]
    """RULES §6.j: an attack wounding on N+ wounds with (7 - N)/6, read from the target's
    wounds (or its fall) in each outcome of the real attack."""
    need = next(e.get("need") for e in events if e.type == "attack")
    target = state.unit(action.target_id)

    def hurt(o) -> bool:  # type: ignore[no-untyped-def]
        after = o.state.unit(target.id)
        return bool(after.wounds > target.wounds or not after.on_table)

    assert chance_of(outcomes, hurt) == Fraction(7 - need, 6)


def test_a_step_without_draws_has_one_outcome_and_a_decision_is_not_a_chance_step() -> None:
    _scenario, ruleset, state = load_game("crossroads-ambush")
    outcomes = ruleset.chance_outcomes(state)  # the initiative d6 (T000-05: 1-3 the AI)
    assert [p for _, p in outcomes] == [Fraction(1, 6)] * 6
    ai = next(s.name for s in state.sides if s.role == "ai")
    assert chance_of(outcomes, lambda o: o.state.active_side == ai) == Fraction(1, 2)
    after = outcomes[0][0].state
    assert ruleset.pending(after).kind is not PendingKind.CHANCE
    with pytest.raises(EngineError, match="not a chance step"):
        ruleset.chance_outcomes(after)
    passing = Action(ActionKind.PASS, side=ruleset.pending(after).side)
    assert not ruleset.validate(after, passing)
    (only,) = ruleset.chance_outcomes(after, passing)
    assert only[1] == 1 and only[0].draws == ((),)


# ------------------------------------------------------- RULES.md's derived odds, from apply
NARRATIVE_WOUND = {-3: (1, 6), -2: (1, 6), -1: (1, 3), 0: (1, 2), 1: (2, 3), 2: (5, 6), 3: (5, 6)}
"""T000-01: P(wound) by delta = ATK - DEF."""


@pytest.mark.parametrize("delta", sorted(NARRATIVE_WOUND))
def test_t000_01_narrative_wound_chance(delta: int) -> None:
    from builders import AI, HUMANS, build, shoot, unit

    ruleset, state = build(
        [
            unit("a", AI, 12, 12, heading=180, atk=max(delta, 0), rng=12),
            unit("t", HUMANS, 12, 6, dfn=max(-delta, 0), slots=5),
        ]
    )
    outcomes = ruleset.chance_outcomes(state, shoot("a", "t"))
    wounded = chance_of(outcomes, lambda o: o.state.unit("t").wounds == 1)
    assert wounded == Fraction(*NARRATIVE_WOUND[delta])
    assert any(e.type == EventType.WOUND for o, _ in outcomes for e in o.events)


@pytest.mark.parametrize(
    ("n", "exact"),
    [(1, Fraction(1, 6)), (2, Fraction(11, 36)), (3, Fraction(91, 216)), (4, Fraction(671, 1296))],
)
def test_t001a_01_strike_oracle_pool_shows_a_face(n: int, exact: Fraction) -> None:
    from engine.rulesets.strike.state import rules_of
    from tests.strike.builders import RULESET, game, soldier

    state = game(
        [
            soldier("a1", "A", 6, 4, initiative=n),
            soldier("b1", "B", 6, 20, initiative=1 if n > 1 else 2),
        ],
        options={"first_player": "fewer-dice"},
    )
    assert RULESET.pending(state).kind is PendingKind.CHANCE
    outcomes = RULESET.chance_outcomes(state)
    assert sum(p for _, p in outcomes) == 1
    assert chance_of(outcomes, lambda o: 6 in rules_of(o.state).pool("A")) == exact
    assert chance_of(outcomes, lambda o: len(rules_of(o.state).pool("A")) == n) == 1
    for result, _ in outcomes[:: max(1, len(outcomes) // 20)]:  # a pool replays die by die
        again = _replayed(RULESET, state, Action(ActionKind.CHANCE), result.draws[0])
        assert (again.state, again.events) == (result.state, result.events)


def test_t001b_01_and_04_skirmish_opposed_hit_with_a_sword() -> None:
    """T001B-04: Sword, Skill 3 against Skill 1: P(Hit) = 287/432 (the d = +2 row of T001B-01);
    only the four dice of the hit check branch (the damage dice that follow are another
    check)."""
    from tests.skirmish2d6.fights import A, B, fight, fighter, game

    ruleset, state = game(
        [fighter("att", A, 10.0, 10.0, skill=3), fighter("dfd", B, 11.0, 10.0, skill=1, armor=2)]
    )
    leaves = list(walk(lambda d: ruleset.apply(state, fight("att", "dfd"), d).events, depth=4))
    assert len(leaves) == 6**4

    def hit(events: tuple[object, ...]) -> bool:
        first = next(e for e in events if getattr(e, "type", "") == "check")
        return first.get("result") == "success"  # type: ignore[attr-defined, no-any-return]

    assert sum(lf.probability for lf in leaves if hit(lf.value)) == Fraction(287, 432)


def test_t001b_03_skirmish_charge_reach_by_the_rules_roll() -> None:
    """T001B-03: P(2d6 >= d), by walking the skirmish's own 2d6."""
    from engine.rulesets.skirmish2d6.checks import roll_2d6

    totals = outcomes_of(lambda d: sum(roll_2d6(d, "charge")))
    reach = {2: 1, 3: Fraction(35, 36), 7: Fraction(7, 12), 9: Fraction(5, 18), 12: Fraction(1, 36)}
    for d, p in reach.items():
        assert chance_of(totals, lambda t, d=d: t >= d) == p  # type: ignore[misc]


def test_t002_01_firefight_first_event_draw() -> None:
    """T002-01: a fresh 54-card deck's first event-phase card: event 2/9, Joker 1/27, no
    event 20/27 (only the first draw branches; an event's own dice follow it)."""
    from dataclasses import replace

    from engine.cards import Deck
    from engine.rulesets.firefight_lite.deck import FULL_DECK
    from engine.rulesets.firefight_lite.state import DECK
    from tests.cards.positions import NPC, PLAYER, position, ruleset

    rifle = {"move": 4, "ranged": 1, "range": 24}
    state = position([("npc", NPC, "F2", rifle), ("foe", PLAYER, "F10", rifle)], events=True)
    state = replace(state, rules=replace(state.rules, phase="event")).with_deck(
        Deck(DECK, FULL_DECK)
    )
    rules = ruleset()
    assert rules.pending(state).kind is PendingKind.CHANCE
    leaves = list(walk(lambda d: rules.apply(state, Action(ActionKind.CHANCE), d), depth=1))
    assert len(leaves) == 53  # 52 cards and the Joker (two copies: 2/54)

    def share(kind: str) -> Fraction:
        return sum(
            (lf.probability for lf in leaves if any(e.type == kind for e in lf.value.events)),
            Fraction(0),
        )

    assert share("random_event") == Fraction(2, 9)
    assert sum(lf.probability for lf in leaves if lf.draws[0] == "joker") == Fraction(1, 27)
    assert share("no_event") == Fraction(1, 27) + Fraction(20, 27)


@pytest.mark.parametrize(("twice", "damage"), [(False, Fraction(3, 8)), (True, Fraction(15, 32))])
def test_t003_06_d20_melee_damage(twice: bool, damage: Fraction) -> None:
    """T003-06: melee hits on 6+ and the defence fails on 10 or less: 3/8 per attack (15/32
    when the attacker rolls twice), read from the target's wounds after the real attack."""
    from tests.d20.test_rules_builders import battle, enemy, hero, ruleset, start

    state = start(
        battle(
            [hero("h1", "B6", attack_twice=twice), enemy("e1", "B5", wounds=3), enemy("e2", "H1")]
        )
    )
    attack = Action("attack", "h1", target_id="e1")
    if not twice:
        outcomes = ruleset().chance_outcomes(state, attack)
        assert sum(p for _, p in outcomes) == 1
        assert chance_of(outcomes, lambda o: o.state.unit("e1").wounds == 1) == damage
    # The attack's dice and the defence die decide the wound (what follows is the next step's).
    leaves = list(walk(lambda d: ruleset().apply(state, attack, d).state, depth=3 if twice else 2))
    assert sum(lf.probability for lf in leaves if lf.value.unit("e1").wounds == 1) == damage


def test_dungeon_patrol_table_and_wound_chance() -> None:
    """RULES §6.j: the d8 patrol table (a 3 re-rolls its turn while it shows 1-3), walked
    through the controller's own roll; and an attack's wound chance from the ruleset's apply."""
    from engine.rulesets.dungeon.resolve import patrol_turn
    from engine.rulesets.dungeon.tactics import roll_patrol

    _scenario, _ruleset, state = load_game("dungeon-crawl")
    troll = next(u for u in state.units if "troll" in u.id)
    table = outcomes_of(lambda d: roll_patrol(troll, d)[:2])
    assert sum(p for _, p in table) == 1
    half: dict[float, Fraction] = {}
    for (roll, turn), p in table:
        if roll == 3:
            half[patrol_turn(3, turn)] = half.get(patrol_turn(3, turn), Fraction(0)) + p
    assert half == {0.0: Fraction(1, 20), 90.0: Fraction(1, 40), 180.0: Fraction(1, 40), 270.0: Fraction(1, 40)}  # fmt: skip
    assert chance_of(table, lambda v: v[0] in (1, 2)) == Fraction(1, 4)


# ------------------------------------------------- the odds command's numbers, walked
def test_the_walked_odds_agree_with_the_counted_tables() -> None:
    """``soloscope odds`` now walks each system's own roll function; the counts written beside
    the rules (kept for the AI) give the same fractions over every input the command takes."""
    from engine import odds
    from engine.rulesets.d20 import state as d20_state
    from engine.rulesets.skirmish2d6 import checks as skirmish2d6_checks
    from engine.rulesets.strike import odds as strike_odds

    assert odds.narrative_wound_chance(1, 0, moved=True) == Fraction(1, 2)  # T000-02
    for n, k in [(0, 0), (1, 1), (5, 1), (8, 2), (12, 3), (13, 1), (200, 30)]:
        assert odds.strike_pool_at_least(n, k) == strike_odds.p_at_least(n, k)
    for need in range(1, 22):
        for twice in (False, True):
            assert odds.d20_hit_chance(need, twice) == d20_state.p_at_least(need, twice)
    for kind, cover in (("melee", False), ("long", False), ("long", True)):
        for a, b in ((False, False), (True, False), (False, True), (True, True)):
            assert odds.d20_damage_chance(kind, cover, a, b) == d20_state.p_damage(
                kind, cover, a, b
            )
    for d in range(-12, 13):
        walked, counted = odds.skirmish_opposed(d), skirmish2d6_checks.opposed_odds(d)
        assert (walked.success, walked.draw, walked.fail) == (
            counted.success,
            counted.draw,
            counted.fail,
        )
        assert walked.advantage_at_least(3) == counted.advantage_at_least(3)
        assert walked.advantage_at_least(5) == counted.advantage_at_least(5)
    assert [odds.skirmish_recover(s) for s in range(-4, 8)] == [skirmish2d6_checks.recover_odds(s) for s in range(-4, 8)]  # fmt: skip
    assert [odds.skirmish_charge_reach(r / 2) for r in range(73)] == [skirmish2d6_checks.charge_reach(r / 2) for r in range(73)]  # fmt: skip


def test_firefight_and_dungeon_odds_are_walked_through_their_rules() -> None:
    """``soloscope odds firefight-lite`` and ``odds dungeon`` read the engine's walks: T002-03
    (the card AI's fire order at d squares), the FF-lite shot's to-hit and save d6 (D002-10),
    and the seed-004 attack, its binomial over several attacks and the patrol table (§6.j)."""
    from engine import odds

    for d in range(1, 14):  # T002-03: (max(0, 11 - d) + 3)/13 up to 10 squares, 3/13 beyond
        assert odds.firefight_card_fires(d) == Fraction(max(0, 11 - d) + 3, 13)
    for ranged in range(6):
        for cover in range(3):
            for aimed in (False, True):
                for armour in range(6):
                    for strength in range(1, 5):
                        shot = odds.firefight_shot(ranged, cover, aimed, armour, strength)
                        hit = Fraction(max(0, min(6, 2 + ranged + aimed - cover)), 6)
                        fail = Fraction(max(0, min(6, 3 + strength - armour)), 6)
                        assert (shot.hit, shot.wound) == (hit, hit * fail)
    assert [odds.dungeon_wound_chance(n) for n in range(1, 7)] == [Fraction(7 - n, 6) for n in range(1, 7)]  # fmt: skip
    assert odds.dungeon_defeat_chance(3, 2, 2) == Fraction(4, 9)  # Fighting Man vs troll
    assert odds.dungeon_defeat_chance(3, 2, 3) == Fraction(20, 27)
    assert odds.dungeon_defeat_chance(4, 1, 1) == Fraction(1, 2)
    table = odds.dungeon_patrol()
    assert sum(p for _, p in table) == 1 and all(isinstance(p, Fraction) for _, p in table)
    assert [row for row, _ in table][:3] == [(1, None), (2, None), (3, 4)]
    assert dict(table)[(3, 8)] == Fraction(1, 40) and dict(table)[(8, None)] == Fraction(1, 8)


def test_given_draws_condition_the_walk() -> None:
    rest = {lf.value: lf.probability for lf in walk(_two_d6, given=[6])}
    assert rest == {t: Fraction(1, 6) for t in range(7, 13)}
    with pytest.raises(EngineError, match="not a result of a 6-sided die"):
        list(walk(_two_d6, given=[7]))
    with pytest.raises(ChanceMismatchError, match="fewer than the 3 given"):
        list(walk(_two_d6, given=[1, 2, 3]))


def test_t003_07_d20_morale_after_the_fourth_loss_of_six() -> None:
    """T003-07: a weaker or equal side's morale d20: pass 1/2, retreat 9/20, defeated 1/20; the
    morale dice that follow a wounding hit (attack 6, defence 1) on the fourth loss of six
    (T003-14), walked through the real attack."""
    from dataclasses import replace

    from engine.model import UnitStatus
    from tests.d20.test_rules_builders import battle, enemy, hero, ruleset, start

    units = [hero("h1", "B6", power=1)] + [
        enemy(f"e{i}", f"{'BCDEFG'[i]}{5 if i == 0 else 1}") for i in range(6)
    ]
    state = start(battle(units))
    for i in range(1, 4):
        state = state.with_unit(replace(state.unit(f"e{i}"), status=UnitStatus.FALLEN))
    attack = Action("attack", "h1", target_id="e0")
    leaves = list(walk(lambda d: ruleset().apply(state, attack, d), given=[6, 1]))
    assert sum(lf.probability for lf in leaves) == 1

    def first_morale(leaf) -> str:  # type: ignore[no-untyped-def]
        return next(e.get("result") for e in leaf.value.events if e.type == "morale")

    shares: dict[str, Fraction] = {}
    for leaf in leaves:
        shares[first_morale(leaf)] = shares.get(first_morale(leaf), Fraction(0)) + leaf.probability
    assert shares == {
        "pass": Fraction(1, 2),
        "retreat": Fraction(9, 20),
        "defeated": Fraction(1, 20),
    }
