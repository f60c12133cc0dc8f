"""A perfect player at a virtual table: moves models exactly as ordered (for session tests)."""

from __future__ import annotations

from assistant.scenarios import load_game
from assistant.session.game import Dice, LiveGame, Stage
from assistant.session.observation import Observation, PieceSeen
from engine.actions import Action, ActionKind
from engine.dice import SeededDice
from engine.geometry import bearing_deg
from engine.model import Role
from engine.protocols import find_controller
from engine.runner import BattleRecord, controllers_for, play_battle


class VirtualTable:
    """Model poses by unit id, in inches and degrees."""

    def __init__(self, game: LiveGame) -> None:
        self.game = game
        self.poses = {u.id: (u.x, u.y, u.heading_deg) for u in game.state.units if u.on_table}
        self.t = 0.0

    def observation(self) -> Observation:
        self.t += 1.0
        return Observation(
            t=self.t,
            settled=True,
            pieces={uid: PieceSeen(x, y, h) for uid, (x, y, h) in self.poses.items()},
        )

    def sync(self) -> None:
        """Put every model where the engine has it (the player tidies the table)."""
        for u in self.game.state.units:
            if u.on_table and u.id in self.poses:
                self.poses[u.id] = (u.x, u.y, u.heading_deg)

    def act(self) -> None:
        """What a perfect player does for the stage the game is in."""
        game = self.game
        if game.stage is Stage.AI_ORDER and game.expected is not None:
            exp = game.expected
            if exp.off_table:
                self.poses.pop(exp.unit_id, None)
            else:
                self.poses[exp.unit_id] = (exp.x_in, exp.y_in, exp.heading_deg)
        elif game.stage is Stage.REMOVAL:
            for uid in game.removals:
                self.poses.pop(uid, None)
        elif game.stage is Stage.HUMAN and game.plan_index < len(game.human_plan):
            action = game.human_plan[game.plan_index]
            if action.unit_id and len(action.path) > 1:
                a, b = action.path[-2], action.path[-1]
                heading = bearing_deg(a, b) if a != b else self.poses[action.unit_id][2]
                if game.state.table.contains_base(b, game.state.unit(action.unit_id).radius_in):
                    self.poses[action.unit_id] = (b[0], b[1], heading)
                else:
                    self.poses.pop(action.unit_id, None)

    def step(self) -> None:
        """One observation, then the player's response."""
        steps_before = len(self.game.steps)
        self.game.observe(self.observation())
        if len(self.game.steps) != steps_before and self.game.stage is not Stage.REMOVAL:
            self.sync()
        self.act()

    def run_until(self, stage: Stage, max_steps: int = 3000) -> None:
        """Play on until the game reaches ``stage``."""
        for _ in range(max_steps):
            if self.game.stage is stage:
                return
            self.step()
        raise AssertionError(f"never reached {stage}; stuck in {self.game.stage}")

    def play(self, max_steps: int = 3000) -> None:
        """Observe and act until the battle is over."""
        self.run_until(Stage.OVER, max_steps)


def simulated_plan(name: str, seed: int) -> tuple[tuple[Action, ...], BattleRecord]:
    """The player's actions in the simulated battle of scenario ``name`` with ``seed`` (the AI
    against the autopilot): moves, passes and choices, in order; and that battle."""
    scenario, ruleset, state = load_game(name)
    record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(seed))
    human = state.side_of_role(Role.HUMAN)
    assert human is not None
    plan = tuple(
        a
        for a in record.actions
        if (a.unit_id and state.unit(a.unit_id).side == human.name)
        or (a.kind in (ActionKind.PASS, ActionKind.CHOOSE) and a.side == human.name)
    )
    return plan, record


def planned_game(name: str, seed: int, dice: Dice, said: list[str]) -> LiveGame:
    """A live game of scenario ``name`` whose player's actions are those of the simulated
    battle with ``seed`` (the AI against the autopilot); what it says goes to ``said``."""
    scenario, ruleset, state = load_game(name)
    return LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=dice,
        say=said.append,
        initial=state,
        human_plan=simulated_plan(name, seed)[0],
    )
