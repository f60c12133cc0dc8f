"""The engine's reading of other systems' battles from their moves alone (issue 26 item 2),
on evaluation seeds (benchmarks/replay_battles.py: 101-110), fed the battle's true changes
(tests/replay/fed_battle.py): the Dungeon Crawl's heroes fell goblins with attacks that move
no model, and the goblins the Fighting Man alerts turn to face him by the rules, not in
activations of their own."""

from __future__ import annotations

from assistant.replay.engine_checks import check_ai
from assistant.replay.engine_replay import GameReplayer
from assistant.replay.reconstruct import PieceMove
from engine.model import Role
from tests.replay.fed_battle import fed_replay


def test_dungeon_heroes_attacks_and_the_turns_of_alerted_goblins_are_the_rules() -> None:
    # seed 101, round 1: the enemies patrol; the Fighting Man steps to F6 (alerting five
    # enemies, who turn to face him) and fells Goblin 4; the Magic User fells Goblin 6
    result, played = fed_replay("dungeon-crawl", 101, max_actions=16)
    fallen = {u.id for u in played.final.units if not u.on_table}
    assert fallen == {"goblin-4", "goblin-6"}
    events = result.events
    removed = {e["unit"]: e for e in events if e["kind"] == "removed"}
    assert set(removed) == fallen
    assert all(e["explained"] and e["known"] == "rules" for e in removed.values())
    attacks = [(e["unit"], e.get("target")) for e in events if e["kind"] == "attack"]
    assert [u for u, _ in attacks] == ["fighting-man", "magic-user"]
    turned = {e["unit"] for e in events if e["kind"] == "rules_move"}
    assert turned == {"troll-2", "goblin-3", "goblin-4", "goblin-5", "goblin-6"}
    # no AI order was read into a turn the rules made
    ordered = [e["unit"] for e in events if e["kind"] == "order" and e["t"] > 22.0]
    assert not set(ordered) & turned
    assert max(e.get("round", 1) for e in events if e["kind"] == "round_start") == 1


def test_no_ai_order_is_asked_for_a_unit_the_rules_do_not_let_act() -> None:
    # strike-causeway before the Oracle phase: no die in the pool, so no soldier may act; a
    # story that reaches a move there (a misread) used to stop the replay with the strike
    # AI's "list.remove(x): x not in list"
    game = GameReplayer("strike-causeway")
    state = game.initial
    unit = next(u for u in state.units if state.side(u.side).role is Role.AI)
    to = (unit.x + 1.0, unit.y)
    move = PieceMove(unit.name, unit.side, (), unit.position, to, 0.0, 0.0, 1.0, 2.0)
    check = check_ai(game, state, unit, move)
    assert [e["kind"] for e in check.events] == ["order"]
    assert check.events[0]["text"] == (
        f"No AI order for {unit.name}: the rules do not let it act now"
    )
