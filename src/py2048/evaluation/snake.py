"""The endgame formation as a number: how much of the board's large tiles run down a snake.

The endgame tables (:mod:`py2048.tables`) answer only boards whose large tiles run down a
snake from a corner, and the network alone often lets that formation go in the late game: it
even values a 16384 pulled out of its corner above the same tiles held in line
(``docs/solver-reference.md``, "Pulling the search toward the formation"). The default
evaluation (``"ntuple-snake"``, :func:`py2048.evaluation.ntuple.snake_evaluator`) therefore adds
to the network's value :data:`PULL` times :func:`snake_sum`: the sum of the tiles of at least
``2**MIN_EXPONENT`` along the longest non-increasing run of a snake path that starts in a
corner. A merge along the snake keeps the sum, so the bonus changes only when a large tile joins
or leaves the snake: it is the price, in points, that the search puts on breaking the formation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from py2048.engine.board import cell_exponent
from py2048.engine.geometry import SNAKE, SYMMETRIES

MIN_EXPONENT = 8
"""Tiles from 256 up count in the snake. Measured on the late-game positions of
``benchmarks/endgame.py`` (``docs/solver-reference.md``, "Pulling the search toward the formation"):
counting from 128 reached fewer 32768s, from 512 no clearly more. It is the pull's own setting, not
where the tables start: they answer from chains of 256 (:data:`py2048.solver.endgame.MIN_TAIL`), a
setting measured on its own."""
PULL = 1.0
"""The default evaluation's points of value per point of tiles held in the snake (chosen on
the late-game positions of ``benchmarks/endgame.py``: ``docs/solver-reference.md``, "Pulling the
search toward the formation")."""


SNAKE_PATHS = np.array([[s[cell] for cell in SNAKE] for s in SYMMETRIES], dtype=np.int64)
"""The snake (:data:`py2048.engine.geometry.SNAKE`, the endgame tables' too) from each corner,
first along a row or along a column: one row of cell numbers per symmetry of the board."""


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
