"""The card AI driving a ruleset of its own vocabulary (the narrative rules, RULES §1.7
cross-pairing, D002-01's seed-000 column), measured with the ruleset's table queries and
checked with its ``validate`` (1 square = 1 inch, D002-02).

Its deck is the game's (``GameState.decks``, "cards") when the ruleset hosts the card AI
(the narrative rules do when the scenario names it as the AI: events, defence cards and
Stay Frosty shots come with it); each action names the card it read, and a Joker is a
``reshuffle`` action. On a table that does not host it (a narrative scenario written for
another AI, played by the card AI) it keeps a deck of its own in its side's memory, and
reads action cards only.

Each card is read step by step as §4.e-4.f say (D002-07: the target is the closest enemy in
sight and shooting range within the card's distance, any distance for a picture card):
Aimed Fire -> a shot standing; Move and Fire -> a move and shoot to a spot with the suit's
cover from which the target stays in sight and range (Hearts soft, Clubs hard, Diamonds hard
and farther from every enemy), best cover then nearest the target (Diamonds: farthest from
the enemies), else a shot standing; Assault -> a charge; Move -> the spot nearest the nearest
enemy (Hearts: only spots in soft cover or better, out of sight counting as better than
hard; Spades: better cover on a tie), or for Diamonds the spot farthest from the enemies in
the best cover; Stay Frosty -> ``overwatch`` (a hold without a host: the figure pivots
nowhere and stays put). Distances in whole inches for the ties of D002-09.

Decision where RULES is silent: a figure with no shooting range has no fire order; its
Spades card assaults the closest enemy within the card's distance that a charge can reach,
in sight or not (Assault is its way of harming).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action, ActionKind, Order
from engine.board import board_key, remember
from engine.cards import JOKER, Deck
from engine.dice import RandomSource, choice
from engine.geometry import Point, advance, edge_gap_in, path_cost_in
from engine.model import GameState, Unit, evolve
from engine.protocols import Pending, PendingKind, Ruleset
from engine.query import TableQuery
from engine.rulesets.firefight_lite.deck import (
    DEFENCES,
    FULL_DECK,
    card_name,
    draw_reading,
    trigger_squares,
)
from engine.rulesets.firefight_lite.state import DECK
from engine.scenario import cell_name

COVER = {"none": 0, "soft": 1, "hard": 2}
HIDDEN = 3
"""The cover of a spot no enemy could see (better than hard)."""
COVER_WORDS = ("in the open", "in soft cover", "in hard cover", "out of sight")
MEMORY_DECK = "cards"
HEADINGS = 12
"""Directions a destination is tried in (every 30 degrees), at LENGTHS of the allowance."""
LENGTHS = (1 / 3, 2 / 3, 1.0)


# -- the deck -------------------------------------------------------------------------------


def hosted(state: GameState) -> bool:
    """Whether the game keeps the card AI's deck (the ruleset hosts it)."""
    return any(d.name == DECK for d in state.decks)


def memory_deck(state: GameState, side: str, dice: RandomSource) -> Deck:
    """The side's deck from its controller memory (a fresh shuffled deck the first time)."""
    memory = dict(state.memory_of(side))
    if "draw" not in memory:
        return Deck(
            MEMORY_DECK, dice.shuffle(MEMORY_DECK, FULL_DECK, "set-up: shuffle the card AI's deck")
        )
    return Deck(
        MEMORY_DECK,
        tuple(memory["draw"]),
        tuple(memory.get("discard", ())),
        tuple(memory.get("removed", ())),
    )


def deck_memory(state: GameState, side: str, deck: Deck) -> tuple[tuple[str, object], ...]:
    """The side's memory with the deck written into it."""
    memory = dict(state.memory_of(side))
    memory.update(draw=deck.draw_pile, discard=deck.discard, removed=deck.removed)
    return tuple(sorted(memory.items()))


def _named(unit: Unit) -> str:
    """ "the Varlet at D6" (its square on a grid), else its name."""
    return f"{unit.name} at {cell_name(unit.cell)}" if unit.cell is not None else unit.name


def _joker(unit_id: str) -> Order:
    action = Action("reshuffle", unit_id, detail=(("card", JOKER),))
    return Order(action, "Joker", "the deck is reshuffled and a new card drawn")


def _with_card(action: Action, drawn: str) -> Action:
    return evolve(action, detail=(*action.detail, ("card", drawn)))


# -- which figure ------------------------------------------------------------------------------


def choose_unit(
    state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
) -> str | None:
    """§4.d with the ruleset's own sight and distance: figures seeing an enemy first, nearest
    first; ties by a roll."""
    query = ruleset.query(state)
    keyed = []
    for uid in pending.candidates:
        unit = state.unit(uid)
        enemies = state.enemies_of(unit)
        seeing = any(query.visible(unit, e) for e in enemies)
        gap = min((query.distance_in(unit, e) for e in enemies), default=0.0)
        keyed.append(((0 if seeing else 1, round(gap, 6)), uid))
    if not keyed:
        return None
    top = min(k for k, _ in keyed)
    return choice(dice, [u for k, u in keyed if k == top], "activation order tie")


# -- an action card ------------------------------------------------------------------------------


def decide(state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
    """The figure's card, read through the ruleset's vocabulary."""
    unit = state.unit(unit_id)
    sample = ruleset.sample_actions(state, unit.id, dice)
    if not sample:
        return Order(Action(ActionKind.PASS, unit.id, side=unit.side), "no action", "nothing to do")
    kinds = {str(a.kind) for a in sample}
    if kinds & {str(ActionKind.FLEE), str(ActionKind.CONTINUE_MELEE)}:
        return Order(sample[0], "forced", "the rules decide this action (no card is drawn)")
    purpose = f"action card for {_named(unit)}"
    if hosted(state):
        drawn, _ = state.deck(DECK).draw(dice, purpose)
        if drawn == JOKER:
            return _joker(unit.id)
        action, rule, reason = Reading(state, ruleset, unit, drawn, sample, dice).decide()
        return Order(_with_card(action, drawn), f"{card_name(drawn)}: {rule}", reason)
    deck = memory_deck(state, unit.side, dice)
    drawn, deck, _ = draw_reading(deck, dice, purpose)
    memory = deck_memory(state, unit.side, deck)
    action, rule, reason = Reading(state, ruleset, unit, drawn, sample, dice).decide()
    return Order(action, f"{card_name(drawn)}: {rule}", reason, memory=memory)


class Reading:
    """One figure's action card read by its suit (§4.e-4.f), on any ruleset's table."""

    def __init__(
        self,
        state: GameState,
        ruleset: Ruleset,
        unit: Unit,
        drawn: str,
        sample: Sequence[Action],
        dice: RandomSource,
    ) -> None:
        self.state, self.ruleset, self.unit, self.dice = state, ruleset, unit, dice
        self.query: TableQuery = ruleset.query(state)
        self.suit = drawn[-1]
        self.n = trigger_squares(drawn)
        self.sample = sample
        self.enemies = state.enemies_of(unit)

    # -- measures ------------------------------------------------------------------------------

    def legal(self, action: Action) -> bool:
        return not self.ruleset.validate(self.state, action)

    def gap(self, enemy: Unit) -> float:
        """Distance now to ``enemy`` (the ruleset's, edge to edge), inches."""
        return self.query.distance_in(self.unit, enemy)

    def gap_from(self, at: Point) -> int:
        """Whole inches from ``at`` to the nearest enemy (D002-06, 1 square = 1 inch)."""
        r = self.unit.radius_in
        return min(
            (round(edge_gap_in(at, r, e.position, e.radius_in)) for e in self.enemies),
            default=0,
        )

    def cover_from(self, at: Point, against: Sequence[Unit] | None = None) -> int:
        """The spot's cover (D002-09): the worst against the enemies that could see the
        figure there (0 none, 1 soft, 2 hard), ``HIDDEN`` when none could. Remembered for
        the board (every card drawn for the figure asks the same)."""
        foes = tuple(self.enemies if against is None else against)
        key = ("card-ai-cover", board_key(self.state, self.unit), at, tuple(e.id for e in foes))
        return remember(self.state, key, lambda: self._cover_from(at, foes))

    def _cover_from(self, at: Point, foes: Sequence[Unit]) -> int:
        # Sight between two units never reads their own bases (G-03), so the figure moved
        # to ``at`` is asked of the table as it stands.
        moved = evolve(self.unit, x=at[0], y=at[1])
        worst = HIDDEN
        for enemy in foes:
            if self.query.visible(enemy, moved):
                worst = min(worst, COVER[self.query.cover_at(at, enemy, self.unit.radius_in)])
        return worst

    def spots(self) -> list[Action]:
        """Moves the figure could make: the ruleset's sample, the best closing move, and
        straight moves in 12 directions at a third, two thirds and all of its allowance (those
        remembered for the board and the allowance)."""
        moves = [a for a in self.sample if a.kind == ActionKind.MOVE and len(a.path) > 1]
        allowance = self.query.movement_allowance_in(self.unit)
        key = ("card-ai-spots", board_key(self.state, self.unit), allowance)
        return moves + remember(self.state, key, lambda: self._spots(allowance))

    def _spots(self, allowance: float) -> list[Action]:
        here = self.unit.position
        ends = []
        if self.enemies:
            nearest = min(self.enemies, key=lambda e: (self.gap(e), e.sheet_order))
            ends.append(self.query.move_toward(self.unit, nearest.position))
        for fraction in LENGTHS:
            for k in range(HEADINGS):
                ends.append((here, advance(here, 360.0 * k / HEADINGS, allowance * fraction)))
        moves = []
        for path in ends:
            if len(path) > 1:
                action = Action(ActionKind.MOVE, self.unit.id, path=path)
                if self.legal(action):
                    moves.append(action)
        return moves

    def fires_from(self, path: tuple[Point, ...], target: Unit) -> Action | None:
        """The move and shoot along ``path`` at ``target``, if the rules allow it (remembered
        for the board)."""
        action = Action(ActionKind.MOVE_AND_SHOOT, self.unit.id, path=path, target_id=target.id)
        key = ("card-ai-fires", board_key(self.state, self.unit), path, target.id)
        return action if remember(self.state, key, lambda: self.legal(action)) else None

    # -- the reading ----------------------------------------------------------------------------

    def fire_target(self) -> Unit | None:
        """§4.e, D002-07: the closest enemy in sight and shooting range, within the card's
        distance (any for a picture card)."""
        shots = [a for a in self.sample if a.kind == ActionKind.SHOOT and a.target_id]
        options = [self.state.unit(a.target_id or "") for a in shots]
        options = [e for e in options if self.n is None or self.gap(e) <= self.n]
        if not options:
            return None
        return min(options, key=lambda e: (self.gap(e), e.sheet_order))

    def decide(self) -> tuple[Action, str, str]:
        """The action, the rule that fired and the reason (§4.f)."""
        target = self.fire_target()
        if self.suit == "S":
            return self.spades(target)
        if self.suit == "H":
            if target is not None:
                return self.move_and_fire(target, 1, away=False)
            closer = self.close_in(need=1)
            if closer is not None:
                return closer
            return self.frosty("hearts 3", "no spot in cover brings it closer to the enemy")
        if self.suit == "C":
            if target is not None:
                return self.move_and_fire(target, 2, away=False)
            return self.frosty("clubs 2", "no enemy in sight within the card's distance")
        if target is not None:
            return self.move_and_fire(target, 2, away=True)
        return self.withdraw()

    def spades(self, target: Unit | None) -> tuple[Action, str, str]:
        if target is not None:
            shot = Action(ActionKind.SHOOT, self.unit.id, target_id=target.id)
            return shot, "spades 1: aimed fire", f"{target.name} is in sight, {self.inches(target)}"
        charge = self.assault()
        if charge is not None:
            return charge
        closer = self.close_in(need=0)
        if closer is not None:
            return closer
        return self.frosty("spades 3", "it cannot get any closer to the enemy")

    def assault(self) -> tuple[Action, str, str] | None:
        """Spades 2: the closest enemy within the card's distance out of sight (in sight too,
        for a figure that cannot shoot), if a charge reaches it; never on a picture card
        (D002-07b: its "no enemy within the distance" branch is the move)."""
        if self.n is None:
            return None
        shooter = any(a.kind == ActionKind.SHOOT for a in self.sample) or bool(
            self.query.targets(self.unit, ActionKind.MOVE_AND_SHOOT)
        )
        charges = [a for a in self.sample if a.kind == ActionKind.MOVE_INTO_MELEE]
        fitting = []
        for a in charges:
            foe = self.state.unit(a.target_id or "")
            if self.n is not None and self.gap(foe) > self.n:
                continue
            if shooter and self.query.visible(self.unit, foe):
                continue
            fitting.append((self.gap(foe), foe.sheet_order, a))
        if not fitting:
            return None
        _, _, charge = min(fitting, key=lambda t: (t[0], t[1]))
        foe = self.state.unit(charge.target_id or "")
        why = "out of sight" if shooter else "in reach"
        return charge, "spades 2: assault", f"{foe.name} is {self.inches(foe)}, {why}"

    def move_and_fire(self, target: Unit, need: int, *, away: bool) -> tuple[Action, str, str]:
        """Move and Fire (§4.f, D002-09): the move only to a spot with ``need`` cover or better
        against the target from which it stays in sight and range (Diamonds: farther from every
        enemy); best cover, then nearest the target (Diamonds: farthest from the enemies); else
        a shot standing."""
        rule = {"H": "hearts 1", "C": "clubs 1", "D": "diamonds 1"}[self.suit] + ": move and fire"
        now = self.gap_from(self.unit.position)
        options: list[tuple[tuple[int, float], Action]] = []
        for a in self.sample:
            if a.kind != ActionKind.MOVE_AND_SHOOT or a.target_id != target.id or not a.path:
                continue
            options.append((self._fire_key(a.path[-1], target, away), a))
        for move in self.spots():
            action = self.fires_from(move.path, target)
            if action is not None:
                options.append((self._fire_key(move.path[-1], target, away), action))
        good = [
            (k, a)
            for k, a in options
            if need <= k[0] < HIDDEN and (not away or self.gap_from(a.path[-1]) > now)
        ]
        standing = Action(ActionKind.SHOOT, self.unit.id, target_id=target.id)
        if not good:
            return standing, rule, f"it fires at {target.name} without moving (no cover to move to)"
        key, best = max(good, key=lambda ka: ka[0])
        here_cover = self.cover_from(self.unit.position, [target])
        if here_cover >= key[0] and not away:
            return standing, rule, f"it fires at {target.name} from the cover it holds"
        where = COVER_WORDS[key[0]]
        return best, rule, f"it moves {where} and fires at {target.name}"

    def _fire_key(self, at: Point, target: Unit, away: bool) -> tuple[int, float]:
        cover = self.cover_from(at, [target])
        r = self.unit.radius_in
        second = (
            float(self.gap_from(at))
            if away
            else -edge_gap_in(at, r, target.position, target.radius_in)
        )
        return cover, second

    def close_in(self, need: int) -> tuple[Action, str, str] | None:
        """Spades 3 / Hearts 2: the spot nearest the nearest enemy among those with ``need``
        cover or better; ties: better cover. None when no such spot is nearer than where it
        stands."""
        rule = "spades 3: move" if self.suit == "S" else "hearts 2: move to soft cover or better"
        here = self.gap_from(self.unit.position)
        bands: dict[int, list[Action]] = {}
        for move in self.spots():
            gap = self.gap_from(move.path[-1])
            if gap < here:
                bands.setdefault(gap, []).append(move)
        # Nearest band first: the first band with a spot in the cover asked for holds the
        # answer (its best cover; the first such spot on a tie).
        for gap in sorted(bands):
            covered = [(self.cover_from(m.path[-1]), m) for m in bands[gap]]
            good = [(c, m) for c, m in covered if c >= need]
            if good:
                cover = max(c for c, _ in good)
                move = next(m for c, m in good if c == cover)
                reason = f"it closes to {_inches(gap)} from the nearest enemy, {COVER_WORDS[cover]}"
                return move, rule, reason
        return None

    def withdraw(self) -> tuple[Action, str, str]:
        """Diamonds 2/3 (D002-09): among spots at least as far from the nearest enemy as now,
        the best cover, then the farthest; Stay Frosty when none improves on where it stands."""
        here = (self.cover_from(self.unit.position), self.gap_from(self.unit.position))
        bands: dict[int, list[Action]] = {}
        for move in self.spots():
            gap = self.gap_from(move.path[-1])
            if gap >= here[1]:
                bands.setdefault(gap, []).append(move)
        best: tuple[tuple[int, int], Action] | None = None
        # Farthest band first: once a band holds a spot out of sight, no nearer spot can beat
        # it (the key is cover, then distance), so the rest need no sight lines.
        for gap in sorted(bands, reverse=True):
            for move in bands[gap]:
                key = (self.cover_from(move.path[-1]), gap)
                if key > here and (best is None or key > best[0]):
                    best = (key, move)
            if best is not None and best[0][0] == HIDDEN:
                break
        if best is None:
            return self.frosty("diamonds 3", "it already holds the farthest cover it can reach")
        (cover, gap), move = best
        reason = f"it falls back to {_inches(gap)} from the nearest enemy, {COVER_WORDS[cover]}"
        return move, "diamonds 2: move away", reason

    def frosty(self, rule: str, reason: str) -> tuple[Action, str, str]:
        """Stay Frosty: the ruleset's overwatch where it hosts the card AI, else a hold."""
        watch = next((a for a in self.sample if a.kind == ActionKind.OVERWATCH), None)
        if watch is not None:
            return watch, f"{rule}: stay frosty", reason
        hold = Action(ActionKind.MOVE, self.unit.id, heading_deg=self.unit.heading_deg)
        if not self.legal(hold):
            hold = next((a for a in self.sample if a.kind == ActionKind.PASS), self.sample[0])
        return hold, f"{rule}: stay frosty", f"{reason}; it holds where it stands"

    def inches(self, enemy: Unit) -> str:
        """ "4 inches away", "within an inch"."""
        gap = self.gap(enemy)
        return f"{_inches(round(gap))} away" if gap >= 1 else "within an inch"


def _inches(n: int) -> str:
    return "1 inch" if n == 1 else f"{n} inches"


# -- reactions -------------------------------------------------------------------------------------


def react(state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource) -> Order | None:
    """Stay Frosty fire at once; a defence card (§4.g) when attacked before activating; no
    answer to anything else."""
    if not hosted(state) or pending.kind is not PendingKind.REACTION:
        return None
    unit = state.unit(pending.unit or "")
    answers = ruleset.sample_actions(state, unit.id, dice)
    if pending.purpose == "overwatch":
        fire = next((a for a in answers if a.kind == ActionKind.REACT_FIRE), None)
        if fire is None:
            return None
        mover = state.unit(fire.target_id or "")
        return Order(fire, "stay frosty", f"{mover.name} starts an action in its sight")
    if pending.purpose != "defence":
        return None
    drawn, _ = state.deck(DECK).draw(dice, f"defence card for {_named(unit)}")
    if drawn == JOKER:
        return _joker(unit.id)
    say = card_name(drawn)
    defence = DEFENCES[drawn[-1]]
    attacker_id = pending.trigger.get("attacker") if pending.trigger else None
    attacker = state.unit(attacker_id) if attacker_id else None
    if defence == "return_fire" and attacker is not None:
        fire = next((a for a in answers if a.kind == ActionKind.REACT_FIRE), None)
        if fire is not None:
            why = f"it fires back at {attacker.name}"
            return Order(_with_card(fire, drawn), f"{say}: return fire", why)
    if defence == "run_for_cover" and attacker is not None:
        runs = [a for a in answers if a.kind == ActionKind.REACT_EVADE]
        charged = pending.trigger is not None and pending.trigger.get("attack") == str(
            ActionKind.MOVE_INTO_MELEE
        )
        best = _best_run(state, ruleset, unit, attacker, runs, charged)
        if best is not None:
            action, why = best
            return Order(_with_card(action, drawn), f"{say}: run for cover", why)
    armour = Action(ActionKind.PASS, unit.id, side=unit.side, detail=(("card", drawn),))
    why = {
        "return_fire": "it cannot fire back, so it trusts its armour",
        "run_for_cover": "no run does better than where it stands, so it trusts its armour",
    }.get(defence, "it trusts its armour")
    return Order(armour, f"{say}: armour", why)


def _best_run(
    state: GameState,
    ruleset: Ruleset,
    unit: Unit,
    attacker: Unit,
    runs: Sequence[Action],
    charged: bool,
) -> tuple[Action, str] | None:
    """The run that best spoils the attack: out of the attacker's reach (out of sight or
    range of a shot, out of contact of a charge), then the best cover against it, then the
    shortest. None (the card reads as Armour) when no run does better than standing: running
    for nothing would only cost the figure its activation."""
    kind = ActionKind.CONTINUE_MELEE if charged else ActionKind.SHOOT
    here = COVER[ruleset.query(state).cover_at(unit.position, attacker, unit.radius_in)]

    def score(run: Action) -> tuple[int, int, float]:
        end = run.path[-1]
        moved = evolve(unit, x=end[0], y=end[1])
        view = ruleset.query(state.with_unit(moved))
        lost = all(u.id != unit.id for u in view.targets(attacker, kind))
        cover = COVER[view.cover_at(end, attacker, unit.radius_in)]
        return (1 if lost else 0, cover, -path_cost_in(run.path))

    if not runs:
        return None
    scored = [(score(run), run) for run in runs]
    (lost, cover, _), best = max(scored, key=lambda sr: sr[0])
    if lost:
        return best, f"it runs out of {attacker.name}'s reach"
    if cover <= here:
        return None
    return best, f"it runs for {('soft', 'hard')[cover - 1]} cover from {attacker.name}"
