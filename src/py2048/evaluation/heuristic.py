"""The built-in evaluation: a hand-made score of each row and column, read from a table.

Every row and every column of the board (read left to right, top to bottom) is scored on its
own, and the board's value is the sum of its eight lines. A line's score is precomputed for all
2**20 possible lines (5-bit exponents, like the engine's move tables), so evaluating a board is
eight table reads. For a line of exponents ``e0..e3`` (0 = empty) the terms are:

- ``empty``: each empty cell is room to move;
- ``merges``: each pair of equal neighbours (after skipping nothing) can merge next move;
- ``monotonicity``: a penalty for tiles that go up and then down along the line, measured in
  ``e ** monotonicity_power`` so that disorder among big tiles costs much more;
- ``sum``: a penalty on ``sum(e ** sum_power)``, so that, between boards with the same shape,
  the one that has merged more (fewer, bigger tiles) is preferred.

Together they push the tiles into a monotone arrangement with the big ones along an edge and in
a corner, and keep cells free. The weights are in :class:`HeuristicParams`;
``docs/solver-reference.md`` ("Tuning the heuristic") says how they were measured.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass

import numpy as np
from numba import njit

from py2048.engine.board import ROW_COUNT, row_index, transpose_hi, transpose_lo
from py2048.evaluation.contract import KERNEL_SIGNATURE, Evaluator


@dataclass(frozen=True)
class HeuristicParams:
    """Weights of the line terms (see the module docstring)."""

    lost_penalty: float = 1_000_000.0
    """What losing costs, against the board's own score (see ``Evaluator.lost_penalty``)."""
    empty: float = 1000.0
    merges: float = 700.0
    monotonicity: float = 40.0
    monotonicity_power: float = 3.0
    sum: float = 11.0
    sum_power: float = 3.5


@njit(cache=True)
def _line_scores(
    empty_weight: float,
    merges_weight: float,
    monotonicity_weight: float,
    monotonicity_power: float,
    sum_weight: float,
    sum_power: float,
) -> np.ndarray:
    table = np.zeros((1, ROW_COUNT), dtype=np.float32)
    line = np.zeros(4, dtype=np.int64)
    for index in range(ROW_COUNT):
        for c in range(4):
            line[c] = ((index >> (4 * c)) & 0xF) | (((index >> (16 + c)) & 1) << 4)
        total = 0.0
        empty = 0
        merges = 0
        previous = 0
        run = 0
        for c in range(4):
            e = line[c]
            total += float(e) ** sum_power
            if e == 0:
                empty += 1
                continue
            if previous == e:
                run += 1
            elif run > 0:
                merges += 1 + run
                run = 0
            previous = e
        if run > 0:
            merges += 1 + run
        rising = 0.0
        falling = 0.0
        for c in range(1, 4):
            a = float(line[c - 1]) ** monotonicity_power
            b = float(line[c]) ** monotonicity_power
            if a > b:
                falling += a - b
            else:
                rising += b - a
        table[0, index] = (
            empty_weight * empty
            + merges_weight * merges
            - monotonicity_weight * min(rising, falling)
            - sum_weight * total
        )
    return table


def line_table(params: HeuristicParams) -> np.ndarray:
    """The (1, 2**20) float32 table of line scores for these weights."""
    return _line_scores(*(float(x) for x in astuple(params)[1:]))


@njit(KERNEL_SIGNATURE, cache=True, nogil=True)
def evaluate(lo: np.uint64, hi: np.uint64, weights: np.ndarray, layout: np.ndarray) -> float:
    """Sum of the table scores of the four rows and the four columns."""
    t_lo = transpose_lo(lo)
    t_hi = transpose_hi(hi)
    total = 0.0
    for r in range(4):
        total += weights[0, row_index(lo, hi, r)]
        total += weights[0, row_index(t_lo, t_hi, r)]
    return total


def heuristic_evaluator(params: HeuristicParams | None = None) -> Evaluator:
    """An Evaluator with these weights (the default ones when ``params`` is None)."""
    params = params or HeuristicParams()
    return Evaluator(
        "heuristic",
        evaluate,
        line_table(params),
        np.zeros((0, 0), dtype=np.int64),
        gain_weight=0.0,
        lost_penalty=params.lost_penalty,
        lines=True,
    )
