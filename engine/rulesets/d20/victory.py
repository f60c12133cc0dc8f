"""How a d20 battle ends (RULES §5.m): the Basic Battle after 5 rounds (the last side with
figures, else the points defeated, D003-21, equal: a draw), or objective VP after 4 rounds
(D003-10, D003-11, T003-12, T003-13); eliminating every opposing figure wins at once.
"""

from __future__ import annotations

from engine.geometry import Edge, Point, centre_distance_in, point_gap_in, within_in
from engine.model import GameState, UnitStatus
from engine.rulesets.d20.state import D20State, card_of
from engine.rulesets.d20.victory_kinds import kind, last_round_result

HOLD_CLEAR_IN = 2.0
"""No opposing figure within this many inches of a held objective (§5.m)."""


def last_round(state: GameState) -> int:
    """The round after which the battle ends (``max_rounds``; Basic Battle 5, objectives 4)."""
    default = 4 if state.option_value("victory", "basic") == "objectives" else 5
    return int(state.option("max_rounds", default))


def standing_sides(state: GameState) -> list[str]:
    """Sides with a figure on the table or still waiting to come on (Spawning)."""
    return [
        s.name
        for s in state.sides
        if any(
            u.side == s.name and (u.on_table or u.status is UnitStatus.RESERVE) for u in state.units
        )
    ]


def edge_centre(state: GameState, edge: Edge) -> Point:
    """The centre of a side's starting edge, inches."""
    w, d = state.table.width_in, state.table.depth_in
    return {
        Edge.FRONT: (w / 2, 0.0),
        Edge.BACK: (w / 2, d),
        Edge.LEFT: (0.0, d / 2),
        Edge.RIGHT: (w, d / 2),
    }[edge]


def nearest_objectives(state: GameState, point: Point) -> set[str]:
    """The objectives nearest a point; every tied one (D003-11)."""
    if not state.objectives:
        return set()
    dist = {o.id: round(centre_distance_in(o.position, point), 6) for o in state.objectives}
    best = min(dist.values())
    return {k for k, v in dist.items() if v == best}


def holder(state: GameState, objective_id: str, contact_in: float) -> str | None:
    """The side holding an objective: a figure in base contact and no opposing figure within
    2 in (§5.m, T003-13)."""
    obj = state.objective(objective_id)
    near = {
        u.side
        for u in state.units
        if u.on_table and within_in(point_gap_in(u.position, u.radius_in, obj.position), contact_in)
    }
    for side in sorted(near):
        rivals = [
            u
            for u in state.units
            if u.on_table
            and u.side != side
            and point_gap_in(u.position, u.radius_in, obj.position) <= HOLD_CLEAR_IN
        ]
        if not rivals:
            return side
    return None


def victory_points(state: GameState, contact_in: float) -> dict[str, int]:
    """Each side's VP (§5.m): 1 for the objective(s) nearest its own starting edge, 4 for those
    nearest an opposing one, 2 for any other, 2 per opposing leader defeated."""
    vp = {s.name: 0 for s in state.sides}
    nearest = {s.name: nearest_objectives(state, edge_centre(state, s.edge)) for s in state.sides}
    cargo = state.option_value("cargo", "") if kind(state) == "transport" else ""
    for obj in state.objectives:
        if obj.id == cargo:
            continue  # Transport's object marker scores no VP
        side = holder(state, obj.id, contact_in)
        if side is None:
            continue
        if obj.id in nearest[side]:
            vp[side] += 1
        elif any(obj.id in nearest[o] for o in nearest if o != side):
            vp[side] += 4
        else:
            vp[side] += 2
    for unit in state.units:
        if card_of(unit).leader and unit.status in (UnitStatus.FALLEN, UnitStatus.ROUTED_OFF):
            for s in state.sides:
                if s.name != unit.side:
                    vp[s.name] += 2
    return vp


def final_result(state: GameState, contact_in: float) -> tuple[str, str]:
    """(winner or "draw", reason) when the last round is over: the scenario's own
    (``victory_kinds``), else objective VP or the Basic Battle's."""
    own = last_round_result(state)
    if own is not None:
        return own
    standing = standing_sides(state)
    if state.option_value("victory", "basic") == "objectives":
        vp = victory_points(state, contact_in)
        ranked = sorted(vp.items(), key=lambda kv: -kv[1])
        text = ", ".join(f"{k} {v} VP" for k, v in ranked)
        if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
            return "draw", f"equal victory points ({text})"
        return ranked[0][0], f"victory points ({text})"
    if len(standing) == 1:
        return standing[0], "the last figures standing after the last round"
    rules = state.rules
    points = dict(rules.defeated_points) if isinstance(rules, D20State) else {}
    scored = sorted(((points.get(s.name, 0), s.name) for s in state.sides), reverse=True)
    text = ", ".join(f"{name} {p}" for p, name in scored)
    if len(scored) > 1 and scored[0][0] == scored[1][0]:
        return "draw", f"survivors on both sides and equal points defeated ({text})"
    return scored[0][1], f"most points of enemies defeated ({text})"
