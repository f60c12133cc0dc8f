"""The generated terrain on the table (RULES §5.n, D003-14, D003-15): the same seed gives the
same table; every piece lies on the table, inside its section's reach, and overlaps no other
piece except where rivers and roads cross; rivers and roads run from edge to edge."""

from __future__ import annotations

import math
from itertools import combinations

import pytest
from shapely.geometry import Polygon

from engine.dice import PhysicalDice, ScriptedDice, SeededDice
from engine.generators.terrain import TerrainError, TerrainLayout, footprint, generate_terrain
from engine.generators.terrain_types import Battlefield, PieceSize

TOL_IN = 1e-3
OVERLAP_SQ_IN = 1e-6

TABLES = [(24, 24, range(40)), (36, 36, range(6)), (8, 10, range(10)), (30, 22, range(6))]


def _check_layout(layout: TerrainLayout) -> None:
    w, d = layout.width_in, layout.depth_in
    assert len(layout.pieces) + len(layout.unplaced) == len(layout.rolls.pieces)
    assert len({p.id for p in layout.pieces}) == len(layout.pieces)
    shapes = []
    for p in layout.pieces:
        poly = Polygon(p.polygon)
        assert poly.is_valid and poly.exterior.is_ccw, p.id
        for x, y in p.polygon:
            assert -TOL_IN <= x <= w + TOL_IN and -TOL_IN <= y <= d + TOL_IN, p.id
        assert (poly.centroid.x, poly.centroid.y) == (
            pytest.approx(p.x, abs=1e-3),
            pytest.approx(p.y, abs=1e-3),
        )
        s = p.rolled.section
        if p.type.shape != "strip":  # a piece's centre stays in its own section
            assert s.x0 - TOL_IN <= p.x <= s.x1 + TOL_IN and s.y0 - TOL_IN <= p.y <= s.y1 + TOL_IN
        shapes.append((p, poly))
    for (a, pa), (b, pb) in combinations(shapes, 2):
        if a.type.shape == "strip" and b.type.shape == "strip":
            continue  # a ford, a bridge, a crossroads
        assert pa.intersection(pb).area <= OVERLAP_SQ_IN, (a.id, b.id)


@pytest.mark.parametrize(("width", "depth", "seeds"), TABLES)
def test_layouts_lie_on_the_table_without_overlaps(width: int, depth: int, seeds: range) -> None:
    for seed in seeds:
        _check_layout(generate_terrain(SeededDice(seed), width, depth))


def test_same_seed_same_table_and_other_seeds_differ() -> None:
    first = generate_terrain(SeededDice(11))
    assert generate_terrain(SeededDice(11)) == first
    others = {generate_terrain(SeededDice(s)).pieces for s in range(12, 16)}
    assert first.pieces not in others and len(others) == 4


def test_placement_order_strips_then_large_then_small() -> None:
    for seed in range(30):
        layout = generate_terrain(SeededDice(seed))
        rank = [
            0 if p.type.shape == "strip" else 1 if p.rolled.size is PieceSize.LARGE else 2
            for p in layout.pieces
        ]
        assert rank == sorted(rank)


def _strip_layout(type_dice: tuple[int, int]) -> TerrainLayout:
    # One 24 x 24 section roll gives a large piece (2d6 = 5 river, 9 road) scattered 2 in right.
    script = [2, 1, 1, 2, 1, *type_dice, 5, 3] + [1, 1, 1, 2, 1] * 3
    return generate_terrain(ScriptedDice(script), 24, 24)


@pytest.mark.parametrize(("dice", "kind", "wide"), [((2, 3), "river", 1.0), ((4, 5), "road", 2.0)])
def test_rivers_and_roads_run_between_two_edges(
    dice: tuple[int, int], kind: str, wide: float
) -> None:
    layout = _strip_layout(dice)
    (strip,) = [p for p in layout.pieces if p.type.id == kind]
    edges = set()
    for x, y in strip.polygon:
        edges |= {e for e, on in (("L", x <= TOL_IN), ("R", x >= 24 - TOL_IN),
                                  ("F", y <= TOL_IN), ("B", y >= 24 - TOL_IN)) if on}  # fmt: skip
    assert len(edges) >= 2
    # Half the seed's width on a small battlefield (river 2 in, road 4 in), across the ray.
    assert strip.short_in == pytest.approx(wide, abs=2e-3)
    # Section [0, 0] centre (6, 18) moved 2 in right: the ray from (12, 12) is (-4, 6).
    a = math.radians(strip.heading_deg)
    assert math.sin(a) * -4 + math.cos(a) * 6 == pytest.approx(0, abs=1e-6)


def test_battlefield_sets_the_sizes() -> None:
    script = [1, 3, 4, 2, 1]  # one rubble, no scatter, on one 12 x 12 section
    small = generate_terrain(ScriptedDice(script), 12, 12).pieces[0]
    large = generate_terrain(ScriptedDice(script), 12, 12, battlefield=Battlefield.LARGE).pieces[0]
    assert (small.long_in, small.short_in) == (2, 1)
    assert (large.long_in, large.short_in) == (4, 2)
    ones = PhysicalDice(lambda sides, purpose: 1)
    assert generate_terrain(ones, 36, 36).battlefield is Battlefield.LARGE
    assert generate_terrain(ones, 24, 24).battlefield is Battlefield.SMALL


def test_a_piece_with_no_room_is_moved_shrunk_or_left_out() -> None:
    """Two seed-size major buildings (8 x 8 in) on an 8 x 10 in table: the first fills it, the
    second has no room even at half size and is left out, not squeezed in."""
    script = [5, *[1, 1, 1, 1] * 3, 3, 4, 2, 1, 3, 4, 2, 1]
    layout = generate_terrain(ScriptedDice(script), 8, 10, battlefield=Battlefield.LARGE)
    _check_layout(layout)
    buildings = [p for p in layout.pieces if p.type.id == "major-building"]
    assert len(buildings) == 1 and buildings[0].scale == 1
    assert [r.type.id for r in layout.unplaced][:1] == ["major-building"]


@pytest.mark.parametrize("bad", [(-3, 24), (24, 0), (24, math.inf), (241, 24), (math.nan, 24)])
def test_bad_table_sizes_are_refused(bad: tuple[float, float]) -> None:
    with pytest.raises(TerrainError, match="must be more than 0 and at most 240 in"):
        generate_terrain(SeededDice(1), *bad)


def test_footprint_redraws_each_placed_piece() -> None:
    """``footprint`` (for the set-up sheet) draws what was placed, from the piece's centre."""
    for seed in range(10):
        layout = generate_terrain(SeededDice(seed))
        for p in layout.pieces:
            if p.type.shape == "strip":
                continue
            again = footprint(p.type, p.x, p.y, p.heading_deg, layout.battlefield, 24, 24, p.scale)
            assert len(again) == len(p.polygon)
            assert all(
                math.isclose(a, b, abs_tol=2e-3)
                for va, vb in zip(again, p.polygon, strict=True)
                for a, b in zip(va, vb, strict=True)
            ), p.id
