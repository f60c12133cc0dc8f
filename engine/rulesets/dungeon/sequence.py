"""What an action does in the grid rules (seed 004): the start step, each activation, the
status updates after every complete action, the rounds and the end."""

from __future__ import annotations

from engine.actions import Action, Event, IllegalActionError, event
from engine.dice import RandomSource
from engine.geometry.grid import chebyshev, step_facing_deg
from engine.model import GameState, Role, Unit, evolve
from engine.protocols import Outcome
from engine.rulesets.dungeon.board import label
from engine.rulesets.dungeon.combat import attack, heal, retreat
from engine.rulesets.dungeon.facing import facing_word
from engine.rulesets.dungeon.legality import can_still_act, pending, route_of, validate
from engine.rulesets.dungeon.resolve import (
    face,
    heroes,
    is_enemy_side,
    monsters,
    move_unit,
    patrol_run,
    patrol_turn,
    patrol_words,
    set_status,
    update_statuses,
)
from engine.rulesets.dungeon.setup import DEFAULT_MAX_ROUNDS, START_PURPOSE, arch_foe, parse_squares
from engine.rulesets.dungeon.state import (
    ALERTED,
    PATROLLING,
    card_of,
    cell_of,
    rules_of,
)
from engine.scenario import cell_name


def apply(state: GameState, action: Action, dice: RandomSource) -> Outcome:
    """Resolve a legal action (raises IllegalActionError otherwise); every die through ``dice``."""
    problems = validate(state, action)
    if problems:
        raise IllegalActionError(problems, action, state.round, state.step)
    waiting = pending(state)  # the decision point acted on (validate asked it just now)
    kind = str(action.kind)
    rules = rules_of(state)
    if kind not in ("chance", "pass") and rules.acting is None:
        rules = evolve(
            rules, acting=action.unit_id, moved=False, weapons_used=(), targets_attacked=()
        )
        state = evolve(state, step=state.step + 1, rules=rules)
    else:
        state = evolve(state, step=state.step + 1)
    if kind == "chance":
        return start(state, dice)
    if kind == "pass":
        uid = action.unit_id or waiting.candidates[0]
        unit = state.unit(uid)
        verb = "ends its turn" if rules_of(state).acting else "does nothing this turn"
        ev = event("pass", state.round, f"{label(unit)} {verb}.", uid)
        return after(state, unit, [ev], hero_acted=False, done=True, dice=dice, board_changed=False)
    unit = state.unit(action.unit_id or "")
    if kind == "patrol":
        return patrol(state, unit, action, dice)
    if kind == "move":
        route, _ = route_of(state, unit, action)
        heading = action.heading_deg
        if heading is None:
            prev = [cell_of(unit), *route]
            heading = (
                step_facing_deg((prev[-1][0] - prev[-2][0], prev[-1][1] - prev[-2][1]))
                if route
                else unit.heading_deg
            )
        if route:
            state, unit, ev = move_unit(state, unit, route, heading, "moves")
        else:
            state, ev = face(state, unit, heading, "on the spot")
            unit = state.unit(unit.id)
        done = not can_still_act(state, unit)
        return after(state, unit, [ev], hero_acted=True, done=done, dice=dice, moved=True)
    target = state.unit(action.target_id or "")
    if kind == "heal":
        state, events = heal(state, unit, target, dice)
        return after(
            state, unit, events, hero_acted=True, done=True, dice=dice, board_changed=False
        )
    weapon = card_of(unit).attack(str(action.get("weapon")))
    assert weapon is not None
    state, events, flees = attack(state, unit, weapon, target, dice)
    rules = rules_of(state)
    state = evolve(
        state,
        rules=evolve(
            rules,
            weapons_used=(*rules.weapons_used, weapon.name),
            targets_attacked=(*rules.targets_attacked, target.id),
        ),
    )
    if flees and state.unit(unit.id).on_table:
        state, fled = retreat(state, state.unit(unit.id), state.unit(target.id), dice)
        events += fled
        return after(
            state,
            unit,
            events,
            hero_acted=True,
            done=True,
            dice=dice,
            interacted=(target.id,),
            keep_facing=(unit.id,),
        )
    unit = state.unit(unit.id)
    done = not can_still_act(state, unit)
    return after(
        state,
        unit,
        events,
        hero_acted=True,
        done=done,
        dice=dice,
        interacted=(target.id,),
        board_changed=not state.unit(target.id).on_table,
    )


def start(state: GameState, dice: RandomSource) -> Outcome:
    """The start step: the Arch Foe's d6 square (D004-14), everyone's first status."""
    events: list[Event] = []
    squares = state.option_value("dragon_squares", "")
    arch = arch_foe(state)
    if isinstance(squares, str) and squares and arch is not None:
        cells = parse_squares(squares, state.table)
        names = ", ".join(
            f"{lo}-{lo + 1} {cell_name(c)}" for lo, c in zip((1, 3, 5), cells, strict=True)
        )
        roll = dice.roll(6, f"{START_PURPOSE} of the {card_of(arch).title} ({names})")
        to = cells[(roll - 1) // 2]
        grid = state.table.grid
        assert grid is not None
        frm = cell_of(arch)
        x, y = grid.centre(to)
        state = state.with_unit(evolve(arch, x=x, y=y))
        events.append(
            event(
                "place",
                state.round,
                f"{card_of(arch).title} start roll {roll}: it starts on {cell_name(to)}.",
                arch.id,
                roll=roll,
                cell=list(to),
                from_cell=list(frm),
                path=[list(grid.centre(frm)), [x, y]],
            )
        )
    arch = arch_foe(state)
    limit: int | None = None
    if state.option_value("victory", "all") == "count":
        limit = dice.roll(6, "turn limit: 1d6 + 4 rounds to defeat the enemies") + 4
        need = defeat_count(state)
        events.append(
            event(
                "turn_limit",
                state.round,
                f"The heroes have {limit} rounds to defeat {need} enemies.",
                rounds=limit,
                count=need,
            )
        )
    rules = evolve(
        rules_of(state),
        started=True,
        arch_start=cell_of(arch) if arch is not None else None,
        turn_limit=limit,
    )
    state = evolve(state, rules=rules)
    for m in monsters(state):
        status = ALERTED if ALERTED in m.statuses else PATROLLING
        events.append(
            event(
                "status",
                state.round,
                f"{label(m)} is {status}, facing {facing_word(m.heading_deg)}.",
                m.id,
                status=status,
                cell=list(cell_of(m)),
            )
        )
    return new_round(state, events)


def patrol(state: GameState, unit: Unit, action: Action, dice: RandomSource) -> Outcome:
    """A Patrolling figure's patrol: the squares straight ahead and the turn, said once. A
    patrol that moves is one ``move`` event, one that only turns one ``face`` event, each
    saying the roll and carrying ``roll`` and ``turn_roll``; one that does neither is a
    ``patrol`` event."""
    roll = int(action.get("roll"))
    turn_roll = action.get("turn_roll")
    run = patrol_run(state, unit, roll)
    turn = patrol_turn(roll, turn_roll)
    heading = (unit.heading_deg + turn) % 360.0
    words = patrol_words(roll, turn_roll, run, cell_of(unit), heading)
    text = f"{label(unit)}: {words}."
    said = (("roll", roll), ("turn_roll", turn_roll), ("turn", turn))
    if run:
        state, unit, ev = move_unit(state, unit, run, heading, "patrols")
        ev = evolve(ev, text=text, data=(*ev.data, *said))
    elif turn:
        state, ev = face(state, unit, heading, "on patrol")
        ev = evolve(ev, text=text, data=(*ev.data, *said))
    else:
        ev = event("patrol", state.round, text, unit.id, squares=0, **dict(said))
    return after(state, unit, [ev], hero_acted=False, done=True, dice=dice)


def after(
    state: GameState,
    unit: Unit,
    events: list[Event],
    *,
    hero_acted: bool,
    done: bool,
    dice: RandomSource,
    interacted: tuple[str, ...] = (),
    keep_facing: tuple[str, ...] = (),
    board_changed: bool = True,
    moved: bool = False,
) -> Outcome:
    """A complete action: the heroes' first action (entrance alerts, D004-08), the status
    updates (``board_changed``: somebody moved, turned or fell; which enemies look again
    follows from who acted, see ``update_statuses``), the end of the activation, victory
    and the next round. ``moved``: the acting figure has just moved (it may still attack)."""
    rules = rules_of(state)
    lookers: tuple[str, ...] | None = None  # every enemy looks again
    hero_fell = any(
        ev.type == "fall" and ev.unit and not is_enemy_side(state, state.unit(ev.unit).side)
        for ev in events
    )
    if not board_changed:
        lookers = ()
    elif is_enemy_side(state, unit.side) and not hero_fell:
        lookers = (unit.id,)  # an enemy's own move changes no other enemy's view
    if hero_acted and not is_enemy_side(state, unit.side) and not rules.heroes_have_moved:
        lookers = None  # the first look the enemies may take
        state = evolve(state, rules=evolve(rules, heroes_have_moved=True))
        events += entrance_alerts(state)
        state = apply_status_events(state, events)
    if not is_enemy_side(state, unit.side):
        interacted = tuple(i for i in interacted if state.unit(i).on_table)
    else:
        interacted = ()
    state, changed = update_statuses(state, dice, interacted, keep_facing, lookers)
    events += changed
    if done:
        rules = rules_of(state)
        queue = tuple(i for i in rules.queue[1:] if state.unit(i).on_table)
        rules = evolve(
            rules, acting=None, moved=False, weapons_used=(), targets_attacked=(), queue=queue
        )
        state = evolve(state, rules=rules)
    else:
        rules = rules_of(state)
        queue = tuple(i for i in rules.queue if state.unit(i).on_table)
        if moved or queue != rules.queue:
            state = evolve(state, rules=evolve(rules, queue=queue, moved=moved or rules.moved))
    over = victory(state)
    if over is not None:
        return end_game(state, events, *over)
    if not rules_of(state).queue and rules_of(state).acting is None:
        return new_round(state, events)
    return Outcome(state, tuple(events))


def entrance_alerts(state: GameState) -> list[Event]:
    """Status events for the entrance-alert figures near a hero start square (D004-08);
    applied by :meth:`_apply_status_events`."""
    rules = rules_of(state)
    reach = state.option("entrance_alert_sq", 2)
    out = []
    for m in monsters(state):
        if not card_of(m).entrance_alert or PATROLLING not in m.statuses:
            continue
        if any(chebyshev(cell_of(m), c) <= reach for c in rules.hero_starts):
            out.append(
                event(
                    "status",
                    state.round,
                    f"{label(m)} is alerted: the heroes are at the entrance.",
                    m.id,
                    status=ALERTED,
                    cell=list(cell_of(m)),
                )
            )
    return out


def apply_status_events(state: GameState, events: list[Event]) -> GameState:
    """The entrance figures named by Alerted status events become Alerted."""
    for ev in events:
        if ev.type == "status" and ev.get("status") == ALERTED and ev.unit:
            unit = state.unit(ev.unit)
            if ALERTED not in unit.statuses:
                state, _ = set_status(state, unit, ALERTED, "")
    return state


def new_round(state: GameState, events: list[Event]) -> Outcome:
    """The next round's queue (enemies strongest first, D004-07, then the heroes), or the
    end when the round limit is reached (the heroes have failed)."""
    limit = int(state.option("max_rounds", DEFAULT_MAX_ROUNDS))
    ai = next(s.name for s in state.sides if s.role is Role.AI)
    turns = rules_of(state).turn_limit
    if turns is not None and state.round >= turns:
        done = defeated_enemies(state)
        why = f"the heroes defeated {done} of {defeat_count(state)} enemies in {turns} rounds"
        return end_game(state, events, ai, why)
    if state.round >= limit:
        return end_game(state, events, ai, f"the heroes did not win within {limit} rounds")
    order = sorted(monsters(state), key=lambda u: (-card_of(u).power, cell_of(u)[1], cell_of(u)[0]))
    queue = tuple(u.id for u in order) + tuple(u.id for u in heroes(state))
    state = evolve(state, round=state.round + 1, rules=evolve(rules_of(state), queue=queue))
    text = f"Round {state.round}: the enemies act, strongest first, then the heroes."
    events.append(event("round_start", state.round, text, order=list(queue)))
    return Outcome(state, tuple(events))


def victory(state: GameState) -> tuple[str, str] | None:
    """The winner and why, once one side has won (RULES §6.f, option ``victory``)."""
    hero_side = next(s.name for s in state.sides if s.role is Role.HUMAN)
    ai_side = next(s.name for s in state.sides if s.role is Role.AI)
    if not heroes(state):
        return ai_side, "every hero is defeated"
    victory = state.option_value("victory", "all")
    foes = monsters(state)
    if victory == "arch_foe":
        if not any(card_of(u).is_arch_foe for u in foes):
            return hero_side, "the Arch Foe is slain"
    elif victory == "count":
        need = defeat_count(state)
        if defeated_enemies(state) >= need:
            return hero_side, f"{need} enemies are defeated in time"
    elif victory == "minions":
        if not any(not card_of(u).is_arch_foe for u in foes):
            return hero_side, "every Minion Team is defeated"
    elif not foes:
        return hero_side, "every enemy is defeated"
    return None


def end_game(state: GameState, events: list[Event], winner: str, why: str) -> Outcome:
    """The game over: the winner, the reason and the end event."""
    rules = evolve(rules_of(state), queue=(), acting=None)
    state = evolve(state, winner=winner, end_reason=why, rules=rules)
    events.append(event("end", state.round, f"{winner} win: {why}.", winner=winner))
    return Outcome(state, tuple(events))


def defeat_count(state: GameState) -> int:
    """How many enemies the heroes must defeat with victory 'count' (option ``defeat_count``,
    default half the enemies rounded up, D004-18)."""
    enemies = sum(is_enemy_side(state, u.side) for u in state.units)
    given = state.option_value("defeat_count", None)
    return (
        int(given) if isinstance(given, int) and not isinstance(given, bool) else -(-enemies // 2)
    )


def defeated_enemies(state: GameState) -> int:
    """Enemies off the board (defeated)."""
    return sum(is_enemy_side(state, u.side) and not u.on_table for u in state.units)
