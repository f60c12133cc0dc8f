"""``soloscope generate scenario`` (issue 13, RULES §5.m): the d20 scenario table and spawn die
(T003-08), objective VP with tied markers (D003-11, T003-12), each scenario's deployment rules
on generated tables, the file it writes loading as a scenario, and the command-line contract
``{"scenario": NAME, "roll": R, ...}``."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Point, Polygon, box

from assistant.cli import main
from assistant.scenario_files import scenario_toml, terrain_tags
from assistant.scenarios import load_scenario
from calibration.kit_ids import PIECE_IDS, TERRAIN_IDS
from engine.dice import ScriptedDice, SeededDice
from engine.generators.scenario import GeneratedScenario, generate_scenario
from engine.generators.scenario_deploy import eye_height_in, hidden_from_above
from engine.generators.scenario_table import (
    SCENARIO_TITLES,
    ScenarioKind,
    objective_markers,
    objective_vp,
    roll_scenario,
    scenario_for_roll,
    spawn_edge,
)
from engine.scenario import parse_scenario

SEEDS = range(4)


def test_t003_08_scenario_table_odds() -> None:
    counts: dict[ScenarioKind, int] = {}
    for roll in range(1, 21):
        kind = scenario_for_roll(roll)
        counts[kind] = counts.get(kind, 0) + 1
    odds = {k: Fraction(n, 20) for k, n in counts.items()}
    assert odds[ScenarioKind.BASIC_BATTLE] == Fraction(2, 5)
    assert all(
        odds[k] == Fraction(1, 10) for k in ScenarioKind if k is not ScenarioKind.BASIC_BATTLE
    )
    assert [scenario_for_roll(r).display_name for r in (1, 8, 9, 11, 13, 15, 17, 19, 20)] == [
        "Basic Battle", "Basic Battle", "Ambush", "Escape", "Fortress Assault",
        "Infiltrate", "Spawning", "Transport", "Transport",
    ]  # fmt: skip
    assert roll_scenario(ScriptedDice([12])) == (12, ScenarioKind.ESCAPE)


def test_t003_08_spawn_die() -> None:
    edges = [spawn_edge(r) for r in range(1, 7)]
    odds = {e: Fraction(edges.count(e), 6) for e in edges}
    assert odds == {
        "own": Fraction(1, 3), "opposite": Fraction(1, 6), "right": Fraction(1, 6),
        "left": Fraction(1, 6), "none": Fraction(1, 6),
    }  # fmt: skip


def test_t003_12_objective_vp_with_tied_markers() -> None:
    markers = objective_markers(24, 24)
    at = {(m.x, m.y): m.id for m in markers}
    assert set(at) == {(6, 6), (18, 6), (6, 18), (18, 18), (12, 12)}
    human = objective_vp(markers, "front", ("back",), 24, 24)
    # D003-11: (6, 6) and (18, 6) tie as nearest the front edge's centre: both count.
    assert human[at[(6, 6)]] == human[at[(18, 6)]] == 1
    assert human[at[(6, 18)]] == human[at[(18, 18)]] == 4 and human[at[(12, 12)]] == 2
    held = [at[(6, 6)], at[(6, 18)], at[(12, 12)]]
    assert sum(human[m] for m in held) + 0 == 7  # + the leader's 2 VP go to the AI


def _generated(kind: ScenarioKind, seed: int, **kw: Any) -> GeneratedScenario:
    return generate_scenario(SeededDice(seed), kind=kind, **kw)


BASE_IN = 1.25  # the generated figures' bases


def _edge_gap(a: tuple[float, float], b: tuple[float, float], base_in: float = BASE_IN) -> float:
    return math.dist(a, b) - base_in


def _check_common(gen: GeneratedScenario) -> None:
    """Every figure in its zone, on the table, clear of impassable terrain and of each other."""
    blocks = [Polygon(p.polygon) for p in gen.terrain.pieces if p.type.impassable]
    blocks += [Polygon(t.polygon) for t in gen.scenario_terrain]
    spots = [(u.x, u.y) for u in gen.units]
    for u in gen.units:
        zone = Polygon(gen.army(u.role).zone)
        assert zone.buffer(1e-6).contains(Point(u.x, u.y)), (u, zone.wkt)
        r = gen.base_in / 2
        assert r <= u.x <= gen.width_in - r and r <= u.y <= gen.depth_in - r
        assert all(b.distance(Point(u.x, u.y)) >= r for b in blocks)
    for i, a in enumerate(spots):
        assert all(_edge_gap(a, b) >= 0.5 - 1e-9 for b in spots[i + 1 :])
    assert [u.role for u in gen.units].count("human") == gen.armies[0].figures
    for o in gen.objectives:
        assert all(b.distance(Point(o.x, o.y)) >= 0.75 - 1e-9 for b in blocks)
    # Every base tag can be seen by the overhead camera: no tall piece leans over it.
    tall = [(Polygon(p.polygon), p.type.height_in) for p in gen.terrain.pieces]
    tall += [(Polygon(t.polygon), t.type.height_in) for t in gen.scenario_terrain]
    eye = (gen.width_in / 2, gen.depth_in / 2, eye_height_in(gen.width_in, gen.depth_in))
    assert not any(hidden_from_above(u.x, u.y, 0.15, tall, eye) for u in gen.units)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    "kind",
    [
        ScenarioKind.BASIC_BATTLE,
        ScenarioKind.ESCAPE,
        ScenarioKind.INFILTRATE,
        ScenarioKind.TRANSPORT,
    ],
)
def test_basic_set_up_keeps_armies_two_move_units_apart(kind: ScenarioKind, seed: int) -> None:
    gen = _generated(kind, seed)
    _check_common(gen)
    assert gen.base_in == BASE_IN
    humans = [(u.x, u.y) for u in gen.units if u.role == "human"]
    enemies = [(u.x, u.y) for u in gen.units if u.role == "ai"]
    assert min(_edge_gap(a, b) for a in humans for b in enemies) >= 2 * gen.move_unit_in
    assert gen.max_rounds == (5 if kind in (ScenarioKind.BASIC_BATTLE, ScenarioKind.ESCAPE) else 10)
    assert (gen.cargo == (12.0, 12.0)) == (kind is ScenarioKind.TRANSPORT)
    assert all(u.placed for u in gen.units)


@pytest.mark.parametrize("seed", SEEDS)
def test_fortress_assault_set_up(seed: int) -> None:
    gen = _generated(ScenarioKind.FORTRESS_ASSAULT, seed)
    _check_common(gen)
    (fortress,) = gen.scenario_terrain
    building = Polygon(fortress.polygon)
    assert fortress.type.id == "major-building" and building.centroid.distance(Point(12, 12)) < 1e-9
    assert not any(Polygon(p.polygon).intersects(building) for p in gen.terrain.pieces)
    mu = gen.move_unit_in
    for u in gen.units:
        gap = building.distance(Point(u.x, u.y)) - gen.base_in / 2  # base edge to the building
        if u.role == "ai":
            assert gap <= mu / 2 + 1e-9  # Defenders within 1/2 Move Unit of it
        else:
            assert gap >= 2 * mu - 1e-9  # Assaulters at least 2 Move Units from it


@pytest.mark.parametrize("seed", SEEDS)
def test_ambush_set_up(seed: int) -> None:
    gen = _generated(ScenarioKind.AMBUSH, seed)
    _check_common(gen)
    mu = gen.move_unit_in
    targets = [(u.x, u.y) for u in gen.units if u.role == "human"]
    for i, t in enumerate(targets):  # each Target within 1 Move Unit of another
        assert min(_edge_gap(t, o) for j, o in enumerate(targets) if j != i) <= mu
    ambushers = [(u.x, u.y) for u in gen.units if u.role == "ai"]
    assert min(_edge_gap(a, t) for a in ambushers for t in targets) >= mu - 1e-9


def test_ambushers_hide_behind_terrain_that_blocks_sight() -> None:
    hidden = 0
    total = 0
    for seed in SEEDS:
        gen = _generated(ScenarioKind.AMBUSH, seed)
        screens = [Polygon(p.polygon) for p in gen.terrain.pieces if p.type.blocks_los]
        watcher = Polygon(gen.army("human").zone).centroid
        for u in gen.units:
            if u.role == "ai":
                total += 1
                line = Polygon([(watcher.x, watcher.y), (u.x, u.y), (u.x + 1e-6, u.y)])
                hidden += any(s.intersects(line) for s in screens)
    assert hidden >= total // 2


def test_spawning_places_only_the_spawners_leader() -> None:
    gen = _generated(ScenarioKind.SPAWNING, 2)
    ai = [u for u in gen.units if u.role == "ai"]
    assert [u.placed for u in ai] == [True] + [False] * (len(ai) - 1)
    assert all(u.placed for u in gen.units if u.role == "human")


@pytest.mark.parametrize("kind", list(ScenarioKind))
def test_the_file_loads_as_a_scenario(kind: ScenarioKind) -> None:
    gen = _generated(kind, 1)
    text = scenario_toml(gen, 1)
    scenario = parse_scenario(text, "generated.toml")
    assert scenario.scenario.ruleset == "d20" and scenario.options["max_rounds"] == gen.max_rounds
    assert [s.role for s in scenario.sides] == ["human", "ai"]
    assert [u.tags[0].id for u in scenario.units] == list(PIECE_IDS)[: len(gen.units)]
    tagged = sorted(t.tags[0].id for t in scenario.terrain if t.tags)
    assert tagged == list(TERRAIN_IDS)[: len(tagged)] and 1 <= len(tagged) <= 8
    strips = [t.id for t in scenario.terrain if t.kind in ("river", "road")]
    solid_untagged = [t for t in scenario.terrain if not t.tags and t.id not in strips]
    assert not solid_untagged or not any(t.tags for t in scenario.terrain if t.id in strips)
    leaders = [u for u in scenario.units if u.card.get("leader")]
    assert [u.side for u in leaders] == [s.name for s in scenario.sides]
    assert sum(bool(u.card.get("arch_foe")) for u in scenario.units) == 1
    for u in scenario.units:
        zone = Polygon(scenario.side_spec(u.side).deployment)
        assert zone.buffer(1e-6).contains(Point(u.x, u.y))


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["generate", "scenario", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _cli(capsys, "--seed", "7", "--json")
    data = json.loads(out)
    assert code == 0 and err == ""
    assert isinstance(data["roll"], int) and 1 <= data["roll"] <= 20
    assert data["scenario"] == scenario_for_roll(data["roll"]).display_name
    assert data["scenario"] in SCENARIO_TITLES.values()
    assert {"sides", "units", "objectives", "pieces", "max_rounds"} <= set(data)
    assert _cli(capsys, "--seed", "7", "--json")[1] == out
    rolled = {
        json.loads(_cli(capsys, "--seed", str(s), "--json")[1])["scenario"] for s in range(40)
    }
    assert "Basic Battle" in rolled and len(rolled) >= 4
    chosen = json.loads(_cli(capsys, "--seed", "7", "--json", "--scenario", "transport")[1])
    assert (
        chosen["scenario"] == "Transport" and chosen["roll"] is None and chosen["cargo"] == [12, 12]
    )


def test_out_writes_a_file_that_loads(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "generated.toml"
    code, text, err = _cli(capsys, "--seed", "7", "--out", str(out))
    assert code == 0 and err == "" and f"wrote the scenario to {out}" in text
    body = out.read_text(encoding="utf-8")
    assert body.startswith("# Generated by: soloscope generate scenario --seed 7")
    assert parse_scenario(body, str(out)).scenario.name.endswith("-7")
    assert f"soloscope markers --out kit.pdf --scenario {out}" in text
    loaded = load_scenario(str(out))  # its tags are the printable kit's (checked on loading)
    assert all(t.size_mm >= 20 for piece in loaded.terrain for t in piece.tags)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--heroes", "0"], "--heroes must be from 1 to 17, got 0"),
        (["--enemies", "many"], "--enemies must be a whole number"),
        (["--out", "x.txt"], "--out must name a .toml file"),
        (["--sheet", "x.png"], "--sheet must name a .pdf file"),
        (["--depth", "6"], "no room for two armies"),
    ],
)
def test_one_line_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = _cli(capsys, "--seed", "1", *argv)
    assert code != 0 and out == "" and message in err and err.count("\n") == 1


@pytest.mark.parametrize(("seed", "kind"), [(1, "basic-battle")])
def test_a_generated_scenario_plays_through_simulate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: int, kind: str
) -> None:
    out = tmp_path / f"{kind}.toml"
    assert _cli(capsys, "--seed", str(seed), "--scenario", kind, "--out", str(out))[0] == 0
    code = main(["simulate", str(out), "--seed", "1", "--json"])
    log, err = capsys.readouterr()
    lines = [json.loads(line) for line in log.splitlines()]
    assert code == 0 and err == ""
    assert lines[0]["type"] == "setup" and len(lines[0]["units"]) == 11
    ends = [line for line in lines if line["type"] == "end"]
    assert len(ends) == 1 and ends[0]["round"] <= (5 if kind == "basic-battle" else 4)
    assert any(line["type"] == "roll" and "enemy action" in line["purpose"] for line in lines)


def test_the_camera_shadow_of_tall_terrain() -> None:
    eye = (12.0, 12.0, eye_height_in(24, 24))
    assert 31 < eye[2] < 33  # about 0.8 m above a 2 ft table (DESIGN)
    between = [(box(11, 3.5, 13, 5.5), 4.0)]  # a building between the spot and the camera
    beyond = [(box(11, 0.5, 13, 2.5), 4.0)]  # one on the far side of the spot
    assert hidden_from_above(12, 3, 0.15, between, eye)
    assert not hidden_from_above(12, 3, 0.15, beyond, eye)
    assert not hidden_from_above(12, 3, 0.15, [(box(11, 3.5, 13, 5.5), 0.1)], eye)
    assert not hidden_from_above(12, 1, 0.15, between, eye)  # far enough behind it


def test_only_tags_the_camera_can_see_are_given() -> None:
    for seed in SEEDS:
        gen = _generated(ScenarioKind.FORTRESS_ASSAULT, seed)
        tags = terrain_tags(gen)
        assert list(tags.values()) == list(TERRAIN_IDS)[: len(tags)] and tags["fortress"] == 8
