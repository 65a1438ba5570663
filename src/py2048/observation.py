"""What a learner sees of a game: its board as an observation, and its legal moves as a mask.

An observation is the board's 16 exponents, or one-hot planes (:data:`ONEHOT_PLANES` of them,
plane ``e`` marking the cells that hold exponent ``e``). :class:`py2048.batch.Batch` and the
Gymnasium environments (:mod:`py2048.env`) write theirs with these kernels; the rules stay in
:mod:`py2048.engine`, which knows nothing of learners.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from py2048.engine.board import MAX_EXPONENT, cell_exponent

ONEHOT_PLANES = MAX_EXPONENT + 1
"""Planes of a one-hot observation: plane ``e`` marks the cells holding exponent ``e``."""


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
def write_mask_row(mask: int, out: np.ndarray, i: int) -> None:
    """Row ``i`` of an (N, 4) action-mask array from a legal-move bitmask."""
    for d in range(4):
        out[i, d] = (mask >> d) & 1
