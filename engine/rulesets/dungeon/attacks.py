"""Lines of attack in the grid game (RULES §6.h, D004-10): whether a figure can use a weapon
on a target from a square (reach, adjacency and a clear line, :meth:`Board.line_clear`), and
why not, in squares.
"""

from __future__ import annotations

from engine.geometry.grid import Cell, chebyshev
from engine.model import Unit
from engine.rulesets.dungeon.board import Board
from engine.rulesets.dungeon.cards import Attack
from engine.rulesets.dungeon.state import card_of, cell_of


def can_attack(
    board: Board, unit: Unit, attack: Attack, target: Unit, frm: Cell | None = None
) -> bool:
    """Whether ``unit`` can use ``attack`` on ``target`` from ``frm`` (default: where it
    stands): :func:`attack_problem` without its sentence (the planners' fast screen)."""
    here = frm if frm is not None else cell_of(unit)
    there = cell_of(target)
    dist = max(abs(here[0] - there[0]), abs(here[1] - there[1]))
    if dist == 0:
        return False
    reach = 1 if attack.adjacent_only else attack.max_range_sq
    if reach is not None and dist > reach:
        return False
    if attack.forbid_adjacent_target and dist == 1:
        return False
    if attack.forbidden_if_enemy_adjacent:
        for (c, r), u in board.at.items():
            if u.side != unit.side and abs(c - here[0]) <= 1 and abs(r - here[1]) <= 1:
                return False
    return not (attack.needs_clear_line or dist == 1) or board.line_clear(unit, here, target)


def attack_problem(
    board: Board, unit: Unit, attack: Attack, target: Unit, frm: Cell | None = None
) -> str | None:
    """Why ``unit`` cannot use ``attack`` on ``target`` from ``frm`` (default: where it
    stands), in squares; None when it can (RULES §6.h, D004-10)."""
    if can_attack(board, unit, attack, target, frm):
        return None
    here = frm if frm is not None else cell_of(unit)
    there = cell_of(target)
    dist = chebyshev(here, there)
    me, them = card_of(unit).title, card_of(target).title
    if dist == 0:
        return f"the {them} is on the {me}'s own square"
    if attack.adjacent_only and dist > 1:
        return (
            f"the {me}'s {attack.name} reaches only an adjacent square; the {them} is "
            f"{dist} squares away"
        )
    if attack.max_range_sq is not None and dist > attack.max_range_sq:
        return (
            f"the {me}'s {attack.name} reaches {attack.max_range_sq} squares; the {them} is "
            f"{dist} squares away"
        )
    if attack.forbid_adjacent_target and dist == 1:
        return f"the {me} cannot use its {attack.name} on an adjacent figure"
    if attack.forbidden_if_enemy_adjacent:
        near = [u for u in board.enemies(unit) if chebyshev(here, cell_of(u)) == 1]
        if near:
            return (
                f"the {me} cannot use the {attack.name} with the {card_of(near[0]).title} adjacent"
            )
    return f"no straight unblocked line of squares from the {me} to the {them}"
