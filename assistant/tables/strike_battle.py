"""A strike-system battle of any size as a scenario file (RULES §3.1.a: 3 to 100 soldiers a
side): two armies in ranks at opposite edges of a table that grows with them, a few pieces of
scenery and seed 003's objectives (D001A-07). Used by the 100-a-side test and the benchmark.
"""

from __future__ import annotations

import math

TYPE_CYCLE = (
    "assault",
    "heavy",
    "artillery",
    "skirmish",
    "support",
    "assault",
    "heavy",
    "skirmish",
)
"""The types of the rank and file, in turn (one soldier in ten is a command)."""

CARDS: dict[str, str] = {
    "command": 'type = "command", initiative = 2, speed_in = 5, threat = "medium", toughness = 3, points = 3',
    "assault": 'type = "assault", initiative = 1, speed_in = 6, threat = "close", toughness = 2, deadly = true, points = 2',
    "heavy": 'type = "heavy", initiative = 1, speed_in = 4, threat = "assault", toughness = 3, points = 2',
    "artillery": 'type = "artillery", initiative = 1, speed_in = 4, threat = "far", toughness = 2, points = 2',
    "skirmish": 'type = "skirmish", initiative = 1, speed_in = 6, threat = "medium", toughness = 2',
    "support": 'type = "support", initiative = 1, speed_in = 5, threat = "assault", toughness = 2',
}
SPACING_IN = 1.6
"""Centre-to-centre spacing of the ranks, inches."""


def table_size_in(per_side: int) -> float:
    """A square table wide enough for the ranks (24 in up to 14 a side, 48 in at 100)."""
    per_rank = max(1, math.ceil(per_side / 4))
    return max(24.0, min(72.0, 12.0 * math.ceil((per_rank * SPACING_IN + 2.0) / 12.0)))


def battle_toml(per_side: int, name: str = "strike-host", rounds: int = 4) -> str:
    """The scenario file's text: ``per_side`` soldiers a side (1 to 100), ``rounds`` rounds."""
    if not 1 <= per_side <= 100:
        raise ValueError(f"soldiers a side: from 1 to 100, not {per_side}")
    size = table_size_in(per_side)
    lines = [
        "version = 1",
        "[scenario]",
        f'name = "{name}-{per_side}"',
        f'title = "A strike battle of {per_side} a side"',
        'ruleset = "strike"',
        'ai_controller = "strike-ai"',
        'human_controller = "strike-ai"',
        "[options]",
        f"max_rounds = {rounds}",
        "[table]",
        f"width_in = {size:g}",
        f"depth_in = {size:g}",
        "[[sides]]",
        'name = "North"',
        'role = "ai"',
        'edge = "back"',
        "[[sides]]",
        'name = "South"',
        'role = "human"',
        'edge = "front"',
    ]
    per_rank = max(1, math.ceil(per_side / 4))
    for side, y0, step, heading in (("South", 1.0, 1, 0), ("North", size - 1.0, -1, 180)):
        for k in range(per_side):
            rank, file = divmod(k, per_rank)
            kind = "command" if k % 10 == 0 else TYPE_CYCLE[k % len(TYPE_CYCLE)]
            x = (size - (per_rank - 1) * SPACING_IN) / 2.0 + file * SPACING_IN
            y = y0 + step * rank * SPACING_IN
            lines += [
                "[[units]]",
                f'id = "{side.lower()}-{k + 1}"',
                f'name = "{side} {kind} {k + 1}"',
                f'side = "{side}"',
                f"x = {x:.3f}",
                f"y = {y:.3f}",
                f"heading = {heading}",
                f"card = {{ {CARDS[kind]}{', leader = true' if k == 0 else ''} }}",
            ]
    mid = size / 2.0
    for i, (x0, y0, w, d, cover, blocks) in enumerate(
        (
            (mid - 1.5, mid + 3.0, 3.0, 2.0, "hard", "true"),
            (mid / 2.0 - 1.0, mid - 4.0, 2.0, 3.0, "soft", "false"),
            (1.5 * mid - 1.0, mid - 4.0, 2.0, 3.0, "soft", "false"),
        )
    ):
        poly = [[x0, y0], [x0 + w, y0], [x0 + w, y0 + d], [x0, y0 + d]]
        lines += [
            "[[terrain]]",
            f'id = "piece-{i + 1}"',
            f'name = "scenery {i + 1}"',
            f"polygon = {poly}",
            f"blocks_los = {blocks}",
            f"impassable = {blocks}",
            f'cover = "{cover}"',
        ]
    return "\n".join(lines) + "\n"
