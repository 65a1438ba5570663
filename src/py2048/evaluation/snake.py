"""The endgame formation as a number: how much of the board's large tiles run down a snake.

The endgame tables (:mod:`py2048.tables`) answer only boards whose large tiles run down a
snake from a corner, and the network alone often lets that formation go in the late game: it
even values a 16384 pulled out of its corner above the same tiles held in line
(``docs/solver-notes.md``). The default evaluation (``"ntuple-snake"``,
:func:`py2048.evaluation.ntuple.snake_evaluator`) therefore adds to the network's value
:data:`PULL` times :func:`snake_sum`: the sum of the tiles of at least ``2**MIN_EXPONENT``
along the longest non-increasing run of a snake path that starts in a corner. A merge along
the snake keeps the sum, so the bonus changes only when a large tile joins or leaves the snake:
it is the price, in points, that the search puts on breaking the formation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from py2048.engine.board import cell_exponent

MIN_EXPONENT = 8
"""Tiles from 256 up count as large (the tables' chains start there)."""
PULL = 1.0
"""The default evaluation's points of value per point of tiles held in the snake (chosen on
the late-game positions of ``benchmarks/endgame.py``: ``docs/solver-notes.md``)."""


def _snake_paths() -> np.ndarray:
    """The 8 snake paths (cell numbers ``4 * row + column``): from each corner, first along a
    row or along a column, turning back at every edge."""
    rows = [[4 * r + c for c in (range(4) if r % 2 == 0 else range(3, -1, -1))] for r in range(4)]
    first = [cell for row in rows for cell in row]
    paths = []
    for transpose in (False, True):
        for flip_rows in (False, True):
            for flip_columns in (False, True):
                path = []
                for cell in first:
                    r, c = divmod(cell, 4)
                    if transpose:
                        r, c = c, r
                    if flip_rows:
                        r = 3 - r
                    if flip_columns:
                        c = 3 - c
                    path.append(4 * r + c)
                paths.append(path)
    return np.array(paths, dtype=np.int64)


SNAKE_PATHS = _snake_paths()


@njit(cache=True, nogil=True)
def snake_sum(lo: np.uint64, hi: np.uint64, min_exponent: int) -> int:
    """The largest sum of tiles (each at least ``2**min_exponent``) along a non-increasing run
    from the start of a snake path."""
    best = 0
    for s in range(SNAKE_PATHS.shape[0]):
        total = 0
        previous = 99
        for i in range(16):
            exponent = cell_exponent(lo, hi, SNAKE_PATHS[s, i])
            if exponent < min_exponent or exponent > previous:
                break
            total += 1 << exponent
            previous = exponent
        if total > best:
            best = total
    return best
