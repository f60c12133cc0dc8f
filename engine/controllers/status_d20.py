"""The d20 status AI (RULES §5.d, §5.k, §5.l): controller ``status-d20``.

It plays the ``d20`` ruleset natively (this module: the statuses the rules keep, the Move Unit
in spaces, weapons and cover) and the ``narrative`` ruleset's scenarios through the core's
query surface only (:mod:`engine.controllers.status_d20_any`). It may also play the heroes'
side of a d20 game in simulations (always Alerted, no patrol).

Unit order (§5.d, D003-02): the Arch Foe first, then the unit nearest any hero, recomputed
at each pick (ties: a logged roll, G-07). Each activation, by status:

* Prepared: stays put if ``patrol`` is off (D003-04), else rolls the d20 patrol table
  (purpose "patrol: <name>"): stay, straight ahead a full Move Unit (until blocked), turn
  90° left, 90° right or 180°.
* Retreating: one move toward where the Arch Foe was set up, facing away from the nearest
  hero, nothing else (D003-25, T003-17).
* Alerted, in the order of §5.k (D003-24): face the closest hero in sight (every move ends
  facing it); a healer heals the wounded Arch Foe, else the nearest wounded ally, when it can
  this turn; unused buffs (attack, damage, defence) as the other action; the primary weapon
  (best chance to hit a hero, then damage, then a roll), the tactic's favourite first; the
  spot from which that weapon reaches the target (ranged primaries prefer cover); the attack
  on the tactic's target (else any hero in reach); when it cannot attack and the scenario is
  won on objectives, toward the nearest objective.
"""

from __future__ import annotations

import itertools

from engine.actions import Action, ActionKind, Order
from engine.controllers import status_d20_any
from engine.controllers.status_d20_goals import scenario_goal
from engine.controllers.status_d20_tactics import (
    destination_key,
    moves_after_attack,
    pick_target,
    weapon_preference,
)
from engine.dice import RandomSource
from engine.geometry import Point, bearing_deg, centre_distance_in, straight_run
from engine.model import GameState, Role, Unit, evolve
from engine.protocols import ControllerBase, Pending, Ruleset, register_controller
from engine.rulesets.d20.board import (
    can_attack,
    in_cover,
    move_allowance,
    move_area,
    move_problem,
    visible,
)
from engine.rulesets.d20.combat import attack_need
from engine.rulesets.d20.query import D20Query, ring_and_straight
from engine.rulesets.d20.ranges import adjacent, in_reach, space_in, spaces_between
from engine.rulesets.d20.state import (
    ALERTED,
    DEFEND_NEED,
    NAME,
    PREPARED,
    RETREATING,
    D20State,
    Weapon,
    card_of,
    p_at_least,
    patrol_result,
    rules_of,
)

BUFF_ORDER = ("attack", "damage", "defence")
MIN_MOVE_IN = 0.1
"""Shorter moves are not ordered (a player cannot carry them out): the figure stays."""


def _length(path: tuple[Point, ...]) -> float:
    return sum(centre_distance_in(a, b) for a, b in itertools.pairwise(path))


def unit_order_key(state: GameState, unit: Unit) -> tuple[float, float]:
    """Arch Foe first, then nearest to any enemy of its side (spaces), sheet order."""
    foes = state.enemies_of(unit)
    near = min((spaces_between(state, unit, f) for f in foes), default=0.0)
    return (0.0 if card_of(unit).arch_foe else 1.0, round(near, 6))


class StatusD20(ControllerBase):
    """The status AI of the d20 solitaire rules (see the module docstring)."""

    name = "status-d20"
    rulesets: tuple[str, ...] = (NAME, "narrative")

    def choose_unit(
        self, state: GameState, ruleset: Ruleset, pending: Pending, dice: RandomSource
    ) -> str | None:
        """The Arch Foe, else the unit nearest the heroes (ties by a logged roll)."""
        if state.ruleset != NAME:
            return status_d20_any.choose_unit(state, ruleset, pending, dice)
        units = [state.unit(c) for c in pending.candidates]
        if not units:
            return None
        keys = {u.id: unit_order_key(state, u) for u in units}
        best = min(keys.values())
        tied = [u for u in units if keys[u.id] == best]
        if len(tied) == 1:
            return tied[0].id
        return tied[
            dice.roll(len(tied), "enemy unit order" if _is_ai(state, tied[0]) else "unit order") - 1
        ].id

    def decide(self, state: GameState, ruleset: Ruleset, unit_id: str, dice: RandomSource) -> Order:
        """The status procedure for the unit (see the module docstring)."""
        if state.ruleset != NAME:
            return status_d20_any.decide(state, ruleset, unit_id, dice)
        return Plan(state, unit_id, dice).order()


def _is_ai(state: GameState, unit: Unit) -> bool:
    return state.side(unit.side).role is Role.AI


def _facing(state: GameState, unit: Unit, end: Point, fallback: float) -> float:
    """Face the closest hero in sight from ``end`` (§5.k step 1), else ``fallback``."""
    moved = evolve(unit, x=end[0], y=end[1])
    by_distance = sorted(
        state.enemies_of(unit), key=lambda h: (spaces_between(state, moved, h, end), h.sheet_order)
    )
    near = next((h for h in by_distance if visible(state, moved, h, end)), None)
    if near is None:
        return fallback
    return round(bearing_deg(end, near.position) % 360.0, 6)


class Plan:
    """One decision of the status AI for one d20 figure."""

    def __init__(self, state: GameState, unit_id: str, dice: RandomSource) -> None:
        self.state = state
        self.unit = state.unit(unit_id)
        self.dice = dice
        rules = state.rules
        assert isinstance(rules, D20State)
        acting = rules.acting == unit_id
        self.moved = acting and rules.moved
        self.other = acting and rules.other
        self.memory: dict[str, object] = dict(state.memory_of(self.unit.side))
        self.ai = _is_ai(state, self.unit)
        self.tactic = rules_of(self.unit).tactic if rules_of(self.unit).tactic != "roll" else ""
        self.query = D20Query(state)
        self.rolls: list[tuple[str, int]] = []
        self._positions: dict[tuple[str, str], tuple[Point, ...]] = {}
        self._p_need: dict[int, float] = {}

    # ------------------------------------------------------------------ helpers
    def _order(self, action: Action, rule: str, reason: str, target: Unit | None = None) -> Order:
        dist = 0.0
        if len(action.path) > 1:
            dist = sum(
                centre_distance_in(a, b) for a, b in zip(action.path, action.path[1:], strict=False)
            )
        gap = None if target is None else self.query.distance_in(self.unit, target)
        memory = tuple(sorted(self.memory.items()))
        return Order(
            action,
            rule,
            reason,
            distance_in=dist,
            target_distance_in=gap,
            rolls=tuple(self.rolls),
            memory=memory,
        )

    def _pass(self, reason: str) -> Order:
        return self._order(Action(ActionKind.PASS, self.unit.id), "end of turn", reason)

    def _move(self, path: tuple[Point, ...], heading: float | None = None) -> Action:
        if len(path) > 1 and move_problem(self.state, self.unit, path):
            path = (self.unit.position,)  # the ray cast's rounding: turn on the spot instead
        if heading is None:
            fallback = bearing_deg(path[-2], path[-1]) if len(path) > 1 else self.unit.heading_deg
            heading = _facing(self.state, self.unit, path[-1], fallback)
        return Action(
            ActionKind.MOVE, self.unit.id, path=path, heading_deg=round(heading % 360.0, 6)
        )

    def _status(self) -> str:
        if not self.ai:
            return RETREATING if RETREATING in self.unit.statuses else ALERTED
        for s in (RETREATING, PREPARED):
            if s in self.unit.statuses:
                return s
        return ALERTED

    # ------------------------------------------------------------------ statuses
    def order(self) -> Order:
        """The order for this figure now."""
        status = self._status()
        if status == RETREATING:
            return self._retreat()
        if status == PREPARED:
            return self._patrol()
        return self._alerted()

    def _retreat(self) -> Order:
        if self.moved:
            return self._pass("retreating: one move and nothing else")
        arch = next(
            (u for u in self.state.units if u.side == self.unit.side and card_of(u).arch_foe), None
        )
        goal = rules_of(arch).start if arch is not None and self.ai else rules_of(self.unit).start
        path = self.query.move_toward(self.unit, goal)
        heroes = self.state.enemies_of(self.unit)
        heading = self.unit.heading_deg
        if heroes:
            near = min(heroes, key=lambda h: spaces_between(self.state, self.unit, h, path[-1]))
            heading = bearing_deg(near.position, path[-1])
        return self._order(
            self._move(path, heading),
            "retreating",
            "it runs toward the Arch Foe's starting area, facing away from the nearest hero",
        )

    def _patrol(self) -> Order:
        if self.moved or self.other:
            return self._pass("a prepared enemy does nothing more")
        if self.state.option_value("patrol", True) is False:
            return self._pass("prepared: it stays put (enemies do not patrol here)")
        roll = self.dice.roll(20, f"patrol: {self.unit.name}")
        self.rolls.append((f"patrol: {self.unit.name}", roll))
        result = patrol_result(roll)
        rule = f"patrol {roll}: {result}"
        if result == "stay":
            return self._pass("prepared: it stays where it is")
        if result == "forward":
            path = self._forward()
            if len(path) < 2:
                return self._pass("prepared: it cannot move ahead")
            return self._order(
                self._move(path, self.unit.heading_deg), rule, "it patrols straight ahead"
            )
        turn = {"left": -90.0, "right": 90.0, "about": 180.0}[result]
        action = self._move((self.unit.position,), (self.unit.heading_deg + turn) % 360.0)
        return self._order(action, rule, f"it turns {result}")

    def _forward(self) -> tuple[Point, ...]:
        """Straight ahead as far as it can (a full Move Unit, until blocked or the edge)."""
        grid = self.state.table.grid
        if grid is None:
            area = move_area(self.state, self.unit)
            return straight_run(
                self.unit.position,
                self.unit.heading_deg,
                move_allowance(self.state, self.unit),
                area,
            )
        step = round(self.unit.heading_deg / 45.0) % 8
        dc, dr = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))[step]
        reach = self.query.destinations(self.unit)
        ends = {grid.cell_at(p[-1]) for p in reach}
        col, row = grid.cell_at(self.unit.position)
        best = (col, row)
        for k in range(1, card_of(self.unit).move + 1):
            cell = (col + dc * k, row + dr * k)
            if cell not in ends:
                break
            best = cell
        if best == (col, row):
            return (self.unit.position,)
        return (self.unit.position, grid.centre(best))

    # ------------------------------------------------------------------ alerted
    def _alerted(self) -> Order:
        heroes = list(self.state.enemies_of(self.unit))
        if not heroes:
            return self._pass("no hero left")
        if self.tactic == "commanding" and not self.moved and not self.other:
            focus, _ = self._closest(heroes)
            self.memory["focus"] = focus.id
            self.memory["focus_round"] = self.state.round
        healed = self._heal()
        if healed is not None:
            return healed
        target = self._target(heroes)
        weapon = self._primary_cached
        if not self.other:
            now = self._attack_now(weapon, target, heroes)
            if now is not None and (self.tactic == "cautious" or self._stays(weapon, target)):
                return self._buff() or now
        if not self.moved:
            goal = self._goal(weapon, target)
            if goal is not None:
                return goal
            path = self._position(weapon, target)
            if len(path) > 1:
                return self._order(
                    self._move(path),
                    "alerted, priority 5: positioning",
                    f"it moves to reach {target.name} with its {weapon.name}",
                    target,
                )
        if not self.other:
            buff = self._buff()
            if buff is not None:
                return buff
            now = self._attack_now(weapon, target, heroes)
            if now is not None:
                return now
            if self.moved and self.tactic != "cautious":
                goal = self._goal(weapon, target)  # still on its way to an objective
                if goal is not None:
                    return goal
                path = self._position(weapon, target)
                if len(path) > 1:
                    return self._order(
                        self._move(path),
                        "second action: move again",
                        f"it cannot attack yet and closes on {target.name}",
                        target,
                    )
        if self.other and not self.moved and moves_after_attack(self.tactic):
            path = self._away(heroes)
            if len(path) > 1:
                return self._order(self._move(path), "tactic quick", "hit and run")
        return self._pass("nothing more to do this turn")

    def _closest(self, heroes: list[Unit]) -> tuple[Unit, int | None]:
        picked = pick_target("", self.unit, heroes, self._spaces, self.dice, {})
        self.rolls.extend(picked.rolls)
        return picked.target, None

    def _spaces(self, a: Unit, b: Unit) -> float:
        return spaces_between(self.state, a, b)

    def _hit_chance(self, weapon: Weapon, hero: Unit, at: Point | None = None) -> float:
        cover = weapon.ranged and in_cover(
            self.state, hero, self.unit.position if at is None else at
        )
        return self._p_hit(weapon, cover)

    def _p_hit(self, weapon: Weapon, cover: bool) -> float:
        """The unit's chance to hit with the weapon, a target in cover or not (a float of the
        exact fraction, worked out once per decision)."""
        need = attack_need(weapon, cover)
        found = self._p_need.get(need)
        if found is None:
            found = self._p_need[need] = float(p_at_least(need, card_of(self.unit).attack_twice))
        return found

    def _best_hit_chance(self, weapon: Weapon, heroes: list[Unit]) -> float:
        """The best of ``_hit_chance`` over the (at least one) heroes: the same maximum, but
        cover is looked at only until a hero without it shows the best chance there is."""
        open_p, covered_p = self._p_hit(weapon, False), self._p_hit(weapon, True)
        if not weapon.ranged or open_p == covered_p:
            return open_p
        if open_p < covered_p:  # never with §5.g's needs; kept exact whatever the needs
            return max(self._hit_chance(weapon, h) for h in heroes)
        if any(not in_cover(self.state, h, self.unit.position) for h in heroes):
            return open_p
        return covered_p

    def _primary(self, heroes: list[Unit]) -> Weapon:
        """§5.k step 4 (tactic favourites first): best chance to hit, then damage, then a roll."""
        weapons = list(card_of(self.unit).weapons)
        pref = weapon_preference(self.tactic)
        keyed = {w.name: (pref(w), -self._best_hit_chance(w, heroes), -w.damage) for w in weapons}
        best = min(keyed.values())
        tied = [w for w in weapons if keyed[w.name] == best]
        if len(tied) == 1:
            return tied[0]
        purpose = f"primary weapon: {self.unit.name}"
        roll = self.dice.roll(len(tied), purpose)
        self.rolls.append((purpose, roll))
        return tied[roll - 1]

    def _threat(self, hero: Unit) -> float:
        card = card_of(hero)
        best = max(
            float(p_at_least(attack_need(w, False), card.attack_twice)) * max(w.damage, 1)
            for w in card.weapons
        )
        return round(best, 9) * 1000 + card.points

    def _p_defeat(self, hero: Unit) -> float:
        weapon = self._primary_cached
        left = card_of(hero).wounds - hero.wounds
        if weapon.damage < left or weapon.stun:
            return 0.0
        fail = 1 - p_at_least(DEFEND_NEED, card_of(hero).defend_twice)
        return round(self._hit_chance(weapon, hero) * float(fail), 9)

    def _heroes_near(self, hero: Unit) -> int:
        return sum(
            1
            for h in self.state.enemies_of(self.unit)
            if spaces_between(self.state, h, hero) <= 1.0 + 1e-6
        )

    def _target(self, heroes: list[Unit]) -> Unit:
        memory = dict(self.memory)
        partner = self._partner()
        if partner is not None:
            last = self.memory.get(f"target:{partner.id}")
            if last is not None:
                memory[f"partner_target:{self.unit.id}"] = last
        if self.memory.get("focus_round") != self.state.round:
            memory.pop("focus", None)
        self._primary_cached = self._primary(heroes)
        picked = pick_target(
            self.tactic,
            self.unit,
            heroes,
            self._spaces,
            self.dice,
            memory,
            threat=self._threat,
            p_defeat=self._p_defeat,
            heroes_near=self._heroes_near,
        )
        self.rolls.extend(picked.rolls)
        self.reason = picked.reason
        return picked.target

    def _partner(self) -> Unit | None:
        if self.tactic != "partnership":
            return None
        named = card_of(self.unit).partner
        allies = [u for u in self.state.units_of(self.unit.side) if u.id != self.unit.id]
        if named:
            return next((u for u in allies if u.id == named), None)
        return min(allies, key=lambda u: (self._spaces(self.unit, u), u.sheet_order), default=None)

    def _can_attack(self, weapon: Weapon, target: Unit, at: Point | None = None) -> bool:
        return can_attack(self.state, self.unit, weapon, target, at)

    def _attack_now(self, weapon: Weapon, target: Unit, heroes: list[Unit]) -> Order | None:
        """Attack the target if the weapon reaches it, else any hero a weapon reaches."""
        nearest = sorted(heroes, key=lambda h: (self._spaces(self.unit, h), h.sheet_order))
        options = [(weapon, target)] + [
            (w, h)
            for w in sorted(card_of(self.unit).weapons, key=weapon_preference(self.tactic))
            for h in nearest
        ]
        if self.tactic == "cautious":
            options = options[1:] if not self._can_attack(weapon, target) else options
        for w, h in options:
            if self._can_attack(w, h):
                self.memory[f"target:{self.unit.id}"] = h.id
                reason = (
                    getattr(self, "reason", "the closest foe")
                    if h.id == target.id
                    else "a hero in reach"
                )
                action = Action(
                    "attack", self.unit.id, target_id=h.id, detail=(("weapon", w.name),)
                )
                return self._order(action, "alerted, priority 6: attack", f"{reason} ({h.name})", h)
        return None

    def _stays(self, weapon: Weapon, target: Unit) -> bool:
        """Whether the best spot to stand is where it is (then it attacks first)."""
        path = self._position(weapon, target)
        return len(path) < 2

    def _candidates(self, target: Unit) -> list[tuple[Point, ...]]:
        if self.state.table.grid is None:
            # Straight at it, stopping a quarter space into reach (adjacent is half a space);
            # cast with the ring of destinations.
            stop = self.unit.radius_in + target.radius_in + space_in(self.state) / 4
            ring, run = ring_and_straight(self.state, self.unit, target.position, stop)
            paths = list(ring)
            if run is not None:
                paths.append(run)
            return paths
        return list(self.query.destinations(self.unit))

    def _position(self, weapon: Weapon, target: Unit) -> tuple[Point, ...]:
        """§5.k step 5 with the tactic's wishes (see ``destination_key``)."""
        key = (weapon.name, target.id)
        if key not in self._positions:
            self._positions[key] = self._best_position(weapon, target)
        return self._positions[key]

    def _best_position(self, weapon: Weapon, target: Unit) -> tuple[Point, ...]:
        state, unit, tactic = self.state, self.unit, self.tactic
        heroes = state.enemies_of(unit)
        allies = [u for u in state.units_of(unit.side) if u.id != unit.id]
        ally_gap = 0.0
        if tactic == "cautious":
            ally_gap = min((min(self._spaces(a, h) for h in heroes) for a in allies), default=0.0)
        m_spaces = float(card_of(unit).move)
        partner = self._partner()
        wants_cover = tactic == "pragmatic" or (weapon.ranged and tactic != "reckless")
        plain = tactic not in ("slaying", "cautious", "selective", "partnership", "reckless")
        if (
            plain
            and self._can_attack(weapon, target)
            and (not wants_cover or in_cover(state, unit, target.position))
        ):
            return (unit.position,)  # the best key there is: in reach, no wish, no move
        best: tuple[tuple[float, ...], tuple[Point, ...]] | None = None
        for path in self._candidates(target):
            moved = _length(path)
            if len(path) > 1 and moved < MIN_MOVE_IN:
                continue  # too short to ask of a player
            end = path[-1]
            hero_gap = 0.0
            if tactic in ("cautious", "selective"):
                hero_gap = min(spaces_between(state, unit, h, end) for h in heroes)
            key = destination_key(
                tactic,
                attacks=self._can_attack(weapon, target, end),
                cover=wants_cover and in_cover(state, unit, target.position, end),
                ranged=weapon.ranged,
                target_gap=round(spaces_between(state, unit, target, end), 6),
                hero_gap=hero_gap,
                heroes_adjacent=sum(1 for h in heroes if adjacent(state, unit, h, end))
                if tactic == "slaying"
                else 0,
                behind_ally=hero_gap >= ally_gap + m_spaces - 1e-6,
                partner_adjacent=partner is not None and adjacent(state, unit, partner, end),
                moved=round(moved, 6),
            )
            if best is None or key < best[0]:
                best = (key, path)
        assert best is not None
        return best[1]

    def _away(self, heroes: list[Unit]) -> tuple[Point, ...]:
        best: tuple[float, tuple[Point, ...]] = (-1.0, (self.unit.position,))
        for path in self.query.destinations(self.unit):
            gap = min(spaces_between(self.state, self.unit, h, path[-1]) for h in heroes)
            if gap > best[0] + 1e-9:
                best = (gap, path)
        return best[1]

    def _heal(self) -> Order | None:
        """§5.k step 2: heal the wounded Arch Foe, else the nearest wounded ally."""
        card, own = card_of(self.unit), rules_of(self.unit)
        if self.other or own.heals_used >= card.heals:
            return None
        wounded = [u for u in self.state.units_of(self.unit.side) if u.wounds > 0]
        if not wounded:
            return None
        arch = [u for u in wounded if card_of(u).arch_foe]
        ally = (
            arch[0]
            if arch
            else min(wounded, key=lambda u: (self._spaces(self.unit, u), u.sheet_order))
        )
        heal = Action("heal", self.unit.id, target_id=ally.id)
        touch = Weapon("touch", "melee")
        if ally.id == self.unit.id or in_reach(self.state, self.unit, touch, ally):
            return self._order(heal, "alerted, priority 2: heal", f"{ally.name} is wounded", ally)
        if self.moved:
            return None
        for path in self._candidates(ally):
            if in_reach(self.state, self.unit, touch, ally, path[-1]):
                return self._order(
                    self._move(path),
                    "alerted, priority 2: heal",
                    f"it goes to heal {ally.name}",
                    ally,
                )
        return None

    def _buff(self) -> Order | None:
        """§5.k step 3: abilities that raise attack, then damage, then defence."""
        used = rules_of(self.unit).buffs_used
        for ability in BUFF_ORDER:
            if ability in card_of(self.unit).buffs and ability not in used:
                action = Action("ability", self.unit.id, detail=(("ability", ability),))
                return self._order(
                    action,
                    "alerted, priority 3: raise its attack, damage or defence",
                    f"it raises its {ability}",
                )
        return None

    def _goal(self, weapon: Weapon, target: Unit) -> Order | None:
        """§5.k step 7 (objective games), curious and opportunistic: toward an objective."""
        state, unit = self.state, self.unit
        scenario = scenario_goal(self, weapon, target)  # §5.m's own goals
        if scenario is not None:
            return scenario
        if not state.objectives:
            return None
        touching = [
            o.id
            for o in state.objectives
            if centre_distance_in(o.position, unit.position) <= unit.radius_in + 0.25
        ]
        explored = list(self.memory.get(f"explored:{unit.id}", []) or [])  # type: ignore[call-overload]
        for oid in touching:
            if oid not in explored:
                explored.append(oid)
        self.memory[f"explored:{unit.id}"] = explored
        heroes = state.enemies_of(unit)
        if self.tactic == "opportunistic" and not touching:
            pool = list(state.objectives)
            why = "opportunistic: it makes for the objective first"
        elif self.tactic == "curious" and not any(adjacent(state, unit, h) for h in heroes):
            pool = [o for o in state.objectives if o.id not in explored]
            why = "curious: it investigates the objective first"
        elif state.option_value("victory", "basic") == "objectives" and not self._can_attack(
            weapon, target, self._position(weapon, target)[-1]
        ):
            pool = list(state.objectives)
            why = "alerted, priority 7: it cannot attack, so it goes for the nearest goal"
        else:
            return None
        if not pool:
            return None
        obj = min(pool, key=lambda o: (centre_distance_in(o.position, unit.position), o.id))
        path = self.query.move_toward(unit, obj.position)
        if len(path) < 2:
            return None
        return self._order(self._move(path), "goal location", f"{why} ({obj.name})")


register_controller(StatusD20.name, StatusD20)
