"""Deployment zones, placement preferences and starting facings of each generated scenario
(RULES §5.m), inches and degrees; :func:`engine.generators.scenario.generate_scenario` uses
them."""

from __future__ import annotations

from typing import Literal

import shapely
from shapely.geometry import Polygon, box

from engine.generators.scenario_deploy import (
    Key,
    around_points,
    band,
    chain_key,
    facing,
    hidden_key,
    notch_zone,
    spread_points,
    toward,
)
from engine.generators.scenario_table import ScenarioGenError, ScenarioKind
from engine.generators.terrain import TerrainLayout

Role = Literal["human", "ai"]
"""Who commands an army: the player or the AI."""


def zones_for(
    kind: ScenarioKind, w: float, d: float, mu: float, r: float, fortress: Polygon | None
) -> tuple[Polygon, Polygon]:
    """(human zone, AI zone) of a scenario on a ``w`` x ``d`` in table, Move Unit ``mu`` and
    base radius ``r`` inches (see :mod:`engine.generators.scenario`)."""
    if kind is ScenarioKind.FORTRESS_ASSAULT:
        assert fortress is not None
        front = fortress.bounds[1] - 2 * mu - r
        if front < 2 * r:
            raise ScenarioGenError(
                f"a {w:g} x {d:g} in table is too shallow for a Fortress Assault: the assaulters "
                "need room 2 Move Units from the fortress"
            )
        human = band(0, 0, w, min(2 * mu, front))
        return human, fortress.buffer(mu / 2 + r, join_style="mitre")
    if kind is ScenarioKind.AMBUSH:
        targets = band(w / 4, d / 4, 3 * w / 4, d / 2)
        x0, x1, y1 = w / 4 - mu, 3 * w / 4 + mu, d / 2 + mu
        if x0 < 2 * r or y1 > d - 2 * r:
            raise ScenarioGenError(f"a {w:g} x {d:g} in table is too small for an Ambush")
        return targets, notch_zone(w, d, x0, x1, y1)
    depth = min(2 * mu, (d - 2 * mu - 2 * r) / 2)
    if depth < 2 * r:
        raise ScenarioGenError(
            f"a {w:g} in deep table leaves no room for two armies 2 Move Units ({2 * mu:g} in) apart"
        )
    return band(0, 0, w, depth), band(0, d - depth, w, d)


def preference_keys(
    kind: ScenarioKind,
    role: Role,
    zone: Polygon,
    n: int,
    mu: float,
    r: float,
    layout: TerrainLayout,
    fortress: Polygon | None,
    other_zone: Polygon,
) -> list[Key]:
    """One placement preference per figure of the army (lowest score first)."""
    if kind is ScenarioKind.FORTRESS_ASSAULT and role == "ai":
        assert fortress is not None
        return [toward(p) for p in around_points(fortress, r + mu / 4, n)]
    if kind is ScenarioKind.AMBUSH:
        shapes = [(Polygon(p.polygon), p.type) for p in layout.pieces]
        if role == "human":
            terrain = shapely.union_all([s for s, _ in shapes]) if shapes else None
            open_ground = None if terrain is None else box(*zone.bounds).difference(terrain)
            c = zone.centroid
            return [chain_key((c.x, c.y), mu, r, open_ground)] * n
        watcher = other_zone.centroid
        screens = [s for s, t in shapes if t.blocks_los]
        cover = [s for s, t in shapes if t.cover != "none" and not t.impassable]
        return [hidden_key((watcher.x, watcher.y), screens, cover)] * n
    return [toward(p) for p in spread_points(zone, n)]


def start_heading(
    kind: ScenarioKind, role: Role, xy: tuple[float, float], focus: tuple[float, float]
) -> float:
    """Where a figure faces at the start, degrees: Ambushers toward the Targets (``focus``),
    Defenders out from the fortress (``focus``: its centre), otherwise across the table."""
    if kind is ScenarioKind.AMBUSH and role == "ai":
        return facing(xy, focus)
    if kind is ScenarioKind.FORTRESS_ASSAULT and role == "ai":
        return facing(focus, xy)  # defenders face out from the fortress
    return 0.0 if role == "human" else 180.0
