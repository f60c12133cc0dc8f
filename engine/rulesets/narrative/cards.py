"""The playing-card AI on the narrative table (RULES §4, D002-01's seed-000 column): what the
narrative rules add when a scenario names the card AI (controller ``cards``) as the AI side's
controller. :class:`~engine.rulesets.narrative.ruleset.NarrativeRuleset` hands its decision points,
checks and resolution here for such a battle; without the card AI nothing here runs.

The card AI's 54-card deck is the game's (``GameState.decks``, "cards"), as on firefight-lite:
the rules shuffle it before the first round, draw the Random Events card at the start of
each round before its initiative roll (option ``random_events``, default on;
:mod:`.events`) and deal random selections. The AI draws its figures' action
and defence cards and names each in its action (``detail.card``), which puts it on the
discard pile; a Joker is a ``reshuffle`` action (D002-03) and the figure draws again; an
empty draw pile takes the shuffled discard pile (D002-04).

D002-01's seed-000 mapping:

* Stay Frosty: the figure holds (``overwatch``: it activates and stays put); when an enemy it
  could shoot (in range, with a clear centre line) starts an action, it may first make one
  reaction shot at it with -1 (``react_fire``); then it stops watching. It watches until it
  fires or activates again.
* A figure of the AI side attacked (a shot, a move and shoot, a charge) before it has
  activated this round draws a defence card (§4.g), after the attacker's move and before the
  attack: Return Fire (``react_fire`` at the attacker, resolved simultaneously: both shots are
  rolled whatever the first did), Armour (``pass``: the attack as it is) or Run for Cover
  (``react_evade``: a run of at most half its move, :mod:`.cover`; the attack
  is lost when the attacker can no longer make it: out of range or sight for a shot, out of
  contact for a charge). Return Fire and Run for Cover use the figure's activation this round
  (D002-11); Armour does not.
* A player figure hit by an event (sniper, booby trap) answers with Armour (``pass``) or Run
  for Cover (``react_evade``: a dodge, 1d6 >= 4, avoids every hit and the figure runs; a
  failed dodge leaves it standing to take them), never Return Fire (D002-16); Run for Cover
  uses its activation this round.

Decisions where RULES is silent: every action of an enemy figure (not a pass) starts an action
an overwatcher may fire at, a bonus activation included; a figure already locked in melee
(continue melee) draws no defence card, the blow not being a new attack; a figure with no
shooting range, or that cannot see its attacker in range, cannot return fire (the card AI
reads that card as Armour); a run for cover may not end in contact with an enemy.
"""

from __future__ import annotations

from engine.actions import Action, ActionKind, Event, event
from engine.board import touching
from engine.cards import JOKER, Deck
from engine.dice import RandomSource
from engine.geometry import Point, bearing_deg, path_cost_in
from engine.model import GameState, Role, Unit, evolve
from engine.protocols import Outcome, Pending, PendingKind
from engine.rulesets.firefight_lite.combat import dodge
from engine.rulesets.firefight_lite.deck import FULL_DECK, deck_problems
from engine.rulesets.firefight_lite.reactions import reaction_event
from engine.rulesets.firefight_lite.sequence import discard_card, keep_deck_ready, reshuffle
from engine.rulesets.firefight_lite.state import DECK, FROSTY
from engine.rulesets.narrative.board import can_shoot_from, card_of, contacting_enemies
from engine.rulesets.narrative.cover import cover_runs, run_problem
from engine.rulesets.narrative.events import event_hit, event_phase
from engine.rulesets.narrative.resolve import attack, final_heading, place
from engine.rulesets.narrative.sequence import (
    act_move,
    begin_activation,
    check_end,
    close_activation,
    initiative,
    open_round,
    pass_turn,
    roll_initiative,
    strike,
)
from engine.rulesets.narrative.state import (
    CardHost,
    bonus_move_for,
    card_host,
    is_routing,
    rules_of,
    with_card_host,
)
from engine.scenario import Scenario

CARD_AI = "cards"
"""The controller whose deck, events and reactions this module hosts."""
RESHUFFLE = "reshuffle"
HOST_KINDS = frozenset({ActionKind.OVERWATCH, ActionKind.REACT_FIRE, ActionKind.REACT_EVADE})
"""Action kinds of a battle with the card AI (with ``reshuffle``)."""
ATTACKS = (ActionKind.SHOOT, ActionKind.MOVE_AND_SHOOT, ActionKind.MOVE_INTO_MELEE)
"""Attacks that give a figure not yet activated its defence card."""
SHOTS = (ActionKind.SHOOT, ActionKind.MOVE_AND_SHOOT)
WORDS = {
    str(ActionKind.PASS): "armour",
    str(ActionKind.REACT_FIRE): "return_fire",
    str(ActionKind.REACT_EVADE): "run_for_cover",
}


# -- setting up -----------------------------------------------------------------------------


def hosts_card_ai(scenario: Scenario) -> bool:
    """Whether the scenario's AI side is the card AI's."""
    return scenario.scenario.ai_controller == CARD_AI


def new_host(scenario: Scenario) -> tuple[CardHost, Deck]:
    """The card AI's part of a new battle and its deck, unshuffled (the first chance step
    shuffles it)."""
    return CardHost(events_on=bool(scenario.options.get("random_events", True))), Deck(
        DECK, FULL_DECK
    )


# -- what the battle waits for ----------------------------------------------------------------


# -- checks ------------------------------------------------------------------------------------


def problems(state: GameState, action: Action, waiting: Pending) -> list[str] | None:
    """Why the action is illegal for the card AI's part (empty: legal); None: the narrative
    rules judge it (its card, if it names one, is in the draw pile)."""
    host = card_host(state)
    assert host is not None
    kind = str(action.kind)
    if waiting.kind is PendingKind.REACTION:
        return _reaction_problems(state, host, action)
    if waiting.kind in (PendingKind.CHANCE, PendingKind.OVER):
        return None
    if kind == RESHUFFLE:
        return _joker_problems(state, action, waiting)
    bad = _card_problems(state, action)
    if bad:
        return bad
    if kind == ActionKind.PASS and host.drawing is not None:
        return [f"{state.unit(host.drawing).name} draws again after the Joker"]
    if kind == ActionKind.OVERWATCH:
        return _overwatch_problems(state, action, waiting)
    if kind in (ActionKind.REACT_FIRE, ActionKind.REACT_EVADE):
        return [f"{kind.replace('_', ' ')} is a reaction, not an activation"]
    return None


def _card_problems(state: GameState, action: Action) -> list[str]:
    drawn = action.get("card")
    if drawn is None:
        return []
    if drawn == JOKER:
        return ["a Joker is not read: reshuffle the deck and draw again"]
    if drawn not in state.deck(DECK).draw_pile:
        return [f"{drawn} is not in the draw pile"]
    return []


def _joker_problems(state: GameState, action: Action, waiting: Pending) -> list[str]:
    if action.get("card") != JOKER or JOKER not in state.deck(DECK).draw_pile:
        return ["a reshuffle needs a Joker drawn from the draw pile"]
    if action.unit_id not in waiting.candidates:
        return [f"{action.unit_id!r} is not drawing a card now"]
    return []


def _overwatch_problems(state: GameState, action: Action, waiting: Pending) -> list[str]:
    unit = state.unit(action.unit_id or "")
    if unit.id not in waiting.candidates:
        return [f"it is not {unit.name}'s turn to activate"]
    if state.side(unit.side).role is not Role.AI:
        return [f"{unit.name} is not one of the card AI's figures: it cannot stay frosty"]
    if is_routing(state, unit):
        return [f"{unit.name} is routing and must flee"]
    if contacting_enemies(state, unit):
        return [f"{unit.name} is in melee and must continue the melee"]
    if bonus_move_for(state, unit) is not None:
        return [f"{unit.name} takes a bonus activation: it cannot stay frosty"]
    return []


def _reaction_problems(state: GameState, host: CardHost, action: Action) -> list[str]:
    kind = str(action.kind)
    why = host.reaction
    unit = state.unit(host.reacting or "")
    if action.unit_id != unit.id:
        return [f"{unit.name} is the one to react"]
    if kind == RESHUFFLE and why == "defence":
        return _joker_problems(state, action, Pending(PendingKind.REACTION, candidates=(unit.id,)))
    problems = _card_problems(state, action)
    if problems or kind == ActionKind.PASS:
        return problems
    trigger = host.trigger
    if kind == ActionKind.REACT_FIRE and why in ("defence", "overwatch"):
        other = trigger.get("attacker") if why == "defence" and trigger else None
        if why == "overwatch" and trigger is not None:
            other = trigger.unit
        target = state.unit(other or "")
        if action.target_id != target.id:
            return [f"{unit.name} may fire only at {target.name}"]
        if card_of(unit).shoot_range_in is None:
            return [f"{unit.name} has no shooting range"]
        if not target.on_table or not can_shoot_from(state, unit, target):
            return [f"{unit.name} cannot see {target.name} in range"]
        return []
    if kind == ActionKind.REACT_EVADE and why in ("defence", "event"):
        problem = run_problem(state, unit, action.path)
        return [problem] if problem else []
    answers = {
        "defence": "armour (pass), return fire or run for cover",
        "overwatch": "fire (react fire) or hold its fire (pass)",
        "event": "armour (pass) or run for cover",
    }
    return [f"{unit.name} answers with {answers.get(why, 'a pass')}, not {kind.replace('_', ' ')}"]


def state_problems(state: GameState, host: CardHost) -> list[str]:
    """Invariants of the card AI's part: a whole deck with cards to draw, a reacting figure
    on the table, only the AI's figures frosty."""
    found = deck_problems(state.deck(DECK))
    if state.winner is None and not state.deck(DECK).draw_pile:
        found.append("the draw pile is empty between steps")
    if host.reacting is not None and not state.unit(host.reacting).on_table:
        found.append(f"{host.reacting} reacts but is not on the table")
    for unit in state.units:
        if FROSTY in unit.statuses and state.side(unit.side).role is not Role.AI:
            found.append(f"{unit.name} stays frosty but is not one of the card AI's figures")
    return found


# -- samples -------------------------------------------------------------------------------------


def sample_reactions(state: GameState, unit_id: str) -> list[Action]:
    """The answers open to the reacting figure (every run for cover it could take)."""
    host = card_host(state)
    assert host is not None
    if host.reacting != unit_id:
        return []
    unit = state.unit(unit_id)
    out = [Action(ActionKind.PASS, unit.id, side=unit.side)]
    trigger = host.trigger
    if host.reaction == "defence" and trigger is not None:
        out.append(Action(ActionKind.REACT_FIRE, unit.id, target_id=trigger.get("attacker")))
    if host.reaction == "overwatch" and trigger is not None:
        out.append(Action(ActionKind.REACT_FIRE, unit.id, target_id=trigger.unit))
    if host.reaction in ("defence", "event"):
        out += [Action(ActionKind.REACT_EVADE, unit.id, path=p) for p in cover_runs(state, unit)]
    return [a for a in out if not _reaction_problems(state, host, a)]


def overwatch_action(state: GameState, unit_id: str) -> Action | None:
    """The unit's Stay Frosty, when it may take one now."""
    action = Action(ActionKind.OVERWATCH, unit_id)
    host = card_host(state)
    if host is None or host.drawing is not None:
        return None
    rules = rules_of(state)
    if rules.waiting is not PendingKind.CHOOSE_UNIT or state.unit(unit_id).activated:
        return None
    side = state.unit(unit_id).side
    waiting = Pending(PendingKind.CHOOSE_UNIT, side=side, candidates=(unit_id,))
    return None if _overwatch_problems(state, action, waiting) else action


# -- resolution ----------------------------------------------------------------------------------


def apply(state: GameState, action: Action, dice: RandomSource, waiting: Pending) -> Outcome:
    """Resolve a checked action of a battle with the card AI."""
    kind = str(action.kind)
    if waiting.kind is PendingKind.CHANCE:
        out = _chance(state, dice)
    elif kind == RESHUFFLE:
        out = _reshuffle(state, action, dice, waiting)
    elif waiting.kind is PendingKind.REACTION:
        out = _answer(state, action, dice)
    elif kind == ActionKind.PASS:
        out = pass_turn(state)
    else:
        out = _act(state, action, dice)
    return _deck_ready(out, dice)


def _deck_ready(out: Outcome, dice: RandomSource) -> Outcome:
    """D002-04: an empty draw pile takes the shuffled discard pile before anyone draws."""
    state = out.state
    if state.deck(DECK).draw_pile:
        return out
    said = "The draw pile is empty: the discard pile is shuffled into a new draw pile."
    refilled = event("deck_refilled", state.round, said)
    return Outcome(keep_deck_ready(state, dice), (*out.events, refilled))


def _chance(state: GameState, dice: RandomSource) -> Outcome:
    host = card_host(state)
    assert host is not None
    events: list[Event] = []
    if state.round == 0:
        state = state.with_deck(state.deck(DECK).shuffled(dice, "set-up: shuffle the deck"))
        said = "Shuffle the card AI's deck: 52 cards and both Jokers."
        events.append(event("deck_shuffled", 0, said))
    if not host.events_on:
        out = initiative(state, dice)
        return Outcome(out.state, (*events, *out.events))
    if host.initiative_due:
        state = with_card_host(state, initiative_due=False)
        return roll_initiative(state, dice, events)
    opened = open_round(state)
    events += opened.events
    if opened.state.winner is not None:
        return Outcome(opened.state, tuple(events))
    state, more = event_phase(with_card_host(opened.state, initiative_due=True), dice)
    return Outcome(state, (*events, *more))


def _reshuffle(state: GameState, action: Action, dice: RandomSource, waiting: Pending) -> Outcome:
    """A Joker drawn for a figure: the deck reshuffled (D002-03); the figure draws again."""
    state = reshuffle(state, dice)
    if waiting.kind is not PendingKind.REACTION:
        state = with_card_host(state, drawing=action.unit_id)
    said = "Joker: the deck is reshuffled and a new card drawn."
    return Outcome(state, (event("joker", state.round, said, action.unit_id, card=JOKER),))


def _act(state: GameState, action: Action, dice: RandomSource) -> Outcome:
    """A figure's action: its card discarded; it stops watching as it activates again; a Stay
    Frosty holds; any other action goes on past the overwatchers and the defence card."""
    state = with_card_host(discard_card(state, action), drawing=None)
    events: list[Event] = []
    state = begin_activation(state, action, events)
    unit = state.unit(action.unit_id or "")
    if FROSTY in unit.statuses:
        unit = evolve(unit, statuses=unit.statuses - {FROSTY})
        state = state.with_unit(unit)
    if action.kind == ActionKind.OVERWATCH:
        state = state.with_unit(evolve(unit, statuses=unit.statuses | {FROSTY}))
        if card_of(unit).shoot_range_in is None:
            said = f"{unit.name} stays frosty: it holds where it stands (it cannot shoot)."
        else:
            said = (
                f"{unit.name} stays frosty: it holds, ready to shoot the first enemy to act "
                "in its sight and range."
            )
        events.append(event("stay_frosty", state.round, said, unit.id))
        return close_activation(state, action, None, events)
    return _proceed(state, action, dice, events)


def _proceed(state: GameState, action: Action, dice: RandomSource, events: list[Event]) -> Outcome:
    """The action after its start: each overwatcher that could shoot the figure is asked
    first; then its move; then the target's defence card; then the attack."""
    watcher = _next_watcher(state, action)
    if watcher is not None:
        mover = state.unit(action.unit_id or "")
        said = f"{mover.name} starts an action in sight of {watcher.name}, who stays frosty."
        trigger = event("overwatch", state.round, said, mover.id, watcher=watcher.id)
        return _wait(state, watcher, "overwatch", trigger, action, events)
    state = with_card_host(state, asked=())
    state = act_move(state, action, dice, events)
    defender = _defender(state, action)
    if defender is not None:
        attacker = state.unit(action.unit_id or "")
        said = f"{attacker.name} attacks {defender.name}, who has not activated yet."
        trigger = event(
            "attacked",
            state.round,
            said,
            defender.id,
            attacker=attacker.id,
            attack=str(action.kind),
        )
        return _wait(state, defender, "defence", trigger, action, events)
    state, felled = strike(state, action, dice, events)
    return close_activation(state, action, felled, events)


def _wait(
    state: GameState, unit: Unit, why: str, trigger: Event, held: Action, events: list[Event]
) -> Outcome:
    """The action waits for ``unit``'s reaction (``why``) to ``trigger``."""
    state = with_card_host(state, reacting=unit.id, reaction=why, trigger=trigger, held=held)
    return Outcome(state, (*events, trigger))


def _next_watcher(state: GameState, action: Action) -> Unit | None:
    """The first overwatcher (sheet order) not yet asked that could shoot the acting figure."""
    mover = state.unit(action.unit_id or "")
    if not mover.on_table or state.side(mover.side).role is Role.AI:
        return None
    asked = card_host(state).asked  # type: ignore[union-attr]
    ai = state.side_of_role(Role.AI)
    for unit in state.units_of(ai.name if ai else ""):
        if FROSTY in unit.statuses and unit.id not in asked and can_shoot_from(state, unit, mover):
            return unit
    return None


def _defender(state: GameState, action: Action) -> Unit | None:
    """The target of an attack that draws a defence card: an AI figure not yet activated."""
    if action.kind not in ATTACKS or action.target_id is None:
        return None
    attacker, target = state.unit(action.unit_id or ""), state.unit(action.target_id)
    if not attacker.on_table or not target.on_table or target.activated:
        return None
    return target if state.side(target.side).role is Role.AI else None


def _cleared(state: GameState, **more: object) -> GameState:
    return with_card_host(state, reacting=None, reaction="", trigger=None, held=None, **more)


def _answer(state: GameState, answer: Action, dice: RandomSource) -> Outcome:
    host = card_host(state)
    assert host is not None
    if host.reaction == "defence":
        return _answer_defence(state, host, answer, dice)
    if host.reaction == "overwatch":
        return _answer_overwatch(state, host, answer, dice)
    return _answer_event(state, host, answer, dice)


def _answer_defence(
    state: GameState, host: CardHost, answer: Action, dice: RandomSource
) -> Outcome:
    held = host.held
    assert held is not None
    defender = state.unit(host.reacting or "")
    state = discard_card(_cleared(state), answer)
    kind = str(answer.kind)
    events = [reaction_event(state, defender, WORDS[kind], answer)]
    if kind == ActionKind.REACT_FIRE:
        state = state.with_unit(evolve(defender, activated=True))
        shooter = state.unit(defender.id)
        state, felled = strike(state, held, dice, events)
        attacker = state.unit(held.unit_id or "")
        if attacker.on_table:  # simultaneous: it fires even if the attack dropped it
            shooter = evolve(shooter, heading_deg=bearing_deg(shooter.position, attacker.position))
            if state.unit(shooter.id).on_table:
                state = state.with_unit(shooter)
            state, _ = attack(state, shooter, attacker, False, dice, events)
        return close_activation(state, held, felled, events)
    if kind == ActionKind.REACT_EVADE:
        state = _run(state, evolve(defender, activated=True), answer.path, events)
        if not _attack_possible(state, held):
            said = f"{defender.name} is out of reach: the attack is lost."
            lost = event("attack_lost", state.round, said, held.unit_id, target=defender.id)
            events.append(lost)
            return close_activation(state, held, None, events)
    state, felled = strike(state, held, dice, events)
    return close_activation(state, held, felled, events)


def _attack_possible(state: GameState, action: Action) -> bool:
    """Whether the attacker can still make its attack: range and sight for a shot, contact
    for a charge."""
    attacker, target = state.unit(action.unit_id or ""), state.unit(action.target_id or "")
    if not attacker.on_table or not target.on_table:
        return False
    if action.kind in SHOTS:
        return can_shoot_from(state, attacker, target)
    return touching(state, attacker, target)


def _run(state: GameState, unit: Unit, path: tuple[Point, ...], events: list[Event]) -> GameState:
    """The figure runs for cover along ``path`` (checked)."""
    heading = final_heading(unit.heading_deg, path, None)
    state, moved = place(state, unit, path[-1], heading)
    distance = path_cost_in(path)
    events.append(
        event(
            "move",
            state.round,
            f"{unit.name} runs for cover, {distance:.1f} in.",
            unit.id,
            path=[[round(x, 3), round(y, 3)] for x, y in path],
            heading=round(moved.heading_deg, 2),
            distance_in=round(distance, 3),
        )
    )
    return state


def _answer_overwatch(
    state: GameState, host: CardHost, answer: Action, dice: RandomSource
) -> Outcome:
    held = host.held
    assert held is not None
    watcher = state.unit(host.reacting or "")
    state = discard_card(_cleared(state, asked=(*host.asked, watcher.id)), answer)
    events: list[Event] = []
    if answer.kind == ActionKind.REACT_FIRE:
        events.append(reaction_event(state, watcher, "overwatch_fire", answer))
        mover = state.unit(held.unit_id or "")
        watcher = evolve(
            watcher,
            statuses=watcher.statuses - {FROSTY},
            heading_deg=bearing_deg(watcher.position, mover.position),
        )
        state = state.with_unit(watcher)
        state, _ = attack(state, watcher, mover, True, dice, events)  # -1, as after a move
    if not state.unit(held.unit_id or "").on_table:
        return close_activation(with_card_host(state, asked=()), held, None, events)
    return _proceed(state, held, dice, events)


def _answer_event(state: GameState, host: CardHost, answer: Action, dice: RandomSource) -> Outcome:
    unit = state.unit(host.reacting or "")
    what = str(host.trigger.get("cause", "The event")) if host.trigger else "The event"
    state = _cleared(state, event_hits=())
    kind = str(answer.kind)
    events = [reaction_event(state, unit, WORDS[kind], answer)]
    if kind == ActionKind.REACT_EVADE:
        unit = evolve(unit, activated=True)
        state = state.with_unit(unit)
        ok, roll = dodge(dice, unit, "running for cover")
        said = f"{unit.name} dodges ({roll})." if ok else f"{unit.name} fails to dodge ({roll})."
        events.append(event("dodge", state.round, said, unit.id, roll=roll, dodged=ok))
        if ok:
            state = _run(state, unit, answer.path, events)
            return Outcome(state, tuple(events))
    for strength in host.event_hits:
        state, more = event_hit(state, unit.id, strength, what, dice)
        events += more
    state, _ = check_end(state, events)
    return Outcome(state, tuple(events))
