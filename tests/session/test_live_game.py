"""The live game's state machine at a virtual table: the same battle as ``simulate``,
corrections for misplaced models, illegal moves flagged, physical dice, undo."""

from __future__ import annotations

from assistant.live_commands import Command
from assistant.scenarios import load_game
from assistant.session.dice import AutoDice, QueuedDice
from assistant.session.game import LiveGame, Stage
from assistant.session.observation import Observation, PieceSeen
from engine.actions import Action, ActionKind
from engine.dice import ScriptedDice, SeededDice
from engine.model import Role
from engine.protocols import find_controller
from engine.rulesets.narrative.state import with_rules
from engine.runner import controllers_for, play_battle
from tests.session.virtual_table import VirtualTable


def _game(scenario_name: str, seed: int, plan: bool = True, physical: bool = False):
    scenario, ruleset, state = load_game(scenario_name)
    said: list[str] = []
    human_plan = ()
    record = None
    if plan:
        record = play_battle(state, ruleset, controllers_for(scenario), SeededDice(seed))
        human = state.side_of_role(Role.HUMAN)
        assert human is not None
        human_plan = tuple(
            a
            for a in record.actions
            if (a.unit_id and state.unit(a.unit_id).side == human.name)
            or (a.kind == ActionKind.PASS and a.side == human.name)
        )
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=QueuedDice() if physical else AutoDice(seed),
        say=said.append,
        initial=state,
        human_plan=human_plan,
    )
    return game, said, record


def test_live_loop_reaches_the_simulated_outcome() -> None:
    for name, seed in (("crossroads-ambush", 3), ("ford-at-dawn", 7)):
        game, said, record = _game(name, seed)
        VirtualTable(game).play()
        assert record is not None
        assert game.state.winner == record.final.winner
        assert game.state.round == record.final.round
        assert [u.status for u in game.state.units] == [u.status for u in record.final.units]
        assert any("win" in s or "draw" in s for s in said[-2:])


def test_misplaced_ai_move_is_corrected_then_accepted() -> None:
    game, said, _ = _game("crossroads-ambush", 3)
    table = VirtualTable(game)
    while not (game.stage is Stage.AI_ORDER and game.expected and game.expected.moves):
        table.step()
    exp = game.expected
    assert exp is not None and exp.moves
    steps = len(game.steps)
    table.poses[exp.unit_id] = (exp.x_in + 1.0, exp.y_in, exp.heading_deg)
    game.observe(table.observation())
    assert game.stage is Stage.AI_ORDER and len(game.steps) == steps
    assert "1.0 inches to the left" in said[-1]
    table.poses[exp.unit_id] = (exp.x_in + 0.1, exp.y_in - 0.1, exp.heading_deg + 5)
    game.observe(table.observation())
    assert len(game.steps) == steps + 1


def test_illegal_player_move_is_flagged_with_its_reason() -> None:
    game, said, _ = _game("crossroads-ambush", 5, plan=False)
    table = VirtualTable(game)
    table.run_until(Stage.HUMAN)
    unit = game.state.unit(game.ruleset.pending(game.state).candidates[0])
    table.poses[unit.id] = (unit.x, unit.y + 9.0, unit.heading_deg)
    game.observe(table.observation())
    assert "not legal" in said[-1] and "more than its" in said[-1]
    game.declare("done", None)
    assert "fix the move" in said[-1]
    table.poses[unit.id] = (unit.x, unit.y + 4.0, unit.heading_deg)
    game.observe(table.observation())
    assert "moved 4.0 inches" in said[-1]
    steps = len(game.steps)
    game.declare("done", None)
    assert len(game.steps) == steps + 1


def test_physical_dice_prompt_and_undo() -> None:
    game, said, _ = _game("crossroads-ambush", 1, plan=False, physical=True)
    table = VirtualTable(game)
    game.observe(table.observation())
    assert game.stage is Stage.DICE and "6-sided die" in said[-1]
    game.command(Command(kind="dice", value=2))  # 1-3: the AI side starts
    assert game.state.round == 1 and game.stage is Stage.AI_ORDER
    game.command(Command(kind="undo"))
    assert game.state.round == 0
    assert game.stage is Stage.DICE


def test_unknown_and_fallen_tags_are_reported_once() -> None:
    game, said, _ = _game("crossroads-ambush", 3, plan=False)
    table = VirtualTable(game)
    obs = table.observation()
    game.observe(Observation(obs.t, True, obs.pieces, unknown_tags=(37,)))
    game.observe(Observation(obs.t + 1, True, obs.pieces, unknown_tags=(37,)))
    assert sum("tag 37" in s for s in said) == 1
    assert PieceSeen  # the module's value type is what the camera side fills in


def test_saved_game_resumes_to_the_same_outcome(tmp_path) -> None:
    from assistant.session.store import load_saved, saver

    game, _, record = _game("ford-at-dawn", 7)
    save_file = tmp_path / "game.json"
    game.on_saved = saver(save_file, "ford-at-dawn", 7)
    table = VirtualTable(game)
    while len(game.steps) < 12:
        table.step()
    assert save_file.exists() and game.stage is not Stage.OVER
    resumed, ref, seed = load_saved(save_file, lambda text: None)
    assert ref == "ford-at-dawn" and seed == 7
    assert resumed.state == game.state
    resumed.human_plan = game.human_plan
    resumed._advance()
    VirtualTable(resumed).play()
    assert record is not None and resumed.state.winner == record.final.winner


def test_a_game_saved_with_the_old_action_words_still_loads(tmp_path) -> None:
    """Saves written before the shared vocabulary call a chance step "initiative" and a flight
    "rout"; the loader reads them as "chance" and "flee"."""
    import json

    from assistant.session.store import action_from_saved, load_saved, saver

    assert action_from_saved({"kind": "initiative"}) == Action(ActionKind.CHANCE)
    assert action_from_saved({"kind": "rout", "unit": "x"}) == Action(ActionKind.FLEE, "x")
    game, _, _ = _game("ford-at-dawn", 7)
    save_file = tmp_path / "game.json"
    game.on_saved = saver(save_file, "ford-at-dawn", 7)
    table = VirtualTable(game)
    while len(game.steps) < 6:
        table.step()
    data = json.loads(save_file.read_text(encoding="utf-8"))
    kinds = [step["action"]["kind"] for step in data["steps"]]
    assert "chance" in kinds
    for step in data["steps"]:
        step["action"]["kind"] = {"chance": "initiative", "flee": "rout"}.get(
            step["action"]["kind"], step["action"]["kind"]
        )
    save_file.write_text(json.dumps(data), encoding="utf-8")
    resumed, _, _ = load_saved(save_file, lambda text: None)
    assert resumed.state == game.state


def test_an_undo_is_saved_and_logged(tmp_path) -> None:
    """An undo reaches the saved game (a resume does not bring the step back) and the event log
    (a new step after it is logged, under the undo)."""
    from assistant.session.live import _log_new
    from assistant.session.store import load_saved, saver

    game, said, _ = _game("crossroads-ambush", 1, plan=False, physical=True)
    game.on_saved = saver(tmp_path / "game.json", "crossroads-ambush", 1)
    table = VirtualTable(game)
    log: list[dict] = []
    marks = (0, 0)

    def log_new() -> None:
        nonlocal marks
        marks = _log_new(game, lambda e, t: log.append(e), *marks, 0.0, undos)

    undos = game.undos
    game.observe(table.observation())
    game.command(Command(kind="dice", value=2))  # the initiative roll
    log_new()
    undos = game.undos
    game.command(Command(kind="undo"))
    resumed, _, _ = load_saved(tmp_path / "game.json", lambda text: None)
    assert resumed.steps == [] and resumed.state.round == 0
    assert [a.text for a in resumed.announcements] == said  # "Undone." and the roll asked again
    game.command(Command(kind="dice", value=5))  # rolled again: the player's side starts
    log_new()
    kinds = [
        (e["type"], e.get("steps", e.get("number"))) for e in log if e["type"] in ("step", "undo")
    ]
    assert kinds == [("step", 1), ("undo", 0), ("step", 1)]
    assert [e["text"] for e in log if e["type"] == "announcement"] == said


def test_a_routing_characters_flight_is_ordered_for_the_player() -> None:
    """The engine's forced decision point (``Pending.forced``): with the player's company
    routing, the assistant orders the first routing character's flight through the decision
    driver, and the player is not asked which character acts."""
    scenario, ruleset, state = load_game("crossroads-ambush")
    player_first = ruleset.apply(state, Action(ActionKind.CHANCE), ScriptedDice([5])).state
    routing = with_rules(player_first, routing_companies=frozenset({"Road Wardens"}))
    said: list[str] = []
    game = LiveGame(
        scenario=scenario,
        ruleset=ruleset,
        ai=find_controller(scenario.scenario.ai_controller),
        dice=AutoDice(2),
        say=said.append,
        initial=routing,
    )
    VirtualTable(game).run_until(Stage.AI_ORDER)
    assert game.order is not None and game.order.action.kind == ActionKind.FLEE
    assert game.order.action.unit_id == "sergeant" and not game.steps
    assert said[-1].startswith("Sergeant Ash: ")
