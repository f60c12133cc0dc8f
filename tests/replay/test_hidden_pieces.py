"""Pieces that are hidden are hidden, not gone; moves found from the picture; how each was known.

One scripted battle on the ford-at-dawn table (rendered in the test, about 40 s at 10 fps): a
move, a hand hovering low over three pieces for five seconds, a move to where the figure hides
its own tag, a model taken off, the hand hovering over the hidden piece, the camera nudged, and
a move after it. The renderer's truth (which tags are visible) is used by the test only.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import pytest

from assistant.commands.replay import summary_line
from assistant.replay.run import ReplayOptions, ReplayResult, run_replay
from tests.replay.scripted_battle import render_scripted
from tests.replay.truth_check import pieces_on_table_at_end, score
from tests.replay.viewer_page import chromium, event_list, open_viewer
from vision.render.sequence import HandLeave, Hover, Lift, NudgeCamera, Place, Wait

pytestmark = pytest.mark.slow

HIDDEN_AT = (15.0, 7.0, 180.0)
"""Where warden-spear-2 is set down facing away from the camera: its figure hides its tag."""
HOVER_S = 5.0
SCRIPT = [
    Wait(1.5),
    Lift("warden-spear-1"),
    Place(10.0, 7.0, 0.0),
    HandLeave(),
    Wait(1.5),
    # a hand hovering low over the captain, a spearman and an archer
    Hover(((12.0, 2.5), (14.0, 4.0), (17.0, 2.0), (14.0, 4.0)), seconds=HOVER_S, height_mm=90.0),
    HandLeave(),
    Wait(1.5),
    Lift("warden-spear-2"),
    Place(*HIDDEN_AT),
    HandLeave(),
    Wait(1.5),
    Lift("raider-brute-1"),
    HandLeave(),
    Wait(1.5),
    # the hand over the hidden piece: it must stay
    Hover(((15.0, 7.0), (15.3, 7.2)), seconds=3.0, height_mm=80.0),
    HandLeave(),
    Wait(1.5),
    NudgeCamera(dx_mm=3.0, dyaw_deg=0.3),
    Wait(2.0),
    Lift("raider-chief"),
    Place(12.0, 17.0, 180.0),
    HandLeave(),
    Wait(1.5),
]


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], ReplayResult]:
    """The clip's truth and its replay from the footage alone (no log), with the scenario."""
    folder = tmp_path_factory.mktemp("hidden")
    video, truth = render_scripted("ford-at-dawn", SCRIPT, folder, "hover")
    tags = {t["id"]: t for t in truth["frames"][-1]["tags"]}
    spear2 = next(p for p in truth["pieces"] if p["name"] == "warden-spear-2")
    assert not tags[spear2["tags"][0]["id"]]["visible"], "its figure should hide its tag"
    result = run_replay(ReplayOptions(video, folder / "replay", scenario="ford-at-dawn"))
    return truth, result


def _doc(result: ReplayResult) -> dict[str, Any]:
    return json.loads((result.out_dir / "timeline.json").read_text())


def test_every_move_and_removal_found_and_nothing_from_the_hovers_or_the_nudge(
    battle: tuple[dict[str, Any], ReplayResult],
) -> None:
    truth, result = battle
    doc = _doc(result)
    found = score(doc, truth)
    assert not found.missed, found.missed
    assert not found.phantoms, found.phantoms  # no move or removal from a hover or the nudge
    kinds = sorted((w.piece, w.kind) for w, _ in found.matched)
    assert kinds == [
        ("raider-brute-1", "removed"),
        ("raider-chief", "move"),
        ("warden-spear-1", "move"),
        ("warden-spear-2", "move"),
    ]


def test_a_piece_whose_figure_hides_its_tag_is_moved_there_and_stays(
    battle: tuple[dict[str, Any], ReplayResult],
) -> None:
    """Its tag is not seen after the hand leaves: the move is inferred from the picture (a
    figure now stands where the board was empty), the piece stays on the board, dimmed, through
    the later hover over it, and it is never reported removed."""
    truth, result = battle
    doc = _doc(result)
    spear2 = next(p for p in doc["roster"]["pieces"] if p["name"] == "Spearman Brand")
    (move,) = [m for m in doc["piece_moves"] if m["piece"] == spear2["name"]]
    assert move["known"] == "inferred" and move["facing_known"] is False
    assert "where the board was empty" in move["how"]
    assert math.dist(move["to"], HIDDEN_AT[:2]) <= 0.5
    for state in doc["states"]:
        if state["t"] > move["t_end"]:
            (piece,) = [p for p in state["pieces"] if p["name"] == spear2["name"]]
            assert piece.get("hidden") is True
            assert math.dist((piece["x"], piece["y"]), HIDDEN_AT[:2]) <= 0.5
    staying = {t for tags in pieces_on_table_at_end(truth) for t in tags}
    removed = [e for e in doc["events"] if e["kind"] == "removed" and "source" not in e]
    assert [e for e in removed if set(e["tags"]) & staying] == []


def test_every_event_says_how_it_was_known_and_the_summary_counts_them(
    battle: tuple[dict[str, Any], ReplayResult],
) -> None:
    _, result = battle
    doc = _doc(result)
    told = [e for e in doc["events"] if e["kind"] in ("piece_move", "removed", "hidden")]
    told = [e for e in told if "source" not in e]
    assert told and all(e["known"] in ("seen", "inferred", "rules", "unknown") for e in told)
    assert all(e["how"] for e in told if e["known"] != "seen")
    summary = doc["summary"]
    assert summary["moves"] == 3 and summary["removed"] == 1
    assert summary["known"]["inferred"] >= 1
    assert sum(summary["known"].values()) == len(told)
    line = summary_line(result)
    known = summary["known"]
    assert f"{summary['moves']} moves, 1 removed, {summary['hidden']} hidden" in line
    assert f"({known['seen']} seen, {known['inferred']} inferred, 0 from the rules, 0 unknown)" in (
        line
    )


@pytest.fixture(scope="module")
def page(battle: tuple[dict[str, Any], ReplayResult]) -> Iterator[Any]:
    with chromium() as browser, open_viewer(browser, battle[1].out_dir / "index.html") as pg:
        yield pg


@pytest.mark.browser
def test_the_viewer_shows_inferred_and_hidden_apart(
    page: Any, battle: tuple[dict[str, Any], ReplayResult]
) -> None:
    _, result = battle
    doc = _doc(result)
    inferred = [m for m in doc["moves"] if m["known"] == "inferred"]
    page.evaluate(f"window.replay.seek({doc['duration_s']})")
    for m in inferred:
        line = page.query_selector(f"line.move-path[data-move-tag='{m['tag']}']")
        assert line is not None
        assert line.get_attribute("data-known") == "inferred"
        assert line.get_attribute("stroke-dasharray")  # dashed, unlike a seen move
    # the piece set down out of sight is drawn dimmed where it was found, marked "?"
    spear = inferred[0]["tag"] if inferred else None
    g = page.query_selector(f"#board g.tag[data-tag='{spear}']")
    assert g is not None and g.get_attribute("data-state") == "hidden"
    assert g.get_attribute("data-pose") == "inferred" and float(g.get_attribute("opacity")) < 1
    assert (g.text_content() or "").strip().endswith("?")
    # the event list marks inferred events and says how they were found
    shown = event_list(page)
    assert len(shown) == len(doc["events"])
    marked = page.query_selector_all("#events li.known-inferred")
    assert len(marked) == sum(1 for e in doc["events"] if e.get("known") == "inferred")
    assert all(li.query_selector(".known").text_content() == "inferred" for li in marked)
    assert all(li.query_selector(".how").text_content() for li in marked)
    seen = page.query_selector_all("#events li[data-known='seen']")
    assert seen and all(li.query_selector(".known") is None for li in seen)
    assert "inferred" in page.inner_text("#meta")
