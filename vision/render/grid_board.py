"""The printed grid board on the synthetic table: the kit's board sheet as the camera sees it.

A square-grid game is played on a printed board (``soloscope markers --scenario ...``): white
paper with the grid of squares, shaded wall squares, column letters and row numbers outside the
grid and labelled start squares. :func:`paint_grid_board` paints it into the table texture of
:mod:`vision.render.mat` (the grid's front-left corner at the play area's corner; the corner
tags are drawn by the renderer as for any table). Millimetres on the table; cells are
(column, row) with row 0 at the far edge.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

Cell = tuple[int, int]

PAPER_BGR = (228, 232, 234)
LINE_BGR = (40, 40, 40)
WALL_BGR = (150, 156, 160)
"""A shaded wall square: clearly grey, never dark enough to read as a tag's black cell."""
LABEL_BGR = (30, 30, 30)


@dataclass(frozen=True)
class PrintedGrid:
    """The printed board: ``cols`` x ``rows`` squares of ``cell_mm``, walls and labels."""

    cols: int
    rows: int
    cell_mm: float = 25.4
    walls: tuple[Cell, ...] = ()
    marks: tuple[tuple[Cell, str], ...] = ()
    """Labelled squares (a possible start square: "Dragon 1-2")."""
    paper_margin_mm: float = 45.0
    """White paper beyond the grid on every side (the printed sheet reaches the corner tags)."""
    label_gap_mm: float = 6.0
    """Distance from the grid's edge to the middle of its letters and numbers."""


def paint_grid_board(
    image: npt.NDArray[np.uint8],
    board: PrintedGrid,
    px_per_mm: float,
    origin_px: float,
) -> None:
    """Paint ``board`` into a table texture (in place); texture pixel (col, row) shows table
    point x_mm = (col - origin_px) / px_per_mm, y_mm = (rows - 1 - row - origin_px) / px_per_mm
    (the layout of :class:`vision.render.mat.MatTexture`)."""
    h = image.shape[0]
    s = board.cell_mm

    def px(x_mm: float, y_mm: float) -> tuple[int, int]:
        return (
            round(origin_px + x_mm * px_per_mm),
            round(h - 1 - origin_px - y_mm * px_per_mm),
        )

    w_mm, d_mm = board.cols * s, board.rows * s
    m = board.paper_margin_mm
    cv2.rectangle(image, px(-m, d_mm + m), px(w_mm + m, -m), PAPER_BGR, -1)

    def cell_corners(cell: Cell) -> tuple[tuple[int, int], tuple[int, int]]:
        col, row = cell
        top = (board.rows - row) * s
        return px(col * s, top), px((col + 1) * s, top - s)

    for cell in board.walls:
        a, b = cell_corners(cell)
        cv2.rectangle(image, a, b, WALL_BGR, -1)
    thin = max(1, round(0.3 * px_per_mm))
    thick = max(thin + 1, round(0.6 * px_per_mm))
    for c in range(board.cols + 1):
        cv2.line(
            image, px(c * s, 0), px(c * s, d_mm), LINE_BGR, thick if c in (0, board.cols) else thin
        )
    for r in range(board.rows + 1):
        cv2.line(
            image, px(0, r * s), px(w_mm, r * s), LINE_BGR, thick if r in (0, board.rows) else thin
        )
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = max(0.3, 0.045 * s * px_per_mm / 10.0)
    stroke = max(1, round(scale * 2))

    def label(text: str, x_mm: float, y_mm: float, size: float = 1.0) -> None:
        (tw, th), _ = cv2.getTextSize(text, font, scale * size, stroke)
        cx, cy = px(x_mm, y_mm)
        cv2.putText(
            image,
            text,
            (cx - tw // 2, cy + th // 2),
            font,
            scale * size,
            LABEL_BGR,
            stroke,
            cv2.LINE_AA,
        )

    for c in range(board.cols):
        letter = chr(ord("A") + c)
        label(letter, (c + 0.5) * s, d_mm + board.label_gap_mm)
        label(letter, (c + 0.5) * s, -board.label_gap_mm)
    for r in range(board.rows):
        y = (board.rows - r - 0.5) * s
        label(str(r + 1), -board.label_gap_mm, y)
        label(str(r + 1), w_mm + board.label_gap_mm, y)
    for (col, row), text in board.marks:
        label(text, (col + 0.5) * s, (board.rows - row - 0.2) * s, 0.35)
