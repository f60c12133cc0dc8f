"""Finding and loading scenario files: a bundled name or a path."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from assistant.errors import UserError
from engine.model import GameState
from engine.protocols import Ruleset
from engine.runner import start_game
from engine.scenario import Scenario, parse_scenario

_BUNDLED = "data/scenarios"


@dataclass(frozen=True)
class BundledScenario:
    """A scenario shipped with soloscope."""

    name: str
    title: str
    ruleset: str
    description: str


def _bundled_dir() -> Path:
    return Path(str(resources.files("assistant").joinpath(_BUNDLED)))


def bundled_scenarios() -> list[BundledScenario]:
    """Every bundled scenario, by name."""
    out = []
    for path in sorted(_bundled_dir().glob("*.toml")):
        scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
        info = scenario.scenario
        out.append(BundledScenario(path.stem, info.title, info.ruleset, info.description))
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


def load_scenario(name_or_path: str) -> Scenario:
    """Read and validate a scenario, including its unit cards (errors name file and field)."""
    path = scenario_path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read scenario {path}: {exc}") from None
    scenario = parse_scenario(text, str(path))
    start_game(scenario)  # validates the cards against the ruleset
    return scenario


def load_game(name_or_path: str) -> tuple[Scenario, Ruleset, GameState]:
    """The scenario, its ruleset and the starting state."""
    scenario = load_scenario(name_or_path)
    ruleset, state = start_game(scenario)
    return scenario, ruleset, state
