"""The random events that bring figures on (RULES §4.l, D002-12/13): the monks of the
procession in single file, the addled citizen, the dispenser bot, the citizen mob, the air mine
and the NPC's reinforcement. Each is a unit of the scenario kept in reserve until its event;
the assistant says where to place its token."""

from __future__ import annotations

from engine.actions import Event, event
from engine.boards.grid import table_grid
from engine.dice import RandomSource, choice
from engine.geometry.grid import Cell
from engine.model import GameState, Role, Unit, UnitStatus, evolve
from engine.rulesets.firefight_lite.board import free_near, squares
from engine.rulesets.firefight_lite.sequence import place, rules
from engine.rulesets.firefight_lite.state import card, is_combatant

Result = tuple[GameState, list[Event]]
EDGES = ("front", "left", "back", "right")
"""D002-13: a d4 picks the edge (1 the player's edge, 2 left, 3 the far edge, 4 right)."""
INTO = {"front": 0.0, "left": 90.0, "back": 180.0, "right": 270.0}
"""The heading of a figure entering from each edge, straight across the table."""


def reserves(state: GameState, kind: str, side_role: Role = Role.NEUTRAL) -> list[Unit]:
    side = state.side_of_role(side_role)
    if side is None:
        return []
    return [
        u
        for u in state.units
        if u.side == side.name and u.status is UnitStatus.RESERVE and card(u).neutral == kind
    ]


def _edge_cells(state: GameState, edge: str) -> list[Cell]:
    """The squares along an edge, from its middle outwards."""
    grid = table_grid(state)
    if edge in ("front", "back"):
        row = grid.rows - 1 if edge == "front" else 0
        mid = grid.cols // 2
        order = sorted(range(grid.cols), key=lambda c: (abs(c - mid), c))
        return [(c, row) for c in order]
    col = 0 if edge == "left" else grid.cols - 1
    mid = grid.rows // 2
    order = sorted(range(grid.rows), key=lambda r: (abs(r - mid), r))
    return [(col, r) for r in order]


def _random_edge(dice: RandomSource, what: str) -> str:
    return EDGES[dice.roll(4, f"random edge: {what}") - 1]


def _enter(state: GameState, units: list[Unit], edge: str, what: str) -> Result:
    evs: list[Event] = []
    heading = INTO[edge]
    wanted = _edge_cells(state, edge)
    for unit in units:
        at = free_near(state, wanted)
        if at is None:
            break
        state = place(state, unit, at, heading)
        evs.append(_entered(state, unit, at, edge))
    if not units:
        evs.append(
            event(
                "event_effect",
                state.round,
                f"No {what} token is set aside in this scenario: nothing happens.",
            )
        )
    return state, evs


def _entered(state: GameState, unit: Unit, at: Cell, edge: str) -> Event:
    from engine.scenario import cell_name

    return event(
        "enter",
        state.round,
        f"Place {unit.name} at {cell_name(at)} ({edge} edge).",
        unit.id,
        cell=list(at),
        edge=edge,
    )


def procession(state: GameState, dice: RandomSource) -> Result:
    """K♥: 1d6 monks in single file from a random edge, heading for the opposite one."""
    count = dice.roll(6, "procession: how many monks")
    monks = reserves(state, "monk")[:count]
    edge = _random_edge(dice, "procession")
    heading = INTO[edge]
    wanted = _edge_cells(state, edge)
    lane = wanted[0]
    step = {0.0: (0, -1), 90.0: (1, 0), 180.0: (0, 1), 270.0: (-1, 0)}[heading]
    file = [(lane[0] + step[0] * k, lane[1] + step[1] * k) for k in range(len(monks))][::-1]
    evs: list[Event] = []
    for monk, want in zip(monks, file, strict=False):
        at = free_near(state, [want, *wanted])
        if at is None:
            break
        state = place(state, monk, at, heading)
        evs.append(_entered(state, monk, at, edge))
    if not monks:
        evs.append(
            event(
                "event_effect",
                state.round,
                "No monk token is set aside in this scenario: nothing happens.",
            )
        )
    return state, evs


def addled_citizen(state: GameState, dice: RandomSource) -> Result:
    """Q♥: the addled citizen at a random edge."""
    return _enter(
        state, reserves(state, "citizen")[:1], _random_edge(dice, "addled citizen"), "citizen"
    )


def dispenser_bot(state: GameState, dice: RandomSource) -> Result:
    """J♥: the rogue dispenser bot at a random edge."""
    return _enter(
        state, reserves(state, "bot")[:1], _random_edge(dice, "dispenser bot"), "dispenser bot"
    )


def citizen_frenzy(state: GameState, dice: RandomSource) -> Result:
    """K♣: 1d6 citizens at a random edge, a third side that attacks everyone."""
    count = dice.roll(6, "citizen frenzy: how many citizens")
    return _enter(
        state, reserves(state, "mob")[:count], _random_edge(dice, "citizen frenzy"), "citizen"
    )


def air_mine(state: GameState, dice: RandomSource) -> Result:
    """Q♦: the air mine enters from a random road edge (D002-13: a random table edge when
    there is no road)."""
    mines = reserves(state, "mine")[:1]
    grid = table_grid(state)
    ends = sorted(
        c for c in squares(state).roads if c[0] in (0, grid.cols - 1) or c[1] in (0, grid.rows - 1)
    )
    if not ends or not mines:
        return _enter(state, mines, _random_edge(dice, "air mine"), "air mine")
    at0 = choice(dice, ends, "air mine: which road edge")
    at = free_near(state, [at0])
    if at is None:
        return state, []
    edge = (
        "back"
        if at0[1] == 0
        else "front"
        if at0[1] == grid.rows - 1
        else "left"
        if at0[0] == 0
        else "right"
    )
    state = place(state, mines[0], at, INTO[edge])
    return state, [_entered(state, mines[0], at, edge)]


def reinforcement(state: GameState, dice: RandomSource) -> Result:
    """K♦: one new NPC figure of the troop type most common in the NPC's starting force (ties
    by a roll) on a random free square of its initial deployment."""
    ai = state.side_of_role(Role.AI)
    spare = [u for u in state.units if ai and u.side == ai.name and u.status is UnitStatus.RESERVE]
    r = rules(state)
    if not spare or not r.initial_ai:
        return state, [
            event(
                "event_effect", state.round, "No reinforcement token is set aside: nothing happens."
            )
        ]
    counts = {t: r.initial_ai.count(t) for t in r.initial_ai}
    top = max(counts.values())
    troop = choice(
        dice, sorted(t for t, n in counts.items() if n == top), "reinforcement: troop type"
    )
    model = next(
        u for u in state.units if is_combatant(u) and card(u).troop == troop and not card(u).reserve
    )
    taken = {u.cell for u in state.units if u.on_table}
    free = [c for c in r.deploy_cells if c not in taken and c not in squares(state).board.walls]
    want = choice(dice, free, "reinforcement: deployment square") if free else r.deploy_cells[0]
    at = free_near(state, [want])
    if at is None:
        return state, []
    newcomer = evolve(spare[0], card=evolve(card(model), reserve=False))
    state = place(state, newcomer, at, 180.0 if ai and ai.edge == "back" else 0.0)
    return state, [_entered(state, newcomer, at, "deployment")]
