"""A piece the camera cannot see is placed by hand on the page (issue 23): the ``place`` command
stands it where the player put it, marked "placed by hand" until the camera sees it again, and
the game goes on with it, in set-up and mid-battle; play never stalls on a tag it cannot read."""

from __future__ import annotations

from assistant.live_commands import Command
from assistant.session.by_hand import OFFER_AFTER_S
from assistant.session.game import Expectation, LiveGame, Stage
from assistant.session.observation import Observation, PieceSeen
from assistant.session.view import build_view
from engine.runner import BattleRecord
from tests.session.live_games import live_game
from tests.session.virtual_table import VirtualTable

SCENARIO, SEED = "crossroads-ambush", 3
HIDDEN = ("goblin-boss", "sergeant")
"""One model of each side whose tag the camera never reads."""


def _game(said: list[str]) -> tuple[LiveGame, BattleRecord]:
    game, record = live_game(SCENARIO, SEED, said, planned=True)
    assert record is not None
    return game, record


def _place(game: LiveGame, unit_id: str, x_in: float, y_in: float, heading_deg: float) -> None:
    """What the page sends once the player has dragged a piece into place."""
    game.command(Command("place", unit_id=unit_id, x_in=x_in, y_in=y_in, heading_deg=heading_deg))


class UnreadTable(VirtualTable):
    """A perfect player at a table where some models' tags are never read: the player places
    those by hand on the page wherever the game needs them."""

    def __init__(self, game: LiveGame, hidden: tuple[str, ...]) -> None:
        super().__init__(game)
        self.hidden = hidden
        self.placed = 0

    def observation(self) -> Observation:
        obs = super().observation()
        pieces = {uid: p for uid, p in obs.pieces.items() if uid not in self.hidden}
        return Observation(obs.t, obs.settled, pieces)

    def act(self) -> None:
        game = self.game
        if game.stage is Stage.SETUP and any(c.offered for c in game.setup_watch.checks):
            game.command(Command("confirm"))  # "They stand as the scenario says"
            return
        exp = game.expected
        hidden = exp is not None and exp.unit_id in self.hidden and not exp.off_table
        if game.stage is Stage.AI_ORDER and exp is not None and hidden:
            self.placed += 1  # the model moved as ordered, and placed so on the page
            _place(game, exp.unit_id, exp.x_in, exp.y_in, exp.heading_deg)
            return
        super().act()


def test_set_up_offers_an_unseen_piece_after_a_few_seconds_and_place_starts_the_battle() -> None:
    said: list[str] = []
    game, _ = _game(said)
    table = UnreadTable(game, HIDDEN[:1])
    game.observe(table.observation())
    assert game.stage is Stage.SETUP and said == []  # perhaps still being set out
    view = build_view(game)
    assert [u.place_offered for u in view.units if u.id == HIDDEN[0]] == [False]
    while table.t < OFFER_AFTER_S + 1.0:
        game.observe(table.observation())
    assert game.stage is Stage.SETUP
    assert said == [
        "Goblin Boss: I cannot see its tag. Is it covered? Uncover it, or place it by hand on "
        "the page."
    ]
    view = build_view(game)
    assert [u.place_offered for u in view.units if u.id == HIDDEN[0]] == [True]
    assert {c.name: c.state for c in view.checklist}["Goblin Boss"] == "unseen"
    assert [c.offered for c in view.checklist if c.name == "Goblin Boss"] == [True]

    boss = game.state.unit(HIDDEN[0])
    _place(game, boss.id, boss.x, boss.y, boss.heading_deg)
    assert said[1:3] == [
        "Goblin Boss is placed by hand.",
        "The table matches Ambush at the Crossroads Shrine. Let battle begin.",
    ]
    assert game.stage is not Stage.SETUP
    view = build_view(game)
    assert view.checklist == ()
    assert [(u.placed_by_hand, u.place_offered) for u in view.units if u.id == boss.id] == [
        (True, False)
    ]

    # The camera sees its tag again: no longer placed by hand.
    table.hidden = ()
    game.observe(table.observation())
    assert not build_view(game).units[[u.id for u in view.units].index(boss.id)].placed_by_hand
    assert boss.id not in game.placements.poses


def test_a_battle_with_two_unread_tags_plays_to_the_simulated_outcome() -> None:
    """The camera never reads one model of each side: set-up takes them as set out (the
    confirm button, once offered), AI orders for the hidden one are placed by hand, and the
    player's declared moves of theirs stand where the game puts them; the battle ends as
    ``simulate`` ends it."""
    said: list[str] = []
    game, record = _game(said)
    table = UnreadTable(game, HIDDEN)
    table.play()
    assert game.state.winner == record.final.winner
    assert game.state.round == record.final.round
    assert [u.status for u in game.state.units] == [u.status for u in record.final.units]
    assert table.placed >= 1  # an AI order for a hidden model was carried out by hand


def test_confirm_in_set_up_takes_the_unseen_pieces_as_set_out() -> None:
    """The confirm button (on the page, or the button tag) in set-up: every model the camera
    cannot see stands where the scenario puts it, placed by hand."""
    said: list[str] = []
    game, _ = _game(said)
    table = UnreadTable(game, HIDDEN)
    while table.t < OFFER_AFTER_S + 1.0:
        game.observe(table.observation())
    assert game.stage is Stage.SETUP and len(said) == 2
    game.command(Command("confirm"))
    assert sorted(said[2:4]) == [
        "Goblin Boss is placed by hand.",
        "Sergeant Ash is placed by hand.",
    ]
    assert game.stage is not Stage.SETUP
    for uid in HIDDEN:
        assert game.placements.poses[uid].by_hand


def _ordered_move_hidden(said: list[str]) -> tuple[LiveGame, Expectation]:
    """The first AI order that moves a model, carried out with its tag hidden at its new
    place (the camera sees it nowhere)."""
    game, _ = _game(said)
    table = VirtualTable(game)
    while not (game.stage is Stage.AI_ORDER and game.expected and game.expected.moves):
        table.step()
    exp = game.expected
    assert exp is not None
    table.poses.pop(exp.unit_id)
    game.observe(table.observation())
    return game, exp


def test_mid_battle_a_hidden_ordered_model_is_placed_by_hand_and_judged_there() -> None:
    said: list[str] = []
    game, exp = _ordered_move_hidden(said)
    step = game.state.step
    # Its tag is never seen at its new place: the order waits, and says how to go on.
    assert game.state.step == step and game.stage is Stage.AI_ORDER
    name = game.state.unit(exp.unit_id).name
    assert said[-1] == (
        f"I can't see {name}'s tag. Nudge the model so its tag shows, or press confirm, or "
        "place it by hand on the page."
    )
    # Placed by hand an inch off: told how to fix it, in the player's words; then placed right.
    _place(game, exp.unit_id, exp.x_in + 1.0, exp.y_in, exp.heading_deg)
    assert game.state.step == step and said[-1] == f"Move {name} 1.0 inches to the left."
    _place(game, exp.unit_id, exp.x_in, exp.y_in, exp.heading_deg)
    assert game.state.step > step  # carried out: play goes on
    # It stands where the game has it, by hand, until the camera sees it.
    pose = game.placements.poses[exp.unit_id]
    unit = game.state.unit(exp.unit_id)
    assert pose.by_hand and (pose.x_in, pose.y_in) == (unit.x, unit.y)


def test_a_place_for_a_piece_not_on_the_table_is_refused_in_words() -> None:
    said: list[str] = []
    game, _ = _game(said)
    _place(game, "nobody", 1.0, 1.0, 0.0)
    assert said == ["That piece is not on the table; nothing was placed."]
    assert game.placements.poses == {}


def test_on_the_players_turn_a_hidden_model_placed_by_hand_is_the_move() -> None:
    """The player moves a model whose tag the camera cannot read, and places it by hand where
    it now stands: that is the move the camera did not see; declared, the game goes on."""
    said: list[str] = []
    game, _ = _game(said)
    game.human_plan = ()  # a real player, declaring on the page
    table = VirtualTable(game)
    table.run_until(Stage.HUMAN)
    turn = game.adapter.turn(game.state, game.ruleset)
    unit = game.state.unit(turn.candidates[0])
    table.poses.pop(unit.id)  # lifted, and set down with its tag hidden
    game.observe(table.observation())
    assert game.human_move_unit is None
    step = game.state.step
    _place(game, unit.id, unit.x, unit.y + 2.0, 0.0)
    assert game.human_move_unit == unit.id
    assert said[-1] == game.adapter.moved_prompt(game.state, unit, 2.0)
    game.declare("done", None)
    assert game.state.step > step
    assert game.state.unit(unit.id).position == (unit.x, unit.y + 2.0)
    assert game.placements.poses[unit.id].by_hand


def test_an_ordered_model_confirmed_unseen_stands_by_hand_where_it_was_ordered() -> None:
    said: list[str] = []
    game, exp = _ordered_move_hidden(said)
    step = game.state.step
    game.command(Command("confirm"))  # the page's button, or the button tag
    assert game.state.step > step
    unit = game.state.unit(exp.unit_id)
    assert game.placements.poses[unit.id] == PieceSeen(
        unit.x, unit.y, unit.heading_deg, by_hand=True
    )
    assert [u.placed_by_hand for u in build_view(game).units if u.id == unit.id] == [True]
