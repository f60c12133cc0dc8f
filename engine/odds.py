"""Exact odds of the rule systems' rolls, as ``soloscope odds`` prints them: each is the
distribution of the system's own roll function (the one its ``apply`` calls) walked by
:mod:`engine.chance`, not a formula written beside the rules.

A system's rules are imported inside its functions, so asking for one system's odds loads that
system only (``odds RULESET`` loads the one ruleset it is asked about).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from engine.chance import chance_of, outcomes_of
from engine.dice import RandomSource

NARRATIVE_MODIFIER_RANGE = range(0, 11)
"""Attack and defence modifiers the seed-000 odds take: whole numbers 0 to 10. RULES §2.b/§2.g
add the attacker's attack modifier and subtract the defender's defence modifier; a negative
defence would be an attack bonus in disguise, and past a difference of 2 the chance no longer
changes (§2.g saturation), so 10 leaves room for any card."""

WALKED_POOL = 12
"""The largest strike pool whose odds are walked die by die (its 6188 multisets); a larger pool
is counted by the binomial (:func:`engine.rulesets.strike.odds.p_at_least`), since the walk of
200 dice would list 2.9e9 pools."""


def narrative_modifier_error(name: str, value: int) -> str | None:
    """One sentence saying why ``value`` is not a seed-000 ``name`` modifier, or None if it is."""
    if value in NARRATIVE_MODIFIER_RANGE:
        return None
    low, high = NARRATIVE_MODIFIER_RANGE[0], NARRATIVE_MODIFIER_RANGE[-1]
    shown = str(value) if len(str(value)) <= 12 else f"{value:.3g}"
    return f"{name} must be a whole number from {low} to {high}, got {shown}"


def narrative_wound_chance(attack: int, defence: int, moved: bool = False) -> Fraction:
    """Seed 000: the chance that one attack wounds (RULES §2.g): the attack's d6 through the
    ruleset's ``wound_roll``."""
    from engine.rulesets.narrative.resolve import wound_roll

    delta = attack - defence - (1 if moved else 0)
    wounds = outcomes_of(lambda dice: wound_roll(dice.roll(6, "attack"), delta))
    return chance_of(wounds, bool)


def strike_pool_at_least(n: int, k: int = 1) -> Fraction:
    """The strike system's Oracle pool (T001A-01): P(at least ``k`` of ``n`` d6 show a given
    face), walked over the pools the ruleset rolls (:func:`engine.chance.roll_pool`) up to
    :data:`WALKED_POOL` dice, counted beyond."""
    from engine.chance import roll_pool
    from engine.rulesets.strike.odds import p_at_least

    if n > WALKED_POOL or n < 0 or k < 0:
        return p_at_least(n, k)
    pools = outcomes_of(lambda dice: roll_pool(dice, n, 6, "Oracle pool: die {}".format))
    return chance_of(pools, lambda pool: pool.count(6) >= k)


def d20_hit_chance(need: int, twice: bool = False) -> Fraction:
    """The d20 system: P(the attack's d20, or the higher of two, is ``need`` or more), through
    the ruleset's ``roll_best``."""
    from engine.rulesets.d20.combat import roll_best

    best = outcomes_of(lambda dice: roll_best(dice, twice, "attack")[0])
    return chance_of(best, lambda roll: roll >= need)


def d20_damage_chance(
    kind: str, cover: bool = False, attack_twice: bool = False, defend_twice: bool = False
) -> Fraction:
    """The d20 system (T003-06): P(an attack does damage): a hit, then a failed defence (the
    defence d20, or the higher of two, below the save)."""
    from engine.rulesets.d20.state import COVER_NEED, DEFEND_NEED, MELEE_NEED, RANGED_NEED

    need = MELEE_NEED if kind in ("melee", "reach") else (COVER_NEED if cover else RANGED_NEED)
    return d20_hit_chance(need, attack_twice) * (1 - d20_hit_chance(DEFEND_NEED, defend_twice))


@dataclass(frozen=True)
class OpposedChances:
    """The 2D6 skirmish's opposed check with stat difference ``d`` (T001B-01)."""

    d: int
    success: Fraction
    draw: Fraction
    fail: Fraction
    advantage: tuple[tuple[int, Fraction], ...]
    """Each Advantage (own total minus the opponent's) and its chance."""

    def advantage_at_least(self, n: int) -> Fraction:
        """P(Advantage >= n)."""
        return sum((p for a, p in self.advantage if a >= n), Fraction(0))


def skirmish_opposed(d: int) -> OpposedChances:
    """An opposed check, own stat minus the opponent's = ``d``, through the ruleset's
    ``opposed_check`` (both sides' 2D6)."""
    from engine.rulesets.skirmish2d6.checks import opposed_check

    def run(dice: RandomSource) -> int:
        return opposed_check(dice, "own", "stat", d, "other", "stat", 0, "odds").advantage

    advantage = tuple(sorted(outcomes_of(run)))
    success = chance_of(advantage, lambda a: a > 0)
    draw = chance_of(advantage, lambda a: a == 0)
    return OpposedChances(d, success, draw, 1 - success - draw, advantage)


def skirmish_recover(skill: int) -> Fraction:
    """P(a Recover succeeds): the ruleset's basic check, 2D6 + Skill over 7 (T001B-02)."""
    from engine.rulesets.skirmish2d6.checks import RECOVER_DIFFICULTY, basic_check

    results = outcomes_of(
        lambda dice: basic_check(dice, "own", "skill", skill, RECOVER_DIFFICULTY, "odds").result
    )
    return chance_of(results, lambda result: result == "success")


def skirmish_charge_reach(distance_in: float) -> Fraction:
    """P(a charge's 2D6 reaches ``distance_in`` inches) (T001B-03), through the ruleset's
    ``roll_2d6``."""
    from engine.rulesets.skirmish2d6.checks import roll_2d6

    totals = outcomes_of(lambda dice: sum(roll_2d6(dice, "charge")))
    return chance_of(totals, lambda total: total >= distance_in - 1e-9)


@dataclass(frozen=True)
class ShotChances:
    """The FF-lite shot (RULES §4, D002-10): the chance it hits, and that it wounds."""

    hit: Fraction
    wound: Fraction


def firefight_shot(ranged: int, cover: int, aimed: bool, armour: int, strength: int) -> ShotChances:
    """FF-lite: one shot at an ordinary figure (not a bot's dodge, not a citizen's missing
    save): the to-hit d6 through the ruleset's ``shot_total`` (``cover`` 0 open, 1 soft,
    2 hard), then the target's save d6 against ``save_need``."""
    from engine.rulesets.firefight_lite.combat import save_need, shot_total

    def run(dice: RandomSource) -> str:
        if not shot_total(dice.roll(6, "shot"), ranged, aimed, cover)[1]:
            return "miss"
        return "saved" if dice.roll(6, "save") >= save_need(strength, armour) else "wound"

    results = outcomes_of(run)
    wound = chance_of(results, lambda r: r == "wound")
    return ShotChances(wound + chance_of(results, lambda r: r == "saved"), wound)


def firefight_card_fires(distance_sq: int) -> Fraction:
    """FF-lite's card AI (§4.e, D002-02): the chance that a card drawn (no Joker) lets it
    fire at an enemy ``distance_sq`` squares away: a picture card at any distance, a number
    card within its value in squares (the ruleset's ``trigger_squares``)."""
    from engine.rulesets.firefight_lite.deck import FULL_DECK, JOKER, trigger_squares

    cards = tuple(c for c in FULL_DECK if c != JOKER)
    drawn = outcomes_of(lambda dice: dice.draw("cards", cards, "card"))

    def fires(card: str) -> bool:
        reach = trigger_squares(card)
        return reach is None or reach >= distance_sq

    return chance_of(drawn, fires)


def dungeon_wound_chance(need: int) -> Fraction:
    """The grid rules (§6.j): the chance an attack's d6 wounds on ``need``+ (``wounds_on``)."""
    from engine.rulesets.dungeon.combat import wounds_on

    return chance_of(outcomes_of(lambda dice: wounds_on(dice.roll(6, "attack"), need)), bool)


def dungeon_defeat_chance(need: int, wounds: int, attacks: int) -> Fraction:
    """The grid rules: the chance that ``attacks`` attacks wounding on ``need``+ deal at least
    ``wounds`` wounds (each attack one wound, independent: the binomial of one attack's
    chance, since a walk of 20 attacks would list 6^20 rolls)."""
    p = dungeon_wound_chance(need)
    return sum(
        (
            Fraction(comb(attacks, k)) * p**k * (1 - p) ** (attacks - k)
            for k in range(wounds, attacks + 1)
        ),
        Fraction(0),
    )


def dungeon_patrol() -> list[tuple[tuple[int, int | None], Fraction]]:
    """The grid rules' d8 patrol table (§6.j, D004-03): each (d8, turn re-roll after a 3)
    with its chance, through the AI's own ``patrol_dice``, in order of the rolls."""
    from engine.rulesets.dungeon.tactics import patrol_dice

    table = outcomes_of(lambda dice: patrol_dice(dice, "a patrolling enemy")[:2])
    return sorted(table, key=lambda row: (row[0][0], row[0][1] or 0))
