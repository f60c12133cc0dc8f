"""A monster that rolls a 1 attacking retreats two squares (the Dungeon Crawl's morale rule,
D004-13): the footage shows the retreat, then the die in the tray. The move is off the place
the AI's order expects, yet the order, on that die, is what put the monster there; the replay
must read it so, not spend the die in an invented round (issue 26 item 2: the Dungeon Crawl's
rounds over a whole battle). Fed the battle's true moves, removals and tray rolls (no render),
on an evaluation seed (benchmarks/replay_battles.py: 101-110)."""

from __future__ import annotations

from assistant.replay.engine_replay import GameReplayer
from assistant.replay.engine_story import Removal
from tests.replay.eval_cut import fed_cut


def test_a_retreat_on_a_roll_of_1_is_read_as_the_attack_that_rolled_it() -> None:
    # dungeon-crawl seed 101, first 43 actions: in round 3 Troll 3 moves to B4, throws its
    # spear at the Thief, rolls a 1 (its 12th tray roll, which the reader could not read) and
    # retreats to A7; then Troll 2 moves, still in round 3
    fed = fed_cut("dungeon-crawl", 101, 43, frozenset({11}))
    played = fed.played
    assert played.final.round == 3 and played.final.unit("troll-3").position == (0.5, 6.5)
    removals = [Removal(name, t) for name, t in fed.removals]
    events = GameReplayer("dungeon-crawl").replay(fed.moves, removals, fed.start, fed.rolls).events
    assert max(e["round"] for e in events if e["kind"] == "round_start") == 3
    troll_2 = [e["round"] for e in events if e["kind"] == "activation" and e["unit"] == "troll-2"]
    assert troll_2[-1] == 3
    # the retreat is the order carried out, not a move against it
    checks = [e for e in events if e["kind"] == "order_check" and e["unit"] == "troll-3"]
    assert not [e for e in checks if e["followed"] is False], checks
