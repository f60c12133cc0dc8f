"""The game reconstructed from footage without a session log: activations, the AI's orders and
how the real moves compare with them, the legality of the player's moves, removals, rounds."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from assistant.footage import battle_scene, overhead_camera
from assistant.replay.engine_replay import DICE_NOTE, GameReplayer, Removal
from assistant.replay.reconstruct import PieceMove
from assistant.replay.run import ReplayOptions, run_replay
from assistant.scenarios import load_game
from assistant.session.game import Expectation, expectation
from engine.dice import SeededDice
from engine.protocols import PendingKind, find_controller
from engine.rulesets.narrative.state import with_rules
from vision.render.clip import write_clip
from vision.render.effects import Effects
from vision.render.sequence import Action, HandLeave, Lift, Place, Wait, render_sequence

SCENARIO = "crossroads-ambush"


def _first_ai_order() -> tuple[str, Expectation, str]:
    """The AI's order for its first character at the start: (unit name, where, rule)."""
    scenario, ruleset, state = load_game(SCENARIO)
    ai_side = next(s.name for s in state.sides if s.role.value == "ai")
    acting = with_rules(
        replace(state, round=1, active_side=ai_side), waiting=PendingKind.CHOOSE_UNIT
    )
    unit = state.units_of(ai_side)[0]
    order = find_controller(scenario.scenario.ai_controller).decide(
        acting, ruleset, unit.id, SeededDice(0)
    )
    return unit.name, expectation(acting, order), order.rule


def _move(
    name: str,
    frm: tuple[float, float, float],
    to: tuple[float, float, float],
    t: float,
    side: str = "",
) -> PieceMove:
    return PieceMove(name, side, (0,), frm[:2], to[:2], frm[2], to[2], t, t + 1.2)


def _of(
    events: tuple[dict[str, Any], ...] | list[dict[str, Any]], kind: str
) -> list[dict[str, Any]]:
    return [e for e in events if e["kind"] == kind and e.get("source") == "engine"]


def test_ai_move_compared_with_its_order_and_player_move_checked() -> None:
    name, exp, rule = _first_ai_order()
    game = GameReplayer(SCENARIO)
    boss = game.initial.unit(game.unit_of_piece[name])
    start = (boss.x, boss.y, boss.heading_deg)
    exact = _move(name, start, (exp.x_in, exp.y_in, exp.heading_deg), 2.0)
    crossbow = game.initial.unit("crossbow")
    far = _move(
        "Crossbow Ivy", (crossbow.x, crossbow.y, 0.0), (crossbow.x, crossbow.y + 9.0, 0.0), 6.0
    )
    result = game.replay([exact, far])
    orders = _of(result.events, "order")
    assert len(orders) == 1 and orders[0]["rule"] == rule and orders[0]["unit"] == boss.id
    assert orders[0]["text"].startswith(f"AI order: {name}:")
    (check,) = _of(result.events, "order_check")
    assert check["followed"] and "followed the order" in check["text"]
    assert check["off_in"] < 1e-6
    (legality,) = _of(result.events, "legality")
    assert not legality["legal"]
    assert "not legal" in legality["text"] and "more than its 6 inch move" in legality["text"]
    assert [a["unit"] for a in result.activations] == [boss.id, "crossbow"]
    assert "followed the order" in result.activations[0]["label"]
    assert "not legal" in result.activations[1]["label"]
    assert [e["text"] for e in _of(result.events, "note")].count(DICE_NOTE) == 1

    # The same move set down 1 inch to the right of the ordered spot differs from the order.
    off = _move(name, start, (exp.x_in + 1.0, exp.y_in, exp.heading_deg), 2.0)
    (check,) = _of(game.replay([off]).events, "order_check")
    assert not check["followed"] and check["off_in"] == pytest.approx(1.0, abs=1e-3)
    assert "differs from the order by 1.0 in" in check["text"]


def test_rounds_follow_the_activations_the_footage_shows() -> None:
    game = GameReplayer(SCENARIO)
    units = {u.id: u for u in game.initial.units}

    def step(uid: str, t: float, dy: float) -> PieceMove:
        u = units[uid]
        moved = (u.x, u.y + dy, u.heading_deg)
        units[uid] = replace(u, y=u.y + dy)
        return _move(u.name, (u.x, u.y, u.heading_deg), moved, t)

    every = [step(uid, 2.0 + 3.0 * i, 1.0) for i, uid in enumerate(units)]
    again = step("sergeant", 40.0, 1.0)
    twice = step("sergeant", 45.0, 1.0)
    result = game.replay([*every, again, twice])
    rounds = _of(result.events, "round_start")
    assert [r["round"] for r in rounds] == [1, 2, 3]
    assert "every unit on the table has activated" in rounds[1]["text"]
    assert "activates again" in rounds[2]["text"]
    acts = _of(result.events, "activation")
    assert [a["round"] for a in acts] == [1] * 6 + [2, 3]
    per_side = [a["side_activation"] for a in acts[:6]]
    assert sorted(per_side) == [1, 1, 2, 2, 3, 3]


def test_a_removed_piece_leaves_the_game_and_can_come_back() -> None:
    game = GameReplayer(SCENARIO)
    sergeant = game.initial.unit("sergeant")
    gone = Removal("Sergeant Ash", 3.0)
    result = game.replay([], [gone])
    (removed,) = _of(result.events, "removed")
    assert removed["unit"] == "sergeant" and "out of the game" in removed["text"]
    back = _move(
        "Sergeant Ash", (sergeant.x, sergeant.y, 0.0), (sergeant.x, sergeant.y + 2.0, 0.0), 8.0
    )
    result = game.replay([back], [gone])
    assert _of(result.events, "returned") and _of(result.events, "legality")[0]["legal"]
    # Terrain and unknown pieces are not units: they make no activation.
    rock = PieceMove("the shrine", "", (8,), (12.0, 12.0), (12.5, 12.0), 0.0, 0.0, 1.0, 2.0)
    assert not game.replay([rock]).activations


def test_moving_again_after_felling_an_enemy_is_a_bonus_activation() -> None:
    game = GameReplayer(SCENARIO)
    boss = game.initial.unit("goblin-boss")
    moves = [
        _move("Crossbow Ivy", (8.0, 3.0, 0.0), (8.0, 8.5, 0.0), 2.0),
        _move("Goblin Boss", (boss.x, boss.y, 180.0), (8.0, 9.78, 180.0), 6.0),
        _move("Goblin Boss", (8.0, 9.78, 180.0), (8.0, 12.0, 0.0), 12.0),
    ]
    result = game.replay(moves, [Removal("Crossbow Ivy", 9.0)])
    (bonus,) = _of(result.events, "bonus_activation")
    assert bonus["unit"] == "goblin-boss" and bonus["move_in"] == 3.0
    assert "felled Crossbow Ivy" in bonus["text"]
    assert len(_of(result.events, "round_start")) == 1
    assert len(_of(result.events, "activation")) == 2
    orders = _of(result.events, "order")
    assert len(orders) == 2 and orders[1]["order"]["distance_in"] <= 3.0 + 1e-6
    assert "bonus" in result.activations[2]["label"]


def _render(tmp: Path, script: list[Action]) -> Path:
    scenario, _, state = load_game(SCENARIO)
    scene = battle_scene(scenario, state)
    camera = overhead_camera(scenario, "1080p")
    frames = render_sequence(
        scene, camera, script, 10.0, effects=Effects(noise_sigma=1.5, jpeg_quality=None)
    )
    video = tmp / "clip.mp4"
    write_clip(video, tmp / "clip.truth.json", frames, fps=10.0, scene=scene, camera=camera)
    return video


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str, Expectation, str]:
    """Footage of the AI's first order carried out exactly, then a player's 9 inch move,
    replayed with the scenario: (video, replay folder, unit id, ordered pose, rule)."""
    tmp = tmp_path_factory.mktemp("engine_clip")
    name, exp, rule = _first_ai_order()
    _, _, state = load_game(SCENARIO)
    uid = next(u.id for u in state.units if u.name == name)
    crossbow = state.unit("crossbow")
    script: list[Action] = [
        Wait(1.5),
        Lift(uid),
        Place(exp.x_in, exp.y_in, exp.heading_deg),
        HandLeave(),
        Wait(2.0),
        Lift("crossbow"),
        Place(crossbow.x, crossbow.y + 9.0, crossbow.heading_deg),
        HandLeave(),
        Wait(2.0),
    ]
    video = _render(tmp, script)
    run_replay(ReplayOptions(video, tmp / "out", scenario=SCENARIO))
    return video, tmp / "out", uid, exp, rule


def test_rendered_clip_is_reconstructed_by_the_engine(
    clip: tuple[Path, Path, str, Expectation, str], tmp_path: Path
) -> None:
    video, out, uid, exp, rule = clip
    doc = json.loads((out / "timeline.json").read_text())
    events = doc["events"]
    (order,) = _of(events, "order")
    assert order["unit"] == uid and order["rule"] == rule
    (check,) = _of(events, "order_check")
    assert check["followed"], check["text"]
    assert check["off_in"] <= 0.25 and check["off_deg"] <= 15.0
    (legality,) = _of(events, "legality")
    assert not legality["legal"] and "more than its 6 inch move" in legality["text"]
    assert "not legal" in legality["text"]
    assert [a["unit"] for a in doc["activations"]] == [uid, "crossbow"]
    assert doc["activations"][0]["t"] == pytest.approx(doc["piece_moves"][0]["t_end"])
    assert math.dist(check["ordered_to"][:2], (exp.x_in, exp.y_in)) <= 0.25

    # With the session's log beside the footage, its events (the real dice) are used instead.
    copy = tmp_path / "clip.mp4"
    copy.write_bytes(video.read_bytes())
    line = {"type": "activation", "round": 1, "unit": uid, "text": "logged activation", "t": 2.0}
    (tmp_path / "clip.events.jsonl").write_text(json.dumps(line) + "\n")
    run_replay(ReplayOptions(copy, tmp_path / "logged", scenario=SCENARIO))
    doc = json.loads((tmp_path / "logged" / "timeline.json").read_text())
    assert not [e for e in doc["events"] if e.get("source") == "engine"]
    assert [a["label"] for a in doc["activations"]] == ["logged activation"]


@pytest.mark.browser
def test_viewer_lists_the_engine_events_in_time(
    clip: tuple[Path, Path, str, Expectation, str],
) -> None:
    """In headless Chromium: at the second activation the player's illegal move is the current
    event, flagged; the AI's followed order is listed before it."""
    from tests.browser import CHROMIUM, CHROMIUM_ARGS

    if not CHROMIUM.exists():
        pytest.skip("needs the system Chromium at /usr/bin/chromium (apt install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    _, out, _, _, _ = clip
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        page.goto((out / "index.html").resolve().as_uri())
        page.wait_for_selector("body[data-ready='1']")
        page.evaluate("window.replay.gotoActivation(1)")
        current = page.inner_text("#events li.current")
        assert "not legal" in current and "more than its 6 inch move" in current
        flagged = page.query_selector_all("#events li.problem")
        assert len(flagged) == 1
        past = page.inner_text("#events").split(current)[0]
        assert "followed the order" in past
        browser.close()


def test_the_engine_explains_a_fall_the_footage_shows_after_a_charge() -> None:
    """The removal after the Boss's charge is the engine's own outcome of that melee (one of
    the die results that fit the table); a removal with no action before it is not."""
    game = GameReplayer(SCENARIO)
    boss = game.initial.unit("goblin-boss")
    moves = [
        _move("Crossbow Ivy", (8.0, 3.0, 0.0), (8.0, 8.5, 0.0), 2.0),
        _move("Goblin Boss", (boss.x, boss.y, 180.0), (8.0, 9.78, 180.0), 6.0),
    ]
    result = game.replay(moves, [Removal("Crossbow Ivy", 9.0), Removal("Shieldman Rook", 9.5)])
    removed = {e["unit"]: e for e in _of(result.events, "removed")}
    assert (
        removed["crossbow"]["explained"] and "By the rules it fell" in removed["crossbow"]["text"]
    )
    assert not removed["shield"]["explained"]
