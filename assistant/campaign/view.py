"""What ``campaign show`` prints and the campaign page draws: the roster, the battles, the
scenario graph with the path taken so far, the next battle."""

from __future__ import annotations

from typing import Any

from assistant.campaign.store import BattleRow, CampaignStore
from assistant.campaign.wounds import LOST

WOUND_RULES = {
    "A": "the wounds a character ends a battle with carry over to the next; a character who "
    "fell returns with every wound slot filled",
    "B": "after a battle each wound heals on a d6 roll of 4-6; a character who fell is lost on "
    "1-2 and otherwise returns with every wound slot filled",
}
"""The campaign's wound options, in words (a player does not know the rules' numbering)."""


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an s unless ``n`` is 1: "1 battle", "0 kills"."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def _fell_last_battle(store: CampaignStore, battles: list[BattleRow]) -> dict[str, str]:
    """The characters who fell in the latest battle, each with where that was."""
    if not battles:
        return {}
    last = battles[-1]
    node = store.campaign().node(last.node)
    place = node.place or node.title or last.scenario
    return {entry.key: place for entry, _ in store.battle_units(last.n) if entry.fallen}


def condition(status: str, wounds: int, fell_at: str | None, unresolved: BattleRow | None) -> str:
    """How a character is, in words for the roster: a character who fell in the latest battle
    is said to have fallen there (not "fit", even when its card has no wound slots to carry a
    wound into the next battle), and what that means once the wounds are resolved."""
    if status == LOST:
        return f"lost at {fell_at}" if fell_at else "lost"
    if fell_at is None:
        return f"wounded, {plural(wounds, 'wound')}" if wounds else "fit"
    if unresolved is not None:
        return f"fell at {fell_at} (wounds not resolved yet)"
    if wounds:
        return f"fell at {fell_at}, back with {plural(wounds, 'wound')}"
    return f"fell at {fell_at}, back unhurt (no wound slots to fill)"


def campaign_json(store: CampaignStore) -> dict[str, Any]:
    """``campaign show --json``: ``{"campaign", "next", "roster": [{"name", "tag", "wounds",
    "status"}], "battles": [{"scenario", "seed", "outcome"}]}`` (the contract), plus details:
    the title, the wound option and its rule in words, each character's battles, kills and where its wounds come
    from, where it fell when that was in the latest battle ("fell_at") and its condition in
    words ("condition"), each battle's id, run folder and resolution, the flags, and the
    graph."""
    campaign = store.campaign()
    current = store.current()
    next_scenario = None
    if current is not None:
        next_scenario = campaign.node(current).scenario.removesuffix(".toml")
    unresolved = store.unresolved()
    battles = store.battles()
    taken = [b.node for b in battles]
    fell_at = _fell_last_battle(store, battles)
    return {
        "campaign": campaign.campaign.name,
        "title": campaign.campaign.title or campaign.campaign.name,
        "ruleset": campaign.campaign.ruleset,
        "wound_option": campaign.campaign.wounds,
        "wound_rule": WOUND_RULES.get(campaign.campaign.wounds, ""),
        "next": next_scenario,
        "next_battle": current,
        "unresolved": unresolved.n if unresolved is not None else None,
        "roster": [
            {
                "name": c.name,
                "tag": c.tag,
                "wounds": c.wounds,
                "status": c.status,
                "id": c.key,
                "battles": c.battles,
                "kills": c.kills,
                "wound_from": c.wound_from,
                "recovered": c.recovered,
                "fell_at": fell_at.get(c.key) if c.status != LOST else None,
                "condition": condition(c.status, c.wounds, fell_at.get(c.key), unresolved),
            }
            for c in store.characters()
        ],
        "battles": [
            {
                "scenario": b.scenario,
                "seed": b.seed,
                "outcome": b.outcome,
                "battle": b.node,
                "n": b.n,
                "played": b.played,
                "run": b.run_dir,
                "resolved": b.resolved,
                "resolution": [line for line in b.resolution.split("\n") if line],
                "wounds": [
                    {
                        "id": entry.key,
                        "name": entry.name,
                        "wounds": entry.wounds,
                        "slots": entry.slots,
                        "fallen": entry.fallen,
                        "kills": kills,
                    }
                    for entry, kills in store.battle_units(b.n)
                ],
            }
            for b in battles
        ],
        "flags": sorted(store.flags()),
        "graph": [
            {
                "id": node.id,
                "title": node.title or node.id,
                "scenario": node.scenario,
                "next": dict(node.next),
                "played": node.id in taken,
                "current": node.id == current,
            }
            for node in campaign.battles
        ],
        "path": taken + ([current] if current is not None else []),
    }


def campaign_lines(data: dict[str, Any]) -> list[str]:
    """``campaign show`` for people: the roster, the history, the next battle."""
    lines = [f"{data['title']} ({data['campaign']}, wounds: option {data['wound_option']})"]
    if data["wound_rule"]:
        lines.append(f"Option {data['wound_option']}: {data['wound_rule']}.")
    lines.append("Roster:")
    for c in data["roster"]:
        where = f" from {c['wound_from']}" if c["wound_from"] and not c["fell_at"] else ""
        lines.append(
            f"  {c['name']} (tag {c['tag']}): {c['condition']}{where}; "
            f"{plural(c['battles'], 'battle')}, {plural(c['kills'], 'kill')}"
        )
    lines.append("Battles:" if data["battles"] else "Battles: none yet")
    for b in data["battles"]:
        pending = "" if b["resolved"] else " (wounds not resolved yet)"
        lines.append(
            f"  {b['n']}. {b['battle']} ({b['scenario']}, seed {b['seed']}): {b['outcome']}{pending}"
        )
    if data["unresolved"] is not None:
        lines.append(f"Next: resolve the wounds of battle {data['unresolved']} (campaign resolve).")
    elif data["next"] is None:
        lines.append("Next: none; the campaign is over.")
    else:
        lines.append(f"Next: {data['next_battle']} ({data['next']}).")
    return lines
