"""What a learner sees of a game: its board as an observation, and its legal moves as a mask.

An observation is the board's exponents, one per cell (16 on 4x4), or one-hot planes (plane
``e`` marking the cells that hold exponent ``e``; :func:`onehot_planes` of them for a size,
:data:`ONEHOT_PLANES` on 4x4). :class:`py2048.batch.Batch` and the Gymnasium environments
(:mod:`py2048.env`) write theirs with these kernels: :func:`write_observation` from a packed 4x4
board, :func:`write_cells_observation` from the exponents of a board of any size. The rules
stay in :mod:`py2048.engine`, which knows nothing of learners.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from py2048.engine.board import MAX_EXPONENT, cell_exponent
from py2048.engine.size import BoardSize

ONEHOT_PLANES = MAX_EXPONENT + 1
"""Planes of a one-hot 4x4 observation: plane ``e`` marks the cells holding exponent ``e``."""


def onehot_planes(size: BoardSize) -> int:
    """Planes of a one-hot observation on ``size``: one per exponent, 0 (empty) to the largest."""
    return size.max_exponent + 1


@njit(cache=True, nogil=True)
def write_observation(lo: np.uint64, hi: np.uint64, out: np.ndarray) -> None:
    """Write a board into a flat buffer: 16 exponents, or 18 x 16 one-hot planes (288 bytes)."""
    if out.size == 16:
        for cell in range(16):
            out[cell] = cell_exponent(lo, hi, cell)
    else:
        out[:] = 0
        for cell in range(16):
            out[cell_exponent(lo, hi, cell) * 16 + cell] = 1


@njit(cache=True, nogil=True)
def write_cells_observation(cells: np.ndarray, out: np.ndarray) -> None:
    """Write a board of any size (its row-major exponents) into a flat buffer: the exponents
    themselves, or one-hot planes (plane ``e`` at ``out[e * cells.size:]``)."""
    n = cells.size
    if out.size == n:
        for cell in range(n):  # element by element: kernels without reference counting call
            out[cell] = cells[cell]  # this (py2048._uncounted), and out[:] = cells would allocate
    else:
        out[:] = 0
        for cell in range(n):
            out[cells[cell] * n + cell] = 1


@njit(cache=True, nogil=True)
def write_mask_row(mask: int, out: np.ndarray, i: int) -> None:
    """Row ``i`` of an (N, 4) action-mask array from a legal-move bitmask."""
    for d in range(4):
        out[i, d] = (mask >> d) & 1
