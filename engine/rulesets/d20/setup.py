"""Setting up a d20 battle (RULES §5.c, §5.f): the cards read and checked (the schema is in
:mod:`engine.rulesets.d20.state`), the Move Unit of the battlefield, the Arch Foe, companies as
d20 units, enemies facing the heroes' set-up area (§5.k)."""

from __future__ import annotations

from pydantic import ValidationError

from engine.geometry import bearing_deg
from engine.model import GameState, Objective, Role, Unit, evolve
from engine.rulesets.d20.state import (
    MOVE_UNIT,
    NAME,
    TACTICS,
    CardSpec,
    D20Card,
    D20State,
    D20Unit,
    Weapon,
)
from engine.scenario import ObjectiveSpec, Scenario, ScenarioError, card_error
from engine.scenario_setup import sides_of, table_of, terrain_of, unit_from_spec


def new_game(scenario: Scenario) -> GameState:
    """Cards, sides, the table (grid or not), figures facing the other side."""
    opts = scenario.options
    if opts.get("battlefield", "small") not in ("small", "large"):
        raise ScenarioError(f'{scenario.source}: options.battlefield: "small" or "large"')
    if opts.get("victory", "basic") not in ("basic", "objectives"):
        raise ScenarioError(f'{scenario.source}: options.victory: "basic" or "objectives"')
    if opts.get("dangerous_die", 6) not in (6, 20):
        raise ScenarioError(f"{scenario.source}: options.dangerous_die: 6 or 20")
    for key in ("patrol", "enemy_action", "morale_recheck"):
        if not isinstance(opts.get(key, True), bool):
            raise ScenarioError(f"{scenario.source}: options.{key}: true or false")
    space = opts.get("space_in", 1.0)
    if isinstance(space, bool) or not isinstance(space, int | float) or not 0 < space <= 6:
        raise ScenarioError(f"{scenario.source}: options.space_in: inches, above 0 up to 6")
    if any(s.role == "neutral" for s in scenario.sides):
        raise ScenarioError(f"{scenario.source}: sides: the d20 rules have no neutral side")
    table = table_of(scenario)
    large = opts.get("battlefield") == "large" or (
        "battlefield" not in opts and max(table.width_in, table.depth_in) > 24.0 + 1e-6
    )
    sides = sides_of(scenario)
    ai = next(s.name for s in sides if s.role is Role.AI)
    units: list[Unit] = []
    arch = [u.id for u in scenario.units if u.card.get("arch_foe") and u.side == ai]
    if len(arch) > 1:
        raise ScenarioError(f"{scenario.source}: units: only one Arch Foe ({', '.join(arch)})")
    first_ai = next(u.id for u in scenario.units if u.side == ai)
    for i, spec in enumerate(scenario.units):
        try:
            card = CardSpec.model_validate(spec.card)
        except ValidationError as exc:
            raise card_error(scenario, i, exc, CardSpec) from None
        for field, value in (
            ("tactic", card.tactic),
            ("previous_tactic", card.previous_tactic),
        ):
            allowed = ("", "roll", *TACTICS) if field == "tactic" else ("", *TACTICS)
            if value not in allowed:
                raise ScenarioError(
                    f"{scenario.source}: units[{i}].card.{field}: {value!r} is not a tactic "
                    f"(allowed: {', '.join(a for a in allowed if a)}, or empty)"
                )
        move = card.move
        if move is None:
            move = MOVE_UNIT[card.size][0 if large else 1] - (1 if card.heavy_armour else 0)
        is_arch = spec.id in arch or (not arch and spec.id == first_ai)
        d20card = D20Card(
            wounds=card.wounds,
            move=max(0, move),
            weapons=tuple(Weapon(**w.model_dump()) for w in card.weapons),
            attack_twice=card.attack_twice,
            defend_twice=card.defend_twice,
            talented=card.talented,
            buffs=card.buffs,
            heals=card.heals,
            points=card.points,
            power=card.points if card.power is None else card.power,
            arch_foe=is_arch,
            leader=card.leader,
            tactic=card.tactic,
            partner=card.partner,
            previous_tactic=card.previous_tactic,
        )
        tactic = card.tactic
        if tactic == "unexpected":
            tactic = "roll"  # rolled again before each encounter (T003-05)
        units.append(
            unit_from_spec(
                spec,
                i,
                card=d20card,
                cell=table.cell_of((spec.x, spec.y)),
                rules=D20Unit(
                    group=spec.company or spec.id,
                    start=(spec.x, spec.y),
                    tactic=tactic,
                ),
            )
        )
    heroes = [u for u in units if u.side != ai]
    hx = sum(u.x for u in heroes) / len(heroes)
    hy = sum(u.y for u in heroes) / len(heroes)
    units = [
        evolve(u, heading_deg=round(bearing_deg(u.position, (hx, hy)), 6)) if u.side == ai else u
        for u in units
    ]
    return GameState(
        ruleset=NAME,
        memo=scenario.game_memo(NAME),
        scenario=scenario.scenario.name,
        table=table,
        sides=sides,
        units=tuple(units),
        objectives=tuple(_objective(o) for o in scenario.objectives),
        terrain=terrain_of(scenario),
        options=tuple(sorted(scenario.options.items())),
        rules=D20State(),
    )


def _objective(spec: ObjectiveSpec) -> Objective:
    return Objective(spec.id, spec.name, spec.x, spec.y)
