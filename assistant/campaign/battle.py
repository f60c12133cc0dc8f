"""A campaign's next battle: the scenario with the roster seated, played by the engine's
runner (``campaign next --simulate``) or live at the table (``campaign next --source``), and
its result read off the final state, ready for the store.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from assistant.campaign.model import BattleNode, CampaignError, flags_set, next_battle
from assistant.campaign.seating import Veteran, battle_scenario
from assistant.campaign.store import BattleResult, CampaignStore
from assistant.campaign.wounds import LOST, BattleWounds
from assistant.commands.simulate import event_json, random_json, setup_json
from calibration.safe_files import write_atomic
from engine.actions import Event
from engine.dice import SeededDice
from engine.model import GameState, Role, Unit, UnitStatus
from engine.protocols import Ruleset
from engine.runner import controllers_for, play_battle, start_game
from engine.scenario import Scenario

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def wounds_words(n: int) -> str:
    """ "one wound", "two wounds" (spoken well)."""
    word = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    return f"{word} wound" + ("" if n == 1 else "s")


@dataclass(frozen=True)
class PreparedBattle:
    """The next battle, set up: which node, its scenario with the roster seated."""

    n: int
    """Its number in the campaign (1 for the first)."""
    node: BattleNode
    scenario_text: str
    scenario: Scenario
    veterans: tuple[Veteran, ...]
    briefing: tuple[str, ...]


def runs_root(db_path: Path) -> Path:
    """Where a campaign's battles keep their files: ``NAME-runs/`` beside the database."""
    path = db_path.resolve()
    return path.with_name(f"{path.stem}-runs")


def prepare(store: CampaignStore) -> PreparedBattle:
    """The campaign's next battle, or CampaignError saying why there is none."""
    unresolved = store.unresolved()
    if unresolved is not None:
        raise CampaignError(
            f"the wounds of battle {unresolved.n} ({unresolved.scenario}) are not resolved "
            f"yet: run soloscope campaign resolve --db {store.path}"
        )
    node_id = store.current()
    if node_id is None:
        raise CampaignError("the campaign is over: there is no next battle")
    campaign = store.campaign()
    node = campaign.node(node_id)
    source, text = store.scenario_file(node_id)
    veterans, briefing = [], []
    for row in store.characters():
        if row.status == LOST:
            briefing.append(f"{row.name} is lost and does not fight.")
            continue
        character = campaign.character(row.key)
        if row.wounds:
            where = f" from {row.wound_from}" if row.wound_from else ""
            note = f"{row.name}, carrying {wounds_words(row.wounds)}{where}."
        else:
            note = f"{row.name}, fit for battle."
        veterans.append(Veteran(character, row.wounds, note))
    if not veterans:
        raise CampaignError("every character of the roster is lost: the campaign is over")
    n = len(store.battles()) + 1
    title = campaign.campaign.title or campaign.campaign.name
    preface = f"Battle {n} of {title}: {node.title or node.id}."
    scenario_text, scenario = battle_scenario(text, source, veterans, (preface, *briefing))
    return PreparedBattle(
        n, node, scenario_text, scenario, tuple(veterans), tuple(scenario.scenario.briefing)
    )


def roster_units(
    store: CampaignStore, node_id: str, wounds: dict[str, int] | None = None
) -> dict[str, Unit]:
    """Each character who is not lost, as a unit of battle ``node_id``'s scenario carrying
    its wounds (``wounds`` overrides the store's, by character id): what the rule system's
    hooks between battles work on."""
    campaign = store.campaign()
    source, text = store.scenario_file(node_id)
    veterans = [
        Veteran(campaign.character(r.key), (wounds or {}).get(r.key, r.wounds))
        for r in store.characters()
        if r.status != LOST
    ]
    _, scenario = battle_scenario(text, source, veterans)
    _, state = start_game(scenario)
    return {v.character.key: state.unit(v.character.key) for v in veterans}


def battle_folder(store: CampaignStore, prepared: PreparedBattle) -> Path:
    """The run folder of the battle (its scenario file, log or live session)."""
    return runs_root(store.path) / f"battle-{prepared.n}-{prepared.node.id}"


def set_aside(run_dir: str | None) -> Path | None:
    """Move an undone battle's run folder out of the way (``...-undone``, ``-undone-2`` ...),
    so that playing that battle again starts afresh instead of resuming it; the new name."""
    if not run_dir or not Path(run_dir).is_dir():
        return None
    n, target = 1, Path(f"{run_dir}-undone")
    while target.exists():
        n += 1
        target = Path(f"{run_dir}-undone-{n}")
    Path(run_dir).rename(target)
    return target


def kills_from(events: Iterable[Event], state: GameState) -> dict[str, int]:
    """Enemies felled by each unit: a fall is credited to the unit of the last attack before
    it, when that unit is of another side."""
    kills: dict[str, int] = {}
    attacker: str | None = None
    for ev in events:
        if ev.type == "attack" and ev.unit:
            attacker = ev.unit
        elif (
            ev.type == "fall"
            and ev.unit
            and attacker
            and state.has_unit(attacker)
            and state.has_unit(ev.unit)
            and state.unit(ev.unit).side != state.unit(attacker).side
        ):
            kills[attacker] = kills.get(attacker, 0) + 1
    return kills


def fresh_state(scenario: Scenario) -> GameState:
    """The battle's starting state with no wounds carried in."""
    _, state = start_game(scenario)
    return replace(state, units=tuple(replace(u, wounds=0) for u in state.units))


def carry_capacity(ruleset: Ruleset, fresh: GameState, unit_id: str, most: int = 40) -> int:
    """The most wounds a character can carry and still start a battle, as the ruleset's own
    state check judges it (a narrative card's wound slots; a d20 figure's total wounds less
    one): "every slot filled" of D000-13 for any rule system."""
    unit = fresh.unit(unit_id)
    capacity = 0
    for wounds in range(1, most + 1):
        if ruleset.check_state(fresh.with_unit(replace(unit, wounds=wounds))):
            break
        capacity = wounds
    return capacity


def battle_result(
    store: CampaignStore,
    prepared: PreparedBattle,
    ruleset: Ruleset,
    final: GameState,
    events: Iterable[Event],
    seed: int | None,
    run_dir: Path,
    played: str,
) -> BattleResult:
    """The store's record of a finished battle: the outcome for the player's side, each
    veteran's wounds and fall, kills, flags and the next battle."""
    human = final.side_of_role(Role.HUMAN)
    ai = final.side_of_role(Role.AI)
    assert human is not None and ai is not None
    if final.winner == human.name:
        outcome = "win"
    elif final.winner in (None, "draw"):
        outcome = "draw"
    else:
        outcome = "lose"
    kills = kills_from(events, final)
    units = []
    fresh = fresh_state(prepared.scenario)
    for vet in prepared.veterans:
        unit = final.unit(vet.character.key)
        slots = carry_capacity(ruleset, fresh, unit.id)
        fallen = unit.status is UnitStatus.FALLEN
        entry = BattleWounds(vet.character.key, unit.name, min(unit.wounds, slots), slots, fallen)
        units.append((entry, kills.get(unit.id, 0)))
    scored = {o.id for o in final.objectives if o.scored_by == human.name}
    lost = {o.id for o in final.objectives if o.scored_by == ai.name}
    new_flags = flags_set(prepared.node, outcome, scored, lost)
    following = next_battle(prepared.node, outcome, store.flags() | set(new_flags))
    return BattleResult(
        node=prepared.node.id,
        scenario=prepared.scenario.scenario.name,
        seed=seed,
        outcome=outcome,
        run_dir=str(run_dir),
        next_node=following,
        flags=tuple(new_flags),
        units=tuple(units),
        played=played,
    )


def simulate_next(
    store: CampaignStore, seed: int, on_event: Callable[[Event], None] | None = None
) -> tuple[PreparedBattle, BattleResult]:
    """Play the next battle with the scenario's AI against its autopilot; write its scenario
    and log (``log.jsonl``, as ``simulate --json``) to its run folder, then return its result
    (the caller records it: one transaction)."""
    prepared = prepare(store)
    folder = battle_folder(store, prepared)
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(folder / "scenario.toml", prepared.scenario_text)
    ruleset, state = start_game(prepared.scenario)
    controllers = controllers_for(prepared.scenario)
    dice = SeededDice(seed)
    lines: list[dict[str, Any]] = [setup_json(state)]
    logged = 0

    def emit(ev: Event) -> None:
        nonlocal logged
        lines.extend(random_json(entry) for entry in dice.log[logged:])
        logged = len(dice.log)
        lines.append(event_json(ev, state.table))
        if on_event is not None:
            on_event(ev)

    record = play_battle(state, ruleset, controllers, dice, on_event=emit)
    write_atomic(folder / "log.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    result = battle_result(
        store, prepared, ruleset, record.final, record.events, seed, folder, "simulate"
    )
    return prepared, result
