"""Between battles, for a rule system that heals outside combat: the d20 system's Recovery
action and its multi-day rule (RULES §5.b, D003-22), through the engine's own hooks
(``engine.rulesets.d20.combat.recovery``, ``morning_rest``, ``new_session``).

Readings decided here: a campaign's "game session" is the time between two battles (each
battle is played at a sitting of its own), so a character may take Recovery once after each
battle; a battle marked ``dawn`` begins a new day, and every character heals fully when the
previous battle's wounds are resolved (in the same transaction).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from assistant.campaign.model import CampaignError
from engine.model import Unit


@dataclass(frozen=True)
class RestRules:
    """A rule system's healing between battles."""

    recovery: Callable[[Unit], tuple[Unit, str]]
    """The Recovery action outside combat: (the unit after it, or unchanged and why not)."""
    morning: Callable[[Unit], Unit]
    """A new day: the unit after the morning's rest (its session's Recovery available again)."""
    mark_recovered: Callable[[Unit, bool], Unit]
    """The unit with its once-per-session Recovery marked taken (or not)."""


def rest_rules(ruleset: str) -> RestRules | None:
    """The healing rules between battles of ``ruleset`` (None: it has none)."""
    if ruleset != "d20":
        return None
    from engine.rulesets.d20.combat import morning_rest, new_session, recovery
    from engine.rulesets.d20.state import rules_of

    def recover(unit: Unit) -> tuple[Unit, str]:
        return recovery(unit, in_combat=False)

    def morning(unit: Unit) -> Unit:
        return new_session(morning_rest(unit))

    def mark(unit: Unit, taken: bool) -> Unit:
        return replace(unit, rules=replace(rules_of(unit), recovered=taken))

    return RestRules(recover, morning, mark)


def require_rest_rules(ruleset: str) -> RestRules:
    """The rules, or one sentence saying the system has none."""
    rules = rest_rules(ruleset)
    if rules is None:
        raise CampaignError(
            f"the {ruleset!r} rules have no Recovery action between battles (the d20 system has)"
        )
    return rules
