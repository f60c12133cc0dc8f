"""The offline viewer in a real headless Chromium, opened from disk (file://)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assistant.replay.run import ReplayResult
from tests.replay.viewer_page import chromium, event_list, open_viewer, scrub

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module's pages."""
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def page(browser: Any, replay: ReplayResult) -> Iterator[Any]:
    with open_viewer(browser, replay.out_dir / "index.html") as pg:
        yield pg


@pytest.fixture(scope="module")
def sample_page(browser: Any, sample_replay: tuple[dict, dict, Path]) -> Iterator[Any]:
    """The viewer of the bundled sample battle (a whole game: pieces fall and are taken off)."""
    with open_viewer(browser, sample_replay[2] / "index.html") as pg:
        yield pg


def _board(page: Any) -> dict[int, tuple[float, float, str]]:
    out = {}
    for g in page.query_selector_all("#board g.tag"):
        out[int(g.get_attribute("data-tag"))] = (
            float(g.get_attribute("data-x")),
            float(g.get_attribute("data-y")),
            g.get_attribute("data-state"),
        )
    return out


def test_board_at_a_chosen_time_matches_the_settled_state(page: Any, replay: ReplayResult) -> None:
    states = replay.timeline.states
    assert len(states) >= 3
    state = states[2]
    page.evaluate(f"window.replay.seek({(state.t + state.t_until) / 2})")
    board = _board(page)
    for rest in state.tags:
        x, y, st = board[rest.tag_id]
        assert math.dist((x, y), (rest.x_in, rest.y_in)) < 0.01
        assert st in ("seen", "hidden")
    assert set(board) == {r.tag_id for r in state.tags}


def test_board_at_a_chosen_activation_shows_that_move_done(page: Any, replay: ReplayResult) -> None:
    moves = replay.timeline.moves
    page.evaluate("window.replay.gotoActivation(1)")
    board = _board(page)
    second, third = moves[1], moves[2]
    assert math.dist(board[second.tag_id][:2], second.to_in) < 0.01
    assert math.dist(board[third.tag_id][:2], third.from_in) < 0.01  # not yet moved
    label = page.inner_text("#activation-label")
    assert "2 / 3" in label
    # the event list is synchronised: the second move is the current event
    current = page.inner_text("#events li.current")
    assert f"tag {second.tag_id} moved" in current
    # the key frame shown is from the footage around that time and loads from frames/
    src = page.get_attribute("#keyframe", "src")
    assert src.startswith("frames/")
    assert page.evaluate("document.getElementById('keyframe').naturalWidth") > 0


def test_a_piece_in_the_hand_is_shown_moving(page: Any, replay: ReplayResult) -> None:
    move = replay.timeline.moves[0]
    page.evaluate(f"window.replay.seek({(move.t_start + move.t_end) / 2})")
    x, y, state = _board(page)[move.tag_id]
    assert state == "moving"
    assert math.dist((x, y), move.from_in) < 0.01
    assert page.query_selector(f"line.move-path.active[data-move-tag='{move.tag_id}']")


def test_next_button_steps_and_play_advances_time(page: Any, replay: ReplayResult) -> None:
    page.evaluate("window.replay.seek(0)")
    page.click("#next-act")
    assert "1 / 3" in page.inner_text("#activation-label")
    t0 = page.evaluate("window.replay.time()")
    page.click("#play")
    page.wait_for_timeout(400)
    page.click("#play")
    assert page.evaluate("window.replay.time()") > t0


def _off_for_good(truth: dict) -> dict[int, float]:
    """Tag id -> the time its piece left the table for the rest of the footage (seconds)."""
    tags_of = {p["name"]: [t["id"] for t in p.get("tags", [])] for p in truth["pieces"]}
    left: dict[str, float | None] = {}
    for frame in truth["frames"]:
        for p in frame["pieces"]:
            if p.get("kind", "piece") != "piece":
                continue
            if p["on_table"]:
                left[p["name"]] = None
            elif left.get(p["name"]) is None:
                left[p["name"]] = frame["t"]
    return {tag: t for name, t in left.items() if t is not None for tag in tags_of[name]}


@pytest.mark.slow
def test_pieces_taken_off_the_table_are_not_drawn_after_they_left(
    sample_page: Any, sample_replay: tuple[dict, dict, Path]
) -> None:
    """Once, every piece that had moved came back at the end of its last move (at 1:45 of the
    sample battle the board showed 5 pieces while the camera showed 1)."""
    truth, doc, _ = sample_replay
    units = {t for p in doc["roster"]["pieces"] if p["base_diameter_in"] > 0 for t in p["tags"]}
    off = _off_for_good(truth)
    assert len(off) >= 4, "the sample battle should take most of its models off"
    end = doc["duration_s"]
    times = [(s["t"] + s["t_until"]) / 2 for s in doc["states"]] + [end]
    for t in times:
        sample_page.evaluate(f"window.replay.seek({t})")
        drawn = set(_board(sample_page)) & units
        gone = {tag for tag, t_off in off.items() if t >= t_off + 0.5}
        assert not drawn & gone, f"at {t:.1f} s the board draws {sorted(drawn & gone)}, gone"
    # at the end the board shows what the last settled state holds, and no more pieces than
    # the camera sees
    sample_page.evaluate(f"window.replay.seek({end})")
    drawn = set(_board(sample_page)) & units
    assert drawn == {r["id"] for r in doc["states"][-1]["tags"]} & units
    on_camera = {p["name"] for p in truth["frames"][-1]["pieces"] if p["on_table"]}
    assert len(drawn) <= len(on_camera & {p["name"] for p in truth["pieces"] if p["tags"]})


@pytest.mark.slow
def test_the_event_list_follows_the_scrubber(sample_page: Any) -> None:
    """Once, the list scrolled only while playing: dragged to the end, the highlighted event
    was out of sight."""
    shown = event_list(sample_page)
    assert len(shown) > 20, "a whole battle's events overflow the list"
    times = [e["t"] for e in shown]
    assert times == sorted(times)
    end = sample_page.evaluate("window.replay.duration")
    for t in (end, end * 0.5, times[3] + 0.01, end * 0.8):
        scrub(sample_page, t)
        shown = event_list(sample_page)
        current = [i for i, e in enumerate(shown) if e["current"]]
        want = max(i for i, e in enumerate(shown) if e["t"] <= t + 1e-6)
        assert current == [want], (t, current, want)
        assert shown[want]["visible"], f"at {t:.1f} s the current event is out of sight"


def test_the_viewer_counts_activations_as_the_replay_does(
    sample_page: Any, sample_replay: tuple[dict, dict, Path]
) -> None:
    """Before: ``soloscope replay`` said 26 activations and the viewer "Activation 1 / 28" (two
    bonus moves after a fall were counted as activations of their own)."""
    doc = sample_replay[1]
    total = doc["summary"]["game"]["activations"]
    steps = doc["activations"]
    assert {s["of"] for s in steps} == {total}
    assert [s["number"] for s in steps] == sorted(s["number"] for s in steps)
    assert {s["number"] for s in steps} == set(range(1, total + 1))
    labels = []
    for i in range(len(steps)):
        sample_page.evaluate(f"window.replay.gotoActivation({i})")
        labels.append(sample_page.inner_text("#activation-label").split(":", 1)[0])
    assert labels[0] == f"Activation 1 / {total}"
    assert labels[-1] == f"Activation {total} / {total}"
    assert all(label.endswith(f" / {total}") for label in labels)
    for step, label in zip(steps, labels, strict=True):
        if "bonus" in step["label"]:  # a bonus move is shown as part of its activation
            assert label == f"Activation {step['number']} / {total}"
            assert labels.count(label) == 2


def test_every_event_shows_how_sure_the_replay_is(
    sample_page: Any, sample_replay: tuple[dict, dict, Path]
) -> None:
    """Issue 26: each event's probability ("p") is shown next to it, the unsure marked."""
    doc = sample_replay[1]
    shown = sample_page.evaluate(
        """() => [...document.querySelectorAll('#events li')].map(li => ({
             p: Number(li.dataset.p), said: li.querySelector('.p')?.textContent ?? null,
             unsure: li.classList.contains('unsure')}))"""
    )
    assert len(shown) == len(doc["events"])
    assert sorted(s["p"] for s in shown) == sorted(e["p"] for e in doc["events"])
    for s in shown:
        assert s["said"] is not None and s["said"].startswith("p ")
        assert s["unsure"] == (s["p"] < 0.5)
