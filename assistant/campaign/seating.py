"""The campaign's roster put into a scenario: the player's side is the campaign's characters.

Generic over rule systems: a scenario's units on the human side are *places*. Each character
who is not lost takes the place whose tag is its own tag, else the place with its name, else
the next free place in file order; the unit then carries the character's id, name, card, tag
(and base, when the roster gives one) and its starting wounds (``wounds`` in the unit entry,
applied to the unit's state by ``engine.runner.start_game``). Places nobody takes are left
empty. The result is written as a scenario file of its own, which is what a battle plays
(``simulate`` and the live session alike) and what its run folder keeps.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from assistant.campaign.model import CampaignError, CampaignFile, Character
from assistant.scenarios import check_kit_tags
from engine.runner import start_game
from engine.scenario import Scenario, ScenarioError, parse_scenario
from engine.tomltext import TomlError, load_toml


@dataclass(frozen=True)
class Veteran:
    """A character going into battle: who, with how many wounds, and the briefing line."""

    character: Character
    wounds: int = 0
    note: str = ""
    """What the player is told at set-up ("Sergeant Ash, carrying one wound from the ford")."""


def human_side(raw: Mapping[str, Any]) -> str:
    """The name of the scenario's human side (raw TOML data)."""
    for side in raw.get("sides", ()):
        if isinstance(side, Mapping) and side.get("role") == "human":
            return str(side.get("name"))
    raise CampaignError("the scenario has no human side")


def seat(
    raw: Mapping[str, Any], veterans: Sequence[Veteran], preface: Sequence[str] = ()
) -> dict[str, Any]:
    """The raw scenario with its human side's places taken by ``veterans`` (see module
    docstring) and their notes, after ``preface``, in its briefing; raises CampaignError when
    a character finds no place."""
    side = human_side(raw)
    units = [dict(u) for u in raw.get("units", ())]
    places = [i for i, u in enumerate(units) if u.get("side") == side]
    taken: dict[int, Veteran] = {}

    def first_tag(unit: Mapping[str, Any]) -> int | None:
        tags = unit.get("tags") or ()
        return int(tags[0]["id"]) if tags and isinstance(tags[0], Mapping) else None

    def same_tag(unit: Mapping[str, Any], vet: Veteran) -> bool:
        return first_tag(unit) == vet.character.tag

    def same_name(unit: Mapping[str, Any], vet: Veteran) -> bool:
        return bool(unit.get("name") == vet.character.name)

    waiting = list(veterans)
    for match in (same_tag, same_name):
        for vet in list(waiting):
            for i in places:
                if i not in taken and match(units[i], vet):
                    taken[i] = vet
                    waiting.remove(vet)
                    break
    for vet in waiting:
        free = [i for i in places if i not in taken]
        if not free:
            raise CampaignError(
                f"{vet.character.name} has no place on the {side} side of scenario "
                f"{raw.get('scenario', {}).get('name', '?')} ({len(places)} places)"
            )
        taken[free[0]] = vet
    out_units = []
    for i, unit in enumerate(units):
        if i not in places:
            out_units.append(unit)
        elif i in taken:
            out_units.append(_seated(unit, taken[i]))
    briefing = [*preface, *(v.note for v in veterans if v.note)]
    info = dict(raw.get("scenario", {}))
    if briefing:
        info["briefing"] = [*info.get("briefing", ()), *briefing]
    return {**raw, "scenario": info, "units": out_units}


def _seated(place: Mapping[str, Any], vet: Veteran) -> dict[str, Any]:
    c = vet.character
    tags = [dict(t) for t in place.get("tags", ())] or [{}]
    tags = [{**tags[0], "id": c.tag}]
    if c.tag_size_mm is not None:
        tags[0]["size_mm"] = c.tag_size_mm
    unit = {**place, "id": c.key, "name": c.name, "card": dict(c.card), "tags": tags}
    if c.base_diameter_in is not None:
        unit["base_diameter_in"] = c.base_diameter_in
    if vet.wounds:
        unit["wounds"] = vet.wounds
    else:
        unit.pop("wounds", None)
    return unit


def battle_scenario(
    scenario_text: str, source: str, veterans: Sequence[Veteran], preface: Sequence[str] = ()
) -> tuple[str, Scenario]:
    """The scenario file a campaign battle plays (TOML text) and its validated form: the
    roster seated, the cards and starting wounds checked by the ruleset."""
    try:
        raw = load_toml(scenario_text, source)
    except TomlError as exc:
        raise CampaignError(str(exc)) from None
    text = toml_text(seat(raw, veterans, preface), header=f"Campaign battle seated from {source}.")
    try:
        scenario = parse_scenario(text, source)
        check_kit_tags(scenario)
        start_game(scenario)
    except ScenarioError as exc:
        raise CampaignError(f"with the campaign's roster, {exc}") from None
    return text, scenario


def check_campaign(campaign: CampaignFile, scenario_texts: Mapping[str, tuple[str, str]]) -> None:
    """Every battle's scenario plays the campaign's ruleset and seats the whole roster
    (``scenario_texts``: battle id -> (source, text))."""
    veterans = [Veteran(c) for c in campaign.roster]
    for i, node in enumerate(campaign.battles):
        source, text = scenario_texts[node.id]
        where = f"{campaign.source}: battles[{i}].scenario"
        try:
            _, scenario = battle_scenario(text, source, veterans)
        except CampaignError as exc:
            raise CampaignError(f"{where}: {exc}") from None
        if scenario.scenario.ruleset != campaign.campaign.ruleset:
            raise CampaignError(
                f"{where}: {node.scenario!r} is played with {scenario.scenario.ruleset!r}, "
                f"not the campaign's {campaign.campaign.ruleset!r}"
            )


# ----------------------------------------------------------------------------- TOML out
def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise CampaignError(f"cannot write {value!r} to a scenario file")


def _key(key: str) -> str:
    return key if key.replace("-", "").replace("_", "").isalnum() else json.dumps(key)


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def toml_text(data: Mapping[str, Any], header: str = "") -> str:
    """TOML for scenario-shaped data: top-level values, then tables, then arrays of tables
    (nested values inline)."""
    lines = [f"# {header}"] if header else []
    for key, value in data.items():
        if not isinstance(value, Mapping) and not _is_table_array(value):
            lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in data.items():
        if isinstance(value, Mapping):
            lines += ["", f"[{_key(key)}]"]
            lines += [f"{_key(k)} = {_value(v)}" for k, v in value.items()]
    for key, value in data.items():
        if _is_table_array(value):
            for entry in value:
                lines += ["", f"[[{_key(key)}]]"]
                lines += [f"{_key(k)} = {_value(v)}" for k, v in entry.items()]
    return "\n".join(lines) + "\n"
