"""Each of the 18 combat tactics (RULES §5.l, D003-23) changes the status AI's target or
destination against the same figure without a tactic, on a small grid."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.actions import Action
from engine.dice import ScriptedDice
from engine.model import GameState
from engine.protocols import find_controller
from engine.rulesets.d20.state import rules_of
from tests.d20.test_rules_builders import (
    ENEMIES,
    alerted,
    battle,
    enemy,
    hero,
    ruleset,
    settle,
    start,
)

AI = find_controller("status-d20")


def _state(units: list[dict[str, Any]], **kw: Any) -> GameState:
    state = start(battle(units, **kw), first=ENEMIES)
    ids = [u["id"] for u in units if u["side"] == ENEMIES]
    return alerted(state, *ids)


def _with_tactic(state: GameState, uid: str, tactic: str) -> GameState:
    unit = state.unit(uid)
    return state.with_unit(replace(unit, rules=replace(rules_of(unit), tactic=tactic)))


def choice(state: GameState, uid: str) -> tuple[str, str | None, tuple[int, int] | None]:
    """(action kind, target, the cell a move ends on) of the AI's order."""
    order = AI.decide(state, ruleset(), uid, ScriptedDice([1] * 8))
    a = order.action
    grid = state.table.grid
    assert grid is not None
    cell = grid.cell_at(a.path[-1]) if a.kind == "move" and len(a.path) > 1 else None
    return (str(a.kind), a.target_id, cell)


def changes(state: GameState, uid: str, tactic: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The choice without a tactic and with ``tactic``; they must differ."""
    plain = choice(_with_tactic(state, uid, ""), uid)
    tactical = choice(_with_tactic(state, uid, tactic), uid)
    assert plain != tactical, f"{tactic} chose like no tactic: {plain}"
    return plain, tactical


def test_ambitious_goes_for_the_greatest_threat() -> None:
    units = [hero("weak", "F7", weapons=[{"name": "stick", "kind": "melee", "damage": 0}]),
             hero("champion", "F10", attack_twice=True, points=5), enemy("e", "F6")]  # fmt: skip
    plain, tactical = changes(_state(units), "e", "ambitious")
    assert plain[:2] == ("attack", "weak") and tactical[0] == "move"


def test_cautious_hangs_back_behind_an_ally() -> None:
    units = [hero("h", "F12"), enemy("e", "F4"), enemy("front", "F8")]
    plain, tactical = changes(_state(units), "e", "cautious")
    assert plain[2] is not None and (tactical[2] is None or tactical[2][1] < plain[2][1])


def test_commanding_gives_its_allies_a_focus() -> None:
    units = [hero("h1", "B10"), hero("h2", "K10"), enemy("boss", "K6", tactic="commanding"),
             enemy("grunt", "B6")]  # fmt: skip
    state = _state(units)
    order = AI.decide(state, ruleset(), "boss", ScriptedDice([1] * 4))
    assert order.memory is not None and dict(order.memory)["focus"] == "h2"
    ordered = state.with_memory(ENEMIES, order.memory)
    assert choice(state, "grunt")[2] != choice(ordered, "grunt")[2]  # toward h2, not h1
    changes(state.with_memory(ENEMIES, (("focus", "h1"), ("focus_round", 1))), "boss", "commanding")


def test_controlling_prefers_the_area_blow() -> None:
    bomb = [{"name": "bomb", "kind": "short", "area": True}]
    units = [hero("lone", "C9"), hero("a", "I10"), hero("b", "J10"), hero("c", "I11"),
             enemy("e", "F6", weapons=bomb)]  # fmt: skip
    plain, tactical = changes(_state(units), "e", "controlling")
    assert plain[1] == "lone" and tactical[1] in ("a", "b", "c")


def test_curious_investigates_the_objective_first() -> None:
    objectives = ({"id": "o", "name": "the strange device", "x": 1.5, "y": 8.5},)
    units = [hero("h", "F12"), enemy("e", "F4")]
    plain, tactical = changes(_state(units, objectives=objectives), "e", "curious")
    assert tactical[2] is not None and tactical[2][0] < plain[2][0]


def test_determined_finishes_its_foe() -> None:
    units = [hero("near", "F8"), hero("duel", "K8"), enemy("e", "F5")]
    state = _state(units).with_memory(ENEMIES, (("target:e", "duel"),))
    plain, tactical = changes(state, "e", "determined")
    assert tactical[2] is not None and tactical[2][0] > plain[2][0]


def test_dramatic_uses_its_stunt() -> None:
    arms = [
        {"name": "club", "kind": "melee"},
        {"name": "firework", "kind": "short", "special": True},
    ]
    units = [hero("h", "F9"), enemy("e", "F5", weapons=arms)]
    plain, tactical = changes(_state(units), "e", "dramatic")
    assert plain[0] == "move" and tactical == ("attack", "h", None)


def test_efficient_picks_the_easiest_kill() -> None:
    units = [hero("tough", "F8", wounds=3), hero("frail", "I9"), enemy("e", "F5")]
    plain, tactical = changes(_state(units), "e", "efficient")
    assert plain[2] != tactical[2]


def test_negotiating_prefers_the_stun() -> None:
    arms = [{"name": "spear", "kind": "melee"},
            {"name": "net", "kind": "short", "stun": True, "damage": 0}]  # fmt: skip
    units = [hero("h", "F9"), enemy("e", "F5", weapons=arms)]
    plain, tactical = changes(_state(units), "e", "negotiating")
    assert plain[0] == "move" and tactical == ("attack", "h", None)


def test_opportunistic_makes_for_the_treasure() -> None:
    objectives = ({"id": "o", "name": "the chest", "x": 10.5, "y": 8.5},)
    units = [hero("h", "C12"), enemy("e", "F4")]
    plain, tactical = changes(_state(units, objectives=objectives), "e", "opportunistic")
    assert tactical[2] is not None and tactical[2][0] > plain[2][0]


def test_partnership_attacks_its_partners_target() -> None:
    units = [hero("near", "F8"), hero("marked", "K8"), enemy("e", "F5"), enemy("pal", "K5")]
    state = _state(units).with_memory(ENEMIES, (("target:pal", "marked"),))
    plain, tactical = changes(state, "e", "partnership")
    assert tactical[2] is not None and tactical[2][0] > plain[2][0]


def test_pragmatic_strikes_from_cover() -> None:
    woods = {"id": "w", "name": "the woods", "polygon": [[3, 6], [5, 6], [5, 8], [3, 8]],
             "cover": "soft"}  # fmt: skip
    units = [hero("h", "F12"), enemy("e", "F3")]
    _plain, tactical = changes(_state(units, terrain=(woods,)), "e", "pragmatic")
    assert tactical[2] in {(3, 4), (4, 4), (3, 5), (4, 5)}


def test_quick_changes_its_foe_and_runs() -> None:
    spear = [{"name": "spear", "kind": "reach"}]
    # "other" two spaces to the side: behind "last" (F8) the hero in between would block the
    # spear's line (§5.g: every attack needs line of sight).
    units = [hero("last", "F7"), hero("other", "D6"), enemy("e", "F6", weapons=spear)]
    state = _state(units).with_memory(ENEMIES, (("target:e", "last"),))
    plain, tactical = changes(state, "e", "quick")
    assert plain[1] == "last" and tactical[1] == "other"
    after = ruleset().apply(_with_tactic(state, "e", "quick"), Action("attack", "e", target_id="other"),
                            ScriptedDice([1])).state  # fmt: skip
    assert choice(after, "e")[0] == "move"  # hit and run
    assert choice(_with_tactic(after, "e", ""), "e")[0] == "pass"


def test_reckless_charges_in_regardless_of_cover() -> None:
    woods = {"id": "w", "name": "the woods", "polygon": [[0, 7], [3, 7], [3, 10], [0, 10]],
             "cover": "soft"}  # fmt: skip
    bow = [{"name": "bow", "kind": "long"}]
    units = [hero("h", "F12"), enemy("e", "C4", weapons=bow)]
    state = _state(units, terrain=(woods,))
    state = _with_tactic(state, "e", "")
    _plain, tactical = changes(state, "e", "reckless")
    assert tactical[2] is not None and tactical[2][1] > 3


def test_selective_shoots_from_afar() -> None:
    arms = [{"name": "sword", "kind": "melee"}, {"name": "bow", "kind": "long"}]
    units = [hero("h", "F12"), enemy("e", "F4", weapons=arms)]
    plain, tactical = changes(_state(units), "e", "selective")
    assert plain[2] is not None and plain[2][1] > 3  # closing in with the sword
    assert tactical[2] is not None and tactical[2][1] < 3  # back off, still in bow range


def test_slaying_wades_in_beside_the_most_heroes() -> None:
    units = [hero("h1", "F8"), hero("h2", "H8"), enemy("e", "F4")]
    _plain, tactical = changes(_state(units), "e", "slaying")
    assert tactical[2] == (6, 6)


def test_unexpected_is_rolled_again_before_the_encounter() -> None:
    units = [hero("weak", "F7", weapons=[{"name": "stick", "kind": "melee", "damage": 0}]),
             hero("champion", "F10", attack_twice=True, points=5),
             enemy("e", "F6", tactic="unexpected")]  # fmt: skip
    rs = ruleset()
    state = settle(rs.new_game(battle(units)), ScriptedDice([1, 1, 20]))
    assert state.unit("e").rules.tactic == "ambitious"  # type: ignore[attr-defined]
    state = alerted(state, "e")
    assert choice(state, "e") != choice(_with_tactic(state, "e", ""), "e")


def test_vengeful_goes_for_the_most_wounded() -> None:
    units = [hero("fresh", "F8", wounds=3), hero("bleeding", "J8", wounds=3), enemy("e", "F5")]
    state = _state(units)
    state = state.with_unit(replace(state.unit("bleeding"), wounds=2))
    plain, tactical = changes(state, "e", "vengeful")
    assert tactical[2] is not None and tactical[2][0] > plain[2][0]
