"""The heuristic's line terms: one row or column of exponents scored on its own.

A line of exponents ``e0..e(n-1)`` (0 = empty) scores

- ``empty``: each empty cell;
- ``merges``: each pair of equal tiles next to each other once empty cells are skipped (a run
  of ``k`` equal tiles counts ``k``);
- ``monotonicity``: minus the smaller of the line's rises and falls, each step measured in
  ``e ** monotonicity_power``: a penalty for tiles that go up and then down;
- ``sum``: minus ``sum(e ** sum_power)``, so that the board that has merged more is preferred.

This is the one home of those terms: :mod:`py2048.evaluation.heuristic` tabulates them for
every 4-cell line of the 4x4 board, and :mod:`py2048.evaluation.lines` reads them from boards
of any size. The weights travel as one record, :class:`LineWeights` (typed
:data:`LINE_WEIGHTS` for compiled code), with the powers of every exponent precomputed, so a
line costs one pass over its cells and no power is taken at a leaf.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types

POWER_ROWS = 128
"""Exponents the power tables cover (8x8's largest is 65)."""


class LineWeights(NamedTuple):
    """The line terms' weights as compiled code reads them (see the module docstring)."""

    empty: float
    merges: float
    monotonicity: float
    sum: float
    lost_penalty: float
    powers: np.ndarray
    """(2, POWER_ROWS) float64: ``e ** monotonicity_power`` and ``e ** sum_power``."""


LINE_WEIGHTS = types.NamedTuple(
    (types.float64,) * 5 + (types.float64[:, ::1],),
    LineWeights,
)
"""The numba type of :class:`LineWeights`."""


def exponent_powers(monotonicity_power: float, sum_power: float) -> np.ndarray:
    """:attr:`LineWeights.powers` for these two powers."""
    exponents = np.arange(POWER_ROWS, dtype=np.float64)
    return np.ascontiguousarray(np.stack([exponents**monotonicity_power, exponents**sum_power]))


@njit(
    types.float64(types.uint8[::1], types.int64, types.int64, types.int64, LINE_WEIGHTS),
    cache=True,
    nogil=True,
)
def line_score(cells, first, step, length, weights):
    """The score of the line of ``length`` cells of ``cells`` from ``first`` on, ``step``
    apart."""
    mono = weights.powers[0]
    power = weights.powers[1]
    empty = 0
    merges = 0
    previous = 0
    run = 0
    total = 0.0
    rising = 0.0
    falling = 0.0
    last = 0.0
    for k in range(length):
        e = int(cells[first + k * step])
        here = mono[e]
        if k > 0:
            if last > here:
                falling += last - here
            else:
                rising += here - last
        last = here
        if e == 0:
            empty += 1
            continue
        total += power[e]
        if previous == e:
            run += 1
        elif run > 0:
            merges += 1 + run
            run = 0
        previous = e
    if run > 0:
        merges += 1 + run
    return (
        weights.empty * empty
        + weights.merges * merges
        - weights.monotonicity * min(rising, falling)
        - weights.sum * total
    )
