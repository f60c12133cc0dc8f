"""A seeded battle's true moves and removals fed straight to the replay's engine reading
(:class:`~assistant.replay.engine_replay.GameReplayer`), with no render: what the reading makes
of a system's rules when the camera misses nothing. Inches, degrees, seconds."""

from __future__ import annotations

from assistant.footage import BattleMoves, battle_moves
from assistant.replay.engine_replay import GameReplayer
from assistant.replay.engine_story import EngineReplay, Removal
from assistant.replay.reconstruct import PieceMove
from assistant.scenarios import load_game
from vision.render.sequence import PieceMove as Change
from vision.render.sequence import PieceRemoval

MOVE_S = 1.5
"""How long the hand takes over each move, seconds (one change every 3 s)."""


def fed_move(
    change: Change,
    names: dict[str, str],
    pose: dict[str, tuple[float, float, float]],
    t: float,
) -> PieceMove:
    """One of the battle's piece moves (``change``: a move of :func:`~assistant.footage.battle_moves`) as the
    replay sees it begin at ``t`` seconds from the piece's last ``pose`` (inches, degrees, kept
    up to date here); ``names``: piece names by unit id."""
    x, y, heading = pose.get(change.piece, (change.x_in, change.y_in, change.heading_deg))
    to = (change.x_in, change.y_in)
    pose[change.piece] = (*to, change.heading_deg)
    return PieceMove(
        names[change.piece], "", (), (x, y), to, heading, change.heading_deg, t, t + MOVE_S
    )


def fed_replay(
    scenario: str, seed: int, max_actions: int | None = None
) -> tuple[EngineReplay, BattleMoves]:
    """The battle ``simulate`` plays at ``seed`` (its first ``max_actions`` actions) and the
    replay's reading of its changes, one every 3 s in the order the player makes them."""
    loaded, ruleset, state = load_game(scenario)
    played = battle_moves(loaded, ruleset, state, seed, max_actions)
    names = {u.id: u.name for u in state.units}
    pose = {u.id: (u.x, u.y, u.heading_deg) for u in state.units}
    moves: list[PieceMove] = []
    removals: list[Removal] = []
    t = 1.0
    for change in played.moves:
        if isinstance(change, PieceRemoval):
            removals.append(Removal(names[change.piece], t))
        else:
            moves.append(fed_move(change, names, pose, t))
        t += 2 * MOVE_S
    start = {names[u.id]: (u.x, u.y, u.heading_deg) for u in state.units if u.on_table}
    return GameReplayer(scenario).replay(moves, removals, start), played
