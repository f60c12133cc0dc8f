"""Each generic scenario's own end and special rules (RULES §5.m, D003-10, D003-18..20).

Option ``scenario`` (the value ``soloscope generate scenario`` writes) picks one:

* ``basic-battle`` (default): nothing more (see :mod:`engine.rulesets.d20.victory`).
* ``ambush``: the side named by option ``ambushers`` acts first in round 1 (every Ambusher
  takes a turn before any Target); it ends when one army is gone.
* ``escape``: a figure that ends a move with its base within 1 space of the edge opposite its
  side's starting edge leaves the table (status escaped, event ``escape``); the first side with
  more than half of its starting figures off wins. After the last round: the side with more
  figures off wins, equal: a draw.
* ``fortress-assault``: option ``fortress`` (a terrain id) takes ``fortress_wounds`` wounds
  (default 5) and defends on 11+ (D003-20); only a figure of the side named by ``assaulters``
  within 1 space of it may attack it (``attack`` with ``detail.structure`` = the terrain id,
  melee 6+). Destroyed: the Assaulters win; all Assaulters defeated: the Defenders win; the
  fortress still standing after the last round: the Defenders win (our reading).
* ``infiltrate``: the first side with 2 figures within 1 space of the opposite edge at the same
  time wins (D003-19).
* ``spawning``: the side named by ``spawners`` has figures with ``reserve = true`` on their
  card off the table (status reserve). At the start of each round, once the initiative (and
  enemy action) dice are rolled, a d6 per Spawner side with figures waiting (purpose
  "spawn"; D003-18: 1 the edge opposite its own, 2 the edge to its right, 3-4 its own, 5 the
  edge to its left, 6 none) brings one on, Alerted, within 1 Move Unit of that edge (our
  reading of "at the start of the Spawner's turn": before any side acts in the round). A
  side with figures waiting is still in the battle.
* ``transport``: option ``cargo`` names an objective marker (not scored as an objective);
  ``interact`` with ``detail.task = "pick up"`` by a figure touching it (base within 1 space)
  picks it up; it moves with its carrier and drops where the carrier falls. A carrier with its
  base within 1 space of its own starting edge wins for its side.

For the escape, infiltrate and transport the last round without that end is scored on the
objective VP of §5.m (D003-10: the scenario's own end wins; VP scored at the end).
"""

from __future__ import annotations

from engine.actions import Event, event
from engine.dice import RandomSource
from engine.geometry import Edge, Point, centre_distance_in, point_gap_in
from engine.model import GameState, TerrainPiece, Unit, UnitStatus, evolve
from engine.rulesets.d20.board import occupied
from engine.rulesets.d20.ranges import space_in
from engine.rulesets.d20.state import ALERTED, MELEE_NEED, D20State
from engine.scenario import Scenario

KINDS = (
    "basic-battle",
    "ambush",
    "escape",
    "fortress-assault",
    "infiltrate",
    "spawning",
    "transport",
)
"""The values of option ``scenario``."""

FORTRESS_WOUNDS, FORTRESS_DEFENCE = 5, 11
"""D003-20: the fortress's wounds and defence roll."""

OPPOSITE = {
    Edge.FRONT: Edge.BACK,
    Edge.BACK: Edge.FRONT,
    Edge.LEFT: Edge.RIGHT,
    Edge.RIGHT: Edge.LEFT,
}
RIGHT_OF = {
    Edge.FRONT: Edge.RIGHT,
    Edge.BACK: Edge.LEFT,
    Edge.LEFT: Edge.FRONT,
    Edge.RIGHT: Edge.BACK,
}
"""The edge to an army's right as it faces across the table from its own edge."""
LEFT_OF = {v: k for k, v in RIGHT_OF.items()}


def kind(state: GameState) -> str:
    """The scenario of option ``scenario``."""
    return str(state.option_value("scenario", "basic-battle"))


def option_problems(options: dict[str, object], side_names: set[str]) -> list[str]:
    """Sentences about bad scenario options (empty when fine)."""
    value = options.get("scenario", "basic-battle")
    if value not in KINDS:
        return [f"options.scenario: one of {', '.join(KINDS)}"]
    problems = []
    needs = {"ambush": "ambushers", "fortress-assault": "assaulters", "spawning": "spawners"}
    key = needs.get(str(value))
    if key is not None and options.get(key) not in side_names:
        problems.append(f"options.{key}: the name of a side ({', '.join(sorted(side_names))})")
    if value == "fortress-assault" and not isinstance(options.get("fortress"), str):
        problems.append("options.fortress: the id of the fortress's terrain piece")
    if value == "transport" and not isinstance(options.get("cargo"), str):
        problems.append("options.cargo: the id of the cargo's objective marker")
    return problems


def _rules(state: GameState) -> D20State:
    assert isinstance(state.rules, D20State)
    return state.rules


def edge_gap_in(state: GameState, unit: Unit, edge: Edge, at: Point | None = None) -> float:
    """Inches from the unit's base to a table edge."""
    x, y = at if at is not None else unit.position
    w, d = state.table.width_in, state.table.depth_in
    centre = {Edge.FRONT: y, Edge.BACK: d - y, Edge.LEFT: x, Edge.RIGHT: w - x}[edge]
    return centre - unit.radius_in


def _near_edge(state: GameState, unit: Unit, edge: Edge) -> bool:
    return edge_gap_in(state, unit, edge) <= space_in(state) + 1e-6


def _edge_of(state: GameState, side: str) -> Edge:
    return state.side(side).edge


def starting(state: GameState, side: str) -> int:
    """Figures the side started with."""
    return sum(u.side == side for u in state.units)


# ---------------------------------------------------------------------------- after each action
def after_action(state: GameState) -> tuple[GameState, list[Event]]:
    """Escapes off the opposite edge and the cargo following (or dropped by) its carrier."""
    events: list[Event] = []
    k = kind(state)
    if k == "escape":
        for u in state.units:
            if u.on_table and _near_edge(state, u, OPPOSITE[_edge_of(state, u.side)]):
                state = state.with_unit(evolve(u, status=UnitStatus.ESCAPED))
                text = f"{u.name} escapes off the far edge: take the model off the table."
                events.append(event("escape", state.round, text, u.id))
    elif k == "transport":
        state, events = _sync_cargo(state)
    return state, events


def _cargo_id(state: GameState) -> str:
    return str(state.option_value("cargo", "cargo"))


def cargo(state: GameState) -> object | None:
    """The cargo objective (None when the scenario has none)."""
    if kind(state) != "transport":
        return None
    return next((o for o in state.objectives if o.id == _cargo_id(state)), None)


def _sync_cargo(state: GameState) -> tuple[GameState, list[Event]]:
    obj = next((o for o in state.objectives if o.id == _cargo_id(state)), None)
    if obj is None or obj.carried_by is None:
        return state, []
    carrier = state.unit(obj.carried_by)
    if carrier.on_table:
        moved = evolve(obj, x=carrier.x, y=carrier.y)
        events: list[Event] = []
    else:
        moved = evolve(obj, carried_by=None)
        text = f"{carrier.name} drops the {obj.name}."
        events = [event("drop", state.round, text, carrier.id, objective=obj.id)]
    objectives = tuple(moved if o.id == obj.id else o for o in state.objectives)
    return evolve(state, objectives=objectives), events


def pickup_problem(state: GameState, unit: Unit) -> str:
    """Why the unit cannot pick up the cargo (empty when it can)."""
    obj = next((o for o in state.objectives if o.id == _cargo_id(state)), None)
    if kind(state) != "transport" or obj is None:
        return "there is nothing to pick up in this scenario"
    if obj.carried_by is not None:
        return f"{state.unit(obj.carried_by).name} already carries the {obj.name}"
    if point_gap_in(unit.position, unit.radius_in, obj.position) > space_in(state) + 1e-6:
        return f"{unit.name} is not touching the {obj.name}"
    return ""


def pick_up(state: GameState, unit: Unit) -> tuple[GameState, Event]:
    """The unit picks up the cargo (checked by :func:`pickup_problem`)."""
    cid = _cargo_id(state)
    objectives = tuple(
        evolve(o, carried_by=unit.id, x=unit.x, y=unit.y) if o.id == cid else o
        for o in state.objectives
    )
    name = next(o.name for o in objectives if o.id == cid)
    text = f"{unit.name} picks up the {name}."
    return evolve(state, objectives=objectives), event(
        "pick_up", state.round, text, unit.id, objective=cid
    )


# ---------------------------------------------------------------------------- the fortress
def fortress(state: GameState) -> TerrainPiece | None:
    """The fortress's terrain piece (None outside a Fortress Assault)."""
    if kind(state) != "fortress-assault":
        return None
    fid = str(state.option_value("fortress", "fortress"))
    return next((t for t in state.terrain if t.id == fid), None)


def fortress_left(state: GameState) -> int:
    """Wounds the fortress can still take."""
    total = int(state.option("fortress_wounds", FORTRESS_WOUNDS))
    return total - _rules(state).fortress_wounds


def _polygon_gap_in(unit: Unit, piece: TerrainPiece, at: Point | None = None) -> float:
    from shapely.geometry import Point as SPoint
    from shapely.geometry import Polygon

    x, y = at if at is not None else unit.position
    return float(Polygon(piece.polygon).distance(SPoint(x, y))) - unit.radius_in


def at_fortress(state: GameState, unit: Unit, at: Point | None = None) -> bool:
    """The unit's base is within 1 space of the fortress (it may attack it, D003-20)."""
    piece = fortress(state)
    return piece is not None and _polygon_gap_in(unit, piece, at) <= space_in(state) + 1e-6


def structure_problem(state: GameState, unit: Unit, structure: str) -> str:
    """Why the unit cannot attack the structure (empty when it can)."""
    piece = fortress(state)
    if piece is None or piece.id != structure:
        return f"{structure!r} cannot be attacked in this scenario"
    if unit.side != state.option_value("assaulters", ""):
        return f"only the assaulters attack {piece.name}"
    if not at_fortress(state, unit):
        return f"{unit.name} is not next to {piece.name}"
    return ""


def attack_structure(
    state: GameState, unit: Unit, dice: RandomSource
) -> tuple[GameState, list[Event]]:
    """A melee attack on the fortress: 6+ hits, its 11+ defence saves (D003-20)."""
    piece = fortress(state)
    assert piece is not None
    hit = dice.roll(20, f"attack: {unit.name} on {piece.name}")
    if hit < MELEE_NEED:
        text = f"{unit.name} attacks {piece.name}: {hit}, a miss."
        return state, [event("attack", state.round, text, unit.id, structure=piece.id, hit=False)]
    save = dice.roll(20, f"defence: {piece.name}")
    if save >= FORTRESS_DEFENCE:
        text = f"{unit.name} hits {piece.name} ({hit}); it holds ({save})."
        ev = event("attack", state.round, text, unit.id, structure=piece.id, hit=True, saved=True)
        return state, [ev]
    rules = _rules(state)
    state = evolve(state, rules=evolve(rules, fortress_wounds=rules.fortress_wounds + 1))
    left = fortress_left(state)
    text = f"{unit.name} damages {piece.name} ({hit}, {save}): {max(0, left)} wounds left."
    return state, [
        event("attack", state.round, text, unit.id, structure=piece.id, hit=True, saved=False)
    ]


# ---------------------------------------------------------------------------- spawning
def waiting(state: GameState, side: str) -> list[Unit]:
    """The side's figures not yet on the table."""
    return [u for u in state.units if u.side == side and u.status is UnitStatus.RESERVE]


def spawn_due(state: GameState) -> str | None:
    """A Spawner side still to roll its spawn die this round (None: none)."""
    if kind(state) != "spawning" or state.round == 0:
        return None
    side = str(state.option_value("spawners", ""))
    rules = _rules(state)
    if rules.spawn_round == state.round or not waiting(state, side):
        return None
    return side


def _spot(state: GameState, unit: Unit, edge: Edge) -> Point | None:
    """A free spot for the unit within 1 Move Unit of an edge, nearest the edge's middle."""
    w, d = state.table.width_in, state.table.depth_in
    r = unit.radius_in
    depth = max(r, min(r + space_in(state), min(w, d) / 2))
    along = w if edge in (Edge.FRONT, Edge.BACK) else d
    offsets = sorted(
        (i * 0.5 for i in range(int(along / 0.5) + 1)), key=lambda t: abs(t - along / 2)
    )
    grid = state.table.grid
    for t in offsets:
        point = {
            Edge.FRONT: (t, depth),
            Edge.BACK: (t, d - depth),
            Edge.LEFT: (depth, t),
            Edge.RIGHT: (w - depth, t),
        }[edge]
        if grid is not None:
            cell = grid.cell_at(point)
            if not grid.contains(cell):
                continue
            point = grid.centre(cell)
        if not state.table.contains_base(point, r):
            continue
        if any(
            t.impassable and _polygon_gap_in(unit, t, point) < 0 for t in state.terrain
        ) or occupied(state, point, unit):
            continue
        return point
    return None


def spawn_step(state: GameState, dice: RandomSource) -> tuple[GameState, list[Event]]:
    """The spawn d6 of a Spawner side (D003-18)."""
    side = spawn_due(state)
    assert side is not None
    state = evolve(state, rules=evolve(_rules(state), spawn_round=state.round))
    roll = dice.roll(6, f"spawn: {side}")
    own = _edge_of(state, side)
    edge = {1: OPPOSITE[own], 2: RIGHT_OF[own], 3: own, 4: own, 5: LEFT_OF[own]}.get(roll)
    if edge is None:
        return state, [event("spawn", state.round, f"Spawn {roll}: nobody comes.", roll=roll)]
    unit = waiting(state, side)[0]
    spot = _spot(state, unit, edge)
    if spot is None:
        text = f"Spawn {roll}: no room along the {edge.value} edge."
        return state, [event("spawn", state.round, text, roll=roll)]
    heroes = [u for u in state.units if u.on_table and u.side != side]
    heading = unit.heading_deg
    if heroes:
        near = min(heroes, key=lambda h: centre_distance_in(h.position, spot))
        from engine.geometry import bearing_deg

        heading = round(bearing_deg(spot, near.position), 6)
    placed = evolve(
        unit, x=spot[0], y=spot[1], heading_deg=heading, status=UnitStatus.ACTIVE,
        statuses=frozenset({ALERTED}), activated=False,
        cell=state.table.cell_of(spot),
    )  # fmt: skip
    state = state.with_unit(placed)
    text = (
        f"Spawn {roll}: {unit.name} comes on at the {edge.value} edge; put it at "
        f"({spot[0]:.1f}, {spot[1]:.1f}) in."
    )
    return state, [
        event(
            "spawn", state.round, text, unit.id, roll=roll, edge=edge.value, x=spot[0], y=spot[1]
        ),
        event("status", state.round, f"{unit.name} is alerted.", unit.id, status=ALERTED),
    ]


# ---------------------------------------------------------------------------- the ends
def ambush_first(state: GameState, order: tuple[str, ...]) -> tuple[str, ...]:
    """Round 1 of an Ambush: the Ambushers act first (§5.m)."""
    if kind(state) != "ambush" or state.round != 1:
        return order
    first = str(state.option_value("ambushers", ""))
    return tuple(sorted(order, key=lambda s: s != first))


def ambush_waits(state: GameState, side: str) -> str | None:
    """The Ambushers' side while ``side`` (a Target side) must wait for them in round 1
    (every Ambusher takes a turn before any Target acts, §5.m); else None."""
    first = str(state.option_value("ambushers", ""))
    if kind(state) != "ambush" or state.round != 1 or side == first:
        return None
    return first


def instant_result(state: GameState) -> tuple[str, str] | None:
    """A scenario's own end reached now: (winner, reason), else None."""
    k = kind(state)
    if k == "escape":
        for s in state.sides:
            off = sum(u.side == s.name and u.status is UnitStatus.ESCAPED for u in state.units)
            if 2 * off > starting(state, s.name):
                return (
                    s.name,
                    f"more than half its figures escaped ({off} of {starting(state, s.name)})",
                )
    elif k == "infiltrate":
        for s in state.sides:
            far = OPPOSITE[s.edge]
            there = [u for u in state.units_of(s.name) if _near_edge(state, u, far)]
            if len(there) >= 2:
                names = " and ".join(u.name for u in there[:2])
                return s.name, f"two figures reached the opposite edge ({names})"
    elif k == "transport":
        obj = next((o for o in state.objectives if o.id == _cargo_id(state)), None)
        if obj is not None and obj.carried_by is not None:
            carrier = state.unit(obj.carried_by)
            if carrier.on_table and _near_edge(state, carrier, state.side(carrier.side).edge):
                return carrier.side, f"{carrier.name} carried the {obj.name} back to its own side"
    elif k == "fortress-assault" and fortress(state) is not None and fortress_left(state) <= 0:
        return str(state.option_value("assaulters", "")), "the fortress is destroyed"
    return None


def elimination_reason(state: GameState, winner: str) -> str:
    """The reason of a win by eliminating every opposing figure, in the scenario's words."""
    if kind(state) == "fortress-assault" and winner != state.option_value("assaulters", ""):
        return "every Assaulter is defeated"
    if kind(state) == "ambush":
        return "the other army is gone"
    if kind(state) == "spawning":
        return "every spawnable figure was placed and the other army is defeated"
    return "every opposing figure is defeated"


def last_round_result(state: GameState) -> tuple[str, str] | None:
    """The end after the last round for the scenarios with their own (None: VP or Basic)."""
    k = kind(state)
    if k == "escape":
        off = {
            s.name: sum(u.side == s.name and u.status is UnitStatus.ESCAPED for u in state.units)
            for s in state.sides
        }
        ranked = sorted(off.items(), key=lambda kv: -kv[1])
        text = ", ".join(f"{n} {v} off" for n, v in ranked)
        if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
            return "draw", f"nobody escaped with more than half and equal figures off ({text})"
        return ranked[0][0], f"most figures escaped after the last round ({text})"
    if k == "fortress-assault":
        attackers = str(state.option_value("assaulters", ""))
        defenders = next((s.name for s in state.sides if s.name != attackers), "draw")
        return (
            defenders,
            f"the fortress still stands after the last round ({fortress_left(state)} wounds left)",
        )
    return None


def goal_point(state: GameState, unit: Unit) -> tuple[Point, str] | None:
    """Where the scenario's victory sends the unit (§5.k step 7), with the goal's name."""
    k = kind(state)
    w, d = state.table.width_in, state.table.depth_in
    if k in ("escape", "infiltrate"):
        far = OPPOSITE[state.side(unit.side).edge]
        x, y = unit.position
        point = {
            Edge.FRONT: (x, unit.radius_in),
            Edge.BACK: (x, d - unit.radius_in),
            Edge.LEFT: (unit.radius_in, y),
            Edge.RIGHT: (w - unit.radius_in, y),
        }[far]
        return point, f"the {far.value} edge"
    if k == "transport":
        obj = next((o for o in state.objectives if o.id == _cargo_id(state)), None)
        if obj is None:
            return None
        if obj.carried_by == unit.id:
            own = state.side(unit.side).edge
            x, y = unit.position
            point = {
                Edge.FRONT: (x, unit.radius_in),
                Edge.BACK: (x, d - unit.radius_in),
                Edge.LEFT: (unit.radius_in, y),
                Edge.RIGHT: (w - unit.radius_in, y),
            }[own]
            return point, f"its own {own.value} edge with the {obj.name}"
        if obj.carried_by is None:
            return obj.position, f"the {obj.name}"
        return None
    if k == "fortress-assault" and unit.side == state.option_value("assaulters", ""):
        piece = fortress(state)
        if piece is None:
            return None
        xs = [p[0] for p in piece.polygon]
        ys = [p[1] for p in piece.polygon]
        return (sum(xs) / len(xs), sum(ys) / len(ys)), piece.name
    return None


def with_reserves(state: GameState, scenario: Scenario) -> GameState:
    """Figures whose card says ``reserve = true`` start off the table (status reserve)."""
    waiting_ids = {u.id for u in scenario.units if u.card.get("reserve") is True}
    if not waiting_ids:
        return state
    units = tuple(
        evolve(u, status=UnitStatus.RESERVE, cell=None) if u.id in waiting_ids else u
        for u in state.units
    )
    return evolve(state, units=units)
