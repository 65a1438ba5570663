"""Where every tile goes in a move: what a front end needs to animate it.

The paths come from :func:`~py2048.engine.board.slide_line`, the same rule the move tables are
built from, applied to each line in the direction of the move.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from py2048.engine.board import SIZE, slide_line
from py2048.engine.direction import Direction


@dataclass(frozen=True, slots=True)
class TileMotion:
    """One tile's path: from ``(row, col)`` to ``(row, col)``; ``merged`` if it met its twin."""

    value: int
    from_cell: tuple[int, int]
    to_cell: tuple[int, int]
    merged: bool


def line_cells(direction: Direction, index: int) -> list[tuple[int, int]]:
    """The cells of line ``index``, starting at the edge the move pushes toward."""
    near_to_far = range(SIZE) if direction in (Direction.LEFT, Direction.UP) else range(3, -1, -1)
    if direction in (Direction.LEFT, Direction.RIGHT):
        return [(index, c) for c in near_to_far]
    return [(r, index) for r in near_to_far]


def trace(exponents: list[int], direction: Direction) -> list[TileMotion]:
    """Every tile's path when ``direction`` is played on the 16 row-major ``exponents``.

    Tiles that do not move are included (from and to the same cell), so a view can rebuild the
    board from the motions alone.
    """
    motions: list[TileMotion] = []
    line = np.zeros(SIZE, dtype=np.uint8)
    out = np.zeros(SIZE, dtype=np.uint8)
    dest = np.zeros(SIZE, dtype=np.int8)
    for index in range(SIZE):
        cells = line_cells(direction, index)
        for i, (r, c) in enumerate(cells):
            line[i] = exponents[r * SIZE + c]
        slide_line(line, out, dest)
        targets = [int(d) for d in dest]
        for i, (r, c) in enumerate(cells):
            if targets[i] < 0:
                continue
            merged = targets.count(targets[i]) == 2
            motions.append(TileMotion(1 << int(line[i]), (r, c), cells[targets[i]], merged))
    return motions
