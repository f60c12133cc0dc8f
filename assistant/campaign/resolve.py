"""``campaign resolve``: the last battle's wounds resolved (RULES D000-13) with rolled dice,
scripted results or the player's physical dice, written in one transaction, then shown and
spoken."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from assistant.campaign.battle import roster_units
from assistant.campaign.model import CampaignError
from assistant.campaign.rest import require_rest_rules
from assistant.campaign.store import CampaignStore
from assistant.campaign.view import plural
from assistant.campaign.wounds import LOST, resolve, rolls_needed
from assistant.errors import UserError
from engine.dice import DiceError, PhysicalDice, RandomSource, ScriptedDice, SeededDice


def entered_dice(ask: Callable[[str], str]) -> PhysicalDice:
    """Dice the player rolls at the table and types in (``ask`` shows a prompt and returns
    the answer); a mistyped result is asked again."""

    def roll(sides: int, purpose: str) -> int:
        while True:
            answer = ask(f"Roll a d{sides} for {purpose}: ").strip()
            if answer.isdigit() and 1 <= int(answer) <= sides:
                return int(answer)
            print(f"  {answer!r} is not a d{sides} result (1 to {sides}).")

    return PhysicalDice(roll)


def dice_for(kind: str, seed: int | None, rolls: Sequence[int] | None) -> RandomSource:
    """The dice for a resolution: ``rolls`` given in advance, the player's entered one by one
    (``physical``), or seeded (``auto``; a random seed when none is given)."""
    if rolls is not None:
        return ScriptedDice(rolls)
    if kind == "physical":
        return entered_dice(input)
    if seed is None:
        import secrets

        seed = secrets.randbelow(1_000_000)
    return SeededDice(seed)


def resolve_last(store: CampaignStore, dice: RandomSource) -> list[str]:
    """Resolve the wounds of the last battle; the lines to show and say (the first names the
    battle). CampaignError when nothing waits to be resolved or the dice run short."""
    battle = store.unresolved()
    if battle is None:
        raise CampaignError("no battle's wounds wait to be resolved")
    campaign = store.campaign()
    option = campaign.campaign.wounds
    node = campaign.node(battle.node)
    place = node.place or node.title or battle.scenario
    entries = [entry for entry, _ in store.battle_units(battle.n)]
    try:
        resolved = [resolve(option, entry, dice) for entry in entries]
    except DiceError as exc:
        raise CampaignError(
            f"{exc}; option {option} needs {rolls_needed(option, entries)} d6 here; nothing was "
            "changed"
        ) from None
    except (EOFError, KeyboardInterrupt):
        raise UserError("no dice were entered; nothing was changed") from None
    if isinstance(dice, ScriptedDice) and dice.remaining:
        raise CampaignError(
            f"{dice.remaining} more result(s) given than option {option} needs here "
            f"({rolls_needed(option, entries)}); nothing was changed"
        )
    header = f"After battle {battle.n} at {place} (wounds: option {option}):"
    lines = [header, *(r.text for r in resolved)]
    rested: list[tuple[str, int]] = []
    following = campaign.node(battle.next_node) if battle.next_node else None
    if following is not None and following.dawn:
        rules = require_rest_rules(campaign.campaign.ruleset)
        after = {r.key: r.wounds for r in resolved if r.status != LOST}
        lost = {r.key for r in resolved if r.status == LOST}
        for key, unit in roster_units(store, following.id, after).items():
            if key not in lost:
                rested.append((key, rules.morning(unit).wounds))
        lines.append(
            f"Dawn before {following.title or following.id}: a new day; every character "
            "rests, heals fully and may take the Recovery action again."
        )
    store.resolve(battle.n, resolved, place, "\n".join(lines), rested)
    return lines


def recover_character(store: CampaignStore, who: str) -> str:
    """A character takes the Recovery action between battles (RULES §5.b, D003-22), judged
    by the rule system's own hook; the sentence to show and say."""
    campaign = store.campaign()
    rules = require_rest_rules(campaign.campaign.ruleset)
    if store.unresolved() is not None:
        raise CampaignError("resolve the last battle's wounds first (campaign resolve)")
    node = store.current()
    if node is None:
        raise CampaignError("the campaign is over: there is no battle to recover for")
    wanted = who.strip().lower()
    rows = [r for r in store.characters() if wanted in (r.key.lower(), r.name.lower())]
    if not rows:
        names = ", ".join(r.name for r in store.characters())
        raise CampaignError(f"no character {who!r} in the roster (the roster: {names})")
    row = rows[0]
    if row.status == LOST:
        raise CampaignError(f"{row.name} is lost for the campaign")
    unit = rules.mark_recovered(roster_units(store, node)[row.key], row.recovered)
    after, why = rules.recovery(unit)
    if why:
        raise CampaignError(why)
    store.recover(row.key, after.wounds)
    return (
        f"{row.name} takes the Recovery action: {plural(row.wounds, 'wound')} before, "
        f"{after.wounds} now."
    )
