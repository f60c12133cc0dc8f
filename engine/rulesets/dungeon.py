"""The grid game of seed 004 and its Dungeon Crawl (RULES §6), registry name ``dungeon``.

A round: the enemies act one by one, strongest first (ties in reading order, D004-07), then the
heroes in sheet order (Fighting Man, Magic User, Thief, Priest; D004-19). Each figure moves
(up to ``move_sq`` squares, G-08) and then attacks (or the Priest heals); the dragon may use
both its weapons at different heroes (D004-12). A Patrolling enemy's whole activation is one
``patrol`` action carrying its d8 roll (and the re-roll after a 3), rolled by its controller.

Decision points: the start step is a CHANCE (``purpose`` "dragon start square", a d6 for the
Arch Foe's square when the scenario gives ``dragon_squares``); each figure in turn is a
CHOOSE_UNIT with one candidate (a pass skips it); after a move, or after the dragon's first
attack, CONTINUE (a pass ends the activation; the activation ends by itself when nothing is
left to do).

Actions (``Action.kind``):

- ``move``: ``detail.cells`` the squares entered in order (or a ``path`` of cell centres),
  ``heading_deg`` the facing after it (default: the direction of the last step; a move of no
  square with a heading is a turn on the spot).
- ``attack``: ``target_id`` and ``detail.weapon`` (a weapon name on the card).
- ``heal``: ``target_id`` (an adjacent other hero).
- ``patrol``: ``detail.roll`` (d8) and ``detail.turn_roll`` (the 4-8 re-roll after a 3).
- ``pass``.

``validate`` answers in squares ("the Thief moved 3 squares; it moves 2"). Events: ``place``
(the Arch Foe's start square), ``round_start``, ``patrol``, ``move`` (``path`` in inches and
``cells``), ``face`` (``heading``), ``attack``, ``wound``, ``fall``, ``heal``, ``pass``,
``status`` (``unit``, ``status``: patrolling / alerted / retreating / defeated) and ``end``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from pydantic import ValidationError
from shapely.geometry import Polygon

from engine.actions import Action, Event, IllegalActionError, event
from engine.dice import RandomSource
from engine.geometry import Edge, Table
from engine.geometry.grid import Cell, chebyshev, step_facing_deg
from engine.model import GameState, Role, Side, Unit
from engine.protocols import Outcome, Pending, PendingKind, RulesetBase, register_ruleset
from engine.rulesets.dungeon_board import Board, facing_word, label
from engine.rulesets.dungeon_cards import read_card
from engine.rulesets.dungeon_query import DungeonQuery
from engine.rulesets.dungeon_resolve import (
    attack,
    face,
    heal,
    heroes,
    is_enemy_side,
    monsters,
    move_unit,
    patrol_run,
    patrol_turn,
    patrol_words,
    retreat,
    set_status,
    update_statuses,
)
from engine.rulesets.dungeon_sample import sample_actions
from engine.rulesets.dungeon_state import (
    ALERTED,
    PATROLLING,
    STATUSES,
    DungeonState,
    DungeonUnit,
    card_of,
    cell_of,
    heals_left,
    rules_of,
)
from engine.scenario import Scenario, ScenarioError, card_error, cell_name, parse_cell

NAME = "dungeon"
DEFAULT_MAX_ROUNDS = 30
"""Rounds after which the heroes have failed (the seed sets none; a scenario's max_rounds)."""
VICTORIES = ("all", "arch_foe", "minions")
START_PURPOSE = "dragon start square"
OPTIONS: dict[str, str] = {
    "detection_arc": "degrees a Patrolling enemy sees ahead (180, D004-02; 360 as seed 003)",
    "monster_morale": "true or false: a goblin or troll rolling a 1 retreats (D004-13)",
    "victory": "'all' enemies (default), the 'arch_foe' only, or the 'minions' only",
    "dragon_squares": "the Arch Foe's start squares for a d6 (1-2, 3-4, 5-6): 'A1 H3 A8'",
    "entrance_alert_sq": "squares from a hero start square within which entrance-alert "
    "figures are alerted by the heroes' first move (2, D004-08)",
}
"""The scenario options of the dungeon rules (beside max_rounds, the time limit)."""


def parse_squares(text: str, table: Table) -> tuple[Cell, ...]:
    """The cells of an option like "A1 H3 A8" (ValueError naming what is allowed)."""
    grid = table.grid
    assert grid is not None
    return tuple(parse_cell(ref, grid) for ref in re.split(r"[\s,;]+", text.strip()) if ref)


class DungeonRuleset(RulesetBase):
    """The seed-004 grid rules with the Dungeon Crawl's figures (see the module docstring)."""

    name = NAME
    title = "Solo grid skirmish: patrols and the Dungeon Crawl"
    source = "Solo miniatures rules (grid / chessboard) with the Dungeon Crawl"
    action_kinds = frozenset({"chance", "pass", "move", "attack", "heal", "patrol"})
    options: Mapping[str, str] = OPTIONS

    # ----------------------------------------------------------------- setup

    def new_game(self, scenario: Scenario) -> GameState:
        where = scenario.source
        grid = scenario.table.grid_shape()
        if grid is None:
            raise ScenarioError(f"{where}: table.grid: the dungeon rules need a gridded table")
        roles = [s.role for s in scenario.sides]
        if "neutral" in roles:
            raise ScenarioError(f"{where}: sides: the dungeon rules have no neutral side")
        table = Table(scenario.table.width_in, scenario.table.depth_in, grid)
        sides = tuple(Side(s.name, Role(s.role), Edge(s.edge)) for s in scenario.sides)
        walls: set[Cell] = set()
        for piece in scenario.terrain:
            if piece.impassable or piece.blocks_los:
                shape = Polygon(piece.polygon)
                walls |= grid.filled_cells(shape if shape.is_valid else shape.buffer(0))
        units = []
        for i, u in enumerate(scenario.units):
            try:
                card = read_card(u.card)
            except ValidationError as exc:
                raise card_error(scenario, i, exc) from None
            except ValueError as exc:
                raise ScenarioError(f"{where}: units[{i}].card: {exc}") from None
            cell = table.cell_of((u.x, u.y))
            if cell is None or cell in walls:
                raise ScenarioError(f"{where}: units[{i}]: {u.id!r} must stand on an open square")
            if abs(u.heading / 45.0 - round(u.heading / 45.0)) > 1e-6:
                raise ScenarioError(
                    f"{where}: units[{i}].heading: {u.heading:g} is not a grid facing "
                    "(allowed: a multiple of 45)"
                )
            role = next(s.role for s in sides if s.name == u.side)
            x, y = grid.centre(cell)
            units.append(
                Unit(
                    id=u.id,
                    name=u.name,
                    side=u.side,
                    sheet_order=i,
                    x=x,
                    y=y,
                    heading_deg=round(u.heading / 45.0) % 8 * 45.0,
                    card=card,
                    base_diameter_in=u.base_diameter_in,
                    statuses=frozenset({ALERTED if card.starts_alerted else PATROLLING})
                    if role is Role.AI
                    else frozenset(),
                    cell=cell,
                    rules=DungeonUnit(heals_left=card.heal.uses if card.heal else 0),
                )
            )
        options = tuple(sorted(scenario.options.items()))
        state = GameState(
            ruleset=NAME,
            scenario=scenario.scenario.name,
            table=table,
            sides=sides,
            units=tuple(units),
            options=options,
            rules=DungeonState(
                walls=frozenset(walls),
                hero_starts=frozenset(
                    cell_of(u) for u in units if not is_enemy_side_of(sides, u.side)
                ),
            ),
        )
        self._check_options(state, where)
        return state

    def _check_options(self, state: GameState, where: str) -> None:
        victory = state.option_value("victory", "all")
        if victory not in VICTORIES:
            raise ScenarioError(
                f"{where}: options.victory: {victory!r} (allowed: {', '.join(VICTORIES)})"
            )
        arc = state.option("detection_arc", 180.0)
        if not 0 < arc <= 360:
            raise ScenarioError(f"{where}: options.detection_arc: {arc:g} (allowed: 1 to 360)")
        if not isinstance(state.option_value("monster_morale", True), bool):
            raise ScenarioError(f"{where}: options.monster_morale: give true or false")
        if state.option("entrance_alert_sq", 2) < 0:
            raise ScenarioError(f"{where}: options.entrance_alert_sq: 0 or more squares")
        squares = state.option_value("dragon_squares", "")
        if squares:
            if not isinstance(squares, str):
                raise ScenarioError(
                    f"{where}: options.dragon_squares: give squares like 'A1 H3 A8'"
                )
            try:
                cells = parse_squares(squares, state.table)
            except ValueError as exc:
                raise ScenarioError(f"{where}: options.dragon_squares: {exc}") from None
            arch = arch_foe(state)
            if len(cells) != 3 or arch is None:
                raise ScenarioError(
                    f"{where}: options.dragon_squares: three squares (d6 1-2, 3-4, 5-6) for the "
                    "Arch Foe, which the scenario must have (a card with is_arch_foe)"
                )
            board = Board.of(state)
            for c in cells:
                if not board.free(c, arch.id):
                    raise ScenarioError(
                        f"{where}: options.dragon_squares: {cell_name(c)} is not a free square"
                    )

    # ----------------------------------------------------------------- sequence

    def pending(self, state: GameState) -> Pending:
        rules = rules_of(state)
        if state.winner is not None:
            return Pending(PendingKind.OVER)
        if not rules.started:
            squares = state.option_value("dragon_squares", "")
            return Pending(PendingKind.CHANCE, purpose=START_PURPOSE if squares else "start")
        if rules.acting is not None:
            side = state.unit(rules.acting).side
            return Pending(
                PendingKind.CONTINUE, side=side, unit=rules.acting, candidates=(rules.acting,)
            )
        if rules.queue:
            unit = state.unit(rules.queue[0])
            return Pending(PendingKind.CHOOSE_UNIT, side=unit.side, candidates=(unit.id,))
        return Pending(PendingKind.CHANCE, purpose="new round")  # never reached: rounds roll on

    def check_state(self, state: GameState) -> list[str]:
        problems: list[str] = []
        rules = rules_of(state)
        grid = state.table.grid
        assert grid is not None
        seen: dict[Cell, str] = {}
        for u in state.units:
            card = card_of(u)
            if not u.on_table:
                if u.cell is not None or u.statuses:
                    problems.append(f"{u.id} is defeated but still on a square or has a status")
                continue
            if u.cell is None or not grid.contains(u.cell) or u.cell in rules.walls:
                problems.append(f"{u.id} is not on an open square ({u.cell})")
                continue
            if u.cell in seen:
                problems.append(f"{u.id} and {seen[u.cell]} share {cell_name(u.cell)}")
            seen[u.cell] = u.id
            if grid.centre(u.cell) != u.position:
                problems.append(f"{u.id} is off the centre of its square")
            if not 0 <= u.wounds < card.max_wounds:
                problems.append(f"{u.id} has {u.wounds} wounds of {card.max_wounds}")
            if abs(u.heading_deg / 45.0 - round(u.heading_deg / 45.0)) > 1e-9:
                problems.append(f"{u.id} faces {u.heading_deg}, not a grid facing")
            marks = u.statuses & set(STATUSES)
            if is_enemy_side(state, u.side):
                if len(marks) != 1 or marks != u.statuses:
                    problems.append(f"{u.id} has statuses {sorted(u.statuses)}")
                elif rules.started and marks != {PATROLLING} and marks != {ALERTED}:
                    problems.append(f"{u.id} is still {sorted(marks)} between actions")
            elif u.statuses:
                problems.append(f"hero {u.id} has statuses {sorted(u.statuses)}")
            left = heals_left(u)
            if not 0 <= left <= (card.heal.uses if card.heal else 0):
                problems.append(f"{u.id} has {left} heals left")
        for uid in rules.queue:
            if not state.has_unit(uid):
                problems.append(f"{uid} in the queue is not a unit")
        if rules.acting is not None and not state.unit(rules.acting).on_table:
            problems.append(f"{rules.acting} acts but is defeated")
        return problems

    # ----------------------------------------------------------------- legality

    def validate(self, state: GameState, action: Action) -> list[str]:
        pending = self.pending(state)
        kind = str(action.kind)
        if pending.kind is PendingKind.OVER:
            return ["the game is over"]
        if pending.kind is PendingKind.CHANCE:
            return [] if kind == "chance" else [f"the game starts with a chance step, not {kind}"]
        if kind == "chance":
            return ["no chance step is due"]
        if kind not in self.action_kinds:
            return [f"{kind} is not an action of the dungeon rules"]
        uid = action.unit_id
        if kind == "pass" and uid is None:
            if pending.kind is PendingKind.CHOOSE_UNIT and action.side in (None, pending.side):
                return []
            return [f"it is {pending.side}'s turn to pass or act, not {action.side}'s"]
        expected = pending.unit if pending.kind is PendingKind.CONTINUE else pending.candidates[0]
        if uid != expected or not state.has_unit(uid or ""):
            now = label(state.unit(expected or ""))
            who = label(state.unit(uid)) if uid and state.has_unit(uid) else repr(uid)
            return [f"it is the {now}'s turn, not the {who}'s"]
        unit = state.unit(uid or "")
        if kind == "pass":
            return []
        rules = rules_of(state)
        fresh = rules.acting is None
        if PATROLLING in unit.statuses and kind != "patrol":
            return [f"the {label(unit)} is patrolling: it rolls the patrol d8"]
        if kind == "patrol":
            return self._patrol_problems(state, unit, action, fresh)
        if kind == "move":
            if not fresh or rules.moved:
                return [f"the {label(unit)} moves before it attacks, once a turn"]
            _, problem = self._route(state, unit, action)
            if problem:
                return [problem]
            return self._heading_problems(action)
        if kind == "heal":
            return self._heal_problems(state, unit, action)
        return self._attack_problems(state, unit, action)

    def _route(self, state: GameState, unit: Unit, action: Action) -> tuple[list[Cell], str]:
        """The squares a move enters (from ``detail.cells``, else from its path), and why they
        are no legal move ("" when they are)."""
        raw = action.get("cells")
        if raw is None:
            cells = [state.table.cell_of(p) for p in action.path]
            if any(c is None for c in cells):
                return [], f"the {label(unit)} would leave the board"
            route = [c for c in cells if c is not None]
            while route and route[0] == unit.cell:
                route.pop(0)
            deduped: list[Cell] = []
            for c in route:
                if not deduped or deduped[-1] != c:
                    deduped.append(c)
            route = deduped
        else:
            try:
                route = [(int(c[0]), int(c[1])) for c in raw]
            except (TypeError, ValueError, IndexError):
                return [], "detail.cells must be a list of [col, row] squares"
            if route and route[0] == unit.cell:
                route = route[1:]
        movers = "monsters move" if is_enemy_side(state, unit.side) else "heroes move"
        if card_of(unit).move_sq != 2:
            movers = f"the {card_of(unit).title} moves"
        problem = Board.of(state).route_problem(unit, route, movers)
        return route, problem or ""

    def _heading_problems(self, action: Action) -> list[str]:
        h = action.heading_deg
        if h is not None and abs(h / 45.0 - round(h / 45.0)) > 1e-6:
            return [f"a facing of {h:g}° is not a grid facing (a multiple of 45°)"]
        return []

    def _patrol_problems(
        self, state: GameState, unit: Unit, action: Action, fresh: bool
    ) -> list[str]:
        if PATROLLING not in unit.statuses:
            return [f"the {label(unit)} is not patrolling"]
        if not fresh:
            return [f"the {label(unit)} has already acted"]
        roll, turn = action.get("roll"), action.get("turn_roll")
        if not isinstance(roll, int) or not 1 <= roll <= 8:
            return ["a patrol needs its d8 roll (1 to 8)"]
        if roll == 3 and (not isinstance(turn, int) or not 4 <= turn <= 8):
            return ["a patrol roll of 3 needs the re-roll for the turn (4 to 8; 1-3 re-rolled)"]
        if roll != 3 and turn is not None:
            return [f"a patrol roll of {roll} has no turn roll"]
        given = action.get("cells")
        if given is not None:
            run = patrol_run(state, unit, roll)
            try:
                route = [(int(c[0]), int(c[1])) for c in given]
            except (TypeError, ValueError, IndexError):
                return ["detail.cells must be a list of [col, row] squares"]
            if route and route[0] == unit.cell:
                route = route[1:]
            if route != run:
                where = cell_name(run[-1]) if run else cell_name(cell_of(unit))
                return [f"a patrol roll of {roll} takes the {label(unit)} to {where}"]
        return []

    def _attack_problems(self, state: GameState, unit: Unit, action: Action) -> list[str]:
        card, rules = card_of(unit), rules_of(state)
        weapon = card.attack(str(action.get("weapon") or ""))
        if weapon is None:
            names = ", ".join(a.name for a in card.attacks) or "none"
            return [f"the {card.title} has no weapon {action.get('weapon')!r} (it has: {names})"]
        if rules.weapons_used and not card.multi_attack_distinct_targets:
            return [f"the {card.title} attacks once a turn"]
        if weapon.name in rules.weapons_used:
            return [f"the {card.title} has already used its {weapon.name} this turn"]
        if not action.target_id or not state.has_unit(action.target_id):
            return [f"the {card.title} needs a target for its {weapon.name}"]
        target = state.unit(action.target_id)
        if not target.on_table or target.side == unit.side:
            return [f"the {card_of(target).title} is not an enemy on the board"]
        if target.id in rules.targets_attacked:
            return [f"the {card.title} must attack a different figure with its {weapon.name}"]
        problem = Board.of(state).attack_problem(unit, weapon, target)
        return [problem] if problem else []

    def _heal_problems(self, state: GameState, unit: Unit, action: Action) -> list[str]:
        card, rules = card_of(unit), rules_of(state)
        if card.heal is None:
            return [f"the {card.title} cannot heal"]
        if heals_left(unit) <= 0:
            return [f"the {card.title} has no heals left (3 per game)"]
        if rules.weapons_used:
            return [f"the {card.title} heals instead of attacking"]
        if not action.target_id or not state.has_unit(action.target_id):
            return [f"the {card.title} needs a hero to heal"]
        target = state.unit(action.target_id)
        if target.id == unit.id and not card.heal.self_allowed:
            return [f"the {card.title} cannot heal himself"]
        if not target.on_table or target.side != unit.side:
            return [f"the {card_of(target).title} is not a hero on the board"]
        dist = chebyshev(cell_of(unit), cell_of(target))
        if target.id != unit.id and dist != 1:
            return [
                f"the {card.title} heals an adjacent hero; the {card_of(target).title} is "
                f"{dist} squares away"
            ]
        return []

    def sample_actions(self, state: GameState, unit_id: str, dice: RandomSource) -> list[Action]:
        """Every legal action of the unit now: every end square of a move (a shortest route,
        facing its last step), every weapon at every target it can reach, every heal, every
        patrol roll of a Patrolling enemy, and a pass."""
        return [a for a in sample_actions(state, unit_id) if not self.validate(state, a)]

    def query(self, state: GameState) -> DungeonQuery:
        """Grid answers: Chebyshev squares as inches, sight per G-03 for seed 004."""
        return DungeonQuery(state)

    # ----------------------------------------------------------------- resolution

    def apply(self, state: GameState, action: Action, dice: RandomSource) -> Outcome:
        problems = self.validate(state, action)
        if problems:
            raise IllegalActionError(problems, action, state.round, state.step)
        kind = str(action.kind)
        rules = rules_of(state)
        if kind not in ("chance", "pass") and rules.acting is None:
            rules = replace(
                rules, acting=action.unit_id, moved=False, weapons_used=(), targets_attacked=()
            )
            state = replace(state, step=state.step + 1, rules=rules)
        else:
            state = replace(state, step=state.step + 1)
        if kind == "chance":
            return self._start(state, dice)
        pending = self.pending(state)
        if kind == "pass":
            uid = action.unit_id or pending.candidates[0]
            unit = state.unit(uid)
            verb = "ends its turn" if rules_of(state).acting else "does nothing this turn"
            ev = event("pass", state.round, f"{label(unit)} {verb}.", uid)
            return self._after(
                state, unit, [ev], hero_acted=False, done=True, dice=dice, board_changed=False
            )
        unit = state.unit(action.unit_id or "")
        if kind == "patrol":
            return self._patrol(state, unit, action, dice)
        if kind == "move":
            route, _ = self._route(state, unit, action)
            heading = action.heading_deg
            if heading is None:
                prev = [cell_of(unit), *route]
                heading = (
                    step_facing_deg((prev[-1][0] - prev[-2][0], prev[-1][1] - prev[-2][1]))
                    if route
                    else unit.heading_deg
                )
            if route:
                state, unit, ev = move_unit(state, unit, route, heading, "moves")
            else:
                state, ev = face(state, unit, heading, "on the spot")
                unit = state.unit(unit.id)
            state = replace(state, rules=replace(rules_of(state), moved=True))
            done = not self._can_still_act(state, unit)
            return self._after(state, unit, [ev], hero_acted=True, done=done, dice=dice)
        target = state.unit(action.target_id or "")
        if kind == "heal":
            state, events = heal(state, unit, target, dice)
            return self._after(
                state, unit, events, hero_acted=True, done=True, dice=dice, board_changed=False
            )
        weapon = card_of(unit).attack(str(action.get("weapon")))
        assert weapon is not None
        state, events, flees = attack(state, unit, weapon, target, dice)
        rules = rules_of(state)
        state = replace(
            state,
            rules=replace(
                rules,
                weapons_used=(*rules.weapons_used, weapon.name),
                targets_attacked=(*rules.targets_attacked, target.id),
            ),
        )
        if flees and state.unit(unit.id).on_table:
            state, fled = retreat(state, state.unit(unit.id), state.unit(target.id), dice)
            events += fled
            return self._after(
                state,
                unit,
                events,
                hero_acted=True,
                done=True,
                dice=dice,
                interacted=(target.id,),
                keep_facing=(unit.id,),
            )
        unit = state.unit(unit.id)
        done = not self._can_still_act(state, unit)
        return self._after(
            state,
            unit,
            events,
            hero_acted=True,
            done=done,
            dice=dice,
            interacted=(target.id,),
            board_changed=not state.unit(target.id).on_table,
        )

    def _can_still_act(self, state: GameState, unit: Unit) -> bool:
        """Whether the acting unit has an attack or a heal left to make this activation."""
        card, rules = card_of(unit), rules_of(state)
        if rules.weapons_used and not card.multi_attack_distinct_targets:
            return False
        board = Board.of(state)
        foes = [f for f in board.enemies_of(unit) if f.id not in rules.targets_attacked]
        for weapon in card.attacks:
            if weapon.name in rules.weapons_used:
                continue
            if any(board.can_attack(unit, weapon, f) for f in foes):
                return True
        if card.heal is None or heals_left(unit) <= 0 or rules.weapons_used:
            return False
        return any(
            not self._heal_problems(state, unit, Action("heal", unit.id, target_id=f.id))
            for f in state.units
            if f.on_table and f.side == unit.side
        )

    def _start(self, state: GameState, dice: RandomSource) -> Outcome:
        """The start step: the Arch Foe's d6 square (D004-14), everyone's first status."""
        events: list[Event] = []
        squares = state.option_value("dragon_squares", "")
        arch = arch_foe(state)
        if isinstance(squares, str) and squares and arch is not None:
            cells = parse_squares(squares, state.table)
            names = ", ".join(
                f"{lo}-{lo + 1} {cell_name(c)}" for lo, c in zip((1, 3, 5), cells, strict=True)
            )
            roll = dice.roll(6, f"{START_PURPOSE} of the {card_of(arch).title} ({names})")
            to = cells[(roll - 1) // 2]
            grid = state.table.grid
            assert grid is not None
            frm = cell_of(arch)
            x, y = grid.centre(to)
            state = state.with_unit(replace(arch, x=x, y=y))
            events.append(
                event(
                    "place",
                    state.round,
                    f"{card_of(arch).title} start roll {roll}: it starts on {cell_name(to)}.",
                    arch.id,
                    roll=roll,
                    cell=list(to),
                    from_cell=list(frm),
                    path=[list(grid.centre(frm)), [x, y]],
                )
            )
        arch = arch_foe(state)
        rules = replace(
            rules_of(state), started=True, arch_start=cell_of(arch) if arch is not None else None
        )
        state = replace(state, rules=rules)
        for m in monsters(state):
            status = ALERTED if ALERTED in m.statuses else PATROLLING
            events.append(
                event(
                    "status",
                    state.round,
                    f"{label(m)} is {status}, facing {facing_word(m.heading_deg)}.",
                    m.id,
                    status=status,
                    cell=list(cell_of(m)),
                )
            )
        return self._new_round(state, events)

    def _patrol(self, state: GameState, unit: Unit, action: Action, dice: RandomSource) -> Outcome:
        roll = int(action.get("roll"))
        turn_roll = action.get("turn_roll")
        run = patrol_run(state, unit, roll)
        turn = patrol_turn(roll, turn_roll)
        heading = (unit.heading_deg + turn) % 360.0
        words = patrol_words(roll, turn_roll, run, cell_of(unit), heading)
        text = f"{label(unit)}: {words}."
        events = [
            event(
                "patrol",
                state.round,
                text,
                unit.id,
                roll=roll,
                turn_roll=turn_roll,
                squares=len(run),
                turn=turn,
            )
        ]
        if run:
            state, unit, ev = move_unit(state, unit, run, heading, "patrols")
            events.append(ev)
        elif turn:
            state, ev = face(state, unit, heading, "on patrol")
            events.append(ev)
        return self._after(state, unit, events, hero_acted=False, done=True, dice=dice)

    def _after(
        self,
        state: GameState,
        unit: Unit,
        events: list[Event],
        *,
        hero_acted: bool,
        done: bool,
        dice: RandomSource,
        interacted: tuple[str, ...] = (),
        keep_facing: tuple[str, ...] = (),
        board_changed: bool = True,
    ) -> Outcome:
        """A complete action: the heroes' first action (entrance alerts, D004-08), the status
        updates (``board_changed``: somebody moved, turned or fell; which enemies look again
        follows from who acted, see ``update_statuses``), the end of the activation, victory
        and the next round."""
        rules = rules_of(state)
        lookers: tuple[str, ...] | None = None  # every enemy looks again
        hero_fell = any(
            ev.type == "fall" and ev.unit and not is_enemy_side(state, state.unit(ev.unit).side)
            for ev in events
        )
        if not board_changed:
            lookers = ()
        elif is_enemy_side(state, unit.side) and not hero_fell:
            lookers = (unit.id,)  # an enemy's own move changes no other enemy's view
        if hero_acted and not is_enemy_side(state, unit.side) and not rules.heroes_have_moved:
            lookers = None  # the first look the enemies may take
            state = replace(state, rules=replace(rules, heroes_have_moved=True))
            events += self._entrance_alerts(state)
            state = self._apply_status_events(state, events)
        if not is_enemy_side(state, unit.side):
            interacted = tuple(i for i in interacted if state.unit(i).on_table)
        else:
            interacted = ()
        state, changed = update_statuses(state, dice, interacted, keep_facing, lookers)
        events += changed
        if done:
            rules = rules_of(state)
            queue = tuple(i for i in rules.queue[1:] if state.unit(i).on_table)
            rules = replace(
                rules, acting=None, moved=False, weapons_used=(), targets_attacked=(), queue=queue
            )
            state = replace(state, rules=rules)
        else:
            rules = rules_of(state)
            state = replace(
                state,
                rules=replace(rules, queue=tuple(i for i in rules.queue if state.unit(i).on_table)),
            )
        over = self._victory(state)
        if over is not None:
            return self._end(state, events, *over)
        if not rules_of(state).queue and rules_of(state).acting is None:
            return self._new_round(state, events)
        return Outcome(state, tuple(events))

    def _entrance_alerts(self, state: GameState) -> list[Event]:
        """Status events for the entrance-alert figures near a hero start square (D004-08);
        applied by :meth:`_apply_status_events`."""
        rules = rules_of(state)
        reach = state.option("entrance_alert_sq", 2)
        out = []
        for m in monsters(state):
            if not card_of(m).entrance_alert or PATROLLING not in m.statuses:
                continue
            if any(chebyshev(cell_of(m), c) <= reach for c in rules.hero_starts):
                out.append(
                    event(
                        "status",
                        state.round,
                        f"{label(m)} is alerted: the heroes are at the entrance.",
                        m.id,
                        status=ALERTED,
                        cell=list(cell_of(m)),
                    )
                )
        return out

    def _apply_status_events(self, state: GameState, events: list[Event]) -> GameState:
        for ev in events:
            if ev.type == "status" and ev.get("status") == ALERTED and ev.unit:
                unit = state.unit(ev.unit)
                if ALERTED not in unit.statuses:
                    state, _ = set_status(state, unit, ALERTED, "")
        return state

    def _new_round(self, state: GameState, events: list[Event]) -> Outcome:
        limit = int(state.option("max_rounds", DEFAULT_MAX_ROUNDS))
        if state.round >= limit:
            ai = next(s.name for s in state.sides if s.role is Role.AI)
            return self._end(state, events, ai, f"the heroes did not win within {limit} rounds")
        order = sorted(
            monsters(state), key=lambda u: (-card_of(u).power, cell_of(u)[1], cell_of(u)[0])
        )
        queue = tuple(u.id for u in order) + tuple(u.id for u in heroes(state))
        state = replace(state, round=state.round + 1, rules=replace(rules_of(state), queue=queue))
        text = f"Round {state.round}: the enemies act, strongest first, then the heroes."
        events.append(event("round_start", state.round, text, order=list(queue)))
        return Outcome(state, tuple(events))

    def _victory(self, state: GameState) -> tuple[str, str] | None:
        hero_side = next(s.name for s in state.sides if s.role is Role.HUMAN)
        ai_side = next(s.name for s in state.sides if s.role is Role.AI)
        if not heroes(state):
            return ai_side, "every hero is defeated"
        victory = state.option_value("victory", "all")
        foes = monsters(state)
        if victory == "arch_foe":
            if not any(card_of(u).is_arch_foe for u in foes):
                return hero_side, "the Arch Foe is slain"
        elif victory == "minions":
            if not any(not card_of(u).is_arch_foe for u in foes):
                return hero_side, "every Minion Team is defeated"
        elif not foes:
            return hero_side, "every enemy is defeated"
        return None

    def _end(self, state: GameState, events: list[Event], winner: str, why: str) -> Outcome:
        rules = replace(rules_of(state), queue=(), acting=None)
        state = replace(state, winner=winner, end_reason=why, rules=rules)
        events.append(event("end", state.round, f"{winner} win: {why}.", winner=winner))
        return Outcome(state, tuple(events))


def is_enemy_side_of(sides: tuple[Side, ...], side: str) -> bool:
    """Whether ``side`` is the AI's (before a state exists)."""
    return next(s.role for s in sides if s.name == side) is Role.AI


def arch_foe(state: GameState) -> Unit | None:
    """The Arch Foe (the AI side's card with ``is_arch_foe``), on the board or not."""
    return next(
        (u for u in state.units if is_enemy_side(state, u.side) and card_of(u).is_arch_foe), None
    )


register_ruleset(NAME, DungeonRuleset)
