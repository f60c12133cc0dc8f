"""A kit made with ``--camera 1080p`` for every bundled scenario is read on a 1080p render of
that table, far corners included (the tags it calls reliable in every frame, the ones it calls
short in most); where the kit refuses, the render shows why.

Each table is rendered once per session as a still (the scenario's terrain, its models at the
four far corners, along the edges and inside, each facing the middle so that its figure stands
behind its tag), through the nominal webcam the kit was sized for; the still is read with four
draws of sensor noise, as four frames of a video of a still table would be.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from assistant.cli import main
from assistant.kit_files import scenario_plan
from assistant.pieces import apply_kit, terrain_kits, unit_specs
from assistant.scenarios import bundled_scenarios, load_scenario
from assistant.tables.dungeon_kit import printed_grid
from calibration.kit_sizes import KitPlan
from vision.detector import Detector, to_grey
from vision.render import Camera, Effects, Figure, PlacedPiece, Scene, TableSpec, Terrain
from vision.render.effects import apply_effects
from vision.render.frame import FrameTruth, render_clean

SCENARIOS = [b.name for b in bundled_scenarios()]
NOISE_DRAWS = 4
SHORT_DRAWS = NOISE_DRAWS // 2
"""A tag the kit calls short (under the reliable side, some sightings lost: DESIGN §1's
69-94 % at 18 px) is read in at least this many of the draws; a reliable one in every draw."""
EDGE_IN = 1.0
"""How far in from the play area's edges the outermost models stand, inches."""


def places(width: float, depth: float) -> list[tuple[float, float]]:
    """Where the models go, in order: the four far corners first, then two more by each corner
    along its edges, the middles of the edges, then on inward from the corners."""
    m = EDGE_IN
    corners = [(m, m), (width - m, m), (width - m, depth - m), (m, depth - m)]
    out = list(corners)
    for layer in range(1, 6):
        for x, y in corners:
            sx = 1 if x < width / 2 else -1
            sy = 1 if y < depth / 2 else -1
            out += [(x + sx * 1.7 * layer, y), (x, y + sy * 1.7 * layer)]
        if layer == 1:
            out += [(width / 2, m), (width - m, depth / 2), (width / 2, depth - m), (m, depth / 2)]
    return out


@dataclass(frozen=True)
class Still:
    """A rendered table and what its kit says."""

    plan: KitPlan
    truth: FrameTruth
    reads: dict[int, int]
    """Tag id -> in how many of the noise draws the detector read it."""


def render_still(name: str, camera: str) -> Still:
    """The scenario's table with its models at the far corners, carrying the tags of the kit
    sized for ``camera``, read through that nominal webcam."""
    scenario = load_scenario(name)
    plan = scenario_plan(scenario, camera=camera)
    sized = apply_kit(scenario, plan.kit)
    width, depth = scenario.table.width_in, scenario.table.depth_in
    pieces = []
    for spec, (x, y) in zip(unit_specs(sized), places(width, depth), strict=False):
        heading = math.degrees(math.atan2(width / 2 - x, depth / 2 - y)) % 360
        flat = all(m.forward_mm == 0 and m.right_mm == 0 for m in spec.tags)
        figure = None if flat else Figure(forward_mm=-(spec.base_diameter_mm / 2 - 5.0))
        pieces.append(PlacedPiece(spec, x, y, heading, figure=figure))
    terrain = tuple(
        Terrain(t.spec, t.x_in, t.y_in, 0.0, t.footprint_mm, height_mm=max(3.0, t.height_mm))
        for t in terrain_kits(sized)
    )
    scene = Scene(
        table=TableSpec(width, depth, board=printed_grid(scenario)),
        pieces=tuple(pieces),
        terrain=terrain,
    )
    lens = Camera.overhead(
        camera, table_width_in=width, table_depth_in=depth, height_mm=plan.kit.camera.height_mm
    )
    clean, truth = render_clean(scene, lens)
    detector = Detector("DICT_4X4_50")
    reads: dict[int, int] = {}
    for seed in range(NOISE_DRAWS):
        image = apply_effects(clean, Effects(), np.random.default_rng(seed))
        for tag_id in {int(s.tag_id) for s in detector.detect(to_grey(image))}:
            reads[tag_id] = reads.get(tag_id, 0) + 1
    return Still(plan, truth, reads)


@pytest.fixture(scope="session")
def stills() -> dict[tuple[str, str], Still]:
    """Renders made so far this session, by (scenario, camera)."""
    return {}


def still(stills: dict[tuple[str, str], Still], name: str, camera: str) -> Still:
    if (name, camera) not in stills:
        stills[(name, camera)] = render_still(name, camera)
    return stills[(name, camera)]


def visible_kit_tags(s: Still) -> list[tuple[int, float, float]]:
    """(id, x, y) of every kit tag the render shows (not under a figure or a roof)."""
    ids = set(s.plan.kit.ids)
    return [(t.tag_id, t.x_in, t.y_in) for t in s.truth.tags if t.tag_id in ids and t.visible]


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_1080p_kit_is_read_everywhere_on_a_1080p_render(
    stills: dict[tuple[str, str], Still], name: str
) -> None:
    s = still(stills, name, "1080p")
    scenario = load_scenario(name)
    width, depth = scenario.table.width_in, scenario.table.depth_in
    if s.plan.unreadable:
        # No kit is made: the largest tags those bases carry are indeed lost at the far corners.
        short = {t.tag_id for f in s.plan.unreadable for t in f.tags}
        shown = [t for t in visible_kit_tags(s) if t[0] in short]
        assert shown, "the render shows none of the tags the kit refused"
        assert any(s.reads.get(i, 0) < NOISE_DRAWS for i, _, _ in shown), (
            f"{name}: the refused tags were read in every draw"
        )
        return
    shown = visible_kit_tags(s)
    status = {t.tag_id: t.status for t in s.plan.kit.tags}
    missed = [
        (i, round(x, 1), round(y, 1), s.reads.get(i, 0))
        for i, x, y in shown
        if s.reads.get(i, 0) < (NOISE_DRAWS if status[i] == "reliable" else SHORT_DRAWS)
    ]
    assert not missed, f"{name}: tags (id, x, y, draws read) read too seldom: {missed}"
    for cx, cy in ((0, 0), (width, 0), (width, depth), (0, depth)):
        near = [i for i, x, y in shown if math.hypot(x - cx, y - cy) < 2.5]
        assert near, f"{name}: no model's tag in view by the corner ({cx:g}, {cy:g})"
    assert len(shown) >= 0.8 * len(s.plan.kit.tags), f"{name}: too few tags in view"


def test_which_bundled_scenarios_a_1080p_webcam_can_play() -> None:
    """The 1080p verdicts the README gives: the 25 mm bases (and the 1-inch squares of
    Bosworth) are refused, 32 and 40 mm bases are read with some sightings missed, the small
    grid boards in every frame."""
    verdict = {}
    for name in SCENARIOS:
        plan = scenario_plan(load_scenario(name), camera="1080p")
        verdict[name] = "refused" if plan.unreadable else "short" if plan.shortfalls else "reliable"
    assert verdict == {
        "bosworth-market": "refused",
        "bosworth-street": "refused",
        "crossroads-ambush": "short",
        "crossroads-cards": "short",
        "d20-basic-battle": "refused",
        "d20-grid-skirmish": "short",
        "dungeon-crawl": "reliable",
        "dungeon-crawl-8x10": "reliable",
        "ford-at-dawn": "refused",
        "skirmish-cairns": "short",
        "strike-causeway": "short",
        "watchtower-coop": "refused",
    }


def test_the_command_writes_the_kit_the_render_reads(tmp_path: Path) -> None:
    out = tmp_path / "kit.pdf"
    assert (
        main(["markers", "--out", str(out), "--scenario", "strike-causeway", "--camera", "1080p"])
        == 0
    )
    written = json.loads((tmp_path / "kit.kit.json").read_text(encoding="utf-8"))
    plan = scenario_plan(load_scenario("strike-causeway"), camera="1080p")
    assert written["camera"]["kind"] == "1080p"
    assert {t["id"]: (t["size_mm"], t["forward_mm"]) for t in written["tags"]} == {
        t.tag_id: (t.size_mm, t.forward_mm) for t in plan.kit.tags
    }
