"""Campaign files (TOML): a roster of the player's characters, a graph of battles keyed by
outcome, the wound-resolution option (RULES §2.n, D000-13) and the rule system.

A campaign file looks like::

    version = 1
    [campaign]
    name = "wardens-road"
    ruleset = "narrative"
    wounds = "A"            # D000-13 option A (default) or B
    start = "shrine"        # the first battle

    [[roster]]
    name = "Sergeant Ash"
    tag = 16                # the tag on the model's base (a kit piece id)
    card = { move_in = 6, attack = 2, defence = 1, wound_slots = 1 }

    [[battles]]
    id = "shrine"
    scenario = "crossroads-ambush"   # a bundled scenario or a .toml path beside the file
    place = "the shrine"             # "carrying one wound from the shrine"
    flags = { relic-saved = "scored:relic" }
    next = { relic-saved = "ford", win = "ford", lose = "tower" }

``next`` is read in order: the first key that holds (a flag that is set, or the battle's
outcome win / lose / draw) names the next battle; none, or ``"end"``, ends the campaign.
Validation names the file, the field and what is allowed, like scenario files.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from assistant.errors import UserError
from calibration.kit_ids import PIECE_IDS
from engine.plain_errors import describe_error
from engine.tomltext import TomlError, load_toml

CAMPAIGN_VERSION = 1
OUTCOMES = ("win", "lose", "draw")
"""The outcome of a battle from the player's side."""
END = "end"
"""A ``next`` target that ends the campaign."""

_SLUG = re.compile(r"[^a-z0-9]+")
_FLAG_CONDITION = re.compile(r"^(scored|lost-objective|win|lose|draw)(:[A-Za-z0-9_.-]+)?$")


class CampaignError(UserError, ValueError):
    """A campaign file that cannot be used; the message names the file and the field."""


def slug(text: str) -> str:
    """A lower-case id made from a name ("Sergeant Ash" -> "sergeant-ash")."""
    return _SLUG.sub("-", text.lower()).strip("-") or "character"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CampaignInfo(_Strict):
    """The [campaign] table."""

    name: str = Field(min_length=1)
    """Short id."""
    title: str = ""
    description: str = ""
    ruleset: str = Field(min_length=1)
    """The rule system every battle is played with (its scenarios must name it)."""
    wounds: Literal["A", "B"] = "A"
    """Post-battle wound resolution, RULES D000-13 option A (carry over) or B (rolled)."""
    start: str = Field(min_length=1)
    """The id of the first battle."""


class Character(_Strict):
    """One [[roster]] entry: a persistent character of the player's side."""

    name: str = Field(min_length=1)
    id: str = ""
    """Its id in the battles' logs (default: made from the name)."""
    tag: int = Field(ge=PIECE_IDS.start, le=PIECE_IDS.stop - 1)
    """The kit tag on its base: the camera recognises the veteran by it."""
    card: dict[str, Any]
    """The numbers on its card, in the ruleset's terms (checked by the ruleset)."""
    base_diameter_in: float | None = Field(default=None, gt=0, le=12)
    """Its base, inches (default: the base of the scenario place it takes)."""
    tag_size_mm: float | None = Field(default=None, gt=0, le=200)
    """Its tag's printed size, mm (default: the scenario place's)."""

    @property
    def key(self) -> str:
        """The character's id."""
        return self.id or slug(self.name)


class BattleNode(_Strict):
    """One [[battles]] entry: a node of the scenario graph."""

    id: str = Field(min_length=1)
    scenario: str = Field(min_length=1)
    """A bundled scenario name, or a .toml path (relative to the campaign file)."""
    title: str = ""
    place: str = ""
    """How a wound from this battle is remembered ("the ford"): default the scenario title."""
    flags: dict[str, str] = {}
    """Named flags this battle sets: flag -> condition ("scored:OBJECTIVE" the player's side
    carried it off, "lost-objective:OBJECTIVE" the enemy did, "win", "lose", "draw")."""
    next: dict[str, str] = {}
    """Key (a flag, or win / lose / draw) -> the next battle's id or "end"; read in order."""
    dawn: bool = False
    """A new day dawns before this battle (multi-day adventures, RULES §5.b, for a rule system
    with that rule): every character heals fully and may take its Recovery action again."""


class CampaignFile(_Strict):
    """A whole validated campaign file."""

    version: Literal[1] = 1
    campaign: CampaignInfo
    roster: tuple[Character, ...] = Field(min_length=1)
    battles: tuple[BattleNode, ...] = Field(min_length=1)
    source: str = ""
    """Where it was read from (for messages)."""

    @model_validator(mode="after")
    def _cross_check(self) -> CampaignFile:
        keys: dict[str, int] = {}
        tags: dict[int, str] = {}
        for i, c in enumerate(self.roster):
            if c.key in keys:
                raise ValueError(f"roster[{i}].name: {c.key!r} is used twice")
            keys[c.key] = i
            if c.tag in tags:
                raise ValueError(
                    f"roster[{i}].tag: tag {c.tag} is already on {tags[c.tag]!r} "
                    "(every character needs its own tag)"
                )
            tags[c.tag] = c.name
        ids = [b.id for b in self.battles]
        if len(set(ids)) != len(ids):
            raise ValueError(f"battles: two battles share an id ({ids})")
        if self.campaign.start not in ids:
            raise ValueError(
                f"campaign.start: {self.campaign.start!r} is not a battle (allowed: {ids})"
            )
        from assistant.campaign.rest import rest_rules

        flags = {f for b in self.battles for f in b.flags}
        for i, b in enumerate(self.battles):
            if b.dawn and rest_rules(self.campaign.ruleset) is None:
                raise ValueError(
                    f"battles[{i}].dawn: the {self.campaign.ruleset!r} rules have no multi-day "
                    "rule (allowed with: d20)"
                )
        for i, b in enumerate(self.battles):
            for flag, condition in b.flags.items():
                if flag in OUTCOMES or flag == END:
                    raise ValueError(f"battles[{i}].flags.{flag}: a flag may not be named {flag!r}")
                if not _FLAG_CONDITION.match(condition):
                    raise ValueError(
                        f"battles[{i}].flags.{flag}: {condition!r} is not a condition (allowed: "
                        "scored:OBJECTIVE, lost-objective:OBJECTIVE, win, lose, draw)"
                    )
            for key, target in b.next.items():
                if key not in OUTCOMES and key not in flags:
                    allowed = ", ".join([*OUTCOMES, *sorted(flags)])
                    raise ValueError(
                        f"battles[{i}].next.{key}: not an outcome or a flag (allowed: {allowed})"
                    )
                if target != END and target not in ids:
                    raise ValueError(
                        f"battles[{i}].next.{key}: {target!r} is not a battle (allowed: "
                        f"{', '.join(ids)}, end)"
                    )
        return self

    def node(self, battle_id: str) -> BattleNode:
        """The battle with this id."""
        for b in self.battles:
            if b.id == battle_id:
                return b
        raise CampaignError(f"{self.source}: no battle {battle_id!r} in this campaign")

    def character(self, key: str) -> Character:
        """The roster entry with this id."""
        for c in self.roster:
            if c.key == key:
                return c
        raise CampaignError(f"{self.source}: no character {key!r} in the roster")


def next_battle(node: BattleNode, outcome: str, flags: set[str]) -> str | None:
    """The id of the battle after ``node`` (None: the campaign ends): the first key of
    ``node.next`` that holds, a set flag or the outcome."""
    for key, target in node.next.items():
        if key == outcome or key in flags:
            return None if target == END else target
    return None


def flags_set(node: BattleNode, outcome: str, scored: set[str], lost: set[str]) -> list[str]:
    """The flags ``node`` sets for a battle with this outcome, these objectives carried off by
    the player's side (``scored``) and these by the enemy (``lost``)."""
    out = []
    for flag, condition in node.flags.items():
        kind, _, what = condition.partition(":")
        if (
            (kind in OUTCOMES and kind == outcome)
            or (kind == "scored" and what in scored)
            or (kind == "lost-objective" and what in lost)
        ):
            out.append(flag)
    return out


def parse_campaign(text: str, source: str = "<campaign>") -> CampaignFile:
    """Parse and validate a campaign from TOML text (its scenarios are checked by
    :func:`assistant.campaign.seating.check_campaign`)."""
    try:
        raw = load_toml(text, source)
    except TomlError as exc:
        raise CampaignError(str(exc)) from None
    if "campaign" not in raw:
        raise CampaignError(f"{source}: campaign: missing (a campaign file has a [campaign] table)")
    version = raw.get("version", CAMPAIGN_VERSION)
    if version != CAMPAIGN_VERSION:
        raise CampaignError(
            f"{source}: version: {version!r} is not supported (allowed: {CAMPAIGN_VERSION})"
        )
    if "source" in raw:
        raise CampaignError(f"{source}: source: unknown field (it is set by soloscope)")
    try:
        return CampaignFile.model_validate({**raw, "source": source})
    except ValidationError as exc:
        raise CampaignError(f"{source}: {describe_error(exc, CampaignFile)}") from None


def read_campaign_file(path: Path) -> str:
    """The text of a campaign file (a one-line error when it cannot be read)."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CampaignError(f"cannot read the campaign file {path}: {exc}") from None
