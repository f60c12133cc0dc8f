"""A model the footage lost for good (its tag taken to be hidden where it stood, never seen
again) may have been taken off: the rules' fall of it costs one misreading, and the dice seen
in the tray vouch only for the steps that rolled them (issue 26 item 3, the Dungeon Crawl's
invented round). Fed the battle's true moves and tray rolls (no render), on an evaluation seed
(benchmarks/replay_battles.py: 101-110)."""

from __future__ import annotations

from assistant.replay import engine_model as model
from assistant.replay.document import game_summary
from assistant.replay.engine_replay import GameReplayer
from engine.actions import Event, EventType
from tests.replay.eval_cut import fed_cut


def test_a_fall_the_footage_saw_only_as_a_lost_tag_is_read_without_a_new_round() -> None:
    # dungeon-crawl seed 102, first 17 actions: the Magic User moves, its fireball (a 5, seen
    # in the tray) fells Goblin 6, whose removal the tracker read as its tag hidden; then the
    # Thief moves, still in round 1
    fed = fed_cut("dungeon-crawl", 102, 17)
    # never seen as taken off: its tag was lost where it stood
    lost = dict(fed.removals)
    assert list(lost) == ["Goblin 6"] and fed.played.final.round == 1
    result = GameReplayer("dungeon-crawl").replay(fed.moves, (), fed.start, fed.rolls, lost)
    events = result.events
    assert max(e.get("round", 0) for e in events if e["kind"] == "round_start") == 1
    fell = [e for e in events if e["kind"] == "removed"]
    assert [e["unit"] for e in fell] == ["goblin-6"]
    assert fell[0]["p"] == model.PARAMETERS.misread  # the one misreading the story needs
    # the grid rules report no activation event; the replay counts each figure's first
    # action of its turn: the patrols that moved or turned a monster, then the heroes' moves
    # (the six patrols that left every monster as it stood read as passes: see the README)
    activated = [(e["round"], e["unit"]) for e in events if e["kind"] == "activation"]
    seen = ["troll-3", "troll-4", "goblin-1", "goblin-3", "goblin-4"]
    assert activated == [(1, uid) for uid in [*seen, "fighting-man", "magic-user", "thief"]]
    assert game_summary(events, result)["game"]["activations"] == 8


def test_seen_dice_vouch_only_for_the_step_that_rolled_them() -> None:
    params = model.PARAMETERS
    rolled = Event(EventType.ACTIVATION, 1, "the fireball", "magic-user")
    passed = Event(EventType.PASS, 1, "ends its turn", "magic-user")
    begun = Event(EventType.ROUND_START, 2, "round 2")
    # the die was seen and used: it vouches for the activation that rolled it ...
    assert model.price([rolled], 0.0, 1, 1, [True]) == model.cost(params.seen_step)
    # ... not for a pass or a round begun beside it, which roll none
    beside = model.price([rolled, passed, begun], 0.0, 1, 1, [True, False, False])
    expected = model.cost(params.seen_step) + 2 * model.cost(params.unseen_step)
    assert beside == expected
    # and for nothing when the steps left some of the seen dice unused
    assert model.price([rolled], 0.0, 1, 2, [True]) == model.cost(params.unseen_step)
