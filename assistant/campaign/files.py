"""Finding and loading campaign files: a bundled name or a path, with every battle's scenario
read and the whole roster checked against it."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from assistant.campaign.model import CampaignError, CampaignFile, parse_campaign, read_campaign_file
from assistant.campaign.seating import check_campaign
from assistant.errors import UserError
from assistant.scenarios import scenario_path
from engine.errors import EngineError

_BUNDLED = "data/campaigns"
_SCENARIOS = "data/scenarios"


@dataclass(frozen=True)
class LoadedCampaign:
    """A validated campaign file with its text and every battle's scenario (source, text)."""

    campaign: CampaignFile
    text: str
    scenarios: dict[str, tuple[str, str]]


def bundled_dir() -> Path:
    """The folder of the bundled campaigns."""
    return Path(str(resources.files("assistant").joinpath(_BUNDLED)))


def campaign_path(name_or_path: str) -> Path:
    """The file for a bundled campaign name or a path to a TOML file."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        if not path.is_file():
            raise CampaignError(f"no campaign file at {name_or_path}")
        return path
    bundled = bundled_dir() / f"{name_or_path}.toml"
    if bundled.is_file():
        return bundled
    names = ", ".join(p.stem for p in sorted(bundled_dir().glob("*.toml")))
    raise CampaignError(f"no campaign named {name_or_path!r} (bundled: {names}; or a .toml path)")


def _scenario_file(reference: str, beside: Path) -> Path:
    """A battle's scenario: a path relative to the campaign file, else a bundled name."""
    relative = beside.parent / reference
    if reference.endswith(".toml") and relative.is_file():
        return relative
    if reference.endswith(".toml") or Path(reference).exists():
        return scenario_path(reference)
    bundled = Path(str(resources.files("assistant").joinpath(_SCENARIOS))) / f"{reference}.toml"
    if not bundled.is_file():
        raise CampaignError(
            f"no bundled scenario named {reference!r} (see soloscope scenarios; or give a "
            ".toml path, relative to the campaign file)"
        )
    return bundled


def load_campaign(name_or_path: str) -> LoadedCampaign:
    """Read and validate a campaign file and every battle's scenario."""
    path = campaign_path(name_or_path)
    text = read_campaign_file(path)
    campaign = parse_campaign(text, str(path))
    scenarios: dict[str, tuple[str, str]] = {}
    for i, node in enumerate(campaign.battles):
        try:
            file = _scenario_file(node.scenario, path)
            scenarios[node.id] = (str(file), file.read_text(encoding="utf-8"))
        except (UserError, EngineError, OSError, UnicodeDecodeError) as exc:
            raise CampaignError(f"{path}: battles[{i}].scenario: {exc}") from None
    check_campaign(campaign, scenarios)
    return LoadedCampaign(campaign, text, scenarios)
