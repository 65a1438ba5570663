"""Where every tile goes in a move: what a front end needs to animate it.

The paths come from :func:`~py2048.engine.board.slide_line`, the same rule the move tables are
built from, applied to each line in the direction of the move.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from py2048.engine.board import slide_line
from py2048.engine.direction import Direction
from py2048.engine.size import DEFAULT_SIZE, BoardSize


@dataclass(frozen=True, slots=True)
class TileMotion:
    """One tile's path: from ``(row, col)`` to ``(row, col)``; ``merged`` if it met its twin."""

    value: int
    from_cell: tuple[int, int]
    to_cell: tuple[int, int]
    merged: bool


def line_cells(
    direction: Direction, index: int, size: BoardSize = DEFAULT_SIZE
) -> list[tuple[int, int]]:
    """The cells of line ``index``, starting at the edge the move pushes toward."""
    horizontal = direction in (Direction.LEFT, Direction.RIGHT)
    length = size.cols if horizontal else size.rows
    near_to_far = (
        range(length) if direction in (Direction.LEFT, Direction.UP) else range(length - 1, -1, -1)
    )
    if horizontal:
        return [(index, c) for c in near_to_far]
    return [(r, index) for r in near_to_far]


def trace(
    exponents: list[int], direction: Direction, size: BoardSize = DEFAULT_SIZE
) -> list[TileMotion]:
    """Every tile's path when ``direction`` is played on the row-major ``exponents``.

    Tiles that do not move are included (from and to the same cell), so a view can rebuild the
    board from the motions alone. ``size`` is the board's shape (4x4 unless given).
    """
    motions: list[TileMotion] = []
    horizontal = direction in (Direction.LEFT, Direction.RIGHT)
    lines = size.rows if horizontal else size.cols
    for index in range(lines):
        cells = line_cells(direction, index, size)
        line = [exponents[r * size.cols + c] for r, c in cells]
        targets = _destinations(line, size.max_exponent)
        for i, (r, c) in enumerate(cells):
            if targets[i] < 0:
                continue
            merged = targets.count(targets[i]) == 2
            motions.append(TileMotion(1 << int(line[i]), (r, c), cells[targets[i]], merged))
    return motions


def _destinations(line: list[int], cap: int) -> list[int]:
    """Where each cell of ``line`` ends (-1 for empty cells), sliding toward index 0.

    On lines of four this is :func:`slide_line`, the rule the move tables are built from;
    other lengths follow the same rule written out here (the grid kernels hold to it too).
    """
    if len(line) == 4 and cap == 17:
        out = np.zeros(4, dtype=np.uint8)
        dest = np.zeros(4, dtype=np.int8)
        slide_line(np.array(line, dtype=np.uint8), out, dest)
        return [int(d) for d in dest]
    targets = [-1] * len(line)
    filled = 0
    last = 0
    can_absorb = False
    for i, e in enumerate(line):
        if e == 0:
            continue
        if can_absorb and last == e and e < cap:
            targets[i] = filled - 1
            can_absorb = False
        else:
            targets[i] = filled
            last = e
            filled += 1
            can_absorb = True
    return targets
