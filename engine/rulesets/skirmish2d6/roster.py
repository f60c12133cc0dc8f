"""Warband files of the 2D6 skirmish: a [warband] table and one [[fighters]] entry per fighter
(name, skill, speed, armor, role, weapons), checked against the build rules of RULES §3.2.h
(T001B-09). The engine does no I/O: the caller reads the file and gives its text.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rulesets.skirmish2d6.fighters import FighterCard, build_problems, card_from
from engine.tomltext import TomlError, load_toml

TEMPLATE = """\
# A warband for the 2D6 skirmish with roles and weapons (soloscope roster new).
# Each fighter: skill, speed and armor take 1, 2 and 3 in some order; one role of assault,
# brute, champion, duelist, earthshaper, follower, guardian, hunter, sniper; weapons from
# sword, longsword, bow, axe, longaxe, mace, maul, shield (two hands: a two-handed weapon
# alone, or two one-handed ones).
[warband]
name = "{name}"
ruleset = "skirmish2d6"

[[fighters]]
name = "Captain"
skill = 3
speed = 1
armor = 2
role = "champion"
weapons = ["sword", "shield"]

[[fighters]]
name = "Archer"
skill = 3
speed = 2
armor = 1
role = "sniper"
weapons = ["bow"]

[[fighters]]
name = "Shieldbearer"
skill = 1
speed = 2
armor = 3
role = "guardian"
weapons = ["mace", "shield"]
"""


@dataclass(frozen=True)
class FighterEntry:
    """One [[fighters]] entry as checked."""

    index: int
    name: str
    card: FighterCard | None
    """The fighter as built (None: refused)."""
    problems: tuple[str, ...]
    """Why it is refused, one sentence each (empty: legal)."""


@dataclass(frozen=True)
class WarbandCheck:
    """A whole warband file as checked."""

    name: str
    fighters: tuple[FighterEntry, ...]
    problems: tuple[str, ...]
    """Problems of the file itself (not of one fighter)."""

    @property
    def legal(self) -> bool:
        """No problem anywhere."""
        return not self.problems and all(not f.problems for f in self.fighters)


def check_warband(text: str, source: str = "<warband>") -> WarbandCheck:
    """Every fighter of the warband with the reasons it is refused, if any."""
    try:
        raw = load_toml(text, source)
    except TomlError as exc:
        return WarbandCheck("", (), (str(exc),))
    problems: list[str] = []
    head = raw.get("warband", {})
    if not isinstance(head, dict):
        head = {}
        problems.append("[warband] must be a table with a name")
    name = head.get("name", "")
    if not isinstance(name, str) or not name.strip():
        problems.append("warband.name: give the warband a name")
        name = ""
    ruleset = head.get("ruleset", "skirmish2d6")
    if ruleset != "skirmish2d6":
        problems.append(f"warband.ruleset: {ruleset!r} is not 'skirmish2d6'")
    for key in sorted(set(head) - {"name", "ruleset"}):
        problems.append(f"warband.{key}: unknown field (allowed: name, ruleset)")
    for key in sorted(set(raw) - {"warband", "fighters"}):
        problems.append(f"{key}: unknown table (allowed: warband, fighters)")
    listed = raw.get("fighters", [])
    if not isinstance(listed, list) or not listed:
        problems.append("fighters: list at least one fighter as [[fighters]]")
        listed = []
    entries = []
    seen: set[str] = set()
    for i, spec in enumerate(listed):
        if not isinstance(spec, dict):
            entries.append(FighterEntry(i, f"fighter {i + 1}", None, ("not a table",)))
            continue
        fname = spec.get("name")
        why: list[str] = []
        if not isinstance(fname, str) or not fname.strip():
            why.append("give the fighter a name")
            fname = f"fighter {i + 1}"
        elif fname in seen:
            why.append(f"the name {fname!r} is used twice")
        seen.add(fname)
        build = {k: v for k, v in spec.items() if k != "name"}
        why += build_problems(build)
        card = None if why else card_from(build)
        entries.append(FighterEntry(i, fname, card, tuple(why)))
    return WarbandCheck(name, tuple(entries), tuple(problems))
