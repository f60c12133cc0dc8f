"""What ``campaign show`` prints and the campaign page draws: the roster, the battles, the
scenario graph with the path taken so far, the next battle."""

from __future__ import annotations

from typing import Any

from assistant.campaign.store import CampaignStore


def campaign_json(store: CampaignStore) -> dict[str, Any]:
    """``campaign show --json``: ``{"campaign", "next", "roster": [{"name", "tag", "wounds",
    "status"}], "battles": [{"scenario", "seed", "outcome"}]}`` (the contract), plus details:
    the title, the wound option, each character's battles, kills and where its wounds come
    from, each battle's id, run folder and resolution, the flags, and the graph."""
    campaign = store.campaign()
    current = store.current()
    next_scenario = None
    if current is not None:
        next_scenario = campaign.node(current).scenario.removesuffix(".toml")
    unresolved = store.unresolved()
    battles = store.battles()
    taken = [b.node for b in battles]
    return {
        "campaign": campaign.campaign.name,
        "title": campaign.campaign.title or campaign.campaign.name,
        "ruleset": campaign.campaign.ruleset,
        "wound_option": campaign.campaign.wounds,
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
    lines.append("Roster:")
    for c in data["roster"]:
        wounds = f", {c['wounds']} wound(s)" if c["wounds"] else ""
        where = f" from {c['wound_from']}" if c["wound_from"] else ""
        lines.append(
            f"  {c['name']} (tag {c['tag']}): {c['status']}{wounds}{where}; "
            f"{c['battles']} battle(s), {c['kills']} kill(s)"
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
