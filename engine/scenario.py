"""Scenario files (TOML): table, sides, characters with their cards, terrain, objectives.

Parsing takes the file's text and a name for messages; reading the file is the caller's
job (the engine does no I/O). Every error names the file, the field and what is allowed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

import shapely
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from engine.errors import EngineError
from engine.geometry.grid import Cell, Grid
from engine.memo import BoardMemo, SharedTerrain
from engine.plain_errors import describe_error, field_path, plain_message, shown_value
from engine.tomltext import TomlError, load_toml

SCENARIO_VERSION = 1

RULE_OPTIONS: dict[str, str] = {
    "contact_tol_in": "base-contact tolerance, inches (0 to 1)",
    "max_rounds": "rounds after which the battle ends (a whole number from 1 to 100)",
}
"""The options every ruleset takes in a scenario's [options] table, with what each takes; a
ruleset adds its own (``Ruleset.options``), checked by that ruleset."""

OptionValue = bool | int | float | str
"""A scenario option: a number, a flag or a word."""

MAX_ROUNDS = 100
"""The most rounds a scenario may set (``max_rounds``)."""

MAX_CORNERS = 500
"""The most corners a terrain outline or a deployment zone may have."""

OFF_TABLE_IN = 12.0
"""How far beyond the table's edges a terrain outline may reach, inches (a river running off
the table); deployment zones and objectives lie on the table."""

_OVERLAP_EPS_IN = 1e-6
"""A base may touch impassable terrain; it may not reach into it by more than this, inches."""


class ScenarioError(EngineError, ValueError):
    """A scenario file that cannot be used; the message names the file and the field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ScenarioInfo(_Strict):
    """The [scenario] table."""

    name: str = Field(min_length=1)
    """Short id, used on the command line."""
    title: str = ""
    description: str = ""
    ruleset: str = Field(min_length=1)
    """Registered ruleset name ("narrative")."""
    ai_controller: str = Field(min_length=1)
    """Registered controller for the AI side ("narrative-ai")."""
    human_controller: str = "autopilot"
    """Controller that plays the human side in simulations and the demo."""
    neutral_controller: str = ""
    """Controller that plays any neutral side (third parties); empty: the AI controller."""
    briefing: tuple[str, ...] = ()
    """Lines said to the player before set-up (a campaign's veterans and their wounds)."""


class GridSpec(_Strict):
    """The [table.grid] table: square cells (RULES §1.1, row 0 at the far edge)."""

    cell_in: float = Field(default=1.0, gt=0, le=24)
    """Side of a cell, inches."""
    cols: int | None = Field(default=None, ge=1, le=240)
    rows: int | None = Field(default=None, ge=1, le=240)


CellRef = str | tuple[int, int]
"""A grid cell in a scenario: "C4" (column letter from the left, row number from the far
edge, spreadsheet style: "A1" is the far left corner) or [column, row] counted from 0."""

_CELL_NAME = re.compile(r"^([A-Za-z]{1,2})([0-9]{1,3})$")


def parse_cell(ref: object, grid: Grid) -> Cell:
    """The cell a scenario names ("C4" or [col, row]); ValueError saying what is allowed."""
    allowed = (
        f'a cell of the {grid.cols} x {grid.rows} grid, like "A1" (far left) or [col, row] '
        f"from [0, 0] to [{grid.cols - 1}, {grid.rows - 1}]"
    )
    cell: Cell | None = None
    if isinstance(ref, str):
        m = _CELL_NAME.match(ref.strip())
        if m:
            col = 0
            for ch in m.group(1).upper():
                col = col * 26 + (ord(ch) - ord("A") + 1)
            cell = (col - 1, int(m.group(2)) - 1)
    elif (
        isinstance(ref, list | tuple)
        and len(ref) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in ref)
    ):
        cell = (int(ref[0]), int(ref[1]))
    if cell is None or not grid.contains(cell):
        raise ValueError(f"{ref!r} is not {allowed}")
    return cell


def cell_name(cell: Cell) -> str:
    """The spreadsheet-style name of a cell ("C4" for column 2, row 3)."""
    col, letters = cell[0] + 1, ""
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{cell[1] + 1}"


class TableSpec(_Strict):
    """The [table] table: play-area size in inches (RULES G-06)."""

    width_in: float = Field(default=24.0, gt=0, le=240)
    depth_in: float = Field(default=24.0, gt=0, le=240)
    grid: GridSpec | None = None
    """A square grid laid from the front left corner (RULES §1.1), for rules played on one."""

    @model_validator(mode="after")
    def _grid_fits(self) -> TableSpec:
        grid = self.grid_shape()
        if grid is not None and (
            grid.cols * grid.cell_in > self.width_in + 1e-9
            or grid.rows * grid.cell_in > self.depth_in + 1e-9
        ):
            raise ValueError(
                f"a grid of {grid.cols} x {grid.rows} cells of {grid.cell_in:g} in does not fit "
                f"the {self.width_in:g} x {self.depth_in:g} in table"
            )
        return self

    def grid_shape(self) -> Grid | None:
        """The grid (columns and rows default to as many whole cells as the table holds)."""
        if self.grid is None:
            return None
        cell = self.grid.cell_in
        cols = self.grid.cols or int(self.width_in / cell + 1e-9)
        rows = self.grid.rows or int(self.depth_in / cell + 1e-9)
        return Grid(cols, rows, cell)


class TagSpec(_Strict):
    """A tag on a base or a terrain piece, offsets in millimetres in the piece's own frame."""

    id: int = Field(ge=0, le=999)
    forward_mm: float = Field(default=5.0, ge=-300, le=300)
    right_mm: float = Field(default=0.0, ge=-300, le=300)
    size_mm: float = Field(default=10.0, gt=0, le=200)
    rotation_deg: float = Field(default=0.0, ge=-360, le=360)
    height_mm: float = Field(default=3.0, ge=0, le=300)


class SideSpec(_Strict):
    """One [[sides]] entry."""

    name: str = Field(min_length=1)
    role: Literal["ai", "human", "neutral"]
    """Who commands it: the AI, the player, or neither (third parties such as citizens or bots,
    played by the scenario's neutral controller)."""
    edge: Literal["front", "back", "left", "right"]
    """Deployment edge: front is the human player's edge (y = 0)."""
    generals: tuple[str, ...] = ()
    """Human generals taking turns (co-operative play)."""
    deployment: tuple[tuple[float, float], ...] = Field(default=(), max_length=MAX_CORNERS)
    """Deployment zone polygon in inches (optional): on the table, edges meeting only at its
    corners."""
    deployment_cells: tuple[CellRef, ...] = ()
    """Deployment cells on a gridded table (optional): its units stand on them, and a unit
    given no position takes the next free one, in this order."""


class UnitSpec(_Strict):
    """One [[units]] entry: a character, its starting pose and its card."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    side: str
    company: str = ""
    x: float = Field(ge=0, le=240)
    """Base centre, inches (set from ``cell`` when a cell is given)."""
    y: float = Field(ge=0, le=240)
    cell: tuple[int, int] | None = None
    """Its grid cell (column, row), on a gridded table; the file may write it "C4"."""
    heading: float = Field(default=0.0, ge=-360, le=360)
    """Facing, degrees clockwise from the far edge."""
    base_diameter_in: float = Field(default=1.0, gt=0, le=12)
    general: str | None = None
    tags: tuple[TagSpec, ...] = ()
    card: dict[str, Any]
    """Ruleset-specific numbers, validated by the ruleset."""
    wounds: int = Field(default=0, ge=0, le=99)
    """Wounds it starts the battle with (carried over from earlier battles of a campaign); put
    on the unit's state by ``engine.runner.start_game``, checked by the ruleset."""


class TerrainSpec(_Strict):
    """One [[terrain]] entry: a polygon in table inches with its attributes."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    kind: str = "scenery"
    polygon: tuple[tuple[float, float], ...] = Field(min_length=3, max_length=MAX_CORNERS)
    """Outline in table inches: corners in order around the piece, edges meeting only at
    corners, at most ``OFF_TABLE_IN`` beyond the table's edges."""
    blocks_los: bool = False
    impassable: bool = False
    difficult: bool = False
    cover: Literal["none", "soft", "hard"] = "none"
    dangerous: bool = False
    height_in: float = Field(default=0.0, ge=0, le=120)
    tags: tuple[TagSpec, ...] = ()


class ObjectiveSpec(_Strict):
    """One [[objectives]] entry."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    x: float = Field(ge=0, le=240)
    """Marker centre on the table, inches."""
    y: float = Field(ge=0, le=240)


class Scenario(_Strict):
    """A whole validated scenario file."""

    version: Literal[1] = 1
    scenario: ScenarioInfo
    table: TableSpec = TableSpec()
    options: dict[str, OptionValue] = {}
    """Rule options: contact_tol_in, max_rounds and the ruleset's own (numbers, flags, words)."""
    sides: tuple[SideSpec, ...] = Field(min_length=2, max_length=4)
    units: tuple[UnitSpec, ...] = Field(min_length=2)
    terrain: tuple[TerrainSpec, ...] = ()
    objectives: tuple[ObjectiveSpec, ...] = ()
    source: str = ""
    """Where it was read from (for messages); set by the parser."""
    _terrain_answers: SharedTerrain = PrivateAttr(default_factory=SharedTerrain)
    """Answers about the terrain, shared by the games made from this scenario object."""

    def game_memo(self, ruleset: str) -> BoardMemo:
        """A new game's memo (for ``new_game`` of ``ruleset``): its searches are its own, its
        answers about the terrain are shared with every game of this scenario object under
        that ruleset on the same terrain (the scenario's, or one a game changes it into), and
        so are the answers read from their key alone (a figure's base as an obstacle)."""
        return BoardMemo(self._terrain_answers, ruleset)

    @model_validator(mode="before")
    @classmethod
    def _place_on_cells(cls, data: Any) -> Any:
        """Units given a cell (or no position, on a side with deployment cells) stand at the
        centre of their cell (RULES §1.1): x and y are set from it before the fields are read."""
        if not isinstance(data, Mapping) or not isinstance(data.get("units"), list | tuple):
            return data
        table = data.get("table")
        grid = _raw_grid(table)
        if grid is None and isinstance(table, Mapping) and table.get("grid") is not None:
            return data  # a grid the field checks will refuse: no cells to read on it
        units: list[Any] = [dict(u) if isinstance(u, Mapping) else u for u in data["units"]]
        taken: set[Cell] = set()
        for i, unit in enumerate(units):
            if not isinstance(unit, dict):
                continue
            has_xy = "x" in unit or "y" in unit
            ref = unit.get("cell")
            if ref is not None:
                if has_xy:
                    raise ValueError(f"units[{i}].cell: give a cell or x and y, not both")
                if grid is None:
                    raise ValueError(
                        f"units[{i}].cell: a cell needs a gridded table ([table.grid])"
                    )
                try:
                    unit["cell"] = parse_cell(ref, grid)
                except ValueError as exc:
                    raise ValueError(f"units[{i}].cell: {exc}") from None
                taken.add(unit["cell"])
            elif has_xy and grid is not None:
                x, y = unit.get("x"), unit.get("y")
                if isinstance(x, int | float) and isinstance(y, int | float):
                    taken.add(grid.cell_at((float(x), float(y))))
        free = _deployment_cells(data.get("sides"), grid)
        for i, unit in enumerate(units):
            if not isinstance(unit, dict) or "x" in unit or "y" in unit:
                continue
            if unit.get("cell") is None:
                spare = [c for c in free.get(str(unit.get("side")), []) if c not in taken]
                if not spare:
                    how = "x and y" if grid is None else "x and y, or a cell"
                    why = "" if grid is None else " (its side has no free deployment cell)"
                    raise ValueError(f"units[{i}]: give {how}{why}")
                unit["cell"] = spare[0]
                taken.add(spare[0])
            assert grid is not None
            unit["x"], unit["y"] = grid.centre(unit["cell"])
        return {**data, "units": units}

    @model_validator(mode="before")
    @classmethod
    def _ruleset_table(cls, data: Any) -> Any:
        """A table size the file leaves out is the ruleset's own (RULES G-06: 36 x 36 in for
        the 2D6 skirmish, 24 x 24 in for the others). Defined after ``_place_on_cells`` so that
        it runs first (pydantic runs "before" validators last-defined first)."""
        if not isinstance(data, Mapping) or not isinstance(data.get("scenario"), Mapping):
            return data
        table = data.get("table", {})
        if not isinstance(table, Mapping) or ("width_in" in table and "depth_in" in table):
            return data
        width, depth = _ruleset_table_in(str(data["scenario"].get("ruleset", "")))
        return {**data, "table": {"width_in": width, "depth_in": depth, **table}}

    @model_validator(mode="after")
    def _check_options(self) -> Scenario:
        allowed = {**RULE_OPTIONS, **_ruleset_options(self.scenario.ruleset)}
        for name, value in self.options.items():
            if name not in allowed:
                raise ValueError(f"options.{name}: unknown option (allowed: {', '.join(allowed)})")
            number = (
                float(value)
                if isinstance(value, int | float) and not isinstance(value, bool)
                else None
            )
            if name == "max_rounds" and (
                number is None or not 1 <= number <= MAX_ROUNDS or number != int(number)
            ):
                raise ValueError(
                    f"options.max_rounds: {shown_value(value)} is not allowed (allowed: a whole "
                    f"number from 1 to {MAX_ROUNDS})"
                )
            if name == "contact_tol_in" and (number is None or not 0 <= number <= 1):
                raise ValueError(
                    f"options.contact_tol_in: {shown_value(value)} is not allowed (allowed: "
                    "inches, 0 to 1)"
                )
        return self

    @model_validator(mode="after")
    def _cross_check(self) -> Scenario:
        side_names = [s.name for s in self.sides]
        if len(set(side_names)) != len(side_names):
            raise ValueError(f"sides: two sides share a name ({side_names})")
        roles = [s.role for s in self.sides]
        if roles.count("ai") != 1 or roles.count("human") != 1:
            raise ValueError(
                "sides: need one side with role 'ai' and one with role 'human' "
                "(any others: role 'neutral')"
            )
        self._check_deployment_cells()
        seen: set[str] = set()
        for i, u in enumerate(self.units):
            if u.side not in side_names:
                raise ValueError(
                    f"units[{i}].side: {u.side!r} is not a side (allowed: {side_names})"
                )
            if u.id in seen:
                raise ValueError(f"units[{i}].id: {u.id!r} is used twice")
            seen.add(u.id)
            r = u.base_diameter_in / 2
            w, d = self.table.width_in, self.table.depth_in
            if not (r <= u.x <= w - r and r <= u.y <= d - r):
                raise ValueError(
                    f"units[{i}].x, y: the base of {u.id!r} at ({u.x:g}, {u.y:g}) is not wholly "
                    f"on the {w:g} x {d:g} in table (allowed for a {u.base_diameter_in:g} in "
                    f"base: x {r:g} to {w - r:g}, y {r:g} to {d - r:g})"
                )
        self._check_outlines()
        self._check_units_clear_of_impassable_terrain()
        for i, side in enumerate(self.sides):
            if not any(u.side == side.name for u in self.units):
                raise ValueError(f"sides[{i}]: side {side.name!r} has no units")
        tag_ids: dict[int, str] = {}
        owners = [(f"units[{i}]", u.id, u.tags) for i, u in enumerate(self.units)]
        owners += [(f"terrain[{i}]", t.id, t.tags) for i, t in enumerate(self.terrain)]
        for where, owner, tags in owners:
            for j, tag in enumerate(tags):
                if tag.id in tag_ids:
                    raise ValueError(
                        f"{where}.tags[{j}].id: tag {tag.id} of {owner!r} is already on "
                        f"{tag_ids[tag.id]!r} (every tag id must be used once)"
                    )
                tag_ids[tag.id] = owner
        return self

    def _check_deployment_cells(self) -> None:
        """A unit of a side with deployment cells stands on one of them."""
        grid = self.table.grid_shape()
        for j, side in enumerate(self.sides):
            if not side.deployment_cells:
                continue
            if grid is None:
                raise ValueError(
                    f"sides[{j}].deployment_cells: cells need a gridded table ([table.grid])"
                )
            cells = []
            for k, ref in enumerate(side.deployment_cells):
                try:
                    cells.append(parse_cell(ref, grid))
                except ValueError as exc:
                    raise ValueError(f"sides[{j}].deployment_cells[{k}]: {exc}") from None
            for i, u in enumerate(self.units):
                if u.side != side.name:
                    continue
                at = u.cell if u.cell is not None else grid.cell_at((u.x, u.y))
                if at not in cells:
                    names = ", ".join(cell_name(c) for c in cells)
                    raise ValueError(
                        f"units[{i}]: {u.id!r} stands on {cell_name(at)}, not on a deployment "
                        f"cell of {side.name!r} (allowed: {names})"
                    )

    def _check_outlines(self) -> None:
        """Terrain outlines and deployment zones are simple polygons (edges meeting only at
        corners) with an area; terrain reaches at most ``OFF_TABLE_IN`` beyond the table,
        zones and objectives lie on it."""
        w, d = self.table.width_in, self.table.depth_in
        shapes = [
            (f"terrain[{j}].polygon", t.id, t.polygon, OFF_TABLE_IN)
            for j, t in enumerate(self.terrain)
        ]
        shapes += [
            (f"sides[{j}].deployment", s.name, s.deployment, 1e-6)
            for j, s in enumerate(self.sides)
            if s.deployment
        ]
        for where, owner, corners, beyond in shapes:
            for x, y in corners:
                if not (-beyond <= x <= w + beyond and -beyond <= y <= d + beyond):
                    reach = f"within {beyond:g} in of" if beyond >= 0.01 else "on"
                    raise ValueError(
                        f"{where}: corner ({x:g}, {y:g}) of {owner!r} is off the {w:g} x {d:g} "
                        f"in table (allowed: corners {reach} the table)"
                    )
            problem = outline_problem(corners)
            if problem is not None:
                raise ValueError(
                    f"{where}: the outline of {owner!r} {problem} (allowed: corners listed in "
                    "order around it, edges meeting only at corners)"
                )
        for j, o in enumerate(self.objectives):
            if not (0 <= o.x <= w and 0 <= o.y <= d):
                raise ValueError(
                    f"objectives[{j}].x, y: {o.id!r} at ({o.x:g}, {o.y:g}) is off the {w:g} x "
                    f"{d:g} in table (allowed: x 0 to {w:g}, y 0 to {d:g})"
                )

    def _check_units_clear_of_impassable_terrain(self) -> None:
        """No base may stand in impassable terrain: it could never be placed there."""
        blocks = [
            (j, t, shapely.Polygon(t.polygon)) for j, t in enumerate(self.terrain) if t.impassable
        ]
        for i, u in enumerate(self.units):
            r = u.base_diameter_in / 2
            for j, t, shape in blocks:
                if float(shapely.distance(shape, shapely.Point(u.x, u.y))) < r - _OVERLAP_EPS_IN:
                    raise ValueError(
                        f"units[{i}].x, y: the base of {u.id!r} at ({u.x:g}, {u.y:g}) stands in "
                        f"impassable terrain {t.id!r} (terrain[{j}]); allowed: a place where "
                        "the whole base is clear of it"
                    )

    def side_spec(self, name: str) -> SideSpec:
        """The side with this name."""
        for s in self.sides:
            if s.name == name:
                return s
        raise ScenarioError(f"{self.source}: no side named {name!r}")


def outline_problem(corners: tuple[tuple[float, float], ...]) -> str | None:
    """What is wrong with a polygon's outline in words ("crosses itself near (4.5, 11.5)",
    "has no area"), None when it is a simple polygon with an area."""
    shape = shapely.Polygon(corners)
    if shape.is_valid and shape.area > 0:
        return None
    reason = shapely.is_valid_reason(shape)
    where = re.search(r"\[(-?[0-9.e+-]+) (-?[0-9.e+-]+)\]", reason)
    near = f" near ({float(where[1]):g}, {float(where[2]):g})" if where else ""
    if shapely.MultiPoint(corners).convex_hull.area == 0:
        return "has no area (its corners lie on one line)"
    if reason.startswith(("Self-intersection", "Ring Self-intersection")):
        return f"crosses itself{near}"
    return f"is not a simple polygon ({reason})"


def _raw_grid(table: object) -> Grid | None:
    """The grid of an unvalidated [table] (None when there is none or it is malformed: the
    field checks report that)."""
    if not isinstance(table, Mapping) or not isinstance(table.get("grid"), Mapping):
        return None
    try:
        spec = TableSpec.model_validate(table)
    except ValidationError:
        return None
    return spec.grid_shape()


def _deployment_cells(sides: object, grid: Grid | None) -> dict[str, list[Cell]]:
    """Each side's deployment cells, in order (unreadable ones are left to the field checks)."""
    out: dict[str, list[Cell]] = {}
    if grid is None or not isinstance(sides, list | tuple):
        return out
    for side in sides:
        if not isinstance(side, Mapping):
            continue
        cells = []
        refs = side.get("deployment_cells", ())
        for ref in refs if isinstance(refs, list | tuple) else ():
            try:
                cells.append(parse_cell(ref, grid))
            except ValueError:
                continue
        out[str(side.get("name"))] = cells
    return out


def _ruleset_options(ruleset: str) -> dict[str, str]:
    """The options the named ruleset adds (none when no ruleset of that name is registered;
    starting the game says so)."""
    from engine.protocols import UnknownNameError, find_ruleset  # the registry imports this

    try:
        return dict(find_ruleset(ruleset).options)
    except UnknownNameError:
        return {}


def _ruleset_table_in(ruleset: str) -> tuple[float, float]:
    """The named ruleset's default table, inches (24 x 24 when no such ruleset is registered;
    starting the game says so)."""
    from engine.protocols import UnknownNameError, find_ruleset  # the registry imports this

    try:
        return find_ruleset(ruleset).table_in
    except UnknownNameError:
        return (24.0, 24.0)


def parse_scenario(text: str, source: str = "<scenario>") -> Scenario:
    """Parse and validate a scenario from TOML text; ``source`` names it in errors."""
    try:
        raw = load_toml(text, source)
    except TomlError as exc:
        raise ScenarioError(str(exc)) from None
    version = raw.get("version", SCENARIO_VERSION)
    if version != SCENARIO_VERSION:
        raise ScenarioError(
            f"{source}: version: {version!r} is not supported (allowed: {SCENARIO_VERSION})"
        )
    if "source" in raw:
        raise ScenarioError(f"{source}: source: unknown field (it is set by soloscope)")
    try:
        scenario = Scenario.model_validate({**raw, "source": source})
    except ValidationError as exc:
        raise ScenarioError(f"{source}: {describe_error(exc, Scenario)}") from None
    return scenario


def card_error(
    scenario: Scenario,
    unit_index: int,
    exc: ValidationError,
    card_model: type[BaseModel] | None = None,
) -> ScenarioError:
    """A ScenarioError naming the card field that a ruleset's card model rejected."""
    if card_model is None:
        first = exc.errors()[0]
        field = field_path(("units", unit_index, "card", *first["loc"]))
        message = plain_message(first, BaseModel, tuple(first["loc"]))
        return ScenarioError(f"{scenario.source}: {field}: {message}")
    prefix = ("units", unit_index, "card")
    return ScenarioError(f"{scenario.source}: {describe_error(exc, card_model, prefix)}")
