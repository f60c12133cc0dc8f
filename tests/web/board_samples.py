"""Sample board views and a table frame shared by the live hub and web page tests."""

from __future__ import annotations

import cv2
import numpy as np

from assistant.live_view import (
    AnnouncementView,
    BoardView,
    DeclareOption,
    OrderView,
    PoseView,
    PromptView,
    SideView,
    SightLineView,
    StatusView,
    TerrainView,
    UnitView,
)


def make_view(
    *,
    round_: int = 2,
    prompt: PromptView | None = None,
    order_text: str = "",
    outcome: str | None = None,
) -> BoardView:
    """A 24 x 24 in skirmish: two orcs (AI) against two rangers (the player), two terrain pieces."""
    order = OrderView(
        unit_id="orc-captain",
        text=order_text
        or "Orc Captain: pivot left about 40 degrees, move 4 inches toward the ruined tower, "
        "then shoot the Ranger.",
        ghost=PoseView(9.0, 14.5, 300.0),
        path_in=((12.0, 16.0), (10.5, 15.0), (9.0, 14.5)),
        target_id="ranger",
        reason="the nearest enemy in the open",
    )
    return BoardView(
        table_width_in=24.0,
        table_depth_in=24.0,
        round=round_,
        turn="orcs",
        title="Ambush at the tower",
        sides=(SideView("orcs", "Orc warband", "ai"), SideView("rangers", "Rangers", "player")),
        terrain=(
            TerrainView("ruined tower", "building", "heavy", ((4, 10), (8, 10), (8, 14), (4, 14))),
            TerrainView("pine woods", "woods", "light", ((15, 4), (20, 5), (19, 9), (14, 8))),
        ),
        units=(
            UnitView("orc-captain", "Orc Captain", "orcs", 12.0, 16.0, 200.0, 1.0, 1, 3),
            UnitView(
                "orc-archer",
                "Orc Archer",
                "orcs",
                18.0,
                19.0,
                180.0,
                1.0,
                0,
                1,
                ranges_in=(18.0,),
                front_arc_deg=90.0,
            ),
            UnitView(
                "ranger",
                "Ranger",
                "rangers",
                6.0,
                6.0,
                20.0,
                1.0,
                0,
                2,
                activated=True,
                ranges_in=(24.0,),
                front_arc_deg=90.0,
            ),
            UnitView("scout", "Scout", "rangers", 20.0, 3.0, 0.0, 1.0, 1, 1, status="fallen"),
        ),
        order=order,
        sight_lines=(
            SightLineView(
                "orc-captain", "ranger", True, "light", 11.3, "across the tower's corner"
            ),
        ),
        announcements=(
            AnnouncementView(3.5, "Round 2. The orcs have the initiative."),
            AnnouncementView(9.0, order.text),
        ),
        prompt=prompt,
        statuses=(StatusView("The Scout's tag is hidden: nudge the piece.", "warning"),),
        outcome=outcome,
    )


def crowded_view() -> BoardView:
    """A 24 x 24 in table with a tight knot of ten pieces between a wood and a wall."""
    names = (
        "Warden Captain", "Raider Chief", "Archer Wren", "Slinger Mote", "Spearman Holt",
        "Brute Gorm", "Spearman Brand", "Slinger Burr", "Archer Fen", "Brute Skarn",
    )  # fmt: skip
    spots = (
        (10.0, 12.0), (11.3, 12.0), (12.6, 12.0), (10.6, 13.2), (11.9, 13.2),
        (10.0, 10.8), (11.3, 10.8), (12.6, 10.8), (13.9, 12.0), (11.9, 14.4),
    )  # fmt: skip
    units = tuple(
        UnitView(
            f"u{i}",
            name,
            "raiders" if i % 2 else "wardens",
            x,
            y,
            90.0 * (i % 4),
            1.0,
            0,
            2,
        )
        for i, (name, (x, y)) in enumerate(zip(names, spots, strict=True))
    )
    return BoardView(
        table_width_in=24.0,
        table_depth_in=24.0,
        round=1,
        turn="raiders",
        title="Crowded ford",
        sides=(SideView("raiders", "Raiders", "ai"), SideView("wardens", "Wardens", "player")),
        terrain=(
            TerrainView("the copse", "woods", "light", ((8, 14), (11, 14), (11, 16), (8, 16))),
            TerrainView("the hedge", "wall", "heavy", ((14, 9), (15, 9), (15, 14), (14, 14))),
        ),
        units=units,
    )


def declare_prompt() -> PromptView:
    """The player's declaration for the Ranger: shoot or melee the orcs, or pass."""
    return PromptView(
        "declare",
        "Ranger: declare an action",
        options=(
            DeclareOption("shoot", ("orc-captain", "orc-archer")),
            DeclareOption("melee", ("orc-captain",)),
            DeclareOption("pass"),
        ),
        unit_id="ranger",
    )


def dice_prompt(sides: int = 6) -> PromptView:
    """A physical-dice prompt."""
    return PromptView(
        "dice", "Roll to hit the Ranger: enter the die", purpose="to hit", sides=sides
    )


def table_jpeg(width_px: int = 480, height_px: int = 480) -> bytes:
    """A real JPEG of a green table with a grid every 3 inches (a 24 in table at 20 px/in)."""
    image = np.full((height_px, width_px, 3), (60, 110, 70), np.uint8)
    for i in range(0, width_px, width_px // 8):
        cv2.line(image, (i, 0), (i, height_px), (90, 140, 100), 1)
        cv2.line(image, (0, i), (width_px, i), (90, 140, 100), 1)
    ok, buffer = cv2.imencode(".jpg", image)
    assert ok
    return buffer.tobytes()
