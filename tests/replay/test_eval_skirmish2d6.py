"""The 2D6 skirmish read back from its moves alone (issue 26 item 2), on an evaluation seed
(benchmarks/replay_battles.py: 101-110), fed the battle's true changes
(tests/replay/fed_battle.py): a charge is declared without a move, its reach rolled, then run,
so the footage shows only the run; the replay reads the run as the charge's
(assistant/replay/engine_leads.py), and the drive-back after the fight is legal."""

from __future__ import annotations

from tests.replay.fed_battle import fed_replay


def test_a_charge_seen_only_as_its_run_is_read_as_the_charge() -> None:
    # seed 101, round 1: Captain Ysolde moves 12 in, then charges Gorm (the run: 4.4 in),
    # loses the fight and is driven back 1 in
    result, played = fed_replay("skirmish-cairns", 101, max_actions=11)
    kinds = [(a.kind, a.unit_id) for a in played.actions]
    assert ("charge_move", "ash-champion") in kinds and ("drive_back", "ash-champion") in kinds
    events = result.events
    declared = [e for e in events if e["kind"] == "declared" and e["unit"] == "ash-champion"]
    assert [(e["action"], e["target"]) for e in declared] == [("charge", "red-champion")]
    ysolde = [e for e in events if e["kind"] == "legality" and e["unit"] == "ash-champion"]
    assert len(ysolde) == 3 and all(e["legal"] for e in ysolde), [e["text"] for e in ysolde]
    acts = [(e["round"], e["unit"]) for e in events if e["kind"] == "activation"]
    assert acts == [(1, "red-sniper"), (1, "ash-sniper"), (1, "red-champion"), (1, "ash-champion")]
