"""What the dungeon rules give any controller or table adapter through the protocols: a
sample of legal actions along whole games, and the grid answers of ``query``."""

from __future__ import annotations

import math
from pathlib import Path

from engine.dice import SeededDice
from engine.protocols import find_controller
from engine.runner import next_action
from engine.scenario import parse_scenario
from tests.dungeon.boards import acting, ruleset, started

SCENARIOS = Path(__file__).resolve().parents[2] / "assistant" / "data" / "scenarios"


def test_every_sampled_action_is_legal_along_whole_games() -> None:
    path = SCENARIOS / "dungeon-crawl.toml"
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
    r = ruleset()
    controllers = {
        "Heroes": find_controller("dungeon-heroes"),
        "Monsters": find_controller("patrol-d8"),
    }
    kinds: set[str] = set()
    for seed in (2,):
        state = r.new_game(scenario)
        dice = SeededDice(seed)
        while True:
            pending = r.pending(state)
            for uid in pending.candidates:
                sample = r.sample_actions(state, uid, SeededDice(state.step))
                assert sample, f"nothing for {uid} at step {state.step}"
                assert all(r.validate(state, a) == [] for a in sample)
                kinds |= {str(a.kind) for a in sample}
            chosen = next_action(state, r, controllers, dice)
            if chosen is None:
                break
            state = r.apply(state, chosen[0], dice).state
    assert {"patrol", "move", "attack", "heal", "pass"} <= kinds


def test_query_answers_in_squares() -> None:
    figures = [
        ("th", "thief", (0, 7), 0, "hero"),
        ("pr", "priest", (1, 7), 0, "hero"),
        ("g", "goblin", (3, 4), 180, "enemy"),
        ("t", "troll", (6, 1), 180, "enemy"),
    ]
    state = acting(started(8, 8, figures, walls=((5, 3),), alerted=("g", "t")), "th")
    q = ruleset().query(state)
    th, g, t, pr = (state.unit(i) for i in ("th", "g", "t", "pr"))
    assert q.movement_allowance_in(th) == 2.0
    assert q.distance_in(th, g) == 3.0
    assert q.visible(th, g)
    assert not q.visible(th, t)  # the goblin stands in the line (an enemy of the Thief)
    assert [u.id for u in q.targets(th, "attack")] == ["g"]
    assert q.targets(pr, "heal") == (th,)
    end = q.move_toward(th, state.table.grid.centre((3, 5)))  # type: ignore[union-attr]
    assert len(end) == 3 and state.table.cell_of(end[-1]) == (2, 5)
    assert q.cover_at(th.position, g) == "none"


def test_malformed_actions_are_refused_in_words_never_a_traceback() -> None:
    from engine.actions import Action

    path = SCENARIOS / "dungeon-crawl.toml"
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
    r = ruleset()
    state = r.new_game(scenario)
    dice = SeededDice(3)
    controllers = {
        "Heroes": find_controller("dungeon-heroes"),
        "Monsters": find_controller("patrol-d8"),
    }
    bad = [
        Action("shoot", "thief", target_id="dragon"),
        Action("move", None),
        Action("move", "nobody"),
        Action("attack", "thief"),
        Action("attack", "thief", target_id="ghost", detail=(("weapon", "dagger"),)),
        Action("attack", "thief", target_id="priest", detail=(("weapon", "dagger"),)),
        Action("attack", "thief", target_id="dragon", detail=(("weapon", "bow"),)),
        Action("heal", "thief", target_id="priest"),
        Action("heal", "priest", target_id="ghost"),
        Action("move", "thief", detail=(("cells", "A1"),)),
        Action("move", "thief", detail=(("cells", [[99, 99]]),)),
        Action("move", "thief", path=((-5.0, -5.0),)),
        Action("move", "thief", heading_deg=10.0, detail=(("cells", []),)),
        Action("patrol", "dragon", detail=(("roll", 9),)),
        Action("patrol", "dragon", detail=(("roll", 3),)),
        Action("patrol", "dragon", detail=(("roll", "x"),)),
        Action("chance"),
    ]
    for _ in range(60):
        for action in bad:
            reasons = r.validate(state, action)
            assert all(isinstance(x, str) and x for x in reasons)
        chosen = next_action(state, r, controllers, dice)
        if chosen is None:
            break
        state = r.apply(state, chosen[0], dice).state


def test_views_stay_exact_along_whole_games() -> None:
    """After every action no Patrolling enemy sees a hero ahead (D004-02), and after every
    hero's move every Alerted enemy faces one of the closest heroes it sees: what the rules
    recompute only for the enemies whose view changed matches a full recomputation."""
    from engine.geometry.grid import chebyshev
    from engine.rulesets.dungeon.board import Board
    from engine.rulesets.dungeon.facing import facing_toward
    from engine.rulesets.dungeon.resolve import heroes, monsters
    from engine.rulesets.dungeon.state import ALERTED, PATROLLING, rules_of

    path = SCENARIOS / "dungeon-crawl.toml"
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
    r = ruleset()
    controllers = {
        "Heroes": find_controller("dungeon-heroes"),
        "Monsters": find_controller("patrol-d8"),
    }
    checked = 0
    for seed in (1, 2, 3, 4):
        state = r.new_game(scenario)
        dice = SeededDice(seed)
        while True:
            chosen = next_action(state, r, controllers, dice)
            if chosen is None:
                break
            action = chosen[0]
            state = r.apply(state, action, dice).state
            if state.winner is not None or not rules_of(state).heroes_have_moved:
                continue
            board = Board.of(state)
            team = heroes(state)
            for m in monsters(state):
                if PATROLLING in m.statuses:
                    assert not any(board.in_view(m, h, 180.0) for h in team), (seed, m.id)
            hero_moved = action.kind == "move" and state.unit(action.unit_id or "").side == "Heroes"
            if not hero_moved:
                continue
            for m in monsters(state):
                if ALERTED not in m.statuses or m.cell is None:
                    continue
                seen = [h for h in team if board.line_clear(m, m.cell, h)]
                if not seen:
                    continue
                here = m.cell

                def key(c: tuple[int, int], here: tuple[int, int] = here) -> tuple[int, float]:
                    return (chebyshev(here, c), math.hypot(c[0] - here[0], c[1] - here[1]))

                near = min(key(h.cell) for h in seen if h.cell)
                facings = {
                    facing_toward(here, h.cell) for h in seen if h.cell and key(h.cell) == near
                }
                assert m.heading_deg in facings, (seed, m.id)
                checked += 1
    assert checked > 50
