"""Finding and loading scenario files: a bundled name or a path.

Loading also checks the scenario's tags against the printable kit (``calibration.kit_ids``),
which the engine does not know: every model's tag must be one of the kit's piece ids and every
terrain tag one of its terrain ids, so that nothing waits for a tag that cannot be printed or
read.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from assistant.errors import UserError
from calibration.kit_ids import (
    BUTTON_IDS,
    CORNER_IDS,
    CORNER_PLACES,
    KIT_DICTIONARY,
    PIECE_IDS,
    TERRAIN_IDS,
)
from engine.errors import EngineError
from engine.model import GameState
from engine.protocols import Ruleset
from engine.runner import start_game
from engine.scenario import Scenario, ScenarioError, parse_scenario

_BUNDLED = "data/scenarios"


@dataclass(frozen=True)
class BundledScenario:
    """A scenario shipped with soloscope."""

    name: str
    title: str
    ruleset: str
    description: str
    path: Path
    """The scenario file."""
    controllers: dict[str, str]
    """Controller by role: "ai", "human" (the one that plays the player's side in simulations),
    and "neutral" when the scenario has third parties played by a controller of their own."""


def _bundled_dir() -> Path:
    return Path(str(resources.files("assistant").joinpath(_BUNDLED)))


def bundled_scenarios() -> list[BundledScenario]:
    """Every bundled scenario, by name."""
    out = []
    for path in sorted(_bundled_dir().glob("*.toml")):
        scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
        info = scenario.scenario
        controllers = {"ai": info.ai_controller, "human": info.human_controller}
        if info.neutral_controller:
            controllers["neutral"] = info.neutral_controller
        out.append(
            BundledScenario(
                path.stem, info.title, info.ruleset, info.description, path, controllers
            )
        )
    return out


def scenario_path(name_or_path: str) -> Path:
    """The file for a bundled scenario name or a path to a TOML file."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        if not path.is_file():
            raise UserError(f"no scenario file at {name_or_path}")
        return path
    bundled = _bundled_dir() / f"{name_or_path}.toml"
    if bundled.is_file():
        return bundled
    names = ", ".join(s.name for s in bundled_scenarios())
    raise UserError(f"no scenario named {name_or_path!r} (bundled: {names}; or give a .toml path)")


def _ids(ids: range) -> str:
    return f"{ids.start} to {ids.stop - 1}"


def _tag_id_problem(tag_id: int, wanted: range, what: str) -> str | None:
    """Why ``tag_id`` cannot be a ``what`` tag of the kit (None if it can)."""
    if tag_id in wanted:
        return None
    noun = "a model" if what == "model" else "a terrain piece"
    allowed = f"allowed for {noun}: {_ids(wanted)} (the kit's {what} ids in {KIT_DICTIONARY})"
    size = max(PIECE_IDS.stop, TERRAIN_IDS.stop)
    if tag_id >= size:
        return f"{tag_id} is not in {KIT_DICTIONARY} (ids 0 to {size - 1}); {allowed}"
    if tag_id in CORNER_IDS:
        return f"{tag_id} is the kit's corner tag ({CORNER_PLACES[tag_id]}); {allowed}"
    buttons = {i: name for name, i in BUTTON_IDS.items()}
    if tag_id in buttons:
        return f"{tag_id} is the kit's {buttons[tag_id]!r} button tag; {allowed}"
    other = "terrain" if tag_id in TERRAIN_IDS else "model"
    return f"{tag_id} is one of the kit's {other} ids; {allowed}"


def check_kit_tags(scenario: Scenario) -> None:
    """Raise ScenarioError naming the file and field of the first tag that the kit cannot
    print for its place: models take piece ids (16 to 49), terrain takes terrain ids (8 to
    15); corner and button ids and ids outside the dictionary are never allowed."""
    owners = [("units", i, u.tags, PIECE_IDS, "model") for i, u in enumerate(scenario.units)]
    owners += [
        ("terrain", i, t.tags, TERRAIN_IDS, "terrain") for i, t in enumerate(scenario.terrain)
    ]
    for table, i, tags, wanted, what in owners:
        for j, tag in enumerate(tags):
            problem = _tag_id_problem(tag.id, wanted, what)
            if problem is not None:
                raise ScenarioError(f"{scenario.source}: {table}[{i}].tags[{j}].id: {problem}")


def load_scenario(name_or_path: str) -> Scenario:
    """Read and validate a scenario, including its unit cards (errors name file and field)."""
    path = scenario_path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read scenario {path}: {exc}") from None
    scenario = parse_scenario(text, str(path))
    check_kit_tags(scenario)
    try:
        start_game(scenario)  # validates the cards and options against the ruleset
    except EngineError as exc:
        if str(exc).startswith(scenario.source):
            raise
        raise ScenarioError(f"{scenario.source}: {exc}") from None
    return scenario


def load_game(name_or_path: str) -> tuple[Scenario, Ruleset, GameState]:
    """The scenario, its ruleset and the starting state."""
    scenario = load_scenario(name_or_path)
    ruleset, state = start_game(scenario)
    return scenario, ruleset, state
