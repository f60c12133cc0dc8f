"""Scenario files (TOML): table, sides, characters with their cards, terrain, objectives.

Parsing takes the file's text and a name for messages; reading the file is the caller's
job (the engine does no I/O). Every error names the file, the field and what is allowed.
"""

from __future__ import annotations

import tomllib
from typing import Any, Literal, get_args

import shapely
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from engine.errors import EngineError

SCENARIO_VERSION = 1

RULE_OPTIONS: dict[str, str] = {
    "contact_tol_in": "base-contact tolerance, inches (0 to 1)",
    "max_rounds": "rounds after which the battle ends (a whole number, 1 or more)",
}
"""The options every ruleset takes in a scenario's [options] table, with what each takes; a
ruleset adds its own (``Ruleset.options``), checked by that ruleset."""

OptionValue = bool | int | float | str
"""A scenario option: a number, a flag or a word."""

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


class TableSpec(_Strict):
    """The [table] table: play-area size in inches (RULES G-06)."""

    width_in: float = Field(default=24.0, gt=0, le=240)
    depth_in: float = Field(default=24.0, gt=0, le=240)


class TagSpec(_Strict):
    """A tag on a base or a terrain piece, offsets in millimetres in the piece's own frame."""

    id: int = Field(ge=0, le=999)
    forward_mm: float = 5.0
    right_mm: float = 0.0
    size_mm: float = Field(default=10.0, gt=0, le=200)
    rotation_deg: float = 0.0
    height_mm: float = Field(default=3.0, ge=0, le=300)


class SideSpec(_Strict):
    """One [[sides]] entry."""

    name: str = Field(min_length=1)
    role: Literal["ai", "human"]
    edge: Literal["front", "back", "left", "right"]
    """Deployment edge: front is the human player's edge (y = 0)."""
    generals: tuple[str, ...] = ()
    """Human generals taking turns (co-operative play)."""
    deployment: tuple[tuple[float, float], ...] = ()
    """Deployment zone polygon in inches (optional)."""


class UnitSpec(_Strict):
    """One [[units]] entry: a character, its starting pose and its card."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    side: str
    company: str = ""
    x: float
    y: float
    heading: float = 0.0
    base_diameter_in: float = Field(default=1.0, gt=0, le=12)
    general: str | None = None
    tags: tuple[TagSpec, ...] = ()
    card: dict[str, Any]
    """Ruleset-specific numbers, validated by the ruleset."""


class TerrainSpec(_Strict):
    """One [[terrain]] entry: a polygon in table inches with its attributes."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    kind: str = "scenery"
    polygon: tuple[tuple[float, float], ...] = Field(min_length=3)
    blocks_los: bool = False
    impassable: bool = False
    difficult: bool = False
    cover: Literal["none", "soft", "hard"] = "none"
    dangerous: bool = False
    height_in: float = Field(default=0.0, ge=0)
    tags: tuple[TagSpec, ...] = ()


class ObjectiveSpec(_Strict):
    """One [[objectives]] entry."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    x: float
    y: float


class Scenario(_Strict):
    """A whole validated scenario file."""

    version: Literal[1] = 1
    scenario: ScenarioInfo
    table: TableSpec = TableSpec()
    options: dict[str, OptionValue] = {}
    """Rule options: contact_tol_in, max_rounds and the ruleset's own (numbers, flags, words)."""
    sides: tuple[SideSpec, ...] = Field(min_length=2, max_length=2)
    units: tuple[UnitSpec, ...] = Field(min_length=2)
    terrain: tuple[TerrainSpec, ...] = ()
    objectives: tuple[ObjectiveSpec, ...] = ()
    source: str = ""
    """Where it was read from (for messages); set by the parser."""

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
            if name == "max_rounds" and (number is None or number < 1 or number != int(number)):
                raise ValueError(f"options.max_rounds: {RULE_OPTIONS[name]}, got {value!r}")
            if name == "contact_tol_in" and (number is None or not 0 <= number <= 1):
                raise ValueError(f"options.contact_tol_in: {RULE_OPTIONS[name]}, got {value!r}")
        return self

    @model_validator(mode="after")
    def _cross_check(self) -> Scenario:
        side_names = [s.name for s in self.sides]
        if len(set(side_names)) != len(side_names):
            raise ValueError(f"sides: two sides share a name ({side_names})")
        if {s.role for s in self.sides} != {"ai", "human"}:
            raise ValueError("sides: need one side with role 'ai' and one with role 'human'")
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


def _ruleset_options(ruleset: str) -> dict[str, str]:
    """The options the named ruleset adds (none when no ruleset of that name is registered;
    starting the game says so)."""
    from engine.protocols import UnknownNameError, find_ruleset  # the registry imports this

    try:
        return dict(find_ruleset(ruleset).options)
    except UnknownNameError:
        return {}


def _allowed_fields(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The field names of the model found at ``loc`` inside ``model`` (empty if not a model)."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            args = [a for a in get_args(current) if a is not Ellipsis]
            current = args[0] if args else None
        elif isinstance(current, type) and issubclass(current, BaseModel):
            info = current.model_fields.get(part)
            current = info.annotation if info is not None else None
        else:
            return []
    if isinstance(current, type) and issubclass(current, BaseModel):
        return [name for name in current.model_fields if name != "source"]
    return []


def describe_error(
    exc: ValidationError, model: type[BaseModel], prefix: tuple[int | str, ...] = ()
) -> str:
    """ "field: what is wrong (what is allowed)" for the first (most telling) problem in ``exc``.

    Unknown fields come first, since a misspelt field also shows up as a missing one.
    """
    errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
    first = errors[0]
    loc = tuple(first["loc"])
    kind = first["type"]
    if kind == "extra_forbidden":
        allowed = _allowed_fields(model, loc[:-1])
        message = "unknown field" + (f" (allowed: {', '.join(allowed)})" if allowed else "")
    elif kind == "value_error" and "error" in first.get("ctx", {}):
        message = str(first["ctx"]["error"])
        if not loc:
            return message  # cross-field checks name their fields themselves
    else:
        message = first["msg"]
        value = first.get("input")
        if kind != "missing" and isinstance(value, str | int | float | bool):
            message += f" (got {value!r})"
    more = len(errors) - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return f"{_field_path(prefix + loc)}: {message}{tail}"


def _field_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def parse_scenario(text: str, source: str = "<scenario>") -> Scenario:
    """Parse and validate a scenario from TOML text; ``source`` names it in errors."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{source}: not valid TOML: {exc}") from None
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
        field = _field_path(("units", unit_index, "card", *first["loc"]))
        return ScenarioError(f"{scenario.source}: {field}: {first['msg']}")
    prefix = ("units", unit_index, "card")
    return ScenarioError(f"{scenario.source}: {describe_error(exc, card_model, prefix)}")
