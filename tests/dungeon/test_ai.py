"""The enemies' status AI (``patrol-d8``, RULES §6.d, D004-09) and the heroes' autopilot
(``dungeon-heroes``): what each orders on small boards."""

from __future__ import annotations

from engine.actions import Order
from engine.controllers.dungeon_heroes import DungeonHeroes
from engine.controllers.patrol_d8 import PatrolD8
from engine.dice import RandomSource, ScriptedDice, SeededDice
from engine.geometry.grid import chebyshev
from engine.model import GameState
from engine.protocols import Controller
from tests.dungeon.boards import acting, ruleset, started


def plan(
    state: GameState,
    uid: str,
    controller: Controller | None = None,
    dice: RandomSource | None = None,
) -> Order:
    ai = controller or PatrolD8()
    order = ai.decide(state, ruleset(), uid, dice or ScriptedDice([]))
    # Every action of the order is legal in turn.
    r = ruleset()
    for action in order.actions:
        assert r.validate(state, action) == [], action
        state = r.apply(state, action, SeededDice(1)).state
    return order


def end_cell(state: GameState, order: Order, uid: str) -> tuple[int, int]:
    move = next((a for a in order.actions if a.kind == "move"), None)
    if move is None:
        cell = state.unit(uid).cell
        assert cell is not None
        return cell
    col, row = move.get("cells")[-1]
    return (col, row)


def weapons(order: Order) -> list[tuple[str, str | None]]:
    return [(a.get("weapon"), a.target_id) for a in order.actions if a.kind == "attack"]


def test_troll_keeps_its_spear_range() -> None:
    figures = [("t", "troll", (0, 0), 180, "enemy"), ("h", "thief", (0, 6), 0, "hero")]
    state = acting(started(8, 8, figures, heroes_have_moved=True, alerted=("t",)), "t")
    order = plan(state, "t")
    assert weapons(order) == [("spear", "h")]
    assert 2 <= chebyshev(end_cell(state, order, "t"), (0, 6)) <= 5


def test_troll_with_a_hero_adjacent_steps_back_to_throw_its_spear() -> None:
    figures = [("t", "troll", (3, 3), 180, "enemy"), ("h", "thief", (3, 4), 0, "hero")]
    state = acting(started(8, 8, figures, heroes_have_moved=True, alerted=("t",)), "t")
    order = plan(state, "t")
    assert weapons(order) == [("spear", "h")]
    assert chebyshev(end_cell(state, order, "t"), (3, 4)) == 2


def test_goblin_closes_to_melee() -> None:
    figures = [("g", "goblin", (0, 0), 180, "enemy"), ("h", "thief", (0, 3), 0, "hero")]
    state = acting(started(8, 8, figures, heroes_have_moved=True, alerted=("g",)), "g")
    order = plan(state, "g")
    assert weapons(order) == [("axe", "h")]
    assert chebyshev(end_cell(state, order, "g"), (0, 3)) == 1


def test_goblin_out_of_reach_walks_toward_the_nearest_hero_around_a_wall() -> None:
    walls = ((0, 2), (1, 2), (2, 2))
    figures = [("g", "goblin", (0, 0), 180, "enemy"), ("h", "thief", (0, 6), 0, "hero")]
    state = acting(started(8, 8, figures, walls, heroes_have_moved=True, alerted=("g",)), "g")
    order = plan(state, "g")
    assert weapons(order) == []
    assert end_cell(state, order, "g") == (2, 1)  # toward the gap at (3, 2)


def test_dragon_claws_the_adjacent_hero_and_breathes_on_another() -> None:
    figures = [
        ("d", "dragon", (0, 0), 180, "enemy"),
        ("x", "fighting_man", (1, 1), 0, "hero"),
        ("y", "thief", (4, 0), 0, "hero"),
    ]
    state = acting(started(8, 8, figures, heroes_have_moved=True, alerted=("d",)), "d")
    order = plan(state, "d")
    assert sorted(weapons(order)) == [("breath", "y"), ("claws", "x")]


def test_equidistant_heroes_are_chosen_by_a_logged_roll() -> None:
    figures = [
        ("g", "goblin", (3, 0), 180, "enemy"),
        ("a", "thief", (1, 5), 0, "hero"),
        ("b", "priest", (5, 5), 0, "hero"),
    ]
    state = acting(started(8, 8, figures, heroes_have_moved=True, alerted=("g",)), "g")
    for roll, hero in ((1, "a"), (2, "b")):
        dice = ScriptedDice([roll])
        order = plan(state, "g", dice=dice)
        assert "nearest hero" in dice.rolls[0].purpose
        col = end_cell(state, order, "g")[0]
        assert (col < 3) if hero == "a" else (col > 3)


def test_a_healer_goes_to_heal_the_wounded_arch_foe() -> None:
    shaman = (
        '{ kind = "shaman", attacks = [{ name = "staff", wound_on = 5, adjacent_only = true }],'
        " heal = { wound_on = 3, uses = 2 } }"
    )
    figures = [
        ("d", "dragon", (0, 0), 180, "enemy"),
        ("s", shaman, (3, 0), 180, "enemy"),
        ("h", "thief", (7, 7), 0, "hero"),
    ]
    state = started(8, 8, figures, heroes_have_moved=True, alerted=("d", "s"))
    state = state.with_unit(state.unit("d").__class__(**{**state.unit("d").__dict__, "wounds": 2}))
    state = acting(state, "s")
    order = plan(state, "s")
    assert [a.kind for a in order.actions] == ["move", "heal"]
    assert order.actions[-1].target_id == "d"


def test_priest_heals_a_badly_wounded_neighbour() -> None:
    figures = [
        ("pr", "priest", (3, 3), 0, "hero"),
        ("mu", "magic_user", (3, 4), 0, "hero"),
        ("g", "goblin", (7, 0), 180, "enemy"),
    ]
    state = started(8, 8, figures, heroes_have_moved=True)
    mu = state.unit("mu")
    state = state.with_unit(mu.__class__(**{**mu.__dict__, "wounds": 1}))
    order = plan(acting(state, "pr"), "pr", DungeonHeroes())
    assert order.actions[-1].kind == "heal" and order.actions[-1].target_id == "mu"


def test_magic_user_throws_fireballs_from_a_clear_square() -> None:
    figures = [("mu", "magic_user", (0, 7), 0, "hero"), ("t", "troll", (0, 2), 180, "enemy")]
    state = acting(started(8, 8, figures, heroes_have_moved=True, alerted=("t",)), "mu")
    order = plan(state, "mu", DungeonHeroes())
    assert weapons(order) == [("fireball", "t")]


def test_the_heroes_autopilot_never_rolls_the_games_dice() -> None:
    """So a simulated game and the same game at the table (the player deciding) use one dice
    stream: every seed replays."""
    from pathlib import Path

    from engine.protocols import find_controller
    from engine.runner import next_action
    from engine.scenario import parse_scenario

    path = Path(__file__).resolve().parents[2] / "assistant/data/scenarios/dungeon-crawl.toml"
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name)
    r = ruleset()
    controllers = {
        "Heroes": find_controller("dungeon-heroes"),
        "Monsters": find_controller("patrol-d8"),
    }
    for seed in range(1, 9):
        state = r.new_game(scenario)
        dice = SeededDice(seed)
        planned: list[object] = []
        while True:
            side = r.pending(state).side
            before = len(dice.log)
            chosen = next_action(state, r, controllers, dice, planned)  # type: ignore[arg-type]
            if chosen is None:
                break
            if side == "Heroes":
                assert len(dice.log) == before, dice.log[before:]
            state = r.apply(state, chosen[0], dice).state


def test_an_enemy_attacks_the_closest_hero_it_can() -> None:
    figures = [
        ("t", "troll", (0, 0), 180, "enemy"),
        ("far", "thief", (0, 7), 0, "hero"),
        ("near", "priest", (4, 4), 0, "hero"),
    ]
    state = acting(started(8, 8, figures, heroes_have_moved=True, alerted=("t",)), "t")
    order = plan(state, "t")
    assert weapons(order) == [("spear", "near")]
