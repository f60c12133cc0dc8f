"""Rolls found by the replay against the rolls a rendered footage shows (its NAME.json)."""

from __future__ import annotations

from typing import Any


def roll_scores(
    truth_rolls: list[dict[str, Any]], events: list[dict[str, Any]]
) -> dict[str, float]:
    """Rolls found in a timeline against the footage's truth: a found roll matches the next
    true roll whose dice lay in the tray at its time. Precision, recall, right values."""
    found = [e for e in events if e["kind"] == "roll" and e.get("source") == "tray"]
    matched, right, j = 0, 0, 0
    for e in found:
        while j < len(truth_rolls) and truth_rolls[j]["t_out"] < e["t"]:
            j += 1
        if j < len(truth_rolls) and truth_rolls[j]["t"] - 0.3 <= e["t"] <= truth_rolls[j]["t_out"]:
            matched += 1
            right += sorted(e["values"]) == sorted(truth_rolls[j]["values"])
            j += 1
    return {
        "found": len(found),
        "true": len(truth_rolls),
        "matched": matched,
        "right": right,
        "precision": matched / len(found) if found else 1.0,
        "recall": matched / len(truth_rolls) if truth_rolls else 1.0,
    }
